// WMO weather interpretation code (WMO 306, code table 4677 "ww") as Open-Meteo serves it for
// `weather_code`, derived from model output.
//
// A model has no observer, so the code is classified from the hour's quantities. The rule is
// Open-Meteo's (open-meteo `Sources/App/Helper/WeatherCode.swift`, `calculate`, after DWD/COSMO,
// Hoffmann 2006 "ww in the COSMO model", COSMO Newsletter 6), which Open-Meteo applies at query
// time to the interpolated series of the hour (`Sources/App/Helper/Reader/DerivedMapping.swift`,
// case `.weatherCode`). We do the same, so a row never contradicts its own cloud cover or
// precipitation, and a client switching from Open-Meteo reads the same code from the same
// numbers. Amounts are over the row's window (an hour, or 15 minutes) and turned into rates
// per hour first. In order, the first that applies:
//
//   input                                                                  code
//   -----------------------------------------------------------------------------------------
//   cloud cover, precipitation or snowfall unknown (NaN)                   none (NaN)
//   CAPE held and the thunderstorm probability (below) > 85 %              96 thunderstorm, strong
//   CAPE held and the thunderstorm probability > 60 %                      95 thunderstorm
//   freezing rain (below), precipitation 0.01 ..< 0.5 / 0.5 ..< 1.3 mm/h    56 / 57 freezing drizzle
//                          precipitation 1.3 ..< 2.5 / >= 2.5 mm/h         66 / 67 freezing rain
//   showers > 0 mm or CAPE >= 800 J/kg, snowfall 0.01 ..< 0.8 cm/h         85 slight snow showers
//                                       snowfall >= 0.8 cm/h               86 heavy snow showers
//                                       precipitation 1.3 ..< 2.5 mm/h     80 slight rain showers
//                                       precipitation 2.5 ..< 7.6 mm/h     81 moderate rain showers
//                                       precipitation >= 7.6 mm/h          82 violent rain showers
//   snowfall 0.01 ..< 0.2 / 0.2 ..< 0.8 / >= 0.8 cm/h                      71 / 73 / 75 snow
//   precipitation 0.01 ..< 0.5 / 0.5 ..< 1.0 / 1.0 ..< 1.3 mm/h            51 / 53 / 55 drizzle
//   precipitation 1.3 ..< 2.5 / 2.5 ..< 7.6 / >= 7.6 mm/h                  61 / 63 / 65 rain
//   visibility held and <= 1000 m                                          45 fog
//   cloud cover 0 ..< 20 / 20 ..< 50 / 50 ..< 80 / >= 80 %                 0 / 1 / 2 / 3
//   cloud cover below 0                                                    none (NaN)
//
// Open-Meteo's freezing codes (56/57/66/67) need a model's categorical freezing-rain field,
// which WRF's history output does not have. The run says it in its own quantities (issue 46):
// liquid precipitation (the grid-scale rain: RAINNC less snow, graupel and hail) falling at a
// 2 m temperature at or below 0 °C freezes where it lands. That is the category given to
// Open-Meteo's rule (`freezingRain`), so the run's rain at -5 °C is never "rain". The
// convective part (RAINC) has no phase in WRF's output and does not count. An optional input
// that is NaN counts as not held.
//
// Daily code: the most severe code of the day by `WeatherCode.severity` (below), not the
// numeric maximum, which would rank slight showers (80) above heavy rain (65).

/// The codes this module can produce (a subset of WMO 4677 ww), and those older stores hold.
@usableFromInline package enum WeatherCode: Int, Sendable, CaseIterable {
    case clearSky = 0
    case mainlyClear = 1
    case partlyCloudy = 2
    case overcast = 3
    case fog = 45
    case depositingRimeFog = 48
    case lightDrizzle = 51
    case moderateDrizzle = 53
    case denseDrizzle = 55
    case slightRain = 61
    case moderateRain = 63
    case heavyRain = 65
    case lightFreezingDrizzle = 56
    case denseFreezingDrizzle = 57
    case lightFreezingRain = 66
    case heavyFreezingRain = 67
    case slightSnowfall = 71
    case moderateSnowfall = 73
    case heavySnowfall = 75
    case slightRainShowers = 80
    case moderateRainShowers = 81
    case violentRainShowers = 82
    case slightSnowShowers = 85
    case heavySnowShowers = 86
    case thunderstorm = 95
    case thunderstormWithSlightHail = 96
    case thunderstormWithHeavyHail = 99

    /// Short English text for tables, in the wording of the open weather APIs.
    package var summary: String {
        switch self {
        case .clearSky: return "Clear sky"
        case .mainlyClear: return "Mainly clear"
        case .partlyCloudy: return "Partly cloudy"
        case .overcast: return "Overcast"
        case .fog: return "Fog"
        case .depositingRimeFog: return "Depositing rime fog"
        case .lightDrizzle: return "Light drizzle"
        case .moderateDrizzle: return "Moderate drizzle"
        case .denseDrizzle: return "Dense drizzle"
        case .slightRain: return "Slight rain"
        case .moderateRain: return "Moderate rain"
        case .heavyRain: return "Heavy rain"
        case .lightFreezingDrizzle: return "Light freezing drizzle"
        case .denseFreezingDrizzle: return "Moderate or dense freezing drizzle"
        case .lightFreezingRain: return "Light freezing rain"
        case .heavyFreezingRain: return "Moderate or heavy freezing rain"
        case .slightSnowfall: return "Slight snow fall"
        case .moderateSnowfall: return "Moderate snow fall"
        case .heavySnowfall: return "Heavy snow fall"
        case .slightRainShowers: return "Slight rain showers"
        case .moderateRainShowers: return "Moderate rain showers"
        case .violentRainShowers: return "Violent rain showers"
        case .slightSnowShowers: return "Slight snow showers"
        case .heavySnowShowers: return "Heavy snow showers"
        case .thunderstorm: return "Thunderstorm"
        case .thunderstormWithSlightHail: return "Thunderstorm with slight hail"
        case .thunderstormWithHeavyHail: return "Thunderstorm with heavy hail"
        }
    }
}

extension WeatherCode {
    /// The codes from least to most severe. Intensity comes first (dry sky, then light,
    /// slight, moderate and heavy precipitation, in the rate bands of the table above), and
    /// within one intensity the harder to live with comes later: showers before steady rain
    /// (a shower passes), rain before snow (snow blocks roads), snow before freezing
    /// precipitation (glaze ice); thunderstorms above all. So heavy rain (65) outranks slight
    /// showers (80). Fog (and rime fog, which glazes roads) ranks above any dry sky and below
    /// any precipitation, as in WMO 4677's numbering and Open-Meteo's daily maximum.
    package static let severityOrder: [WeatherCode] = [
        .clearSky, .mainlyClear, .partlyCloudy, .overcast, .fog, .depositingRimeFog,
        .lightDrizzle, .moderateDrizzle, .denseDrizzle, .lightFreezingDrizzle, .denseFreezingDrizzle,
        .slightRainShowers, .slightRain, .slightSnowShowers, .slightSnowfall, .lightFreezingRain,
        .moderateRainShowers, .moderateRain, .moderateSnowfall,
        .violentRainShowers, .heavyRain, .heavySnowShowers, .heavySnowfall, .heavyFreezingRain,
        .thunderstorm, .thunderstormWithSlightHail, .thunderstormWithHeavyHail,
    ]

    /// Rank in `severityOrder` (0 is the least severe).
    package var severity: Int { Self.severityOrder.firstIndex(of: self) ?? 0 }

    /// The most severe of some codes (as numbers); NaN when any is NaN or none is given.
    /// A number that is no code of ours ranks below clear sky.
    package static func mostSevere(_ codes: [Float]) -> Float {
        guard !codes.isEmpty, !codes.contains(where: \.isNaN) else { return .nan }
        func rank(_ value: Float) -> Int { WeatherCode(rawValue: Int(value)).map(\.severity) ?? -1 }
        return codes.max { rank($0) < rank($1) } ?? .nan
    }
}

/// One row's quantities at the place, as the query interpolated them, that the code is made
/// from. Amounts are over the row's window of `hours`; nil marks an input the store does not hold.
package struct WeatherCodeInputs: Sendable {
    /// %.
    package var cloudCover: Float
    /// mm over the window.
    package var precipitation: Float
    /// cm over the window (0 for a model without snowfall).
    package var snowfall: Float
    /// The convective part of the precipitation (`showers`), mm over the window.
    package var showers: Float?
    /// m.
    package var visibility: Float?
    /// J/kg.
    package var cape: Float?
    /// 10 m gusts, m/s.
    package var gusts: Float?
    /// m.
    package var boundaryLayerHeight: Float?
    /// The window's length in hours (1 for hourly rows).
    package var hours: Float
    /// Degrees north of the place: convection is weighed down towards the equator.
    package var latitude: Float
    /// The categorical freezing rain: liquid precipitation at a 2 m temperature at or below
    /// 0 °C (`freezes(liquid:temperature:)`).
    package var freezingRain = false

    /// Whether liquid precipitation (mm over the window) at a 2 m temperature (°C) freezes
    /// where it lands: some fell, and the air is at or below 0 °C. False when either is unknown.
    package static func freezes(liquid: Float, temperature: Float) -> Bool { liquid > 0 && temperature <= 0 }

    package init(cloudCover: Float, precipitation: Float, snowfall: Float, showers: Float? = nil, visibility: Float? = nil,
                 cape: Float? = nil, gusts: Float? = nil, boundaryLayerHeight: Float? = nil, hours: Float = 1, latitude: Float = 45) {
        self.cloudCover = cloudCover
        self.precipitation = precipitation
        self.snowfall = snowfall
        self.showers = showers.flatMap(Self.known)
        self.visibility = visibility.flatMap(Self.known)
        self.cape = cape.flatMap(Self.known)
        self.gusts = gusts.flatMap(Self.known)
        self.boundaryLayerHeight = boundaryLayerHeight.flatMap(Self.known)
        self.hours = hours
        self.latitude = latitude
    }

    /// An optional input that is NaN counts as not held.
    private static func known(_ value: Float) -> Float? { value.isNaN ? nil : value }
}

extension WeatherCode {
    /// The code of one row by the table at the top of this file; nil when cloud cover,
    /// precipitation or snowfall is unknown, or cloud cover is below 0.
    package static func calculate(_ x: WeatherCodeInputs) -> WeatherCode? {
        guard x.cloudCover.isFinite, x.precipitation.isFinite, x.snowfall.isFinite else { return nil }
        if let storm = thunderstorm(x) { return storm }
        if x.freezingRain, let freezing = freezing(rate: x.precipitation / x.hours) { return freezing }
        let rain = x.precipitation / x.hours, snow = x.snowfall / x.hours
        if (x.showers ?? 0) > 0 || (x.cape ?? 0) >= 800, let shower = shower(rain: rain, snow: snow) { return shower }
        if let steady = steady(rain: rain, snow: snow) { return steady }
        if let visibility = x.visibility, visibility <= 1000 { return .fog }
        return sky(cloudCover: x.cloudCover)
    }

    /// 95 or 96 when CAPE is held and the thunderstorm probability passes 60 or 85 %.
    private static func thunderstorm(_ x: WeatherCodeInputs) -> WeatherCode? {
        guard let cape = x.cape else { return nil }
        let probability = thunderstormProbability(x, cape: cape)
        if probability > 85 { return .thunderstormWithSlightHail }
        if probability > 60 { return .thunderstorm }
        return nil
    }

    /// Open-Meteo's freezing codes by the precipitation rate (mm/h) of a freezing-rain row; nil
    /// below 0.01 mm/h, which then falls through to the other codes.
    private static func freezing(rate: Float) -> WeatherCode? {
        if rate >= 2.5 { return .heavyFreezingRain }
        if rate >= 1.3 { return .lightFreezingRain }
        if rate >= 0.5 { return .denseFreezingDrizzle }
        if rate >= 0.01 { return .lightFreezingDrizzle }
        return nil
    }

    /// Shower codes for convective rows (per-hour rates); nil below the rain-shower band, which
    /// then falls through to the steady codes (Open-Meteo's light convective rain is drizzle).
    private static func shower(rain: Float, snow: Float) -> WeatherCode? {
        if snow >= 0.8 { return .heavySnowShowers }
        if snow >= 0.01 { return .slightSnowShowers }
        if rain >= 7.6 { return .violentRainShowers }
        if rain >= 2.5 { return .moderateRainShowers }
        if rain >= 1.3 { return .slightRainShowers }
        return nil
    }

    /// Snow, then drizzle and rain codes (per-hour rates); nil for a dry row.
    private static func steady(rain: Float, snow: Float) -> WeatherCode? {
        if snow >= 0.8 { return .heavySnowfall }
        if snow >= 0.2 { return .moderateSnowfall }
        if snow >= 0.01 { return .slightSnowfall }
        if rain >= 7.6 { return .heavyRain }
        if rain >= 2.5 { return .moderateRain }
        if rain >= 1.3 { return .slightRain }
        if rain >= 1.0 { return .denseDrizzle }
        if rain >= 0.5 { return .moderateDrizzle }
        if rain >= 0.01 { return .lightDrizzle }
        return nil
    }

    /// The dry sky by cloud cover (%); nil below 0.
    private static func sky(cloudCover: Float) -> WeatherCode? {
        if cloudCover >= 80 { return .overcast }
        if cloudCover >= 50 { return .partlyCloudy }
        if cloudCover >= 20 { return .mainlyClear }
        if cloudCover >= 0 { return .clearSky }
        return nil
    }

    /// Open-Meteo's thunderstorm probability (%, `calculateThunderstormProbability` in the same
    /// file), with the inputs a WRF store can hold: CAPE, showers, precipitation, cloud cover,
    /// gusts and boundary-layer height (no lifted index or convective inhibition, whose terms
    /// it then leaves out). A weighted score of the inputs held, damped by little cloud, no
    /// convective rain and low latitude; Float arithmetic in Open-Meteo's order, so the 60 and
    /// 85 % thresholds fall where they fall there.
    package static func thunderstormProbability(_ x: WeatherCodeInputs, cape: Float) -> Float {
        if cape <= 10 || x.cloudCover < 30 { return 0 }
        let absLatitude = abs(x.latitude)
        let tropical: Float = 1 - min(absLatitude, 30) / 30
        let latitudeFactor: Float = absLatitude >= 30 ? 1 : 0.8 + 0.2 * (absLatitude / 30)
        var score: Float = 0, weight: Float = 0
        func add(_ value: Float, _ w: Float) {
            score += clampUnit(value) * w
            weight += w
        }
        let capeCeiling: Float = 2500 + 1500 * tropical
        add((cape - 300) / (capeCeiling - 300), 0.25)
        // Rain expected of a storm in the window: convective rain when there is some, else the
        // total against a higher bar and with less weight.
        let reference: Float = (2 + 3 * tropical) * x.hours
        if let showers = x.showers, showers > 0 {
            add(showers / reference, 0.25)
        } else {
            score += clampUnit(x.precipitation / (reference * 1.6)) * 0.25 * 0.6
            weight += 0.25 * 0.6
        }
        if let height = x.boundaryLayerHeight { add((height - 300) / 1200, 0.075) }
        if let gusts = x.gusts { add((gusts - 5) / 13, 0.075) }
        var probability = score / weight * 100
        if (x.showers ?? x.precipitation) <= 0 { probability *= 0.7 }
        probability *= x.cloudCover >= 60 ? 1 : 0.6 + 0.4 * ((x.cloudCover - 30) / 30)
        probability *= latitudeFactor
        return max(0, min(probability, 100))
    }

    /// 0...1 (NaN stays NaN, as Open-Meteo's min/max leave it).
    private static func clampUnit(_ value: Float) -> Float { max(0, min(value, 1)) }
}
