import AsyncHTTPClient
import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1
import ServiceLifecycle
import TestSupport
import TileCastServer
import XCTest

/// A `ForecastServer` started by a test on 127.0.0.1, port 0, driven with a real HTTP client.
struct LiveServer {
    let base: String

    /// Runs `body` against a live server, then shuts it down (gracefully, as SIGTERM would).
    static func with(_ configuration: ServerConfiguration, _ body: (LiveServer) async throws -> Void) async throws {
        var configuration = configuration
        configuration.host = "127.0.0.1"
        configuration.port = 0
        let server = ForecastServer(configuration: configuration)
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let app = server.application { port in continuation.yield(port) }
        // Stopped as SIGTERM stops it: a graceful shutdown of its service group.
        let group = ServiceGroup(configuration: .init(services: [app], logger: Logger(label: "tilecast.test")))
        let task = Task { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else {
            await group.triggerGracefulShutdown()
            throw NSError(domain: "LiveServer", code: 1, userInfo: [NSLocalizedDescriptionKey: "server did not start"])
        }
        do {
            try await body(LiveServer(base: "http://127.0.0.1:\(port)"))
        } catch {
            await group.triggerGracefulShutdown()
            _ = await task.result
            throw error
        }
        await group.triggerGracefulShutdown()
        _ = await task.result
    }

    struct Reply {
        let status: Int
        let body: String
        let contentType: String?

        var json: Any? { try? JSONSerialization.jsonObject(with: Data(body.utf8)) }
        var object: [String: Any]? { json as? [String: Any] }
    }

    /// Answers are asked for uncompressed (`identity`): the shared client would otherwise ask
    /// for gzip, and the tests compare the bytes the engine wrote (testGzipAndDeflateWhenAsked fetches the compressed bytes with curl).
    func get(_ pathAndQuery: String, timeout: TimeAmount = .seconds(60)) async throws -> Reply {
        var request = HTTPClientRequest(url: base + pathAndQuery)
        request.headers.add(name: "Accept-Encoding", value: "identity")
        let response = try await HTTPClient.shared.execute(request, timeout: timeout)
        let buffer = try await response.body.collect(upTo: 64 << 20)
        return Reply(status: Int(response.status.code), body: String(buffer: buffer),
                     contentType: response.headers.first(name: "content-type"))
    }

    /// Any method, with request headers; the answer with its headers (names lowercased).
    func send(_ method: HTTPMethod, _ pathAndQuery: String, headers: [(String, String)] = [], body: String? = nil,
              timeout: TimeAmount = .seconds(60)) async throws -> (reply: Reply, headers: [String: String]) {
        var request = HTTPClientRequest(url: base + pathAndQuery)
        request.method = method
        if !headers.contains(where: { $0.0.lowercased() == "accept-encoding" }) { request.headers.add(name: "Accept-Encoding", value: "identity") }
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(string: body)) }
        let response = try await HTTPClient.shared.execute(request, timeout: timeout)
        let buffer = try await response.body.collect(upTo: 64 << 20)
        var fields: [String: String] = [:]
        for (name, value) in response.headers { fields[name.lowercased()] = value }
        return (Reply(status: Int(response.status.code), body: String(buffer: buffer), contentType: fields["content-type"]), fields)
    }
}

/// Stores made with the built `tilecast` binary, as an operator makes them.
enum StoreMaker {
    /// A store of the sample d01 run filed as cycles starting `starts` hours after its own start
    /// (Scripts/shift_run.py), `keep` deep (all, by default): what several cycles' tests answer from.
    static func shiftedCycles(starts: [Int], keep: Int? = nil, into directory: TemporaryDirectory) throws -> String {
        let source = Repository.sampleGrids.appendingPathComponent("wrfout_d01_2026-11-22_00:00:00").path
        let store = directory.path("store")
        for start in starts {
            let folder = directory.path("run-\(start)")
            let shift = try runTool("python3", [Repository.root.appendingPathComponent("Scripts/shift_run.py").path, source, folder, String(start)])
            XCTAssertEqual(shift.status, 0, shift.stderr)
            let extract = try run(["extract", folder, "--store", store, "--keep", String(keep ?? starts.count), "--quiet"])
            XCTAssertEqual(extract.status, 0, extract.stderr)
        }
        return store
    }

    static var baseline: String { Repository.sampleGrids.appendingPathComponent("edge-cases/baseline.nc").path }

    /// The `tilecast` binary beside this test bundle (`swift build --build-tests` builds both).
    static func tilecast() throws -> String { try tilecastBinary() }

    static func run(_ arguments: [String]) throws -> ToolOutput { try runTool(try tilecast(), arguments) }

    /// A store holding the baseline run (cycle 2026-11-22T00Z, 00..03Z, one 15 km domain).
    static func extractBaseline(into directory: TemporaryDirectory, name: String = "store") throws -> String {
        let store = directory.path(name)
        let result = try run(["extract", baseline, "--store", store])
        XCTAssertEqual(result.status, 0, result.stderr)
        return store
    }
}

/// 2026-11-22T02:10Z: inside the baseline run, so `current` has values.
let baselineNow: Int64 = 1_795_313_400

func configuration(_ store: String) -> ServerConfiguration {
    var configuration = ServerConfiguration(storeRoot: store)
    configuration.now = { baselineNow }
    return configuration
}
