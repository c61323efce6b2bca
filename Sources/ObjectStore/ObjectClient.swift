import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Synchronization

/// One HTTP answer, body in memory (store objects are read in small ranges, or are small).
package struct ObjectResponse: Sendable {
    package var status: Int
    package var headers: HTTPHeaders
    package var body: [UInt8]

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

/// Requests to a remote store, blocking the calling thread (never an event loop): the store
/// reader's byte source is synchronous, as `pread` is for a local store. S3 requests are
/// signed with SigV4 and addressed path-style; plain HTTP stores are read unsigned.
package final class ObjectClient: Sendable {
    package let location: RemoteLocation
    package let s3: S3Configuration?
    package let retry: RetryPolicy
    private let counters = Counters()

    /// One client for the process, never shut down (its threads live as long as the process).
    static let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: HTTPClient.Configuration(
        redirectConfiguration: .disallow,
        timeout: HTTPClient.Configuration.Timeout(connect: .seconds(5), read: .seconds(30))))

    package init(location: RemoteLocation, s3: S3Configuration?, retry: RetryPolicy = RetryPolicy()) {
        self.location = location
        self.s3 = s3
        self.retry = retry
    }

    /// A client for a `--store` address; S3 settings from the options and the environment.
    package convenience init(store: String, endpoint: String? = nil, region: String? = nil, retry: RetryPolicy = RetryPolicy()) throws(ObjectStoreError) {
        let location = try RemoteLocation(store)
        var s3: S3Configuration?
        if case .s3 = location { s3 = try S3Configuration.resolve(endpoint: endpoint, region: region) }
        self.init(location: location, s3: s3, retry: retry)
    }

    /// Requests sent and body bytes received so far (for benchmarks: O1).
    package var statistics: (requests: Int, bytes: Int) { counters.value.withLock { $0 } }

    /// A printable address of a store-relative path, for messages.
    package func describe(_ relative: String) -> String {
        switch location {
        case .http(let base): return base + "/" + relative
        case .s3(let bucket, _): return "s3://\(bucket)/\(location.key(relative))"
        }
    }

    /// The URL, Host header and canonical path of a request.
    private func address(_ relative: String, query: [(String, String)]) -> (url: String, host: String, path: String) {
        let encodedQuery = query.isEmpty ? "" : "?" + query.map { $0.1.isEmpty && $0.0 == "uploads" ? $0.0 : "\(SigV4Signer.encode($0.0))=\(SigV4Signer.encode($0.1))" }.joined(separator: "&")
        switch location {
        case .http(let base):
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

    /// Sends one request, retrying what is worth retrying.
    ///
    /// - Returns: the first answer that is not retryable (any status: the caller decides), or
    ///   the last retryable one when the attempts run out.
    /// - Throws: `.request` when every attempt failed without an answer.
    package func send(_ method: HTTPMethod, _ relative: String, query: [(String, String)] = [], headers: [(String, String)] = [],
                      body: [UInt8]? = nil) throws(ObjectStoreError) -> ObjectResponse {
        var lastProblem = ""
        for attempt in 0..<retry.attempts {
            if attempt > 0 { Thread.sleep(forTimeInterval: retry.delay(before: attempt)) }
            let outcome = Result { try start(method, relative, query: query, headers: headers, body: body).wait() }
            switch outcome {
            case .success(let response):
                if RetryPolicy.isRetryable(status: response.status) && attempt + 1 < retry.attempts {
                    lastProblem = "HTTP \(response.status)"
                    continue
                }
                return response
            case .failure(let error):
                lastProblem = "\(error)"
            }
        }
        throw .request(url: describe(relative), detail: "\(method) failed after \(retry.attempts) attempts: \(lastProblem)")
    }

    /// Starts a request (signed for S3) and counts it.
    package func start(_ method: HTTPMethod, _ relative: String, query: [(String, String)] = [], headers: [(String, String)] = [],
                       body: [UInt8]? = nil) throws -> EventLoopFuture<ObjectResponse> {
        let (url, host, path) = address(relative, query: query)
        var all = [("Host", host)] + headers
        if let s3 {
            let signer = SigV4Signer(credentials: s3.credentials, region: s3.region)
            let hash = body.map(SigV4Signer.payloadHash) ?? SigV4Signer.payloadHash([])
            all += signer.sign(method: method.rawValue, path: path, query: query, headers: all, payloadHash: hash, date: Date())
        }
        var request = try HTTPClient.Request(url: url, method: method, headers: HTTPHeaders(all))
        if let body { request.body = .bytes(body) }
        counters.value.withLock { $0.requests += 1 }
        return Self.http.execute(request: request, deadline: .now() + .seconds(60)).map { [counters] response in
            let bytes = response.body.map { Array($0.readableBytesView) } ?? []
            counters.value.withLock { $0.bytes += bytes.count }
            return ObjectResponse(status: Int(response.status.code), headers: response.headers, body: bytes)
        }
    }

    /// A whole object, or nil when it does not exist.
    package func getObject(_ relative: String) throws(ObjectStoreError) -> [UInt8]? {
        let response = try send(.GET, relative)
        if response.status == 404 || (response.status == 403 && s3 == nil) { return nil }
        guard response.status == 200 else { throw failure(response, relative, "GET") }
        return response.body
    }

    /// Bytes `range` of an object, checked to be exactly those bytes.
    ///
    /// - Returns: the bytes and the object's size.
    package func getRange(_ relative: String, _ range: Range<Int>) throws(ObjectStoreError) -> (bytes: [UInt8], objectSize: Int) {
        let response = try send(.GET, relative, headers: [("Range", "bytes=\(range.lowerBound)-\(range.upperBound - 1)")])
        return try checkRange(response, relative, range)
    }

    /// Several ranges at once, each its own request, all in flight together; each retried
    /// on its own when it fails.
    package func getRanges(_ relative: String, _ ranges: [Range<Int>]) throws(ObjectStoreError) -> [[UInt8]] {
        let futures = ranges.map { range in
            Result { try start(.GET, relative, headers: [("Range", "bytes=\(range.lowerBound)-\(range.upperBound - 1)")]) }
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
        let response = try send(.GET, relative, headers: [("Range", "bytes=-\(count)")])
        if response.status == 404 { throw .notFound(url: describe(relative)) }
        guard response.status == 206 || response.status == 200, let size = response.objectSize else {
            throw failure(response, relative, "GET (range)")
        }
        let expected = min(count, size)
        guard response.body.count == expected else {
            throw .request(url: describe(relative), detail: "answered \(response.body.count) bytes for the last \(expected) (truncated in transit)")
        }
        return (response.body, size)
    }

    private func checkRange(_ response: ObjectResponse, _ relative: String, _ range: Range<Int>) throws(ObjectStoreError) -> (bytes: [UInt8], objectSize: Int) {
        if response.status == 404 { throw .notFound(url: describe(relative)) }
        guard response.status == 206 || response.status == 200, let size = response.objectSize else {
            throw failure(response, relative, "GET (range)")
        }
        if response.status == 200 {
            // A server that ignores ranges sends the whole object.
            guard range.upperBound <= response.body.count else {
                throw .request(url: describe(relative), detail: "object is \(response.body.count) bytes, shorter than the range \(range)")
            }
            return (Array(response.body[range]), size)
        }
        guard response.body.count == range.count,
              response.headers.first(name: "content-range")?.hasPrefix("bytes \(range.lowerBound)-\(range.upperBound - 1)/") == true else {
            throw .request(url: describe(relative), detail: "answered \(response.body.count) bytes (\(response.headers.first(name: "content-range") ?? "no Content-Range")) for bytes \(range.lowerBound)-\(range.upperBound - 1) (truncated in transit)")
        }
        return (response.body, size)
    }

    /// The error for an unexpected answer, with S3's error code when it sent one.
    package func failure(_ response: ObjectResponse, _ relative: String, _ what: String) -> ObjectStoreError {
        if response.status == 404 { return .notFound(url: describe(relative)) }
        let text = String(decoding: response.body.prefix(600), as: UTF8.self)
        var code = ""
        if let start = text.range(of: "<Code>"), let end = text.range(of: "</Code>"), start.upperBound <= end.lowerBound {
            code = " " + text[start.upperBound..<end.lowerBound]
        }
        return .request(url: describe(relative), detail: "\(what) answered HTTP \(response.status)\(code)")
    }
}
