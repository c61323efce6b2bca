import Foundation
import TestSupport
import XCTest

/// Issue 48: a real nginx with `proxy_cache` in front of `tilecast serve` (the configuration
/// docs/OPERATIONS.md gives) keeps an answer for its max-age, revalidates it with the server's
/// ETag afterwards (a 304 from the server, no forecast made), and a new cycle's answer replaces
/// the cached one within the max-age.
final class CachingFrontTests: XCTestCase {
    /// One answer through curl: status, the headers (names lowercased) and the body.
    func fetch(_ peer: Peer, _ path: String) throws -> (status: Int, headers: [String: String], body: String) {
        let result = try runTool("curl", ["-s", "-D", "-", peer.address + path])
        guard let gap = result.stdout.range(of: "\r\n\r\n") else { return (0, [:], result.stdout) }
        let head = result.stdout[..<gap.lowerBound], body = String(result.stdout[gap.upperBound...])
        var headers: [String: String] = [:]
        let lines = head.split(separator: "\r\n")
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let status = lines.first.flatMap { Int($0.split(separator: " ")[1]) } ?? 0
        return (status, headers, body)
    }

    /// The server's answers to the forecast path by status, from its access log, once it holds
    /// `count` of them (the log is written in batches, every 100 ms) or 2 s have passed; a
    /// quarter second more, so that a line too many shows.
    func served(_ server: Peer, count: Int) throws -> [String] {
        func lines() -> [String] {
            let log = (try? String(contentsOfFile: server.folder.path("server.log"), encoding: .utf8)) ?? ""
            return log.split(separator: "\n").filter { $0.contains("GET /v1/forecast") }.compactMap { line in
                line.split(separator: " ").dropLast().last.map(String.init)
            }
        }
        let deadline = Date().addingTimeInterval(2)
        while lines().count < count && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        Thread.sleep(forTimeInterval: 0.25)
        return lines()
    }

    func testNginxKeepsAnswersForTheirAgeRevalidatesAndTakesANewCycleWithinIt() throws {
        let directory = try TemporaryDirectory()
        let store = try SampleStore.extract(into: directory)
        let maxAge = 3.0
        let server = try RemoteServerTests.serve(["--store", store, "--max-age", "\(Int(maxAge))"])
        let front = try Peer.nginxCachingFront(upstream: server.port, cache: directory.path("nginx-cache"))
        let path = RemoteServerTests.forecast

        let first = try fetch(front, path)
        XCTAssertEqual(first.status, 200)
        XCTAssertEqual(first.headers["x-cache-status"], "MISS")
        XCTAssertEqual(first.headers["cache-control"], "public, max-age=\(Int(maxAge))")
        let second = try fetch(front, path)
        XCTAssertEqual(second.headers["x-cache-status"], "HIT")
        XCTAssertEqual(second.body, first.body, "a hit is the stored answer, byte for byte")
        XCTAssertEqual(try served(server, count: 1), ["200"], "the hit never reached the server")

        // Past its age, nginx asks with the ETag; the store is unchanged, so the server says 304.
        // nginx keeps time in whole seconds, updated once per event-loop turn: 1.5 s of slack
        // (0.5 s was once too little on a loaded CI machine: still a HIT).
        Thread.sleep(forTimeInterval: maxAge + 1.5)
        let third = try fetch(front, path)
        XCTAssertEqual(third.headers["x-cache-status"], "REVALIDATED")
        XCTAssertEqual(third.body, first.body)
        XCTAssertEqual(try served(server, count: 2), ["200", "304"])

        // A new cycle: the cached answer may be served until its age runs out, then the new one.
        let shifted = try Repository.sampleGridFiles().filter { $0.contains("wrfout") }.map { try shiftedRun($0, byMinutes: 360, into: directory) }
        let extract = try runCommand(try tilecastBinary(), ["extract"] + shifted + ["--store", store, "--model", SampleStore.model])
        XCTAssertEqual(extract.status, 0, extract.stderr)
        let published = Date()
        var replaced: TimeInterval?
        while Date().timeIntervalSince(published) < maxAge + 5 {
            let answer = try fetch(front, path)
            XCTAssertEqual(answer.status, 200)
            if answer.body != first.body {
                replaced = Date().timeIntervalSince(published)
                break
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
        let took = try XCTUnwrap(replaced, "the new cycle's answer never came through the cache")
        XCTAssertLessThanOrEqual(took, maxAge + 1, "replaced \(took) s after publication")
        let again = try fetch(front, path)
        XCTAssertEqual(again.headers["x-cache-status"], "HIT", "and the new answer is kept in turn")
    }
}

extension Peer {
    /// nginx with `proxy_cache` in front of one server, as docs/OPERATIONS.md shows, with the
    /// cache's verdict in `X-Cache-Status`.
    static func nginxCachingFront(upstream: Int, cache: String) throws -> Peer {
        try nginx(name: "nginx-cache-front") { port in
            nginxProxy(port: port, upstreams: [upstream],
                       before: "proxy_cache_path \(cache) levels=1:2 keys_zone=tilecast:10m max_size=1g inactive=1h use_temp_path=off;",
                       location: "proxy_cache tilecast; proxy_cache_revalidate on; proxy_cache_lock on; "
                           + "add_header X-Cache-Status $upstream_cache_status always;")
        }
    }
}
