/// Height and pressure levels: Open-Meteo's `<quantity>_<h>m` (metres above ground) and
/// `<quantity>_<p>hPa` names, made from the model levels (docs/VARIABLES.md, "Levels").
///
/// Each level variable is one `ForecastVariable` case like any other; this file gives what the
/// registry needs to know about them from the name, so that the 100 entries are one rule
/// rather than 100 hand-written ones.

/// Where a level variable lies: a height above the model terrain (m) or a pressure (hPa).
package enum VerticalLevel: Sendable, Hashable {
    case height(Int)
    case pressure(Int)
}

/// What a level variable is, whatever its level.
package enum LevelQuantity: String, Sendable, CaseIterable {
    case temperature
    case relativeHumidity = "relative_humidity"
    case dewPoint = "dew_point"
    case windSpeed = "wind_speed"
    case windDirection = "wind_direction"
    case windU = "wind_u_component"
    case windV = "wind_v_component"
    case geopotentialHeight = "geopotential_height"
    case cloudCover = "cloud_cover"
    case verticalVelocity = "vertical_velocity"
}

/// What an extraction stores: the named sets of `tilecast extract --set`. Nested: each holds
/// the one before it.
package enum ExtractionSet: String, Sendable, CaseIterable, Comparable {
    /// What a cycle held before the levels: the surface variables (the default).
    case surface
    /// Everything, the height and pressure levels included (their 3-D reads cost time and bytes).
    case all

    package static func < (lhs: Self, rhs: Self) -> Bool {
        allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
    }
}

extension ForecastVariable {
    /// Heights above ground (m) with level variables: Open-Meteo's hub heights that a WRF
    /// column's lowest levels cover (10 m and 2 m are the surface fields).
    package static let heightLevels = [80, 100, 120, 180]
    /// Pressure levels (hPa), lowest first.
    package static let pressureLevels = [1000, 925, 850, 700, 500, 300, 250, 200]

    /// The quantity and level of a level variable; nil for every other variable.
    @inline(__always)
    package var level: (quantity: LevelQuantity, level: VerticalLevel)? { Self.levels[ordinal] }
    private static let levels: [(quantity: LevelQuantity, level: VerticalLevel)?] = allCases.map { parseLevel($0.rawValue) }

    /// The level variable of a quantity at a level, if there is one.
    package static func at(_ quantity: LevelQuantity, _ level: VerticalLevel) -> ForecastVariable? {
        switch level {
        case .height(let metres): return ForecastVariable(rawValue: "\(quantity.rawValue)_\(metres)m")
        case .pressure(let hPa): return ForecastVariable(rawValue: "\(quantity.rawValue)_\(hPa)hPa")
        }
    }

    /// "temperature_850hPa" -> (.temperature, .pressure(850)); only the levels listed above
    /// ("temperature_2m" is a surface variable, not a level one).
    private static func parseLevel(_ name: String) -> (quantity: LevelQuantity, level: VerticalLevel)? {
        guard let underscore = name.lastIndex(of: "_"), let quantity = LevelQuantity(rawValue: String(name[..<underscore])) else { return nil }
        let suffix = name[name.index(after: underscore)...]
        if suffix.hasSuffix("hPa"), let hPa = Int(suffix.dropLast(3)), pressureLevels.contains(hPa) { return (quantity, .pressure(hPa)) }
        if suffix.hasSuffix("m"), let metres = Int(suffix.dropLast(1)), heightLevels.contains(metres) { return (quantity, .height(metres)) }
        return nil
    }

    /// The stored variables the level variables need, for the frame reader: each height's
    /// temperature and components, each pressure level's stored quantities.
    package static let levelVariables: [ForecastVariable] = allCases.filter { $0.level != nil }

    /// Whether extraction with `set` stores it (a stored variable) or a query can compute it
    /// from what such a cycle holds.
    package func belongs(to set: ExtractionSet) -> Bool { spec.set <= set }

    /// The registry entry of a level variable (`declaration` sends every level case here).
    ///
    /// Stored indices are a fixed rule, never positions: heights from 100 (3 per height:
    /// temperature, u, v), pressure levels from 112 (8 per level: temperature, relative
    /// humidity, dew point, u, v, geopotential height, cloud cover, vertical velocity). A new
    /// level or quantity takes numbers after 175, so that no stored file changes meaning.
    var levelDeclaration: VariableSpec {
        guard let (quantity, level) = level else {
            // Unreachable: `declaration` sends only level cases here. A plain entry rather than a trap.
            return VariableSpec(rawValue, unit: "", decimals: 0, stored: nil, isOutput: false, sdk: nil)
        }
        let (at, sdkLevel): (String, (altitude: Int16, pressure: Int16))
        let base: Int
        let slot: Int?
        switch level {
        case .height(let metres):
            at = "\(metres) m above ground"
            sdkLevel = (Int16(metres), 0)
            base = 100 + 3 * (Self.heightLevels.firstIndex(of: metres) ?? 0)
            slot = [LevelQuantity.temperature: 0, .windU: 1, .windV: 2][quantity]
        case .pressure(let hPa):
            at = "\(hPa) hPa"
            sdkLevel = (0, Int16(hPa))
            base = 112 + 8 * (Self.pressureLevels.firstIndex(of: hPa) ?? 0)
            slot = [LevelQuantity.temperature: 0, .relativeHumidity: 1, .dewPoint: 2, .windU: 3, .windV: 4,
                    .geopotentialHeight: 5, .cloudCover: 6, .verticalVelocity: 7][quantity]
        }
        func stored(_ precision: Double, _ limits: ClosedRange<Float>) -> VariableSpec.Stored? {
            slot.map { VariableSpec.Stored(index: base + $0, precision: precision, kind: .instant, isOptional: true, limits: limits) }
        }
        func code(_ code: UInt8) -> VariableSpec.SDKCode {
            VariableSpec.SDKCode(code: code, altitude: sdkLevel.altitude, depth: nil, pressureLevel: sdkLevel.pressure)
        }
        let suffix = String(rawValue[rawValue.index(after: rawValue.lastIndex(of: "_") ?? rawValue.startIndex)...])
        let isPressure = sdkLevel.pressure != 0
        let interpolated = isPressure ? "interpolated linearly in pressure from the model levels (wrf-python interplevel)"
            : "interpolated linearly in height above ground from the model levels (wrf-python interplevel on height_agl)"
        let wind = Self.at(.windU, level).flatMap { u in Self.at(.windV, level).map { [u, $0] } } ?? []
        // Older spellings Open-Meteo accepts for the pressure-level and height forms.
        let older = ["relativehumidity", "dewpoint", "windspeed", "winddirection", "cloudcover"]
        let alias = older.first { $0.replacingOccurrences(of: "_", with: "") == quantity.rawValue.replacingOccurrences(of: "_", with: "") }
            .map { ["\($0)_\(suffix)"] } ?? []
        switch quantity {
        case .temperature:
            return VariableSpec("air temperature at \(at) (theta (T + 300 K) x (p/1000 hPa)^(2/7), \(interpolated))", unit: "°C",
                                quantity: .temperature, decimals: 2, stored: stored(0.05, -120...70), set: .all, sdk: code(47))
        case .relativeHumidity:
            return VariableSpec("relative humidity at \(at) (wrf-python rh from QVAPOR, T and P, \(interpolated))", unit: "%",
                                decimals: 1, stored: stored(0.5, -1...110), set: .all, sdk: code(29), openMeteoAliases: alias)
        case .dewPoint:
            return VariableSpec("dew point at \(at) (wrf-python td from QVAPOR and P, \(interpolated))", unit: "°C",
                                quantity: .temperature, decimals: 2, stored: stored(0.05, -150...70), set: .all, sdk: code(8),
                                openMeteoAliases: alias)
        case .windU:
            return VariableSpec("earth-relative eastward wind at \(at) (U de-staggered, rotated with COSALPHA/SINALPHA, \(interpolated))",
                                unit: "m/s", quantity: .windSpeed, decimals: 2, stored: stored(0.05, -250...250), set: .all, sdk: code(149))
        case .windV:
            return VariableSpec("earth-relative northward wind at \(at) (V de-staggered, rotated with COSALPHA/SINALPHA, \(interpolated))",
                                unit: "m/s", quantity: .windSpeed, decimals: 2, stored: stored(0.05, -250...250), set: .all, sdk: code(150))
        case .windSpeed:
            return VariableSpec("wind speed at \(at), from the interpolated earth-relative components", unit: "m/s", quantity: .windSpeed,
                                decimals: 2, stored: nil, sources: wind, set: .all, sdk: code(59), openMeteoAliases: alias)
        case .windDirection:
            return VariableSpec("direction the wind at \(at) blows from, from the interpolated earth-relative components", unit: "°",
                                decimals: 0, stored: nil, sources: wind, set: .all, sdk: code(57), openMeteoAliases: alias)
        case .geopotentialHeight:
            return VariableSpec("geopotential height of the \(at) surface above sea level ((PH + PHB)/9.81 on the mass levels, \(interpolated))",
                                unit: "m", decimals: 0, stored: stored(1, -1000...25000), set: .all, sdk: code(61))
        case .cloudCover:
            return VariableSpec("cloud fraction at \(at) (CLDFRA x 100, \(interpolated))", unit: "%", decimals: 0,
                                stored: stored(1, -1...101), set: .all, sdk: code(3), openMeteoAliases: alias)
        case .verticalVelocity:
            // Open-Meteo's unit is m/s and is never converted by wind_speed_unit.
            return VariableSpec("vertical wind at \(at), upward positive (W de-staggered to the mass levels, \(interpolated))",
                                unit: "m/s", decimals: 2, stored: stored(0.005, -100...100), set: .all, sdk: code(60))
        }
    }
}

/// Which part of a wind a variable is, for those the query makes from a pair of stored
/// earth-relative components (speed and direction are computed from the interpolated u and v,
/// never by interpolating a direction).
package enum WindPart: Sendable, Equatable { case speed, direction, u, v }

extension ForecastVariable {
    /// The stored components a wind variable is read from and the part it is; nil for the rest.
    @inline(__always)
    package var wind: (u: ForecastVariable, v: ForecastVariable, part: WindPart)? { Self.winds[ordinal] }
    /// True for the wind directions (printed in (0, 360], a real wind that rounds to 0 as 360).
    @inline(__always)
    package var isWindDirection: Bool { Self.directions[ordinal] }

    private static let winds: [(u: ForecastVariable, v: ForecastVariable, part: WindPart)?] = allCases.map { variable in
        switch variable {
        case .windSpeed10m: return (.windU10m, .windV10m, .speed)
        case .windDirection10m: return (.windU10m, .windV10m, .direction)
        case .windU10m: return (.windU10m, .windV10m, .u)
        case .windV10m: return (.windU10m, .windV10m, .v)
        default: break
        }
        guard let (quantity, level) = variable.level, let u = at(.windU, level), let v = at(.windV, level) else { return nil }
        switch quantity {
        case .windSpeed: return (u, v, .speed)
        case .windDirection: return (u, v, .direction)
        case .windU: return (u, v, .u)
        case .windV: return (u, v, .v)
        default: return nil
        }
    }
    private static let directions: [Bool] = winds.map { $0?.part == .direction }
}
