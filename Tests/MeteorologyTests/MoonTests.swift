import Foundation
import Meteorology
import TestSupport
import XCTest

/// Moonrise, moonset and the moon's phase (`Moon`, Open-Meteo's MiniMoon definition) against
/// astral's moon (`Scripts/moon_reference.py`, its own series and search) on 300 seeded places
/// within 60° of the equator and UTC days of 2000-2040. astral rounds its times to the nearest
/// minute (hour + e + 1/120, then whole minutes), so a rise or set within a minute of astral's
/// own is within 90 s of the minute it prints: that is the tolerance.
final class MoonTests: XCTestCase {
    func testMoonriseMoonsetAndPhaseMatchAstral() throws {
        let check = try runTool("python3", ["-c", "import astral, numpy"])
        try XCTSkipIf(check.status != 0, "python3 with astral and numpy is needed for the moon reference: \(check.stderr)")
        let script = Repository.root.appendingPathComponent("Scripts/moon_reference.py").path
        let result = try runTool("python3", [script, "--seed", "20261127", "--days", "300"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let rows = result.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: ",").map(String.init) }
        XCTAssertEqual(rows.count, 300)
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = try XCTUnwrap(TimeZone(secondsFromGMT: 0))
        var worstEvent = 0.0, worstPoleward = 0.0, worstPhase = 0.0, events = 0, edges = 0
        for row in rows {
            let latitude = try XCTUnwrap(Double(row[0])), longitude = try XCTUnwrap(Double(row[1]))
            let parts = row[2].split(separator: "-").compactMap { Int($0) }
            let midnight = try XCTUnwrap(utc.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2]))).timeIntervalSince1970
            let ours = Moon.riseAndSet(dayStart: midnight, latitude: latitude, longitude: longitude)
            for (name, mine, theirs) in [("moonrise", ours.rise, row[3]), ("moonset", ours.set, row[4])] {
                switch (mine, Double(theirs)) {
                case (let mine?, let theirs?):
                    let distance = abs(mine - theirs)
                    XCTAssertLessThanOrEqual(distance, 90, "\(name) at \(row.joined(separator: ",")): ours \(mine)")
                    if abs(latitude) > 50 { worstPoleward = max(worstPoleward, distance) } else { worstEvent = max(worstEvent, distance) }
                    events += 1
                case (nil, nil): events += 1
                case (let mine?, nil):
                    // Only an event within two minutes of the day's edge may fall on the other day there.
                    XCTAssertTrue(mine - midnight < 120 || midnight + 86_400 - mine < 120, "\(name) at \(row.joined(separator: ",")): ours \(mine), astral none")
                    edges += 1
                case (nil, let theirs?):
                    XCTAssertTrue(theirs - midnight < 120 || midnight + 86_400 - theirs < 180, "\(name) at \(row.joined(separator: ",")): astral \(theirs), ours none")
                    edges += 1
                }
            }
            // The phase at the UTC day's noon, against astral's 28-day scale: the two series differ
            // by up to a few thousandths of the cycle (an hour and a half).
            let phase = Moon.phase(midnight + 43_200), theirs = try XCTUnwrap(Double(row[5]))
            var difference = abs(phase - theirs)
            difference = min(difference, 1 - difference)
            XCTAssertLessThanOrEqual(difference, 0.01, "moon_phase at \(row.joined(separator: ",")): ours \(phase)")
            worstPhase = max(worstPhase, difference)
            XCTAssertTrue((0..<1).contains(phase))
        }
        print("moonrise/moonset vs astral's printed minute: worst \(worstEvent) s within 50° of the equator, \(worstPoleward) s at 50-60°, over \(events) events (\(edges) at a day's edge); moon_phase worst \(worstPhase)")
        XCTAssertLessThanOrEqual(edges, 6)
    }

    /// The phase's quarters at known instants (USNO: new moon 2000-01-06 18:14 UTC, full moon
    /// 2024-04-23 23:49 UTC).
    func testPhaseAtKnownNewAndFullMoons() {
        XCTAssertEqual(min(Moon.phase(947_182_440), 1 - Moon.phase(947_182_440)), 0, accuracy: 0.003)
        XCTAssertEqual(Moon.phase(1_713_916_140), 0.5, accuracy: 0.003)
    }
}
