import Foundation
import TestSupport
import XCTest

/// Issue 28's column quantities against Scripts/column_reference.py (netCDF4, numpy and MetPy;
/// nothing shared with the engine) on the real allvars sample, which has no CAPE field (so cape
/// is the surface-based parcel's, as convective_inhibition and lifted_index): every mass node at every frame,
/// then 500 seeded places between nodes at half-hour times between frames. The sample lies on
/// the Tibetan plateau (surface pressure 520-560 hPa): 850 and 700 hPa are below its ground, so
/// the K index is null at every node on both sides (MetPy does not extrapolate either).
final class ColumnQuantitiesTests: XCTestCase {
    func testColumnQuantitiesMatchTheReferenceAtNodesAndBetween() throws {
        let input = try Repository.sharedSample("wrf_d01_allvars_cropped.nc")
        let check = try runTool("python3", ["-c", "import numpy, netCDF4, pyproj, metpy"])
        try XCTSkipIf(check.status != 0, "python3 with numpy, netCDF4, pyproj and MetPy is needed for the reference: \(check.stderr)")
        let directory = try TemporaryDirectory()
        let store = directory.path("store")
        let tilecast = try tilecastBinary()
        let extracted = try runTool(tilecast, ["extract", input, "--store", store, "--set", "all", "--quiet"])
        XCTAssertEqual(extracted.status, 0, extracted.stderr)
        let script = Repository.root.appendingPathComponent("Scripts/column_reference.py").path
        let reference = try runTool("python3", [script, input, "--places", "500", "--seed", "20261127"])
        XCTAssertEqual(reference.status, 0, reference.stderr)
        let rows = reference.stdout.split(separator: "\n").map { $0.split(separator: ",").map(String.init) }
        let header = try XCTUnwrap(rows.first)
        XCTAssertEqual(rows.count, 1 + 80 * 4 + 500)
        let points = directory.path("points.csv")
        try rows.map { $0[0...2].joined(separator: ",") }.joined(separator: "\n").write(toFile: points, atomically: true, encoding: .utf8)
        // Half the stored step plus half the printed decimals' unit.
        let tolerances = ["total_column_integrated_water_vapour": 0.101, "freezing_level_height": 3.01, "updraft": 0.0101, "k_index": 0.101,
                          "cape": 1.01, "convective_inhibition": 1.01, "lifted_index": 0.101]
        let answer = try runTool(tilecast, ["query", "--store", store, "--points", points, "--format", "csv",
                                            "--variables", tolerances.keys.sorted().joined(separator: ",")])
        XCTAssertEqual(answer.status, 0, answer.stderr)
        let lines = answer.stdout.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        XCTAssertEqual(lines.count, rows.count)
        for (name, tolerance) in tolerances.sorted(by: { $0.key < $1.key }) {
            let expected = try XCTUnwrap(header.firstIndex(of: name), name), got = try XCTUnwrap(lines.first?.firstIndex(of: name), name)
            var worst = 0.0, undefined = 0
            for (row, line) in zip(rows.dropFirst(), lines.dropFirst()) {
                let value = Double(line[got]) ?? .nan, reference = Double(row[expected]) ?? .nan
                if reference.isNaN {
                    XCTAssertTrue(value.isNaN, "\(name) at \(row[0]), \(row[1]), \(row[2]): \(value), reference undefined")
                    undefined += 1
                    continue
                }
                XCTAssertEqual(value, reference, accuracy: tolerance, "\(name) at \(row[0]), \(row[1]), \(row[2])")
                worst = max(worst, abs(value - reference))
            }
            print("\(name): worst \(worst) over \(rows.count - 1 - undefined) rows (\(undefined) undefined)")
            if name == "k_index" { XCTAssertEqual(undefined, rows.count - 1) } else { XCTAssertEqual(undefined, 0, name) }
        }
    }
}
