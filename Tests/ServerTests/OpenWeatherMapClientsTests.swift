import Foundation
import TestSupport
import XCTest

/// Two OpenWeatherMap client libraries from PyPI, unmodified, read `tilecast serve`'s
/// OpenWeatherMap paths as they read OpenWeatherMap (issue 45): `pyowm` through the HTTP proxy
/// its configuration documents (current, 3-hour forecast, One Call), and Home Assistant's
/// `pyopenweathermap` (both its modes: the free API and One Call 3.0) through its modules' URL
/// constants. The script (openweathermap_clients.py) holds every value
/// each library parsed against the server's own `/v1/forecast` for the same place and time,
/// converted to OpenWeatherMap's units and types; this test checks its summary.
final class OpenWeatherMapClientsTests: XCTestCase {
    /// The libraries' pins (Scripts/requirements.txt names the same).
    static let pins = ["pyowm": "3.5.0", "pyopenweathermap": "0.3.0"]

    /// The calls the script makes, each of which must have compared values.
    private let calls = ["pyowm.weather_at_coords", "pyowm.forecast_at_coords", "pyopenweathermap.current.metric",
                         "pyopenweathermap.forecast.metric", "pyopenweathermap.current.imperial", "pyopenweathermap.forecast.imperial",
                         "pyowm.one_call.current", "pyowm.one_call.minutely", "pyowm.one_call.hourly", "pyowm.one_call.daily",
                         "pyowm.forecast_at_coords.daily",
                         "pyopenweathermap.v3.0.current.imperial", "pyopenweathermap.v3.0.minutely.imperial",
                         "pyopenweathermap.v3.0.hourly.imperial", "pyopenweathermap.v3.0.daily.imperial",
                         "pyopenweathermap.v3.0.current.metric", "pyopenweathermap.v3.0.minutely.metric",
                         "pyopenweathermap.v3.0.hourly.metric", "pyopenweathermap.v3.0.daily.metric"]

    func testClientLibrariesParseTheSameNumbersAsTheForecast() async throws {
        let python = try PythonVenv.require("tilecast-openweathermap-clients-venv", pins: Self.pins)
        let summary = try await runScript(python: python, extra: ["onecall"])
        XCTAssertEqual(summary["versions"] as? [String: String], Self.pins, "the pinned versions ran")
        XCTAssertEqual(summary["mismatches"] as? [String], [], "every parsed value equals /v1/forecast's")
        let checked = try XCTUnwrap(summary["checked"] as? [String: Int])
        print("OpenWeatherMap client values compared: \(checked.values.reduce(0, +)) in \(checked.count) calls")
        for call in calls {
            // Each call compared ten fields at least (current: one row; a day: 11 fields; forecasts: 8 steps
            // of 3 hours, 22 hours, 60 minutes).
            XCTAssertGreaterThanOrEqual(checked[call] ?? 0, 10, "\(call) compared values: \(checked)")
        }
    }

    /// Runs the script against a live server on the SampleGrids store, its clock at
    /// 2026-11-22T02:10Z (inside the runs: current weather and 8 three-hour steps).
    private func runScript(python: String, extra: [String] = []) async throws -> [String: Any] {
        let directory = try TemporaryDirectory("tilecast-openweathermap-clients")
        let store = directory.path("store")
        let extract = try StoreMaker.run(["extract", Repository.sampleGrids.path, "--store", store, "--quiet"])
        XCTAssertEqual(extract.status, 0, extract.stderr)
        let script = Repository.root.appendingPathComponent("Tests/ServerTests/openweathermap_clients.py").path
        var summary: [String: Any] = [:]
        try await LiveServer.with(configuration(store)) { server in
            let result = try runTool(python, [script, server.base, String(baselineNow)] + extra)
            XCTAssertEqual(result.status, 0, result.stderr)
            summary = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
                                    "no summary: \(result.stdout) \(result.stderr)")
        }
        return summary
    }
}
