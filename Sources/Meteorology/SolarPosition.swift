import Foundation

/// The sun's position and the day's sunrise and sunset by NOAA's solar calculator (the
/// "NOAA_Solar_Calculations_day" spreadsheet of the Global Monitoring Laboratory, after Meeus,
/// *Astronomical Algorithms*, 1991): the sun's apparent longitude and the obliquity give its
/// declination, the equation of time its hour angle. Sunrise and sunset are when the centre
/// of the sun is 0.833° below the horizon (0.567° refraction and 0.266° semi-diameter), as
/// the spreadsheet, astral and Open-Meteo take it. Accurate to about a minute within 72° of
/// the equator; checked against astral (Tests/MeteorologyTests/SolarTests.swift).
package enum SolarPosition {
    /// The zenith angle of sunrise and sunset, degrees.
    package static let horizonZenith = 90.833

    /// Declination (radians) and equation of time (minutes) at a moment.
    ///
    /// - Parameter julianCentury: (Julian day - 2451545) / 36525.
    @inlinable
    package static func declinationAndEquationOfTime(julianCentury t: Double) -> (declination: Double, equationOfTime: Double) {
        let rad = Double.pi / 180
        let meanLongitude = (280.46646 + t * (36000.76983 + t * 0.0003032)).truncatingRemainder(dividingBy: 360)
        let meanAnomaly = 357.52911 + t * (35999.05029 - 0.0001537 * t)
        let eccentricity = 0.016708634 - t * (0.000042037 + 0.0000001267 * t)
        let centre = sin(meanAnomaly * rad) * (1.914602 - t * (0.004817 + 0.000014 * t))
            + sin(2 * meanAnomaly * rad) * (0.019993 - 0.000101 * t) + sin(3 * meanAnomaly * rad) * 0.000289
        let trueLongitude = meanLongitude + centre
        let omega = 125.04 - 1934.136 * t
        let apparentLongitude = trueLongitude - 0.00569 - 0.00478 * sin(omega * rad)
        let meanObliquity = 23 + (26 + (21.448 - t * (46.815 + t * (0.00059 - t * 0.001813))) / 60) / 60
        let obliquity = meanObliquity + 0.00256 * cos(omega * rad)
        let declination = asin(sin(obliquity * rad) * sin(apparentLongitude * rad))
        let y = pow(tan(obliquity * rad / 2), 2)
        let l0 = meanLongitude * rad, m = meanAnomaly * rad
        let equation = y * sin(2 * l0) - 2 * eccentricity * sin(m) + 4 * eccentricity * y * sin(m) * cos(2 * l0)
            - 0.5 * y * y * sin(4 * l0) - 1.25 * eccentricity * eccentricity * sin(2 * m)
        return (declination, 4 * equation / rad)
    }

    /// The Julian century of a time (seconds since 1970 UTC).
    @inlinable
    package static func julianCentury(_ seconds: Double) -> Double {
        (seconds / 86_400 + 2_440_587.5 - 2_451_545) / 36_525
    }

    /// The solar zenith angle in degrees at a place and time (no refraction).
    @inlinable
    package static func zenith(latitude: Double, longitude: Double, time: Double) -> Double {
        sky(latitude: latitude, longitude: longitude, time: time).zenith
    }

    /// The sun's declination and equation of time at one moment, the same for every place:
    /// the costly part of a solar position (a dozen sines), worth computing once per moment.
    package struct Moment: Sendable {
        /// Seconds since 1970 UTC.
        package let time: Double
        /// Radians.
        package let declination: Double
        /// Minutes.
        package let equationOfTime: Double
        /// sin and cos of the declination, which every zenith of this moment takes: made once
        /// with the moment (which a forecast's places share) instead of per place and time.
        package let sinDeclination: Double
        package let cosDeclination: Double

        @inlinable
        package init(time: Double) {
            self.time = time
            (declination, equationOfTime) = SolarPosition.declinationAndEquationOfTime(julianCentury: SolarPosition.julianCentury(time))
            sinDeclination = sin(declination)
            cosDeclination = cos(declination)
        }
    }

    /// sin and cos of a latitude (degrees), which every zenith at the place takes: made once
    /// per place instead of per time (a forecast asks for dozens of zeniths).
    package struct Latitude: Sendable {
        package let degrees: Double
        package let sin: Double
        package let cos: Double

        @inlinable
        package init(_ degrees: Double) {
            self.degrees = degrees
            let rad = Double.pi / 180
            sin = Foundation.sin(degrees * rad)
            cos = Foundation.cos(degrees * rad)
        }
    }

    /// The hour angle (radians), the declination (radians) and the zenith (degrees) at a place
    /// and time: what `zenith` and `azimuth` start from.
    @inlinable
    package static func sky(latitude: Double, longitude: Double, time: Double) -> (hourAngle: Double, declination: Double, zenith: Double) {
        sky(latitude: latitude, longitude: longitude, time: time, moment: Moment(time: time))
    }

    /// How fast the declination and the equation of time can move a zenith, degrees a day: the
    /// declination moves at most 0.396°/day and the equation of time 0.498 min/day (0.125° of
    /// hour angle) between 1900 and 2200 (the formulas above, sampled every 10 minutes), and a
    /// zenith moves by at most the sum (both enter it with a slope of at most 1).
    package static let momentDriftPerDay = 0.6

    /// `sky` at `time` with the declination and equation of time of `moment`: exactly `sky`'s
    /// answer when `moment` is of `time`, otherwise a zenith within `zenithDrift(from:to:)`
    /// degrees of it, good for deciding whether the sun is clearly up or down.
    @inlinable
    package static func sky(latitude: Double, longitude: Double, time: Double, moment: Moment) -> (hourAngle: Double, declination: Double, zenith: Double) {
        sky(latitude: Latitude(latitude), longitude: longitude, time: time, moment: moment)
    }

    /// `sky` with the latitude's sine and cosine made already.
    @inlinable
    package static func sky(latitude: Latitude, longitude: Double, time: Double, moment: Moment) -> (hourAngle: Double, declination: Double, zenith: Double) {
        let rad = Double.pi / 180
        let declination = moment.declination
        let hourAngle = hourAngle(longitude: longitude, time: time, equationOfTime: moment.equationOfTime)
        let cosZenith = latitude.sin * moment.sinDeclination + latitude.cos * moment.cosDeclination * cos(hourAngle)
        return (hourAngle, declination, acos(min(max(cosZenith, -1), 1)) / rad)
    }

    /// The hour angle (radians) at a longitude and time, with the equation of time (minutes)
    /// of the moment: the true solar time's minutes, from -π at midnight to π.
    @inlinable
    package static func hourAngle(longitude: Double, time: Double, equationOfTime equation: Double) -> Double {
        let minutesOfDay = WholeTurns.remainder(time / 60, turn: 1440)
        let trueSolarMinutes = WholeTurns.remainder(WholeTurns.remainder(minutesOfDay + equation + 4 * longitude, turn: 1440) + 1440, turn: 1440)
        return (trueSolarMinutes / 4 - 180) * (Double.pi / 180)
    }

    /// How far (degrees) `sky(…, time:, moment:)`'s zenith may lie from the exact one.
    @inlinable
    package static func zenithDrift(from moment: Moment, to time: Double) -> Double {
        momentDriftPerDay * abs(time - moment.time) / 86_400 + 1e-9
    }

    /// The sun's azimuth in degrees clockwise from north (90 east, 180 south) from `sky`'s hour
    /// angle h and declination δ at latitude φ: atan2(sin h, cos h sin φ − tan δ cos φ) + 180° (the spherical
    /// triangle of the spreadsheet's azimuth, written with atan2 so that no branch on the
    /// hour angle's sign is needed and the poles and the zenith stay finite).
    @inlinable
    package static func azimuth(latitude: Double, hourAngle: Double, declination: Double) -> Double {
        let rad = Double.pi / 180
        let phi = latitude * rad
        let fromSouth = atan2(sin(hourAngle), cos(hourAngle) * sin(phi) - tan(declination) * cos(phi)) / rad
        let azimuth = WholeTurns.remainder(fromSouth + 180, turn: 360)
        return azimuth < 0 ? azimuth + 360 : azimuth
    }

    /// 1 while the sun's centre is above the sunrise/sunset line (zenith below 90.833°), else 0.
    @inlinable
    package static func isDay(latitude: Double, longitude: Double, time: Double) -> Float {
        isDay(zenith: zenith(latitude: latitude, longitude: longitude, time: time))
    }

    /// `isDay` from a zenith angle already computed (degrees).
    package static func isDay(zenith: Double) -> Float { zenith < horizonZenith ? 1 : 0 }

    /// What the sun does on one UTC-anchored solar day.
    package enum Day: Equatable, Sendable {
        /// Sunrise and sunset, seconds since 1970 UTC.
        case risesAndSets(sunrise: Double, sunset: Double)
        /// The sun stays up (polar day) or down (polar night) all day.
        case alwaysUp, alwaysDown
    }

    /// Sunrise and sunset around the solar noon nearest `noonGuess` (seconds since 1970 UTC,
    /// e.g. local noon of the day): the spreadsheet's formulas, evaluated at each event's own
    /// time (two passes), as the spreadsheet does at the day's time.
    package static func day(latitude: Double, longitude: Double, noonGuess: Double) -> Day {
        let rad = Double.pi / 180
        // The UTC day whose solar noon is nearest the guess.
        let dayStart = ((noonGuess + longitude / 360 * 86_400) / 86_400).rounded(.down) * 86_400
        func event(_ sign: Double) -> Double? {
            var time = dayStart + 43_200 - longitude * 240
            for _ in 0..<3 {
                let (declination, equation) = declinationAndEquationOfTime(julianCentury: julianCentury(time))
                let cosHourAngle = cos(horizonZenith * rad) / (cos(latitude * rad) * cos(declination))
                    - tan(latitude * rad) * tan(declination)
                guard cosHourAngle >= -1, cosHourAngle <= 1 else { return nil }
                let hourAngle = acos(cosHourAngle) / rad
                let minutes = 720 - 4 * longitude - equation + sign * 4 * hourAngle
                time = dayStart + minutes * 60
            }
            return time
        }
        if let rise = event(-1), let set = event(1) { return .risesAndSets(sunrise: rise, sunset: set) }
        // No crossing: up all day when the sun is up at solar noon.
        let noon = dayStart + 43_200 - longitude * 240
        return zenith(latitude: latitude, longitude: longitude, time: noon) < horizonZenith ? .alwaysUp : .alwaysDown
    }
}
