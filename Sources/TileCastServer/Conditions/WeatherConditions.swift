import Meteorology

/// What the sky does in one row of a forecast, in the few classes every weather API's condition
/// codes can say: the pivot between TileCast's quantities (the row's WMO `weather_code`, cloud
/// cover, day or night) and each API's own code, text and icon (`WeatherConditions.table`).
/// One definition for every API (issue 45: OpenWeatherMap now; QWeather's icons and Caiyun's
/// skycons get a column of the same table).
package enum SkyCondition: String, Sendable, CaseIterable {
    case clear, fewClouds, scatteredClouds, brokenClouds, overcast
    case fog
    case lightDrizzle, drizzle, heavyDrizzle, freezingDrizzle
    case lightRain, rain, heavyRain, freezingRain
    case lightShowers, showers, heavyShowers
    case lightSnow, snow, heavySnow
    case lightSnowShowers, snowShowers
    case thunderstorm, thunderstormWithHail

    /// Whether the class says something falls (rain, drizzle, snow, showers, a thunderstorm).
    package var isPrecipitation: Bool {
        switch self {
        case .clear, .fewClouds, .scatteredClouds, .brokenClouds, .overcast, .fog: return false
        default: return true
        }
    }

    /// The class of a row: the precipitation, fog and thunderstorm classes from its WMO code
    /// (`WeatherCode.calculate`, made from the same row's precipitation, snowfall and cloud
    /// cover), a dry sky from its cloud cover in OpenWeatherMap's bands (800 clear 0-10 %, 801
    /// few 11-25 %, 802 scattered 25-50 %, 803 broken 51-84 %, 804 overcast 85-100 %, its
    /// "Weather condition codes" page), finer than WMO's four sky codes. nil when the row has
    /// no code (the cycle lacks cloud cover or the hour).
    /// - Parameters:
    ///   - weatherCode: the row's `weather_code` (NaN when unknown).
    ///   - cloudCover: the row's `cloud_cover` in % as the API prints it (NaN when unknown).
    package static func of(weatherCode: Float, cloudCover: Float) -> SkyCondition? {
        guard weatherCode.isFinite, let code = WeatherCode(rawValue: Int(weatherCode)) else { return nil }
        switch code {
        case .clearSky, .mainlyClear, .partlyCloudy, .overcast:
            guard cloudCover.isFinite else { return [.clearSky: .clear, .mainlyClear: .fewClouds, .partlyCloudy: .scatteredClouds][code] ?? .overcast }
            let percent = cloudCover
            if percent <= 10 { return .clear }
            if percent <= 25 { return .fewClouds }
            if percent <= 50 { return .scatteredClouds }
            if percent <= 84 { return .brokenClouds }
            return .overcast
        case .fog, .depositingRimeFog: return .fog
        case .lightDrizzle: return .lightDrizzle
        case .moderateDrizzle: return .drizzle
        case .denseDrizzle: return .heavyDrizzle
        case .lightFreezingDrizzle, .denseFreezingDrizzle: return .freezingDrizzle
        case .slightRain: return .lightRain
        case .moderateRain: return .rain
        case .heavyRain: return .heavyRain
        case .lightFreezingRain, .heavyFreezingRain: return .freezingRain
        case .slightSnowfall: return .lightSnow
        case .moderateSnowfall: return .snow
        case .heavySnowfall: return .heavySnow
        case .slightRainShowers: return .lightShowers
        case .moderateRainShowers: return .showers
        case .violentRainShowers: return .heavyShowers
        case .slightSnowShowers: return .lightSnowShowers
        case .heavySnowShowers: return .snowShowers
        case .thunderstorm: return .thunderstorm
        case .thunderstormWithSlightHail, .thunderstormWithHeavyHail: return .thunderstormWithHail
        }
    }
}

/// One API's condition: its code, its short group name, its text (English) and its icon.
package struct APICondition: Sendable, Equatable {
    package let code: Int
    package let group: String
    package let text: String
    /// The icon's name without the day/night letter (OpenWeatherMap: "10" for "10d"/"10n").
    package let icon: String
}

/// The one table from a `SkyCondition` to each API's condition. Add an API as a column here.
package enum WeatherConditions {
    /// OpenWeatherMap's condition ids, `main` groups, descriptions and icons, as its "Weather
    /// condition codes" page lists them (2xx thunderstorm, 3xx drizzle, 5xx rain, 6xx snow,
    /// 7xx atmosphere, 800 clear, 80x clouds). OpenWeatherMap has no freezing drizzle: 511
    /// "freezing rain" answers it, as its own icon (13) does for freezing rain.
    package static let openWeatherMap: [SkyCondition: APICondition] = [
        .clear: .init(code: 800, group: "Clear", text: "clear sky", icon: "01"),
        .fewClouds: .init(code: 801, group: "Clouds", text: "few clouds", icon: "02"),
        .scatteredClouds: .init(code: 802, group: "Clouds", text: "scattered clouds", icon: "03"),
        .brokenClouds: .init(code: 803, group: "Clouds", text: "broken clouds", icon: "04"),
        .overcast: .init(code: 804, group: "Clouds", text: "overcast clouds", icon: "04"),
        .fog: .init(code: 741, group: "Fog", text: "fog", icon: "50"),
        .lightDrizzle: .init(code: 300, group: "Drizzle", text: "light intensity drizzle", icon: "09"),
        .drizzle: .init(code: 301, group: "Drizzle", text: "drizzle", icon: "09"),
        .heavyDrizzle: .init(code: 302, group: "Drizzle", text: "heavy intensity drizzle", icon: "09"),
        .freezingDrizzle: .init(code: 511, group: "Rain", text: "freezing rain", icon: "13"),
        .lightRain: .init(code: 500, group: "Rain", text: "light rain", icon: "10"),
        .rain: .init(code: 501, group: "Rain", text: "moderate rain", icon: "10"),
        .heavyRain: .init(code: 502, group: "Rain", text: "heavy intensity rain", icon: "10"),
        .freezingRain: .init(code: 511, group: "Rain", text: "freezing rain", icon: "13"),
        .lightShowers: .init(code: 520, group: "Rain", text: "light intensity shower rain", icon: "09"),
        .showers: .init(code: 521, group: "Rain", text: "shower rain", icon: "09"),
        .heavyShowers: .init(code: 522, group: "Rain", text: "heavy intensity shower rain", icon: "09"),
        .lightSnow: .init(code: 600, group: "Snow", text: "light snow", icon: "13"),
        .snow: .init(code: 601, group: "Snow", text: "snow", icon: "13"),
        .heavySnow: .init(code: 602, group: "Snow", text: "heavy snow", icon: "13"),
        .lightSnowShowers: .init(code: 620, group: "Snow", text: "light shower snow", icon: "13"),
        .snowShowers: .init(code: 621, group: "Snow", text: "shower snow", icon: "13"),
        .thunderstorm: .init(code: 211, group: "Thunderstorm", text: "thunderstorm", icon: "11"),
        .thunderstormWithHail: .init(code: 212, group: "Thunderstorm", text: "heavy thunderstorm", icon: "11"),
    ]

    /// Caiyun's skycons (its "天气现象" table), the day names of the clear and partly cloudy
    /// skies (`_DAY`; `CaiyunRow.skycon` writes `_NIGHT` at night). Its cloud bands (clear
    /// below 0.2, partly cloudy to 0.8, cloudy above) hold OpenWeatherMap's: few clouds (to 25 %)
    /// is CLEAR, scattered and broken PARTLY_CLOUDY, overcast CLOUDY. Caiyun has no drizzle,
    /// freezing or showers names: each is the rain of its intensity; a thunderstorm is heavy
    /// rain, one with hail a storm. Its haze, dust, sand and wind names need quantities the
    /// runs have not (aerosol, dust): never answered.
    package static let caiyun: [SkyCondition: String] = [
        .clear: "CLEAR_DAY", .fewClouds: "CLEAR_DAY", .scatteredClouds: "PARTLY_CLOUDY_DAY", .brokenClouds: "PARTLY_CLOUDY_DAY",
        .overcast: "CLOUDY", .fog: "FOG",
        .lightDrizzle: "LIGHT_RAIN", .drizzle: "LIGHT_RAIN", .heavyDrizzle: "LIGHT_RAIN", .freezingDrizzle: "LIGHT_RAIN",
        .lightRain: "LIGHT_RAIN", .rain: "MODERATE_RAIN", .heavyRain: "HEAVY_RAIN", .freezingRain: "MODERATE_RAIN",
        .lightShowers: "LIGHT_RAIN", .showers: "MODERATE_RAIN", .heavyShowers: "STORM_RAIN",
        .lightSnow: "LIGHT_SNOW", .snow: "MODERATE_SNOW", .heavySnow: "HEAVY_SNOW",
        .lightSnowShowers: "LIGHT_SNOW", .snowShowers: "MODERATE_SNOW",
        .thunderstorm: "HEAVY_RAIN", .thunderstormWithHail: "STORM_RAIN",
    ]

    /// QWeather's icon codes and texts, as its "Weather Conditions" and "Icons" pages list them:
    /// the day code and the night code (the 150 series, 350/351 and 457 are night icons; a
    /// condition with one icon for both has the same code twice), the Chinese text and the
    /// English texts by day and by night (100 is "Sunny", 150 "Clear").
    package static let qWeather: [SkyCondition: QWeatherCondition] = [
        .clear: .init(day: 100, night: 150, zh: "晴", en: "Sunny", enNight: "Clear"),
        .fewClouds: .init(day: 102, night: 152, zh: "少云", en: "Few Clouds"),
        .scatteredClouds: .init(day: 103, night: 153, zh: "晴间多云", en: "Partly Cloudy"),
        .brokenClouds: .init(day: 101, night: 151, zh: "多云", en: "Cloudy"),
        .overcast: .init(day: 104, night: 104, zh: "阴", en: "Overcast"),
        .fog: .init(day: 501, night: 501, zh: "雾", en: "Foggy"),
        .lightDrizzle: .init(day: 309, night: 309, zh: "毛毛雨/细雨", en: "Drizzle Rain"),
        .drizzle: .init(day: 309, night: 309, zh: "毛毛雨/细雨", en: "Drizzle Rain"),
        .heavyDrizzle: .init(day: 309, night: 309, zh: "毛毛雨/细雨", en: "Drizzle Rain"),
        .freezingDrizzle: .init(day: 313, night: 313, zh: "冻雨", en: "Freezing Rain"),
        .lightRain: .init(day: 305, night: 305, zh: "小雨", en: "Light Rain"),
        .rain: .init(day: 306, night: 306, zh: "中雨", en: "Moderate Rain"),
        .heavyRain: .init(day: 307, night: 307, zh: "大雨", en: "Heavy Rain"),
        .freezingRain: .init(day: 313, night: 313, zh: "冻雨", en: "Freezing Rain"),
        .lightShowers: .init(day: 300, night: 350, zh: "阵雨", en: "Shower Rain"),
        .showers: .init(day: 300, night: 350, zh: "阵雨", en: "Shower Rain"),
        .heavyShowers: .init(day: 301, night: 351, zh: "强阵雨", en: "Heavy Shower Rain"),
        .lightSnow: .init(day: 400, night: 400, zh: "小雪", en: "Light Snow"),
        .snow: .init(day: 401, night: 401, zh: "中雪", en: "Moderate Snow"),
        .heavySnow: .init(day: 402, night: 402, zh: "大雪", en: "Heavy Snow"),
        .lightSnowShowers: .init(day: 407, night: 457, zh: "阵雪", en: "Snow Flurry"),
        .snowShowers: .init(day: 407, night: 457, zh: "阵雪", en: "Snow Flurry"),
        .thunderstorm: .init(day: 302, night: 302, zh: "雷阵雨", en: "Thundershower"),
        .thunderstormWithHail: .init(day: 304, night: 304, zh: "雷阵雨伴有冰雹", en: "Thundershower with Hail"),
    ]
}

/// One QWeather condition: its icon code by day and by night and its texts.
package struct QWeatherCondition: Sendable, Equatable {
    package let day: Int
    package let night: Int
    package let zh: String
    package let en: String
    /// The English text at night where it differs from the day's (100 "Sunny", 150 "Clear").
    package let enNight: String?

    init(day: Int, night: Int, zh: String, en: String, enNight: String? = nil) {
        self.day = day
        self.night = night
        self.zh = zh
        self.en = en
        self.enNight = enNight
    }

    package func icon(isDay: Bool) -> Int { isDay ? day : night }

    package func text(_ language: QWeatherLanguage, isDay: Bool) -> String {
        language == .zh ? zh : (isDay ? en : enNight ?? en)
    }
}
