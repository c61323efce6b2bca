import Catalog
import Meteorology

/// The sun's facts at a forecast's times that are the same at every place: the declination
/// and equation of time at each time (`SolarPosition.Moment`), the Earth-Sun distance there,
/// both again at the middle of each time's window (what the backwards means integrate with),
/// and each time's day of the year. Every place of a request, and every request for the same hours, shares them; made
/// per place they were a sixth of a forecast of every variable (B3, issue 30).
final class SolarTimes: Sendable {
    let times: [Int64]
    let window: Int64
    /// At each time.
    let moments: [SolarPosition.Moment]
    /// Earth-Sun distance (AU) at each time.
    let distances: [Double]
    /// At the middle of the `window` seconds ending at each time.
    let middles: [TerrestrialRadiation.WindowSun]
    /// Day of the year (1...366, UTC) of each time, for Erbs' split and ET0's extraterrestrial
    /// radiation: worked out per place it was 2 % of a forecast of every variable (issue 30).
    let daysOfYear: [Int]

    init(times: [Int64], window: Int64) {
        self.times = times
        self.window = window
        moments = times.map { SolarPosition.Moment(time: Double($0)) }
        distances = times.map { TerrestrialRadiation.sunDistance(julianCentury: SolarPosition.julianCentury(Double($0))) }
        middles = times.map { TerrestrialRadiation.WindowSun(end: $0, window: window) }
        daysOfYear = times.map { ModelTime.dayOfYear($0) }
    }

    /// The facts of these times and window: one of the last few made (`RecentAnswers`), else
    /// new ones.
    static func of(times: [Int64], window: Int64) -> SolarTimes {
        recent.value(for: Key(times: times, window: window)) { SolarTimes(times: times, window: window) }
    }

    private struct Key: Equatable, Sendable {
        let times: [Int64]
        let window: Int64
    }

    private static let recent = RecentAnswers<Key, SolarTimes>(capacity: 4)
}
