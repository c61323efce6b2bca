import Catalog
import Foundation
import PointQuery
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
        // A points file's times may have them (issue 47: a GPS track's).
        XCTAssertEqual(TimeParsing.parse("2026-11-22T05:00:30Z", allowingSeconds: true), midnight + 5 * 3600 + 30)
        XCTAssertEqual(TimeParsing.parse("2026-11-22T06:00:30+01:00", allowingSeconds: true), midnight + 5 * 3600 + 30)
        XCTAssertNil(TimeParsing.parse("2026-11-22T05:00:30.5Z", allowingSeconds: true), "fractions of a second are not times of a track")
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
}
