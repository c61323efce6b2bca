import Catalog
import Foundation
import PointQuery
import TestSupport
import XCTest

/// Times as users type them (issue 13 item 10, issue 16 "messages that mislead"). Expected
/// values are epoch constants checked with `date -u -d 2026-11-22T00:00Z +%s`, not the engine.
final class TimeParsingTests: XCTestCase {
    private let midnight: Int64 = 1_795_305_600   // 2026-11-22T00:00:00Z

    func testUTCForms() {
        let six = midnight + 6 * 3600
        for text in ["2026-11-22T06Z", "2026-11-22T06:00Z", "2026-11-22T06:00:00Z", "2026-11-22 06:00", "2026-11-22_06:00:00",
                     "2026-11-22T06:00:00.000Z", "2026-11-22T06:00:00.0Z", "2026-11-22T06:00+00:00", " 2026-11-22T06:00Z "] {
            XCTAssertEqual(TimeParsing.parse(text), six, text)
        }
        XCTAssertEqual(TimeParsing.parse("2026-11-22"), midnight)
        XCTAssertEqual(ModelTime.parseUser("2026-11-22T0630Z"), midnight + 6 * 3600 + 1800)
        XCTAssertEqual(TimeParsing.parse("2028-02-29T00Z"), 1_835_395_200, "leap day")
        for bad in ["2026-02-29T00Z", "2026-11-22T24:00Z", "2026-11-22T06:60Z", "2026-13-01", "0000-00-00_00:00:00",
                    "2026-11-22T06:00:00.5Z", "2026-11-22T06:00:00.Z", "yesterday", "", "2026-11-22T06:00:00.000.000Z"] {
            XCTAssertNil(TimeParsing.parse(bad), bad)
        }
    }

    /// Output is labelled to the minute, so a time with seconds is refused rather than
    /// answered at 05:00:30 and labelled 05:00.
    func testSecondsMustBeZero() {
        XCTAssertNil(TimeParsing.parse("2026-11-22T05:00:30Z"))
        XCTAssertNil(TimeParsing.parse("2026-11-22T05:00:30+01:00"))
        XCTAssertEqual(ModelTime.parseUser("2026-11-22T05:00:30Z"), midnight + 5 * 3600 + 30, "the model-time parser keeps them")
    }

    func testOffsets() {
        XCTAssertEqual(TimeParsing.parse("2026-11-22T07:00+01:00"), midnight + 6 * 3600)
        XCTAssertEqual(TimeParsing.parse("2026-11-22T03:00-03:00"), midnight + 6 * 3600)
        XCTAssertEqual(TimeParsing.parse("2026-11-22T11:45+05:45"), midnight + 6 * 3600, "Kathmandu")
        XCTAssertEqual(TimeParsing.parse("2026-11-22T07:00:00.000+01:00"), midnight + 6 * 3600)
        XCTAssertEqual(TimeParsing.parse("2026-11-22T00:00+01:00"), midnight - 3600, "the day before in UTC")
        for bad in ["2026-11-22T07:00+01:75", "2026-11-22T07:00+99:99", "2026-11-22T07:00+24:00", "2026-11-22T07:00+1:00",
                    "2026-11-22T07:00+01:0", "2026-11-22T07:00*01:00", "2026-11-22T07:00+-1:00"] {
            XCTAssertNil(TimeParsing.parse(bad), bad)
        }
    }

    func testParseWRFAndUnits() {
        XCTAssertEqual(ModelTime.parseWRF("2026-11-22_06:00:00"), midnight + 6 * 3600)
        XCTAssertNil(ModelTime.parseWRF("2026-11-22_06:00:0x"))
        XCTAssertEqual(ModelTime.parseSinceUnits("minutes since 2026-11-22 00:00:00"), midnight)
        XCTAssertEqual(ModelTime.parseSinceUnits("hours since 2026-11-22"), midnight)
        XCTAssertEqual(ModelTime.isoMinutes(midnight + 6 * 3600 + 1800), "2026-11-22T06:30Z")
        XCTAssertEqual(ModelTime.iso(-1), "1969-12-31T23:59:59Z")
    }

    /// ModelTime.dayOfYear (the sun's day in per-hour loops) equals Foundation's calendar,
    /// at the edges of days, leap days and centuries, and at 2,000 seeded times 1900-2200.
    func testDayOfYearMatchesFoundationsCalendar() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        var random = SeededGenerator(seed: 0xd0_7e_2026_1123)
        let edges: [Int64] = [0, -1, 86_399, 86_400, 951_782_400, 951_868_799, 951_868_800, 4_107_542_400, -2_208_988_800, 1_709_164_800]
        for time in edges + (0..<2000).map({ _ in Int64.random(in: -2_208_988_800...7_258_118_400, using: &random) }) {
            let expected = calendar.ordinality(of: .day, in: .year, for: Date(timeIntervalSince1970: TimeInterval(time)))
            XCTAssertEqual(ModelTime.dayOfYear(time), expected, "\(time)")
        }
    }
}
