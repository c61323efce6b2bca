import Foundation
import TestSupport
import XCTest

/// QWeather's Python client from PyPI (qweatherPyAPI 0.1.4), unmodified, reads `tilecast serve`'s
/// QWeather v7 paths as it reads QWeather's (issue 45): its response models over `now`, `24h`,
/// `72h`, `3d` and `7d`, in both units and both languages. The script (qweather_clients.py) holds
/// every parsed value against the server's own `/v1/forecast` for the same place and time,
/// converted to QWeather's forms; this test checks its summary.
final class QWeatherClientsTests: XCTestCase {
    /// The library's pin (Scripts/requirements.txt names the same).
    static let pins = ["qweatherPyAPI": "0.1.4"]

    private let calls = ["now", "24h", "72h", "3d", "7d"].flatMap { call in
        ["zh.m", "zh.i", "en.m", "en.i"].map { "\(call).\($0)" }
    }

    func testClientLibraryParsesTheSameNumbersAsTheForecast() async throws {
        let python = try PythonVenv.require("tilecast-qweather-clients-venv", pins: Self.pins)
        let directory = try TemporaryDirectory("tilecast-qweather-clients")
        let store = directory.path("store")
        // The WRF pair: every hour has cloud cover, so every hour an icon (the MM5 run has none).
        let runs = ["wrfout_d01_2026-11-22_00:00:00", "wrfout_d02_2026-11-22_00:00:00"].map { Repository.sampleGrids.appendingPathComponent($0).path }
        let extract = try StoreMaker.run(["extract"] + runs + ["--store", store, "--quiet"])
        XCTAssertEqual(extract.status, 0, extract.stderr)
        let script = Repository.root.appendingPathComponent("Tests/ServerTests/qweather_clients.py").path
        try await LiveServer.with(configuration(store)) { server in
            let result = try runTool(python, [script, server.base, String(baselineNow)])
            XCTAssertEqual(result.status, 0, result.stderr)
            let summary = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
                                        "no summary: \(result.stdout) \(result.stderr)")
            XCTAssertEqual(summary["versions"] as? [String: String], Self.pins, "the pinned version ran")
            XCTAssertEqual(summary["mismatches"] as? [String], [], "every parsed value equals /v1/forecast's")
            // The sample's cycle starts 2026-11-22 00Z; Lisbon is on UTC in November.
            XCTAssertEqual(summary["update_time"] as? String, "2026-11-22T00:00+00:00")
            let checked = try XCTUnwrap(summary["checked"] as? [String: Int])
            print("QWeather client values compared: \(checked.values.reduce(0, +)) in \(checked.count) calls")
            for call in calls {
                // now: 15 fields a place; hours: 14 a row; a day: 25 fields.
                XCTAssertGreaterThanOrEqual(checked[call] ?? 0, 20, "\(call) compared values: \(checked)")
            }
        }
    }
}
