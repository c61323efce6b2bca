import Foundation
import TestSupport
import XCTest

/// Issue 28's surface, land and radiation variables against Scripts/surface_fluxes_reference.py
/// (netCDF4, numpy, pyproj and pvlib; nothing shared with the engine) on the real allvars
/// sample: every mass node at every frame, then 500 seeded places between nodes at half-hour
/// times between frames. The fluxes with Open-Meteo's sign (towards the surface), amounts
/// de-accumulated over the hour ending at each time (unknown in the first frame's hour: the
/// file starts 12 h into its run), air density from PSFC, T2 and Q2, and the top-of-atmosphere
/// radiation against pvlib's SPA sun and Earth-Sun distance.
final class SurfaceFluxesTests: XCTestCase {
    func testSurfaceFluxesAndAmountsMatchTheFileAtNodesAndBetween() throws {
        let input = try Repository.sharedSample("wrf_d01_allvars_cropped.nc")
        let check = try runTool("python3", ["-c", "import numpy, netCDF4, pyproj, pvlib, pandas"])
        try XCTSkipIf(check.status != 0, "python3 with numpy, netCDF4, pyproj and pvlib is needed for the reference: \(check.stderr)")
        let directory = try TemporaryDirectory()
        let store = directory.path("store")
        let tilecast = try tilecastBinary()
        let extracted = try runTool(tilecast, ["extract", input, "--store", store, "--quiet"])
        XCTAssertEqual(extracted.status, 0, extracted.stderr)
        let script = Repository.root.appendingPathComponent("Scripts/surface_fluxes_reference.py").path
        let reference = try runTool("python3", [script, input, "--places", "500", "--seed", "20261127"])
        XCTAssertEqual(reference.status, 0, reference.stderr)
        let rows = reference.stdout.split(separator: "\n").map { $0.split(separator: ",").map(String.init) }
        let header = try XCTUnwrap(rows.first)
        XCTAssertEqual(rows.count, 1 + 80 * 4 + 500)
        let points = directory.path("points.csv")
        try rows.map { $0[0...2].joined(separator: ",") }.joined(separator: "\n").write(toFile: points, atomically: true, encoding: .utf8)
        // Half the stored step plus the printed decimals' rounding; amounts: two running totals'
        // rounding over a third of a 3-hour interval; air density from the rounded T, Td, p.
        var tolerances = ["latent_heat_flux": 1.01, "sensible_heat_flux": 1.01, "evapotranspiration": 0.0013,
                          "air_density_2m": 0.0012, "shortwave_radiation_instant": 1.01,
                          "snowfall_water_equivalent": 0.016, "hail": 0.016, "runoff": 0.016, "potential_evapotranspiration": 0.016,
                          "terrestrial_radiation": 1.5, "terrestrial_radiation_instant": 1.5]
        for layer in ["0_to_10cm", "10_to_40cm", "40_to_100cm", "100_to_200cm"] { tolerances["soil_moisture_index_\(layer)"] = 0.0011 }
        let answer = try runTool(tilecast, ["query", "--store", store, "--points", points, "--format", "csv",
                                            "--variables", tolerances.keys.sorted().joined(separator: ",")])
        XCTAssertEqual(answer.status, 0, answer.stderr)
        let lines = answer.stdout.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        XCTAssertEqual(lines.count, rows.count)
        for (name, tolerance) in tolerances.sorted(by: { $0.key < $1.key }) {
            let expected = try XCTUnwrap(header.firstIndex(of: name), name), got = try XCTUnwrap(lines.first?.firstIndex(of: name), name)
            var worst = 0.0, unknown = 0, nonZero = 0
            for (row, line) in zip(rows.dropFirst(), lines.dropFirst()) {
                let value = Double(line[got]) ?? .nan, reference = Double(row[expected]) ?? .nan
                if reference.isNaN {
                    // Only the first frame's hour of an amount, on both sides.
                    XCTAssertTrue(value.isNaN, "\(name) at \(row[0]), \(row[1]), \(row[2]): \(value), reference unknown")
                    unknown += 1
                    continue
                }
                if abs(reference) > tolerance { nonZero += 1 }
                XCTAssertEqual(value, reference, accuracy: tolerance, "\(name) at \(row[0]), \(row[1]), \(row[2])")
                worst = max(worst, abs(value - reference))
            }
            print("\(name): worst \(worst) over \(rows.count - 1 - unknown) rows (\(nonZero) beyond the tolerance from 0, \(unknown) unknown)")
        }
    }
}
