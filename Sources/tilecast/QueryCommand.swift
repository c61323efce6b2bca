import ArgumentParser
import Catalog
import Foundation
import Meteorology
import PointQuery
#if TILECAST_REMOTE
import ObjectStore
#endif
#if canImport(Glibc)
import Glibc
#endif

/// `tilecast query`: point forecasts from the store.
struct QueryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Point forecasts from the store, by latitude and longitude.",
        discussion: """
        Picks the finest domain whose interior holds the place (the edge cells of a nest inside a coarser domain are left out; an outermost domain answers to its edge, and up to 0.01 cell beyond it, as coordinates typed to 4 decimals land), interpolates bilinearly in grid space and linearly in time, and says where the answer came from (model, cycle, domain, grid spacing, grid position).

        Without --model, each place is answered by the best match: the finest domain of any model in the store that holds the place and every requested time; the answer names the model. --model pins one. With several models and no --variables, the defaults every model stores are answered.

        Times are UTC unless they carry an offset (+HH:MM), to the minute. Without --time or --start: 24 hours from the current hour when the run covers it, otherwise from the run's first time. Precipitation and snowfall are amounts over the hour ending at each time. Without --variables: every variable the cycle stores; asking for one it does not store is an error listing what it holds.

        Daily summaries (--daily) use local days of --timezone (UTC by default): NAME_max, NAME_min, NAME_mean, NAME_sum for any variable, and weather_code (the day's most severe code). With --format csv they follow the hourly rows as a second table, after a blank line.

        Exit codes: 0 success, 2 bad usage, 4 place or time outside the store, 5 store missing or damaged.

        Examples:
          tilecast query --store /tmp/s --lat 38.7223 --lon -9.1393 --format table
          tilecast query --store /tmp/s --lat 38.7223 --lon -9.1393 --start 2026-11-22T06Z --hours 12 \\
              --variables temperature_2m,precipitation --daily temperature_2m_max,precipitation_sum \\
              --timezone Europe/Lisbon --temperature-unit fahrenheit
          tilecast query --store /tmp/s --points places.csv --format csv
          tilecast query --store /tmp/s --points - --cycle 2026-11-22T00:00Z < places.csv
          tilecast query --store https://example.org/store --model wrf --lat 38.72 --lon -9.14
          tilecast query --store s3://bucket/store --model wrf --lat 38.72 --lon -9.14

        A remote store (s3://BUCKET/PREFIX, or http(s):// for a store folder behind a web server) is read with ranged requests by tilecast-remote, installed beside tilecast; --model is then required. S3 credentials and region come from the AWS environment variables or shared files.
        """
    )

    @Option(help: "The store folder, or a remote store: s3://BUCKET/PREFIX, https://HOST/PATH.")
    var store: String

    // `.unconditional` so that negative numbers ("--lon -9.1393") are taken as values.
    @Option(parsing: .unconditional, help: "Latitude, degrees north (-90..90).")
    var lat: Double?

    @Option(parsing: .unconditional, help: "Longitude, degrees east (-180..180 or 0..360).")
    var lon: Double?

    @Option(help: "A CSV of places (UTF-8; - for standard input): a header with lat,lon and optionally time, name and elevation.")
    var points: String?

    // `.unconditional` so that "--elevation -20" is taken as a value.
    @Option(parsing: .unconditional, help: "Elevation of the place, metres (-500..9000; nan: the model terrain): temperatures and surface pressure are moved to it from the model terrain by the standard lapse rate (docs/VARIABLES.md).")
    var elevation: String?

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

    @Option(help: "Temperature unit.")
    var temperatureUnit: TemperatureUnit = .celsius

    @Option(help: "Wind speed unit.")
    var windSpeedUnit: WindSpeedUnit = .kmh

    @Option(help: "Precipitation unit (snowfall: cm, or inch with inch).")
    var precipitationUnit: PrecipitationUnit = .mm

    @Option(help: "Output format.")
    var format: ForecastRenderer.Format = .json

    @Option(help: "Cycle to read, e.g. 2026-11-22T00Z (default: latest).")
    var cycle: String = "latest"

    @Option(help: "Model in the store (default: the best match, the finest domain of any model holding the place and times).")
    var model: String?

    @Option(parsing: .unconditional, help: "Cells left out along the edges of a nest inside a coarser domain (WRF's relaxation zone), 0 or more.")
    var nestMargin: Double = 5

    @Option(help: "S3 endpoint of an s3:// store (default: AWS_ENDPOINT_URL, else AWS's own).")
    var s3Endpoint: String?

    @Option(help: "S3 region of an s3:// store (default: AWS_REGION, the shared config, us-east-1).")
    var s3Region: String?

    func validate() throws {
        if points == nil && (lat == nil || lon == nil) { throw ValidationError("give --lat and --lon, or --points FILE.csv") }
        if points != nil && (lat != nil || lon != nil) { throw ValidationError("give either --lat/--lon or --points, not both") }
        if time != nil && (start != nil || hours != nil) { throw ValidationError("--time asks for one time; do not combine it with --start or --hours") }
        if let hours, hours < 1 || hours > 24 * 40 { throw ValidationError("--hours \(hours): expected a number of hours, 1..960") }
        if let timezone, TimeZone(identifier: timezone) == nil { throw ValidationError("--timezone \(timezone): not an IANA time zone (e.g. Europe/Lisbon)") }
        for (option, text) in [("--time", time), ("--start", start)] {
            if let text, TimeParsing.parse(text) == nil { throw ValidationError("\(option) \(text): \(TimeParsing.problem(text))") }
        }
        if !(nestMargin.isFinite && nestMargin >= 0) { throw ValidationError("--nest-margin \(nestMargin): expected a number of cells, 0 or more") }
        if cycle != "latest" && ModelTime.parseUser(cycle) == nil {
            throw ValidationError("--cycle \(cycle): expected latest or a UTC time such as 2026-11-22T00Z")
        }
        if let lat, !QueryPoint.isValid(latitude: lat) { throw ValidationError("--lat \(lat): expected -90..90") }
        if let lon, !QueryPoint.isValid(longitude: lon) { throw ValidationError("--lon \(lon): expected -180..360") }
        if elevation != nil && points != nil { throw ValidationError("--elevation is for --lat/--lon; give a points file an elevation column instead") }
        _ = try parsedElevation()
        _ = try parsedVariables()
        _ = try parsedDaily()
    }

    /// The requested elevation in metres; nil when not given or "nan" (the model terrain).
    func parsedElevation() throws -> Double? {
        guard let elevation else { return nil }
        switch QueryPoint.parseElevation(elevation) {
        case .success(let value): return value
        case .failure(let error): throw ValidationError("--\(error.description)")
        }
    }

    /// The variables asked for; nil when not given (the cycle's defaults).
    func parsedVariables() throws -> [OutputVariable]? {
        guard let variables else { return nil }
        var result: [OutputVariable] = []
        for name in variables.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !name.isEmpty {
            if let refusal = OutputVariable.refusal(name) { throw ValidationError("--variables: \(refusal)") }
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
            if let refusal = OutputVariable.refusal(name) { throw ValidationError("--daily: \(refusal)") }
            guard let parsed = DailyVariable.parse(name) else {
                throw ValidationError("--daily: unknown summary \"\(name)\"; use VARIABLE_max, _min, _mean, _sum, weather_code, precipitation_hours, daylight_duration, sunrise, sunset or wind_direction_10m_dominant")
            }
            return parsed
        }
    }

    func run() throws {
        let dailyVariables = try parsedDaily()
        let zone = timezone.flatMap(TimeZone.init(identifier:))
        #if TILECAST_REMOTE
        // A remote store cannot be listed: one model, named with --model.
        let remote = try RemoteQuery.open(store: store, model: model, cycle: cycle, nestMargin: nestMargin, endpoint: s3Endpoint, region: s3Region)
        let stores = [remote.store]
        #else
        // A bucket or web address: tilecast-remote answers, with this same code (B4: the HTTP
        // client stays out of this binary).
        if RemoteBinary.isRemote(store) { try RemoteBinary.exec(Array(CommandLine.arguments.dropFirst())) }
        if s3Endpoint != nil || s3Region != nil {
            throw Failure(code: Failure.usage, message: "--s3-endpoint and --s3-region apply to an s3:// store only")
        }
        // Without --model, every model of the store: each place is answered by the best match.
        let stores = try querying { () throws(QueryError) in
            try ModelChoice.open(root: store, model: model, cycle: cycle, nestMargin: nestMargin)
        }
        #endif
        let requested = try parsedVariables()
        let variables = try querying { () throws(QueryError) in try ModelChoice.resolveVariables(stores, requested: requested, daily: dailyVariables) }
        let chosen = QueryTimes.choose(time: time.flatMap(TimeParsing.parse), start: start.flatMap(TimeParsing.parse), hours: hours,
                                       run: ModelChoice.runTimes(stores), now: Int64(Date().timeIntervalSince1970))
        if let note = chosen.note { FileHandle.standardError.write(Data("note: \(note)\n".utf8)) }
        let request = ForecastRequest(times: chosen.times, variables: variables,
                                      units: OutputUnits(temperature: temperatureUnit, windSpeed: windSpeedUnit, precipitation: precipitationUnit))
        let assembly = AnswerAssembly(forecasters: stores.map(PointForecaster.init(store:)), request: request,
                                      dailyVariables: dailyVariables, timeZone: zone)
        let renderer = ForecastRenderer(timeZone: zone, dailyVariables: dailyVariables, times: request.times)
        let output = StandardOutput()
        guard let points else {
            // One place: an error is the whole answer, on stderr with its exit code.
            #if TILECAST_REMOTE
            remote.prefetch(latitude: lat ?? .nan, longitude: lon ?? .nan, times: request.times, variables: variables)
            #endif
            let answer = assembly.answer(QueryPoint(latitude: lat ?? .nan, longitude: lon ?? .nan, elevation: try parsedElevation()))
            if case .failure(let error) = answer.result { throw Failure(code: error.exitCode, message: error.description) }
            var writer = ForecastWriter(renderer: renderer, format: format, single: true, variables: variables, names: false, sink: output.write)
            writer.write(answer)
            writer.finish()
            output.write("\n")
            output.flush()
            return
        }
        let places = try querying { () throws(QueryError) in try PointsFile.read(path: points) }.map { row -> (point: QueryPoint, name: String?) in
            var point = row.point
            if let time = row.time { point.times = ForecastRequest.hourly(from: time, hours: hours ?? 1) }
            return (point, row.name)
        }
        #if TILECAST_REMOTE
        for place in places {
            remote.prefetch(latitude: place.point.latitude, longitude: place.point.longitude,
                            times: place.point.times ?? request.times, variables: variables)
        }
        #endif
        var writer = ForecastWriter(renderer: renderer, format: format, single: false, variables: variables,
                                    names: places.contains { $0.name != nil }, sink: output.write)
        var failures = 0
        var firstFailure: QueryError?
        assembly.answers(places, render: writer.layout.render) { answer, rendered in
            if case .failure(let error) = answer.result {
                failures += 1
                if firstFailure == nil { firstFailure = error }
            }
            writer.write(rendered)
        }
        writer.finish()
        output.write("\n")
        output.flush()
        if let error = firstFailure {
            throw Failure(code: error.exitCode, message: "\(failures) of \(places.count) places had no forecast; first: \(error.description)")
        }
    }

    /// Runs library code, turning its `QueryError` into a `Failure` with SPEC 5's exit code.
    private func querying<T>(_ body: () throws(QueryError) -> T) throws -> T {
        do throws(QueryError) { return try body() } catch { throw Failure(code: error.exitCode, message: error.description) }
    }
}

/// Standard output through one buffer, written in large blocks (answers are streamed place by
/// place; `print` per piece would make a system call or lock per piece).
final class StandardOutput {
    private var buffer: [UInt8] = []
    private let limit = 1 << 16

    init() { buffer.reserveCapacity(limit) }

    func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= limit { flush() }
    }

    func write(_ bytes: [UInt8]) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= limit { flush() }
    }

    func flush() {
        buffer.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(STDOUT_FILENO, raw.baseAddress.map { $0 + offset }, raw.count - offset)
                if written < 0 { if errno == EINTR { continue }; return }
                offset += written
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
