import ArgumentParser
import Catalog
import Foundation
import Meteorology
import PointQuery

/// `tilecast query`: point forecasts from the store.
struct QueryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Point forecasts from the store, by latitude and longitude.",
        discussion: """
        Picks the finest domain whose interior holds the place (a nest's edge cells are left
        out), interpolates bilinearly in grid space and linearly in time, and says where the
        answer came from (model, cycle, domain, grid spacing, grid position).

        Times are UTC unless they carry an offset. Without --time or --start: 24 hours from
        the current hour when the run covers it, otherwise from the run's first time.
        Precipitation and snowfall are amounts over the hour ending at each time.

        Daily summaries (--daily) use local days of --timezone (UTC by default): NAME_max,
        NAME_min, NAME_mean, NAME_sum for any variable, and weather_code (the day's most
        severe code).

        Exit codes: 0 success, 2 bad usage, 4 place or time outside the store, 5 store
        missing or damaged.

        Examples:
          tilecast query --store /tmp/s --lat 38.7223 --lon -9.1393 --format table
          tilecast query --store /tmp/s --lat 38.7223 --lon -9.1393 --start 2026-11-22T06Z --hours 12 \\
              --variables temperature_2m,precipitation --daily temperature_2m_max,precipitation_sum \\
              --timezone Europe/Lisbon --temperature-unit fahrenheit
          tilecast query --store /tmp/s --points places.csv --format csv
        """
    )

    @Option(help: "The store folder.")
    var store: String

    // `.unconditional` so that negative numbers ("--lon -9.1393") are taken as values.
    @Option(parsing: .unconditional, help: "Latitude, degrees north (-90..90).")
    var lat: Double?

    @Option(parsing: .unconditional, help: "Longitude, degrees east (-180..180 or 0..360).")
    var lon: Double?

    @Option(help: "A CSV of places (UTF-8; - for standard input): a header with lat,lon and optionally time and name.")
    var points: String?

    @Option(help: "One time (ISO 8601, e.g. 2026-11-22T06:00Z).")
    var time: String?

    @Option(help: "First time of an hourly series (ISO 8601).")
    var start: String?

    // `.unconditional` so that "--hours -1" reaches validate() and its message.
    @Option(parsing: .unconditional, help: "Number of hourly times, 1..960 (default 24; 1 with a per-row time in --points).")
    var hours: Int?

    @Option(help: "Variables, comma-separated (default: all). Raw WRF names (T2, U10, ...) are accepted.")
    var variables: String?

    @Option(help: "Daily summaries, comma-separated: e.g. temperature_2m_max,precipitation_sum,weather_code.")
    var daily: String?

    @Option(help: "IANA time zone for local times and daily summaries, e.g. Europe/Lisbon.")
    var timezone: String?

    @Option(help: "celsius or fahrenheit.")
    var temperatureUnit: String = "celsius"

    @Option(help: "kmh, ms, mph or kn.")
    var windSpeedUnit: String = "kmh"

    @Option(help: "mm or inch.")
    var precipitationUnit: String = "mm"

    @Option(help: "json, csv or table.")
    var format: String = "json"

    @Option(help: "Cycle to read, e.g. 2026-11-22T00Z (default: latest).")
    var cycle: String = "latest"

    @Option(help: "Model in the store (default: the only one).")
    var model: String?

    @Option(parsing: .unconditional, help: "Cells left out along the edges of a nest inside a coarser domain (WRF's relaxation zone), 0 or more.")
    var nestMargin: Double = 5

    func validate() throws {
        if points == nil && (lat == nil || lon == nil) { throw ValidationError("give --lat and --lon, or --points FILE.csv") }
        if points != nil && (lat != nil || lon != nil) { throw ValidationError("give either --lat/--lon or --points, not both") }
        if time != nil && (start != nil || hours != nil) { throw ValidationError("--time asks for one time; do not combine it with --start or --hours") }
        if let hours, hours < 1 || hours > 24 * 40 { throw ValidationError("--hours \(hours): expected a number of hours, 1..960") }
        if TemperatureUnit(rawValue: temperatureUnit) == nil { throw ValidationError("--temperature-unit: expected celsius or fahrenheit") }
        if WindSpeedUnit(rawValue: windSpeedUnit) == nil { throw ValidationError("--wind-speed-unit: expected kmh, ms, mph or kn") }
        if PrecipitationUnit(rawValue: precipitationUnit) == nil { throw ValidationError("--precipitation-unit: expected mm or inch") }
        if ForecastRenderer.Format(rawValue: format) == nil { throw ValidationError("--format: expected json, csv or table") }
        if let timezone, TimeZone(identifier: timezone) == nil { throw ValidationError("--timezone \(timezone): not an IANA time zone (e.g. Europe/Lisbon)") }
        for (option, text) in [("--time", time), ("--start", start)] {
            if let text, TimeParsing.parse(text) == nil { throw ValidationError("\(option) \(text): \(TimeParsing.problem(text))") }
        }
        if !(nestMargin.isFinite && nestMargin >= 0) { throw ValidationError("--nest-margin \(nestMargin): expected a number of cells, 0 or more") }
        if cycle != "latest" && ModelTime.parseUser(cycle) == nil {
            throw ValidationError("--cycle \(cycle): expected latest or a UTC time such as 2026-11-22T00Z")
        }
        if let lat, !(lat.isFinite && abs(lat) <= 90) { throw ValidationError("--lat \(lat): expected -90..90") }
        if let lon, !(lon.isFinite && lon >= -180 && lon <= 360) { throw ValidationError("--lon \(lon): expected -180..360") }
        _ = try parsedVariables()
        _ = try parsedDaily()
    }

    /// The variables asked for; nil when not given (the cycle's defaults).
    func parsedVariables() throws -> [OutputVariable]? {
        guard let variables else { return nil }
        var result: [OutputVariable] = []
        for name in variables.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !name.isEmpty {
            guard let parsed = OutputVariable.parse(name) else {
                throw ValidationError("--variables: unknown variable \"\(name)\"; known: \(OutputVariable.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            for variable in parsed where !result.contains(variable) { result.append(variable) }
        }
        if result.isEmpty { throw ValidationError("--variables: no variable named; leave the option out for all the cycle holds") }
        return result
    }

    func parsedDaily() throws -> [DailyVariable] {
        guard let daily else { return [] }
        return try daily.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.map { name in
            guard let parsed = DailyVariable.parse(name) else {
                throw ValidationError("--daily: unknown summary \"\(name)\"; use VARIABLE_max, _min, _mean, _sum or weather_code")
            }
            return parsed
        }
    }

    func run() throws {
        let dailyVariables = try parsedDaily()
        let requestedVariables = try parsedVariables()
        let units = OutputUnits(temperature: TemperatureUnit(rawValue: temperatureUnit) ?? .celsius,
                                windSpeed: WindSpeedUnit(rawValue: windSpeedUnit) ?? .kmh,
                                precipitation: PrecipitationUnit(rawValue: precipitationUnit) ?? .mm)
        let zone = timezone.flatMap(TimeZone.init(identifier:))
        let forecastStore: ForecastStore
        do { forecastStore = try ForecastStore(root: store, model: model, cycle: cycle, nestMargin: nestMargin) } catch {
            throw Failure(code: error.exitCode, message: error.description)
        }
        let outputVariables: [OutputVariable]
        do { outputVariables = try forecastStore.resolveVariables(requested: requestedVariables, daily: dailyVariables) } catch {
            throw Failure(code: error.exitCode, message: error.description)
        }
        let times = defaultTimes(store: forecastStore, zone: zone, daily: !dailyVariables.isEmpty)
        let request = ForecastRequest(times: times, variables: outputVariables, units: units)
        var places: [(point: QueryPoint, name: String?)] = []
        if let points {
            do {
                for row in try PointsFile.read(path: points) {
                    var point = row.point
                    if let time = row.time { point.times = ForecastRequest.hourly(from: time, hours: hours ?? 1) }
                    places.append((point, row.name))
                }
            } catch { throw Failure(code: error.exitCode, message: error.description) }
        } else if let lat, let lon {
            places.append((QueryPoint(latitude: lat, longitude: lon), nil))
        }
        let forecaster = PointForecaster(store: forecastStore)
        let results = forecaster.forecast(places.map(\.point), request: request)
        let answers = zip(places, results).map { place, result in
            PlaceAnswer(name: place.name, latitude: place.point.latitude, longitude: place.point.longitude, line: place.point.line,
                        result: result,
                        daily: dailyVariables.isEmpty ? nil : (try? result.get()).map {
                            DailyForecast(forecast: $0, variables: dailyVariables, timeZone: zone ?? TimeZone(identifier: "UTC") ?? .current)
                        })
        }
        let renderer = ForecastRenderer(timeZone: zone, dailyVariables: dailyVariables)
        let failures = results.compactMap { result -> QueryError? in if case .failure(let error) = result { return error } else { return nil } }
        if points == nil, let error = failures.first {
            throw Failure(code: error.exitCode, message: error.description)
        }
        print(renderer.render(answers, format: ForecastRenderer.Format(rawValue: format) ?? .json, single: points == nil))
        if let error = failures.first {
            throw Failure(code: error.exitCode, message: "\(failures.count) of \(places.count) places had no forecast; first: \(error.description)")
        }
    }

    /// The requested times; by default 24 hours from the current hour when the run covers
    /// it, else from the run's first time (said on stderr). With daily summaries, whole local
    /// days are covered, clipped to the run.
    func defaultTimes(store: ForecastStore, zone: TimeZone?, daily: Bool) -> [Int64] {
        if let time, let parsed = TimeParsing.parse(time) { return [parsed] }
        let run = store.runTimes
        let count = hours ?? 24
        if let start, let parsed = TimeParsing.parse(start) { return ForecastRequest.hourly(from: parsed, hours: count) }
        let now = Int64(Date().timeIntervalSince1970) / 3600 * 3600
        guard let first = run.first, let last = run.last else { return [now] }
        if now >= first && now <= last { return ForecastRequest.hourly(from: now, hours: count).filter { $0 <= last } }
        FileHandle.standardError.write(Data("note: the current hour is outside the run (\(ModelTime.isoMinutes(first))..\(ModelTime.isoMinutes(last))); answering from its first time\n".utf8))
        let hoursAvailable = Int((last - first) / 3600) + 1
        return ForecastRequest.hourly(from: first, hours: min(count, hoursAvailable))
    }
}
