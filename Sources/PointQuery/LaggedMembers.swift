import Catalog

/// The time-lagged ensemble of a model's kept cycles (Hoffman and Kalnay 1983; Mittermaier
/// 2007): a centre that runs every six hours holds several forecasts of each coming hour, one
/// per run, and their spread is a measure of what the runs agree on. A probability at a place
/// and hour is the mean, over the newest `count` cycles covering the hour, of each member's
/// own value there (its neighbourhood fraction, `NeighbourhoodFraction`).
///
/// Limits, said in the README: members of one model share its errors, and older members are
/// worse forecasts weighted as much as the newest, so a lagged ensemble underestimates the
/// spread of the real outcomes.
package enum LaggedMembers {
    /// A day of six-hourly runs.
    package static let defaultCount = 4

    /// The variables made from the members rather than from one cycle.
    package static let probabilities: [ForecastVariable] = [.precipitationProbability, .snowfallProbability, .rainProbability,
                                                            .freezingRainProbability]

    /// Whether a cycle's run covers `time`'s interval: a run's first frame has no interval
    /// before it, so its first hour is not the run's to answer.
    package static func covers(_ cycle: ForecastStore, _ time: Int64) -> Bool {
        guard let first = cycle.runTimes.first, let last = cycle.runTimes.last else { return false }
        return time > first && time <= last
    }

    /// For each time, the positions in `cycles` (newest first) of its members: the newest
    /// `count` whose run covers it.
    package static func members(of times: [Int64], among cycles: [ForecastStore], count: Int) -> [[Int]] {
        times.map { time in Array(cycles.indices.filter { covers(cycles[$0], time) }.prefix(max(count, 1))) }
    }

    /// What the members say at each time of one place.
    package struct Answer: Sendable {
        /// Per variable, the mean of the members' known values at each time (NaN where none is).
        package var values: [ForecastVariable: [Float]] = [:]
        /// How many members gave a known value at each time.
        package var counts: [Int] = []
        /// The cycles that answered some time, newest first ("2026-11-22T18:00Z").
        package var cycles: [String] = []
        /// The members asked for (`count`).
        package var asked = 0
    }

    /// The members' mean of `variables` at `times`.
    ///
    /// - Parameters:
    ///   - cycles: the model's cycles, newest first (more than `count` is fine).
    ///   - forecast: one member's forecast of `variables` at the times given; nil (or a throw)
    ///     when the member cannot answer the place (it leaves those times to the others).
    package static func combine(_ variables: [ForecastVariable], at times: [Int64], cycles: [ForecastStore], count: Int,
                                forecast: (ForecastStore, [Int64]) -> PointForecast?) -> Answer {
        let chosen = members(of: times, among: cycles, count: count)
        // Per variable: the sum and the number of members that know it, at each time (a member
        // without snowfall still counts for precipitation).
        var sums = Dictionary(uniqueKeysWithValues: variables.map { ($0, [Float](repeating: 0, count: times.count)) })
        var known = Dictionary(uniqueKeysWithValues: variables.map { ($0, [Int](repeating: 0, count: times.count)) })
        var answered: [String] = []
        for c in cycles.indices {
            let mine = times.indices.filter { chosen[$0].contains(c) }
            guard !mine.isEmpty, let part = forecast(cycles[c], mine.map { times[$0] }) else { continue }
            var any = false
            for variable in variables {
                guard let series = part.values[variable] else { continue }
                for (slot, k) in mine.enumerated() where slot < series.count && !series[slot].isNaN {
                    sums[variable]?[k] += series[slot]
                    known[variable]?[k] += 1
                    any = true
                }
            }
            if any { answered.append(cycles[c].domains.first?.cycleText ?? cycles[c].cycle) }
        }
        // How many members answered each time: those that knew any of the variables.
        let counts = times.indices.map { k in variables.map { known[$0]?[k] ?? 0 }.max() ?? 0 }
        var answer = Answer(counts: counts, cycles: answered, asked: count)
        for variable in variables {
            let sum = sums[variable] ?? [], n = known[variable] ?? []
            answer.values[variable] = times.indices.map { k in k < n.count && n[k] > 0 ? sum[k] / Float(n[k]) : .nan }
        }
        return answer
    }
}

extension LaggedMembers {
    /// `combine` with each member's forecast of the place: the variables it holds, at its own
    /// times, in `units` (the server's and the command line's one way to ask a member).
    package static func mean(_ variables: [ForecastVariable], at times: [Int64], cycles: [ForecastStore], count: Int, point: QueryPoint,
                             units: OutputUnits, cellSelection: CellSelection) -> Answer {
        combine(variables, at: times, cycles: cycles, count: count) { member, times in
            let held = variables.filter(member.availableVariables.contains)
            guard !held.isEmpty else { return nil }
            var request = ForecastRequest(times: times, variables: held, units: units)
            request.cellSelection = cellSelection
            return try? PointForecaster(store: member).forecast(point, request: request)
        }
    }
}

extension PointForecast {
    /// The same forecast with some variables' series replaced (same times).
    package func replacing(_ series: [ForecastVariable: [Float]]) -> PointForecast {
        PointForecast(latitude: latitude, longitude: longitude, provenance: provenance, elevation: elevation,
                      modelElevation: modelElevation, isDownscaled: isDownscaled,
                      times: times, values: values.merging(series) { _, new in new }, units: units, variables: variables)
    }
}
