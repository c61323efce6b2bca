import Foundation
import TestSupport
import XCTest

/// Issue 28's height and pressure levels against Scripts/levels_reference.py (numpy
/// transcriptions of wrf-python's interplevel, tk, rh, td, destagger and the wind rotation;
/// netCDF4 and pyproj, nothing shared with the engine) on the real allvars sample: every mass
/// node at every frame, then 500 seeded places between nodes at half-hour times between frames.
/// The sample lies over the Tibetan plateau: 1000-700 hPa are below the ground (null on both
/// sides), 500-200 hPa and every height are values.
final class LevelsTests: XCTestCase {
    private static let heights = [80, 100, 120, 180]
    private static let pressures = [1000, 925, 850, 700, 500, 300, 250, 200]

    /// Each served level name and its tolerance: half the stored step (a step may be up to twice
    /// the precision) plus the printed decimals' rounding.
    private static var tolerances: [String: Double] {
        var tolerances: [String: Double] = [:]
        let levels = heights.map { "\($0)m" } + pressures.map { "\($0)hPa" }
        for level in levels {
            tolerances["temperature_\(level)"] = 0.056
            tolerances["wind_u_component_\(level)"] = 0.056
            tolerances["wind_v_component_\(level)"] = 0.056
            tolerances["wind_speed_\(level)"] = 0.08
            tolerances["wind_direction_\(level)"] = 0   // checked against the speed below
        }
        for level in pressures.map({ "\($0)hPa" }) {
            tolerances["relative_humidity_\(level)"] = 0.56
            tolerances["dew_point_\(level)"] = 0.056
            // Whole metres and percent: a step of up to 2 (twice the precision) and the printed integer.
            tolerances["geopotential_height_\(level)"] = 1.51
            tolerances["cloud_cover_\(level)"] = 1.51
            tolerances["vertical_velocity_\(level)"] = 0.0101
        }
        return tolerances
    }

    func testLevelsMatchWrfPythonsAlgorithmsAtNodesAndBetween() throws {
        let valued = try compare("wrf_d01_allvars_cropped.nc", cells: 80, westEast: 10)
        XCTAssertGreaterThan(valued, 30 * 820, "most level values are values on the sample (500 hPa and above, every height)")
    }

    /// wrf_cropped.nc (T, P, PB, PH, PHB, QVAPOR only) spans the Himalaya and the plains south
    /// of it: 1000-850 hPa are values over the plains and null under the mountains, so the
    /// below-ground rule is checked cell by cell, and between a valued and a null node.
    func testPressureLevelsOverMountainsAndPlains() throws {
        let valued = try compare("wrf_cropped.nc", cells: 26 * 26, westEast: 26)
        XCTAssertGreaterThan(valued, 15_000, "17,304 on the sample: the plains at 1000-850 hPa, everything from 700 hPa up")
    }

    /// Whether a node row's value has a null among its eight neighbours at the same frame (node
    /// rows come frame by frame, south_north then west_east).
    private static func besideNull(_ rows: [[String]], column: Int, node: Int, cells: Int, westEast: Int) -> Bool {
        let frame = node / cells, j = node % cells / westEast, i = node % westEast, southNorth = cells / westEast
        for dj in -1...1 {
            for di in -1...1 where (0..<westEast).contains(i + di) && (0..<southNorth).contains(j + dj) {
                let neighbour = 1 + frame * cells + (j + dj) * westEast + i + di
                if (Double(rows[neighbour][column]) ?? .nan).isNaN { return true }
            }
        }
        return false
    }

    /// The levels are read only as deep as the previous frame needed plus a level, the whole
    /// column when that falls short: on `Scripts/make_rising_levels_sample.py`'s copy, one
    /// column of frame 2 is squeezed (heights by 0.6, the pressure drop by 0.5): its pressure
    /// never falls below 200 hPa, so frame 2 reads P and PB whole again (and 200 hPa is null
    /// there), and its 180 m level lies one level higher (within the margin read). The
    /// reference reads every level.
    func testLevelsRisingPastThePreviousFrameAreReadAgain() throws {
        let check = try runTool("python3", ["-c", "import numpy, netCDF4"])
        try XCTSkipIf(check.status != 0, "python3 with numpy and netCDF4 is needed: \(check.stderr)")
        let directory = try TemporaryDirectory("tilecast-rising-levels")
        let path = directory.path("wrfout_d01_rising.nc")
        let made = try runTool("python3", [Repository.root.appendingPathComponent("Scripts/make_rising_levels_sample.py").path,
                                           try Repository.sharedSample("wrf_d01_allvars_cropped.nc"), path])
        XCTAssertEqual(made.status, 0, made.stderr)
        let valued = try compare(path, cells: 80, westEast: 10)
        XCTAssertGreaterThan(valued, 30 * 820)
    }

    /// Extracts `sample` with `--set all`, queries every level name the reference computes for
    /// it at its nodes and frames and 500 seeded places between; returns the values compared.
    private func compare(_ sample: String, cells: Int, westEast: Int) throws -> Int {
        let input = sample.hasPrefix("/") ? sample : try Repository.sharedSample(sample)
        let check = try runTool("python3", ["-c", "import numpy, netCDF4, pyproj"])
        try XCTSkipIf(check.status != 0, "python3 with numpy, netCDF4 and pyproj is needed for the reference: \(check.stderr)")
        let directory = try TemporaryDirectory()
        let store = directory.path("store")
        let tilecast = try tilecastBinary()
        let extracted = try runTool(tilecast, ["extract", input, "--store", store, "--set", "all", "--quiet"])
        XCTAssertEqual(extracted.status, 0, extracted.stderr)
        let script = Repository.root.appendingPathComponent("Scripts/levels_reference.py").path
        let reference = try runTool("python3", [script, input, "--places", "500", "--seed", "20261127"])
        XCTAssertEqual(reference.status, 0, reference.stderr)
        let rows = reference.stdout.split(separator: "\n").map { $0.split(separator: ",").map(String.init) }
        let header = try XCTUnwrap(rows.first)
        XCTAssertEqual(rows.count, 1 + cells * 4 + 500)
        let points = directory.path("points.csv")
        try rows.map { $0[0...2].joined(separator: ",") }.joined(separator: "\n").write(toFile: points, atomically: true, encoding: .utf8)
        let tolerances = Self.tolerances.filter { header.contains($0.key) }
        XCTAssertGreaterThanOrEqual(tolerances.count, 32)
        let answer = try runTool(tilecast, ["query", "--store", store, "--points", points, "--format", "csv", "--wind-speed-unit", "ms",
                                            "--variables", tolerances.keys.sorted().joined(separator: ",")])
        XCTAssertEqual(answer.status, 0, answer.stderr)
        let lines = answer.stdout.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        XCTAssertEqual(lines.count, rows.count)
        var valued = 0
        for (name, tolerance) in tolerances.sorted(by: { $0.key < $1.key }) {
            let expected = try XCTUnwrap(header.firstIndex(of: name), name), got = try XCTUnwrap(lines.first?.firstIndex(of: name), name)
            let speedName = name.replacingOccurrences(of: "wind_direction", with: "wind_speed")
            let speedColumn = header.firstIndex(of: speedName)
            var worst = 0.0, unknown = 0, compared = 0, besideNulls = 0
            for (index, (row, line)) in zip(rows.dropFirst(), lines.dropFirst()).enumerated() {
                let value = Double(line[got]) ?? .nan, reference = Double(row[expected]) ?? .nan
                if value.isNaN, !reference.isNaN, index < 4 * cells, Self.besideNull(rows, column: expected, node: index, cells: cells, westEast: westEast) {
                    // A node's own coordinates come back from the projection a hair off the node
                    // (1e-4 cells on wrf_cropped.nc, whose coordinates are inconsistent), which puts
                    // a little weight on a neighbour: one where the level is below the ground
                    // makes the place null, as any place between a valued and a null cell is.
                    besideNulls += 1
                    continue
                }
                if reference.isNaN {
                    // Below the ground (or the lowest model level): null, never a made-up number.
                    XCTAssertTrue(value.isNaN, "\(name) at \(row[0]), \(row[1]), \(row[2]): \(value), reference null")
                    unknown += 1
                    continue
                }
                if name.hasPrefix("wind_direction") {
                    // A direction is as good as its components: 0.06 m/s across the speed, plus
                    // the printed whole degree; calm winds have no direction worth checking.
                    let speed = speedColumn.flatMap { Double(row[$0]) } ?? 0
                    guard speed >= 1 else { continue }
                    let allowed = 0.51 + (0.08 / speed) * 180 / .pi
                    let difference = abs((value - reference + 540).truncatingRemainder(dividingBy: 360) - 180)
                    XCTAssertLessThanOrEqual(difference, allowed, "\(name) at \(row[0]), \(row[1]), \(row[2]): \(value) vs \(reference)")
                    worst = max(worst, difference)
                } else {
                    XCTAssertEqual(value, reference, accuracy: tolerance, "\(name) at \(row[0]), \(row[1]), \(row[2])")
                    worst = max(worst, abs(value - reference))
                }
                compared += 1
            }
            valued += compared
            print("\(sample) \(name): worst \(worst) over \(compared) rows (\(unknown) null, \(besideNulls) nodes beside a null cell null)")
        }
        return valued
    }

    /// The default set stores what was stored before the levels and none of them; `--set all`
    /// stores them, and `--variables` can name one alone.
    func testTheSurfaceSetStoresNoLevelsAndTheAllSetStoresThem() throws {
        let input = try Repository.sharedSample("wrf_d01_allvars_cropped.nc")
        let directory = try TemporaryDirectory()
        let tilecast = try tilecastBinary()
        func stored(_ arguments: [String], _ name: String) throws -> Set<String> {
            let store = directory.path(name)
            let extracted = try runTool(tilecast, ["extract", input, "--store", store, "--quiet"] + arguments)
            XCTAssertEqual(extracted.status, 0, extracted.stderr)
            let data = try Data(contentsOf: URL(fileURLWithPath: store + "/wrf/latest/cycle.json"))
            let cycle = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
            let domains = try XCTUnwrap(cycle["domains"] as? [[String: Any]])
            return Set(domains.flatMap { $0["variables"] as? [String] ?? [] })
        }
        let surface = try stored([], "surface")
        let named = try stored(["--set", "surface"], "named")
        let all = try stored(["--set", "all"], "all")
        let one = try stored(["--variables", "wind_speed_80m"], "one")
        let isLevel = { (name: String) in name.hasSuffix("hPa") || ["_80m", "_100m", "_120m", "_180m"].contains { name.hasSuffix($0) } }
        XCTAssertEqual(surface, named)
        XCTAssertTrue(surface.contains("temperature_2m") && surface.contains("cloud_cover_low"), "\(surface.sorted())")
        XCTAssertEqual(surface.filter(isLevel), [], "the default set holds no level")
        // Nor a cape lifted through the model levels (tens of seconds a run): the sample has no
        // CAPE field, so the surface set has no cape.
        XCTAssertFalse(surface.contains("cape"), "\(surface.sorted())")
        // The column quantities (issue 28) are in the all set too, and cape worked out from the
        // model levels (the sample has no CAPE field), and the cloud base and top: nine beside the levels.
        let column: Set = ["total_column_integrated_water_vapour", "freezing_level_height", "updraft", "k_index", "cape",
                           "convective_inhibition", "lifted_index", "cloud_base", "cloud_top"]
        XCTAssertEqual(all.subtracting(surface).subtracting(column).count, 76,
                       "12 at heights, 8 at each of 8 pressure levels: \(all.subtracting(surface).sorted())")
        XCTAssertTrue(all.subtracting(surface).subtracting(column).allSatisfy(isLevel))
        XCTAssertEqual(all.subtracting(surface).intersection(column), column)
        XCTAssertTrue(all.isSuperset(of: surface))
        XCTAssertEqual(one, ["wind_u_component_80m", "wind_v_component_80m"], "the wind's stored components, nothing else")
        let refused = try runTool(tilecast, ["extract", input, "--store", directory.path("bad"), "--set", "everything", "--quiet"])
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.stderr.contains("surface, all"), refused.stderr)
    }

    /// `inspect` lists what each set would hold, and for the levels what the run lacks and why.
    func testInspectListsTheSetsAndWhatTheLevelsLack() throws {
        let tilecast = try tilecastBinary()
        let allvars = try runTool(tilecast, ["inspect", try Repository.sharedSample("wrf_d01_allvars_cropped.nc")])
        XCTAssertEqual(allvars.status, 0, allvars.stderr)
        XCTAssertTrue(allvars.stdout.contains("  Set all      adds 85: "), allvars.stdout)   // 76 levels, 7 column quantities, cloud base and top
        XCTAssertTrue(allvars.stdout.contains("temperature_850hPa"), allvars.stdout)
        XCTAssertFalse(allvars.stdout.contains("All lacks"), allvars.stdout)
        // T, P, PB, PH, PHB and QVAPOR but no U, V, W, CLDFRA, HGT: what they make and what they cannot.
        let cropped = try runTool(tilecast, ["inspect", try Repository.sharedSample("wrf_cropped.nc")])
        XCTAssertEqual(cropped.status, 0, cropped.stderr)
        let line = try XCTUnwrap(cropped.stdout.split(separator: "\n").first { $0.contains("  All lacks ") }, cropped.stdout)
        XCTAssertTrue(line.contains("wind_u_component_850hPa") && line.contains("no U"), String(line))
        XCTAssertTrue(line.contains("vertical_velocity_500hPa") && line.contains("no W"), String(line))
        XCTAssertTrue(line.contains("temperature_80m") && line.contains("no HGT"), String(line))
        let set = try XCTUnwrap(cropped.stdout.split(separator: "\n").first { $0.contains("Set all") }, cropped.stdout)
        XCTAssertTrue(set.contains("temperature_850hPa") && set.contains("geopotential_height_500hPa") && set.contains("dew_point_1000hPa"), String(set))
    }
}
