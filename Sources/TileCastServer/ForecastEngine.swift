import Catalog
import Foundation
import Meteorology
import PointQuery

/// One place's answer in the API's terms: the library's forecast (the command line's code
/// path: `AnswerAssembly` over `PointForecaster`), laid on the request's time axes.
package struct PlaceForecast: Sendable {
    package let forecast: PointForecast
    /// The forecast on the `hourly` block's times (NaN where the cycle has no value).
    package let hourly: PointForecast
    /// Daily values per requested field, aligned with `RequestTimes.days`.
    package let daily: [DailyField: [Float]]
    /// Values at the current time (NaN when the cycle does not cover it).
    package let current: [OutputVariable: Float]
}


/// Answers `/v1/forecast` requests from the store: chooses each place's model (best match or
/// the one named), asks the library for the forecast, and renders Open-Meteo's JSON or CSV.
/// Synchronous and CPU-bound: the server runs it off the event loop (see `ForecastServer`).
package struct ForecastEngine: Sendable {
    package let cycles: CycleCache

    package init(cycles: CycleCache) { self.cycles = cycles }

    /// The stores a request may answer from: the named model's, or every model's (best match).
    func stores(for model: String?) throws(APIError) -> [ForecastStore] {
        let models = cycles.models()
        guard !models.isEmpty else { throw APIError(.serviceUnavailable, "the store holds no published cycle yet") }
        if let model {
            // The only request parameter that names something in the store: used only once it
            // is found among the store's own model folders.
            guard models.contains(model) else {
                throw APIError("Unknown model '\(model)': this server holds \(models.joined(separator: ", ")) (or best_match)")
            }
            do throws(QueryError) { return [try cycles.current(model: model)] } catch { throw APIError(query: error) }
        }
        let opened = cycles.all()
        guard !opened.stores.isEmpty else {
            throw APIError(.serviceUnavailable, "no cycle of the store can be opened: \(opened.problems.joined(separator: "; "))")
        }
        return opened.stores
    }

    /// The forecast of one place.
    package func place(latitude: Double, longitude: Double, parameters: ForecastParameters,
                       times: RequestTimes, stores: [ForecastStore]) throws(APIError) -> PlaceForecast {
        let wantsDaily = !parameters.daily.isEmpty
        let blockTimes = Array(Set((parameters.hourly.isEmpty ? [] : times.hourly) + (wantsDaily ? times.dailyHours : []))).sorted()
        let choice: (store: ForecastStore, times: [Int64])
        do throws(QueryError) {
            if blockTimes.isEmpty {
                // Only `current` (or nothing): any model holding the place, for its header.
                let store = try ModelChoice.best(stores, latitude: latitude, longitude: longitude,
                                                 times: stores.compactMap { $0.runTimes.first }).store
                choice = (store, [])
            } else {
                // Hours the cycle does not cover are answered null; a request none of whose
                // hours the cycle covers is the client's error (400 naming the run's range).
                choice = try ModelChoice.best(stores, latitude: latitude, longitude: longitude, times: blockTimes)
            }
        } catch {
            throw APIError(query: error)
        }
        let store = choice.store
        var forecastTimes = choice.times
        if forecastTimes.isEmpty, let first = store.runTimes.first { forecastTimes = [first] }

        let statistics = parameters.daily.flatMap(\.statistics)
        let variables: [OutputVariable]
        do throws(QueryError) { variables = try store.resolveVariables(requested: parameters.hourly, daily: statistics) } catch { throw APIError(query: error) }
        let request = ForecastRequest(times: forecastTimes, variables: variables, units: parameters.units)
        let forecast = try Self.forecast(store: store, request: request, latitude: latitude, longitude: longitude)

        var daily: [DailyField: [Float]] = [:]
        if wantsDaily {
            let summary = DailyForecast(forecast: forecast.padded(to: times.dailyHours), variables: statistics,
                                        timeZone: parameters.timeZone, window: request.accumulationWindow)
            func values(_ statistic: DailyVariable) -> [Float] {
                let series = summary.values[statistic] ?? []
                return times.days.map { day in summary.dates.firstIndex(of: day).map { $0 < series.count ? series[$0] : .nan } ?? .nan }
            }
            for field in parameters.daily {
                switch field {
                case .statistic(let statistic): daily[field] = values(statistic)
                case .dominantWindDirection:
                    guard let uMean = field.statistics.first, let vMean = field.statistics.last else { continue }
                    let u = values(uMean), v = values(vMean)
                    daily[field] = zip(u, v).map { u, v in u.isNaN || v.isNaN ? .nan : windDirection(u: u, v: v) }
                }
            }
        }
        // `current` is a forecast of its own at the current quarter hour: asking for it never
        // changes the domain the hourly values come from. Null when the cycle does not cover it.
        var current: [OutputVariable: Float] = [:]
        var currentVariables = parameters.current
        for variable in parameters.currentWeather ? Self.currentWeatherVariables : [] where !currentVariables.contains(variable) {
            currentVariables.append(variable)
        }
        if !currentVariables.isEmpty {
            do throws(QueryError) { _ = try store.resolveVariables(requested: currentVariables, daily: []) } catch { throw APIError(query: error) }
            let values: PointForecast? = ModelChoice.covered([times.current], by: store).isEmpty ? nil
                : try? Self.forecast(store: store, request: ForecastRequest(times: [times.current], variables: currentVariables, units: parameters.units),
                                     latitude: latitude, longitude: longitude)
            for variable in currentVariables { current[variable] = values?.values[variable]?.first ?? .nan }
        }
        return PlaceForecast(forecast: forecast, hourly: forecast.padded(to: times.hourly), daily: daily, current: current)
    }

    /// The command line's path for one place: `AnswerAssembly` over `PointForecaster`.
    static func forecast(store: ForecastStore, request: ForecastRequest, latitude: Double, longitude: Double) throws(APIError) -> PointForecast {
        let assembly = AnswerAssembly(forecaster: PointForecaster(store: store), request: request, dailyVariables: [], timeZone: nil)
        switch assembly.answer(QueryPoint(latitude: latitude, longitude: longitude)).result {
        case .success(let value): return value
        case .failure(let error): throw APIError(query: error)
        }
    }

    /// The variables of the legacy `current_weather` block.
    static let currentWeatherVariables: [OutputVariable] = [.temperature2m, .windSpeed10m, .windDirection10m, .weatherCode]

    /// The chart of one hourly variable at one place (`/v1/meteogram.svg`).
    package func meteogram(_ parameters: ForecastParameters, now: Int64) throws(APIError) -> String {
        guard parameters.latitudes.count == 1 else { throw APIError("The chart is for one place: give one latitude and longitude") }
        guard parameters.hourly.count == 1 else { throw APIError("Parameter 'hourly' must name exactly one variable for the chart") }
        var parameters = parameters
        parameters.daily = []
        parameters.current = []
        parameters.currentWeather = false
        let times = try RequestTimes(parameters.times, zone: parameters.timeZone, now: now)
        let place = try place(latitude: parameters.latitudes[0], longitude: parameters.longitudes[0], parameters: parameters,
                              times: times, stores: try stores(for: parameters.model))
        return try Meteogram.svg(parameters: parameters, times: times.hourly,
                                 values: place.hourly.values[parameters.hourly[0]] ?? [], place: place)
    }

    /// Answers a whole request: the body and its content type.
    ///
    /// - Parameter now: seconds since 1970 (a parameter so tests can fix it).
    package func respond(_ parameters: ForecastParameters, now: Int64) throws(APIError) -> (body: [UInt8], contentType: String) {
        let started = DispatchTime.now().uptimeNanoseconds
        let times = try RequestTimes(parameters.times, zone: parameters.timeZone, now: now)
        let stores = try stores(for: parameters.model)
        var places: [PlaceForecast] = []
        places.reserveCapacity(parameters.latitudes.count)
        // Places one after another on this worker thread: many places in one request are
        // spread by the server's bounded concurrency across requests, not inside one.
        for (latitude, longitude) in zip(parameters.latitudes, parameters.longitudes) {
            places.append(try place(latitude: latitude, longitude: longitude, parameters: parameters, times: times, stores: stores))
        }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1_000_000
        let renderer = OpenMeteoRenderer(parameters: parameters, times: times, generationMilliseconds: elapsed)
        switch parameters.format {
        case .json: return (Array(renderer.json(places).utf8), "application/json; charset=utf-8")
        case .csv: return (Array(renderer.csv(places).utf8), "text/csv; charset=utf-8")
        case .flatbuffers:
            return (OpenMeteoFlatBuffers.encode(places, parameters: parameters, times: times, milliseconds: elapsed), "application/octet-stream")
        }
    }
}
