import Foundation
import TestSupport
import XCTest

/// Four independent Open-Meteo client libraries from PyPI, unmodified except for the base URL,
/// read `tilecast serve` as they read Open-Meteo: the official SDK (FlatBuffers), Home
/// Assistant's `open-meteo` (aiohttp), `pyopenmeteo` and `openmeteo-python` (requests). Each
/// script (openmeteo_client_*.py, their shared request and reference in
/// openmeteo_clients_common.py) asks, for one place and then for three, for what a weather app
/// asks: hourly, daily and current, with `wind_gusts_10m` and `uv_index_max`, which the sample
/// run cannot give, and hourly `precipitation_probability` and `precipitation_probability_max` (issue 46: from one cycle, its
/// neighbourhood fraction; every library reads it as numbers equal to the JSON's). Open-Meteo answers such a variable with a
/// column of nulls, not an error (Sources/App/Controllers/ForecastapiController.swift: a variable
/// the model lacks becomes an `ApiColumn` of NaN with unit `.undefined`, which
/// Sources/App/Helper/Writer/JsonWriter.swift writes as null). Each script checks every value
/// the library parsed against the server's JSON fetched with plain urllib (an independent path);
/// this test checks what came back: the places, every column complete, the lacking ones as nulls.
final class ClientLibrariesTests: XCTestCase {
    /// The scripts' places, in order: Lisbon (WRF d02), a place in WRF d01 only, Madrid (MM5 only).
    private let places: [(Double, Double)] = [(38.7223, -9.1393), (39.5, -8.0), (40.4168, -3.7038)]
    /// Requested by the scripts; the sample run holds none of them.
    private let missing: Set<String> = ["hourly.wind_gusts_10m", "daily.uv_index_max", "current.wind_gusts_10m"]
    private let expectedColumns: [String: Int] = [
        "hourly.temperature_2m": 24, "hourly.precipitation": 24, "hourly.wind_speed_10m": 24,
        "hourly.wind_direction_10m": 24, "hourly.weather_code": 24, "hourly.wind_gusts_10m": 24,
        "hourly.precipitation_probability": 24,
        "daily.temperature_2m_max": 1, "daily.temperature_2m_min": 1, "daily.precipitation_sum": 1,
        "daily.precipitation_probability_max": 1, "daily.uv_index_max": 1,
        "current.temperature_2m": 1, "current.wind_gusts_10m": 1,
    ]

    func testOfficialSDK() async throws {
        try await check(script: "openmeteo_client_sdk.py", python: try ClientLibraryPins.sdkPython(), pins: ClientLibraryPins.sdk)
    }

    func testHomeAssistantClient() async throws {
        try await check(script: "openmeteo_client_home_assistant.py", python: try ClientLibraryPins.jsonPython(),
                        pins: ["open-meteo": ClientLibraryPins.json["open-meteo"] ?? ""])
    }

    func testPyOpenMeteo() async throws {
        try await check(script: "openmeteo_client_pyopenmeteo.py", python: try ClientLibraryPins.jsonPython(),
                        pins: ["pyopenmeteo": ClientLibraryPins.json["pyopenmeteo"] ?? ""])
    }

    func testOpenMeteoPython() async throws {
        try await check(script: "openmeteo_client_openmeteo_python.py", python: try ClientLibraryPins.jsonPython(),
                        pins: ["openmeteo-python": ClientLibraryPins.json["openmeteo-python"] ?? ""])
    }

    /// Runs one library's script against a live server on the SampleGrids store (clock at
    /// 2026-11-22T02:10Z, inside the run) and checks its summary.
    private func check(script: String, python: String, pins: [String: String]) async throws {
        let directory = try TemporaryDirectory("tilecast-client-libraries")
        let store = directory.path("store")
        let extract = try StoreMaker.run(["extract", Repository.sampleGrids.path, "--store", store])
        XCTAssertEqual(extract.status, 0, extract.stderr)
        let path = Repository.root.appendingPathComponent("Tests/ServerTests/" + script).path
        try await LiveServer.with(configuration(store)) { server in
            let result = try runTool(python, [path, server.base])
            XCTAssertEqual(result.status, 0, "\(script): \(result.stderr)")
            let summary = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
                                        "\(script) printed no summary: \(result.stdout) \(result.stderr)")
            XCTAssertEqual(summary["versions"] as? [String: String], pins, "the pinned versions ran")
            let single = try XCTUnwrap(summary["single"] as? [[String: Any]])
            let many = try XCTUnwrap(summary["many"] as? [[String: Any]])
            XCTAssertEqual(single.count, 1, "one place")
            XCTAssertEqual(many.count, places.count, "every place, none dropped")
            for (index, place) in single.enumerated() { checkPlace(place, index: index, script: script) }
            for (index, place) in many.enumerated() { checkPlace(place, index: index, script: script) }
        }
    }

    /// A place: where it was asked, no difference from the JSON, every column complete except
    /// the three the run lacks (all null) and Madrid's weather_code (the MM5 run has no cloud
    /// cover to derive it from, so best match's model there cannot give it).
    private func checkPlace(_ place: [String: Any], index: Int, script: String) {
        let label = "\(script), place \(index)"
        XCTAssertEqual(place["latitude"] as? Double ?? .nan, places[index].0, accuracy: 1e-4, label)
        XCTAssertEqual(place["longitude"] as? Double ?? .nan, places[index].1, accuracy: 1e-4, label)
        XCTAssertEqual(place["mismatches"] as? [String], [], label)
        guard let columns = place["columns"] as? [String: [String: Int]] else {
            return XCTFail("\(label): no columns in \(place)")
        }
        XCTAssertEqual(Set(columns.keys), Set(expectedColumns.keys), label)
        let mm5 = index == 2
        for (name, count) in expectedColumns {
            XCTAssertEqual(columns[name]?["n"], count, "\(label): \(name)")
            let allNull = missing.contains(name) || (mm5 && name == "hourly.weather_code")
            // The chance of rain of 00Z, the run's first frame, is unknown (it has no interval before it).
            let nulls = allNull ? count : name == "hourly.precipitation_probability" ? 1 : 0
            XCTAssertEqual(columns[name]?["null"], nulls, "\(label): \(name)")
        }
    }
}
