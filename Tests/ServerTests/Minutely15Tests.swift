import Foundation
import NIOHTTP1
import TestSupport
import TileCastServer
import XCTest

/// `minutely_15` as Open-Meteo's `/v1/forecast` answers it (Sources/App/Helper/ForecastapiQuery.swift:
/// its parameters, `getTimerange2` for the times; Sources/App/Helper/Writer/JsonWriter.swift and
/// CsvWriter.swift: the block after `current` and before `hourly`), on a run with a 15-minute
/// auxiliary stream (Scripts/make_auxhist_run.py). Values are checked against
/// Scripts/fast_stream_reference.py (pyproj and numpy on the stream file's own frames).
final class Minutely15Tests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var store: String!

    /// 2026-11-22T06:40Z: inside the run (06Z..12Z); the current quarter hour is 06:30.
    private let now: Int64 = 1_795_329_600

    private func sample(_ path: String) -> String {
        Repository.sampleGrids.appendingPathComponent("auxhist-runs/fifteen-minutes/\(path)").path
    }

    override func setUpWithError() throws {
        directory = try TemporaryDirectory("tilecast-minutely")
        store = directory.path("store")
        let files = ["wrfout_d01_2026-11-22_06:00:00", "wrfout_d02_2026-11-22_06:00:00", "auxhist2_d02_2026-11-22_06:00:00"].map(sample)
        let result = try StoreMaker.run(["extract"] + files + ["--store", store])
        XCTAssertEqual(result.status, 0, result.stderr)
    }

    private func serverConfiguration() -> ServerConfiguration {
        var configuration = ServerConfiguration(storeRoot: store)
        let fixed = now
        configuration.now = { fixed }
        return configuration
    }

    private func json(_ body: String) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any], body)
    }

    /// Reference rows of three seeded places inside d02, by place then time ("2026-11-22T06:15").
    private func reference() throws -> [String: [String: (celsius: Double, rain: Double)]] {
        let check = try runTool("python3", ["-c", "import numpy, netCDF4, pyproj"])
        try XCTSkipIf(check.status != 0, "python3 with numpy, netCDF4 and pyproj is needed for the reference: \(check.stderr)")
        let script = Repository.root.appendingPathComponent("Scripts/fast_stream_reference.py").path
        let result = try runTool("python3", [script, sample("auxhist2_d02_2026-11-22_06:00:00"), "--places", "3", "--seed", "7"])
        XCTAssertEqual(result.status, 0, result.stderr)
        var rows: [String: [String: (Double, Double)]] = [:]
        for line in result.stdout.split(separator: "\n").dropFirst() {
            let f = line.split(separator: ",").map(String.init)
            guard f.count == 5, let t = Double(f[3]), let r = Double(f[4]) else { continue }
            rows["\(f[0]),\(f[1])", default: [:]][String(f[2].dropLast())] = (t, r)
        }
        return rows
    }

    /// start_minutely_15..end_minutely_15 at places inside d02: the stream's values (T2 within
    /// the store's 0.05 K plus the answer's 1 decimal, the 15 minutes' precipitation within two
    /// 0.01 mm steps plus its 1 decimal), and cloud cover, which the stream lacks, from the
    /// history. The `tilecast` key says the stream answered.
    func testMinutely15ReadsTheRunsFifteenMinuteStream() async throws {
        let expected = try reference()
        XCTAssertEqual(expected.count, 3)
        try await LiveServer.with(serverConfiguration()) { server in
            for (place, rows) in expected {
                let parts = place.split(separator: ",")
                let reply = try await server.get("/v1/forecast?latitude=\(parts[0])&longitude=\(parts[1])"
                    + "&minutely_15=temperature_2m,precipitation,cloud_cover&start_minutely_15=2026-11-22T06:15&end_minutely_15=2026-11-22T12:00")
                XCTAssertEqual(reply.status, 200, reply.body)
                let answer = try json(reply.body)
                let block = try XCTUnwrap(answer["minutely_15"] as? [String: Any], reply.body)
                let times = try XCTUnwrap(block["time"] as? [String])
                XCTAssertEqual(times.count, 24)
                XCTAssertEqual(times.first, "2026-11-22T06:15")
                XCTAssertEqual(times.last, "2026-11-22T12:00")
                let temperatures = try XCTUnwrap(block["temperature_2m"] as? [Double], reply.body)
                let rain = try XCTUnwrap(block["precipitation"] as? [Double], reply.body)
                XCTAssertEqual((block["cloud_cover"] as? [Any])?.count, 24)
                for (k, time) in times.enumerated() {
                    let wanted = try XCTUnwrap(rows[time], "\(place) \(time)")
                    XCTAssertEqual(temperatures[k], wanted.celsius, accuracy: 0.03 + 0.05, "\(place) \(time)")
                    XCTAssertEqual(rain[k], wanted.rain, accuracy: 0.02 + 0.05, "\(place) \(time)")
                }
                let units = try XCTUnwrap(answer["minutely_15_units"] as? [String: String])
                XCTAssertEqual(units["temperature_2m"], "°C")
                XCTAssertEqual(units["precipitation"], "mm")
                let tilecast = try XCTUnwrap(answer["tilecast"] as? [String: Any])
                XCTAssertEqual(tilecast["domain"] as? String, "d02")
                XCTAssertEqual(tilecast["minutely_15_stream"] as? String, "auxhist2")
                XCTAssertNil(answer["hourly"], "no hourly block unless asked for")
            }
        }
    }

    /// `current` is a 15-minute step (issue 47; Open-Meteo's `current` is its minutely_15 row
    /// at the current quarter hour): its precipitation is the quarter hour's amount, not the
    /// hour's. At 10:40Z (current 10:30) the three seeded places have 0.7 mm in the quarter
    /// hour and about 3 mm in the hour around it: the hourly amount would be 4x the reference.
    func testCurrentAmountsAreTheQuarterHours() async throws {
        let expected = try reference()
        var configuration = serverConfiguration()
        configuration.now = { 1_795_344_000 }   // 2026-11-22T10:40Z
        try await LiveServer.with(configuration) { server in
            var wet = 0
            for (place, rows) in expected {
                let parts = place.split(separator: ",")
                let reply = try await server.get("/v1/forecast?latitude=\(parts[0])&longitude=\(parts[1])"
                    + "&current=temperature_2m,precipitation,rain,showers&minutely_15=precipitation&forecast_minutely_15=1")
                XCTAssertEqual(reply.status, 200, reply.body)
                let answer = try json(reply.body)
                let current = try XCTUnwrap(answer["current"] as? [String: Any], reply.body)
                XCTAssertEqual(current["time"] as? String, "2026-11-22T10:30")
                XCTAssertEqual(current["interval"] as? Int, 900)
                let wanted = try XCTUnwrap(rows["2026-11-22T10:30"], place)
                let rain = try XCTUnwrap(current["precipitation"] as? Double, reply.body)
                XCTAssertEqual(rain, wanted.rain, accuracy: 0.02 + 0.05, "\(place): the quarter hour's amount")
                XCTAssertEqual(try XCTUnwrap(current["temperature_2m"] as? Double), wanted.celsius, accuracy: 0.03 + 0.05, place)
                // rain + showers make the precipitation, each a quarter hour's share as well.
                let parts15 = try XCTUnwrap(current["rain"] as? Double) + (try XCTUnwrap(current["showers"] as? Double))
                XCTAssertEqual(parts15, rain, accuracy: 0.15, place)
                let minutely = try XCTUnwrap((answer["minutely_15"] as? [String: Any])?["precipitation"] as? [Double], reply.body)
                XCTAssertEqual(minutely.first ?? .nan, rain, accuracy: 0.001, "current is minutely_15's row at the current quarter hour")
                if wanted.rain > 0.3 { wet += 1 }
            }
            XCTAssertGreaterThan(wet, 0, "the check needs a place with rain in the quarter hour")
        }
    }

    /// The time rules: by default today and two more days every 15 minutes (3 x 96), nulls
    /// where the run has nothing; forecast_minutely_15 / past_minutely_15 count steps from the
    /// current quarter hour; start/end beside a step count is Open-Meteo's 400.
    func testMinutely15TimesFollowOpenMeteosRules() async throws {
        try await LiveServer.with(serverConfiguration()) { server in
            let place = "latitude=39.28&longitude=-8.3"
            let whole = try await server.get("/v1/forecast?\(place)&minutely_15=temperature_2m")
            XCTAssertEqual(whole.status, 200, whole.body)
            let block = try XCTUnwrap(try json(whole.body)["minutely_15"] as? [String: Any])
            let times = try XCTUnwrap(block["time"] as? [String])
            XCTAssertEqual(times.count, 3 * 96)
            XCTAssertEqual(times.first, "2026-11-22T00:00")
            let values = try XCTUnwrap(block["temperature_2m"] as? [Any])
            let index = { (time: String) in times.firstIndex(of: time) ?? -1 }
            XCTAssertTrue(values[index("2026-11-22T05:45")] is NSNull, "before the run: null")
            XCTAssertTrue(values[index("2026-11-22T06:15")] is Double, "inside the run")
            XCTAssertTrue(values[index("2026-11-22T12:15")] is NSNull, "after the run: null")

            let steps = try await server.get("/v1/forecast?\(place)&minutely_15=temperature_2m&forecast_minutely_15=4&past_minutely_15=1")
            XCTAssertEqual(steps.status, 200, steps.body)
            let stepTimes = try XCTUnwrap((try json(steps.body)["minutely_15"] as? [String: Any])?["time"] as? [String])
            XCTAssertEqual(stepTimes, ["2026-11-22T06:15", "2026-11-22T06:30", "2026-11-22T06:45", "2026-11-22T07:00", "2026-11-22T07:15"])

            let both = try await server.get("/v1/forecast?\(place)&minutely_15=temperature_2m&forecast_minutely_15=4"
                                            + "&start_minutely_15=2026-11-22T06:15&end_minutely_15=2026-11-22T07:00")
            XCTAssertEqual(both.status, 400)
            XCTAssertTrue(both.body.contains("'forecast_minutely_15' is mutually exclusive"), both.body)

            let csv = try await server.get("/v1/forecast?\(place)&minutely_15=temperature_2m&hourly=temperature_2m&forecast_days=1&format=csv")
            XCTAssertEqual(csv.status, 200, csv.body)
            let sections = csv.body.components(separatedBy: "\n\n")
            XCTAssertEqual(sections.count, 3, csv.body)
            XCTAssertEqual(sections[1].split(separator: "\n").count, 1 + 96, "the minutely_15 table: a header and 96 rows")
            XCTAssertEqual(sections[2].split(separator: "\n").count, 1 + 24, "then the hourly table")
        }
    }
}
