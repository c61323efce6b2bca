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
        instant(zenith: SolarPosition.zenith(latitude: latitude, longitude: longitude, time: time), time: time)
    }

    /// The same from the sun's zenith (degrees) at `time`, when the caller has it already.
    package static func instant(zenith: Double, time: Double) -> Double {
        instant(zenith: zenith, distance: sunDistance(julianCentury: SolarPosition.julianCentury(time)))
    }

    /// The same from the zenith (degrees) and the Earth-Sun distance (AU) at the moment.
    package static func instant(zenith: Double, distance r: Double) -> Double {
        solarConstant / (r * r) * max(cos(zenith * Double.pi / 180), 0)
    }

    /// What `backwardsMean` takes from the middle of its window, the same at every place: the
    /// declination and equation of time, and the Earth-Sun distance.
    package struct WindowSun: Sendable {
        package let middle: SolarPosition.Moment
        package let distance: Double

        /// Of the `window` seconds ending at `end`.
        package init(end: Int64, window: Int64) {
            let middle = Double(end - window) + Double(window) / 2
            self.middle = SolarPosition.Moment(time: middle)
            distance = sunDistance(julianCentury: SolarPosition.julianCentury(middle))
        }
    }

    /// The mean over the `window` seconds ending at `end` (Open-Meteo's backwards average),
    /// integrated over the hour angle as Open-Meteo does: with the declination, equation of time
    /// and Earth-Sun distance of the window's middle (over an hour they move the mean by
    /// hundredths of a W/m²), cos θz = sin φ sin δ + cos φ cos δ cos h is integrated exactly
    /// where it is positive. (It used to average 60 minute samples of `instant`: 60 solar
    /// positions an hour, most of B3's time with every variable; issue 30.)
    package static func backwardsMean(latitude: Double, longitude: Double, end: Int64, window: Int64) -> Double {
        guard window > 0 else { return instant(latitude: latitude, longitude: longitude, time: Double(end)) }
        return backwardsMean(latitude: SolarPosition.Latitude(latitude), longitude: longitude, end: end, window: window,
                             sun: WindowSun(end: end, window: window))
    }

    /// The same with the window's `WindowSun` (it is the same at every place) and the latitude's
    /// sine and cosine (once per place) made already.
    /// - Precondition: `window > 0` and `sun` is of this window.
    package static func backwardsMean(latitude: SolarPosition.Latitude, longitude: Double, end: Int64, window: Int64, sun: WindowSun) -> Double {
        let rad = Double.pi / 180
        let start = Double(end - window)
        let equation = sun.middle.equationOfTime
        let r = sun.distance
        let a = latitude.sin * sun.middle.sinDeclination, b = latitude.cos * sun.middle.cosDeclination
        // The hour angle (radians) at the window's start, as `SolarPosition.zenith` takes it; it
        // then grows by 2π a day (0.25° a minute).
        let minutesOfDay = WholeTurns.remainder(start / 60, turn: 1440)
        let h0 = ((minutesOfDay + equation + 4 * longitude) / 4 - 180) * rad
        let h1 = h0 + Double(window) / 240 * rad
        return solarConstant / (r * r) * positiveCosineIntegral(a: a, b: b, from: h0, to: h1) / (h1 - h0)
    }

    /// ∫ max(a + b cos h, 0) dh from h0 to h1 (b ≥ 0): the sun's cos θz summed where it is up.
    static func positiveCosineIntegral(a: Double, b: Double, from h0: Double, to h1: Double) -> Double {
        func integral(_ lo: Double, _ hi: Double) -> Double { a * (hi - lo) + b * (sin(hi) - sin(lo)) }
        guard b > 1e-12 else { return max(a, 0) * (h1 - h0) }
        let c = -a / b
        if c <= -1 { return integral(h0, h1) }      // up all day
        if c >= 1 { return 0 }                      // down all day
        // Up while the hour angle is within ±H of a solar noon (2πk).
        let halfDay = acos(c), period = 2 * Double.pi
        var sum = 0.0
        var k = ((h0 - halfDay) / period).rounded(.down)
        while k * period - halfDay < h1 {
            let lo = max(h0, k * period - halfDay), hi = min(h1, k * period + halfDay)
            if hi > lo { sum += integral(lo, hi) }
            k += 1
        }
        return sum
    }
}
