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

    /// The chances made from the members rather than from one cycle.
    package static let probabilities: [ForecastVariable] = [.precipitationProbability, .snowfallProbability, .rainProbability,
                                                            .freezingRainProbability]

    /// Whether a variable is made from the members: a probability (their mean) or a `_spread`
    /// (their standard deviation).
    package static func isMade(_ variable: ForecastVariable) -> Bool {
        variable.spreadBase != nil || probabilities.contains(variable)
    }

    /// What each member is asked for to answer `variables`: a probability itself (one cycle's
    /// is its neighbourhood fraction), a spread's base (`temperature_2m` for its spread).
    package static func inputs(of variables: [ForecastVariable]) -> [ForecastVariable] {
        var inputs: [ForecastVariable] = []
        for variable in variables {
            let input = variable.spreadBase ?? variable
            if !inputs.contains(input) { inputs.append(input) }
        }
        return inputs
    }

    /// The units members are asked in: the request's, but temperatures in °C. A spread of a
    /// temperature is a difference, answered in kelvin (Open-Meteo's rule); a °F spread would
    /// be 1.8 times as large. The other conversions are factors, which a spread keeps.
    package static func memberUnits(_ units: OutputUnits) -> OutputUnits {
        var units = units
        units.temperature = .celsius
        return units
    }

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
        /// Per variable, the members' mean (a probability) or sample standard deviation (a
        /// spread) of their known values at each time (NaN where none is, or for a spread
        /// where fewer than two are).
        package var values: [ForecastVariable: [Float]] = [:]
        /// How many members gave a known value at each time.
        package var counts: [Int] = []
        /// The cycles that answered some time, newest first ("2026-11-22T18:00Z").
        package var cycles: [String] = []
        /// The members asked for (`count`).
        package var asked = 0
    }

    /// The members' mean of the probabilities and standard deviation of the spreads among
    /// `variables` at `times`.
    ///
    /// - Parameters:
    ///   - cycles: the model's cycles, newest first (more than `count` is fine).
    ///   - forecast: one member's forecast of `inputs(of: variables)` at the times given (in
    ///     `memberUnits`); nil (or a throw) when the member cannot answer the place (it leaves
    ///     those times to the others).
    package static func combine(_ variables: [ForecastVariable], at times: [Int64], cycles: [ForecastStore], count: Int,
                                forecast: (ForecastStore, [Int64]) -> PointForecast?) -> Answer {
        let chosen = members(of: times, among: cycles, count: count)
        // Per variable and time, the known values of the members (a member without snowfall
        // still counts for precipitation).
        var known = Dictionary(uniqueKeysWithValues: variables.map { ($0, [[Double]](repeating: [], count: times.count)) })
        var answered: [String] = []
        for c in cycles.indices {
            let mine = times.indices.filter { chosen[$0].contains(c) }
            guard !mine.isEmpty, let part = forecast(cycles[c], mine.map { times[$0] }) else { continue }
            var any = false
            for variable in variables {
                guard let series = part.values[variable.spreadBase ?? variable] else { continue }
                for (slot, k) in mine.enumerated() where slot < series.count && !series[slot].isNaN {
                    known[variable]?[k].append(Double(series[slot]))
                    any = true
                }
            }
            if any { answered.append(cycles[c].domains.first?.cycleText ?? cycles[c].cycle) }
        }
        // How many members answered each time: those that knew any of the variables.
        let counts = times.indices.map { k in variables.map { known[$0]?[k].count ?? 0 }.max() ?? 0 }
        var answer = Answer(counts: counts, cycles: answered, asked: count)
        for variable in variables {
            let values = known[variable] ?? []
            answer.values[variable] = values.map { variable.spreadBase == nil ? mean($0) : sampleStandardDeviation($0) }
        }
        return answer
    }

    /// The mean, NaN of none.
    static func mean(_ values: [Double]) -> Float {
        values.isEmpty ? .nan : Float(values.reduce(0, +) / Double(values.count))
    }

    /// The sample standard deviation (n - 1, two passes), NaN of fewer than two values.
    static func sampleStandardDeviation(_ values: [Double]) -> Float {
        guard values.count > 1 else { return .nan }
        let mean = values.reduce(0, +) / Double(values.count)
        let squares = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
        return Float((squares / Double(values.count - 1)).squareRoot())
    }
}

extension LaggedMembers {
    /// `combine` with each member's forecast of the place: the inputs of `variables` it holds,
    /// at its own times, in `units` (temperatures in Celsius, `memberUnits`) over the answer's
    /// window of amounts: the server's and the command line's one way to ask the members.
    package static func answer(_ variables: [ForecastVariable], at times: [Int64], cycles: [ForecastStore], count: Int, point: QueryPoint,
                               units: OutputUnits, cellSelection: CellSelection, accumulationWindow: Int64 = 3600) -> Answer {
        let inputs = inputs(of: variables)
        return combine(variables, at: times, cycles: cycles, count: count) { member, times in
            let held = inputs.filter(member.availableVariables.contains)
            guard !held.isEmpty else { return nil }
            var request = ForecastRequest(times: times, variables: held, units: memberUnits(units), accumulationWindow: accumulationWindow)
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
