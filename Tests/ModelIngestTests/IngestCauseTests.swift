import Catalog
import Foundation
import GridGeometry
import Meteorology
import ModelIngest
import NetCDF
import TestSupport
import XCTest

/// Ingest's errors keep their causes as values (issue 44 item 4): a projection the file's
/// parameters cannot make keeps GridGeometry's error, a damaged file in a run folder keeps
/// libnetcdf's; the words are what they were.
final class IngestCauseTests: XCTestCase {
    func testAnImpossibleProjectionKeepsGridGeometrysError() throws {
        let check = try runTool("python3", ["-c", "import netCDF4"])
        try XCTSkipIf(check.status != 0, "netCDF4 (Scripts/requirements.txt) is not installed")
        let directory = try TemporaryDirectory("ingest-cause")
        let path = directory.path("wrfout_d01_2026-11-22_00:00:00")
        try FileManager.default.copyItem(atPath: Fixture.edge("baseline.nc"), toPath: path)
        // Lambert with a first true latitude of 95 degrees: no such cone.
        let edited = try runTool("python3", ["-c", "import netCDF4, sys; d = netCDF4.Dataset(sys.argv[1], 'a'); d.TRUELAT1 = 95.0; d.close()", path])
        XCTAssertEqual(edited.status, 0, edited.stderr)
        XCTAssertThrowsError(try ModelRun.read(paths: [path])) { error in
            guard case IngestError.projection(let file, let cause) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(file, path)
            guard case GridGeometryError.invalidParameters(let message) = cause else { return XCTFail("\(cause)") }
            XCTAssertTrue(message.contains("95"), message)
            XCTAssertEqual("\(error)", "\(path): unusable map projection: \(message)")
            XCTAssertEqual(ExitStatus(for: error), .unusableInput)
        }
    }
}
