// WMO weather interpretation code (WMO 306, code table 4677 "ww") as the common open
// weather APIs use it for `weather_code`, derived from model output.
//
// A model has no observer, so the code is classified from rates. The bands follow the
// open-meteo derivation (open-meteo `WeatherCode.calculate`, after DWD/COSMO, Hoffmann 2006
// "ww in the COSMO model", COSMO Newsletter 6), so our codes mean what users of those APIs
// expect; the rain bands 2.5 / 7.6 mm/h are the AMS Glossary's light / moderate / heavy rain.
// Rates are per hour: divide an interval's amount by the interval's hours first.
//
//   input (per hour)                                   code
//   ---------------------------------------------------------------------------------
//   any given input NaN                                 none (NaN): missing stays missing
//   water < 0.1 mm, visibility <= 1000 m                45 fog (48 depositing rime fog with T2 < 0 °C)
//   water < 0.1 mm, cloud cover < 20 %                  0  clear sky
//   water < 0.1 mm, cloud cover 20 ..< 50 %             1  mainly clear
//   water < 0.1 mm, cloud cover 50 ..< 80 %             2  partly cloudy
//   water < 0.1 mm, cloud cover >= 80 %                 3  overcast
//   snow, showery,       snowfall < 0.8 cm              85 slight snow showers
//   snow, showery,       snowfall >= 0.8 cm             86 heavy snow showers
//   snow, not showery,   snowfall < 0.2 cm              71 slight snow
//   snow, not showery,   snowfall 0.2 ..< 0.8 cm        73 moderate snow
//   snow, not showery,   snowfall >= 0.8 cm             75 heavy snow
//   rain, showery,       rate < 2.5 mm                  80 slight rain showers
//   rain, showery,       rate 2.5 ..< 7.6 mm            81 moderate rain showers
//   rain, showery,       rate >= 7.6 mm                 82 violent rain showers
//   rain, not showery,   rate 0.1 ..< 0.5 mm            51 light drizzle
//   rain, not showery,   rate 0.5 ..< 1.0 mm            53 moderate drizzle
//   rain, not showery,   rate 1.0 ..< 1.3 mm            55 dense drizzle
//   rain, not showery,   rate 1.3 ..< 2.5 mm            61 slight rain
//   rain, not showery,   rate 2.5 ..< 7.6 mm            63 moderate rain
//   rain, not showery,   rate >= 7.6 mm                 65 heavy rain
//   any rain or drizzle code above with T2 < 0 °C: freezing precipitation (WMO 4677 56/57/66/67)
//     51                                                56 light freezing drizzle
//     53, 55                                            57 moderate or dense freezing drizzle
//     61, 80                                            66 light freezing rain
//     63, 65, 81, 82                                    67 moderate or heavy freezing rain
//
// where water = max(precipitation rate, snowfall / 0.7 cm per mm); "snow" means snow makes
// at least half of that water; "showery" means the cumulus scheme's part (RAINC) makes at
// least half of it (showers come from convective cloud; a grid-scale rate cannot tell).
// Every lower bound is inclusive, so a value on a boundary takes the higher band.
//
// Open-Meteo's rule (open-meteo `Sources/App/Helper/WeatherCode.swift`, `calculate`), read
// for comparison, per hour: thunderstorm from CAPE/lifted index first; freezing codes when
// the model's categorical freezing rain flag is set (0.01..<0.5 mm -> 56, 0.5..<1.3 -> 57,
// 1.3..<2.5 -> 66, >= 2.5 -> 67); showers when the convective precipitation is > 0 (or
// CAPE >= 800): snow showers 0.01..<0.8 cm -> 85, >= 0.8 -> 86, rain showers 1.3..<2.5 mm
// -> 80, 2.5..<7.6 -> 81, >= 7.6 -> 82 (below 1.3 mm it falls through to drizzle); snow
// 0.01..<0.2 cm -> 71, 0.2..<0.8 -> 73, >= 0.8 -> 75; drizzle/rain 0.01..<0.5 mm -> 51,
// 0.5..<1.0 -> 53, 1.0..<1.3 -> 55, 1.3..<2.5 -> 61, 2.5..<7.6 -> 63, >= 7.6 -> 65; fog
// when visibility <= 1000 m; otherwise cloud cover 20 / 50 / 80 % as here. The rate bands
// above (0.5, 1.0, 1.3, 2.5, 7.6 mm/h; 0.2, 0.8 cm/h; the cloud bands) are the same.
//
// Where we part from open-meteo, and why:
// * Precipitation starts at 0.1 mm/h, not 0.01: 0.1 mm is the smallest amount a rain gauge
//   reports, so an hour with less is dry to anyone checking against observations.
// * Snow needs half the water, not any trace (0.01 cm/h), so rain with a few flakes of
//   graupel stays rain.
// * Showery means the cumulus scheme (RAINC) gives at least half of the water, not any
//   trace of it: an hour whose water is mostly grid-scale (RAINNC) is steady rain with a
//   convective fringe, and calling it showers would hide the steady rain.
// * Showers start at the precipitation threshold, not at 1.3 mm/h: drizzle falls from
//   stratiform cloud, so a convective 0.5 mm/h is a slight shower, not drizzle; and the
//   violent band (82) is used for >= 7.6 mm/h, mirroring heavy rain (65).
// * Freezing precipitation from T2 < 0 °C, not from a categorical freezing-rain field: WRF's
//   standard history output has none. Liquid water reaching ground below 0 °C freezes on
//   contact, which is what WMO 4677 codes 56/57/66/67 report; freezing rain with a warm
//   ground (T2 >= 0 °C) cannot be seen from the surface set. Rain showers below 0 °C become
//   freezing rain as well (WMO 4677 has no freezing-shower code, and the ice is the hazard).
// * No thunderstorm (95/96/99): open-meteo needs CAPE and lifted index, which WRF's 2-D
//   output does not carry, and rate alone would label heavy frontal rain a thunderstorm.
// * Fog (45) from the model's `visibility` (Visibility.swift, after UPP's CALVIS_GSD) at
//   Open-Meteo's threshold, visibility <= 1000 m, in Open-Meteo's place: after every
//   precipitation code, before the cloud codes. Only when the run has visibility's sources
//   (QCLOUD ... QSNOW); without them the code is never fog. Our dry threshold
//   is 0.1 mm/h, so fog with 0.01-0.1 mm/h is 45 here and drizzle (51) at Open-Meteo.
// * Depositing rime fog (48) when that fog has T2 < 0 °C: WMO 4677 48 is fog whose
//   supercooled droplets freeze on what they touch, which is fog below freezing. Open-Meteo
//   never gives 48. Unknown T2 (NaN) leaves a fog code unknown, as a rain code.
//
// Daily code: the most severe code of the day by `WeatherCode.severity` (below), not the
// numeric maximum, which would rank slight showers (80) above heavy rain (65).

/// The codes this module can produce (a subset of WMO 4677 ww).
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
        }
    }
}

extension WeatherCode {
    /// The codes from least to most severe. Intensity comes first (dry sky, then light,
    /// slight, moderate and heavy precipitation, in the rate bands of the table above), and
    /// within one intensity the harder to live with comes later: showers before steady rain
    /// (a shower passes), rain before snow (snow blocks roads), snow before freezing
    /// precipitation (glaze ice). So heavy rain (65) outranks slight showers (80), and
    /// moderate-or-heavy freezing rain (67) is the most severe code we produce. Fog (and rime
    /// fog, which glazes roads) ranks above any dry sky and below any precipitation, as in
    /// WMO 4677's numbering and Open-Meteo's daily maximum.
    package static let severityOrder: [WeatherCode] = [
        .clearSky, .mainlyClear, .partlyCloudy, .overcast, .fog, .depositingRimeFog,
        .lightDrizzle, .moderateDrizzle, .denseDrizzle, .lightFreezingDrizzle, .denseFreezingDrizzle,
        .slightRainShowers, .slightRain, .slightSnowShowers, .slightSnowfall, .lightFreezingRain,
        .moderateRainShowers, .moderateRain, .moderateSnowfall,
        .violentRainShowers, .heavyRain, .heavySnowShowers, .heavySnowfall, .heavyFreezingRain,
    ]

    /// Rank in `severityOrder` (0 is the least severe).
    package var severity: Int { Self.severityOrder.firstIndex(of: self) ?? 0 }

    /// The most severe of some stored codes (as numbers); NaN when any is NaN or none is given.
    /// A number that is no code of ours ranks below clear sky.
    package static func mostSevere(_ codes: [Float]) -> Float {
        guard !codes.isEmpty, !codes.contains(where: \.isNaN) else { return .nan }
        func rank(_ value: Float) -> Int { WeatherCode(rawValue: Int(value)).map(\.severity) ?? -1 }
        return codes.max { rank($0) < rank($1) } ?? .nan
    }

    /// The freezing counterpart of a rain, drizzle or fog code (T2 below 0 °C); other codes as they are.
    @usableFromInline package var freezing: WeatherCode {
        switch self {
        case .fog: return .depositingRimeFog
        case .lightDrizzle: return .lightFreezingDrizzle
        case .moderateDrizzle, .denseDrizzle: return .denseFreezingDrizzle
        case .slightRain, .slightRainShowers: return .lightFreezingRain
        case .moderateRain, .heavyRain, .moderateRainShowers, .violentRainShowers: return .heavyFreezingRain
        default: return self
        }
    }
}

/// The thresholds of the table above. Lower bounds, inclusive.
@usableFromInline package enum WeatherCodeThresholds {
    /// Cloud cover (%) from which the sky is mainly clear rather than clear.
    @inlinable package static var mainlyClearCloudCover: Float { 20 }
    /// Cloud cover (%) from which the sky is partly cloudy.
    @inlinable package static var partlyCloudyCloudCover: Float { 50 }
    /// Cloud cover (%) from which the sky is overcast.
    @inlinable package static var overcastCloudCover: Float { 80 }
    /// Water (mm/h) from which it precipitates; the smallest amount a rain gauge reports.
    @inlinable package static var precipitation: Float { 0.1 }
    /// Drizzle (mm/h) from which it is moderate.
    @inlinable package static var moderateDrizzle: Float { 0.5 }
    /// Drizzle (mm/h) from which it is dense.
    @inlinable package static var denseDrizzle: Float { 1.0 }
    /// Rate (mm/h) from which steady precipitation is rain rather than drizzle.
    @inlinable package static var slightRain: Float { 1.3 }
    /// Rate (mm/h) from which rain and showers are moderate (AMS Glossary).
    @inlinable package static var moderateRain: Float { 2.5 }
    /// Rate (mm/h) from which rain is heavy and showers violent (AMS Glossary).
    @inlinable package static var heavyRain: Float { 7.6 }
    /// Snowfall (cm/h) from which steady snow is moderate.
    @inlinable package static var moderateSnow: Float { 0.2 }
    /// Snowfall (cm/h) from which snow and snow showers are heavy.
    @inlinable package static var heavySnow: Float { 0.8 }
    /// Share of the water that must be snow for a snow code.
    @inlinable package static var snowShare: Float { 0.5 }
    /// Share of the water that must be convective (RAINC) for a shower code.
    @inlinable package static var convectiveShare: Float { 0.5 }
    /// 2 m temperature (°C) below which rain and drizzle freeze on contact (and fog deposits rime).
    @inlinable package static var freezingTemperature: Float { 0 }
    /// Visibility (m) at or below which a dry hour is fog (Open-Meteo's `<= 1000`).
    @inlinable package static var fogVisibility: Float { 1000 }
}

extension WeatherCode {
    /// Classifies one place and time by the table at the top of this file.
    ///
    /// - Parameters:
    ///   - cloudCover: %, 0...100.
    ///   - precipitationRate: total precipitation, mm/h.
    ///   - snowfallRate: snowfall, cm/h; nil when the model has no snow field.
    ///   - convectivePrecipitationRate: the cumulus-scheme part (RAINC), mm/h; nil when
    ///     unknown, which classifies as steady precipitation.
    ///   - temperature2m: 2 m temperature, °C; below 0 rain, drizzle and fog codes become
    ///     freezing ones. nil when unknown (no freezing codes).
    ///   - visibility: m; nil when the model has no visibility (never fog).
    /// - Returns: the code, or nil when a given input is NaN.
    @inlinable
    package static func classify(
        cloudCover: Float, precipitationRate: Float, snowfallRate: Float? = nil,
        convectivePrecipitationRate: Float? = nil, temperature2m: Float? = nil, visibility: Float? = nil
    ) -> WeatherCode? {
        guard let code = classifyLiquid(cloudCover: cloudCover, precipitationRate: precipitationRate,
                                        snowfallRate: snowfallRate, convectivePrecipitationRate: convectivePrecipitationRate,
                                        visibility: visibility)
        else { return nil }
        guard let temperature2m else { return code }
        if temperature2m.isNaN { return code.freezing == code ? code : nil }
        return temperature2m < WeatherCodeThresholds.freezingTemperature ? code.freezing : code
    }

    /// The table without the freezing rule.
    @inlinable
    static func classifyLiquid(
        cloudCover: Float, precipitationRate: Float, snowfallRate: Float?, convectivePrecipitationRate: Float?,
        visibility: Float? = nil
    ) -> WeatherCode? {
        let t = WeatherCodeThresholds.self
        let snowfall = snowfallRate ?? 0
        let convective = convectivePrecipitationRate ?? 0
        let seen = visibility ?? .infinity
        if cloudCover.isNaN || precipitationRate.isNaN || snowfall.isNaN || convective.isNaN || seen.isNaN { return nil }

        let water = max(precipitationRate, snowWaterEquivalentMillimetres(snowfallCentimetres: snowfall))
        if water < t.precipitation {
            if seen <= t.fogVisibility { return .fog }
            if cloudCover >= t.overcastCloudCover { return .overcast }
            if cloudCover >= t.partlyCloudyCloudCover { return .partlyCloudy }
            if cloudCover >= t.mainlyClearCloudCover { return .mainlyClear }
            return .clearSky
        }
        let showery = convective >= t.convectiveShare * water
        if snowWaterEquivalentMillimetres(snowfallCentimetres: snowfall) >= t.snowShare * water {
            if showery { return snowfall >= t.heavySnow ? .heavySnowShowers : .slightSnowShowers }
            if snowfall >= t.heavySnow { return .heavySnowfall }
            if snowfall >= t.moderateSnow { return .moderateSnowfall }
            return .slightSnowfall
        }
        let rate = water
        if showery {
            if rate >= t.heavyRain { return .violentRainShowers }
            if rate >= t.moderateRain { return .moderateRainShowers }
            return .slightRainShowers
        }
        if rate >= t.heavyRain { return .heavyRain }
        if rate >= t.moderateRain { return .moderateRain }
        if rate >= t.slightRain { return .slightRain }
        if rate >= t.denseDrizzle { return .denseDrizzle }
        if rate >= t.moderateDrizzle { return .moderateDrizzle }
        return .lightDrizzle
    }
}

/// `WeatherCode.classify` as a number for storage: the code, or NaN when unknown.
@inlinable
package func weatherCode(
    cloudCover: Float, precipitationRate: Float, snowfallRate: Float? = nil,
    convectivePrecipitationRate: Float? = nil, temperature2m: Float? = nil, visibility: Float? = nil
) -> Float {
    guard let code = WeatherCode.classify(
        cloudCover: cloudCover, precipitationRate: precipitationRate, snowfallRate: snowfallRate,
        convectivePrecipitationRate: convectivePrecipitationRate, temperature2m: temperature2m, visibility: visibility)
    else { return .nan }
    return Float(code.rawValue)
}

/// Weather codes over whole fields (NaN where unknown); `output` may be the memory of any
/// input. Pass nil for `snowfallRate` or `convectivePrecipitationRate` when the model lacks it.
package func weatherCode(
    cloudCover: UnsafeBufferPointer<Float>, precipitationRate: UnsafeBufferPointer<Float>,
    snowfallRate: UnsafeBufferPointer<Float>?, convectivePrecipitationRate: UnsafeBufferPointer<Float>?,
    into output: UnsafeMutableBufferPointer<Float>
) throws(MeteorologyError) {
    try requireLength(output.count, [
        "cloudCover": cloudCover.count, "precipitationRate": precipitationRate.count,
        "snowfallRate": snowfallRate?.count ?? output.count,
        "convectivePrecipitationRate": convectivePrecipitationRate?.count ?? output.count,
    ])
    for i in 0..<output.count {
        output[i] = weatherCode(
            cloudCover: cloudCover[i], precipitationRate: precipitationRate[i],
            snowfallRate: snowfallRate?[i], convectivePrecipitationRate: convectivePrecipitationRate?[i])
    }
}
