import Dispatch
import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import ObjectStore
import PointQuery
import Prometheus
import ServiceLifecycle
import Synchronization

/// What `tilecast serve` is started with.
package struct ServerConfiguration: Sendable {
    package var storeRoot: String
    package var host: String = "127.0.0.1"
    /// 0: any free port (tests); the bound one is handed to `onRunning`.
    package var port: Int = 8080
    /// Forecast requests computed at once; more wait for none and get 503 (memory stays
    /// bounded by this times one request's size: at most 1000 places x 16 days, ~50 MB of JSON
    /// with every variable; 64: the connections of a busy front, the load of benchmark S1 in
    /// benchmarks/RESULTS.md, all served).
    package var maxInFlight: Int = 64
    /// Longest request target accepted; longer is 414.
    package var maxURLBytes: Int = 8192
    /// Seconds since 1970 (a parameter so tests can fix "now").
    package var now: @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }
    /// The store's named places for the page (`--places places.csv`), in the file's order.
    package var places: [NamedPlace] = []
    /// When new cycles are expected: the page warns of a late one (`/v1/cycles`).
    package var schedule = CycleSchedule()
    /// The lagged members a probability is the mean of (`serve --members`).
    package var members = LaggedMembers.defaultCount
    /// `--warnings FILE`: the rules `/v1/warnings` answers by; nil: it says there are none.
    package var warningRules: WarningRules?
    /// The longest `Cache-Control: max-age` of an answer (`--max-age`, seconds); shorter when
    /// the next cycle is due sooner or a block moves with the clock (`AnswerValidators`).
    package var maxAge: Int = 3600
    /// The answers' freshness bounds, from `maxAge` and the schedule.
    var freshness: AnswerValidators.Freshness {
        AnswerValidators.Freshness(limit: maxAge, interval: Int64(schedule.intervalHours * 3600))
    }
    /// Test hook: awaited inside a forecast's in-flight slot, before the work (nil in use).
    package var beforeForecast: (@Sendable () async -> Void)?
    /// A remote store's cycles (`--store s3://...` or `https://...`); nil for a folder.
    package var remote: RemoteCycles?
    /// Connections held at once at most; the file-descriptor limit lowers it further
    /// (`DescriptorLimit.connections`). Each idle connection costs memory too (docs/RELIABILITY.md
    /// gives the figure), so the default stays far below a raised limit.
    package var maxConnections: Int = 4096
    /// Bytes of answers held for sockets that have not taken them, all connections together;
    /// past it new forecasts get 503 (a client that never reads pins its whole answer).
    package var maxQueuedBytes: Int = 96 << 20
    /// A connection whose socket takes none of its answer's bytes for this long is closed.
    package var writeTimeout: Duration = .seconds(30)
    /// A connection with no request for this long is closed.
    package var idleTimeout: Duration = .seconds(60)
    /// On a remote store: requests reading from the object server at once (`RemoteReadGate`);
    /// requests whose places are cached never wait for them.
    package var maxRemoteReads: Int = 8
    /// `--access-log`: where each request's line goes; nil: standard error (`AccessLog.standardError`).
    package var accessLog: AccessLog?
    /// `--api-keys FILE`: the keys every API asks for (`APIKeyMiddleware`); nil: keys are ignored.
    package var apiKeys: APIKeys?

    package init(storeRoot: String, host: String = "127.0.0.1", port: Int = 8080) {
        self.storeRoot = storeRoot
        self.host = host
        self.port = port
    }
}

/// A place the page offers by name.
package struct NamedPlace: Sendable, Equatable {
    package let name: String
    package let latitude: Double
    package let longitude: Double

    package init(name: String, latitude: Double, longitude: Double) {
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Reads `--places`: a CSV with a header naming name, latitude and longitude (the points
    /// file's rules: `lat`/`lon` accepted, quotes protect commas, `#` lines skipped).
    ///
    /// - Throws: `QueryError.badRequest` naming the file and the line at fault.
    package static func read(path: String) throws(QueryError) -> [NamedPlace] {
        let rows = try PointsFile.read(path: path)
        var places: [NamedPlace] = []
        for row in rows {
            let line = row.point.line.map { ":\($0)" } ?? ""
            guard let name = row.name, !name.isEmpty else {
                throw .badRequest("\(path)\(line): no name; expected name,latitude,longitude")
            }
            places.append(NamedPlace(name: name, latitude: row.point.latitude, longitude: row.point.longitude))
        }
        return places
    }
}

/// The Prometheus metrics: requests by route and status, latency by route, and the age of
/// the cycle each model serves (set when scraped).
final class ServerMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    static let routes: Set<String> = ["/v1/forecast", "/v1/meteogram.svg", "/v1/cycles", "/v1/warnings", "/", "/health", "/metrics",
                                      "/data/2.5/weather", "/data/2.5/forecast", "/data/2.5/forecast/daily", "/data/3.0/onecall",
                                      "/v7/weather/now", "/v7/weather/24h", "/v7/weather/72h", "/v7/weather/168h", "/v7/weather/3d",
                                      "/v7/weather/7d", "/v7/weather/10d", "/v7/weather/15d", "/v7/minutely/5m", "/v7/warning/now", "/v1/search"]
    static let latencyBuckets: [Duration] = [.microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2),
                                             .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
                                             .milliseconds(100), .milliseconds(250), .milliseconds(1000), .seconds(5)]

    /// A metric's name (base and unit joined by "_", as Prometheus names it) with its help text.
    static func descriptor(_ base: String, unit: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: base, unitName: unit, helpText: help)
    }

    /// Route labels are the known paths or "other", so a client cannot grow the label set.
    static func route(_ path: String) -> String {
        if routes.contains(path) { return path }
        // Caiyun's paths hold the token and place: labelled by their part alone (5 labels, `.json` with its part).
        if path.hasPrefix("/v2.5/"), let last = path.split(separator: "/").last,
           let part = CaiyunPart(rawValue: last.hasSuffix(".json") ? String(last.dropLast(5)) : String(last)) {
            return "/v2.5/{token}/{place}/" + part.rawValue
        }
        return "other"
    }

    /// Each (route, status)'s series once made: the registry's lookup by name and labels (its
    /// lock, the labels' strings) was a visible share of a request (S1).
    private struct Series: Sendable {
        let counter: Counter
        let latency: DurationHistogram
    }
    private let series = Mutex<[String: [Int: Series]]>([:])

    func record(route: String, status: Int, duration: Duration) {
        let known = series.withLock { $0[route]?[status] }
        let made = known ?? Series(
            counter: registry.makeCounter(descriptor: ServerMetrics.descriptor("tilecast_http_requests", unit: "total", "Requests answered, by route and status."), labels: [("route", route), ("status", String(status))]),
            latency: registry.makeDurationHistogram(descriptor: ServerMetrics.descriptor("tilecast_http_request_duration", unit: "seconds", "Time to answer a request, by route."), labels: [("route", route)],
                                                    buckets: Self.latencyBuckets))
        if known == nil { series.withLock { $0[route, default: [:]][status] = made } }
        made.counter.increment()
        made.latency.record(duration)
    }

    /// A request target as the log prints it: its first 300 bytes (cut on UTF-8 bytes: a cut
    /// by Characters walked the whole target, a visible share of a request, S1).
    static func logged(_ target: String) -> Substring {
        let utf8 = target.utf8
        // Keys never reach the log (`APIKeys.redacted`).
        guard utf8.count > 300 else { return APIKeys.redacted(target[...]) }
        return APIKeys.redacted(Substring(utf8.prefix(300)))
    }

    /// The cycle-age series of the cycles served now, keyed by model and cycle: those of
    /// cycles no longer served (replaced, pruned) are dropped at the next scrape, so the
    /// series stay as many as the models, not every cycle ever served.
    private let cycleGauges = Mutex<[String: Gauge]>([:])

    func recordCycles(_ stores: [ForecastStore], now: Int64) {
        var served: [String: Gauge] = [:]
        for store in stores {
            guard let cycle = store.domains.first?.metadata.cycle else { continue }
            let gauge = registry.makeGauge(descriptor: ServerMetrics.descriptor("tilecast_cycle_age", unit: "seconds", "Age of the cycle each model serves."), labels: [("model", store.model), ("cycle", store.cycle)])
            gauge.set(Double(now - cycle))
            served[store.model + "\u{0}" + store.cycle] = gauge
        }
        let gone = cycleGauges.withLock { known -> [Gauge] in
            let gone = known.filter { served[$0.key] == nil }.map(\.value)
            known = served
            return gone
        }
        for gauge in gone { registry.unregisterGauge(gauge) }
    }

    /// How close the server is to its descriptor and connection limits, and the bytes of
    /// answers waiting for slow sockets, set when scraped.
    func recordConnections(_ ledger: ConnectionLedger) {
        if let open = DescriptorLimit.openCount() {
            registry.makeGauge(descriptor: ServerMetrics.descriptor("tilecast_open_descriptors", unit: "", "File descriptors the server holds open.")).set(Double(open))
        }
        registry.makeGauge(descriptor: ServerMetrics.descriptor("tilecast_descriptor_limit", unit: "", "The server's file-descriptor limit.")).set(Double(DescriptorLimit.current()))
        registry.makeGauge(descriptor: ServerMetrics.descriptor("tilecast_open_connections", unit: "", "Client connections open.")).set(Double(ledger.openConnections))
        registry.makeGauge(descriptor: ServerMetrics.descriptor("tilecast_max_connections", unit: "", "Client connections held at most.")).set(Double(ledger.maxConnections))
        registry.makeGauge(descriptor: ServerMetrics.descriptor("tilecast_queued_answer", unit: "bytes", "Bytes of answers made or waiting for slow clients.")).set(Double(ledger.queuedBytes))
        registry.makeGauge(descriptor: ServerMetrics.descriptor("tilecast_max_queued_answer", unit: "bytes", "The answer budget (--max-queued-mb).")).set(Double(ledger.maxQueuedBytes))
        registry.makeGauge(descriptor: ServerMetrics.descriptor("tilecast_connections_closed", unit: "", "Connections the server closed, by reason."), labels: [("reason", "idle_near_limit")]).set(Double(ledger.idleConnectionsClosed))
        registry.makeGauge(descriptor: ServerMetrics.descriptor("tilecast_connections_closed", unit: "", "Connections the server closed, by reason."), labels: [("reason", "write_timeout")]).set(Double(ledger.stalledConnectionsClosed))
    }
}

/// The store folder as the server was given it and as the system resolves it: error reasons
/// (a damaged file's path, a link that does not resolve) say `STORE/wrf/...` instead of the
/// server's absolute paths.
struct ServerPaths: Sendable {
    let prefixes: [String]

    init(storeRoot: String) {
        var prefixes: [String] = []
        for path in [storeRoot, URL(fileURLWithPath: storeRoot).standardizedFileURL.path,
                     URL(fileURLWithPath: storeRoot).resolvingSymlinksInPath().path] where !path.isEmpty && !prefixes.contains(path) {
            prefixes.append(path.hasSuffix("/") ? String(path.dropLast()) : path)
        }
        // Longest first, so that a prefix of another is not replaced inside it.
        // Absolute paths only: a relative `--store store` would turn every "store" into STORE.
        self.prefixes = prefixes.filter { $0.hasPrefix("/") && $0.count > 1 }.sorted { $0.count > $1.count }
    }

    func redacted(_ text: String) -> String {
        prefixes.reduce(text) { $0.replacingOccurrences(of: $1, with: "STORE") }
    }
}

/// An answer's bytes, counted against the answer budget until written or dropped.
final class QueuedAnswer: Sendable {
    static let piece = 64 << 10
    let bytes: [UInt8]
    let ledger: ConnectionLedger

    init(_ bytes: [UInt8], ledger: ConnectionLedger) {
        self.bytes = bytes
        self.ledger = ledger
        ledger.charge(bytes.count)
    }

    deinit { ledger.release(bytes.count) }

    func write(to writer: inout any ResponseBodyWriter) async throws {
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + Self.piece)
            try await writer.write(ByteBuffer(bytes: bytes[offset..<end]))
            offset = end
        }
        try await writer.finish(nil)
    }
}

/// Counts forecast requests being computed, refusing past the limit.
final class InFlight: Sendable {
    private let count = Atomic<Int>(0)
    let limit: Int
    init(limit: Int) { self.limit = limit }

    func enter() -> Bool {
        let after = count.add(1, ordering: .relaxed).newValue
        if after > limit {
            count.subtract(1, ordering: .relaxed)
            return false
        }
        return true
    }

    func leave() { count.subtract(1, ordering: .relaxed) }
}

/// Access log, metrics, the URL limit, methods and CORS (`HTTPMethods`) and errors in
/// Open-Meteo's shape, around every route.
struct FrontMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext
    let metrics: ServerMetrics
    /// Warnings and errors of requests (a redacted reason, an internal error).
    let logger: Logger
    /// One line a request, written in batches (`AccessLog`).
    let accessLog: AccessLog
    let maxURLBytes: Int
    /// The server's own folders, named by what they are in answers.
    let paths: ServerPaths

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let clock = ContinuousClock()
        let started = clock.now
        let target = request.uri.string
        var response: Response
        if target.utf8.count > maxURLBytes {
            response = APIError(.uriTooLong, "URL longer than \(maxURLBytes) bytes: send fewer places or variables a request").response
        } else if let early = HTTPMethods.early(request) {
            response = early
        } else {
            do {
                response = try await next(request, context)
            } catch let error as APIError {
                // The client is not told where the store lives; the log keeps the full reason.
                let reason = paths.redacted(error.reason)
                if reason != error.reason { logger.warning("\(error.status.code) for \(ServerMetrics.logged(target)): \(error.reason)") }
                response = APIError(error.status, reason).response
            } catch let error as HTTPResponseError {
                // Hummingbird's own refusals (no such route, wrong method): same shape.
                let status = error.status
                response = APIError(status, status == .notFound ? "Not found: \(request.uri.path)" : status.reasonPhrase).response
            } catch {
                // Nothing a client sends gets here; a bug does, and is logged with the request.
                logger.error("internal error for \(ServerMetrics.logged(target)): \(error)")
                response = APIError(.internalServerError, "internal error").response
            }
        }
        response = HTTPMethods.finished(response, for: request)
        let duration = clock.now - started
        metrics.record(route: ServerMetrics.route(request.uri.path), status: response.status.code, duration: duration)
        // Hundredths of a millisecond, formatted by hand (String(format:) goes through Foundation).
        if accessLog.isOn {
            let hundredths = duration.components.seconds * 100_000 + duration.components.attoseconds / 10_000_000_000_000
            accessLog.record(method: request.method.rawValue, target: ServerMetrics.logged(target), status: Int(response.status.code),
                             hundredths: hundredths)
        }
        return response
    }
}

/// `tilecast serve`: Open-Meteo's `/v1/forecast`, `/health` and `/metrics` over the store.
///
/// Scheduling: Hummingbird reads and writes sockets on SwiftNIO's event loops and runs each
/// route handler as a Swift task on the cooperative pool (one thread per core). A forecast is
/// synchronous CPU work with blocking `pread`s, so a handler never computes it itself: it hands
/// the whole request to a GCD worker (`compute`) and awaits the result, leaving the event loops
/// and the cooperative pool free to accept, parse and answer other requests (/health, /metrics,
/// refusals) while forecasts run. `InFlight` bounds how many are computed or queued at once, so
/// a flood gets 503s instead of an unbounded queue.
///
/// The hop costs one thread wake-up a request. Computing inline on the cooperative pool was
/// measured against it under wrk (64 and 1 connections, interleaved runs): no difference in
/// CPU per request or p50 beyond the machine's noise, and a worse p99 at one connection, so the
/// hop stays: a pread that waits on a cold disk then stalls a GCD worker, not one of the few
/// threads every async task in the process shares. Per request the server spends most of its
/// time in SwiftNIO and the kernel's TCP path (a static page costs ~57 us of CPU a request),
/// then in the interpolation and in writing the JSON.
package struct ForecastServer: Sendable {
    package let configuration: ServerConfiguration
    let engine: ForecastEngine
    let metrics = ServerMetrics()
    let inFlight: InFlight
    let logger: Logger
    let accessLog: AccessLog
    /// Connections and the answer bytes they hold.
    package let ledger: ConnectionLedger
    /// On a remote store: the requests reading from the object server at once.
    let remoteReads: RemoteReadGate?

    package init(configuration: ServerConfiguration, logger: Logger? = nil) {
        self.configuration = configuration
        accessLog = configuration.accessLog ?? AccessLog.standardError
        // Read the executable now, not on the first request (its ETag needs it).
        _ = BuildIdentity.current
        engine = ForecastEngine(cycles: CycleCache(root: configuration.storeRoot, remote: configuration.remote), members: configuration.members)
        inFlight = InFlight(limit: max(1, configuration.maxInFlight))
        remoteReads = configuration.remote.map { RemoteReadGate(limit: configuration.maxRemoteReads, seconds: $0.client.limits.querySeconds) }
        // The kept cycles' files stay free of connections: a request reaching back over every
        // kept cycle (`past_days=92`) holds them all open at once.
        let storeFiles = configuration.remote == nil ? CycleCache.keptFiles(root: configuration.storeRoot) : 0
        ledger = ConnectionLedger(maxConnections: DescriptorLimit.connections(limit: DescriptorLimit.current(), ceiling: configuration.maxConnections,
                                                                              storeFiles: storeFiles),
                                  maxQueuedBytes: configuration.maxQueuedBytes)
        var log = logger ?? Logger(label: "tilecast.serve")
        if logger == nil { log.logLevel = .info }
        self.logger = log
    }

    /// Runs `work` on a GCD worker thread and awaits it (see the type's comment for why).
    ///
    /// On a remote store (`RemoteReadGate.current` set), the request's deadline starts now,
    /// before any wait for a thread or a read slot; `work` runs first with every read refused
    /// (the answer from what is cached); only when it needed the object server does it run
    /// again, in one of the gate's slots, on a thread of its own.
    static func compute<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        guard let gate = RemoteReadGate.current else { return await onWorker(scope: nil, work) }
        let deadline = Date().addingTimeInterval(gate.seconds)
        let cached = RemoteReadScope(deadline: deadline, refusal: "not cached (a first pass from what is cached)")
        let first = await onWorker(scope: cached, work)
        guard cached.wasRefused else { return first }
        guard await gate.acquire(until: deadline) else {
            let busy = RemoteReadScope(deadline: deadline, refusal: "the \(gate.limit) requests the server reads from the object store at once "
                                       + "(--max-remote-reads) stayed busy until this request's deadline (\(gate.seconds) s); try again shortly")
            return await onWorker(scope: busy, work)
        }
        let answer = await RemoteReadGate.onOwnThread(scope: RemoteReadScope(deadline: deadline), work)
        gate.release()
        return answer
    }

    private static func onWorker<T: Sendable>(scope: RemoteReadScope?, _ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async { continuation.resume(returning: ObjectClient.within(scope) { work() }) }
        }
    }

    /// `/health`, `/metrics` and `/v1/cycles` run here, never behind forecasts on GCD's shared
    /// workers: a serial queue gets a thread of its own (libdispatch's overcommit queues).
    private static let operations = DispatchQueue(label: "tilecast.operations", qos: .userInitiated)

    static func operate<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            operations.async { continuation.resume(returning: work()) }
        }
    }

    /// An answer written to its socket in 64 KiB pieces, each after the socket took the one
    /// before (NIO's write-buffer watermarks hold the writer back), its bytes counted against
    /// `ServerConfiguration.maxQueuedBytes` until the last piece is written or the answer is
    /// dropped (the connection closed, a HEAD).
    static func queuedBody(_ bytes: [UInt8], ledger: ConnectionLedger) -> ResponseBody {
        let answer = QueuedAnswer(bytes, ledger: ledger)
        return ResponseBody(contentLength: bytes.count) { writer in try await answer.write(to: &writer) }
    }

    /// The 503 a forecast gets while slow clients hold the whole answer budget.
    static func refuseWhileQueued(_ ledger: ConnectionLedger) throws(APIError) {
        guard ledger.hasRoomForAnswers else {
            throw APIError(.serviceUnavailable, "answers waiting for slow clients fill the server's send budget (\(ledger.maxQueuedBytes >> 20) MiB); try again shortly")
        }
    }

    /// The URL's query as (name, value) pairs, percent-decoded.
    static func queryPairs(_ uri: URI) -> [(name: String, value: String)] {
        uri.queryParameters.map { (name: String($0.key), value: String($0.value)) }
    }

    /// A forecast request's parameters as the routes read them: the request target's query,
    /// then a POST's form body. The request is outside bytes: this is the fuzz target's entry
    /// (fuzz/Sources/FuzzForecastParameters), the routes' own steps in their order.
    ///
    /// - Throws: `APIError` 400 for a broken percent-escape in the body, or for parameters
    ///   `ForecastParameters` refuses.
    package static func parameters(target: String, formBody: String?) throws(APIError) -> ForecastParameters {
        let pairs = queryPairs(URI(target))
        guard let formBody else { return try ForecastParameters(query: pairs) }
        return try ForecastParameters(query: pairs + (try FormBody.pairs(formBody)))
    }

    func router() -> Router<BasicRequestContext> {
        // HEAD is answered on every GET route by the router (the GET's answer without its body).
        let router = Router(options: .autoGenerateHeadEndpoints)
        let paths = ServerPaths(storeRoot: configuration.storeRoot)
        router.add(middleware: FrontMiddleware(metrics: metrics, logger: logger, accessLog: accessLog, maxURLBytes: configuration.maxURLBytes,
                                               paths: paths))
        if let keys = configuration.apiKeys { router.add(middleware: APIKeyMiddleware(keys: keys)) }
        if let remoteReads { router.add(middleware: RemoteReadMiddleware(gate: remoteReads)) }
        addForecastRoutes(router)
        addOpenWeatherMapRoutes(router)
        addQWeatherRoutes(router)
        addCaiyunRoutes(router)
        addPageRoutes(router)
        addWarningRoutes(router)
        addSearchRoutes(router)
        addOperationRoutes(router, paths: paths)
        return router
    }

    /// A forecast request's parameters: the URL's query and a POST's form body. A short query
    /// (at most `parsedInPlace` bytes: one place and a few variables, the common request) is
    /// parsed where it is, in microseconds. A longer one, or a form body (up to 1 MB), is
    /// decoded and parsed on a thread of its own (`parsing`), off the few threads of the cooperative pool that every
    /// route's task shares: two 850 KB bodies of 120,000 model names once held them, and
    /// `/health` with them, for 28 s; 600 GETs of 100 places and 59 variables parsed there kept
    /// `/health` waiting up to 1.6 s (debug build).
    static func parsed(_ query: [(name: String, value: String)], formBody: String?) async throws(APIError) -> ForecastParameters {
        let size = query.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count }
        if formBody?.isEmpty ?? true, size <= parsedInPlace { return try ForecastParameters(query: query) }
        let result: Result<ForecastParameters, APIError> = await withCheckedContinuation { continuation in
            parsing[parsed.add(1, ordering: .relaxed).oldValue % parsing.count].async {
                do throws(APIError) {
                    guard let formBody, !formBody.isEmpty else { return continuation.resume(returning: .success(try ForecastParameters(query: query))) }
                    continuation.resume(returning: .success(try ForecastParameters(query: query + (try FormBody.pairs(formBody)))))
                } catch { continuation.resume(returning: .failure(error)) }
            }
        }
        return try result.get()
    }

    /// The longest query parsed on the route's own thread (`parsed`).
    static let parsedInPlace = 1024

    /// Where longer queries and form bodies are parsed: a serial queue a core, each a thread of
    /// its own (queues made by the program), neither the cooperative pool nor behind forecasts on
    /// GCD's shared workers (there, 8 GETs of 900 places parsed first held a small forecast past
    /// 2 s), taken in turn.
    private static let parsing = (0..<max(1, ProcessInfo.processInfo.activeProcessorCount)).map {
        DispatchQueue(label: "tilecast.parse-\($0)", qos: .userInitiated)
    }
    private static let parsed = Atomic<Int>(0)

    /// One forecast request, whichever way its parameters came (`parsed`).
    ///
    /// - Parameter headers: the request's, for its validators: a client (or cache) whose copy
    ///   is still the answer gets 304 before anything is computed (`AnswerValidators`).
    func forecast(_ query: [(name: String, value: String)], formBody: String? = nil, encoding: ContentEncoding?,
                  headers requestHeaders: HTTPFields = [:]) async throws -> Response {
        let engine = self.engine, ledger = self.ledger, freshness = configuration.freshness
        let parameters = try await Self.parsed(query, formBody: formBody)
        let requestKey = Self.requestKey(query, formBody: formBody)
        try Self.refuseWhileQueued(ledger)
        guard inFlight.enter() else {
            throw APIError(.serviceUnavailable, "too many requests in flight (\(inFlight.limit)); try again shortly")
        }
        defer { inFlight.leave() }
        if let hook = configuration.beforeForecast { await hook() }
        let now = configuration.now()
        // The answer's estimated size is counted from before it is made until its real size
        // replaces it: requests arriving together cannot all pass an empty budget.
        let reservation = AnswerReservation(ledger: ledger)
        defer { reservation.release() }
        typealias Made = (body: [UInt8], contentType: String, disposition: String?, encoding: ContentEncoding?)
        let result: Result<(answer: Made?, validators: AnswerValidators), APIError> = await Self.compute {
            do throws(APIError) {
                // The store's state is read before the answer is made: a cycle published in
                // between gives an answer newer than its tag (asked again in full next time),
                // never a tag newer than its answer (a 304 for an answer that changed).
                let validators = AnswerValidators(request: requestKey, generation: engine.cycles.generation(),
                                                  clock: .of(parameters, now: now), encoding: encoding, now: now, freshness: freshness)
                if validators.clientHasIt(requestHeaders) { return .success((nil, validators)) }
                let answer = try engine.respond(parameters, now: now, admit: reservation.reserve)
                // Compressed off the event loop, like the answer itself.
                if let encoding, answer.body.count >= ContentEncoding.minimumBytes, let packed = encoding.compress(answer.body) {
                    return .success(((packed, answer.contentType, answer.disposition, encoding), validators))
                }
                return .success(((answer.body, answer.contentType, answer.disposition, nil), validators))
            } catch { return .failure(error) }
        }
        let (made, validators) = try result.get()
        var headers: HTTPFields = [:]
        validators.add(to: &headers)
        guard let answer = made else { return Response(status: .notModified, headers: headers) }
        headers[.contentType] = answer.contentType
        if let used = answer.encoding { headers[.contentEncoding] = used.rawValue }
        if let disposition = answer.disposition { headers[.contentDisposition] = disposition }
        return Response(status: .ok, headers: headers, body: Self.queuedBody(answer.body, ledger: ledger))
    }

    /// The request as its ETag names it: the query's pairs in the order sent, and a POST's
    /// form body (the same parameters by GET and by POST name one answer only if sent alike;
    /// a tag that differs costs a full answer, never a wrong one).
    static func requestKey(_ query: [(name: String, value: String)], formBody: String?) -> String {
        var key = ""
        for pair in query { key += pair.name + "=" + pair.value + "&" }
        if let formBody { key += "\u{2}" + formBody }
        return key
    }

    /// `/v1/forecast`, by GET and by POST.
    private func addForecastRoutes(_ router: Router<BasicRequestContext>) {
        // The same parameters in the URL (GET) or as a form body (POST, how Open-Meteo's clients
        // send many places: Open-Meteo takes both on every route).
        router.get("/v1/forecast") { request, _ -> Response in
            // HEAD (routed here) is answered uncompressed: some clients try to decode its empty body.
            try await self.forecast(Self.queryPairs(request.uri),
                                    encoding: request.method == .head ? nil : ContentEncoding.accepted(request.headers[.acceptEncoding]),
                                    headers: request.headers)
        }
        router.post("/v1/forecast") { request, _ -> Response in
            try await self.forecast(Self.queryPairs(request.uri), formBody: try await FormBody.collect(request),
                                    encoding: ContentEncoding.accepted(request.headers[.acceptEncoding]), headers: request.headers)
        }
    }

    /// What the page uses: the meteogram, the cycles' state, and the page itself.
    private func addPageRoutes(_ router: Router<BasicRequestContext>) {
        let engine = self.engine, inFlight = self.inFlight, configuration = self.configuration
        let freshness = configuration.freshness
        router.get("/v1/meteogram.svg") { request, _ -> Response in
            let query = Self.queryPairs(request.uri)
            let parameters = try await Self.parsed(query, formBody: nil)
            guard inFlight.enter() else {
                throw APIError(.serviceUnavailable, "too many requests in flight (\(inFlight.limit)); try again shortly")
            }
            defer { inFlight.leave() }
            let now = configuration.now(), key = Self.requestKey(query, formBody: nil), asked = request.headers
            let encoding = request.method == .head ? nil : ContentEncoding.accepted(request.headers[.acceptEncoding])
            // The drawing's "now" line moves: its tag holds for the quarter hour at most.
            let result: Result<(svg: [UInt8]?, used: ContentEncoding?, validators: AnswerValidators), APIError> = await Self.compute {
                do throws(APIError) {
                    let validators = AnswerValidators(request: key, generation: engine.cycles.generation(), clock: .quarterHour(now),
                                                      encoding: encoding, now: now, freshness: freshness)
                    if validators.clientHasIt(asked) { return .success((nil, nil, validators)) }
                    let (bytes, used) = Self.encoded(Array(try engine.meteogram(parameters, now: now).utf8), encoding)
                    return .success((bytes, used, validators))
                } catch { return .failure(error) }
            }
            let (svg, used, validators) = try result.get()
            var headers: HTTPFields = [:]
            validators.add(to: &headers)
            guard let svg else { return Response(status: .notModified, headers: headers) }
            headers[.contentType] = "image/svg+xml"
            if let used { headers[.contentEncoding] = used.rawValue }
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: svg)))
        }

        // The newest cycle of each model as the page describes it: age, reach, warnings, outlines.
        router.get("/v1/cycles") { request, _ -> Response in
            let now = configuration.now()
            let (opened, generation) = await Self.operate { (engine.cycles.all(), engine.cycles.generation()) }
            guard !opened.stores.isEmpty else {
                throw APIError(.serviceUnavailable, opened.problems.isEmpty ? "the store holds no published cycle yet"
                               : "no cycle of the store can be opened: \(opened.problems.joined(separator: "; "))")
            }
            // The ages it gives move with the clock: its tag holds for the minute.
            let minute = now - ((now % 60) + 60) % 60
            let validators = AnswerValidators(request: "/v1/cycles", generation: generation, clock: ClockDependence(since: minute, until: minute + 60),
                                              encoding: nil, now: now, freshness: freshness)
            var headers: HTTPFields = [:]
            validators.add(to: &headers)
            if validators.clientHasIt(request.headers) { return Response(status: .notModified, headers: headers) }
            headers[.contentType] = "application/json; charset=utf-8"
            let body = CycleStatus.json(stores: opened.stores, schedule: configuration.schedule, now: now,
                                        warningRules: configuration.warningRules != nil)
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: body)))
        }

        // The page is the same for every request: compressed once, in each coding a client may ask for.
        let page = Array(Page.html(places: configuration.places).utf8)
        let packed = Dictionary(uniqueKeysWithValues: ContentEncoding.allCases.compactMap { coding in coding.compress(page).map { (coding, $0) } })
        router.get("/") { request, _ -> Response in
            var headers: HTTPFields = [.contentType: "text/html; charset=utf-8", .vary: "Accept-Encoding"]
            if request.method != .head, let coding = ContentEncoding.accepted(request.headers[.acceptEncoding]), let bytes = packed[coding] {
                headers[.contentEncoding] = coding.rawValue
                return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
            }
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: page)))
        }
    }

    /// `bytes` compressed in `encoding` when asked and worth it (at least `ContentEncoding.minimumBytes`),
    /// with the coding used; else as they are.
    static func encoded(_ bytes: [UInt8], _ encoding: ContentEncoding?) -> ([UInt8], ContentEncoding?) {
        guard let encoding, bytes.count >= ContentEncoding.minimumBytes, let packed = encoding.compress(bytes) else { return (bytes, nil) }
        return (packed, encoding)
    }

    /// Health and metrics, for load balancers and Prometheus.
    private func addOperationRoutes(_ router: Router<BasicRequestContext>, paths: ServerPaths) {
        let engine = self.engine, configuration = self.configuration, metrics = self.metrics, ledger = self.ledger
        let remoteReads = self.remoteReads
        router.get("/health") { _, _ -> Response in
            let opened = await Self.operate { engine.cycles.all() }
            // Stale: a model's newest cycle is older than the schedule allows, or ends before
            // now (the warnings `/v1/cycles` gives the page). Still 200: the server answers
            // what it holds, and a balancer that took every server out for a late run would
            // leave nothing serving.
            let now = configuration.now()
            let late = opened.stores.flatMap { store in
                CycleStatus.warnings(model: store.model, cycle: store.domains.first?.metadata.cycle ?? 0,
                                     last: store.domains.compactMap { $0.metadata.times.last }.max() ?? 0,
                                     schedule: configuration.schedule, now: now).map { "\(store.model): \($0)" }
            }
            // Degraded: a model's latest cycle cannot be opened, so best match answers 503
            // (`ForecastEngine.stores`); requests naming a model that opens are answered.
            let status = opened.stores.isEmpty ? "unavailable" : !opened.unopened.isEmpty ? "degraded" : late.isEmpty ? "ok" : "stale"
            var body = "{\"status\":\(JSONText.quoted(status)),\"cycles\":{"
            body += opened.stores.map { "\(JSONText.quoted($0.model)):\(JSONText.quoted($0.cycle))" }.joined(separator: ",") + "}"
            // Cycles whose run is still being written (`extract --grow`), with how far they reach.
            let growing = opened.stores.compactMap { store in store.growingReaches.map { (store.model, $0) } }
            if !growing.isEmpty {
                body += ",\"growing\":{" + growing.map { "\(JSONText.quoted($0.0)):\(JSONText.quoted($0.1))" }.joined(separator: ",") + "}"
            }
            if !opened.problems.isEmpty {
                body += ",\"problems\":[" + opened.problems.map { JSONText.quoted(paths.redacted($0)) }.joined(separator: ",") + "]"
            }
            if !late.isEmpty { body += ",\"warnings\":[" + late.map(JSONText.quoted).joined(separator: ",") + "]" }
            body += "}"
            return Response(status: status == "ok" || status == "stale" ? .ok : .serviceUnavailable,
                            headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: body)))
        }

        router.get("/metrics") { _, _ -> Response in
            let opened = await Self.operate { engine.cycles.all() }
            metrics.recordCycles(opened.stores, now: configuration.now())
            metrics.recordConnections(ledger)
            // Older kept cycles held open for past hours (closed when idle), and on a remote
            // store the requests reading from the object server and those waiting for a slot.
            metrics.registry.makeGauge(descriptor: ServerMetrics.descriptor("tilecast_older_cycles_open", unit: "", "Older kept cycles held open for past hours.")).set(Double(engine.cycles.olderCyclesOpen))
            if let counts = remoteReads?.counts {
                metrics.registry.makeGauge(descriptor: ServerMetrics.descriptor("tilecast_remote_reads", unit: "", "Requests reading from the object server, or waiting to."), labels: [("state", "reading")]).set(Double(counts.reading))
                metrics.registry.makeGauge(descriptor: ServerMetrics.descriptor("tilecast_remote_reads", unit: "", "Requests reading from the object server, or waiting to."), labels: [("state", "waiting")]).set(Double(counts.waiting))
                metrics.registry.makeGauge(descriptor: ServerMetrics.descriptor("tilecast_max_remote_reads", unit: "", "Requests reading from the object server at once at most (--max-remote-reads).")).set(Double(remoteReads?.limit ?? 0))
            }
            return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                            body: .init(byteBuffer: ByteBuffer(bytes: metrics.registry.emitToBuffer())))
        }
    }

    /// The Hummingbird application; `onRunning` gets the bound port.
    package func application(onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) -> some ApplicationProtocol {
        // Past `maxConnections` no connection is accepted (it waits in the listen backlog) until
        // one closes: the descriptors left stay for the store and the runtime.
        Application(router: router(),
                    server: GuardedHTTP1Channel.builder(ledger: ledger, idleTimeout: .init(configuration.idleTimeout),
                                                        writeTimeout: .init(configuration.writeTimeout)),
                    configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "tilecast",
                                         availableConnectionsDelegate: MaximumAvailableConnections(ledger.maxConnections)),
                    onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? 0) },
                    logger: logger)
    }

    /// Serves until SIGTERM or SIGINT, then finishes the requests in flight and returns.
    ///
    /// - Throws: `TimeZoneTable.LoadError` before listening when the time-zone table cannot be
    ///   read (`tilecast serve` checks it first, to say so as a usage error).
    package func run(onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        _ = try TimeZoneTable.loaded.get()
        _ = try Gazetteer.loaded.get()
        // The store's cycles are opened before the first request: the first `/health` (a load
        // balancer's first check) otherwise paid for reading every domain's header, 23 ms on
        // the sample run and 105 ms while five 1 MB bodies were parsed (release build,
        // Scripts/faults-server's parsing row), and a store that cannot be opened is logged now.
        _ = engine.cycles.all()
        // The lines of the last requests, written when the server stops, however it stops.
        defer { accessLog.flush() }
        try await application(onRunning: onRunning).runService()
    }
}
