import Catalog
import Meteorology

/// What a query can return: the catalog's variables, with wind as speed and direction
/// (computed from interpolated earth-relative u and v, never by interpolating a direction).
public enum OutputVariable: String, CaseIterable, Sendable, Codable, Comparable {
    case temperature2m = "temperature_2m"
    case relativeHumidity2m = "relative_humidity_2m"
    case dewPoint2m = "dew_point_2m"
    case apparentTemperature = "apparent_temperature"
    case precipitation = "precipitation"
    case snowfall = "snowfall"
    case weatherCode = "weather_code"
    case pressureMSL = "pressure_msl"
    case surfacePressure = "surface_pressure"
    case cloudCover = "cloud_cover"
    case windSpeed10m = "wind_speed_10m"
    case windDirection10m = "wind_direction_10m"
    case shortwaveRadiation = "shortwave_radiation"
    case windU10m = "wind_u_10m"
    case windV10m = "wind_v_10m"

    /// Returned when no `--variables` are given (the components only on request).
    public static let defaults: [OutputVariable] = allCases.filter { $0 != .windU10m && $0 != .windV10m }

    /// The stored variables this one is computed from.
    public var sources: [ForecastVariable] {
        switch self {
        case .temperature2m: return [.temperature2m]
        case .relativeHumidity2m: return [.relativeHumidity2m]
        case .dewPoint2m: return [.dewPoint2m]
        case .apparentTemperature: return [.apparentTemperature]
        case .precipitation: return [.precipitation]
        case .snowfall: return [.snowfall]
        case .weatherCode: return [.weatherCode]
        case .pressureMSL: return [.pressureMSL]
        case .surfacePressure: return [.surfacePressure]
        case .cloudCover: return [.cloudCover]
        case .windSpeed10m, .windDirection10m, .windU10m, .windV10m: return [.windU10m, .windV10m]
        case .shortwaveRadiation: return [.shortwaveRadiation]
        }
    }

    /// Accepts canonical names and raw WRF names (T2, U10, ...) as aliases.
    public static func parse(_ name: String) -> [OutputVariable]? {
        if let variable = OutputVariable(rawValue: name) { return [variable] }
        let aliases: [String: [OutputVariable]] = [
            "t2": [.temperature2m], "q2": [.relativeHumidity2m], "rh2": [.relativeHumidity2m], "td2": [.dewPoint2m],
            "psfc": [.surfacePressure], "slp": [.pressureMSL], "u10": [.windSpeed10m, .windDirection10m],
            "v10": [.windSpeed10m, .windDirection10m], "swdown": [.shortwaveRadiation], "cldfra": [.cloudCover],
            "rainc": [.precipitation], "rainnc": [.precipitation], "snownc": [.snowfall],
        ]
        return aliases[name.lowercased()]
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.ordinal < rhs.ordinal }

    /// Hashed by position, not by name: a forecast's values are a dictionary keyed by
    /// variable, and hashing the raw string cost a few per cent of a point forecast.
    public func hash(into hasher: inout Hasher) { hasher.combine(ordinal) }

    /// The position in `allCases` (declaration order), without building `allCases`.
    var ordinal: Int {
        switch self {
        case .temperature2m: return 0
        case .relativeHumidity2m: return 1
        case .dewPoint2m: return 2
        case .apparentTemperature: return 3
        case .precipitation: return 4
        case .snowfall: return 5
        case .weatherCode: return 6
        case .pressureMSL: return 7
        case .surfacePressure: return 8
        case .cloudCover: return 9
        case .windSpeed10m: return 10
        case .windDirection10m: return 11
        case .shortwaveRadiation: return 12
        case .windU10m: return 13
        case .windV10m: return 14
        }
    }

    /// The first of `sources`, without building the array: the stored variable read for
    /// everything but wind (which reads both components).
    var primarySource: ForecastVariable {
        switch self {
        case .temperature2m: return .temperature2m
        case .relativeHumidity2m: return .relativeHumidity2m
        case .dewPoint2m: return .dewPoint2m
        case .apparentTemperature: return .apparentTemperature
        case .precipitation: return .precipitation
        case .snowfall: return .snowfall
        case .weatherCode: return .weatherCode
        case .pressureMSL: return .pressureMSL
        case .surfacePressure: return .surfacePressure
        case .cloudCover: return .cloudCover
        case .windSpeed10m, .windDirection10m, .windU10m, .windV10m: return .windU10m
        case .shortwaveRadiation: return .shortwaveRadiation
        }
    }
}

/// The units a query answers in, named as the common open weather APIs name them.
public struct OutputUnits: Sendable, Equatable {
    public var temperature: TemperatureUnit = .celsius
    public var windSpeed: WindSpeedUnit = .kmh
    public var precipitation: PrecipitationUnit = .mm

    public init(temperature: TemperatureUnit = .celsius, windSpeed: WindSpeedUnit = .kmh, precipitation: PrecipitationUnit = .mm) {
        self.temperature = temperature
        self.windSpeed = windSpeed
        self.precipitation = precipitation
    }

    /// The unit symbol of a variable's values.
    public func symbol(_ variable: OutputVariable) -> String {
        switch variable {
        case .temperature2m, .dewPoint2m, .apparentTemperature: return temperature.symbol
        case .relativeHumidity2m, .cloudCover: return "%"
        case .precipitation: return precipitation.symbol
        case .snowfall: return precipitation == .inch ? "inch" : "cm"
        case .weatherCode: return "wmo code"
        case .pressureMSL, .surfacePressure: return "hPa"
        case .windSpeed10m, .windU10m, .windV10m: return windSpeed.symbol
        case .windDirection10m: return "°"
        case .shortwaveRadiation: return "W/m²"
        }
    }

    /// Converts a value from the store's unit to this one.
    @inline(__always)
    func convert(_ value: Float, _ variable: OutputVariable) -> Float {
        switch variable {
        case .temperature2m, .dewPoint2m, .apparentTemperature: return temperature.convert(value)
        case .precipitation: return precipitation.convert(value)
        case .snowfall: return precipitation.convertSnowfall(value)
        case .windSpeed10m, .windU10m, .windV10m: return windSpeed.convert(value)
        default: return value
        }
    }
}
