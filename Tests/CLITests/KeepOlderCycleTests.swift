import Foundation
import TestSupport
import XCTest

/// Publishing a cycle older than the ones `--keep` keeps is refused, saying why (issue 27
/// item 8): before, it printed "published ...; pruned 2026-11-22T00Z" with exit 0, the cycle
/// gone as soon as it was published.
final class KeepOlderCycleTests: XCTestCase {
    func testOlderCycleWithKeepOneIsRefusedPlainly() throws {
        let directory = try TemporaryDirectory("tilecast-keep-older")
        let tilecast = try tilecastBinary()
        let baseline = Repository.sampleGrids.appendingPathComponent("edge-cases/baseline.nc").path
        let store = directory.path("store")
        let later = try shiftedRun(baseline, byMinutes: 360, into: directory)
        XCTAssertEqual(try runTool(tilecast, ["extract", later, "--store", store, "--keep", "1"]).status, 0)
        let older = try runTool(tilecast, ["extract", baseline, "--store", store, "--keep", "1"])
        XCTAssertEqual(older.status, 2, older.stderr + older.stdout)
        XCTAssertTrue(older.stderr.contains("2026-11-22T00Z is older than the 1 newest cycle the store keeps (2026-11-22T06Z)"), older.stderr)
        XCTAssertFalse(older.stdout.contains("published"), older.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: store + "/wrf/2026-11-22T00Z"))
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: store + "/wrf/latest"), "2026-11-22T06Z")
        // With room for it (--keep 2), the older cycle is published and kept.
        let kept = try runTool(tilecast, ["extract", baseline, "--store", store, "--keep", "2"])
        XCTAssertEqual(kept.status, 0, kept.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: store + "/wrf/2026-11-22T00Z"))
    }
}
