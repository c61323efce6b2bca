import Foundation
import PointQuery
import TestSupport
import TileCastServer
import XCTest

/// The server as operators run it: same numbers as the CLI, new cycles without a restart,
/// health and metrics, and the limits of SPEC section 8.
final class ServerOperationTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws { directory = try TemporaryDirectory("tilecast-server-ops") }

    /// One code path: the API's numbers are what `tilecast query` prints for the same place,
    /// times and units (compared as the printed text, both directions parsed as JSON).
    func testNumbersAreTheCommandLines() async throws {
        let store = try StoreMaker.extractBaseline(into: directory)
        let variables = "temperature_2m,relative_humidity_2m,dew_point_2m,precipitation,weather_code,pressure_msl,wind_speed_10m,wind_direction_10m"
        for (lat, lon) in [("39.3", "-8"), ("39.5123", "-8.4567")] {
            let cli = try StoreMaker.run(["query", "--store", store, "--lat", lat, "--lon", lon, "--start", "2026-11-22T00Z", "--hours", "4",
                                          "--variables", variables, "--temperature-unit", "fahrenheit", "--wind-speed-unit", "kn",
                                          "--precipitation-unit", "inch", "--format", "json"])
            XCTAssertEqual(cli.status, 0, cli.stderr)
            let expected = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(cli.stdout.utf8)) as? [String: Any])
            try await LiveServer.with(configuration(store)) { server in
                let reply = try await server.get("/v1/forecast?latitude=\(lat)&longitude=\(lon)&hourly=\(variables)&temperature_unit=fahrenheit&wind_speed_unit=kn&precipitation_unit=inch&start_hour=2026-11-22T00:00&end_hour=2026-11-22T03:00")
                XCTAssertEqual(reply.status, 200, reply.body)
                let object = try XCTUnwrap(reply.object)
                let hourly = try XCTUnwrap(object["hourly"] as? [String: Any])
                let cliHourly = try XCTUnwrap(expected["hourly"] as? [String: Any])
                for name in variables.split(separator: ",").map(String.init) {
                    let ours = try XCTUnwrap(hourly[name] as? [Double], name)
                    XCTAssertEqual(ours.count, 4, name)
                    XCTAssertEqual(ours, cliHourly[name] as? [Double], "\(name) at \(lat), \(lon)")
                }
                XCTAssertEqual((object["hourly_units"] as? [String: String])?["temperature_2m"], "°F")
                XCTAssertEqual((object["hourly_units"] as? [String: String])?["wind_speed_10m"], "kn")
                XCTAssertEqual((object["tilecast"] as? [String: Any])?["domain"] as? String, expected["domain"] as? String)
                let position = (object["tilecast"] as? [String: Any])?["grid_position"] as? [String: Double]
                XCTAssertEqual(position, expected["grid_position"] as? [String: Double])
                XCTAssertEqual("\(object["elevation"] ?? "")", "\(expected["elevation"] ?? "-")")
            }
        }
    }

    /// /health is 503 until a cycle is published, then 200 naming it; a cycle published by
    /// `tilecast extract` is served from the next request, with no restart; pruning with
    /// --keep never breaks it.
    func testHealthAndNewCyclesWithoutRestart() async throws {
        let store = directory.path("store")
        try await LiveServer.with(configuration(store)) { server in
            let before = try await server.get("/health")
            XCTAssertEqual(before.status, 503, before.body)
            let early = try await server.get("/v1/forecast?latitude=39.3&longitude=-8&hourly=temperature_2m&start_date=2026-11-22&end_date=2026-11-22")
            XCTAssertEqual(early.status, 503, early.body)
            XCTAssertEqual(early.object?["error"] as? Bool, true)

            XCTAssertEqual(try StoreMaker.run(["extract", StoreMaker.baseline, "--store", store]).status, 0)
            let health = try await server.get("/health")
            XCTAssertEqual(health.status, 200, health.body)
            XCTAssertTrue(health.body.contains("2026-11-22T00Z"), health.body)
            let query = "/v1/forecast?latitude=39.3&longitude=-8&hourly=temperature_2m&start_date=2026-11-22&end_date=2026-11-22"
            let first = try await server.get(query)
            XCTAssertEqual((first.object?["tilecast"] as? [String: Any])?["cycle"] as? String, "2026-11-22T00:00Z")

            // The same run filed six hours later (a run is filed under its own start).
            let later = try shiftedRun(StoreMaker.baseline, byMinutes: 360, into: directory)
            let extract = try StoreMaker.run(["extract", later, "--store", store, "--keep", "1"])
            XCTAssertEqual(extract.status, 0, extract.stderr)
            let second = try await server.get(query)
            XCTAssertEqual(second.status, 200, second.body)
            XCTAssertEqual((second.object?["tilecast"] as? [String: Any])?["cycle"] as? String, "2026-11-22T06:00Z")
            let times = (second.object?["hourly"] as? [String: Any])?["temperature_2m"] as? [Any]
            XCTAssertTrue(times?[6] is Double, "06Z is in the new cycle")
            XCTAssertTrue(times?[0] is NSNull, "00Z is not (the old cycle was pruned)")
            let metrics = try await server.get("/metrics")
            XCTAssertEqual(metrics.status, 200)
            XCTAssertTrue(metrics.body.contains("tilecast_http_requests_total{route=\"/v1/forecast\",status=\"200\"}"), metrics.body)
            XCTAssertTrue(metrics.body.contains("tilecast_http_requests_total{route=\"/health\",status=\"503\"} 1"), metrics.body)
            XCTAssertTrue(metrics.body.contains("tilecast_http_request_duration_seconds_bucket{route=\"/v1/forecast\""), metrics.body)
            // "now" is 02:10Z, 3 h 50 min before the 06Z cycle: its age is now - cycle = -13800 s.
            XCTAssertTrue(metrics.body.contains("tilecast_cycle_age_seconds{model=\"wrf\",cycle=\"2026-11-22T06Z\"} -13800"), metrics.body)
        }
    }

    /// A request that holds a cycle keeps reading it after a new one is published and the
    /// old one pruned (its files stay open), and the cache then moves to the new one.
    func testCycleHeldThroughPublishAndPrune() throws {
        let store = try StoreMaker.extractBaseline(into: directory)
        let cycles = CycleCache(root: store)
        let old = try cycles.current(model: "wrf")
        let later = try shiftedRun(StoreMaker.baseline, byMinutes: 360, into: directory)
        XCTAssertEqual(try StoreMaker.run(["extract", later, "--store", store, "--keep", "1"]).status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: old.folder), "the old cycle was pruned")
        let answer = try PointForecaster(store: old).forecast(QueryPoint(latitude: 39.3, longitude: -8),
                                                              request: ForecastRequest(times: [1_795_305_600], variables: [.temperature2m]))
        XCTAssertEqual(answer.provenance.cycle, "2026-11-22T00:00Z")
        XCTAssertTrue(answer.values[.temperature2m]?.first?.isFinite == true)
        XCTAssertEqual(try cycles.current(model: "wrf").cycle, "2026-11-22T06Z")
    }

    /// SPEC 8's limits: 1000 places, 16 days, 8 KB URLs (414), requests in flight (503).
    func testLimits() async throws {
        let store = try StoreMaker.extractBaseline(into: directory)
        var config = configuration(store)
        config.maxInFlight = 1
        let gate = Gate()
        config.beforeForecast = { await gate.wait() }
        try await LiveServer.with(config) { server in
            let many = Array(repeating: "39", count: 1001).joined(separator: ",")
            let manyLon = Array(repeating: "-8", count: 1001).joined(separator: ",")
            let tooMany = try await server.get("/v1/forecast?latitude=\(many)&longitude=\(manyLon)")
            XCTAssertEqual(tooMany.status, 400, String(tooMany.body.prefix(300)))
            XCTAssertTrue(tooMany.body.contains("1000"), tooMany.body)
            for query in ["forecast_days=17", "past_days=93", "start_date=2026-11-01&end_date=2026-11-22", "forecast_hours=400"] {
                let reply = try await server.get("/v1/forecast?latitude=39.3&longitude=-8&hourly=temperature_2m&" + query)
                XCTAssertEqual(reply.status, 400, "\(query): \(reply.body)")
                XCTAssertEqual(reply.object?["error"] as? Bool, true)
            }
            let long = try await server.get("/v1/forecast?latitude=39.3&longitude=-8&hourly=" + String(repeating: "temperature_2m,", count: 600))
            XCTAssertEqual(long.status, 414, String(long.body.prefix(200)))
            XCTAssertEqual(long.object?["error"] as? Bool, true)

            // One request in flight, held at the gate: the next one is refused with 503.
            let query = "/v1/forecast?latitude=39.3&longitude=-8&hourly=temperature_2m&start_date=2026-11-22&end_date=2026-11-22"
            let held = Task { try await server.get(query) }
            await gate.waitUntilSomeoneWaits()
            let refused = try await server.get(query, timeout: .seconds(5))
            XCTAssertEqual(refused.status, 503, refused.body)
            XCTAssertEqual(refused.object?["error"] as? Bool, true)
            await gate.open()
            let finished = try await held.value
            XCTAssertEqual(finished.status, 200, finished.body)
            let after = try await server.get(query)
            XCTAssertEqual(after.status, 200, "the slot is free again: \(after.body)")
            // 1000 places is allowed.
            let thousand = Array(repeating: "39", count: 1000).joined(separator: ",")
            let thousandLon = Array(repeating: "-8", count: 1000).joined(separator: ",")
            let ok = try await server.get("/v1/forecast?latitude=\(thousand)&longitude=\(thousandLon)&hourly=temperature_2m&start_date=2026-11-22&end_date=2026-11-22")
            XCTAssertEqual(ok.status, 200, String(ok.body.prefix(300)))
            XCTAssertEqual((ok.json as? [Any])?.count, 1000)
        }
    }
}

/// Holds forecasts until opened (test hook), and tells when one is held.
actor Gate {
    private var isOpen = false
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var arrivals: [CheckedContinuation<Void, Never>] = []
    private var count = 0

    func wait() async {
        // Never holds a request for more than 10 s, so a broken limit fails the test
        // rather than hanging it (the server's shutdown waits for requests in flight).
        if count == 0 { Task { try? await Task.sleep(for: .seconds(10)); await self.open() } }
        count += 1
        for arrival in arrivals { arrival.resume() }
        arrivals = []
        if isOpen { return }
        await withCheckedContinuation { waiting.append($0) }
    }

    func waitUntilSomeoneWaits() async {
        if count > 0 { return }
        await withCheckedContinuation { arrivals.append($0) }
    }

    func open() {
        isOpen = true
        for continuation in waiting { continuation.resume() }
        waiting = []
    }
}
