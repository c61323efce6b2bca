import Catalog
import Foundation
import PointQuery

/// A warning a rule gives at a place: the hours it is in force, and the numbers behind it.
package struct IssuedWarning: Sendable {
    package let rule: WarningRule
    /// The start of the first window that passes, and the end of the last (seconds since 1970).
    package let onset: Int64
    package let expires: Int64
    /// The most extreme window value (the threshold's side) and the end of its window; for a
    /// probabilistic rule, the members' largest share passing (percent) instead.
    package let peak: Double
    package let peakTime: Int64
    /// For a probabilistic rule: at the peak, how many members passed of how many answered.
    package let members: (passing: Int, answered: Int)?
    /// The cycles whose values made it ("2026-11-22T00:00Z").
    package let cycles: [String]
}

/// Which windows pass a rule, and how they make warnings. Every hourly value is the hour ending
/// at its time (an amount over it, or the value at its end): a window of `hours` ending at `t`
/// covers (t - hours, t], and a warning runs from its first passing window's start to its last
/// passing window's end, windows that touch or overlap being one warning.
package enum WarningEvaluation {
    /// The statistic of the `hours` values ending at each index (NaN where one is unknown or
    /// the window reaches before the series).
    package static func windows(_ values: [Float], hours: Int, statistic: WarningRule.Statistic) -> [Double] {
        values.indices.map { end in
            guard end + 1 >= hours else { return .nan }
            let window = values[(end + 1 - hours)...end].map(Double.init)
            guard !window.contains(where: \.isNaN) else { return .nan }
            switch statistic {
            case .sum: return window.reduce(0, +)
            case .max: return window.max() ?? .nan
            case .min: return window.min() ?? .nan
            }
        }
    }

    /// The runs of passing windows as (onset, expires, indices of the passing windows).
    package static func runs(passing: [Bool], times: [Int64], hours: Int) -> [(onset: Int64, expires: Int64, indices: [Int])] {
        var runs: [(onset: Int64, expires: Int64, indices: [Int])] = []
        let span = Int64(hours) * 3600
        for (k, passes) in passing.enumerated() where passes && k < times.count {
            let start = times[k] - span, end = times[k]
            if let last = runs.last, start <= last.expires {
                runs[runs.count - 1].expires = end
                runs[runs.count - 1].indices.append(k)
            } else {
                runs.append((start, end, [k]))
            }
        }
        return runs
    }

    /// The warnings of a deterministic rule from one hourly series.
    package static func warnings(_ rule: WarningRule, times: [Int64], values: [Float], cycles: [String]) -> [IssuedWarning] {
        let windowed = windows(values, hours: rule.hours, statistic: rule.statistic)
        return runs(passing: windowed.map(rule.passes), times: times, hours: rule.hours).map { run in
            let peakIndex = run.indices.max { a, b in rule.statistic == .min ? windowed[a] > windowed[b] : windowed[a] < windowed[b] } ?? run.indices[0]
            return IssuedWarning(rule: rule, onset: run.onset, expires: run.expires, peak: windowed[peakIndex], peakTime: times[peakIndex],
                                 members: nil, cycles: cycles)
        }
    }

    /// The warnings of a probabilistic rule from each member's hourly series (NaN where the
    /// cycle is not a member for that hour): a window passes where at least `rule.probability`
    /// percent of the members that know it pass.
    package static func warnings(_ rule: WarningRule, times: [Int64], members: [(cycle: String, values: [Float])]) -> [IssuedWarning] {
        let windowed = members.map { windows($0.values, hours: rule.hours, statistic: rule.statistic) }
        var shares = [Double](repeating: .nan, count: times.count)
        var counts = [(passing: Int, answered: Int)](repeating: (0, 0), count: times.count)
        for k in times.indices {
            let known = windowed.compactMap { k < $0.count && !$0[k].isNaN ? $0[k] : nil }
            guard !known.isEmpty else { continue }
            let passing = known.filter(rule.passes).count
            counts[k] = (passing, known.count)
            shares[k] = 100 * Double(passing) / Double(known.count)
        }
        let required = rule.probability ?? 100
        return runs(passing: shares.map { !$0.isNaN && $0 >= required }, times: times, hours: rule.hours).map { run in
            let peakIndex = run.indices.max { shares[$0] < shares[$1] } ?? run.indices[0]
            let used = members.indices.filter { m in run.indices.contains { k in k < windowed[m].count && !windowed[m][k].isNaN } }
            return IssuedWarning(rule: rule, onset: run.onset, expires: run.expires, peak: shares[peakIndex], peakTime: times[peakIndex],
                                 members: counts[peakIndex], cycles: used.map { members[$0].cycle })
        }
    }
}

/// The warnings at one place: those in force or coming, most severe first.
package struct WarningAnswer: Sendable {
    package let latitude: Double
    package let longitude: Double
    package let warnings: [IssuedWarning]
    package let source: String
    /// The time the answer was made for (now).
    package let now: Int64
}

extension ForecastEngine {
    /// `/v1/warnings` for one place: every rule's warnings from the hourly forecast (and, for a
    /// rule with a probability, the lagged members), those not yet expired at `now`.
    package func warnings(_ rules: WarningRules, latitude: String, longitude: String, now: Int64) throws(APIError) -> WarningAnswer {
        let quantities = Array(Set(rules.rules.map(\.quantity))).sorted()
        // `/v1/forecast`'s own request, in its default units (the rules' thresholds are), from
        // yesterday (a 24-hour window ending now reaches back a day) to the longest forecast.
        let query: [(name: String, value: String)] = [
            ("latitude", latitude), ("longitude", longitude), ("hourly", quantities.map(\.rawValue).joined(separator: ",")),
            ("past_days", "1"), ("forecast_days", String(ForecastParameters.maxDays)), ("timezone", "GMT"),
        ]
        let parameters = try ForecastParameters(query: query)
        guard parameters.latitudes.count == 1, let placeLatitude = parameters.latitudes.first, let placeLongitude = parameters.longitudes.first else {
            throw APIError("Warnings are for one place: give one latitude and longitude")
        }
        // The place's forecast as every other API's answer is made (`dialectForecast`).
        let place = try dialectForecast(parameters, now: now).place
        let stores = try stores(for: nil)
        let times = place.times.hourly
        var answered: [String] = []
        for cycle in place.cycles.isEmpty ? [place.forecast.provenance.cycle] : place.cycles.map(\.cycle) where !answered.contains(cycle) {
            answered.append(cycle)
        }
        var issued: [IssuedWarning] = []
        for rule in rules.rules where rule.probability == nil {
            let values = place.hourly.values[rule.quantity] ?? []
            issued += WarningEvaluation.warnings(rule, times: times, values: values, cycles: answered)
        }
        let probabilistic = rules.rules.filter { $0.probability != nil }
        if !probabilistic.isEmpty {
            let series = try memberSeries(Array(Set(probabilistic.map(\.quantity))).sorted(), times: times, place: place, stores: stores,
                                          latitude: placeLatitude, longitude: placeLongitude)
            for rule in probabilistic {
                issued += WarningEvaluation.warnings(rule, times: times, members: series.map { ($0.cycle, $0.values[rule.quantity] ?? []) })
            }
        }
        let current = issued.filter { $0.expires > now }.sorted { a, b in
            a.rule.level != b.rule.level ? a.rule.level > b.rule.level : a.onset < b.onset
        }
        return WarningAnswer(latitude: placeLatitude, longitude: placeLongitude, warnings: current, source: rules.source, now: now)
    }

    /// Each lagged member's hourly series of `variables` at the place, NaN at the hours it is
    /// not a member of (`LaggedMembers.members`), in `/v1/forecast`'s default units.
    func memberSeries(_ variables: [ForecastVariable], times: [Int64], place: PlaceForecast, stores: [ForecastStore], latitude: Double,
                      longitude: Double) throws(APIError) -> [(cycle: String, values: [ForecastVariable: [Float]])] {
        let model = place.forecast.provenance.model
        guard let newest = stores.first(where: { $0.model == model }) else { return [] }
        let cycles: [ForecastStore]
        do throws(QueryError) { cycles = try self.cycles.members(from: newest, count: members, times: times) } catch {
            throw APIError(query: error)
        }
        let chosen = LaggedMembers.members(of: times, among: cycles, count: members)
        var out: [(cycle: String, values: [ForecastVariable: [Float]])] = []
        for (c, cycle) in cycles.enumerated() {
            let mine = times.indices.filter { chosen[$0].contains(c) }
            let held = variables.filter(cycle.availableVariables.contains)
            guard !mine.isEmpty, !held.isEmpty else { continue }
            let request = ForecastRequest(times: mine.map { times[$0] }, variables: held)
            guard let part = try? Self.forecast(store: cycle, request: request, latitude: latitude, longitude: longitude).forecast else { continue }
            var values: [ForecastVariable: [Float]] = [:]
            for variable in held {
                var series = [Float](repeating: .nan, count: times.count)
                let own = part.values[variable] ?? []
                for (slot, k) in mine.enumerated() where slot < own.count { series[k] = own[slot] }
                values[variable] = series
            }
            out.append((cycle.domains.first?.cycleText ?? cycle.cycle, values))
        }
        return out
    }
}
