import Foundation

/// The moon's rise, set and phase for the daily block (issue 28), as Open-Meteo defines them
/// (Sources/App/Helper/Solar/Moon.swift at open-meteo commit ba13de1c): the geocentric position
/// from the "MiniMoon" series of Montenbruck & Pfleger, *Astronomy on the Personal Computer*
/// (a few arc-minutes, about a minute of rise or set), rise and set where the centre's
/// geocentric altitude crosses +0.125° (Meeus, *Astronomical Algorithms* ch. 15: 0.7275 times the
/// mean horizontal parallax, less refraction and the semidiameter), and the phase as the
/// fraction of the synodic cycle at local noon. Open-Meteo refines hourly samples with
/// parabolas; here each crossing found on the hourly grid is refined by bisection to a second,
/// so the times are the series' own (they differ from Open-Meteo's by the parabola's error,
/// seconds). Checked against astral (Scripts/moon_reference.py).
package enum Moon {
    private static let turn = 2 * Double.pi
    private static let arcsecondsPerRadian = 206_264.8062

    private static func fraction(_ x: Double) -> Double { x - x.rounded(.down) }

    /// Julian centuries since J2000.0 of a time in seconds since 1970 UTC (Delta-T neglected).
    private static func centuries(_ time: Double) -> Double { (time / 86_400 + 2_440_587.5 - 2_451_545.0) / 36_525 }

    /// Geocentric ecliptic longitude and latitude (radians) of the moon, mean equinox of date.
    static func eclipticPosition(_ time: Double) -> (longitude: Double, latitude: Double) {
        let t = centuries(time)
        // Mean elements in revolutions: longitude, anomaly, the sun's anomaly, elongation, argument of latitude.
        let meanLongitude = fraction(0.606433 + 1336.855225 * t)
        let anomaly = turn * fraction(0.374897 + 1325.552410 * t)
        let sunAnomaly = turn * fraction(0.993133 + 99.997361 * t)
        let elongation = turn * fraction(0.827361 + 1236.853086 * t)
        let argument = turn * fraction(0.259086 + 1342.227825 * t)
        let (l, ls, d, f) = (anomaly, sunAnomaly, elongation, argument)
        // The series' periodic terms in longitude (arc-seconds).
        let terms: [(Double, Double)] = [
            (22640, l), (-4586, l - 2 * d), (2370, 2 * d), (769, 2 * l), (-668, ls), (-412, 2 * f),
            (-212, 2 * l - 2 * d), (-206, l + ls - 2 * d), (192, l + 2 * d), (-165, ls - 2 * d), (-125, d),
            (-110, l + ls), (148, l - ls), (-55, 2 * f - 2 * d),
        ]
        let inLongitude = terms.reduce(0) { $0 + $1.0 * sin($1.1) }
        let s = f + (inLongitude + 412 * sin(2 * f) + 541 * sin(ls)) / arcsecondsPerRadian
        let h = f - 2 * d
        let latitudeTerms: [(Double, Double)] = [
            (-526, h), (44, l + h), (-31, -l + h), (-23, ls + h), (11, -ls + h), (-25, -2 * l + f), (21, -l + f),
        ]
        let inLatitude = latitudeTerms.reduce(0) { $0 + $1.0 * sin($1.1) }
        return (turn * fraction(meanLongitude + inLongitude / 1_296_000), (18_520 * sin(s) + inLatitude) / arcsecondsPerRadian)
    }

    /// Sine of the moon's geocentric altitude at a place (degrees, east positive).
    static func sineOfAltitude(_ time: Double, latitude: Double, longitude: Double) -> Double {
        let (lambda, beta) = eclipticPosition(time)
        // Ecliptic to equatorial with the mean obliquity 23.43929°.
        let (cosE, sinE) = (0.91748, 0.39778)
        let x = cos(beta) * cos(lambda), v = cos(beta) * sin(lambda), w = sin(beta)
        let y = cosE * v - sinE * w, z = sinE * v + cosE * w
        let rightAscension = atan2(y, x), declination = atan2(z, (1 - z * z).squareRoot())
        // Greenwich mean sidereal time (IAU 1982 form, Meeus 12.4).
        let days = time / 86_400 + 2_440_587.5 - 2_451_545.0, t = days / 36_525
        let sidereal = (280.46061837 + 360.98564736629 * days + t * t * (0.000387933 - t / 38_710_000)) * .pi / 180
        let hourAngle = sidereal + longitude * .pi / 180 - rightAscension
        let phi = latitude * .pi / 180
        return sin(phi) * sin(declination) + cos(phi) * cos(declination) * cos(hourAngle)
    }

    /// The altitude of the centre at rise and set, degrees.
    package static let horizonAltitude = 0.125

    /// Moonrise and moonset (seconds since 1970 UTC) within `[dayStart, dayStart + length)`, the
    /// first of each; nil for an event that does not happen in it (the moon can stay up or down
    /// for a whole day, and rises about 50 minutes later each day, so a day without a rise or set
    /// comes once a month).
    package static func riseAndSet(dayStart: Double, length: Double = 86_400, latitude: Double, longitude: Double)
        -> (rise: Double?, set: Double?) {
        let threshold = sin(horizonAltitude * .pi / 180)
        func height(_ time: Double) -> Double { sineOfAltitude(time, latitude: latitude, longitude: longitude) - threshold }
        var rise: Double?, set: Double?
        // Hourly steps: the moon's altitude changes sign at most once an hour at any latitude
        // where it rises and sets the same day (its hour angle moves 14.5° an hour).
        let steps = Int((length / 3600).rounded(.up))
        var before = height(dayStart)
        for step in 1...steps {
            let end = min(dayStart + Double(step) * 3600, dayStart + length)
            let start = dayStart + Double(step - 1) * 3600
            let after = height(end)
            if (before < 0) != (after < 0) {
                var (low, high, rising) = (start, end, before < 0)
                while high - low > 0.5 {
                    let middle = (low + high) / 2
                    if (height(middle) < 0) == rising { low = middle } else { high = middle }
                }
                let crossing = (low + high) / 2
                if rising, rise == nil, crossing < dayStart + length { rise = crossing }
                if !rising, set == nil, crossing < dayStart + length { set = crossing }
            }
            before = after
            if rise != nil && set != nil { break }
        }
        return (rise, set)
    }

    /// The sun's geocentric ecliptic longitude (radians, about 0.01°; Meeus ch. 25, low precision).
    static func sunLongitude(_ time: Double) -> Double {
        let t = centuries(time)
        let meanLongitude = 280.46646 + 36000.76983 * t + 0.0003032 * t * t
        let anomaly = (357.52911 + 35999.05029 * t - 0.0001537 * t * t) * .pi / 180
        let centre = (1.914602 - 0.004817 * t - 0.000014 * t * t) * sin(anomaly) + (0.019993 - 0.000101 * t) * sin(2 * anomaly)
            + 0.000289 * sin(3 * anomaly)
        return (meanLongitude + centre) * .pi / 180
    }

    /// The phase at a time as a fraction of the synodic month in [0, 1): 0 new, 0.25 first
    /// quarter, 0.5 full, 0.75 last quarter (the moon's ecliptic longitude less the sun's, over a
    /// turn). Open-Meteo's daily `moon_phase` is this at the local day's noon.
    package static func phase(_ time: Double) -> Double {
        fraction((eclipticPosition(time).longitude - sunLongitude(time)) / turn)
    }
}
