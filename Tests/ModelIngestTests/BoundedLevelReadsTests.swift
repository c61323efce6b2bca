import Foundation
import Catalog
import ModelIngest
import TestSupport
import XCTest

/// The extraction reads PH + PHB only up to the lowest level 6 km above the ground everywhere,
/// and P + PB only up to the level 100 hPa above the ground, each first as far as the previous
/// frame needed. On `Scripts/make_rising_levels_sample.py`'s copy of the real allvars sample,
/// one column of frame 2 needs levels past that first guess; the cloud layers and the sea-level
/// pressure must still match their references (`Scripts/variables_reference.py`,
/// `Scripts/slp_reference.py`, which read every level) at every cell and frame.
final class BoundedLevelReadsTests: XCTestCase {
    func testLevelsRisingPastThePreviousFrameAreReadAgain() throws {
        let check = try runTool("python3", ["-c", "import numpy, netCDF4"])
        try XCTSkipIf(check.status != 0, "python3 with numpy and netCDF4 is needed for the references: \(check.stderr)")
        let sample = try Repository.sharedSample("wrf_d01_allvars_cropped.nc")
        let directory = try TemporaryDirectory("tilecast-rising")
        let path = directory.path("wrfout_d01_rising.nc")
        let made = try runTool("python3", [Repository.root.appendingPathComponent("Scripts/make_rising_levels_sample.py").path, sample, path])
        XCTAssertEqual(made.status, 0, made.stderr)
        // The copy must move its column past the first guesses: the 6 km level by more than the
        // guess's margin of one level (+3 staggered levels read), the search level by more than one.
        var moved: [String: (Int, Int)] = [:]
        for line in made.stdout.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.count == 4, let before = Int(fields[2]), let after = Int(fields[3]) { moved[String(fields[1])] = (before, after) }
        }
        let sixKm = try XCTUnwrap(moved["six_km_level"]), search = try XCTUnwrap(moved["slp_search_level"])
        XCTAssertGreaterThan(sixKm.1, sixKm.0 + 1, "the 6 km level must rise past the first guess")
        XCTAssertGreaterThan(search.1, search.0 + 1, "the search level must deepen past the first guess")

        let domain = try onlyDomain(ModelRun.read(paths: [path]))
        let we = domain.grid.westEast, sn = domain.grid.southNorth
        let variables: [ForecastVariable] = [.cloudCoverLow, .cloudCoverMid, .cloudCoverHigh, .pressureMSL]
        let frames = try readAllFrames(domain, variables: variables)
        XCTAssertEqual(frames.count, 4)

        let layers = try reference("variables_reference.py", path, columns: 5)
        let slp = try reference("slp_reference.py", path, columns: 4)
        for (variable, expected, tolerance) in [(ForecastVariable.cloudCoverLow, layers["cloud_cover_low"], 1e-3),
                                                (.cloudCoverMid, layers["cloud_cover_mid"], 1e-3),
                                                (.cloudCoverHigh, layers["cloud_cover_high"], 1e-3),
                                                (.pressureMSL, slp[""], 0.1)] {
            let expected = try XCTUnwrap(expected, variable.rawValue)
            let (worst, compared, _) = try worstDifference(frames, variable, reference: expected, westEast: we, southNorth: sn)
            print("\(variable.rawValue) on the rising-levels copy: worst \(worst) \(variable.unit) over \(compared) cell-frames")
            XCTAssertEqual(compared, frames.count * we * sn)
            XCTAssertLessThanOrEqual(worst, tolerance, variable.rawValue)
        }
    }

    /// A reference script's CSV (a header, then "[variable,]frame,j,i,value"), by variable
    /// ("" when the rows have none), frame and j * 1000 + i.
    private func reference(_ script: String, _ path: String, columns: Int) throws -> [String: [Int: [Int: Double]]] {
        let result = try runTool("python3", [Repository.root.appendingPathComponent("Scripts/\(script)").path, path])
        XCTAssertEqual(result.status, 0, result.stderr)
        var rows: [String: [Int: [Int: Double]]] = [:]
        for line in result.stdout.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: ",").map(String.init)
            guard fields.count == columns else { continue }
            let name = columns == 5 ? fields[0] : "", numbers = fields.suffix(4)
            guard let frame = Int(numbers[numbers.startIndex]), let j = Int(numbers[numbers.startIndex + 1]),
                  let i = Int(numbers[numbers.startIndex + 2]) else { continue }
            rows[name, default: [:]][frame, default: [:]][j * 1000 + i] = Double(numbers[numbers.startIndex + 3]) ?? .nan
        }
        return rows
    }
}
