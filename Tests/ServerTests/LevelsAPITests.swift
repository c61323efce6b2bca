import Foundation
import TestSupport
import XCTest

/// `/v1/forecast` serves issue 28's height and pressure levels from a `--set all` cycle of the
/// real allvars sample: Open-Meteo's names and older spellings, nulls below the ground, units,
/// and (with the official SDK) FlatBuffers' Variable code with altitude or pressure_level.
/// Values at a grid node against Scripts/levels_reference.py (independent numpy).
final class LevelsAPITests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var store: String!
    /// Grid node (i 2, j 2) of the sample, and the frames at 03Z and 06Z.
    private let latitude = "29.592853546142578", longitude = "86.22445678710938"

    override func setUpWithError() throws {
        directory = try TemporaryDirectory("tilecast-server-levels")
        store = directory.path("store")
        let result = try StoreMaker.run(["extract", try Repository.sharedSample("wrf_d01_allvars_cropped.nc"), "--store", store,
                                         "--set", "all", "--quiet"])
        XCTAssertEqual(result.status, 0, result.stderr)
    }

    /// The reference's values at the node at 03Z and 06Z, by name.
    private func reference() throws -> [String: [Double]] {
        let check = try runTool("python3", ["-c", "import numpy, netCDF4, pyproj"])
        try XCTSkipIf(check.status != 0, "python3 with numpy, netCDF4 and pyproj is needed for the reference: \(check.stderr)")
        let script = Repository.root.appendingPathComponent("Scripts/levels_reference.py").path
        let run = try runTool("python3", [script, try Repository.sharedSample("wrf_d01_allvars_cropped.nc"), "--places", "0"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let rows = run.stdout.split(separator: "\n").map { $0.split(separator: ",").map(String.init) }
        let header = try XCTUnwrap(rows.first)
        let node = rows.dropFirst().filter { abs((Double($0[0]) ?? 0) - 29.592853546142578) < 1e-4 && abs((Double($0[1]) ?? 0) - 86.22445678710938) < 1e-4 }
            .filter { $0[2] == "2005-09-21T03:00Z" || $0[2] == "2005-09-21T06:00Z" }
        XCTAssertEqual(node.count, 2)
        var values: [String: [Double]] = [:]
        for (index, name) in header.enumerated().dropFirst(3) { values[name] = node.map { Double($0[index]) ?? .nan } }
        return values
    }

    func testLevelsAreServedByNameWithNullsBelowTheGround() async throws {
        let expected = try reference()
        let names = ["temperature_850hPa", "wind_speed_80m", "windspeed_80m", "winddirection_80m", "temperature_500hPa",
                     "relativehumidity_500hPa", "geopotential_height_300hPa", "vertical_velocity_500hPa", "wind_speed_200hPa"]
        let query = "/v1/forecast?latitude=\(latitude)&longitude=\(longitude)&start_hour=2005-09-21T03:00&end_hour=2005-09-21T06:00&hourly="
            + names.joined(separator: ",")
        try await LiveServer.with(configuration(store)) { server in
            let answer = try await server.get(query + "&wind_speed_unit=ms")
            XCTAssertEqual(answer.status, 200, answer.body)
            let hourly = try XCTUnwrap(answer.object?["hourly"] as? [String: Any], answer.body)
            let units = try XCTUnwrap(answer.object?["hourly_units"] as? [String: String], answer.body)
            func series(_ name: String) throws -> [Double?] {
                let values = try XCTUnwrap(hourly[name] as? [Any], "\(name): \(answer.body)")
                XCTAssertEqual(values.count, 4, name)
                return values.map { $0 as? Double }
            }
            // 850 hPa lies below the plateau's ground: null, with its unit (a served variable).
            XCTAssertEqual(try series("temperature_850hPa").compactMap { $0 }, [], answer.body)
            XCTAssertEqual(units["temperature_850hPa"], "°C")
            XCTAssertEqual(units["wind_speed_80m"], "m/s")
            XCTAssertEqual(units["vertical_velocity_500hPa"], "m/s")
            XCTAssertEqual(units["geopotential_height_300hPa"], "m")
            let checks: [(String, String, Double)] = [
                ("wind_speed_80m", "wind_speed_80m", 0.08), ("windspeed_80m", "wind_speed_80m", 0.08),
                ("temperature_500hPa", "temperature_500hPa", 0.056), ("relativehumidity_500hPa", "relative_humidity_500hPa", 0.56),
                ("geopotential_height_300hPa", "geopotential_height_300hPa", 1.51),
                ("vertical_velocity_500hPa", "vertical_velocity_500hPa", 0.0101), ("wind_speed_200hPa", "wind_speed_200hPa", 0.08),
            ]
            for (name, referenceName, tolerance) in checks {
                let got = try series(name), want = try XCTUnwrap(expected[referenceName], referenceName)
                for (value, reference) in zip([got[0], got[3]], want) {
                    XCTAssertEqual(try XCTUnwrap(value, name), reference, accuracy: tolerance, name)
                }
            }
            let direction = try series("winddirection_80m")
            XCTAssertEqual(direction.compactMap { $0 }.count, 4)
            // wind_speed_unit converts the winds, never the vertical velocity (Open-Meteo's rule).
            let kmh = try await server.get(query)
            XCTAssertEqual(kmh.status, 200, kmh.body)
            let kmhHourly = try XCTUnwrap(kmh.object?["hourly"] as? [String: Any])
            let kmhUnits = try XCTUnwrap(kmh.object?["hourly_units"] as? [String: String])
            XCTAssertEqual(kmhUnits["wind_speed_80m"], "km/h")
            XCTAssertEqual(kmhUnits["vertical_velocity_500hPa"], "m/s")
            let fast = try XCTUnwrap(kmhHourly["wind_speed_80m"] as? [Double]), slow = try series("wind_speed_80m").compactMap { $0 }
            for (a, b) in zip(fast, slow) { XCTAssertEqual(a, b * 3.6, accuracy: 0.07, "km/h printed to 0.1, m/s to 0.01") }
            XCTAssertEqual(kmhHourly["vertical_velocity_500hPa"] as? [Double], hourly["vertical_velocity_500hPa"] as? [Double])
        }
    }

    /// The official SDK reads the levels with the schema's Variable code and altitude or
    /// pressure_level (openmeteo-sdk flatbuffers/weather_api.fbs: temperature 47, wind_speed 59,
    /// wind_direction 57, geopotential_height 61).
    func testFlatBuffersCarryAltitudeAndPressureLevel() async throws {
        let python = try ClientLibraryPins.sdkPython()
        let script = Repository.root.appendingPathComponent("Tests/ServerTests/openmeteo_sdk_levels.py").path
        try await LiveServer.with(configuration(store)) { server in
            let result = try runTool(python, [script, server.base, latitude, longitude])
            XCTAssertEqual(result.status, 0, result.stderr)
            let answer = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]], result.stdout)
            let expected: [(Int, Int, Int, Int)] = [(47, 0, 850, 0), (59, 80, 0, 4), (47, 0, 500, 4), (61, 0, 300, 4), (57, 100, 0, 4)]
            XCTAssertEqual(answer.count, expected.count)
            for (variable, want) in zip(answer, expected) {
                XCTAssertEqual(variable["variable"] as? Int, want.0, "\(variable)")
                XCTAssertEqual(variable["altitude"] as? Int, want.1, "\(variable)")
                XCTAssertEqual(variable["pressure_level"] as? Int, want.2, "\(variable)")
                XCTAssertEqual(variable["known"] as? Int, want.3, "\(variable)")
                XCTAssertEqual(variable["same_as_json"] as? Bool, true, "\(variable)")
            }
        }
    }
}
