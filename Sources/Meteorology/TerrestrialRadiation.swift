import Foundation

/// Solar radiation on a horizontal surface at the top of the atmosphere (Open-Meteo's
/// `terrestrial_radiation` and `terrestrial_radiation_instant`): S₀ (r₀/r)² max(cos θz, 0),
/// with Open-Meteo's solar constant S₀ = 1367.7 W/m² (`Zensun.solarConstant`), the zenith θz
/// from NOAA's solar calculator (`SolarPosition`) and the Earth-Sun distance r (AU) from the
/// same spreadsheet's radius vector.
package enum TerrestrialRadiation {
    package static let solarConstant = 1367.7

    /// The Earth-Sun distance in AU at a Julian century (NOAA: 1.000001018 (1 − e²) / (1 + e cos ν)).
    @inlinable
    package static func sunDistance(julianCentury t: Double) -> Double {
        let rad = Double.pi / 180
        let meanAnomaly = 357.52911 + t * (35999.05029 - 0.0001537 * t)
        let eccentricity = 0.016708634 - t * (0.000042037 + 0.0000001267 * t)
        let centre = sin(meanAnomaly * rad) * (1.914602 - t * (0.004817 + 0.000014 * t))
            + sin(2 * meanAnomaly * rad) * (0.019993 - 0.000101 * t) + sin(3 * meanAnomaly * rad) * 0.000289
        let trueAnomaly = (meanAnomaly + centre) * rad
        return 1.000001018 * (1 - eccentricity * eccentricity) / (1 + eccentricity * cos(trueAnomaly))
    }

    /// W/m² at a place and moment (seconds since 1970 UTC).
    package static func instant(latitude: Double, longitude: Double, time: Double) -> Double {
        let zenith = SolarPosition.zenith(latitude: latitude, longitude: longitude, time: time)
        let r = sunDistance(julianCentury: SolarPosition.julianCentury(time))
        return solarConstant / (r * r) * max(cos(zenith * Double.pi / 180), 0)
    }

    /// The mean over the `window` seconds ending at `end` (Open-Meteo's backwards average):
    /// the instant value at the middle of each of its minutes, averaged. Open-Meteo integrates
    /// the cosine analytically over the hour angle; a minute's midpoint is within a small
    /// fraction of a W/m² of that integral.
    package static func backwardsMean(latitude: Double, longitude: Double, end: Int64, window: Int64) -> Double {
        let steps = max(1, Int(window / 60))
        let step = Double(window) / Double(steps), start = Double(end - window)
        var sum = 0.0
        for k in 0..<steps { sum += instant(latitude: latitude, longitude: longitude, time: start + (Double(k) + 0.5) * step) }
        return sum / Double(steps)
    }
}
