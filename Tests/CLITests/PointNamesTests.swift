import Foundation
import TestSupport
import XCTest

/// Names in a points file (and `serve --places`, the same reader) that hold an escaped quote
/// or U+2028 are read whole and written back quoted (issue 27 item 8): before, `""` lost both
/// quotes and U+2028 split the row in two.
final class PointNamesTests: XCTestCase {
    func testEscapedQuotesAndLineSeparatorsInNames() throws {
        let directory = try TemporaryDirectory("tilecast-point-names")
        let tilecast = try tilecastBinary()
        let store = directory.path("store")
        let baseline = Repository.sampleGrids.appendingPathComponent("edge-cases/baseline.nc").path
        XCTAssertEqual(try runTool(tilecast, ["extract", baseline, "--store", store]).status, 0)
        let points = directory.path("places.csv")
        try "name,lat,lon\n\"Say \"\"hi\"\", then go\",39.3,-8.0\n\"Line\u{2028}sep\",39.3,-8.0\n"
            .write(toFile: points, atomically: true, encoding: .utf8)
        let csv = try runTool(tilecast, ["query", "--store", store, "--points", points, "--start", "2026-11-22T00Z", "--hours", "2",
                                         "--format", "csv"])
        XCTAssertEqual(csv.status, 0, csv.stderr)
        let rows = csv.stdout.split(separator: "\n").dropFirst()
        XCTAssertEqual(rows.count, 4, csv.stdout)
        XCTAssertEqual(rows.filter { $0.hasPrefix("\"Say \"\"hi\"\", then go\",39.3") }.count, 2, csv.stdout)
        XCTAssertEqual(rows.filter { $0.hasPrefix("\"Line\u{2028}sep\",39.3") }.count, 2, csv.stdout)
        let json = try runTool(tilecast, ["query", "--store", store, "--points", points, "--start", "2026-11-22T00Z", "--hours", "2"])
        XCTAssertEqual(json.status, 0, json.stderr)
        XCTAssertTrue(json.stdout.contains("\"Say \\\"hi\\\", then go\""), json.stdout)
    }
}
