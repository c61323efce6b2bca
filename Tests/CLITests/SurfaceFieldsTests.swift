import Foundation
import TestSupport
import XCTest

/// Fields WRF stores at the surface, served as they are (surface_temperature from TSK,
/// boundary_layer_height from PBLH, snow_depth_water_equivalent from SNOW, albedo from ALBEDO
/// in %: the last one added through the registry alone, `VariableSpec.field`), against
/// Scripts/surface_fields_reference.py on the real allvars sample: 500 seeded places, half on
/// nodes at frame times, half between nodes at half-hour times.
final class SurfaceFieldsTests: XCTestCase {
    func testSurfaceFieldsMatchTheFileAtNodesAndBetween() throws {
        let input = try Repository.sharedSample("wrf_d01_allvars_cropped.nc")
        let check = try runTool("python3", ["-c", "import numpy, netCDF4, pyproj"])
        try XCTSkipIf(check.status != 0, "python3 with numpy, netCDF4 and pyproj is needed for the reference: \(check.stderr)")
        let directory = try TemporaryDirectory()
        let store = directory.path("store")
        let tilecast = try tilecastBinary()
        let extracted = try runTool(tilecast, ["extract", input, "--store", store, "--quiet"])
        XCTAssertEqual(extracted.status, 0, extracted.stderr)
        let script = Repository.root.appendingPathComponent("Scripts/surface_fields_reference.py").path
        let reference = try runTool("python3", [script, input, "--places", "500", "--seed", "20261122"])
        XCTAssertEqual(reference.status, 0, reference.stderr)
        let rows = reference.stdout.split(separator: "\n").map { $0.split(separator: ",").map(String.init) }
        let header = try XCTUnwrap(rows.first)
        let points = directory.path("points.csv")
        try rows.map { $0[0...2].joined(separator: ",") }.joined(separator: "\n").write(toFile: points, atomically: true, encoding: .utf8)
        // Stored precision (half a step), plus the printed decimals' rounding.
        let tolerances = ["surface_temperature": 0.06, "boundary_layer_height": 1.1, "snow_depth_water_equivalent": 0.06, "albedo": 1.1]
        let answer = try runTool(tilecast, ["query", "--store", store, "--points", points, "--format", "csv",
                                            "--variables", tolerances.keys.sorted().joined(separator: ",")])
        XCTAssertEqual(answer.status, 0, answer.stderr)
        let lines = answer.stdout.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        XCTAssertEqual(lines.count, rows.count)
        for (name, tolerance) in tolerances {
            let expected = try XCTUnwrap(header.firstIndex(of: name)), got = try XCTUnwrap(lines.first?.firstIndex(of: name))
            var worst = 0.0
            for (row, line) in zip(rows.dropFirst(), lines.dropFirst()) {
                let value = Double(line[got]) ?? .nan, reference = Double(row[expected]) ?? .nan
                XCTAssertEqual(value, reference, accuracy: tolerance, "\(name) at \(row[0]), \(row[1]), \(row[2])")
                worst = max(worst, abs(value - reference))
            }
            print("\(name): worst \(worst) over \(rows.count - 1) places")
        }
    }
}
