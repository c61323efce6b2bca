import Foundation
import TestSupport
import TileCastServer
import XCTest

/// Issue 47: daily values of days the kept cycles cover only in part. A sum or mean over a
/// local day with an hour outside every kept cycle is null; otherwise it is the sum (mean) of
/// the hourly block's values for the day. Max and min are Open-Meteo's: its `max(by:)` /
/// `min(by:)` (open-meteo/open-meteo, Sources/App/Helper/Array.swift, called by
/// Sources/App/Helper/GenericDailyCalculator.swift) fold from -/+greatestFiniteMagnitude with
/// `$1 < $0 ? $0 : $1`, so a NaN hour replaces the running value and the next hour replaces the
/// NaN: the extreme of the hours after the day's last missing one, NaN when its last hour is
/// missing.
final class PartialDayDailyTests: XCTestCase {
    /// 2026-11-22T00Z, the sample run's start.
    private static let base: Int64 = 1_795_305_600

    /// Five cycles of the sample d01 run (24 h each) filed at +0, +12, +24, +36 and +84 h: the
    /// kept cycles cover 22 Nov 00Z to 24 Nov 12Z and 25 Nov 12Z to 26 Nov 12Z, with a gap
    /// between. 200 seeded (seed 47) places, zones (whole, half and three-quarter hour offsets,
    /// both hemispheres' daylight saving) and date ranges of 1-3 days from 21 to 27 Nov. For each day
    /// the test works out, from the cycles' spans alone, which of its hours some cycle covers:
    /// an instant at t when a cycle runs from at most t to at least t; an amount ending at t
    /// (the day's when its interval lies in the day: midnight < t <= next midnight) when a
    /// cycle holds its whole interval, or t is a cycle's first frame (the run's own stored
    /// step). The hourly block must be null exactly at the uncovered hours; the daily sum and
    /// mean null exactly when the day has one, and otherwise equal to the sum (mean) of the
    /// day's hourly values; max and min as the fold above. Every tenth case is asked as CSV too,
    /// whose daily section must print the same nulls (NaN) and values.
    func testSeededDaysAreNullExactlyWhenAnHourIsOutsideEveryCycle() async throws {
        let directory = try TemporaryDirectory("tilecast-partial-days")
        let starts = [0, 12, 24, 36, 84]
        let store = try StoreMaker.shiftedCycles(starts: starts, into: directory)
        let spans = starts.map { (first: Self.base + Int64($0) * 3600, last: Self.base + Int64($0 + 24) * 3600) }
        func instantCovered(_ t: Int64) -> Bool { spans.contains { $0.first <= t && t <= $0.last } }
        func amountCovered(_ t: Int64) -> Bool { spans.contains { ($0.first <= t - 3600 && t <= $0.last) || t == $0.first } }

        let zones = ["GMT", "Europe/Lisbon", "Europe/Madrid", "America/New_York", "America/Los_Angeles", "Asia/Kolkata",
                     "Asia/Kathmandu", "Australia/Adelaide", "America/St_Johns", "Pacific/Auckland", "Pacific/Kiritimati", "Asia/Tehran"]
        var settings = ServerConfiguration(storeRoot: store)
        settings.now = { Self.base + 2 * 86400 + 600 }
        var generator = SeededGenerator(seed: 47)
        var tally = (days: 0, partial: 0, whole: 0, extremesKnownOnPartial: 0, csv: 0, refused: 0)
        try await LiveServer.with(settings) { server in
            for index in 0..<200 {
                let latitude = Double.random(in: 37.3...41.7, using: &generator), longitude = Double.random(in: -9.9...(-6.4), using: &generator)
                let zoneName = zones[Int.random(in: 0..<zones.count, using: &generator)]
                let firstDay = Int.random(in: 1...5, using: &generator), length = Int.random(in: 1...3, using: &generator)
                let zone = try XCTUnwrap(TimeZone(identifier: zoneName))
                var calendar = Calendar(identifier: .gregorian)
                calendar.timeZone = zone
                let dates = (firstDay..<firstDay + length).map { String(format: "2026-11-%02d", 20 + $0) }
                let nextDate = String(format: "2026-11-%02d", 20 + firstDay + length)
                let place = String(format: "latitude=%.4f&longitude=%.4f&timezone=%@&timeformat=unixtime", latitude, longitude, zoneName)
                let label = "case \(index): \(place) \(dates)"
                let names = "temperature_2m_max,temperature_2m_min,temperature_2m_mean,precipitation_sum"
                let daily = try await server.get("/v1/forecast?\(place)&daily=\(names)&start_date=\(dates[0])&end_date=\(dates[dates.count - 1])")
                // The hourly block one day further: the last day's amounts end at its next midnight.
                let hourly = try await server.get("/v1/forecast?\(place)&hourly=temperature_2m,precipitation&start_date=\(dates[0])&end_date=\(nextDate)")
                // Midnights of the days and the one after, from Foundation's zone rules.
                let midnights = try (dates + [nextDate]).map { date -> Int64 in
                    let parts = date.split(separator: "-").compactMap { Int($0) }
                    let day = try XCTUnwrap(calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2])))
                    return Int64(calendar.startOfDay(for: day).timeIntervalSince1970)
                }
                let anyCovered = (midnights[0]...midnights[dates.count]).contains { instantCovered($0) }
                guard daily.status == 200 else {
                    // Only a range wholly outside every cycle may be refused.
                    XCTAssertEqual(daily.status, 400, label)
                    XCTAssertFalse(anyCovered, "\(label): refused though a cycle covers some of it: \(daily.body)")
                    tally.refused += 1
                    continue
                }
                XCTAssertEqual(hourly.status, 200, "\(label): \(hourly.body)")
                let block = try XCTUnwrap(hourly.object?["hourly"] as? [String: Any], label)
                let times = try XCTUnwrap(block["time"] as? [Int], label).map(Int64.init)
                let temperature = try XCTUnwrap(block["temperature_2m"] as? [Any], label).map { $0 as? Double }
                let precipitation = try XCTUnwrap(block["precipitation"] as? [Any], label).map { $0 as? Double }
                var byTime: [Int64: (t: Double?, p: Double?)] = [:]
                for (k, time) in times.enumerated() {
                    byTime[time] = (temperature[k], precipitation[k])
                    XCTAssertEqual(temperature[k] != nil, instantCovered(time), "\(label): temperature at \(time)")
                    XCTAssertEqual(precipitation[k] != nil, amountCovered(time), "\(label): precipitation at \(time)")
                }
                let days = try XCTUnwrap(daily.object?["daily"] as? [String: Any], label)
                func column(_ name: String) throws -> [Double?] { try XCTUnwrap(days[name] as? [Any], "\(label) \(name)").map { $0 as? Double } }
                let (maxima, minima, means, sums) = (try column("temperature_2m_max"), try column("temperature_2m_min"),
                                                     try column("temperature_2m_mean"), try column("precipitation_sum"))
                XCTAssertEqual(sums.count, dates.count, label)
                for d in dates.indices where d < sums.count {
                    let (start, end) = (midnights[d], midnights[d + 1])
                    let instants = stride(from: start, to: end, by: 3600).map { Int64($0) }
                    let amounts = instants.map { $0 + 3600 }
                    let temperatures = instants.map { byTime[$0]?.t }, rain = amounts.map { byTime[$0]?.p }
                    let dayLabel = "\(label) \(dates[d])"
                    tally.days += 1
                    // The mean: null exactly when an hour is uncovered, else the hourly values' mean.
                    if instants.allSatisfy(instantCovered) {
                        let known = temperatures.compactMap { $0 }
                        XCTAssertEqual(known.count, instants.count, dayLabel)
                        // Hourly values print to 0.01 °C (stored 0.05 K): the mean of printed values within 0.01.
                        XCTAssertEqual(means[d] ?? .nan, known.reduce(0, +) / Double(known.count), accuracy: 0.011, dayLabel)
                    } else {
                        XCTAssertNil(means[d], "\(dayLabel): a mean over a day with an hour outside every cycle")
                    }
                    if amounts.allSatisfy(amountCovered) {
                        let known = rain.compactMap { $0 }
                        XCTAssertEqual(known.count, amounts.count, dayLabel)
                        // Each hour prints to 0.01 mm at most half a step off: the sum within that.
                        XCTAssertEqual(sums[d] ?? .nan, known.reduce(0, +), accuracy: 0.006 * Double(known.count) + 0.011, dayLabel)
                        tally.whole += 1
                    } else {
                        XCTAssertNil(sums[d], "\(dayLabel): precipitation_sum over a day with an hour outside every cycle")
                        tally.partial += 1
                    }
                    // Max and min: the hours after the last uncovered one; null if the day's last is.
                    let tail: [Double]? = {
                        guard let last = instants.last, instantCovered(last) else { return nil }
                        let from = (instants.lastIndex { !instantCovered($0) } ?? -1) + 1
                        return temperatures[from...].compactMap { $0 }
                    }()
                    if let tail, let high = tail.max(), let low = tail.min() {
                        XCTAssertEqual(maxima[d] ?? .nan, high, accuracy: 0.011, dayLabel)
                        XCTAssertEqual(minima[d] ?? .nan, low, accuracy: 0.011, dayLabel)
                        if !instants.allSatisfy(instantCovered) { tally.extremesKnownOnPartial += 1 }
                    } else {
                        XCTAssertNil(maxima[d], "\(dayLabel): the day's last hour is outside every cycle")
                        XCTAssertNil(minima[d], dayLabel)
                    }
                }
                if index % 10 == 0 {
                    // The CSV form: its daily section prints the same values, NaN for null.
                    let csv = try await server.get("/v1/forecast?\(place)&daily=\(names)&start_date=\(dates[0])&end_date=\(dates[dates.count - 1])&format=csv")
                    XCTAssertEqual(csv.status, 200, label)
                    let rows = csv.body.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
                    guard let header = rows.firstIndex(where: { $0.first == "time" }) else { XCTFail("\(label): no daily header in \(csv.body)"); continue }
                    let body = rows[(header + 1)...].filter { $0.count == 5 }
                    XCTAssertEqual(body.count, dates.count, "\(label): \(csv.body)")
                    for (d, row) in body.enumerated() {
                        for (k, expected) in [maxima[d], minima[d], means[d], sums[d]].enumerated() {
                            if let expected {
                                XCTAssertEqual(Double(row[k + 1]) ?? .nan, expected, accuracy: 0.0051, "\(label) CSV \(row)")
                            } else {
                                XCTAssertEqual(row[k + 1], "NaN", "\(label) CSV \(row)")
                            }
                        }
                    }
                    tally.csv += 1
                }
            }
        }
        // The seed must reach every kind of day, or the test proves little.
        XCTAssertGreaterThan(tally.partial, 50)
        XCTAssertGreaterThan(tally.whole, 50)
        XCTAssertGreaterThan(tally.extremesKnownOnPartial, 10)
        print("PartialDayDailyTests: \(tally)")
    }
}
