import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Synchronization
import TileStore

/// One HTTP answer, body in memory (store objects are read in small ranges, or are small).
package struct ObjectResponse: Sendable {
    package var status: Int
    package var headers: HTTPHeaders
    package var body: [UInt8]

    package init(status: Int, headers: HTTPHeaders, body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The object's whole size from `Content-Range: bytes a-b/SIZE`, or the body's size for a
    /// whole-object answer.
    package var objectSize: Int? {
        if status == 200 { return body.count }
        guard let range = headers.first(name: "content-range"), let slash = range.lastIndex(of: "/") else { return nil }
        return Int(range[range.index(after: slash)...])
    }
}

/// Requests sent and bytes received, shared with the futures that finish them.
final class Counters: Sendable {
    let value = Mutex<(requests: Int, bytes: Int)>((0, 0))
}

/// How often and how patiently a failed request is tried again: 5xx and 429 (S3 throttles with
/// 503 SlowDown) and broken connections, with exponential backoff and jitter. Other 4xx are
/// answers, never retried.
package struct RetryPolicy: Sendable {
    package var attempts: Int
    package var firstDelay: Double
    package var maximumDelay: Double

    package init(attempts: Int = 6, firstDelay: Double = 0.1, maximumDelay: Double = 5) {
        self.attempts = max(attempts, 1)
        self.firstDelay = firstDelay
        self.maximumDelay = maximumDelay
    }

    /// Seconds to wait before try `attempt` (1 = the first retry): full jitter over 2^n.
    func delay(before attempt: Int) -> Double {
        let ceiling = min(maximumDelay, firstDelay * Double(1 << min(attempt - 1, 20)))
        return Double.random(in: ceiling / 2...ceiling)
    }

    static func isRetryable(status: Int) -> Bool { status == 429 || (500...599).contains(status) }
}

/// How much and how long a remote read may take: every answer's body has a
/// limit from what was asked (a range: its length; a tail: its count; a manifest:
/// `manifestBytes`; anything else, S3's XML answers: `otherBytes`), refused past it while it
/// streams in, never buffered beyond it; every attempt gives up when no byte came for
/// `progressSeconds` or when it took `attemptSeconds`; and everything one query reads,
/// retries included, ends by its deadline (`querySeconds`). docs/RELIABILITY.md states them.
package struct RemoteLimits: Sendable, Equatable {
    package var progressSeconds: Double = 10
    package var attemptSeconds: Double = 30
    package var querySeconds: Double = 60
    package var manifestBytes: Int = 1 << 20
    package var otherBytes: Int = 16 << 20
    /// What an error answer (4xx, 5xx) keeps of its body: S3's error code is in its first bytes.
    static let errorBodyBytes = 4096

    package init() {}

    /// The defaults, or smaller (tests) from `TILECAST_OBJECT_PROGRESS_SECONDS`,
    /// `TILECAST_OBJECT_ATTEMPT_SECONDS`, `TILECAST_OBJECT_QUERY_SECONDS` and
    /// `TILECAST_OBJECT_MANIFEST_BYTES` (a value that is not a positive number is ignored).
    package static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> RemoteLimits {
        var limits = RemoteLimits()
        func seconds(_ name: String) -> Double? { environment[name].flatMap(Double.init).flatMap { $0.isFinite && $0 > 0 ? $0 : nil } }
        if let value = seconds("TILECAST_OBJECT_PROGRESS_SECONDS") { limits.progressSeconds = value }
        if let value = seconds("TILECAST_OBJECT_ATTEMPT_SECONDS") { limits.attemptSeconds = value }
        if let value = seconds("TILECAST_OBJECT_QUERY_SECONDS") { limits.querySeconds = value }
        if let value = environment["TILECAST_OBJECT_MANIFEST_BYTES"].flatMap(Int.init), value > 0 { limits.manifestBytes = value }
        return limits
    }
}

/// Why an answer was given up on while it came in: more bytes than asked for. Never retried
/// (a server that sends the wrong thing sends it again).
struct OversizedAnswer: Error, CustomStringConvertible {
    let limit: Int
    let received: Int
    let status: Int
    let ranged: Bool
    var description: String {
        let ignored = status == 200 && ranged ? " (HTTP 200 to a Range request: the server ignored the Range header and sent the whole object)" : ""
        return "answered more than the \(limit) bytes asked for (\(received) so far, refused)\(ignored)"
    }
}

/// Collects one answer's body up to its limit, failing the request (and closing its
/// connection) the moment the head announces, or the body brings, more.
final class BoundedBody: HTTPClientResponseDelegate, @unchecked Sendable {
    // Every callback runs on the request's event loop, one at a time: no lock needed.
    private let limit: Int
    private let ranged: Bool
    private let counters: Counters
    private var head: HTTPResponseHead?
    private var body: [UInt8] = []
    private var received = 0

    init(limit: Int, ranged: Bool, counters: Counters) {
        self.limit = limit
        self.ranged = ranged
        self.counters = counters
    }

    private var isError: Bool { (head?.status.code ?? 200) >= 300 }

    func didReceiveHead(task: HTTPClient.Task<ObjectResponse>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        self.head = head
        if !isError, let length = head.headers.first(name: "content-length").flatMap(Int.init), length > limit {
            return task.eventLoop.makeFailedFuture(OversizedAnswer(limit: limit, received: length, status: Int(head.status.code), ranged: ranged))
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<ObjectResponse>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        received += buffer.readableBytes
        counters.value.withLock { $0.bytes += buffer.readableBytes }
        if isError {
            // An error's text is read for its code only: the rest is dropped, never held.
            let room = RemoteLimits.errorBodyBytes - body.count
            if room > 0 { body += buffer.readableBytesView.prefix(room) }
            return task.eventLoop.makeSucceededVoidFuture()
        }
        guard received <= limit else {
            return task.eventLoop.makeFailedFuture(OversizedAnswer(limit: limit, received: received, status: Int(head?.status.code ?? 0), ranged: ranged))
        }
        body += buffer.readableBytesView
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didFinishRequest(task: HTTPClient.Task<ObjectResponse>) throws -> ObjectResponse {
        ObjectResponse(status: Int(head?.status.code ?? 0), headers: head?.headers ?? [:], body: body)
    }
}

/// Requests to a remote store, blocking the calling thread (never an event loop): the store
/// reader's byte source is synchronous, as `pread` is for a local store. S3 requests are
/// signed with SigV4 and addressed path-style; plain HTTP stores are read unsigned.
package final class ObjectClient: Sendable {
    package let location: RemoteLocation
    package let s3: S3Configuration?
    package let retry: RetryPolicy
    package let limits: RemoteLimits
    /// When everything this client reads must be done (a command's query); nil: each `send`
    /// gets `limits.querySeconds` of its own (a server, whose requests and polls outlive it).
    package let deadline: Date?
    private let counters = Counters()
    private let http: HTTPClient

    /// The HTTP clients of the process, one per read-progress timeout (the connection's idle
    /// read timeout, which AsyncHTTPClient sets per client), never shut down: their threads
    /// live as long as the process.
    private static let clients = Mutex<[Int64: HTTPClient]>([:])

    private static func client(progressSeconds: Double) -> HTTPClient {
        let milliseconds = max(Int64(progressSeconds * 1000), 1)
        return clients.withLock { clients in
            if let known = clients[milliseconds] { return known }
            let made = HTTPClient(eventLoopGroupProvider: .singleton, configuration: HTTPClient.Configuration(
                redirectConfiguration: .disallow,
                timeout: HTTPClient.Configuration.Timeout(connect: .seconds(5), read: .milliseconds(milliseconds))))
            clients[milliseconds] = made
            return made
        }
    }

    package init(location: RemoteLocation, s3: S3Configuration?, retry: RetryPolicy = RetryPolicy(),
                 limits: RemoteLimits = .fromEnvironment(), deadline: Date? = nil) {
        self.location = location
        self.s3 = s3
        self.retry = retry
        self.limits = limits
        self.deadline = deadline
        http = Self.client(progressSeconds: limits.progressSeconds)
    }

    /// A client for a `--store` address; S3 settings from the options and the environment.
    ///
    /// - Parameter isQuery: a command's one query: everything it reads ends by one deadline.
    package convenience init(store: String, endpoint: String? = nil, region: String? = nil, retry: RetryPolicy = RetryPolicy(),
                             limits: RemoteLimits = .fromEnvironment(), isQuery: Bool = false) throws(ObjectStoreError) {
        let location = try RemoteLocation(store)
        var s3: S3Configuration?
        if case .s3 = location { s3 = try S3Configuration.resolve(endpoint: endpoint, region: region) }
        self.init(location: location, s3: s3, retry: retry, limits: limits,
                  deadline: isQuery ? Date().addingTimeInterval(limits.querySeconds) : nil)
    }

    /// Requests sent and body bytes received so far (for benchmarks: O1).
    package var statistics: (requests: Int, bytes: Int) { counters.value.withLock { $0 } }

    /// A printable address of a store-relative path, for messages.
    package func describe(_ relative: String) -> String {
        switch location {
        case .http(let base, _): return base + "/" + relative
        case .s3(let bucket, _): return "s3://\(bucket)/\(location.key(relative))"
        }
    }

    /// The URL, Host header and canonical path of a request.
    private func address(_ relative: String, query: [(String, String)]) -> (url: String, host: String, path: String) {
        let encodedQuery = query.isEmpty ? "" : "?" + query.map { $0.1.isEmpty && $0.0 == "uploads" ? $0.0 : "\(SigV4Signer.encode($0.0))=\(SigV4Signer.encode($0.1))" }.joined(separator: "&")
        switch location {
        case .http(let base, _):
            let path = SigV4Signer.encode(relative, keepSlash: true)
            let host = base.split(separator: "/").dropFirst().first.map(String.init) ?? ""
            return (base + "/" + path + encodedQuery, host, path)
        case .s3(let bucket, _):
            let endpoint = s3?.endpoint ?? ""
            // An empty path is the bucket itself (listing its uploads).
            let key = relative.isEmpty ? "" : location.key(relative)
            let path = "/" + SigV4Signer.encode(bucket) + (key.isEmpty ? "" : "/" + SigV4Signer.encode(key, keepSlash: true))
            let host = endpoint.split(separator: "/").dropFirst().first.map(String.init) ?? ""
            return (endpoint + path + encodedQuery, host, path)
        }
    }

    /// Sends one request, retrying what is worth retrying, within the deadline.
    ///
    /// - Parameter limit: the most body bytes the answer may have (see `RemoteLimits`).
    /// - Returns: the first answer that is not retryable (any status: the caller decides), or
    ///   the last retryable one when the attempts run out.
    /// - Throws: `.request` when every attempt failed without an answer, when the answer was
    ///   larger than `limit`, or when the deadline passed.
    package func send(_ method: HTTPMethod, _ relative: String, query: [(String, String)] = [], headers: [(String, String)] = [],
                      body: [UInt8]? = nil, limit: Int? = nil) throws(ObjectStoreError) -> ObjectResponse {
        if let reason = Self.refusal() { throw .request(url: describe(relative), detail: "\(method) not sent: \(reason)") }
        let ends = endOfOperation()
        var lastProblem = ""
        for attempt in 0..<retry.attempts {
            if attempt > 0 {
                let wait = min(retry.delay(before: attempt), ends.timeIntervalSinceNow)
                if wait > 0 { Thread.sleep(forTimeInterval: wait) }
            }
            guard ends.timeIntervalSinceNow > 0 else { throw deadlinePassed(relative, method, lastProblem) }
            let attemptSeconds = min(limits.attemptSeconds, ends.timeIntervalSinceNow)
            let outcome = Result { try start(method, relative, query: query, headers: headers, body: body, limit: limit, ends: ends).wait() }
            switch outcome {
            case .success(let response):
                if RetryPolicy.isRetryable(status: response.status) && attempt + 1 < retry.attempts {
                    lastProblem = "HTTP \(response.status)"
                    continue
                }
                return response
            case .failure(let error):
                if let oversized = error as? OversizedAnswer { throw .request(url: describe(relative), detail: "\(method) \(oversized)") }
                // An attempt the deadline cut short can only say that it ran out of time; the
                // attempts before it say why the object did not come.
                let problem = explain(error, attemptSeconds: attemptSeconds)
                if attemptSeconds >= limits.attemptSeconds || lastProblem.isEmpty { lastProblem = problem }
            }
        }
        if ends.timeIntervalSinceNow <= 0 { throw deadlinePassed(relative, method, lastProblem) }
        throw .request(url: describe(relative), detail: "\(method) failed after \(retry.attempts) attempts: \(lastProblem)")
    }

    /// When one operation (a request and its retries) must be over: the query's deadline (the
    /// client's, or the calling thread's from `within`), else `querySeconds` from now.
    private func endOfOperation() -> Date {
        let own = deadline ?? Date().addingTimeInterval(limits.querySeconds)
        if let scoped = Self.scopedDeadline, scoped < own { return scoped }
        return own
    }

    /// The deadline `within` set for the calling thread (a server's request computes each of
    /// its places on one thread: Sources/TileCastServer/ForecastEngine.swift).
    private static var scopedDeadline: Date? { currentScope?.deadline }

    /// The scope `within` set for the calling thread, if any.
    package static var currentScope: RemoteReadScope? {
        Thread.current.threadDictionary[scopedDeadlineKey] as? RemoteReadScope
    }

    private static let scopedDeadlineKey = "tilecast.remote-deadline"

    /// Runs `body` with every remote read it makes on this thread ending by `deadline` (nil: no
    /// change): a server request's deadline, as `deadline` is a command's.
    package static func within<T>(_ deadline: Date?, _ body: () throws -> T) rethrows -> T {
        try within(deadline.map { RemoteReadScope(deadline: $0) }, body)
    }

    /// Runs `body` with every remote read it makes on this thread under `scope` (nil: no change):
    /// ending by its deadline, or refused at once when the scope refuses reads.
    package static func within<T>(_ scope: RemoteReadScope?, _ body: () throws -> T) rethrows -> T {
        guard let scope else { return try body() }
        let dictionary = Thread.current.threadDictionary
        let before = dictionary[scopedDeadlineKey]
        dictionary[scopedDeadlineKey] = scope
        defer { dictionary[scopedDeadlineKey] = before }
        return try body()
    }

    /// Why the calling thread's scope refuses reads (noted in the scope), or nil.
    private static func refusal() -> String? {
        guard let scope = currentScope, let reason = scope.refusal else { return nil }
        scope.noteRefused()
        return reason
    }

    private func deadlinePassed(_ relative: String, _ method: HTTPMethod, _ lastProblem: String) -> ObjectStoreError {
        let what = deadline == nil && Self.scopedDeadline == nil ? "the \(Self.seconds(limits.querySeconds)) a read may take with its retries"
            : "the query's deadline (\(Self.seconds(limits.querySeconds)))"
        return .request(url: describe(relative), detail: "\(method) gave up: \(what) passed" + (lastProblem.isEmpty ? "" : "; last: \(lastProblem)"))
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }

    /// A failed attempt in words: the timeouts say which limit ended them.
    private func explain(_ error: Error, attemptSeconds: Double) -> String {
        if let client = error as? HTTPClientError {
            if client == .readTimeout { return "no byte came for \(Self.seconds(limits.progressSeconds)) (read-progress timeout)" }
            if client == .deadlineExceeded {
                let limit = (attemptSeconds * 100).rounded() / 100
                return "not finished within \(Self.seconds(limit)) (the attempt's time limit)"
            }
            if client == .connectTimeout { return "no connection within 5 s" }
        }
        return StoreAddress.redacted("\(error)")
    }

    /// Starts a request (signed for S3, with Basic auth for an http(s) URL with credentials)
    /// and counts it.
    ///
    /// - Parameters:
    ///   - limit: the most body bytes accepted; nil: `limits.otherBytes`.
    ///   - ends: when the whole operation must be over (nil: `limits.querySeconds` from now);
    ///     this attempt ends by it or after `limits.attemptSeconds`, whichever comes first.
    package func start(_ method: HTTPMethod, _ relative: String, query: [(String, String)] = [], headers: [(String, String)] = [],
                       body: [UInt8]? = nil, limit: Int? = nil, ends: Date? = nil) throws -> EventLoopFuture<ObjectResponse> {
        if let reason = Self.refusal() { throw ObjectStoreError.request(url: describe(relative), detail: "\(method) not sent: \(reason)") }
        let (url, host, path) = address(relative, query: query)
        var all = [("Host", host)] + headers
        if let s3 {
            let signer = SigV4Signer(credentials: s3.credentials, region: s3.region)
            let hash = body.map(SigV4Signer.payloadHash) ?? SigV4Signer.payloadHash([])
            all += signer.sign(method: method.rawValue, path: path, query: query, headers: all, payloadHash: hash, date: Date())
        }
        if case .http(_, let authorization?) = location { all.append(("Authorization", authorization)) }
        var request = try HTTPClient.Request(url: url, method: method, headers: HTTPHeaders(all))
        if let body { request.body = .bytes(body) }
        counters.value.withLock { $0.requests += 1 }
        let seconds = max(0.001, min(limits.attemptSeconds, (ends ?? endOfOperation()).timeIntervalSinceNow))
        let delegate = BoundedBody(limit: limit ?? limits.otherBytes, ranged: headers.contains { $0.0 == "Range" }, counters: counters)
        return http.execute(request: request, delegate: delegate, deadline: .now() + .milliseconds(Int64(seconds * 1000))).futureResult
    }

    /// A whole object, or nil when it does not exist.
    package func getObject(_ relative: String) throws(ObjectStoreError) -> [UInt8]? {
        let response = try send(.GET, relative, limit: limits.manifestBytes)
        if response.status == 404 || (response.status == 403 && s3 == nil) { return nil }
        guard response.status == 200 else { throw failure(response, relative, "GET") }
        return response.body
    }

    /// Bytes `range` of an object, checked to be exactly those bytes.
    ///
    /// - Returns: the bytes and the object's size.
    package func getRange(_ relative: String, _ range: Range<Int>) throws(ObjectStoreError) -> (bytes: [UInt8], objectSize: Int) {
        let response = try send(.GET, relative, headers: [("Range", "bytes=\(range.lowerBound)-\(range.upperBound - 1)")], limit: range.count)
        return try checkRange(response, relative, range)
    }

    /// Several ranges at once, each its own request, all in flight together; each retried
    /// on its own when it fails.
    package func getRanges(_ relative: String, _ ranges: [Range<Int>]) throws(ObjectStoreError) -> [[UInt8]] {
        let futures = ranges.map { range in
            Result { try start(.GET, relative, headers: [("Range", "bytes=\(range.lowerBound)-\(range.upperBound - 1)")], limit: range.count) }
        }
        var results: [[UInt8]] = []
        for (range, future) in zip(ranges, futures) {
            if case .success(let future) = future, let response = try? future.wait(), !RetryPolicy.isRetryable(status: response.status),
               let checked = try? checkRange(response, relative, range) {
                results.append(checked.bytes)
            } else {
                results.append(try getRange(relative, range).bytes)
            }
        }
        return results
    }

    /// The last `count` bytes of an object (a suffix range), with its size.
    package func getTail(_ relative: String, count: Int) throws(ObjectStoreError) -> (bytes: [UInt8], objectSize: Int) {
        let response = try send(.GET, relative, headers: [("Range", "bytes=-\(count)")], limit: count)
        return try Self.checkTail(response, count: count, url: describe(relative))
    }

    /// An answer to a suffix range (`bytes=-count`) checked to be the object's last bytes. The
    /// answer is outside bytes: this and `checkRange` are the fuzz target's entries
    /// (fuzz/Sources/FuzzRemoteAnswers).
    package static func checkTail(_ response: ObjectResponse, count: Int, url: String) throws(ObjectStoreError) -> (bytes: [UInt8], objectSize: Int) {
        if response.status == 404 { throw .notFound(url: url) }
        guard response.status == 206 || response.status == 200, let size = response.objectSize else {
            throw failure(response, url: url, "GET (range)")
        }
        let expected = min(count, size)
        guard response.body.count == expected else {
            throw .request(url: url, detail: "answered \(response.body.count) bytes for the last \(expected) (truncated in transit)")
        }
        return (response.body, size)
    }

    private func checkRange(_ response: ObjectResponse, _ relative: String, _ range: Range<Int>) throws(ObjectStoreError) -> (bytes: [UInt8], objectSize: Int) {
        try Self.checkRange(response, range, url: describe(relative))
    }

    /// An answer to `Range: bytes=a-b` checked to be exactly those bytes.
    package static func checkRange(_ response: ObjectResponse, _ range: Range<Int>, url: String) throws(ObjectStoreError) -> (bytes: [UInt8], objectSize: Int) {
        if response.status == 404 { throw .notFound(url: url) }
        guard response.status == 206 || response.status == 200, let size = response.objectSize else {
            throw failure(response, url: url, "GET (range)")
        }
        if response.status == 200 {
            // A server that ignores ranges sends the whole object.
            guard range.upperBound <= response.body.count else {
                throw .request(url: url, detail: "object is \(response.body.count) bytes, shorter than the range \(range)")
            }
            return (Array(response.body[range]), size)
        }
        guard response.body.count == range.count,
              response.headers.first(name: "content-range")?.hasPrefix("bytes \(range.lowerBound)-\(range.upperBound - 1)/") == true else {
            throw .request(url: url, detail: "answered \(response.body.count) bytes (\(response.headers.first(name: "content-range") ?? "no Content-Range")) for bytes \(range.lowerBound)-\(range.upperBound - 1) (truncated in transit)")
        }
        return (response.body, size)
    }

    /// The error for an unexpected answer, with S3's error code when it sent one.
    package func failure(_ response: ObjectResponse, _ relative: String, _ what: String) -> ObjectStoreError {
        Self.failure(response, url: describe(relative), what)
    }

    package static func failure(_ response: ObjectResponse, url: String, _ what: String) -> ObjectStoreError {
        if response.status == 404 { return .notFound(url: url) }
        let text = String(decoding: response.body.prefix(600), as: UTF8.self)
        var code = ""
        if let start = text.range(of: "<Code>"), let end = text.range(of: "</Code>"), start.upperBound <= end.lowerBound {
            code = " " + text[start.upperBound..<end.lowerBound]
        }
        return .request(url: url, detail: "\(what) answered HTTP \(response.status)\(code)")
    }
}

/// What a server request's remote reads may do, for the threads computing it
/// (`ObjectClient.within`): end by the request's deadline, counted from when the request came
/// (its time waiting for a thread or a read slot included); or, with a `refusal`, not go out
/// at all (a first pass from what is cached, or a request that found no read slot in time).
package final class RemoteReadScope: Sendable {
    package let deadline: Date
    /// Why reads are refused; nil: they go out.
    package let refusal: String?
    private let refused = Atomic<Bool>(false)

    package init(deadline: Date, refusal: String? = nil) {
        self.deadline = deadline
        self.refusal = refusal
    }

    /// Whether a read was refused under this scope (the work needed the object server).
    package var wasRefused: Bool { refused.load(ordering: .acquiring) }

    func noteRefused() { refused.store(true, ordering: .releasing) }
}
