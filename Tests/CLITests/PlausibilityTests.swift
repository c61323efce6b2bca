import Foundation
import TestSupport
import XCTest

/// Values beyond a variable's physical limits (`Sources/Extraction/PhysicalLimits.swift`) are
/// refused at extraction, not published (issue 27 item 7).
final class PlausibilityTests: XCTestCase {
    /// The baseline run with T2 still in kelvin but its units attribute saying "degC": before
    /// the check it was published as 283.84 °C with exit 0.
    func testKelvinLabelledCelsiusIsRefused() throws {
        let directory = try TemporaryDirectory("tilecast-plausibility")
        let tilecast = try tilecastBinary()
        let baseline = Repository.sampleGrids.appendingPathComponent("edge-cases/baseline.nc").path
        let dump = try runTool("ncdump", [baseline])
        XCTAssertEqual(dump.status, 0, dump.stderr)
        XCTAssertTrue(dump.stdout.contains("T2:units = \"K\" ;"))
        let run = directory.path("wrfout_d01_2026-11-22_00:00:00")
        try makeNetCDF(cdl: dump.stdout.replacingOccurrences(of: "T2:units = \"K\" ;", with: "T2:units = \"degC\" ;"),
                       kind: "64-bit-offset", at: run)
        let store = directory.path("store")
        let result = try runTool(tilecast, ["extract", run, "--store", store])
        XCTAssertEqual(result.status, 3, result.stderr)
        XCTAssertTrue(result.stderr.contains("temperature_2m") && result.stderr.contains("kelvin"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: store + "/wrf/latest"), "nothing published")

        // The same run with its units right extracts with no warning about limits.
        let intact = try runTool(tilecast, ["extract", baseline, "--store", store])
        XCTAssertEqual(intact.status, 0, intact.stderr)
        XCTAssertFalse(intact.stderr.contains("physical limits"), intact.stderr)
    }
}

/// Projection attributes that move the grid by less than half a cell are published with a
/// warning above 0.01 cells (issue 27 item 8; real output round-trips within 0.001 cells).
final class ProjectionDriftTests: XCTestCase {
    func testTrueLatitudeOffByAFewDegreesWarns() throws {
        let directory = try TemporaryDirectory("tilecast-projection-drift")
        let tilecast = try tilecastBinary()
        let baseline = Repository.sampleGrids.appendingPathComponent("edge-cases/baseline.nc").path
        let dump = try runTool("ncdump", [baseline])
        XCTAssertTrue(dump.stdout.contains(":TRUELAT1 = 37.f ;"))
        // On this 9 x 7 cell grid TRUELAT1 37 -> 30 moves the cells by 0.023 of a cell.
        let run = directory.path("wrfout_d01_2026-11-22_00:00:00")
        try makeNetCDF(cdl: dump.stdout.replacingOccurrences(of: ":TRUELAT1 = 37.f ;", with: ":TRUELAT1 = 30.f ;"),
                       kind: "64-bit-offset", at: run)
        let result = try runTool(tilecast, ["extract", run, "--store", directory.path("store")])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("warning:") && result.stderr.contains("cells from its XLAT/XLONG"), result.stderr)
        // The intact file: no such warning.
        let intact = try runTool(tilecast, ["extract", baseline, "--store", directory.path("intact")])
        XCTAssertFalse(intact.stderr.contains("cells from its XLAT/XLONG"), intact.stderr)
    }
}
