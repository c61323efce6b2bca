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
    // Issue 11.
    case rain = "rain"
    case showers = "showers"
    case snowDepth = "snow_depth"
    case vapourPressureDeficit = "vapour_pressure_deficit"
    case soilTemperature0to10cm = "soil_temperature_0_to_10cm"
    case soilTemperature10to40cm = "soil_temperature_10_to_40cm"
    case soilTemperature40to100cm = "soil_temperature_40_to_100cm"
    case soilTemperature100to200cm = "soil_temperature_100_to_200cm"
    case soilMoisture0to10cm = "soil_moisture_0_to_10cm"
    case soilMoisture10to40cm = "soil_moisture_10_to_40cm"
    case soilMoisture40to100cm = "soil_moisture_40_to_100cm"
    case soilMoisture100to200cm = "soil_moisture_100_to_200cm"
    case directRadiation = "direct_radiation"
    case diffuseRadiation = "diffuse_radiation"
    case cape = "cape"
    case windGusts10m = "wind_gusts_10m"
    case cloudCoverLow = "cloud_cover_low"
    case cloudCoverMid = "cloud_cover_mid"
    case cloudCoverHigh = "cloud_cover_high"
    /// 1 while the sun is above the horizon (NOAA solar position, `SolarPosition`), else 0:
    /// from the place and time alone, so every cycle can answer it.
    case isDay = "is_day"
    /// FAO-56 hourly Penman-Monteith reference evapotranspiration (`Evapotranspiration`), mm.
    case et0FaoEvapotranspiration = "et0_fao_evapotranspiration"
    /// Visibility from the lowest model level (UPP CALVIS_GSD), m (ft with inches).
    case visibility = "visibility"
    /// Seconds of sunshine (direct normal irradiance above WMO's 120 W/m²) in the hour ending
    /// at the time, 0...3600, from the radiation and the sun's position (`Sunshine`).
    case sunshineDuration = "sunshine_duration"
    case surfaceTemperature = "surface_temperature"
    case boundaryLayerHeight = "boundary_layer_height"
    case snowWaterEquivalent = "snow_depth_water_equivalent"

    /// Returned when no `--variables` are given: the variables from before issue 11 (the
    /// wind components and issue 11's additions only on request, so that a default answer
    /// keeps its size and B3/B4's workload).
    public static let defaults: [OutputVariable] = [
        .temperature2m, .relativeHumidity2m, .dewPoint2m, .apparentTemperature, .precipitation, .snowfall, .weatherCode,
        .pressureMSL, .surfacePressure, .cloudCover, .windSpeed10m, .windDirection10m, .shortwaveRadiation,
    ]

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
        case .rain: return [.rain]
        case .showers: return [.showers]
        case .snowDepth: return [.snowDepth]
        case .vapourPressureDeficit: return [.vapourPressureDeficit]
        case .soilTemperature0to10cm: return [.soilTemperature0to10cm]
        case .soilTemperature10to40cm: return [.soilTemperature10to40cm]
        case .soilTemperature40to100cm: return [.soilTemperature40to100cm]
        case .soilTemperature100to200cm: return [.soilTemperature100to200cm]
        case .soilMoisture0to10cm: return [.soilMoisture0to10cm]
        case .soilMoisture10to40cm: return [.soilMoisture10to40cm]
        case .soilMoisture40to100cm: return [.soilMoisture40to100cm]
        case .soilMoisture100to200cm: return [.soilMoisture100to200cm]
        case .directRadiation: return [.directRadiation]
        case .diffuseRadiation: return [.diffuseRadiation]
        case .cape: return [.cape]
        case .windGusts10m: return [.windGusts10m]
        case .cloudCoverLow: return [.cloudCoverLow]
        case .cloudCoverMid: return [.cloudCoverMid]
        case .cloudCoverHigh: return [.cloudCoverHigh]
        case .isDay: return []
        case .et0FaoEvapotranspiration: return [.temperature2m, .dewPoint2m, .windU10m, .windV10m, .shortwaveRadiation, .surfacePressure]
        case .visibility: return [.visibility]
        // SWDDIR (direct_radiation) is used when stored, but the global radiation suffices.
        case .sunshineDuration: return [.shortwaveRadiation]
        case .surfaceTemperature: return [.surfaceTemperature]
        case .boundaryLayerHeight: return [.boundaryLayerHeight]
        case .snowWaterEquivalent: return [.snowWaterEquivalent]
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
            "snowh": [.snowDepth], "tslb": [.soilTemperature0to10cm], "smois": [.soilMoisture0to10cm],
        ]
        return aliases[name.lowercased()]
    }

    /// Why a quantity the common weather APIs offer cannot come from a WRF or MM5 run, for
    /// names a request may use; nil for any other name. Refused by name rather than invented.
    public static func refusal(_ name: String) -> String? {
        let ensemble = "a probability needs an ensemble of runs; one WRF/MM5 run gives one amount per place, not a probability"
        let ultraviolet = "WRF/MM5 output has no ultraviolet band or ozone column to compute a UV index from"
        let reasons: [String: String] = [
            "precipitation_probability": ensemble, "precipitation_probability_max": ensemble,
            "precipitation_probability_mean": ensemble, "precipitation_probability_min": ensemble,
            "uv_index": ultraviolet, "uv_index_clear_sky": ultraviolet, "uv_index_max": ultraviolet, "uv_index_clear_sky_max": ultraviolet,
        ]
        guard let reason = reasons[name] else { return nil }
        return "\(name) cannot be served: \(reason)"
    }

    /// Amounts over the interval ending at their time (differenced per cell, summed daily).
    public var isAmount: Bool { self == .precipitation || self == .snowfall || self == .rain || self == .showers }

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
        case .rain: return 15
        case .showers: return 16
        case .snowDepth: return 17
        case .vapourPressureDeficit: return 18
        case .soilTemperature0to10cm: return 19
        case .soilTemperature10to40cm: return 20
        case .soilTemperature40to100cm: return 21
        case .soilTemperature100to200cm: return 22
        case .soilMoisture0to10cm: return 23
        case .soilMoisture10to40cm: return 24
        case .soilMoisture40to100cm: return 25
        case .soilMoisture100to200cm: return 26
        case .directRadiation: return 27
        case .diffuseRadiation: return 28
        case .cape: return 29
        case .windGusts10m: return 30
        case .cloudCoverLow: return 31
        case .cloudCoverMid: return 32
        case .cloudCoverHigh: return 33
        case .isDay: return 34
        case .et0FaoEvapotranspiration: return 35
        case .visibility: return 36
        case .sunshineDuration: return 37
        case .surfaceTemperature: return 38
        case .boundaryLayerHeight: return 39
        case .snowWaterEquivalent: return 40
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
        case .rain: return .rain
        case .showers: return .showers
        case .snowDepth: return .snowDepth
        case .vapourPressureDeficit: return .vapourPressureDeficit
        case .soilTemperature0to10cm: return .soilTemperature0to10cm
        case .soilTemperature10to40cm: return .soilTemperature10to40cm
        case .soilTemperature40to100cm: return .soilTemperature40to100cm
        case .soilTemperature100to200cm: return .soilTemperature100to200cm
        case .soilMoisture0to10cm: return .soilMoisture0to10cm
        case .soilMoisture10to40cm: return .soilMoisture10to40cm
        case .soilMoisture40to100cm: return .soilMoisture40to100cm
        case .soilMoisture100to200cm: return .soilMoisture100to200cm
        case .directRadiation: return .directRadiation
        case .diffuseRadiation: return .diffuseRadiation
        case .cape: return .cape
        case .windGusts10m: return .windGusts10m
        case .cloudCoverLow: return .cloudCoverLow
        case .cloudCoverMid: return .cloudCoverMid
        case .cloudCoverHigh: return .cloudCoverHigh
        case .visibility: return .visibility
        // Computed from the place and time (is_day) or from several sources (ET0, read
        // one by one): the temperature stands for them where one stored variable is asked.
        case .isDay, .et0FaoEvapotranspiration: return .temperature2m
        case .sunshineDuration: return .shortwaveRadiation
        case .surfaceTemperature: return .surfaceTemperature
        case .boundaryLayerHeight: return .boundaryLayerHeight
        case .snowWaterEquivalent: return .snowWaterEquivalent
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
        case .temperature2m, .dewPoint2m, .apparentTemperature, .soilTemperature0to10cm, .soilTemperature10to40cm,
             .soilTemperature40to100cm, .soilTemperature100to200cm, .surfaceTemperature: return temperature.symbol
        case .relativeHumidity2m, .cloudCover, .cloudCoverLow, .cloudCoverMid, .cloudCoverHigh: return "%"
        case .precipitation, .rain, .showers, .et0FaoEvapotranspiration, .snowWaterEquivalent: return precipitation.symbol
        case .snowDepth, .visibility: return precipitation.distanceSymbol
        case .vapourPressureDeficit: return "kPa"
        case .soilMoisture0to10cm, .soilMoisture10to40cm, .soilMoisture40to100cm, .soilMoisture100to200cm: return "m³/m³"
        case .isDay: return ""
        case .sunshineDuration: return "s"
        case .directRadiation, .diffuseRadiation: return "W/m²"
        case .cape: return "J/kg"
        case .snowfall: return precipitation == .inch ? "inch" : "cm"
        case .weatherCode: return "wmo code"
        case .pressureMSL, .surfacePressure: return "hPa"
        case .boundaryLayerHeight: return "m"
        case .windSpeed10m, .windU10m, .windV10m, .windGusts10m: return windSpeed.symbol
        case .windDirection10m: return "°"
        case .shortwaveRadiation: return "W/m²"
        }
    }

    /// Converts a value from the store's unit to this one.
    @inline(__always)
    func convert(_ value: Float, _ variable: OutputVariable) -> Float {
        switch variable {
        case .temperature2m, .dewPoint2m, .apparentTemperature, .soilTemperature0to10cm, .soilTemperature10to40cm,
             .soilTemperature40to100cm, .soilTemperature100to200cm, .surfaceTemperature: return temperature.convert(value)
        case .precipitation, .rain, .showers, .et0FaoEvapotranspiration, .snowWaterEquivalent: return precipitation.convert(value)
        case .snowfall: return precipitation.convertSnowfall(value)
        case .snowDepth, .visibility: return precipitation.convertDistance(value)
        case .windSpeed10m, .windU10m, .windV10m, .windGusts10m: return windSpeed.convert(value)
        default: return value
        }
    }
}
