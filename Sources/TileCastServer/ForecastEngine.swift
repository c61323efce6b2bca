import Catalog
import Foundation
import GridGeometry
import Meteorology
import ObjectStore
import PointQuery
import Synchronization

/// One place's answer in the API's terms: the library's forecast (the command line's code
/// path: `AnswerAssembly` over `PointForecaster`), laid on the request's time axes.
package struct PlaceForecast: Sendable {
    package let forecast: PointForecast
    /// The place's times and zone (its own with `timezone=auto`).
    package let times: RequestTimes
    /// The forecast on the `hourly` block's times (NaN where the cycle has no value).
    package let hourly: PointForecast
    /// Daily values per requested field, aligned with `times.days`.
    package let daily: [DailyVariable: [Float]]
    /// Values at the current time (NaN when the cycle does not cover it).
    package let current: [ForecastVariable: Float]
    /// The forecast on the `minutely_15` block's times; nil when not asked for or when the
    /// cycle covers none of them (nulls).
    package var minutely15: PointForecast?
    /// Requested variables and daily fields the chosen cycle cannot give, each with why:
    /// answered as columns of nulls, not errors, named in the answer's `tilecast` key.
    package var unavailable: [ForecastVariable: String] = [:]
    package var unavailableDaily: [DailyVariable: String] = [:]
    /// Which cycle answered which hours, when more than one did (past hours from older
    /// cycles); empty when the header's cycle answered every hour.
    package var cycles: [AnsweredHours] = []
    /// The lagged members behind the probabilities, when one was asked for.
    package var members: LaggedMembers.Answer?
}

/// One location of an answer: its number and its forecast from each model asked for (one
/// under best match or a named model; several with `models=a,b`).
package struct LocationAnswer: Sendable {
    package let locationID: Int
    /// Non-empty, in the request's order of models.
    package let parts: [PlaceForecast]
    /// With several parts, each one's model name: its columns are suffixed `_<name>`, as
    /// Open-Meteo's ForecastApiResult.swift suffixes them when more than one model answers.
    package let modelNames: [String]

    /// The part the header (place, zone, elevation) comes from.
    package var first: PlaceForecast { parts[0] }

    /// The suffix of part `k`'s column names ("" with one part).
    package func suffix(_ k: Int) -> String { k < modelNames.count ? "_" + modelNames[k] : "" }
}

/// A run of consecutive hours one cycle answered, for the answer's `tilecast` key.
package struct AnsweredHours: Sendable, Equatable {
    package let cycle: String
    package let domain: String
    package let first: Int64
    package let last: Int64

    /// One cycle's forecast's hours as runs of consecutive hours (a long run's tail beyond a
    /// newer, shorter run is a run of its own).
    static func runs(_ part: PointForecast, step: Int64 = 3600) -> [AnsweredHours] {
        var runs: [AnsweredHours] = []
        var start = 0
        let times = part.times
        for k in times.indices where k == times.count - 1 || times[k + 1] - times[k] > step {
            runs.append(AnsweredHours(cycle: part.provenance.cycle, domain: part.provenance.domain, first: times[start], last: times[k]))
            start = k + 1
        }
        return runs
    }
}

/// What the chosen cycle can give of what a request asks for.
struct HeldVariables {
    /// The variables to compute (hourly ones and the daily fields' sources).
    var variables: [ForecastVariable]
    var daily: [DailyVariable]
    var missing: [ForecastVariable: String] = [:]
    var missingDaily: [DailyVariable: String] = [:]

    /// Splits the request into what `store` holds and what it does not, with the store's reason
    /// for each (the variable's missing source, as `ForecastStore.resolveVariables` names it).
    init(_ store: ForecastStore, hourly: [ForecastVariable], daily: [DailyVariable]) {
        // The usual case, everything held: one check, and the variables `resolveVariables` gives.
        if let all = try? store.resolveVariables(requested: hourly, daily: daily) {
            variables = all
            self.daily = daily
            return
        }
        var missing: [ForecastVariable: String] = [:]
        func reason(_ variable: ForecastVariable) -> String? {
            if let known = missing[variable] { return known }
            do throws(QueryError) {
                _ = try store.resolveVariables(requested: [variable], daily: [])
                return nil
            } catch {
                missing[variable] = error.description
                return error.description
            }
        }
        let keptHourly = hourly.filter { reason($0) == nil }
        var missingDaily: [DailyVariable: String] = [:]
        let keptDaily = daily.filter { field in
            guard let why = field.sources.lazy.compactMap(reason).first else { return true }
            missingDaily[field] = why
            return false
        }
        variables = (try? store.resolveVariables(requested: keptHourly, daily: keptDaily)) ?? keptHourly
        self.daily = keptDaily
        self.missing = missing
        self.missingDaily = missingDaily
    }
}


/// Answers `/v1/forecast` requests from the store: chooses each place's model (best match or
/// the one named), asks the library for the forecast, and renders Open-Meteo's JSON or CSV.
/// Synchronous and CPU-bound: the server runs it off the event loop (see `ForecastServer`).
package struct ForecastEngine: Sendable {
    package let cycles: CycleCache
    /// The newest cycles covering an hour that its probabilities are the mean of.
    package let members: Int

    package init(cycles: CycleCache, members: Int = LaggedMembers.defaultCount) {
        self.cycles = cycles
        self.members = members
    }

    /// The stores a request may answer from: the named model's, or every model's (best match).
    func stores(for model: String?) throws(APIError) -> [ForecastStore] {
        if let model {
            let models = cycles.models()
            guard !models.isEmpty else { throw APIError(.serviceUnavailable, "the store holds no published cycle yet") }
            // The only request parameter that names something in the store: used only once it
            // is found among the store's own model folders.
            guard models.contains(model) else {
                // A folder of that name without `latest` is a model whose first cycle is being
                // published (or a store being made again): the documented 503, not a 400. The
                // name is looked for among the folder's entries, never used as a path.
                if cycles.remote == nil, Self.isBeingPublished(model, in: cycles.root) {
                    throw APIError(.serviceUnavailable, "model '\(model)' has no published cycle yet (being published?); try again shortly")
                }
                throw APIError("Unknown model '\(APIError.echo(model))': this server holds \(models.joined(separator: ", ")) (or best_match)")
            }
            do throws(QueryError) { return [try cycles.current(model: model)] } catch { throw APIError(query: error) }
        }
        let opened = cycles.all()
        guard !opened.stores.isEmpty else {
            if opened.problems.isEmpty { throw APIError(.serviceUnavailable, "the store holds no published cycle yet") }
            throw APIError(.serviceUnavailable, "no cycle of the store can be opened: \(opened.problems.joined(separator: "; "))")
        }
        // Best match needs every model: one whose latest cycle cannot be opened (damaged, a
        // file missing) may be the finest at the place, and answering from another model
        // would hide the damage behind coarser numbers. So it is a 503 naming it, as
        // `tilecast query` without `--model` exits 5 (`ModelChoice.open`): one rule for both.
        // A request naming a model that opens (`models=mm5`) is still answered.
        guard opened.unopened.isEmpty else {
            throw APIError(.serviceUnavailable, "best match needs every model's latest cycle, and \(opened.unopened.joined(separator: "; ")); "
                           + "name a model that opens with models=, or try again once the cycle is extracted again")
        }
        return opened.stores
    }

    /// The times of both lists, each once, in ascending order. Usually one list is empty and
    /// the other already ascending: then it is the answer as it is (a Set and a sort per place
    /// were 3 % of a 100-place request's `generationtime_ms`, S3).
    static func ascendingUnion(_ a: [Int64], _ b: [Int64]) -> [Int64] {
        func strictlyAscending(_ times: [Int64]) -> Bool { zip(times, times.dropFirst()).allSatisfy { $0 < $1 } }
        if b.isEmpty, strictlyAscending(a) { return a }
        if a.isEmpty, strictlyAscending(b) { return b }
        return Array(Set(a + b)).sorted()
    }

    /// Whether `model` is an entry of the store folder (a model folder with no `latest` yet).
    static func isBeingPublished(_ model: String, in root: String) -> Bool {
        !model.hasPrefix(".") && ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).contains(model)
    }

    /// The forecast of one place.
    /// - Parameter elevation: metres to move the values to (`Downscaling`); nil: the model terrain.
    package func place(latitude: Double, longitude: Double, elevation: Double? = nil, parameters: ForecastParameters,
                       times: RequestTimes, stores: [ForecastStore]) throws(APIError) -> PlaceForecast {
        let wantsDaily = !parameters.daily.isEmpty
        // `temporal_resolution` other than hourly: the `hourly` block is a forecast of its own
        // (amounts over each step), the daily summaries still come from every hour.
        let stepped = !parameters.hourly.isEmpty && (times.hourlyStep != 3600 || parameters.times.temporalResolution == .native)
        var blockTimes = Self.ascendingUnion(parameters.hourly.isEmpty || stepped ? [] : times.hourly, wantsDaily ? times.dailyHours : [])
        // A request of a stepped `hourly` or of `minutely_15` alone chooses its model by those times.
        if blockTimes.isEmpty && stepped { blockTimes = times.hourly }
        if blockTimes.isEmpty && !parameters.minutely15.isEmpty { blockTimes = times.minutely15 }
        let store: ForecastStore
        var shares: [CycleContinuity.Share] = []
        do throws(QueryError) {
            if blockTimes.isEmpty {
                // Only `current` (or nothing): any model holding the place, for its header.
                store = try ModelChoice.bestMatch(stores, latitude: latitude, longitude: longitude,
                                                  times: stores.compactMap { $0.runTimes.first }, partialHours: true).store
            } else {
                // The command line's rule; hours no kept cycle covers are answered null; a
                // request none of whose hours any cycle covers is the client's error (400
                // naming the run's range).
                shares = try answeringCycles(stores, latitude: latitude, longitude: longitude, times: blockTimes)
                store = shares.first?.store ?? stores[0]
            }
        } catch {
            throw APIError(query: error)
        }
        if shares.isEmpty { shares = [CycleContinuity.Share(store: store, times: store.runTimes.first.map { [$0] } ?? [])] }

        // What the cycle lacks is a column of nulls with the reason, never a refusal.
        let held = HeldVariables(store, hourly: parameters.hourly, daily: parameters.daily)
        let statistics = held.daily
        let variables = held.variables
        cycles.prefetch(store, latitude: latitude, longitude: longitude, times: shares[0].times, variables: variables)
        var (forecast, parts) = try joinedForecast(shares, variables: variables, units: parameters.units, cellSelection: parameters.cellSelection, panel: parameters.panel,
                                          latitude: latitude, longitude: longitude, elevation: elevation)
        let ensemble = try laggedMembers(at: forecast.times, variables: variables, model: store, stores: stores, parameters: parameters,
                                         latitude: latitude, longitude: longitude, elevation: elevation)
        if let ensemble { forecast = forecast.replacing(ensemble.values) }

        // The daily summaries are the command line's (`AnswerAssembly`'s policy) over the hours
        // of every cycle that answered.
        var daily: [DailyVariable: [Float]] = [:]
        if wantsDaily {
            let summary = DailyForecast(forecast: forecast, variables: statistics, timeZone: AnswerAssembly.dailyTimeZone(times.zone),
                                        grid: times.dailyHours.first)
            func values(_ statistic: DailyVariable) -> [Float] {
                let series = summary.values[statistic] ?? []
                return times.days.map { day in summary.dates.firstIndex(of: day).map { $0 < series.count ? series[$0] : .nan } ?? .nan }
            }
            for field in statistics { daily[field] = values(field) }
        }
        // `current` is a forecast of its own at the current quarter hour: asking for it never
        // changes the domain the hourly values come from. Null when the cycle does not cover it.
        var current: [ForecastVariable: Float] = [:]
        var currentVariables = parameters.current
        for variable in parameters.currentWeather ? Self.currentWeatherVariables : [] where !currentVariables.contains(variable) {
            currentVariables.append(variable)
        }
        let heldNow = HeldVariables(store, hourly: currentVariables, daily: [])
        currentVariables = currentVariables.filter { heldNow.missing[$0] == nil }
        if !currentVariables.isEmpty {
            // The newest cycle covering the current time; one that should and cannot be opened is a 503.
            let now: ForecastStore?
            do throws(QueryError) {
                if ModelChoice.covers(times.current, by: store) { now = store } else { now = try cycles.olderCovering([times.current], than: store) }
            } catch { throw APIError(query: error) }
            let values: PointForecast? = now.flatMap { cycle in
                var request = ForecastRequest(times: [times.current], variables: currentVariables.filter(cycle.availableVariables.contains),
                                              units: parameters.units)
                request.cellSelection = parameters.cellSelection
                request.panel = parameters.panel
                return try? Self.forecast(store: cycle, request: request, latitude: latitude, longitude: longitude, elevation: elevation).forecast
            }
            for variable in currentVariables { current[variable] = values?.values[variable]?.first ?? .nan }
            // Amounts are the quarter hour's (Open-Meteo's `current` is its 15-minute row,
            // issue 47), not the hour's around it: the `minutely_15` block's own series. So are
            // the weather code made from them (rates over the step) and the sunshine seconds.
            let amounts = currentVariables.filter { $0.isAccumulation || $0 == .weatherCode || $0 == .sunshineDuration }
            if !amounts.isEmpty && !parameters.currentAmountsOverTheHour {
                let quarter = try series(at: [times.current], step: RequestTimes.currentInterval, variables: amounts, model: store,
                                         stores: stores, parameters: parameters, latitude: latitude, longitude: longitude, elevation: elevation)
                for variable in amounts { current[variable] = quarter?.forecast.padded(to: [times.current]).values[variable]?.first ?? .nan }
            }
        }
        var place: PlaceForecast
        if stepped {
            // The block's own times (`native`: the answering domain's output interval) and
            // forecast, from the chosen model's cycles as the hourly one.
            let own = parameters.times.temporalResolution == .native ? times.withHourlyStep(Self.outputInterval(of: store)) : times
            let step = own.hourlyStep
            let series = try series(at: own.hourly, step: step, variables: variables, model: store, stores: stores, parameters: parameters,
                                    latitude: latitude, longitude: longitude, elevation: elevation)
            var block = series?.forecast.padded(to: own.hourly) ?? forecast.padded(to: []).padded(to: own.hourly)
            if let steps = try steppedProbabilities(own.hourly, step: step, variables: variables, model: store, stores: stores,
                                                    parameters: parameters, latitude: latitude, longitude: longitude, elevation: elevation) {
                block = block.replacing(steps)
            }
            place = PlaceForecast(forecast: forecast, times: own, hourly: block, daily: daily, current: current)
            if let series, series.parts.count > 1 { place.cycles = series.parts.flatMap { AnsweredHours.runs($0, step: step) } }
        } else {
            place = PlaceForecast(forecast: forecast, times: times, hourly: forecast.padded(to: times.hourly), daily: daily, current: current)
            if parts.count > 1 { place.cycles = parts.flatMap { AnsweredHours.runs($0) } }
        }
        place.members = ensemble
        place.unavailable = held.missing.merging(heldNow.missing) { first, _ in first }
        if !parameters.minutely15.isEmpty {
            let (values, missing) = try minutely15(parameters, store: store, stores: stores, times: times, latitude: latitude, longitude: longitude,
                                                   elevation: elevation)
            place.minutely15 = values
            place.unavailable.merge(missing) { first, _ in first }
        }
        place.unavailableDaily = held.missingDaily
        return place
    }

    /// The probabilities of `forecast` as the mean over the lagged members (`LaggedMembers`):
    /// the model's newest cycles covering each hour, each forecast at the place alone. Nil
    /// when no probability is asked for.
    func laggedMembers(at times: [Int64], variables: [ForecastVariable], model store: ForecastStore, stores: [ForecastStore],
                       parameters: ForecastParameters, latitude: Double, longitude: Double,
                       elevation: Double?) throws(APIError) -> LaggedMembers.Answer? {
        let wanted = variables.filter(LaggedMembers.isMade)
        guard !wanted.isEmpty else { return nil }
        let newest = stores.first { $0.model == store.model } ?? store
        let cycles: [ForecastStore]
        do throws(QueryError) { cycles = try self.cycles.members(from: newest, count: members, times: times) } catch {
            throw APIError(query: error)
        }
        return LaggedMembers.answer(wanted, at: times, cycles: cycles, count: members,
                                    point: QueryPoint(latitude: latitude, longitude: longitude, elevation: elevation),
                                    units: parameters.units, cellSelection: parameters.cellSelection)
    }

    /// A stepped block's probabilities (`temporal_resolution`): over a step longer than an hour,
    /// the largest of the members' hourly chances in it (the chance of at least one wet hour is
    /// at least that; OpenWeatherMap's 3-hour `pop`); over a shorter one, the chance of the hour
    /// holding it. Nil when none is asked for.
    func steppedProbabilities(_ steps: [Int64], step: Int64, variables: [ForecastVariable], model store: ForecastStore,
                              stores: [ForecastStore], parameters: ForecastParameters, latitude: Double, longitude: Double,
                              elevation: Double?) throws(APIError) -> [ForecastVariable: [Float]]? {
        let span = max(step / 3600, 1)
        let hours = step > 3600 ? Array(Set(steps.flatMap { end in (0..<span).map { end - $0 * 3600 } })).sorted() : steps
        guard let answer = try laggedMembers(at: hours, variables: variables, model: store, stores: stores, parameters: parameters,
                                             latitude: latitude, longitude: longitude, elevation: elevation) else { return nil }
        guard step > 3600 else { return answer.values }
        var index: [Int64: Int] = [:]
        for (k, hour) in hours.enumerated() { index[hour] = k }
        // A spread over a longer step is left null: the spread of the step's amounts or means
        // is no hourly spread's maximum.
        let probabilities = answer.values.filter { $0.key.spreadBase == nil }
        return probabilities.mapValues { series in
            steps.map { end in
                let known = (0..<span).compactMap { index[end - $0 * 3600] }.map { series[$0] }.filter { !$0.isNaN }
                // Unknown unless every hour of the step is known (a partial step is no 3-hour chance).
                return known.count == span ? known.max() ?? .nan : .nan
            }
        }
    }

    /// The `minutely_15` block: the cycle's 15-minute stream where the place's domain has one
    /// (`ForecastRequest.prefersFastStreams`), otherwise the history interpolated in time;
    /// precipitation and other amounts over each 15 minutes. Times the cycle does not cover
    /// are null; what it does not hold is named, as for `hourly`.
    /// Quarter hours before the newest cycle come from the older cycles the store keeps, as
    /// hours do (`CycleContinuity`); a cycle's first quarter hour from the cycle before it.
    func minutely15(_ parameters: ForecastParameters, store: ForecastStore, stores: [ForecastStore], times: RequestTimes, latitude: Double,
                    longitude: Double, elevation: Double?) throws(APIError) -> (PointForecast?, [ForecastVariable: String]) {
        let held = HeldVariables(store, hourly: parameters.minutely15, daily: [])
        guard !held.variables.isEmpty,
              let answer = try series(at: times.minutely15, step: RequestTimes.currentInterval, variables: held.variables, model: store,
                                      stores: stores, parameters: parameters, latitude: latitude, longitude: longitude, elevation: elevation)
        else { return (nil, held.missing) }
        return (answer.forecast.padded(to: times.minutely15), held.missing)
    }

    /// A block at a step other than the hour (`minutely_15`, `temporal_resolution`): its own
    /// forecast from the kept cycles of `store`'s model, each time from the newest cycle whose
    /// run holds the step before it (`CycleContinuity`), amounts over each step, a 15-minute
    /// stream read where a step is shorter than an hour. nil when no cycle covers any time.
    func series(at times: [Int64], step: Int64, variables: [ForecastVariable], model store: ForecastStore, stores: [ForecastStore],
                parameters: ForecastParameters, latitude: Double, longitude: Double,
                elevation: Double?) throws(APIError) -> (forecast: PointForecast, parts: [PointForecast])? {
        let newest = stores.first { $0.model == store.model } ?? store
        let kept: [ForecastStore]
        do throws(QueryError) { kept = try keptCycles(from: newest, for: times, window: step) } catch { throw APIError(query: error) }
        let shares = CycleContinuity.shares(of: times, among: kept, window: step)
        guard !shares.isEmpty else { return nil }
        return try joinedForecast(shares, variables: variables, units: parameters.units, cellSelection: parameters.cellSelection, panel: parameters.panel,
                                  latitude: latitude, longitude: longitude, elevation: elevation, window: step, prefersFastStreams: step < 3600)
    }

    /// A domain's output interval (`temporal_resolution=native`): its first two frames apart,
    /// an hour for a one-frame run.
    static func outputInterval(of store: ForecastStore) -> Int64 {
        let times = store.runTimes
        guard times.count > 1, times[1] > times[0] else { return 3600 }
        return times[1] - times[0]
    }

    /// The model to answer a place from and which of its kept cycles answers which hours,
    /// newest cycle first. The model is the best match over each model's newest cycle
    /// (`ModelChoice.bestMatch`, the command line's rule); only when no newest cycle covers any
    /// of the hours is each model represented by its newest kept cycle covering some. The
    /// chosen model's older cycles then fill the hours before its newest one
    /// (`CycleContinuity`).
    ///
    /// - Throws: as `ModelChoice.bestMatch`.
    func answeringCycles(_ stores: [ForecastStore], latitude: Double, longitude: Double,
                         times: [Int64]) throws(QueryError) -> [CycleContinuity.Share] {
        let match: ForecastStore
        do throws(QueryError) {
            match = try ModelChoice.bestMatch(stores, latitude: latitude, longitude: longitude, times: times, partialHours: true).store
        } catch {
            guard case .outsideTimes = error else { throw error }
            var representatives: [ForecastStore] = []
            for newest in stores { representatives.append(try cycles.olderCovering(times, than: newest) ?? newest) }
            match = try ModelChoice.bestMatch(representatives, latitude: latitude, longitude: longitude, times: times, partialHours: true).store
        }
        let newest = stores.first { $0.model == match.model } ?? match
        return CycleContinuity.recentShares(of: times, among: try keptCycles(from: newest, for: times))
    }

    /// The model's newest cycle and, when `times` reach before its second frame (or past its
    /// last), the older ones the store keeps that answer some of them: newest first.
    ///
    /// - Throws: `QueryError.store` when an older cycle that may answer cannot be opened.
    func keptCycles(from newest: ForecastStore, for times: [Int64], window: Int64 = 3600) throws(QueryError) -> [ForecastStore] {
        guard let first = newest.runTimes.first, let last = newest.runTimes.last,
              let earliest = times.first, let latest = times.last, earliest > first, latest <= last else {
            return [newest] + (try cycles.older(than: newest, reaching: times, window: window))
        }
        return [newest]
    }

    /// One place's forecast from each cycle's share of the hours, as one forecast. The newest
    /// cycle's failure is the answer's; an older cycle that cannot answer the place (it did
    /// not hold it then) leaves its hours null, but its damage is never hidden.
    /// - Parameters:
    ///   - window: the interval an amount covers at each time (`ForecastRequest.accumulationWindow`).
    ///   - prefersFastStreams: read a domain's 15-minute stream where it has one (`minutely_15`).
    func joinedForecast(_ shares: [CycleContinuity.Share], variables: [ForecastVariable], units: OutputUnits, cellSelection: CellSelection,
                        panel: PanelOrientation = .flat, latitude: Double, longitude: Double, elevation: Double?, window: Int64 = 3600,
                        prefersFastStreams: Bool = false) throws(APIError) -> (forecast: PointForecast, parts: [PointForecast]) {
        var parts: [PointForecast] = []
        for (k, share) in shares.enumerated() {
            var request = ForecastRequest(times: share.times, variables: k == 0 ? variables : variables.filter(share.store.availableVariables.contains),
                                          units: units, accumulationWindow: window)
            request.cellSelection = cellSelection
            request.panel = panel
            request.prefersFastStreams = prefersFastStreams
            do throws(APIError) {
                parts.append(try Self.forecast(store: share.store, request: request, latitude: latitude, longitude: longitude, elevation: elevation).forecast)
            } catch {
                if k == 0 || error.status == .serviceUnavailable { throw error }
            }
        }
        guard let joined = PointForecast.joined(parts) else { throw APIError("no cycle answers the place") }
        return (joined, parts)
    }

    /// `place`, except that a place held by a model whose cycles cover none of the times asked
    /// is answered with nulls, as Open-Meteo answers hours beyond a model's range, never a
    /// 400. Its header (model, grid position) is the one a request of
    /// `current` alone gets; `current` is answered as usual.
    func placeOrNulls(latitude: Double, longitude: Double, elevation: Double?, parameters: ForecastParameters,
                      times: RequestTimes, stores: [ForecastStore]) throws(APIError) -> PlaceForecast {
        do throws(APIError) {
            return try place(latitude: latitude, longitude: longitude, elevation: elevation, parameters: parameters, times: times, stores: stores)
        } catch {
            guard error.isOutsideTimes else { throw error }
        }
        var headerOnly = parameters
        headerOnly.hourly = []
        headerOnly.daily = []
        headerOnly.minutely15 = []
        var answer = try place(latitude: latitude, longitude: longitude, elevation: elevation, parameters: headerOnly, times: times, stores: stores)
        // What the answering cycle lacks is still named (a column of nulls for want of data,
        // not of time, says so).
        if let store = stores.first(where: { $0.model == answer.forecast.provenance.model }) {
            let held = HeldVariables(store, hourly: parameters.hourly + parameters.minutely15, daily: parameters.daily)
            answer.unavailable.merge(held.missing) { first, _ in first }
            answer.unavailableDaily = held.missingDaily
        }
        return answer
    }

    /// The command line's path for one place: `AnswerAssembly` over `PointForecaster`, with its
    /// daily summaries on local days of `zone`.
    static func forecast(store: ForecastStore, request: ForecastRequest, latitude: Double, longitude: Double, elevation: Double? = nil,
                         daily: [DailyVariable] = [], zone: TimeZone? = nil) throws(APIError) -> (forecast: PointForecast, daily: DailyForecast?) {
        let assembly = AnswerAssembly(forecaster: PointForecaster(store: store), request: request, dailyVariables: daily, timeZone: zone)
        let answer = assembly.answer(QueryPoint(latitude: latitude, longitude: longitude, elevation: elevation))
        switch answer.result {
        case .success(let value): return (value, answer.daily)
        case .failure(let error): throw APIError(query: error)
        }
    }

    /// Location-hours one request may ask for: 1000 places x 16 days (x 24 h, plus the hour
    /// that closes the last day and the hour a day gains when daylight saving time ends).
    static let maxPlaceHours = ForecastParameters.maxPlaces * (ForecastParameters.maxDays * 24 + 2)

    /// What an answer holds, counted from its locations' times before any place is computed:
    /// every block (`hourly`, `minutely_15`, `daily`, `current`, `current_weather`) of every
    /// model answering each location (with several models each has its own suffixed columns).
    package struct AnswerSize: Sendable, Equatable {
        /// Numbers (or nulls) in the answer.
        package var values = 0
        /// Time labels, a location's once per block (a CSV row each).
        package var labels = 0
        package var locations = 0
        /// Columns, every location's (units and names in the header).
        package var columns = 0

        /// An upper estimate of the answer's bytes, uncompressed, in any format: 8 a value (a
        /// number or null and its comma as the renderers print them, 7 at most in practice),
        /// 40 a label (a JSON time is 19 bytes; a CSV row's location_id, time and line end up
        /// to 40), 1 KiB a location's header and 64 bytes a column's name and unit.
        package var answerBytes: Int { values * 8 + labels * 40 + locations * 1024 + columns * 64 }

        /// An upper estimate of the memory held while the answer is made, which the answer
        /// budget reserves: the answer itself, uncompressed (gzip reads it whole), and the
        /// values as numbers (4 bytes each, held twice: the forecast over its hours and its
        /// copy on the block's times).
        package var workingBytes: Int { answerBytes + values * 8 }
    }

    /// Values one answer may hold: 1000 locations x 16 days (`maxPlaceHours`) x 16 variables,
    /// every block and model counted. Past it a request is refused (400) before any place is
    /// computed, so that one answer stays within ~100 MB of memory while it is made
    /// (`AnswerSize.workingBytes`) and a few seconds of CPU: a 460-cell box, 16 days and 20
    /// variables (3.6 M values) took 5.0 s of CPU as CSV (17.8 MB), 2.4 s as gzipped JSON, in
    /// a debug build; 59 variables (10.4 M values) had taken 9.2 s as CSV.
    package static let maxAnswerValues = maxPlaceHours * 16

    /// The size of the answer to `jobs` from `sources`.
    static func answerSize(_ jobs: [Job], sources: [(name: String, stores: [ForecastStore])], parameters: ForecastParameters) -> AnswerSize {
        // `temporal_resolution=native`: the answering domain's step, known only once a place is
        // answered; counted at the finest step of any cycle that may answer.
        var perHour = 1
        if parameters.times.temporalResolution == .native {
            let finest = sources.flatMap(\.stores).map(outputInterval(of:)).filter { $0 > 0 }.min() ?? 3600
            perHour = max(1, Int(3600 / finest))
        }
        let (hourly, minutely15, daily) = (parameters.hourlyColumns.count, parameters.minutely15Columns.count, parameters.dailyColumns.count)
        let now = parameters.currentColumns.count + (parameters.currentWeather ? currentWeatherVariables.count : 0)
        var size = AnswerSize()
        for job in jobs {
            let models = job.source == nil ? sources.count : 1
            let hours = hourly > 0 ? job.times.hourly.count * perHour : 0
            let quarters = minutely15 > 0 ? job.times.minutely15.count : 0
            let days = daily > 0 ? job.times.days.count : 0
            size.values += models * (hours * hourly + quarters * minutely15 + days * daily + now)
            size.labels += hours + quarters + days + (now > 0 ? 1 : 0)
            size.locations += 1
            size.columns += models * (hourly + minutely15 + daily + now)
        }
        return size
    }

    /// From this many places a request on, its places are computed on every core.
    static let placesWorthSplitting = 16

    /// Where a request's parts beyond the first run: a queue of its own, whose work libdispatch
    /// gives threads of their own (a queue made by the program runs on overcommit threads).
    private static let parts = DispatchQueue(label: "tilecast.forecast-parts", qos: .userInitiated, attributes: .concurrent)

    /// `body` for each part, the first on this thread, the others on `parts`, in order.
    ///
    /// Not `concurrentPerform` (`concurrentMap`): on Linux it hands its iterations to the
    /// default-QoS root queue, whose threads (one a core) also run every Swift task of the
    /// process, each route's handler, `/health`'s and `/metrics`'s among them: 600 requests
    /// of 100 places computed that way held `/health` for 36-51 s.
    static func split<T: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) -> T) -> [T] {
        guard count > 1 else { return count == 1 ? [body(0)] : [] }
        let others = Mutex<[T?]>(Array(repeating: nil, count: count))
        let group = DispatchGroup()
        for part in 1..<count {
            parts.async(group: group) {
                let value = body(part)
                others.withLock { $0[part] = value }
            }
        }
        let first = body(0)
        group.wait()
        return [first] + others.withLock { $0.dropFirst().compactMap { $0 } }
    }

    /// The variables of the legacy `current_weather` block, in Open-Meteo's order (its
    /// `defaultCurrentWeather`, Sources/App/Controllers/ForecastapiController.swift).
    static let currentWeatherVariables: [ForecastVariable] = [.temperature2m, .windSpeed10m, .windDirection10m, .isDay, .weatherCode]

    /// The meteogram of one place (`/v1/meteogram.svg`): `Meteogram.variables`, whatever the
    /// request's `hourly` names; the request gives the place, times, zone and units.
    package func meteogram(_ parameters: ForecastParameters, now: Int64) throws(APIError) -> String {
        guard parameters.latitudes.count == 1 else { throw APIError("The meteogram is for one place: give one latitude and longitude") }
        var parameters = parameters
        parameters.hourly = Meteogram.variables
        // Without times asked for, the next 48 hours (7 days, the forecast's default, would be
        // a picture 2,700 px wide).
        if parameters.times == TimeSelection() { parameters.times.forecastHours = Meteogram.defaultHours }
        parameters.hourlyColumns = Meteogram.variables.map { RequestedColumn(name: $0.rawValue, variable: $0, unserved: nil) }
        parameters.daily = []
        parameters.current = []
        parameters.dailyColumns = []
        parameters.currentColumns = []
        parameters.minutely15 = []
        parameters.minutely15Columns = []
        parameters.currentWeather = false
        let (latitude, longitude) = (parameters.latitudes[0], parameters.longitudes[0])
        let zone = parameters.zone(latitude: latitude, longitude: longitude)
        let times = try RequestTimes(parameters.times, zone: zone.zone, zoneName: zone.name, now: now)
        let stores = try stores(for: parameters.model)
        // A remote store's reads end by the request's deadline, as in `respond`.
        let placed: Result<PlaceForecast, APIError> = ObjectClient.within(cycles.requestDeadline()) {
            do throws(APIError) {
                // Hours no cycle covers are drawn as such (shaded), as the forecast answers them with nulls.
                return .success(try self.placeOrNulls(latitude: latitude, longitude: longitude, elevation: parameters.elevations.first ?? nil,
                                                      parameters: parameters, times: times, stores: stores))
            } catch { return .failure(error) }
        }
        let place = try placed.get()
        return Meteogram.svg(place: place, units: parameters.units, now: now)
    }

    /// One location of a request: where, for which elevation and times, under which number.
    struct Job: Sendable {
        let locationID: Int
        let latitude: Double
        let longitude: Double
        let elevation: Double?
        let times: RequestTimes
        /// The one model answering it (a bounding box's cell); nil: every model asked for.
        var source: Int? = nil
    }

    /// A bounding box's locations: for each model asked for, every mass point of one of its
    /// domains inside the box, numbered from 0 per model (Open-Meteo's controller lists each
    /// domain's grid points in turn). The domain is the finest whose grid holds the whole box,
    /// else the coarsest; a moving nest is never chosen (its grid moves). Each cell is answered
    /// by its model as a place at the cell's centre with `cell_selection=nearest` (its own
    /// values; where a finer nest holds the cell, the nest's nearest cell, by best match).
    static func boxJobs(_ parameters: ForecastParameters, box: BoundingBox, sources: [(name: String, stores: [ForecastStore])],
                        now: Int64) throws(APIError) -> [Job] {
        let selections = parameters.ranges.count > 1 ? parameters.ranges : [parameters.times]
        var allTimes: [RequestTimes] = []
        for selection in selections {
            allTimes.append(try RequestTimes(selection, zone: parameters.timeZone, zoneName: parameters.timeZoneName, now: now))
        }
        var jobs: [Job] = []
        for (s, source) in sources.enumerated() {
            let domains = source.stores.flatMap(\.domains).filter { $0.motion == nil }.sorted { $0.metadata.projection.dx < $1.metadata.projection.dx }
            let whole = domains.first { domain in
                [(box.south, box.west), (box.south, box.east), (box.north, box.east), (box.north, box.west)].allSatisfy {
                    domain.grid.contains(domain.grid.position(of: GeoPoint(latitude: $0.0, longitude: $0.1)), margin: domain.margin)
                }
            }
            guard let domain = whole ?? domains.last else { continue }
            let nodes = cells(of: domain.grid, in: box, atMost: ForecastParameters.maxPlaces + 1)
            for times in allTimes {
                for (k, node) in nodes.enumerated() {
                    jobs.append(Job(locationID: k, latitude: node.latitude, longitude: node.longitude, elevation: nil, times: times, source: s))
                }
                guard jobs.count <= ForecastParameters.maxPlaces else {
                    throw APIError("Only up to \(ForecastParameters.maxPlaces) locations can be requested at once (the bounding box holds more grid cells)")
                }
            }
        }
        guard !jobs.isEmpty else { throw APIError("No grid cell of the models asked for lies in the bounding box") }
        return jobs
    }

    /// A grid's mass points inside `box`, south to north, west to east, at most `limit` of them
    /// (past the request's limit the count is all that matters). Only the index range the box's
    /// edges reach (sampled, with two cells to spare) is searched.
    static func cells(of grid: ProjectedGrid, in box: BoundingBox, atMost limit: Int) -> [GeoPoint] {
        var iRange = (Double.infinity, -Double.infinity), jRange = (Double.infinity, -Double.infinity)
        let samples = 64
        for k in 0...samples {
            let f = Double(k) / Double(samples)
            let latitude = box.south + f * (box.north - box.south), longitude = box.west + f * (box.east - box.west)
            for point in [GeoPoint(latitude: latitude, longitude: box.west), GeoPoint(latitude: latitude, longitude: box.east),
                          GeoPoint(latitude: box.south, longitude: longitude), GeoPoint(latitude: box.north, longitude: longitude)] {
                let position = grid.position(of: point)
                guard position.i.isFinite, position.j.isFinite else { continue }
                iRange = (min(iRange.0, position.i), max(iRange.1, position.i))
                jRange = (min(jRange.0, position.j), max(jRange.1, position.j))
            }
        }
        guard iRange.0 <= iRange.1, jRange.0 <= jRange.1 else { return [] }
        let i0 = max(0, Int((iRange.0 - 2).rounded(.down))), i1 = min(grid.westEast - 1, Int((iRange.1 + 2).rounded(.up)))
        let j0 = max(0, Int((jRange.0 - 2).rounded(.down))), j1 = min(grid.southNorth - 1, Int((jRange.1 + 2).rounded(.up)))
        guard i0 <= i1, j0 <= j1 else { return [] }
        var points: [GeoPoint] = []
        for j in j0...j1 {
            for i in i0...i1 {
                let point = grid.point(at: GridPosition(i: Double(i), j: Double(j)))
                if box.contains(latitude: point.latitude, longitude: point.longitude) { points.append(point) }
                if points.count >= limit { return points }
            }
        }
        return points
    }

    /// The request's locations: each place with its times, in its zone; with lists of
    /// start/end ranges, each place with its own range, or a single place once per range
    /// (Open-Meteo's ForecastapiQuery.swift, `prepareCoordinates`).
    static func jobs(_ parameters: ForecastParameters, now: Int64) throws(APIError) -> [Job] {
        var timesByKey: [String: RequestTimes] = [:]
        var jobs: [Job] = []
        func add(place k: Int, selection: TimeSelection, range: Int) throws(APIError) {
            let (latitude, longitude) = (parameters.latitudes[k], parameters.longitudes[k])
            let zone = parameters.zone(index: k, latitude: latitude, longitude: longitude)
            let key = "\(range) \(zone.name)"
            let times: RequestTimes
            if let known = timesByKey[key] { times = known } else {
                times = try RequestTimes(selection, zone: zone.zone, zoneName: zone.name, now: now)
                timesByKey[key] = times
            }
            jobs.append(Job(locationID: k < parameters.locationIDs.count ? parameters.locationIDs[k] : k, latitude: latitude, longitude: longitude,
                            elevation: k < parameters.elevations.count ? parameters.elevations[k] : nil, times: times))
        }
        let places = parameters.latitudes.indices
        jobs.reserveCapacity(max(places.count, parameters.ranges.count))
        if parameters.ranges.count > 1 && places.count == 1 {
            for (r, selection) in parameters.ranges.enumerated() { try add(place: 0, selection: selection, range: r) }
        } else if parameters.ranges.count > 1 {
            for k in places { try add(place: k, selection: parameters.ranges[k], range: k) }
        } else {
            for k in places { try add(place: k, selection: parameters.times, range: 0) }
        }
        return jobs
    }

    /// One location's answer from each model asked for. With several models, one that does
    /// not hold the place is left out (Open-Meteo's controller keeps the models that have
    /// readers for it); a store's damage (503) is never left out.
    func location(_ job: Job, parameters: ForecastParameters, sources: [(name: String, stores: [ForecastStore])]) -> Result<LocationAnswer, APIError> {
        var answered: [(name: String, place: PlaceForecast)] = []
        var failure: APIError?
        for source in job.source.map({ [sources[$0]] }) ?? sources {
            do throws(APIError) {
                answered.append((source.name, try placeOrNulls(latitude: job.latitude, longitude: job.longitude, elevation: job.elevation,
                                                               parameters: parameters, times: job.times, stores: source.stores)))
            } catch {
                if error.status == .serviceUnavailable { return .failure(error) }
                if failure == nil { failure = error }
            }
        }
        guard !answered.isEmpty else { return .failure(failure ?? APIError("no model answers the place")) }
        // `temporal_resolution=native` over models of different output intervals: Open-Meteo's
        // `cannotReturnModelsWithDifferentTimeIntervals` (ForecastApiResult.swift, `merge`).
        if !parameters.hourlyColumns.isEmpty, Set(answered.map { $0.place.times.hourlyStep }).count > 1 {
            return .failure(APIError("Cannot return models with different time-intervals"))
        }
        return .success(LocationAnswer(locationID: job.locationID, parts: answered.map(\.place),
                                       modelNames: answered.count > 1 ? answered.map(\.name) : []))
    }

    /// Answers a whole request: the body, its content type, and for CSV the
    /// `Content-Disposition` that names the file as Open-Meteo names it.
    ///
    /// - Parameter now: seconds since 1970 (a parameter so tests can fix it).
    /// - Parameter admit: asked, once the request's size is known and before any place is
    ///   computed, whether an answer of about this many bytes may be made now (the server's
    ///   answer budget, `ConnectionLedger`); false answers 503.
    package func respond(_ parameters: ForecastParameters, now: Int64,
                         admit: ((Int) -> Bool)? = nil) throws(APIError) -> (body: [UInt8], contentType: String, disposition: String?) {
        let started = DispatchTime.now().uptimeNanoseconds
        // The models asked for, each with the stores it may answer from: one (best match or
        // the one named), or several with `models=a,b`.
        let names = parameters.models.count > 1 ? parameters.models : [parameters.model ?? ForecastParameters.bestMatch]
        var sources: [(name: String, stores: [ForecastStore])] = []
        for name in names { sources.append((name, try stores(for: name == ForecastParameters.bestMatch ? nil : name))) }
        var parameters = parameters
        let jobs: [Job]
        if let box = parameters.boundingBox {
            // A box's cells answer their own values.
            parameters.cellSelection = .nearest
            jobs = try Self.boxJobs(parameters, box: box, sources: sources, now: now)
        } else {
            jobs = try Self.jobs(parameters, now: now)
        }
        // past_days reaches 92 (Open-Meteo's limit), but one request's size stays within
        // `maxPlaceHours`, 1000 places x 16 days (the memory bound of `ServerConfiguration.maxInFlight`).
        // A 15-minute step is an entry of the answer as an hour is; each model answers every place.
        let quarters = parameters.minutely15Columns.isEmpty ? 0 : 1
        let placeHours = sources.count * jobs.reduce(0) { $0 + max($1.times.hourly.count, $1.times.dailyHours.count) + quarters * $1.times.minutely15.count }
        guard placeHours <= Self.maxPlaceHours else {
            throw APIError("Too much for one request: \(jobs.count) locations x \(sources.count) models x \(placeHours / max(1, jobs.count * sources.count)) hours; at most \(Self.maxPlaceHours) location-hours (\(ForecastParameters.maxPlaces) locations x \(ForecastParameters.maxDays) days): ask for fewer locations, models or days a request")
        }
        // Every block and model counted (the estimate once counted hourly and daily columns
        // only: a 274 MB answer of `minutely_15` reserved 22 MB). Refused before any place is
        // computed when too large (a box with every variable for 16 days took 483-826 MB to
        // make), reserved on the answer budget otherwise.
        let size = Self.answerSize(jobs, sources: sources, parameters: parameters)
        guard size.values <= Self.maxAnswerValues else {
            throw APIError("Too much data requested: \(size.values) values (\(jobs.count) locations, each over its times in \(size.columns / max(1, size.locations)) columns of every model and block); at most \(Self.maxAnswerValues) values a request (1000 locations x 16 days x 16 variables): ask for fewer locations, variables, models or days a request")
        }
        if let admit, !admit(size.workingBytes) {
            throw APIError(.serviceUnavailable, "answers being made or waiting for slow clients fill the server's send budget; try again shortly")
        }
        // A request of a few places is computed on this worker thread; one of many places is
        // split over the cores (it holds one in-flight slot, and answers sooner: benchmark S3,
        // 100 places in one request, in benchmarks/RESULTS.md).
        let work = jobs, fixed = parameters, answering = sources
        let parts = work.count >= Self.placesWorthSplitting ? min(jobs.count, ProcessInfo.processInfo.activeProcessorCount) : 1
        // A remote store's reads for the whole request end by one deadline (`RemoteLimits`).
        let deadline = cycles.requestDeadline()
        let computed = Self.split(parts) { part -> [Result<LocationAnswer, APIError>] in
            ObjectClient.within(deadline) {
                (part * work.count / parts..<(part + 1) * work.count / parts).map { k in
                    location(work[k], parameters: fixed, sources: answering)
                }
            }
        }
        var places: [LocationAnswer] = []
        places.reserveCapacity(work.count)
        // The first failing place, in the request's order, is the answer; but a store's damage
        // (503) wins over any place's own error (400), so that it is never hidden behind one.
        var failure: APIError?
        for result in computed.joined() {
            switch result {
            case .success(let place): places.append(place)
            case .failure(let error):
                if failure == nil || (error.status == .serviceUnavailable && failure?.status != .serviceUnavailable) { failure = error }
            }
        }
        if let failure { throw failure }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1_000_000
        let renderer = OpenMeteoRenderer(parameters: parameters, generationMilliseconds: elapsed)
        switch parameters.format {
        case .json: return (renderer.json(places), "application/json; charset=utf-8", nil)
        case .csv: return (renderer.csv(places), "text/csv; charset=utf-8", OpenMeteoRenderer.csvDisposition(places))
        case .flatbuffers:
            return (OpenMeteoFlatBuffers.encode(places, parameters: parameters, milliseconds: elapsed), "application/octet-stream", nil)
        }
    }
}
