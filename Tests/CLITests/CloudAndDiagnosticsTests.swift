import Foundation
import TestSupport
import XCTest

/// More of issue 28 against Scripts/cloud_snow_reference.py (netCDF4 and numpy; nothing shared
/// with the engine): cloud_base and cloud_top (ECMWF's cloud base height rule on CLDFRA, QCLOUD
/// and QICE), snow_density (SNOW / SNOWH), and the fields WRF writes only with some options
/// (SWDDNI, SWDNBC, LPI, ZNT), on Scripts/add_wrf_diagnostics.py's copy of the real allvars
/// sample (which adds those fields and keeps every other one): every mass node at every frame
/// (its own cell's value), then 500 seeded places between nodes at half-hour times between frames, and 500 more at the
/// frames' own times (few places of the sample have all eight values around them cloudy, so
/// the boundaries' spatial interpolation is checked there).
final class CloudAndDiagnosticsTests: XCTestCase {
    /// Half the stored step plus half the printed decimals' unit.
    private let tolerances = ["cloud_base": 5.51, "cloud_top": 5.51, "snow_density": 1.01, "direct_normal_irradiance": 1.01,
                              "direct_normal_irradiance_instant": 1.01, "shortwave_radiation_clear_sky": 1.01,
                              "lightning_potential": 0.101, "roughness_length": 0.000101]

    func testCloudBoundariesSnowDensityAndDiagnosticsMatchTheReference() throws {
        let sample = try Repository.sharedSample("wrf_d01_allvars_cropped.nc")
        let check = try runTool("python3", ["-c", "import numpy, netCDF4, pyproj"])
        try XCTSkipIf(check.status != 0, "python3 with numpy, netCDF4 and pyproj is needed for the reference: \(check.stderr)")
        let directory = try TemporaryDirectory()
        let input = directory.path("wrfout_d01_diagnostics.nc")
        let made = try runTool("python3", [Repository.root.appendingPathComponent("Scripts/add_wrf_diagnostics.py").path, sample, input])
        XCTAssertEqual(made.status, 0, made.stderr)
        let store = directory.path("store")
        let tilecast = try tilecastBinary()
        let extracted = try runTool(tilecast, ["extract", input, "--store", store, "--set", "all", "--quiet"])
        XCTAssertEqual(extracted.status, 0, extracted.stderr)
        var defined: [String: Int] = [:]
        for onFrames in [false, true] {
            let counts = try compare(input: input, store: store, directory: directory, onFrames: onFrames)
            defined.merge(counts, uniquingKeysWith: +)
        }
        // The sample has fog (a base at the lowest level), cloud aloft and clear columns, and
        // snow in most cells: both sides of each null rule are compared.
        for name in ["cloud_base", "cloud_top"] {
            XCTAssertGreaterThan(defined[name] ?? 0, 100, name)
        }
        XCTAssertGreaterThan(defined["snow_density"] ?? 0, 400)
    }

    /// Compares one reference run with the store's answers; returns the defined rows per variable.
    private func compare(input: String, store: String, directory: TemporaryDirectory, onFrames: Bool) throws -> [String: Int] {
        let script = Repository.root.appendingPathComponent("Scripts/cloud_snow_reference.py").path
        let reference = try runTool("python3", [script, input, "--places", "500", "--seed", "20261127"] + (onFrames ? ["--on-frames"] : []))
        XCTAssertEqual(reference.status, 0, reference.stderr)
        let rows = reference.stdout.split(separator: "\n").map { $0.split(separator: ",").map(String.init) }
        let header = try XCTUnwrap(rows.first)
        XCTAssertEqual(rows.count, 1 + 80 * 4 + 500)
        // The nodes from their own cell (`--cell-selection nearest`): their XLAT/XLONG project a
        // ten-thousandth of a cell off the node, where a null neighbour (a clear column beside a
        // cloudy one) would make the bilinear value null. The places from their four cells.
        let nodes = 80 * 4
        var lines: [[String]] = []
        for (part, selection) in [(rows[1...nodes], "nearest"), (rows[(nodes + 1)...], "land")] {
            let points = directory.path("points-\(selection).csv")
            try ([header] + part).map { $0[0...2].joined(separator: ",") }.joined(separator: "\n")
                .write(toFile: points, atomically: true, encoding: .utf8)
            let answer = try runTool(try tilecastBinary(), ["query", "--store", store, "--points", points, "--format", "csv",
                                                            "--cell-selection", selection, "--variables", tolerances.keys.sorted().joined(separator: ",")])
            XCTAssertEqual(answer.status, 0, answer.stderr)
            let part = answer.stdout.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
            lines += lines.isEmpty ? part : Array(part.dropFirst())
        }
        XCTAssertEqual(lines.count, rows.count)
        var defined: [String: Int] = [:]
        for (name, tolerance) in tolerances.sorted(by: { $0.key < $1.key }) {
            let expected = try XCTUnwrap(header.firstIndex(of: name), name), got = try XCTUnwrap(lines.first?.firstIndex(of: name), name)
            // Between nodes, the reference (pyproj) and the store place a point up to a few
            // ten-thousandths of a cell apart (SharedSampleTests' projection round trip: up to
            // 0.0003 cells), which moves a bilinear value by that much of the largest step
            // between neighbouring cells: the copy's ZNT jumps up to 0.8 m from cell to cell.
            let node = { (k: Int, j: Int, i: Int) in Double(rows[1 + k * 80 + j * 10 + i][expected]) ?? .nan }
            var jump = 0.0
            for k in 0..<4 {
                for j in 0..<8 {
                    for i in 0..<10 {
                        if i < 9, case let d = abs(node(k, j, i + 1) - node(k, j, i)), !d.isNaN { jump = max(jump, d) }
                        if j < 7, case let d = abs(node(k, j + 1, i) - node(k, j, i)), !d.isNaN { jump = max(jump, d) }
                    }
                }
            }
            let placeTolerance = tolerance + 0.0003 * jump
            var worstNode = 0.0, worstPlace = 0.0, undefined = 0
            for (index, (row, line)) in zip(rows.dropFirst(), lines.dropFirst()).enumerated() {
                let value = Double(line[got]) ?? .nan, reference = Double(row[expected]) ?? .nan
                if reference.isNaN {
                    XCTAssertTrue(value.isNaN, "\(name) at \(row[0]), \(row[1]), \(row[2]): \(value), reference undefined")
                    undefined += 1
                    continue
                }
                let isNode = index < nodes
                XCTAssertEqual(value, reference, accuracy: isNode ? tolerance : placeTolerance, "\(name) at \(row[0]), \(row[1]), \(row[2])")
                if isNode { worstNode = max(worstNode, abs(value - reference)) } else { worstPlace = max(worstPlace, abs(value - reference)) }
            }
            print("\(name): worst \(worstNode) at the nodes (tolerance \(tolerance)), \(worstPlace) at the places\(onFrames ? " on frames" : "")"
                  + " (tolerance \(placeTolerance)), over \(rows.count - 1 - undefined) rows (\(undefined) undefined)")
            defined[name] = rows.count - 1 - undefined
            if !["cloud_base", "cloud_top", "snow_density"].contains(name) { XCTAssertEqual(undefined, 0, name) }
        }
        return defined
    }

    /// Without the optional fields (the real sample), each variable is listed as unavailable with
    /// the field it lacks, and its query column is null; the surface set stores snow_density but
    /// not the cloud boundaries, whose columns are for `--set all`.
    func testTheRealSampleLacksTheOptionalFieldsByName() throws {
        let sample = try Repository.sharedSample("wrf_d01_allvars_cropped.nc")
        let tilecast = try tilecastBinary()
        let inspected = try runTool(tilecast, ["inspect", sample])
        XCTAssertEqual(inspected.status, 0, inspected.stderr)
        let missing = inspected.stdout.split(separator: "\n").first { $0.contains("Missing") }.map(String.init) ?? ""
        for (name, field) in [("direct_normal_irradiance", "SWDDNI"), ("shortwave_radiation_clear_sky", "SWDNBC"),
                              ("lightning_potential", "LPI"), ("roughness_length", "ZNT")] {
            XCTAssertTrue(missing.contains("\(name) (no \(field))"), "inspect: \(missing)")
        }
        let directory = try TemporaryDirectory()
        let store = directory.path("store")
        let extracted = try runTool(tilecast, ["extract", sample, "--store", store, "--quiet"])
        XCTAssertEqual(extracted.status, 0, extracted.stderr)
        let answer = try runTool(tilecast, ["query", "--store", store, "--lat", "29.3", "--lon", "86.2", "--format", "csv",
                                            "--variables", "snow_density"])
        XCTAssertEqual(answer.status, 0, answer.stderr)
        let lines = answer.stdout.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let density = try XCTUnwrap(lines.first?.firstIndex(of: "snow_density"))
        XCTAssertTrue(lines.dropFirst().contains { Double($0[density]) != nil }, "the surface set stores snow_density: \(answer.stdout)")
        // A query of what the store lacks is refused, naming the field the run lacks.
        let lightning = try runTool(tilecast, ["query", "--store", store, "--lat", "29.3", "--lon", "86.2", "--variables", "lightning_potential"])
        XCTAssertNotEqual(lightning.status, 0)
        XCTAssertTrue(lightning.stderr.contains("no LPI"), lightning.stderr)
        let base = try runTool(tilecast, ["query", "--store", store, "--lat", "29.3", "--lon", "86.2", "--variables", "cloud_base"])
        XCTAssertNotEqual(base.status, 0, "cloud_base is in the all set")
        XCTAssertTrue(base.stderr.contains("cloud_base is not stored"), base.stderr)
    }
}
