import Catalog
import Foundation

/// What a model's files call things: the map from source roles (T2, Q2, ...) to variable
/// names and units. Data, not code: the built-in WRF and MM5 profiles are JSON, and a site
/// adds its own aliases with `--profile FILE`.
public struct ModelProfile: Codable, Sendable, Equatable {
    /// Which metadata reader applies: WRF global attributes, or MM5 archiver scalars.
    public enum Convention: String, Codable, Sendable { case wrf, mm5 }

    /// One source: candidate names, tried in order, and the unit the values are in when the
    /// file's own `units` attribute says nothing.
    package struct Source: Codable, Sendable, Equatable {
        package var names: [String]
        package var unit: String?

        package init(names: [String], unit: String? = nil) {
            self.names = names
            self.unit = unit
        }

        package init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: ProfileKey.self)
            try ProfileKey.refuseUnknown(container, known: ["names", "unit"],
                                         prefix: decoder.codingPath.map { $0.stringValue + "." }.joined())
            names = try container.decode([String].self, forKey: ProfileKey("names"))
            unit = try container.decodeIfPresent(String.self, forKey: ProfileKey("unit"))
        }

        package func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: ProfileKey.self)
            try container.encode(names, forKey: ProfileKey("names"))
            try container.encodeIfPresent(unit, forKey: ProfileKey("unit"))
        }
    }

    public var name: String
    public var convention: Convention
    public var description: String?
    /// Candidate names of the time, south_north and west_east dimensions.
    package var dimensions: [DimensionRole: [String]]
    package var sources: [SourceRole: Source]

    package init(name: String, convention: Convention, description: String? = nil,
                dimensions: [DimensionRole: [String]], sources: [SourceRole: Source]) {
        self.name = name
        self.convention = convention
        self.description = description
        self.dimensions = dimensions
        self.sources = sources
    }

    /// Decodes a profile, refusing any key it does not know (a mistyped `"temperature_2M"` or
    /// `"west-east"` would otherwise be ignored and the source silently missing).
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: ProfileKey.self)
        try ProfileKey.refuseUnknown(container, known: ["name", "convention", "description", "dimensions", "sources"], prefix: "")
        name = try container.decode(String.self, forKey: ProfileKey("name"))
        convention = try container.decode(Convention.self, forKey: ProfileKey("convention"))
        description = try container.decodeIfPresent(String.self, forKey: ProfileKey("description"))
        var dimensions: [DimensionRole: [String]] = [:]
        for (key, names) in try container.decode([String: [String]].self, forKey: ProfileKey("dimensions")) {
            guard let role = DimensionRole(rawValue: key) else {
                throw ProfileKeyError(key: "dimensions.\(key)", known: DimensionRole.allCases.map(\.rawValue))
            }
            dimensions[role] = names
        }
        var sources: [SourceRole: Source] = [:]
        for (key, source) in try container.decode([String: Source].self, forKey: ProfileKey("sources")) {
            guard let role = SourceRole(rawValue: key) else {
                throw ProfileKeyError(key: "sources.\(key)", known: SourceRole.allCases.map(\.rawValue))
            }
            sources[role] = source
        }
        self.dimensions = dimensions
        self.sources = sources
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: ProfileKey.self)
        try container.encode(name, forKey: ProfileKey("name"))
        try container.encode(convention, forKey: ProfileKey("convention"))
        try container.encodeIfPresent(description, forKey: ProfileKey("description"))
        try container.encode(Dictionary(uniqueKeysWithValues: dimensions.map { ($0.key.rawValue, $0.value) }), forKey: ProfileKey("dimensions"))
        try container.encode(Dictionary(uniqueKeysWithValues: sources.map { ($0.key.rawValue, $0.value) }), forKey: ProfileKey("sources"))
    }

    /// A built-in profile ("wrf", "mm5") or a profile file.
    ///
    /// - Throws: `IngestError.badProfile` naming the file and what is wrong with it.
    public static func load(_ nameOrPath: String) throws(IngestError) -> ModelProfile {
        if let builtin = builtins[nameOrPath.lowercased()] { return try builtin.get() }
        guard let data = FileManager.default.contents(atPath: nameOrPath) else {
            throw IngestError.badProfile(origin: nameOrPath, reason: "no such file, and not a built-in profile (\(BuiltinProfiles.all.keys.sorted().joined(separator: ", ")))")
        }
        return try decode(data, origin: nameOrPath)
    }

    /// The built-in profiles, decoded once: profile detection loads each of them for every
    /// input file, and decoding and checking one took ~1 ms of the extraction's start-up.
    private static let builtins: [String: Result<ModelProfile, IngestError>] = Dictionary(uniqueKeysWithValues:
        BuiltinProfiles.all.map { name, text in
            (name, Result { () throws(IngestError) in try decode(Data(text.utf8), origin: "built-in profile \(name)") })
        })

    /// The JSON text of a built-in profile, for `tilecast profile NAME`.
    package static func builtinText(_ name: String) -> String? { BuiltinProfiles.all[name.lowercased()] }

    /// The names of the built-in profiles.
    public static var builtinNames: [String] { BuiltinProfiles.all.keys.sorted() }

    /// Decodes and checks a profile's JSON (a `--profile` file is outside bytes: this is the
    /// fuzz target's entry, fuzz/Sources/FuzzModelProfile).
    ///
    /// - Throws: `IngestError.badProfile` naming `origin` and what is wrong.
    package static func decode(_ data: Data, origin: String) throws(IngestError) -> ModelProfile {
        let profile: ModelProfile
        do {
            profile = try JSONDecoder().decode(ModelProfile.self, from: data)
        } catch let error as ProfileKeyError {
            throw IngestError.badProfile(origin: origin, reason: error.description)
        } catch {
            throw IngestError.badProfile(origin: origin, reason: "not a valid profile: \(error)")
        }
        for (role, source) in profile.sources {
            guard let unit = source.unit else { continue }
            if UnitConversion(from: unit, to: role.canonicalUnit) == nil {
                throw IngestError.badProfile(origin: origin, reason: "source \(role.rawValue): cannot convert unit \"\(unit)\" to \(role.canonicalUnit)")
            }
        }
        for role in DimensionRole.allCases where (profile.dimensions[role] ?? []).isEmpty {
            throw IngestError.badProfile(origin: origin, reason: "dimensions.\(role.rawValue) lists no names")
        }
        return profile
    }

    /// The candidate names for a role (empty when the profile has none).
    func names(_ role: SourceRole) -> [String] { sources[role]?.names ?? [] }

    /// The conversion of a role's values to the canonical unit (identity when no unit is given).
    func conversion(_ role: SourceRole) -> UnitConversion {
        guard let unit = sources[role]?.unit else { return .identity }
        return UnitConversion(from: unit, to: role.canonicalUnit) ?? .identity
    }
}

/// The dimensions a profile names: time, and the mass grid's two axes.
package enum DimensionRole: String, CaseIterable, Sendable {
    case time
    case southNorth = "south_north"
    case westEast = "west_east"
}

/// A profile key that is not one of the known ones.
struct ProfileKeyError: Error, CustomStringConvertible {
    let key: String
    let known: [String]
    var description: String { "unknown key \"\(key)\" (known: \(known.joined(separator: ", ")))" }
}

/// Any JSON key, so that a profile's keys can be checked against the known ones.
struct ProfileKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }

    /// Throws `ProfileKeyError` for the first key of `container` not in `known`, named with
    /// its path (`sources.temperature_2m.unti`).
    static func refuseUnknown(_ container: KeyedDecodingContainer<ProfileKey>, known: Set<String>, prefix: String) throws(ProfileKeyError) {
        if let unknown = container.allKeys.map(\.stringValue).sorted().first(where: { !known.contains($0) }) {
            throw ProfileKeyError(key: prefix + unknown, known: known.sorted())
        }
    }
}

/// The raw quantities ingest reads, whatever a model calls them.
/// The raw quantities ingest reads, whatever a model calls them: the key of a profile's
/// `sources`. The fixed ones are the inputs of derivations (below); a stored variable copied from
/// one field declares its own in the registry (`VariableSpec.field`), so adding one needs no
/// role here.
package struct SourceRole: RawRepresentable, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    package let rawValue: String

    /// A role ingest knows (nil for any other key).
    package init?(rawValue: String) {
        guard Self.canonicalUnits[rawValue] != nil else { return nil }
        self.rawValue = rawValue
    }

    private init(_ name: String) { rawValue = name }

    package var description: String { rawValue }

    /// The role of a registry variable copied from one field.
    package init(field: DirectField) { rawValue = field.key }

    package static let latitude = SourceRole("latitude")
    package static let longitude = SourceRole("longitude")
    package static let timeText = SourceRole("time_text")
    package static let timeMinutes = SourceRole("time_minutes")
    package static let temperature2m = SourceRole("temperature_2m")
    package static let mixingRatio2m = SourceRole("mixing_ratio_2m")
    package static let surfacePressure = SourceRole("surface_pressure")
    package static let pstar = SourceRole("pstar")
    package static let modelTopPressure = SourceRole("model_top_pressure")
    package static let seaLevelPressure = SourceRole("sea_level_pressure")
    package static let u10m = SourceRole("u_10m")
    package static let v10m = SourceRole("v_10m")
    package static let rainConvective = SourceRole("rain_convective")
    package static let rainNonConvective = SourceRole("rain_nonconvective")
    package static let rainShallow = SourceRole("rain_shallow")
    package static let bucketConvective = SourceRole("bucket_convective")
    package static let bucketNonConvective = SourceRole("bucket_nonconvective")
    package static let snowWater = SourceRole("snow_water")
    package static let shortwaveDown = SourceRole("shortwave_down")
    package static let cloudFraction = SourceRole("cloud_fraction")
    package static let terrainHeight = SourceRole("terrain_height")
    package static let cosAlpha = SourceRole("cos_alpha")
    package static let sinAlpha = SourceRole("sin_alpha")
    package static let graupel = SourceRole("graupel")
    package static let hail = SourceRole("hail")
    package static let soilTemperature = SourceRole("soil_temperature")
    package static let soilMoisture = SourceRole("soil_moisture")
    package static let soilDepths = SourceRole("soil_depths")
    /// SMCREL: soil moisture relative to the wilting point and field capacity, on the soil layers.
    package static let relativeSoilMoisture = SourceRole("relative_soil_moisture")
    package static let surfaceRunoff = SourceRole("surface_runoff")
    package static let undergroundRunoff = SourceRole("underground_runoff")
    package static let potentialEvaporation = SourceRole("potential_evaporation")
    package static let frictionVelocity = SourceRole("friction_velocity")
    /// WRF's geopotential on staggered levels, perturbation and base (PH, PHB).
    package static let geopotentialPerturbation = SourceRole("geopotential_perturbation")
    package static let geopotentialBase = SourceRole("geopotential_base")
    /// The lowest model level of WRF's state and microphysics, for visibility: pressure
    /// perturbation and base (P, PB), perturbation potential temperature (T, theta - 300 K),
    /// and the mixing ratios of vapour and the five hydrometeor species.
    package static let pressurePerturbation = SourceRole("pressure_perturbation")
    package static let pressureBase = SourceRole("pressure_base")
    package static let potentialTemperaturePerturbation = SourceRole("potential_temperature_perturbation")
    package static let vapourMixingRatio = SourceRole("vapour_mixing_ratio")
    package static let cloudWaterMixingRatio = SourceRole("cloud_water_mixing_ratio")
    package static let rainMixingRatio = SourceRole("rain_mixing_ratio")
    package static let iceMixingRatio = SourceRole("ice_mixing_ratio")
    package static let snowMixingRatio = SourceRole("snow_mixing_ratio")
    package static let graupelMixingRatio = SourceRole("graupel_mixing_ratio")
    /// The model levels' wind, for the height and pressure levels: U and V on the horizontally
    /// staggered grid (grid-relative), W on the vertically staggered levels (also the column's updraft).
    package static let windU = SourceRole("wind_u")
    package static let windV = SourceRole("wind_v")
    package static let windW = SourceRole("wind_w")

    /// Every role: the fixed ones, then those the registry's variables declare.
    package static let allCases: [SourceRole] = fixed.map(\.0)
        + ForecastVariable.stored.compactMap { $0.spec.field.map(SourceRole.init(field:)) }

    /// The unit ingest works in for this role.
    var canonicalUnit: String { Self.canonicalUnits[rawValue] ?? "1" }

    private static let canonicalUnits: [String: String] = Dictionary(
        fixed.map { ($0.0.rawValue, $0.1) } + ForecastVariable.stored.compactMap { variable in variable.spec.field.map { ($0.key, $0.unit) } },
        uniquingKeysWith: { first, _ in first })

    /// The fixed roles and their units, in the order files are checked.
    private static let fixed: [(SourceRole, String)] = [
        (.latitude, "degree_north"),
        (.longitude, "degree_east"),
        (.timeText, "1"),
        (.timeMinutes, "minutes"),
        (.temperature2m, "K"),
        (.mixingRatio2m, "kg/kg"),
        (.surfacePressure, "Pa"),
        (.pstar, "Pa"),
        (.modelTopPressure, "Pa"),
        (.seaLevelPressure, "Pa"),
        (.u10m, "m/s"),
        (.v10m, "m/s"),
        (.rainConvective, "mm"),
        (.rainNonConvective, "mm"),
        (.rainShallow, "mm"),
        (.bucketConvective, "1"),
        (.bucketNonConvective, "1"),
        (.snowWater, "mm"),
        (.shortwaveDown, "W/m2"),
        (.cloudFraction, "1"),
        (.terrainHeight, "m"),
        (.cosAlpha, "1"),
        (.sinAlpha, "1"),
        (.graupel, "mm"),
        (.hail, "mm"),
        (.soilTemperature, "K"),
        (.soilMoisture, "m3/m3"),
        (.soilDepths, "m"),
        (.relativeSoilMoisture, "1"),
        (.surfaceRunoff, "mm"),
        (.undergroundRunoff, "mm"),
        (.potentialEvaporation, "mm"),
        (.frictionVelocity, "m/s"),
        (.geopotentialPerturbation, "m2/s2"),
        (.geopotentialBase, "m2/s2"),
        (.pressurePerturbation, "Pa"),
        (.pressureBase, "Pa"),
        (.potentialTemperaturePerturbation, "K"),
        (.vapourMixingRatio, "kg/kg"),
        (.cloudWaterMixingRatio, "kg/kg"),
        (.rainMixingRatio, "kg/kg"),
        (.iceMixingRatio, "kg/kg"),
        (.snowMixingRatio, "kg/kg"),
        (.graupelMixingRatio, "kg/kg"),
        (.windU, "m/s"),
        (.windV, "m/s"),
        (.windW, "m/s"),
    ]
}

/// A linear unit change, value * scale + offset.
///
/// Units are read the UDUNITS way, for the spellings model files use: "K", "degC", "deg_F",
/// "kg kg-1", "m s**-1", "W m^-2", "hPa", "cm", and the time units of "minutes since ...".
struct UnitConversion: Equatable, Sendable {
    var scale: Float
    var offset: Float
    static let identity = UnitConversion(scale: 1, offset: 0)

    /// Each known unit as (quantity, scale, offset) to that quantity's reference unit; a
    /// conversion exists only within one quantity. Rain is a length (mm of water), as is
    /// terrain height, so "m" serves both.
    private static let table: [String: (String, Double, Double)] = {
        var table: [String: (String, Double, Double)] = [:]
        func add(_ quantity: String, _ scale: Double, _ offset: Double, _ names: String...) {
            for name in names { table[name] = (quantity, scale, offset) }
        }
        add("temperature", 1, 0, "k", "kelvin", "degk", "deg_k", "degree_k", "degrees_k", "°k")
        add("temperature", 1, 273.15, "c", "degc", "deg_c", "degree_c", "degrees_c", "degree_celsius", "degrees_celsius", "celsius", "°c")
        add("temperature", 5.0 / 9.0, 273.15 - 32 * 5.0 / 9.0, "f", "degf", "deg_f", "degree_f", "degrees_f", "degree_fahrenheit", "degrees_fahrenheit", "fahrenheit", "°f")
        add("pressure", 1, 0, "pa", "pascal", "pascals")
        add("pressure", 100, 0, "hpa", "mb", "mbar", "millibar", "millibars")
        add("pressure", 1000, 0, "kpa", "cb", "centibar")
        add("length", 0.001, 0, "mm", "millimeter", "millimeters", "millimetre", "millimetres", "kg m-2", "kg/m2")
        add("length", 0.01, 0, "cm", "centimeter", "centimeters", "centimetre", "centimetres")
        add("length", 1, 0, "m", "meter", "meters", "metre", "metres", "m_water", "meters msl", "metres msl", "m msl", "m asl")
        add("length", 1000, 0, "km")
        add("ratio", 1, 0, "kg/kg", "kg kg-1", "kg.kg-1")
        add("volume fraction", 1, 0, "m3/m3", "m3 m-3", "m^3/m^3", "m^3 m^-3")
        add("ratio", 0.001, 0, "g/kg", "g kg-1")
        add("speed", 1, 0, "m/s", "m s-1", "m.s-1", "ms-1")
        add("speed", 1 / 3.6, 0, "km/h", "km h-1", "kmh")
        add("speed", 1852.0 / 3600.0, 0, "kt", "kts", "knot", "knots")
        add("flux", 1, 0, "w/m2", "w m-2", "w.m-2")
        add("specific energy", 1, 0, "j/kg", "j kg-1", "j.kg-1", "m2/s2", "m2 s-2")
        add("dimensionless", 1, 0, "1", "-", "fraction", "dimensionless", "none", "0-1", "count", "counts")
        add("dimensionless", 0.01, 0, "%", "percent")
        add("latitude", 1, 0, "degree_north", "degrees_north", "degree_n", "degrees_n", "degreen", "degreesn", "degrees latitude", "degree north", "degrees north", "degree", "degrees", "deg")
        add("longitude", 1, 0, "degree_east", "degrees_east", "degree_e", "degrees_e", "degreee", "degreese", "degrees longitude", "degree east", "degrees east", "degree", "degrees", "deg")
        add("time", 60, 0, "minutes", "minute", "min", "mins")
        add("time", 1, 0, "seconds", "second", "sec", "secs", "s")
        add("time", 3600, 0, "hours", "hour", "hr", "hrs", "h")
        add("time", 86_400, 0, "days", "day", "d")
        return table
    }()

    /// The two degree spellings that are both latitude and longitude ("degrees").
    private static let eitherAxis: Set<String> = ["degree", "degrees", "deg"]

    init(scale: Float, offset: Float) {
        self.scale = scale
        self.offset = offset
    }

    /// A unit as the table spells it: lower case, single spaces, no "**" or "^" before exponents.
    static func normalized(_ unit: String) -> String {
        unit.lowercased().replacingOccurrences(of: "**", with: "").replacingOccurrences(of: "^", with: "")
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The conversion from `unit` to `canonical`, or nil when the unit is unknown or of
    /// another quantity.
    init?(from unit: String, to canonical: String) {
        let name = Self.normalized(unit)
        guard var source = Self.table[name], let goal = Self.table[Self.normalized(canonical)] else { return nil }
        // "degrees" fits either axis, and nothing else.
        if Self.eitherAxis.contains(name), goal.0 == "latitude" || goal.0 == "longitude" { source.0 = goal.0 }
        guard source.0 == goal.0 else { return nil }
        self.init(scale: Float(source.1 / goal.1), offset: Float((source.2 - goal.2) / goal.1))
    }

    @inline(__always) func apply(_ value: Float) -> Float { value * scale + offset }

    func apply(_ values: inout [Float]) {
        if self == .identity { return }
        for index in values.indices { values[index] = values[index] * scale + offset }
    }
}
