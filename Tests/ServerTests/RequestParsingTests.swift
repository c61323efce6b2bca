import Foundation
import TestSupport
import TileCastServer
import XCTest

/// The request's dates and hours, read from the bytes when they have the canonical shape
/// (`yyyy-MM-dd`, `yyyy-MM-ddTHH:mm`) and by the general parser otherwise: both give the
/// instants Foundation's Gregorian calendar gives, and refuse what it does not hold.
final class RequestParsingTests: XCTestCase {
    private let now: Int64 = 1_795_305_600   // 2026-11-22T00:00:00Z (`date -u -d 2026-11-22 +%s`)

    private func utcCalendar() -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        return calendar
    }

    /// The hour `text` names, as the server reads `start_hour=text&end_hour=text`.
    private func hour(_ text: String) throws(APIError) -> Int64? {
        let parameters = try ForecastServer.parameters(target: "/v1/forecast?latitude=39&longitude=-8&hourly=temperature_2m&start_hour=\(text)&end_hour=\(text)",
                                                       formBody: nil)
        let utc = TimeZone(secondsFromGMT: 0) ?? .current
        return try RequestTimes(parameters.times, zone: utc, zoneName: "GMT", now: now).hourly.first
    }

    private func day(_ text: String) throws(APIError) -> Int64? {
        let parameters = try ForecastServer.parameters(target: "/v1/forecast?latitude=39&longitude=-8&daily=temperature_2m_max&start_date=\(text)&end_date=\(text)",
                                                       formBody: nil)
        let utc = TimeZone(secondsFromGMT: 0) ?? .current
        return try RequestTimes(parameters.times, zone: utc, zoneName: "GMT", now: now).dayStarts.first
    }

    /// 1,000 seeded dates and times 1900-2200, days 1-31 in every month (so some do not
    /// exist): each one the calendar holds is read as its instant, each other is refused.
    func testCanonicalDatesAndHoursMatchTheCalendar() {
        let calendar = utcCalendar()
        var random = SeededGenerator(seed: 0x7a2_5e_2026_1127)
        var refused = 0
        for _ in 0..<1000 {
            let (y, m, d) = (Int.random(in: 1900...2200, using: &random), Int.random(in: 1...12, using: &random), Int.random(in: 1...31, using: &random))
            let (h, mi) = (Int.random(in: 0...23, using: &random), Int.random(in: 0...59, using: &random))
            let components = DateComponents(year: y, month: m, day: d, hour: h, minute: mi)
            let instant = calendar.date(from: components)
            let exists = instant.map { calendar.dateComponents([.year, .month, .day], from: $0) } == DateComponents(year: y, month: m, day: d)
            let dateText = String(format: "%04d-%02d-%02d", y, m, d)
            let hourText = dateText + String(format: "T%02d:%02d", h, mi)
            if exists, let instant {
                XCTAssertEqual(try hour(hourText), Int64(instant.timeIntervalSince1970), hourText)
                let midnight = calendar.startOfDay(for: instant)
                XCTAssertEqual(try day(dateText), Int64(midnight.timeIntervalSince1970), dateText)
            } else {
                refused += 1
                XCTAssertThrowsError(try hour(hourText), hourText) { error in
                    XCTAssertTrue((error as? APIError)?.reason.contains("not a day of the calendar") == true, "\(error)")
                }
                XCTAssertThrowsError(try day(dateText), dateText)
            }
        }
        XCTAssertGreaterThan(refused, 0, "the seeded days never reached a day a month lacks")
    }

    /// Texts not of the canonical shape are read (or refused) by the general parser, as
    /// before the byte reader: a short month with a three-digit day is still that day.
    func testOtherShapesKeepTheGeneralParsersAnswers() throws {
        let calendar = utcCalendar()
        let expected = try XCTUnwrap(calendar.date(from: DateComponents(year: 2026, month: 1, day: 22, hour: 6)))
        XCTAssertEqual(try hour("2026-1-022T06:00"), Int64(expected.timeIntervalSince1970))
        XCTAssertEqual(try hour("2026-01-22T6:0"), Int64(expected.timeIntervalSince1970))
        for bad in ["2026-13-01T00:00", "2026-11-22T24:00", "2026-11-22T06:60", "2026-11-22 06:00", "26-11-22T06:00"] {
            XCTAssertThrowsError(try hour(bad), bad) { error in
                XCTAssertTrue((error as? APIError)?.reason.contains("start_hour") == true, "\(bad): \(error)")
            }
        }
    }

    /// Comma lists: entries trimmed of spaces and tabs, empty and blank ones left out, a
    /// parameter given twice joined; coordinates alike.
    func testListsAreSplitTrimmedAndJoined() throws {
        let parameters = try ForecastServer.parameters(
            target: "/v1/forecast?latitude=%2039.5%09,,-1&longitude=-8,7&hourly=%20temperature_2m%20,,%09relative_humidity_2m,&hourly=,%20,cloud_cover",
            formBody: nil)
        XCTAssertEqual(parameters.latitudes, [39.5, -1])
        XCTAssertEqual(parameters.longitudes, [-8, 7])
        XCTAssertEqual(parameters.hourlyColumns.map(\.name), ["temperature_2m", "relative_humidity_2m", "cloud_cover"])
        XCTAssertThrowsError(try ForecastServer.parameters(target: "/v1/forecast?latitude=39,%20,40&longitude=-8", formBody: nil)) { error in
            XCTAssertTrue((error as? APIError)?.reason.contains("same number of elements") == true, "\(error)")
        }
    }
}
