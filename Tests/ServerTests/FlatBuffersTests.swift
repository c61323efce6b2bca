import Foundation
import TestSupport
import XCTest

/// format=flatbuffers read by the official Open-Meteo Python SDK (openmeteo-requests with
/// openmeteo-sdk from PyPI at pinned versions, installed here when missing; skipped, saying so,
/// only when they cannot be installed): several places, hourly, daily and current, equal to the JSON.
final class FlatBuffersTests: XCTestCase {
    /// The SDK at its pinned versions, in its own virtual environment (PythonVenv).
    private func requireSDK() throws -> String { try ClientLibraryPins.sdkPython() }

    func testOfficialSDKReadsFlatBuffers() async throws {
        let python = try requireSDK()
        let directory = try TemporaryDirectory("tilecast-server-flatbuffers")
        let store = directory.path("store")
        XCTAssertEqual(try StoreMaker.run(["extract", Repository.sampleGrids.path, "--store", store]).status, 0)
        let script = Repository.root.appendingPathComponent("Tests/ServerTests/openmeteo_sdk_check.py").path
        try await LiveServer.with(configuration(store)) { server in
            let result = try runTool(python, [script, server.base])
            XCTAssertEqual(result.status, 0, result.stderr)
            let places = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]], result.stdout)
            XCTAssertEqual(places.count, 2)
            XCTAssertEqual(places.map { $0["location"] as? Int }, [0, 1])
            XCTAssertEqual(places[0]["lat"] as? Double ?? 0, 38.7223, accuracy: 1e-4)
            XCTAssertEqual(places[1]["lon"] as? Double ?? 0, -8.0, accuracy: 1e-4)
            for place in places {
                XCTAssertEqual(place["hourly_same"] as? Bool, true, "\(place)")
                XCTAssertEqual(place["daily_same"] as? Bool, true, "\(place)")
                XCTAssertEqual(place["n"] as? Int, 24)
                XCTAssertEqual(place["tz"] as? String, "GMT")
                // 2026-11-22T00:00Z .. 2026-11-23T00:00Z, hourly.
                XCTAssertEqual(place["hourly_time"] as? [Int], [1_795_305_600, 1_795_392_000, 3600])
                // temperature at 2 m, in °C (the SDK's enum numbers).
                XCTAssertEqual(place["var0"] as? [Int], [47, 2, 1])
                XCTAssertEqual(place["agg"] as? Int, 2, "temperature_2m_max: maximum")
                XCTAssertEqual(place["current_time"] as? Int, 1_795_312_800, "02:10Z to the quarter hour below: 02:00Z")
                let current = try XCTUnwrap(place["current"] as? Double)
                XCTAssertEqual(current, place["json_current"] as? Double ?? .nan, accuracy: 1e-4)
            }
        }
    }

    /// Soil layers carry their depths (Variable soil_temperature/soil_moisture with depth and
    /// depth_to in cm, as Open-Meteo sends them), and sunrise/sunset come as unix seconds in
    /// values_int64: both read by the official SDK on a store of the real allvars sample, and
    /// equal to the same request's JSON (timeformat=unixtime).
    func testOfficialSDKReadsSoilDepthsAndSunTimes() async throws {
        let python = try requireSDK()
        let directory = try TemporaryDirectory("tilecast-server-flatbuffers-soil")
        let store = directory.path("store")
        let sample = try Repository.sharedSample("wrf_d01_allvars_cropped.nc")
        XCTAssertEqual(try StoreMaker.run(["extract", sample, "--store", store]).status, 0)
        let script = Repository.root.appendingPathComponent("Tests/ServerTests/openmeteo_sdk_depths.py").path
        try await LiveServer.with(configuration(store)) { server in
            let result = try runTool(python, [script, server.base])
            XCTAssertEqual(result.status, 0, result.stderr)
            let answer = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], result.stdout)
            let hourly = try XCTUnwrap(answer["hourly"] as? [[String: Any]])
            // (Variable, depth, depth_to): soil_temperature 44, soil_moisture 42 in openmeteo-sdk.
            let expected: [(Int, Int, Int)] = [(44, 0, 10), (44, 10, 40), (42, 40, 100), (42, 100, 200), (47, 0, 0)]
            XCTAssertEqual(hourly.count, expected.count)
            for (layer, want) in zip(hourly, expected) {
                XCTAssertEqual(layer["variable"] as? Int, want.0, "\(layer)")
                XCTAssertEqual(layer["depth"] as? Int, want.1, "\(layer)")
                XCTAssertEqual(layer["depth_to"] as? Int, want.2, "\(layer)")
                XCTAssertEqual(layer["same_as_json"] as? Bool, true, "\(layer)")
                XCTAssertGreaterThan(layer["known"] as? Int ?? 0, 0, "the sample covers the day: \(layer)")
            }
            XCTAssertEqual(hourly.last?["altitude"] as? Int, 2, "temperature_2m keeps its altitude")
            let daily = try XCTUnwrap(answer["daily"] as? [[String: Any]])
            XCTAssertEqual(daily.map { $0["variable"] as? Int }, [40, 41], "sunrise, sunset")
            for day in daily {
                let seconds = try XCTUnwrap(day["int64"] as? [Int], "\(day)")
                XCTAssertEqual(seconds, day["json"] as? [Int], "values_int64 equal the JSON's unix seconds: \(day)")
                // 2005-09-21 at 29.9 N, 86.8 E: sunrise about 00:10Z, sunset about 12:20Z.
                let first = try XCTUnwrap(seconds.first)
                XCTAssertTrue((1_127_222_000...1_127_311_200).contains(first), "\(day)")
            }
            if let rise = (daily.first?["int64"] as? [Int])?.first, let set = (daily.last?["int64"] as? [Int])?.first {
                XCTAssertEqual(Double(set - rise), 12.1 * 3600, accuracy: 0.15 * 3600, "about 12 h 6 min of day at the equinox")
            }
        }
    }

    /// Issue 28's variables as the official SDK reads them from a store of the real allvars
    /// sample: each column's Variable, Unit, altitude and soil depth equal the SDK's own enums
    /// looked up by name (openmeteo_sdk.Variable.latent_heat_flux, ...), its values the same
    /// request's JSON; snowfall_water_equivalent_sum is a sum; latent_heatflux (Open-Meteo's older
    /// spelling) answers latent_heat_flux's values.
    func testOfficialSDKReadsSurfaceFluxesAndRadiation() async throws {
        let python = try requireSDK()
        let directory = try TemporaryDirectory("tilecast-server-flatbuffers-surface")
        let store = directory.path("store")
        let sample = try Repository.sharedSample("wrf_d01_allvars_cropped.nc")
        XCTAssertEqual(try StoreMaker.run(["extract", sample, "--store", store]).status, 0)
        let script = Repository.root.appendingPathComponent("Tests/ServerTests/openmeteo_sdk_surface.py").path
        try await LiveServer.with(configuration(store)) { server in
            let result = try runTool(python, [script, server.base])
            XCTAssertEqual(result.status, 0, result.stderr)
            let answer = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], result.stdout)
            let hourly = try XCTUnwrap(answer["hourly"] as? [[String: Any]])
            XCTAssertEqual(hourly.count, 13)
            for column in hourly {
                XCTAssertEqual(column["variable_ok"] as? Bool, true, "\(column)")
                XCTAssertEqual(column["unit_ok"] as? Bool, true, "\(column)")
                XCTAssertEqual(column["altitude"] as? Int, column["want_altitude"] as? Int, "\(column)")
                XCTAssertEqual(column["depth"] as? [Int], column["want_depth"] as? [Int], "\(column)")
                XCTAssertEqual(column["same_as_json"] as? Bool, true, "\(column)")
                // The sample covers 00Z-09Z of the day (the amounts from 01Z: the first frame's hour is unknown).
                XCTAssertGreaterThanOrEqual(column["known"] as? Int ?? 0, 9, "\(column)")
            }
            let daily = try XCTUnwrap((answer["daily"] as? [[String: Any]])?.first)
            for key in ["variable_ok", "unit_ok", "aggregation_ok", "same_as_json"] { XCTAssertEqual(daily[key] as? Bool, true, "\(key): \(daily)") }
            XCTAssertEqual(answer["alias_same"] as? Bool, true)
            let units = try XCTUnwrap(answer["units"] as? [String: String])
            XCTAssertEqual(units["latent_heat_flux"], "W/m²")
            XCTAssertEqual(units["air_density_2m"], "kg/m³")
            XCTAssertEqual(units["runoff"], "mm")
        }
    }

    /// Columns of nulls as the official SDK reads them: Open-Meteo sends a variable its model
    /// lacks with its Variable code, unit undefined (0) and NaN values
    /// (Sources/App/Controllers/ForecastapiController.swift, `ApiColumn(... unit: .undefined ...)`);
    /// codes from openmeteo-sdk's flatbuffers/weather_api.fbs (temperature 47, precipitation_probability
    /// 26, snow_depth 35, weather_code 56, uv_index 52; aggregation max 2).
    func testOfficialSDKReadsNullColumns() async throws {
        let python = try requireSDK()
        let directory = try TemporaryDirectory("tilecast-server-flatbuffers-nulls")
        let store = try StoreMaker.extractBaseline(into: directory)
        let script = Repository.root.appendingPathComponent("Tests/ServerTests/openmeteo_sdk_nulls.py").path
        try await LiveServer.with(configuration(store)) { server in
            let result = try runTool(python, [script, server.base])
            XCTAssertEqual(result.status, 0, result.stderr)
            let answer = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], result.stdout)
            let hourly = try XCTUnwrap(answer["hourly"] as? [[String: Any]])
            XCTAssertEqual(hourly.map { $0["variable"] as? Int }, [47, 26, 35, 56])
            XCTAssertEqual(hourly.map { $0["count"] as? Int }, [24, 24, 24, 24])
            // precipitation_probability is served since issue 46: 01..03Z (00Z, the run's first
            // frame, has no interval), in percent (35).
            XCTAssertEqual(hourly.map { $0["nan"] as? Int }, [20, 21, 24, 20], "the run holds 00..03Z; the null column is NaN throughout")
            XCTAssertEqual(hourly.map { $0["unit"] as? Int }, [1, 35, 0, 40], "celsius, percentage, undefined, wmo_code")
            let daily = try XCTUnwrap(answer["daily"] as? [[String: Any]])
            XCTAssertEqual(daily.map { $0["variable"] as? Int }, [47, 26, 52])
            XCTAssertEqual(daily.map { $0["aggregation"] as? Int }, [2, 2, 2])
            XCTAssertEqual(daily.dropFirst().map { $0["unit"] as? Int }, [35, 0])
            XCTAssertEqual(daily.dropFirst().map { $0["nan"] as? Int }, [1, 1])
            let current = try XCTUnwrap(answer["current"] as? [[String: Any]])
            XCTAssertEqual(current.map { $0["variable"] as? Int }, [52, 47])
            XCTAssertEqual(current.map { $0["nan"] as? Bool }, [true, false])
        }
    }
}
