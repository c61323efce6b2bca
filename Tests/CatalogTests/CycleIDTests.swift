import Catalog
import XCTest

/// A cycle's folder name ("2026-11-22T06Z", "2026-11-22T0630Z") parses to its time, prints back
/// the same, and orders by time, not by name.
final class CycleIDTests: XCTestCase {
    func testCycleIDParsesPrintsAndOrdersByTime() {
        let names = ["2026-11-22T12Z", "2026-11-22T0630Z", "2026-11-22T06Z", "2026-11-21T18Z", "2026-11-22T0005Z"]
        let ids = names.compactMap(CycleID.init(name:))
        XCTAssertEqual(ids.count, names.count)
        XCTAssertEqual(ids.sorted().map(\.name), ["2026-11-21T18Z", "2026-11-22T0005Z", "2026-11-22T06Z", "2026-11-22T0630Z", "2026-11-22T12Z"])
        // Independent arithmetic: 2026-11-22T06:30Z = 1795305600 + 6.5 h.
        XCTAssertEqual(CycleID(name: "2026-11-22T0630Z")?.seconds, 1_795_305_600 + 23_400)
        for bad in ["2026-11-22T06", "2026-11-22T0660Z", "2026-13-01T00Z", "2026-11-22T24Z", "x026-11-22T00Z", "2026-11-22T06Z.123", "latest", ""] {
            XCTAssertNil(CycleID(name: bad), bad)
        }
    }
}

/// `--cycle` and its kin become a `CycleSelector` where the text enters: every form a person
/// writes a time in names the store's one folder, and nothing else (a path, "..", an empty or
/// impossible date) names a cycle at all.
final class CycleSelectorTests: XCTestCase {
    func testEveryTimeFormNamesTheOneFolder() throws {
        XCTAssertEqual(CycleSelector(parsing: "latest"), .latest)
        for form in ["2026-11-21T12Z", "2026-11-21T12:00Z", "2026-11-21 12:00", "2026-11-21_12:00:00"] {
            let selector = try XCTUnwrap(CycleSelector(parsing: form), form)
            XCTAssertEqual(selector.description, "2026-11-21T12Z", form)
        }
        // Minutes are kept: a 06:30 cycle is its own folder, after 06:00.
        let half = try XCTUnwrap(CycleSelector(parsing: "2026-11-21T06:30Z"))
        XCTAssertEqual(half.description, "2026-11-21T0630Z")
        guard case .cycle(let later) = half, case .cycle(let earlier)? = CycleSelector(parsing: "2026-11-21T06Z") else {
            return XCTFail("both name cycles")
        }
        XCTAssertLessThan(earlier, later)
    }

    func testNothingElseNamesACycle() {
        for text in ["", "..", "latest/..", "../wrf", "2026-11-21T12Z/..", "2026-02-30T00Z", "2026-11-21T25Z", "newest", "LATEST"] {
            XCTAssertNil(CycleSelector(parsing: text), text)
        }
    }
}
