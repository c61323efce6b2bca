import Foundation

/// Sunshine duration by WMO's definition (CIMO Guide, WMO-No. 8, part I, chapter 8: the sun
/// shines while the direct normal irradiance exceeds 120 W/m²), the definition Open-Meteo's
/// `sunshine_duration` follows.
///
/// WRF writes radiation as instantaneous fluxes at its output times, not hourly means, so an
/// hour's sunshine is counted on minutes: the direct normal irradiance (DNI) of each output
/// frame is interpolated linearly in time to the middle of each minute of the interval, and
/// a minute is sunny when the sun's centre is above the horizon and the DNI exceeds 120 W/m².
/// (Open-Meteo works from hourly *means* of direct radiation: it divides by the hour's mean
/// sine of the sun's elevation and, because a mean blurs the threshold, counts DNI from 60 to
/// 180 W/m² as a linear ramp; instantaneous samples let the threshold stay WMO's hard 120.)
///
/// A frame's DNI comes from WRF's direct radiation on the horizontal (SWDDIR) when the run
/// wrote it, DNI = direct / cos θz; otherwise from the global radiation (SWDOWN) split by Erbs,
/// Klein and Duffie (1982, Solar Energy 28(4), 293-302), the decomposition pvlib implements as
/// `pvlib.irradiance.erbs` (Open-Meteo splits with Razo, Müller and Witwer's polynomial for
/// hourly means instead). Beyond 87° zenith no DNI is estimated (0), as pvlib's `max_zenith`.
package enum Sunshine {
    /// WMO's threshold of direct normal irradiance, W/m².
    package static let threshold = 120.0
    /// No DNI is estimated with the sun lower than this (cos θz too small to divide by).
    package static let maxZenith = 87.0
    /// Seconds between the samples of an interval (one a minute, as Open-Meteo supersamples).
    package static let sampleSeconds: Int64 = 60

    /// Extraterrestrial irradiance on a surface normal to the sun, W/m² (Spencer 1971, Search
    /// 2(5) 172, with pvlib's solar constant 1366.1): the Earth-Sun distance factor on day
    /// angle B = 2π (day − 1) / 365.
    package static func extraterrestrial(dayOfYear: Int) -> Double {
        let b = 2 * Double.pi * Double(dayOfYear - 1) / 365
        return 1366.1 * (1.00011 + 0.034221 * cos(b) + 0.00128 * sin(b) + 0.000719 * cos(2 * b) + 0.000077 * sin(2 * b))
    }

    /// Erbs et al. (1982) diffuse fraction of the global radiation for a clearness index kt
    /// (their eq. for hourly data, three pieces).
    package static func erbsDiffuseFraction(clearness kt: Double) -> Double {
        if kt <= 0.22 { return 1 - 0.09 * kt }
        if kt <= 0.8 { return 0.9511 - 0.1604 * kt + 4.388 * kt * kt - 16.638 * pow(kt, 3) + 12.336 * pow(kt, 4) }
        return 0.165
    }

    /// DNI from the global horizontal irradiance by Erbs: kt = GHI / (I0 max(cos θz, 0.065)),
    /// clipped to 0...1 (pvlib's `clearness_index`), direct = (1 − kd) GHI, DNI = direct / cos θz.
    package static func directNormal(global: Double, zenith: Double, dayOfYear: Int) -> Double {
        guard global.isFinite, zenith.isFinite else { return .nan }
        guard zenith <= maxZenith, global > 0 else { return 0 }
        let cosZenith = cos(zenith * Double.pi / 180)
        let kt = min(max(global / (extraterrestrial(dayOfYear: dayOfYear) * max(cosZenith, 0.065)), 0), 1)
        return max((1 - erbsDiffuseFraction(clearness: kt)) * global / cosZenith, 0)
    }

    /// DNI from the direct radiation on the horizontal (WRF's SWDDIR): direct / cos θz.
    package static func directNormal(direct: Double, zenith: Double) -> Double {
        guard direct.isFinite, zenith.isFinite else { return .nan }
        guard zenith <= maxZenith, direct > 0 else { return 0 }
        return direct / cos(zenith * Double.pi / 180)
    }

    /// Seconds of sunshine in the `window` seconds ending at `end` (seconds since 1970 UTC),
    /// 0...window: one sample a minute, at the middle of the minute. `directNormal(t)` gives
    /// the DNI at a sample time, nil when unknown; it is asked only while the sun is up, so an
    /// interval of night is 0 even where the run has no data. NaN when a sample with the sun
    /// up has no DNI.
    ///
    /// `bounds(a, b)` is the least and greatest DNI over the sample times from a to b (both
    /// included), nil when it cannot tell (a time outside the run, an unknown value; always
    /// nil by default). A run of samples with the sun up whose bounds lie clear of the
    /// threshold (by `margin`) is counted whole, without asking `directNormal` per minute; the
    /// others are halved down to per-minute samples. DNI between two output frames is linear in
    /// time, so its frames' DNI bound it, and the count is the one the minutes give
    /// (SunshineShortcutTests).
    ///
    /// `sun` is the sun's declination and equation of time at some moment near the window
    /// (the window's end, say, which a forecast has already computed); the window's middle
    /// when not given. Whether the sun is up is decided from it wherever its drift cannot
    /// matter, and from the exact position at the sample otherwise, so it changes no count.
    /// Both closures are non-escaping: what they capture needs no run-time exclusivity checks.
    package static func seconds(end: Int64, window: Int64, latitude: Double, longitude: Double,
                               sun: SolarPosition.Moment? = nil,
                               bounds: (Int64, Int64) -> (min: Double, max: Double)? = { _, _ in nil },
                               directNormal: (Int64) -> Double?) -> Float {
        seconds(end: end, window: window, latitude: SolarPosition.Latitude(latitude), longitude: longitude, sun: sun,
                bounds: bounds, directNormal: directNormal)
    }

    /// The same with the latitude's sine and cosine made already (once per place).
    package static func seconds(end: Int64, window: Int64, latitude: SolarPosition.Latitude, longitude: Double,
                               sun: SolarPosition.Moment? = nil,
                               bounds: (Int64, Int64) -> (min: Double, max: Double)? = { _, _ in nil },
                               directNormal: (Int64) -> Double?) -> Float {
        let samples = max(window / sampleSeconds, 1)
        let step = window / samples
        let start = end - window
        func sampleTime(_ k: Int64) -> Int64 { start + k * step + step / 2 }
        let moment = sun ?? SolarPosition.Moment(time: Double(start) + Double(window) / 2)
        // `SolarPosition.sky`'s cos θz = sin φ sin δ + cos φ cos δ cos h with the place's and
        // the moment's parts taken once: the zenith at `time` from `moment`, and how far it may
        // lie from the exact one.
        let rad = Double.pi / 180
        let sinParts = latitude.sin * moment.sinDeclination, cosParts = latitude.cos * moment.cosDeclination
        // The hour angle grows by 2π a day (1/240 of a degree a second): from the window's end
        // on, without `hourAngle`'s three remainders per sample (cos takes any turn). Its
        // rounding, ~1e-13 rad within a window, is covered by 1e-6° more drift.
        let endAngle = SolarPosition.hourAngle(longitude: longitude, time: Double(end), equationOfTime: moment.equationOfTime)
        func roughZenith(_ time: Double) -> (zenith: Double, drift: Double) {
            let hourAngle = endAngle + (time - Double(end)) / 240 * rad
            return (acos(min(max(sinParts + cosParts * cos(hourAngle), -1), 1)) / rad, SolarPosition.zenithDrift(from: moment, to: time) + 1e-6)
        }
        // The sun's zenith angle changes by at most `maxZenithRate` (the Earth's rotation; the
        // declination adds under 0.02°/h), so one zenith at the middle of a run of samples
        // tells whether the sun is up, or down, through the whole run; a run it cannot decide
        // (around sunrise or sunset) is halved. The same answer as a zenith at every sample,
        // with a few zeniths an hour instead of sixty.
        var sunny: Int64 = 0
        var unknown = false
        func count(_ first: Int64, _ last: Int64, sunUp: Bool) {
            if sunUp, last - first > 2, let range = bounds(sampleTime(first), sampleTime(last - 1)),
               range.min.isFinite, range.max.isFinite {
                if range.min > threshold + margin { sunny += last - first; return }
                if range.max < threshold - margin { return }
                let half = (first + last) / 2
                count(first, half, sunUp: true)
                count(half, last, sunUp: true)
                return
            }
            for k in first..<last where !unknown {
                if !sunUp {
                    let time = Double(sampleTime(k))
                    let (zenith, drift) = roughZenith(time)
                    if zenith - drift >= 90 { continue }
                    if zenith + drift >= 90 {
                        guard SolarPosition.zenith(latitude: latitude.degrees, longitude: longitude, time: time) < 90 else { continue }
                    }
                }
                guard let dni = directNormal(sampleTime(k)), dni.isFinite else { unknown = true; return }
                if dni > threshold { sunny += 1 }
            }
        }
        func visit(_ first: Int64, _ last: Int64) {
            guard !unknown, first < last else { return }
            if last - first <= 2 { return count(first, last, sunUp: false) }
            let middle = Double(sampleTime(first) + sampleTime(last - 1)) / 2
            let (zenith, drift) = roughZenith(middle)
            let reach = maxZenithRate * (Double(sampleTime(last - 1) - sampleTime(first)) / 2) / 3600 + drift
            if zenith - reach >= 90 { return }                                  // down throughout
            if zenith + reach < 90 { return count(first, last, sunUp: true) }   // up throughout
            let half = (first + last) / 2
            visit(first, half)
            visit(half, last)
        }
        visit(0, samples)
        return unknown ? .nan : Float(sunny * step)
    }

    /// How far (W/m²) a run's DNI bounds must lie from the threshold to decide the run whole: the
    /// per-minute value is a weighted sum of two frames' DNI with Float weights, which can stray
    /// outside the two by a few 10⁻⁴ W/m²; this keeps every decided run on the minutes' side.
    static let margin = 0.01

    /// A bound on how fast the sun's zenith angle changes, degrees an hour: 15°/h of the Earth's
    /// rotation plus the declination's drift, with a margin.
    static let maxZenithRate = 15.5
}
