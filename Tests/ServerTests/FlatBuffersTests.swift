import Foundation
import TestSupport
import XCTest

/// format=flatbuffers read by the official Open-Meteo Python SDK (openmeteo-requests with
/// openmeteo-sdk from PyPI, installed here when missing; skipped, saying so, only when they
/// cannot be installed): several places, hourly, daily and current, equal to the JSON.
final class FlatBuffersTests: XCTestCase {
    /// The SDK lives in its own virtual environment (kept in TMPDIR between runs): it brings
    /// urllib3-future, which would shadow urllib3 for everything else in the system's Python.
    private func requireSDK() throws -> String {
        let venv = FileManager.default.temporaryDirectory.appendingPathComponent("tilecast-openmeteo-sdk-venv").path
        let python = venv + "/bin/python"
        if FileManager.default.isExecutableFile(atPath: python),
           try runTool(python, ["-c", "import openmeteo_requests, openmeteo_sdk"]).status == 0 {
            return python
        }
        let create = try runTool("python3", ["-m", "venv", venv])
        guard create.status == 0 else { throw XCTSkip("python3 -m venv failed: \(create.stderr.prefix(300))") }
        let install = try runTool(python, ["-m", "pip", "install", "-q", "openmeteo-requests", "openmeteo-sdk"])
        guard install.status == 0 else {
            throw XCTSkip("openmeteo-requests could not be installed from PyPI: \(install.stderr.prefix(300))")
        }
        return python
    }

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
}
