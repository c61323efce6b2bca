import Foundation
import TestSupport
import XCTest

/// Issue 43 item 5: `tilecast serve` on a bucket whose object server is slow, under 30
/// concurrent requests for places no request read before. `/health`, `/metrics` and a cached
/// place answer throughout (they never queue behind the cold requests), at most
/// `--max-remote-reads` requests read from the object server at once, and every request
/// ends by its deadline counted from its arrival (before: the deadline started only when its
/// queued work started, so requests ran far past it).
final class ColdReadsUnderLoadTests: XCTestCase {
    /// A curl started and not waited for; its output ends with "STATUS SECONDS".
    private static func start(_ url: String, seconds: Int) throws -> (process: Process, output: Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["curl", "-s", "--max-time", "\(seconds)", "-o", "/dev/null", "-w", "%{http_code} %{time_total}", url]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        return (process, output)
    }

    /// One GET with curl: status, body and the seconds curl counted from connecting to the
    /// last byte (without starting the process, which a loaded machine makes slow).
    private static func get(_ server: Peer, _ path: String) throws -> (status: Int, body: String, seconds: Double) {
        let result = try runTool("curl", ["-s", "--max-time", "10", "-o", "-", "-w", "\n%{http_code} %{time_total}", server.address + path])
        var lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let words = (lines.popLast() ?? "").split(separator: " ")
        let body = lines.joined(separator: "\n").replacingOccurrences(of: #""generationtime_ms":[0-9.e-]+"#, with: "", options: .regularExpression)
        return (words.first.flatMap { Int($0) } ?? 0, body, words.last.flatMap { Double($0) } ?? .infinity)
    }

    func testThirtyColdRequestsDoNotHoldUpHealthMetricsOrCachedPlaces() throws {
        let f = try S3StoreTests.Fixture()
        XCTAssertEqual(try f.publish(through: f.moto.address).status, 0)
        let proxy = try Peer.faultProxy(upstream: f.moto.port)
        let deadline = 3.0
        let environment = f.environment.merging(["TILECAST_OBJECT_PROGRESS_SECONDS": "1", "TILECAST_OBJECT_ATTEMPT_SECONDS": "1",
                                                 "TILECAST_OBJECT_QUERY_SECONDS": "\(Int(deadline))"]) { $1 }
        let server = try RemoteServerTests.serve(["--store", "s3://\(S3StoreTests.bucket)/store", "--model", SampleStore.model,
                                                  "--s3-endpoint", proxy.address, "--poll-seconds", "0.3", "--max-remote-reads", "4"],
                                                 environment: environment)
        let cached = try RemotePollingTests.timedGet(server, RemoteServerTests.forecast, seconds: 30)
        XCTAssertEqual(cached.status, 200, cached.body)

        // Every block answer now trickles a byte every 0.4 s: a place not read before cannot be
        // answered within the deadline.
        try proxy.fault("trickle", match: ".tcs", blocksOnly: true, interval: 0.4)
        var places: [String] = []
        for latitude in [38.85, 39.05, 39.25, 39.45, 39.65] {
            for longitude in [-8.95, -8.75, -8.55, -8.35, -8.15, -7.95] {
                places.append(String(format: "latitude=%.2f&longitude=%.2f", latitude, longitude))
            }
        }
        let cold = try places.map { place in
            try Self.start(server.address + "/v1/forecast?\(place)&hourly=temperature_2m&start_date=2026-11-22&end_date=2026-11-22", seconds: 60)
        }
        // While they run: health, metrics and the cached place, each timed.
        var slowest: [String: Double] = [:]
        var gauges: [String: Double] = [:]
        let started = Date()
        while Date().timeIntervalSince(started) < deadline + 1 {
            for (label, path) in [("/health", "/health"), ("/metrics", "/metrics"), ("cached forecast", RemoteServerTests.forecast)] {
                let answer = try Self.get(server, path)
                XCTAssertEqual(answer.status, 200, "\(label) during the cold requests: \(answer.body.prefix(200))")
                slowest[label] = max(slowest[label] ?? 0, answer.seconds)
                if label == "cached forecast" { XCTAssertEqual(answer.body, cached.body) }
                if label == "/metrics" {
                    for line in answer.body.split(separator: "\n") where line.hasPrefix("tilecast_remote_reads{") {
                        let value = Double(line.split(separator: " ").last ?? "") ?? .nan
                        let key = line.contains("reading") ? "reading" : "waiting"
                        gauges[key] = max(gauges[key] ?? 0, value)
                    }
                }
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
        var statuses: [Int: Int] = [:]
        var longest = 0.0
        for (process, output) in cold {
            process.waitUntilExit()
            let words = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: " ")
            let status = words.first.flatMap { Int($0) } ?? 0
            statuses[status, default: 0] += 1
            longest = max(longest, words.last.flatMap { Double($0) } ?? .infinity)
        }
        print("cold-reads: 30 cold requests answered \(statuses), the longest in \(longest) s (deadline \(deadline) s); slowest while they ran: \(slowest)")
        for (label, seconds) in slowest {
            // Generous for a loaded 2-core machine: the point is that they never wait for the cold reads.
            XCTAssertLessThan(seconds, 1, "\(label) waited behind the cold requests")
        }
        XCTAssertEqual(statuses.values.reduce(0, +), 30)
        // At most 4 read from the object server at once; the others waited without a thread.
        print("cold-reads: most requests seen reading \(gauges["reading"] ?? -1), waiting \(gauges["waiting"] ?? -1)")
        XCTAssertLessThanOrEqual(gauges["reading"] ?? .infinity, 4)
        XCTAssertGreaterThan(gauges["waiting"] ?? 0, 0, "no request waited for a read slot")
        XCTAssertEqual(Set(statuses.keys).subtracting([200, 503]), [], "\(statuses)")
        XCTAssertLessThan(longest, deadline + 3, "a request ran past its deadline counted from its arrival")

        // The object server behaves again: the same places are answered.
        try proxy.fault("none")
        let again = try RemotePollingTests.timedGet(server, "/v1/forecast?\(places[0])&hourly=temperature_2m&start_date=2026-11-22&end_date=2026-11-22", seconds: 30)
        XCTAssertEqual(again.status, 200, again.body)
    }
}
