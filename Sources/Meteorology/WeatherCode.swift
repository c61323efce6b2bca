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
//
// where water = max(precipitation rate, snowfall / 0.7 cm per mm); "snow" means snow makes
// at least half of that water; "showery" means the cumulus scheme's part (RAINC) makes at
// least half of it (showers come from convective cloud; a grid-scale rate cannot tell).
// Every lower bound is inclusive, so a value on a boundary takes the higher band.
//
// Where we part from open-meteo, and why:
// * Snow needs half the water, not any trace (0.01 cm/h), so rain with a few flakes of
//   graupel stays rain.
// * Showers start at the precipitation threshold, not at 1.3 mm/h: drizzle falls from
//   stratiform cloud, so a convective 0.5 mm/h is a slight shower, not drizzle; and the
//   violent band (82) is used for >= 7.6 mm/h, mirroring heavy rain (65).
// * No thunderstorm (95/96/99): open-meteo needs CAPE and lifted index, which WRF's 2-D
//   output does not carry, and rate alone would label heavy frontal rain a thunderstorm.
// * No fog (45/48): there is no visibility field, and CLDFRA on the lowest level is not
//   validated as a fog indicator.
// * No freezing codes (56/57/66/67): nothing in the surface set says the rain freezes.

/// The codes this module can produce (a subset of WMO 4677 ww).
public enum WeatherCode: Int, Sendable, CaseIterable {
    case clearSky = 0
    case mainlyClear = 1
    case partlyCloudy = 2
    case overcast = 3
    case lightDrizzle = 51
    case moderateDrizzle = 53
    case denseDrizzle = 55
    case slightRain = 61
    case moderateRain = 63
    case heavyRain = 65
    case slightSnowfall = 71
    case moderateSnowfall = 73
    case heavySnowfall = 75
    case slightRainShowers = 80
    case moderateRainShowers = 81
    case violentRainShowers = 82
    case slightSnowShowers = 85
    case heavySnowShowers = 86

    /// Short English text for tables, in the wording of the open weather APIs.
    public var summary: String {
        switch self {
        case .clearSky: return "Clear sky"
        case .mainlyClear: return "Mainly clear"
        case .partlyCloudy: return "Partly cloudy"
        case .overcast: return "Overcast"
        case .lightDrizzle: return "Light drizzle"
        case .moderateDrizzle: return "Moderate drizzle"
        case .denseDrizzle: return "Dense drizzle"
        case .slightRain: return "Slight rain"
        case .moderateRain: return "Moderate rain"
        case .heavyRain: return "Heavy rain"
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

/// The thresholds of the table above. Lower bounds, inclusive.
public enum WeatherCodeThresholds {
    /// Cloud cover (%) from which the sky is mainly clear rather than clear.
    @inlinable public static var mainlyClearCloudCover: Float { 20 }
    /// Cloud cover (%) from which the sky is partly cloudy.
    @inlinable public static var partlyCloudyCloudCover: Float { 50 }
    /// Cloud cover (%) from which the sky is overcast.
    @inlinable public static var overcastCloudCover: Float { 80 }
    /// Water (mm/h) from which it precipitates; the smallest amount a rain gauge reports.
    @inlinable public static var precipitation: Float { 0.1 }
    /// Drizzle (mm/h) from which it is moderate.
    @inlinable public static var moderateDrizzle: Float { 0.5 }
    /// Drizzle (mm/h) from which it is dense.
    @inlinable public static var denseDrizzle: Float { 1.0 }
    /// Rate (mm/h) from which steady precipitation is rain rather than drizzle.
    @inlinable public static var slightRain: Float { 1.3 }
    /// Rate (mm/h) from which rain and showers are moderate (AMS Glossary).
    @inlinable public static var moderateRain: Float { 2.5 }
    /// Rate (mm/h) from which rain is heavy and showers violent (AMS Glossary).
    @inlinable public static var heavyRain: Float { 7.6 }
    /// Snowfall (cm/h) from which steady snow is moderate.
    @inlinable public static var moderateSnow: Float { 0.2 }
    /// Snowfall (cm/h) from which snow and snow showers are heavy.
    @inlinable public static var heavySnow: Float { 0.8 }
    /// Share of the water that must be snow for a snow code.
    @inlinable public static var snowShare: Float { 0.5 }
    /// Share of the water that must be convective (RAINC) for a shower code.
    @inlinable public static var convectiveShare: Float { 0.5 }
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
    /// - Returns: the code, or nil when a given input is NaN.
    @inlinable
    public static func classify(
        cloudCover: Float, precipitationRate: Float, snowfallRate: Float? = nil,
        convectivePrecipitationRate: Float? = nil
    ) -> WeatherCode? {
        let t = WeatherCodeThresholds.self
        let snowfall = snowfallRate ?? 0
        let convective = convectivePrecipitationRate ?? 0
        if cloudCover.isNaN || precipitationRate.isNaN || snowfall.isNaN || convective.isNaN { return nil }

        let water = max(precipitationRate, snowWaterEquivalentMillimetres(snowfallCentimetres: snowfall))
        if water < t.precipitation {
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
public func weatherCode(
    cloudCover: Float, precipitationRate: Float, snowfallRate: Float? = nil,
    convectivePrecipitationRate: Float? = nil
) -> Float {
    guard let code = WeatherCode.classify(
        cloudCover: cloudCover, precipitationRate: precipitationRate, snowfallRate: snowfallRate,
        convectivePrecipitationRate: convectivePrecipitationRate)
    else { return .nan }
    return Float(code.rawValue)
}

/// Weather codes over whole fields (NaN where unknown); `output` may be the memory of any
/// input. Pass nil for `snowfallRate` or `convectivePrecipitationRate` when the model lacks it.
public func weatherCode(
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
