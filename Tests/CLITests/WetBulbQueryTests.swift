import Foundation
import TestSupport
import XCTest

/// wet_bulb_temperature_2m, computed by the query from the interpolated 2 m temperature and
/// relative humidity (as Open-Meteo computes it) through the registry alone
/// (`VariableSpec.pointwise`): at 40 seeded places and times on the real allvars sample, the
/// answer equals Stull (2011) eq. 1 evaluated here, in double precision, on the same answer's
/// temperature and humidity columns.
final class WetBulbQueryTests: XCTestCase {
    /// Stull's fit, written out from the paper (not the engine's function).
    private func stull(_ t: Double, _ rh: Double) -> Double {
        min(t, t * atan(0.151977 * (rh + 8.313659).squareRoot()) + atan(t + rh) - atan(rh - 1.676331)
            + 0.00391838 * pow(rh, 1.5) * atan(0.023101 * rh) - 4.686035)
    }

    func testWetBulbFollowsTemperatureAndHumidity() throws {
        let input = try Repository.sharedSample("wrf_d01_allvars_cropped.nc")
        let directory = try TemporaryDirectory()
        let store = directory.path("store")
        let tilecast = try tilecastBinary()
        let extracted = try runTool(tilecast, ["extract", input, "--store", store, "--quiet"])
        XCTAssertEqual(extracted.status, 0, extracted.stderr)
        var generator = SeededGenerator(seed: 20261126)
        var rows: [String] = []
        for _ in 0..<40 {
            let latitude = Double.random(in: 29.2...30.8, using: &generator), longitude = Double.random(in: 85.8...88.2, using: &generator)
            let minute = Int.random(in: 0...(9 * 60), using: &generator)
            rows.append(String(format: "%.4f,%.4f,2005-09-21T%02d:%02dZ", latitude, longitude, minute / 60, minute % 60))
        }
        let points = directory.path("points.csv")
        try (["latitude,longitude,time"] + rows).joined(separator: "\n").write(toFile: points, atomically: true, encoding: .utf8)
        let answer = try runTool(tilecast, ["query", "--store", store, "--points", points, "--format", "csv",
                                            "--variables", "temperature_2m,relative_humidity_2m,wet_bulb_temperature_2m"])
        XCTAssertEqual(answer.status, 0, answer.stderr)
        let lines = answer.stdout.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let header = try XCTUnwrap(lines.first)
        let (t, rh, wet) = try (XCTUnwrap(header.firstIndex(of: "temperature_2m")), XCTUnwrap(header.firstIndex(of: "relative_humidity_2m")),
                                XCTUnwrap(header.firstIndex(of: "wet_bulb_temperature_2m")))
        XCTAssertEqual(lines.count, rows.count + 1)
        var worst = 0.0, depression = 0.0
        for line in lines.dropFirst() {
            let temperature = try XCTUnwrap(Double(line[t])), humidity = try XCTUnwrap(Double(line[rh])), value = try XCTUnwrap(Double(line[wet]))
            // The printed temperature (0.005) and humidity (0.05 %, ~0.01 K of Tw) and the
            // answer's own rounding (0.005), and float32 arithmetic.
            XCTAssertEqual(value, stull(temperature, humidity), accuracy: 0.03, line.joined(separator: ","))
            worst = max(worst, abs(value - stull(temperature, humidity)))
            depression = max(depression, temperature - value)
        }
        // The sample's afternoon air is dry enough for a depression of several kelvin: the
        // check compares a quantity that differs from the temperature.
        XCTAssertGreaterThan(depression, 1)
        print("wet_bulb_temperature_2m: worst \(worst) K over \(rows.count) places, largest depression \(depression) K")
    }
}
