import Catalog

/// Which of a model's kept cycles answers which hours, so that a range reaching into the past
/// is one continuous series rather than only the newest cycle's hours.
///
/// The rule: each hour comes from the newest cycle that covers it. A cycle covers the hours
/// from its first frame to its last, except that its first frame is left to an older cycle
/// covering that hour: a run's first frame knows no interval before it (precipitation,
/// snowfall and the weather code made from them would read as a dry hour), and one cycle per
/// hour keeps a row from mixing runs. This is what Open-Meteo's users see: its time series
/// are overwritten by each new run from the run's second step on, and hours a newer run does
/// not reach keep the older run's values.
package enum CycleContinuity {
    /// One cycle's share of a request's hours.
    package struct Share: Sendable {
        package let store: ForecastStore
        /// The hours it answers, oldest first.
        package let times: [Int64]

        package init(store: ForecastStore, times: [Int64]) {
            self.store = store
            self.times = times
        }
    }

    /// The hours of `times` each cycle answers, newest cycle first; hours no cycle covers
    /// are in no share (answered null by an API, refused by the command line).
    ///
    /// - Parameter cycles: one model's cycles, newest first.
    /// - Parameter window: the interval an amount at each time covers (an hour; a step of
    ///   `temporal_resolution`): a time whose interval begins before a cycle's start goes to an
    ///   older cycle covering it, as the first hour does.
    package static func shares(of times: [Int64], among cycles: [ForecastStore], window: Int64 = 3600) -> [Share] {
        var owner = [Int?](repeating: nil, count: times.count)
        for (k, time) in times.enumerated() {
            owner[k] = cycles.indices.first { c in claims(cycles[c], time, older: cycles[(c + 1)...], window: window) }
        }
        return cycles.indices.compactMap { c in
            let mine = times.indices.filter { owner[$0] == c }.map { times[$0] }
            return mine.isEmpty ? nil : Share(store: cycles[c], times: mine)
        }
    }

    /// `shares(of:among:window:)`, shared: the shares depend only on the times, the cycles and
    /// the window, not on the place, so the places of a request (and the requests of an hour)
    /// ask for the same ones; a few recent answers are kept (with their cycles, so that a
    /// cycle's identity is never another's). Working them out per place was 4 % of a place's
    /// instructions in a 100-place request (S3).
    package static func recentShares(of times: [Int64], among cycles: [ForecastStore], window: Int64 = 3600) -> [Share] {
        recent.value(for: Key(cycles: cycles, times: times, window: window)) { shares(of: times, among: cycles, window: window) }
    }

    /// The cycles are compared by identity, and held.
    private struct Key: Equatable, Sendable {
        let cycles: [ForecastStore]
        let times: [Int64]
        let window: Int64

        static func == (a: Key, b: Key) -> Bool {
            a.window == b.window && a.cycles.count == b.cycles.count
                && zip(a.cycles, b.cycles).allSatisfy { $0 === $1 } && a.times == b.times
        }
    }

    private static let recent = RecentAnswers<Key, [Share]>(capacity: 4)

    /// Whether `cycle` answers `time`: inside its run, and not within its first `window` (its
    /// first frame, for hourly times) when an older cycle covers that time.
    static func claims(_ cycle: ForecastStore, _ time: Int64, older: ArraySlice<ForecastStore>, window: Int64 = 3600) -> Bool {
        guard let first = cycle.runTimes.first, let last = cycle.runTimes.last, time >= first, time <= last else { return false }
        guard time < first + max(window, 1) else { return true }
        return !older.contains { ModelChoice.covers(time, by: $0) }
    }
}

extension PointForecast {
    /// The forecasts of several cycles of one place as one, on the union of their times; the
    /// first part's provenance and elevation name the answer (the newest cycle that answered).
    ///
    /// - Parameter parts: the place's forecasts from each cycle, newest first, on disjoint times.
    package static func joined(_ parts: [PointForecast]) -> PointForecast? {
        guard let head = parts.first else { return nil }
        guard parts.count > 1 else { return head }
        let times = parts.flatMap(\.times).sorted()
        var index: [Int64: Int] = [:]
        for (k, time) in times.enumerated() { index[time] = k }
        var values: [ForecastVariable: [Float]] = [:]
        for variable in head.variables {
            var series = [Float](repeating: .nan, count: times.count)
            for part in parts {
                guard let own = part.values[variable] else { continue }
                for (k, time) in part.times.enumerated() where k < own.count {
                    if let slot = index[time] { series[slot] = own[k] }
                }
            }
            values[variable] = series
        }
        return PointForecast(latitude: head.latitude, longitude: head.longitude, provenance: head.provenance, elevation: head.elevation,
                             modelElevation: head.modelElevation, isDownscaled: head.isDownscaled,
                             times: times, values: values, units: head.units, variables: head.variables)
    }
}
