import Foundation
import TestSupport
import TileCastServer
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Clients that misbehave and stores that change under the server (SPEC 8, issue 10 item 7):
/// slow or stalled clients never hold up others; a store folder that vanishes, or a cycle's
/// data removed under it, gives 503 or the old cycle's own numbers, never a 500.
final class ServerAbuseTests: XCTestCase {
    /// A raw TCP connection to the server, for clients no HTTP library would be.
    private final class RawClient {
        let socket: Int32
        init(port: Int) throws {
            socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            // A small receive buffer, so that a client that never reads fills it quickly.
            var size: Int32 = 4096
            setsockopt(socket, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard socket >= 0, connected == 0 else { throw NSError(domain: "RawClient", code: Int(errno)) }
        }
        func send(_ text: String) {
            XCTAssertLessThan(text.utf8.count, 8192, "under the server's URL limit")
            _ = text.withCString { Glibc.send(socket, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
        }
        deinit { close(socket) }
    }

    private func port(_ server: LiveServer) throws -> Int {
        try XCTUnwrap(server.base.split(separator: ":").last.flatMap { Int($0) })
    }

    func testSlowAndStalledClientsDoNotHoldUpOthers() async throws {
        let directory = try TemporaryDirectory("tilecast-server-abuse")
        let store = try StoreMaker.extractBaseline(into: directory)
        try await LiveServer.with(configuration(store)) { server in
            let port = try port(server)
            // 100 connections that send half a request line and then nothing (slowloris).
            var stalled: [RawClient] = []
            for _ in 0..<100 {
                let client = try RawClient(port: port)
                client.send("GET /v1/forecast?latitude=39.3&longitude=-8&hou")
                stalled.append(client)
            }
            // 8 connections that ask for large answers (900 places, ~0.6 MB each) and never
            // read them: the server's writes to them cannot finish.
            let places = Array(repeating: "39", count: 900).joined(separator: ",")
            let lons = Array(repeating: "-8", count: 900).joined(separator: ",")
            var deaf: [RawClient] = []
            for _ in 0..<8 {
                let client = try RawClient(port: port)
                client.send("GET /v1/forecast?latitude=\(places)&longitude=\(lons)&hourly=temperature_2m,relative_humidity_2m,pressure_msl&start_date=2026-11-22&end_date=2026-11-22 HTTP/1.1\r\nHost: x\r\n\r\n")
                deaf.append(client)
            }
            try await Task.sleep(for: .milliseconds(500))
            // Everyone else is answered, promptly.
            let clock = ContinuousClock()
            for _ in 0..<20 {
                let started = clock.now
                let reply = try await server.get("/v1/forecast?latitude=39.3&longitude=-8&hourly=temperature_2m&start_date=2026-11-22&end_date=2026-11-22",
                                                 timeout: .seconds(5))
                XCTAssertEqual(reply.status, 200, reply.body)
                XCTAssertLessThan(clock.now - started, .seconds(2))
            }
            let health = try await server.get("/health", timeout: .seconds(5))
            XCTAssertEqual(health.status, 200, health.body)
            // The deaf clients were answered (200), only never read it.
            let head = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 12) { buffer -> String in
                let count = recv(deaf[0].socket, buffer.baseAddress, 12, Int32(MSG_WAITALL))
                return String(decoding: buffer.prefix(max(0, count)), as: UTF8.self)
            }
            XCTAssertEqual(head, "HTTP/1.1 200")
            stalled.removeAll()
            deaf.removeAll()
        }
    }

    func testStoreVanishingOrEmptiedUnderTheServer() async throws {
        let directory = try TemporaryDirectory("tilecast-server-vanish")
        let store = try StoreMaker.extractBaseline(into: directory)
        let query = "/v1/forecast?latitude=39.3&longitude=-8&hourly=temperature_2m&start_date=2026-11-22&end_date=2026-11-22"
        try await LiveServer.with(configuration(store)) { server in
            let before = try await server.get(query)
            XCTAssertEqual(before.status, 200, before.body)
            let values = (before.object?["hourly"] as? [String: Any])?["temperature_2m"] as? [Any]

            // The cycle's data folder removed while `latest` still names it (an operator's
            // mistake): the open cycle's files are still read, or the answer is 503; never
            // other numbers, never a 500.
            let data = store + "/wrf/.data"
            let folders = try FileManager.default.contentsOfDirectory(atPath: data)
            for folder in folders { try FileManager.default.removeItem(atPath: data + "/" + folder) }
            let emptied = try await server.get(query)
            XCTAssertTrue([200, 503].contains(emptied.status), emptied.body)
            if emptied.status == 200 {
                XCTAssertEqual(((emptied.object?["hourly"] as? [String: Any])?["temperature_2m"] as? [Any])?.description, values?.description)
            } else {
                XCTAssertEqual(emptied.object?["error"] as? Bool, true, emptied.body)
            }

            // The whole store folder gone: 503 in Open-Meteo's shape, /health 503, /metrics fine.
            try FileManager.default.removeItem(atPath: store)
            let gone = try await server.get(query)
            XCTAssertEqual(gone.status, 503, gone.body)
            XCTAssertEqual(gone.object?["error"] as? Bool, true, gone.body)
            let health = try await server.get("/health")
            XCTAssertEqual(health.status, 503, health.body)
            let metrics = try await server.get("/metrics")
            XCTAssertEqual(metrics.status, 200)

            // Made again at the same path: served again, the same numbers, no restart.
            XCTAssertEqual(try StoreMaker.run(["extract", StoreMaker.baseline, "--store", store]).status, 0)
            let again = try await server.get(query)
            XCTAssertEqual(again.status, 200, again.body)
            XCTAssertEqual(((again.object?["hourly"] as? [String: Any])?["temperature_2m"] as? [Any])?.description, values?.description)
            XCTAssertFalse(metrics.body.contains("status=\"500\""), metrics.body)
        }
    }
}
