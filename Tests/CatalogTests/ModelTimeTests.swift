import Catalog
import Foundation
import TestSupport
import XCTest

/// Model time: WRF's and CF's time texts, ISO labels, and the day of the year. Expected values
/// are epoch constants checked with `date -u -d 2026-11-22T00:00Z +%s`, not the engine.
final class ModelTimeTests: XCTestCase {
    private let midnight: Int64 = 1_795_305_600   // 2026-11-22T00:00:00Z

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

    /// The ISO texts (written digit by digit into the string's storage) equal Foundation's
    /// `ISO8601DateFormatter` at the edges of days, leap days and centuries and at 2,000 seeded
    /// times 1900-2200; a year past 9999 still gets a text of its own shape.
    func testISOTextsMatchFoundationsFormatter() {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.formatOptions = [.withInternetDateTime]
        var random = SeededGenerator(seed: 0x150_7e_2026_1127)
        let edges: [Int64] = [0, -1, 59, 86_399, 86_400, 951_782_400, 951_868_799, 951_868_800, 4_107_542_400, -2_208_988_800, 253_402_300_799]
        for time in edges + (0..<2000).map({ _ in Int64.random(in: -2_208_988_800...7_258_118_400, using: &random) }) {
            let expected = formatter.string(from: Date(timeIntervalSince1970: TimeInterval(time)))
            XCTAssertEqual(ModelTime.iso(time), expected, "\(time)")
            XCTAssertEqual(ModelTime.isoMinutes(time), String(expected.dropLast(4)) + "Z", "\(time)")
        }
        // 10000-01-01T00:00:00Z: outside the four-digit fast path, the general text.
        XCTAssertEqual(ModelTime.iso(253_402_300_800), "10000-01-01T00:00:00Z")
        XCTAssertEqual(ModelTime.isoMinutes(253_402_300_800), "10000-01-01T00:00Z")
    }
}
