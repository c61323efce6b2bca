/// The variables TileCast serves (SPEC section 3), named as the common open weather APIs
/// name them. Ingest produces them, the store keeps them at `precision`, queries return them.
public enum ForecastVariable: String, CaseIterable, Sendable, Codable, Comparable {
    case temperature2m = "temperature_2m"
    case relativeHumidity2m = "relative_humidity_2m"
    case dewPoint2m = "dew_point_2m"
    case apparentTemperature = "apparent_temperature"
    /// Earth-relative wind components: stored, so speed and direction are computed from
    /// interpolated u and v, never by interpolating a direction.
    case windU10m = "wind_u_10m"
    case windV10m = "wind_v_10m"
    case precipitation = "precipitation"
    case snowfall = "snowfall"
    case surfacePressure = "surface_pressure"
    case pressureMSL = "pressure_msl"
    case cloudCover = "cloud_cover"
    case shortwaveRadiation = "shortwave_radiation"
    case weatherCode = "weather_code"
    case elevation = "elevation"

    /// The unit values are stored and computed in (query output converts from these).
    public var unit: String {
        switch self {
        case .temperature2m, .dewPoint2m, .apparentTemperature: return "°C"
        case .relativeHumidity2m, .cloudCover: return "%"
        case .windU10m, .windV10m: return "m/s"
        case .precipitation: return "mm"
        case .snowfall: return "cm"
        case .surfacePressure, .pressureMSL: return "hPa"
        case .shortwaveRadiation: return "W/m²"
        case .weatherCode: return "wmo code"
        case .elevation: return "m"
        }
    }

    /// The precision kept in the store (SPEC section 3), in `unit`. Quantisation may use a
    /// step up to twice this (rounding error at most half a step).
    public var precision: Double {
        switch self {
        case .temperature2m, .dewPoint2m: return 0.05
        case .apparentTemperature: return 0.1
        case .relativeHumidity2m: return 0.5
        case .windU10m, .windV10m: return 0.05
        case .precipitation: return 0.01
        case .snowfall: return 0.01
        case .surfacePressure, .pressureMSL: return 0.1
        case .cloudCover: return 1
        case .shortwaveRadiation: return 1
        case .weatherCode: return 1
        case .elevation: return 1
        }
    }

    /// True for the one variable that does not change with time.
    public var isStatic: Bool { self == .elevation }

    /// True for amounts over an output interval (summed, not averaged, over a window).
    public var isAccumulation: Bool { self == .precipitation || self == .snowfall }

    /// A one-line description for `--help` and `inspect`.
    public var summary: String {
        switch self {
        case .temperature2m: return "air temperature at 2 m"
        case .relativeHumidity2m: return "relative humidity at 2 m (wrf-python rh2 formula)"
        case .dewPoint2m: return "dew point at 2 m"
        case .apparentTemperature: return "apparent (feels-like) temperature"
        case .windU10m: return "earth-relative eastward wind at 10 m"
        case .windV10m: return "earth-relative northward wind at 10 m"
        case .precipitation: return "precipitation over the output interval ending at the time"
        case .snowfall: return "snowfall over the output interval ending at the time"
        case .surfacePressure: return "surface pressure"
        case .pressureMSL: return "pressure reduced to mean sea level"
        case .cloudCover: return "cloud cover (column maximum of cloud fraction)"
        case .shortwaveRadiation: return "downward shortwave radiation at the surface"
        case .weatherCode: return "WMO weather code"
        case .elevation: return "model terrain height"
        }
    }

    /// The position in `allCases`, for tables indexed by variable.
    public var catalogIndex: Int {
        switch self {
        case .temperature2m: return 0
        case .relativeHumidity2m: return 1
        case .dewPoint2m: return 2
        case .apparentTemperature: return 3
        case .windU10m: return 4
        case .windV10m: return 5
        case .precipitation: return 6
        case .snowfall: return 7
        case .surfacePressure: return 8
        case .pressureMSL: return 9
        case .cloudCover: return 10
        case .shortwaveRadiation: return 11
        case .weatherCode: return 12
        case .elevation: return 13
        }
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.catalogIndex < rhs.catalogIndex }
}
