import Foundation
import PointQuery
import TestSupport
import TileCastServer
import XCTest

/// `/health` says which cycles are still growing (`extract --grow`) and how far they reach.
final class GrowingHealthTests: XCTestCase {
    func testHealthNamesAGrowingCycleAndItsExtent() async throws {
        let directory = try TemporaryDirectory("tilecast-growing-health")
        let run = directory.path("run"), store = directory.path("store")
        try FileManager.default.createDirectory(atPath: run, withIntermediateDirectories: true)
        let source = Repository.sampleGrids.appendingPathComponent("nested-runs/hourly-files").path
        let names = try FileManager.default.contentsOfDirectory(atPath: source).sorted()
        // The first six hours of both domains: a run still being written.
        for name in names where (0...5).contains(where: { name.hasSuffix(String(format: "2026-11-22_%02d:00:00", $0)) }) {
            try FileManager.default.copyItem(atPath: source + "/" + name, toPath: run + "/" + name)
        }
        // Following it for 3 s publishes those hours as a growing cycle, then gives up (exit 3).
        let grow = try StoreMaker.run(["extract", run, "--store", store, "--grow", "--expect-hours", "24", "--wait", "3", "--poll", "1", "--quiet"])
        XCTAssertEqual(grow.status, 3, grow.stderr)
        try await LiveServer.with(configuration(store)) { server in
            let growing = try await server.get("/health")
            XCTAssertEqual(growing.status, 200, growing.body)
            XCTAssertTrue(growing.body.contains("\"growing\":{\"wrf\":\"2026-11-22T05:00:00Z\"}"), growing.body)
            // The whole run, published complete: no longer growing.
            XCTAssertEqual(try StoreMaker.run(["extract", source, "--store", store, "--quiet"]).status, 0)
            let complete = try await server.get("/health")
            XCTAssertEqual(complete.status, 200, complete.body)
            XCTAssertFalse(complete.body.contains("growing"), complete.body)
        }
    }

    /// A store whose newest cycle is older than the schedule allows (issue 49: `/health` said
    /// "ok" for a 12-day-old store) is "stale", with the page's warning, still 200 (the server
    /// answers what it holds); the same store an hour after its cycle's run is "ok".
    func testHealthSaysStaleWhenTheNewestCycleIsOlderThanTheScheduleAllows() async throws {
        let directory = try TemporaryDirectory("tilecast-stale-health")
        let store = try StoreMaker.extractBaseline(into: directory)
        // The sample run starts 2026-11-22T00Z; by default a run is due every 6 h, 4 h after its start.
        let start: Int64 = 1_795_309_200
        let cases: [(now: Int64, status: String)] = [(start + 3600, "ok"), (start + 11 * 3600, "stale"), (start + 12 * 86_400, "stale")]
        for (now, status) in cases {
            var configuration = ServerConfiguration(storeRoot: store)
            configuration.now = { now }
            try await LiveServer.with(configuration) { server in
                let health = try await server.get("/health")
                XCTAssertEqual(health.status, 200, health.body)
                XCTAssertEqual(health.object?["status"] as? String, status, "\(now): \(health.body)")
                let warnings = health.object?["warnings"] as? [String] ?? []
                if status == "stale" {
                    XCTAssertTrue(warnings.contains { $0.hasPrefix("wrf: The newest WRF run (22 Nov 2026 00 UTC) is") }, health.body)
                } else {
                    XCTAssertTrue(warnings.isEmpty, health.body)
                }
                XCTAssertNil(health.object?["problems"], health.body)
            }
        }
    }

    /// The page and the meteogram are compressed when the client asks (issue 49), as the
    /// forecast is: gzip(1) gives the plain bytes back.
    func testPageAndMeteogramAreGzippedWhenAsked() async throws {
        let directory = try TemporaryDirectory("tilecast-gzip-page")
        let store = try StoreMaker.extractBaseline(into: directory)
        try await LiveServer.with(configuration(store)) { server in
            for path in ["/", "/v1/meteogram.svg?latitude=39.3&longitude=-8&start_date=2026-11-22&end_date=2026-11-22"] {
                let plain = try runTool("curl", ["-s", "-D", directory.path("plain.h"), "-o", directory.path("plain.b"), server.base + path])
                XCTAssertEqual(plain.status, 0, plain.stderr)
                let packed = try runTool("curl", ["-s", "-H", "Accept-Encoding: gzip", "-D", directory.path("gzip.h"), "-o", directory.path("gzip.b"),
                                                  server.base + path])
                XCTAssertEqual(packed.status, 0, packed.stderr)
                let headers = try String(contentsOfFile: directory.path("gzip.h"), encoding: .utf8).lowercased()
                XCTAssertTrue(headers.contains("content-encoding: gzip"), "\(path): \(headers)")
                XCTAssertTrue(headers.contains("vary: accept-encoding"), "\(path): \(headers)")
                XCTAssertFalse(try String(contentsOfFile: directory.path("plain.h"), encoding: .utf8).lowercased().contains("content-encoding"), path)
                let unpacked = try runTool("gzip", ["-dc", directory.path("gzip.b")])
                XCTAssertEqual(unpacked.status, 0, unpacked.stderr)
                let original = try String(contentsOfFile: directory.path("plain.b"), encoding: .utf8)
                XCTAssertEqual(unpacked.stdout, original, path)
                let sizes = [try FileManager.default.attributesOfItem(atPath: directory.path("gzip.b"))[.size] as? Int ?? 0, original.utf8.count]
                XCTAssertLessThan(sizes[0] * 3, sizes[1], "\(path): \(sizes)")
            }
        }
    }
}
