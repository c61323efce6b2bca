import Foundation

/// What a model's files call things: the map from source roles (T2, Q2, ...) to variable
/// names and units. Data, not code: the built-in WRF and MM5 profiles are JSON, and a site
/// adds its own aliases with `--profile FILE`.
public struct ModelProfile: Codable, Sendable, Equatable {
    /// Which metadata reader applies: WRF global attributes, or MM5 archiver scalars.
    public enum Convention: String, Codable, Sendable { case wrf, mm5 }

    /// One source: candidate names, tried in order, and the unit the values are in.
    public struct Source: Codable, Sendable, Equatable {
        public var names: [String]
        public var unit: String?
    }

    public var name: String
    public var convention: Convention
    public var description: String?
    /// Candidate names of the time, south_north and west_east dimensions.
    public var dimensions: [String: [String]]
    public var sources: [String: Source]

    /// A built-in profile ("wrf", "mm5") or a profile file.
    ///
    /// - Throws: `IngestError.badProfile` naming the file and what is wrong with it.
    public static func load(_ nameOrPath: String) throws -> ModelProfile {
        if let text = BuiltinProfiles.all[nameOrPath.lowercased()] {
            return try decode(Data(text.utf8), origin: "built-in profile \(nameOrPath)")
        }
        guard let data = FileManager.default.contents(atPath: nameOrPath) else {
            throw IngestError.badProfile(origin: nameOrPath, reason: "no such file, and not a built-in profile (\(BuiltinProfiles.all.keys.sorted().joined(separator: ", ")))")
        }
        return try decode(data, origin: nameOrPath)
    }

    /// The JSON text of a built-in profile, for `tilecast profile NAME`.
    public static func builtinText(_ name: String) -> String? { BuiltinProfiles.all[name.lowercased()] }

    /// The names of the built-in profiles.
    public static var builtinNames: [String] { BuiltinProfiles.all.keys.sorted() }

    static func decode(_ data: Data, origin: String) throws -> ModelProfile {
        let profile: ModelProfile
        do {
            profile = try JSONDecoder().decode(ModelProfile.self, from: data)
        } catch {
            throw IngestError.badProfile(origin: origin, reason: "not a valid profile: \(error)")
        }
        for (role, source) in profile.sources {
            guard let unit = source.unit else { continue }
            guard let known = SourceRole(rawValue: role) else {
                throw IngestError.badProfile(origin: origin, reason: "unknown source role \"\(role)\" (known: \(SourceRole.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            if UnitConversion(from: unit, to: known.canonicalUnit) == nil {
                throw IngestError.badProfile(origin: origin, reason: "source \(role): cannot convert unit \"\(unit)\" to \(known.canonicalUnit)")
            }
        }
        for role in ["time", "south_north", "west_east"] where (profile.dimensions[role] ?? []).isEmpty {
            throw IngestError.badProfile(origin: origin, reason: "dimensions.\(role) lists no names")
        }
        return profile
    }

    /// The candidate names for a role (empty when the profile has none).
    func names(_ role: SourceRole) -> [String] { sources[role.rawValue]?.names ?? [] }

    /// The conversion of a role's values to the canonical unit (identity when no unit is given).
    func conversion(_ role: SourceRole) -> UnitConversion {
        guard let unit = sources[role.rawValue]?.unit else { return .identity }
        return UnitConversion(from: unit, to: role.canonicalUnit) ?? .identity
    }
}

/// The raw quantities ingest reads, whatever a model calls them.
public enum SourceRole: String, CaseIterable, Sendable {
    case latitude, longitude
    case timeText = "time_text"
    case timeMinutes = "time_minutes"
    case temperature2m = "temperature_2m"
    case mixingRatio2m = "mixing_ratio_2m"
    case surfacePressure = "surface_pressure"
    case pstar
    case modelTopPressure = "model_top_pressure"
    case seaLevelPressure = "sea_level_pressure"
    case u10m = "u_10m"
    case v10m = "v_10m"
    case rainConvective = "rain_convective"
    case rainNonConvective = "rain_nonconvective"
    case rainShallow = "rain_shallow"
    case bucketConvective = "bucket_convective"
    case bucketNonConvective = "bucket_nonconvective"
    case snowWater = "snow_water"
    case shortwaveDown = "shortwave_down"
    case cloudFraction = "cloud_fraction"
    case terrainHeight = "terrain_height"
    case cosAlpha = "cos_alpha"
    case sinAlpha = "sin_alpha"

    /// The unit ingest works in for this role.
    var canonicalUnit: String {
        switch self {
        case .latitude: return "degree_north"
        case .longitude: return "degree_east"
        case .timeText: return "1"
        case .timeMinutes: return "minutes"
        case .temperature2m: return "K"
        case .mixingRatio2m: return "kg/kg"
        case .surfacePressure, .pstar, .seaLevelPressure, .modelTopPressure: return "Pa"
        case .u10m, .v10m: return "m/s"
        case .rainConvective, .rainNonConvective, .rainShallow, .snowWater: return "mm"
        case .bucketConvective, .bucketNonConvective, .cloudFraction, .cosAlpha, .sinAlpha: return "1"
        case .shortwaveDown: return "W/m2"
        case .terrainHeight: return "m"
        }
    }
}

/// A linear unit change, value * scale + offset.
struct UnitConversion: Equatable, Sendable {
    var scale: Float
    var offset: Float
    static let identity = UnitConversion(scale: 1, offset: 0)

    /// Known units, each as (canonical unit, scale, offset) to reach it.
    private static let table: [String: (String, Float, Float)] = [
        "k": ("K", 1, 0), "kelvin": ("K", 1, 0),
        "c": ("K", 1, 273.15), "degc": ("K", 1, 273.15), "celsius": ("K", 1, 273.15), "°c": ("K", 1, 273.15),
        "pa": ("Pa", 1, 0), "hpa": ("Pa", 100, 0), "mb": ("Pa", 100, 0), "kpa": ("Pa", 1000, 0), "cb": ("Pa", 1000, 0),
        "mm": ("mm", 1, 0), "cm": ("mm", 10, 0), "m_water": ("mm", 1000, 0), "kg m-2": ("mm", 1, 0), "kg/m2": ("mm", 1, 0),
        "kg/kg": ("kg/kg", 1, 0), "kg kg-1": ("kg/kg", 1, 0), "g/kg": ("kg/kg", 0.001, 0),
        "m/s": ("m/s", 1, 0), "m s-1": ("m/s", 1, 0), "km/h": ("m/s", 1 / 3.6, 0), "kt": ("m/s", 0.514444, 0),
        "w/m2": ("W/m2", 1, 0), "w m-2": ("W/m2", 1, 0),
        "m": ("m", 1, 0), "km": ("m", 1000, 0),
        "1": ("1", 1, 0), "": ("1", 1, 0), "fraction": ("1", 1, 0), "%": ("1", 0.01, 0),
        "degree_north": ("degree_north", 1, 0), "degree_east": ("degree_east", 1, 0),
        "degrees": ("degree_north", 1, 0),
        "minutes": ("minutes", 1, 0), "hours": ("minutes", 60, 0), "seconds": ("minutes", 1.0 / 60, 0),
    ]

    init(scale: Float, offset: Float) {
        self.scale = scale
        self.offset = offset
    }

    /// The conversion from `unit` to `canonical`, or nil when the unit is unknown or of
    /// another quantity.
    init?(from unit: String, to canonical: String) {
        guard let (target, scale, offset) = Self.table[unit.lowercased().trimmingCharacters(in: .whitespaces)] else { return nil }
        let sameQuantity = target == canonical
            || (target == "degree_north" && canonical == "degree_east")
        guard sameQuantity else { return nil }
        self.init(scale: scale, offset: offset)
    }

    @inline(__always) func apply(_ value: Float) -> Float { value * scale + offset }

    func apply(_ values: inout [Float]) {
        if self == .identity { return }
        for index in values.indices { values[index] = values[index] * scale + offset }
    }
}
