import Foundation
import TestSupport
import TileCastServer
import XCTest

/// Past hours from the older cycles a store keeps: a request reaching days back is one
/// continuous series, each hour from the newest cycle that covers it.
final class CycleContinuityTests: XCTestCase {
    /// 2026-11-22T00Z, the sample run's start.
    private static let base: Int64 = 1_795_305_600

    /// Twelve cycles of a 00/06/12/18Z model (the sample d01 run, 24 h long, filed 6 h apart
    /// from 2026-11-22T00Z to 2026-11-24T18Z) and `past_days=3&forecast_days=2` asked at
    /// 2026-11-25T00:10Z: every hour from 22 Nov 00Z to the newest cycle's end (25 Nov 18Z) has
    /// a value, the hours after it are null, and each hour's value is the one of the cycle that
    /// should answer it, read at the grid node with netCDF4-python.
    ///
    /// The rule, as Open-Meteo's users see it: its downloaders write each run into one time
    /// series per variable, so a newer run replaces the hours it covers and older runs' hours
    /// stay; an accumulated field's first step (step range "0-0") is skipped
    /// (`deaccumulateIfRequired` returns false, Sources/App/Helper/Writer/GenericVariableHandle.swift),
    /// so the hour a run starts on keeps the older run's value. The sample's runs are copies
    /// with the dates moved, so the cycle starting at hour c answers hour h with the source's
    /// frame h - c: for h > 0 the cycle of the largest c < h, for h = 0 the oldest cycle.
    func testTwelveCyclesAnswerPastDaysWithoutHoles() async throws {
        let directory = try TemporaryDirectory("tilecast-continuity")
        let source = Repository.sampleGrids.appendingPathComponent("wrfout_d01_2026-11-22_00:00:00").path
        let starts = (0..<12).map { $0 * 6 }
        let store = try StoreMaker.shiftedCycles(starts: starts, into: directory)
        let reference = try Self.reference(source)
        let temperature = try XCTUnwrap(reference["temperature"] as? [Double])
        let precipitation = try XCTUnwrap(reference["precipitation"] as? [Double])
        let latitude = try XCTUnwrap(reference["latitude"] as? Double), longitude = try XCTUnwrap(reference["longitude"] as? Double)
        XCTAssertGreaterThan(precipitation[6], 0.2, "the node is wet in the hour a newer cycle starts on")

        /// The hour's cycle start (hours after 22 Nov 00Z) by the rule above.
        func owner(_ hour: Int) -> Int { hour == 0 ? 0 : min((hour - 1) / 6 * 6, starts.last ?? 0) }
        let lastCovered = (starts.last ?? 0) + 24

        var settings = ServerConfiguration(storeRoot: store)
        settings.now = { Self.base + 3 * 86400 + 600 }
        try await LiveServer.with(settings) { server in
            let place = String(format: "latitude=%.4f&longitude=%.4f", latitude, longitude)
            let reply = try await server.get("/v1/forecast?\(place)&hourly=temperature_2m,precipitation&daily=temperature_2m_max,precipitation_sum"
                                             + "&past_days=3&forecast_days=2&timezone=GMT")
            XCTAssertEqual(reply.status, 200, reply.body)
            let object = try XCTUnwrap(reply.object)
            let hourly = try XCTUnwrap(object["hourly"] as? [String: Any])
            let times = try XCTUnwrap(hourly["time"] as? [String])
            XCTAssertEqual(times.count, 120)
            XCTAssertEqual(times.first, "2026-11-22T00:00")
            let temperatures = try XCTUnwrap(hourly["temperature_2m"] as? [Any])
            let amounts = try XCTUnwrap(hourly["precipitation"] as? [Any])
            for hour in 0..<times.count {
                if hour > lastCovered {
                    XCTAssertTrue(temperatures[hour] is NSNull && amounts[hour] is NSNull, "\(times[hour]) is after every cycle")
                    continue
                }
                let frame = hour - owner(hour)
                guard let t = temperatures[hour] as? Double, let p = amounts[hour] as? Double else {
                    XCTFail("\(times[hour]): a hole (\(temperatures[hour]), \(amounts[hour])) inside the kept cycles' range")
                    continue
                }
                // Stored to 0.05 K and 0.1 mm, printed to 0.1: one printed step of either.
                XCTAssertEqual(t, temperature[frame], accuracy: 0.11, "\(times[hour]) from frame \(frame) of cycle +\(owner(hour)) h")
                XCTAssertEqual(p, precipitation[frame], accuracy: 0.11, "\(times[hour]) from frame \(frame) of cycle +\(owner(hour)) h")
            }

            // The daily values of the three whole days, from the same hours.
            let daily = try XCTUnwrap(object["daily"] as? [String: Any])
            let maxima = try XCTUnwrap(daily["temperature_2m_max"] as? [Any]), sums = try XCTUnwrap(daily["precipitation_sum"] as? [Any])
            for day in 0..<3 {
                let hot = (day * 24..<(day + 1) * 24).map { temperature[$0 - owner($0)] }.max() ?? .nan
                // An amount belongs to the day its hour lies in: the hours ending 01..24.
                let wet = (day * 24 + 1...(day + 1) * 24).map { precipitation[$0 - owner($0)] }.reduce(0, +)
                XCTAssertEqual(maxima[day] as? Double ?? .nan, hot, accuracy: 0.11, "day \(day)")
                XCTAssertEqual(sums[day] as? Double ?? .nan, wet, accuracy: 0.3, "day \(day)")
            }

            // The tilecast key names the header's cycle (the newest) and which cycle answered which hours.
            let provenance = try XCTUnwrap(object["tilecast"] as? [String: Any])
            XCTAssertEqual(provenance["cycle"] as? String, "2026-11-24T18:00Z")
            let runs = try XCTUnwrap(provenance["cycles"] as? [[String: Any]])
            XCTAssertEqual(runs.count, 12, "\(runs)")
            XCTAssertEqual(runs.first?["cycle"] as? String, "2026-11-24T18:00Z")
            XCTAssertEqual(runs.first?["from"] as? String, "2026-11-24T19:00")
            XCTAssertEqual(runs.first?["to"] as? String, "2026-11-25T18:00")
            XCTAssertEqual(runs.last?["cycle"] as? String, "2026-11-22T00:00Z")
            XCTAssertEqual(runs.last?["from"] as? String, "2026-11-22T00:00")
            XCTAssertEqual(runs.last?["to"] as? String, "2026-11-22T06:00")
            XCTAssertEqual(Set(runs.compactMap { $0["domain"] as? String }), ["d01"])
        }
    }

    /// A range that starts before every kept cycle and ends before the newest one starts is
    /// answered from the older cycles, not refused and not all null (the newest cycle covers
    /// none of it).
    func testRangeBeforeTheNewestCycleComesFromOlderOnes() async throws {
        let directory = try TemporaryDirectory("tilecast-continuity-old")
        let (source, store) = try Self.shiftedCycles([0, 48], in: directory)
        let reference = try Self.reference(source)
        let temperature = try XCTUnwrap(reference["temperature"] as? [Double])
        let latitude = try XCTUnwrap(reference["latitude"] as? Double), longitude = try XCTUnwrap(reference["longitude"] as? Double)
        var settings = ServerConfiguration(storeRoot: store)
        settings.now = { Self.base + 2 * 86400 + 600 }
        try await LiveServer.with(settings) { server in
            let place = String(format: "latitude=%.4f&longitude=%.4f", latitude, longitude)
            let reply = try await server.get("/v1/forecast?\(place)&hourly=temperature_2m&start_date=2026-11-22&end_date=2026-11-22&timezone=GMT")
            XCTAssertEqual(reply.status, 200, reply.body)
            let hourly = try XCTUnwrap(reply.object?["hourly"] as? [String: Any])
            let values = try XCTUnwrap(hourly["temperature_2m"] as? [Any])
            XCTAssertEqual(values.count, 24)
            for (hour, value) in values.enumerated() {
                XCTAssertEqual(value as? Double ?? .nan, temperature[hour], accuracy: 0.11, "hour \(hour)")
            }
            XCTAssertEqual((reply.object?["tilecast"] as? [String: Any])?["cycle"] as? String, "2026-11-22T00:00Z")
        }
    }

    /// `minutely_15` and a 3-hour `temporal_resolution` are joined from older cycles as hours
    /// are: a time whose interval (15 minutes, 3 hours) begins before a cycle's start comes from
    /// the cycle before it. Two cycles, 00Z and 06Z (copies of the hourly sample d01 run), asked
    /// at 12:10Z; the expected values are the sample's frames read with netCDF4-python: a
    /// quarter hour's amount is a quarter of its hour's (totals linear in time), a 3-hour
    /// amount the sum of its three hours, each from the owning cycle's frames.
    func testQuarterHoursAndThreeHourStepsComeFromOlderCyclesToo() async throws {
        let directory = try TemporaryDirectory("tilecast-continuity-steps")
        let (source, store) = try Self.shiftedCycles([0, 6], in: directory)
        let reference = try Self.reference(source)
        let temperature = try XCTUnwrap(reference["temperature"] as? [Double])
        let precipitation = try XCTUnwrap(reference["precipitation"] as? [Double])
        let latitude = try XCTUnwrap(reference["latitude"] as? Double), longitude = try XCTUnwrap(reference["longitude"] as? Double)
        var settings = ServerConfiguration(storeRoot: store)
        settings.now = { Self.base + 12 * 3600 + 600 }
        try await LiveServer.with(settings) { server in
            let place = String(format: "latitude=%.4f&longitude=%.4f", latitude, longitude)
            let quarters = try await server.get("/v1/forecast?\(place)&minutely_15=temperature_2m,precipitation&timezone=GMT"
                                                + "&start_minutely_15=2026-11-22T03:00&end_minutely_15=2026-11-22T09:00")
            XCTAssertEqual(quarters.status, 200, quarters.body)
            let block = try XCTUnwrap(quarters.object?["minutely_15"] as? [String: Any])
            let t = try XCTUnwrap(block["temperature_2m"] as? [Any]), p = try XCTUnwrap(block["precipitation"] as? [Any])
            XCTAssertEqual(t.count, 25)
            for k in 0..<25 {
                let minutes = 180 + 15 * k
                // The 06Z cycle answers from 06:15 on (its first quarter hour's interval starts at its start).
                let owner = minutes >= 6 * 60 + 15 ? 6 : 0
                let hour = (minutes + 59) / 60
                XCTAssertEqual(p[k] as? Double ?? .nan, precipitation[hour - owner] / 4, accuracy: 0.16, "quarter \(minutes) min, cycle +\(owner) h")
                if minutes % 60 == 0 {
                    XCTAssertEqual(t[k] as? Double ?? .nan, temperature[hour - owner], accuracy: 0.11, "\(minutes) min, cycle +\(owner) h")
                }
            }
            let steps = try await server.get("/v1/forecast?\(place)&hourly=precipitation&temporal_resolution=hourly_3&timezone=GMT"
                                             + "&start_hour=2026-11-22T03:00&end_hour=2026-11-22T12:00")
            XCTAssertEqual(steps.status, 200, steps.body)
            let amounts = try XCTUnwrap((steps.object?["hourly"] as? [String: Any])?["precipitation"] as? [Any])
            XCTAssertEqual(amounts.count, 4)
            var telling = 0
            for (k, hour) in [3, 6, 9, 12].enumerated() {
                let owner = hour >= 6 + 3 ? 6 : 0
                let sum = (hour - 2...hour).map { precipitation[$0 - owner] }.reduce(0, +)
                XCTAssertEqual(amounts[k] as? Double ?? .nan, sum, accuracy: 0.16, "the 3 hours to \(hour)Z, cycle +\(owner) h")
                // The other cycle's frames (where it has the hours) would give another sum.
                let other = owner == 6 ? 0 : 6
                if hour - 2 - other >= 1 { telling += abs((hour - 2...hour).map { precipitation[$0 - other] }.reduce(0, +) - sum) > 0.5 ? 1 : 0 }
            }
            XCTAssertGreaterThan(telling, 0, "the sample's rain tells the cycles apart at these hours")
        }
    }

    /// A store of the sample d01 run filed as cycles starting `starts` hours after its own
    /// start (Scripts/shift_run.py), kept 4 deep; and the sample's path.
    private static func shiftedCycles(_ starts: [Int], in directory: TemporaryDirectory) throws -> (source: String, store: String) {
        let source = Repository.sampleGrids.appendingPathComponent("wrfout_d01_2026-11-22_00:00:00").path
        return (source, try StoreMaker.shiftedCycles(starts: starts, keep: 4, into: directory))
    }

    /// The reference node's coordinates and per-frame values (cycle_continuity_reference.py).
    private static func reference(_ source: String) throws -> [String: Any] {
        let script = Repository.root.appendingPathComponent("Tests/ServerTests/cycle_continuity_reference.py").path
        let output = try runTool("python3", [script, source])
        XCTAssertEqual(output.status, 0, output.stderr)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
    }
}
