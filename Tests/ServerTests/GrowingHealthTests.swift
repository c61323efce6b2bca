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
}
