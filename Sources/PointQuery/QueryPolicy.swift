import Catalog
import Foundation

/// The rules a query follows that are not arithmetic: which times to answer, which time zone
/// daily summaries use, and how answers are assembled place by place. The command line and a
/// server call these, so both answer the same way.
package enum QueryTimes {
    /// The times to answer.
    ///
    /// - One `time`: that time. A `start`: `hours` (default 24) hourly times from it.
    /// - Neither: `hours` from the current hour (`now` floored to the hour) when the run
    ///   covers it, clipped to the run's end; otherwise from the run's first time, clipped to
    ///   the run's length, with a note saying so.
    /// - Parameters:
    ///   - run: the run's frame times (the coarsest domain's), oldest first.
    ///   - now: seconds since 1970; a parameter so the rule can be tested.
    ///   - step: seconds between the series' times (3600, or 900 for a 15-minute series).
    package static func choose(time: Int64?, start: Int64?, hours: Int?, run: [Int64], now: Int64,
                               step: Int64 = 3600) -> (times: [Int64], note: String?) {
        if let time { return ([time], nil) }
        let count = hours ?? 24
        if let start { return (ForecastRequest.series(from: start, hours: count, step: step), nil) }
        let hour = now >= 0 ? now / 3600 * 3600 : (now - 3599) / 3600 * 3600
        guard let first = run.first, let last = run.last else { return ([hour], nil) }
        if hour >= first && hour <= last {
            return (ForecastRequest.series(from: hour, hours: count, step: step).filter { $0 <= last }, nil)
        }
        let note = "the current hour is outside the run (\(ModelTime.isoMinutes(first))..\(ModelTime.isoMinutes(last))); answering from its first time"
        let available = Int((last - first) / 3600) + 1
        return (ForecastRequest.series(from: first, hours: min(count, available), step: step).filter { $0 <= last }, note)
    }
}

/// How each place's answer is put together: the forecast, then its daily summaries on local
/// days of the time zone (UTC when none is given).
package struct AnswerAssembly: Sendable {
    /// One forecaster per model the answer may come from: one when the model is pinned
    /// (`--model`), every model of the store for the best match (`ModelChoice.bestMatch`).
    package let forecasters: [PointForecaster]
    package let request: ForecastRequest
    package let dailyVariables: [DailyVariable]
    /// The zone output times are printed in; nil prints UTC ("Z").
    package let timeZone: TimeZone?
    /// Per model, its kept cycles older than the one its forecaster reads, newest first: the
    /// lagged members a probability is the mean of (`LaggedMembers`); none: that cycle alone.
    package var olderCycles: [String: [ForecastStore]] = [:]
    /// The members a probability is the mean of (`--members`).
    package var memberCount = LaggedMembers.defaultCount

    package init(forecaster: PointForecaster, request: ForecastRequest, dailyVariables: [DailyVariable], timeZone: TimeZone?) {
        self.init(forecasters: [forecaster], request: request, dailyVariables: dailyVariables, timeZone: timeZone)
    }

    /// Answers each place from the best match among `forecasters` (each its own model).
    package init(forecasters: [PointForecaster], request: ForecastRequest, dailyVariables: [DailyVariable], timeZone: TimeZone?) {
        self.forecasters = forecasters
        self.request = request
        self.dailyVariables = dailyVariables
        self.timeZone = timeZone
    }

    /// The zone daily summaries group by: the requested one, else UTC.
    package static func dailyTimeZone(_ zone: TimeZone?) -> TimeZone {
        zone ?? TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? .current
    }

    /// One place's answer (errors are part of the answer, not thrown).
    package func answer(_ point: QueryPoint, name: String? = nil) -> PlaceAnswer {
        let result: Result<PointForecast, QueryError>
        do throws(QueryError) { result = .success(try forecast(point)) } catch { result = .failure(error) }
        return assemble(point, name: name, result: result)
    }

    /// One place's forecast from its model: the only one, or the best match
    /// (`ModelChoice.bestMatch`) over every requested time: a model holding only some of
    /// them answers none, as the command line's answer for a time outside the run is an
    /// error, not nulls.
    package func forecast(_ point: QueryPoint) throws(QueryError) -> PointForecast {
        let forecaster: PointForecaster
        if forecasters.count > 1 {
            let choice = try ModelChoice.bestMatch(forecasters.map(\.store), latitude: point.latitude, longitude: point.longitude,
                                                   times: point.times ?? request.times, partialHours: false).store
            guard let chosen = forecasters.first(where: { $0.store === choice }) else { throw .badRequest("no model to answer from") }
            forecaster = chosen
        } else {
            guard let only = forecasters.first else { throw .badRequest("no model to answer from") }
            forecaster = only
        }
        return withMembers(try forecaster.forecast(point, request: request), point: point, newest: forecaster.store)
    }

    /// The forecast with its probabilities the mean and its spreads the standard deviation over
    /// the lagged members (`olderCycles`), as the server's; unchanged when none is asked for or
    /// the model has no older cycle (a spread then stays null: one member has none).
    func withMembers(_ forecast: PointForecast, point: QueryPoint, newest: ForecastStore) -> PointForecast {
        let wanted = (request.variables ?? []).filter(LaggedMembers.isMade)
        guard !wanted.isEmpty, let older = olderCycles[newest.model], !older.isEmpty else { return forecast }
        // The same window of amounts (`--every`): a spread of precipitation is of the answer's amounts.
        let answer = LaggedMembers.answer(wanted, at: forecast.times, cycles: [newest] + older, count: memberCount,
                                          point: QueryPoint(latitude: point.latitude, longitude: point.longitude, elevation: point.elevation),
                                          units: request.units, cellSelection: request.cellSelection, accumulationWindow: request.accumulationWindow)
        return forecast.replacing(answer.values)
    }

    /// Answers for many places, delivered in order to `body` a chunk at a time: each chunk is
    /// forecast on every core, handed over, and dropped, so memory does not grow with the
    /// number of places.
    package func answers(_ places: [(point: QueryPoint, name: String?)], chunkSize: Int = 2048, _ body: (PlaceAnswer) -> Void) {
        var start = 0
        while start < places.count {
            let end = min(start + max(chunkSize, 1), places.count)
            let chunk = Array(places[start..<end])
            let parts = min(chunk.count, max(1, ProcessInfo.processInfo.activeProcessorCount * 4))
            let done = concurrentMap(parts) { part in
                chunk[(part * chunk.count / parts)..<((part + 1) * chunk.count / parts)].map { answer($0.point, name: $0.name) }
            }
            for part in done { for answer in part { body(answer) } }
            start = end
        }
    }

    /// As `answers(_:chunkSize:_:)`, with each answer also rendered on the worker that
    /// computed it (rendering costs more than the forecast), handed to `body` in order.
    package func answers<Rendered: Sendable>(_ places: [(point: QueryPoint, name: String?)], chunkSize: Int = 2048,
                                            render: @escaping @Sendable (PlaceAnswer) -> Rendered,
                                            _ body: (PlaceAnswer, Rendered) -> Void) {
        var start = 0
        while start < places.count {
            let end = min(start + max(chunkSize, 1), places.count)
            let chunk = Array(places[start..<end])
            let parts = min(chunk.count, max(1, ProcessInfo.processInfo.activeProcessorCount * 4))
            let done = concurrentMap(parts) { part in
                ((part * chunk.count / parts)..<((part + 1) * chunk.count / parts)).map { index -> (PlaceAnswer, Rendered) in
                    let answer = self.answer(chunk[index].point, name: chunk[index].name)
                    return (answer, render(answer))
                }
            }
            for part in done { for (answer, rendered) in part { body(answer, rendered) } }
            start = end
        }
    }

    private func assemble(_ point: QueryPoint, name: String?, result: Result<PointForecast, QueryError>) -> PlaceAnswer {
        let daily = dailyVariables.isEmpty ? nil : (try? result.get()).map { wholeDays(point, answered: $0) }
        return PlaceAnswer(name: name, latitude: point.latitude, longitude: point.longitude, line: point.line, result: result, daily: daily)
    }

    /// The daily summaries of the local days the answered times fall in, each over every step
    /// of the day the answering run holds, not only the steps asked for: a day's sum or mean is
    /// null where the run lacks an hour of it (as the server's daily block), never because the
    /// query's window starts or ends inside the day. From the answer's own model and domain;
    /// when those cannot answer the whole days, from the answered steps alone.
    package func wholeDays(_ point: QueryPoint, answered: PointForecast) -> DailyForecast {
        let zone = Self.dailyTimeZone(timeZone), window = request.accumulationWindow
        let dates = DailyForecast.localDates(answered.times, timeZone: zone)
        func summary(_ forecast: PointForecast) -> DailyForecast {
            DailyForecast(forecast: forecast, variables: dailyVariables, timeZone: zone, window: window,
                          grid: answered.times.first, dates: dates)
        }
        guard let grid = answered.times.first,
              let forecaster = forecasters.first(where: { $0.store.model == answered.provenance.model }),
              let first = forecaster.store.runTimes.first, let last = forecaster.store.runTimes.last else { return summary(answered) }
        let steps = DailyForecast.steps(of: dates, timeZone: zone, grid: grid, step: window).filter { $0 >= first && $0 <= last }
        guard !steps.isEmpty, steps != answered.times else { return summary(answered) }
        var days = point
        days.times = steps
        guard let whole = try? forecaster.forecast(days, request: request), whole.provenance.domain == answered.provenance.domain else {
            return summary(answered)
        }
        return summary(whole)
    }
}
