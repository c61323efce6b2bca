import Foundation
import Meteorology
import TestSupport
import XCTest

/// Sunrise, sunset, daylight and is_day (NOAA's solar calculator, `SolarPosition`) against
/// astral (`Scripts/solar_reference.py`), at the allvars sample's place and around the globe:
/// both hemispheres, the dateline, the polar circle in summer and winter.
final class SolarTests: XCTestCase {
    /// (latitude, longitude, local date, UTC offset hours)
    private let cases: [(Double, Double, String, Double)] = {
        var cases: [(Double, Double, String, Double)] = []
        let places: [(Double, Double)] = [(38.7223, -9.1393), (-33.9, 151.2), (50, 179.9), (-60, -170), (69.65, 18.96), (64.1, -21.9), (0.3, 32.6)]
        // The allvars sample's centre (WRF d01 crop): its first day.
        cases.append((30.5, 91.1, "2005-09-21", 6))
        for (lat, lon) in places {
            for date in ["2026-01-15", "2026-03-20", "2026-05-30", "2026-06-21", "2026-09-23", "2026-11-22", "2026-12-21"] {
                cases.append((lat, lon, date, (lon / 15).rounded()))
            }
        }
        return cases
    }()

    private func reference() throws -> [String] {
        let check = try runTool("python3", ["-c", "import astral"])
        try XCTSkipIf(check.status != 0, "python3 with astral is needed for the solar reference: \(check.stderr)")
        let script = Repository.root.appendingPathComponent("Scripts/solar_reference.py").path
        let result = try runTool("python3", [script] + cases.map { "\($0.0),\($0.1),\($0.2),\($0.3)" })
        XCTAssertEqual(result.status, 0, result.stderr)
        return result.stdout.split(separator: "\n").dropFirst().map(String.init)
    }

    private func localNoon(_ date: String, offset: Double) throws -> Double {
        let parts = date.split(separator: "-").compactMap { Int($0) }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try XCTUnwrap(TimeZone(secondsFromGMT: Int(offset * 3600)))
        return try XCTUnwrap(calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2], hour: 12))).timeIntervalSince1970
    }

    func testSunriseSunsetAndDaylightMatchAstral() throws {
        let rows = try reference()
        XCTAssertEqual(rows.count, cases.count)
        var worst = 0.0, compared = 0, polar = 0, edges = 0
        var worstRow = ""
        for (row, place) in zip(rows, cases) {
            let fields = row.split(separator: ",").map(String.init)
            let day = SolarPosition.day(latitude: place.0, longitude: place.1, noonGuess: try localNoon(place.2, offset: place.3))
            // astral's edge: "always down" on a day whose noon sun is above the sunrise line
            // by its own elevation; the sun then rises briefly, as NOAA's formulas say.
            if fields[3] == "down", let lift = Double(fields[5]), lift > 90 - SolarPosition.horizonZenith {
                guard case .risesAndSets(let sunrise, let sunset) = day else { XCTFail("\(row): \(day)"); continue }
                XCTAssertLessThan(sunset - sunrise, 3 * 3600, row)
                edges += 1
                continue
            }
            switch (fields[3], day) {
            case ("up", .alwaysUp), ("down", .alwaysDown): polar += 1
            case (_, .risesAndSets(let sunrise, let sunset)):
                let rise = try XCTUnwrap(Double(fields[3]), row), set = try XCTUnwrap(Double(fields[4]), row)
                let difference = max(abs(sunrise - rise), abs(sunset - set), abs((sunset - sunrise) - (set - rise)))
                if difference > worst { worstRow = "\(row): sunrise \(sunrise - rise) s, sunset \(sunset - set) s" }
                worst = max(worst, difference)
                compared += 1
            default: XCTFail("\(row): \(day)")
            }
        }
        print("sunrise/sunset/daylight_duration vs astral: worst \(worst) s over \(compared) days (\(polar) polar days/nights agree, \(edges) at astral's polar-night edge); worst at \(worstRow)")
        XCTAssertGreaterThan(polar, 1)
        // The same formulas evaluated at slightly different times of the day: seconds apart.
        XCTAssertLessThanOrEqual(worst, 5, "seconds")
    }

    /// is_day is 1 between astral's sunrise and sunset and 0 outside, every 10 minutes of
    /// each day (times within a minute of an event are skipped: the two algorithms differ by
    /// seconds there).
    func testIsDayFollowsAstralsSunriseAndSunset() throws {
        let rows = try reference()
        var compared = 0
        for (row, place) in zip(rows, cases) {
            let fields = row.split(separator: ",").map(String.init)
            let noon = try localNoon(place.2, offset: place.3)
            if fields[3] == "down", let lift = Double(fields[5]), lift > 90 - SolarPosition.horizonZenith { continue }
            for step in stride(from: -11 * 3600.0, through: 11 * 3600.0, by: 600) {
                let time = noon + step
                let expected: Float
                switch fields[3] {
                case "up": expected = 1
                case "down": expected = 0
                default:
                    let rise = try XCTUnwrap(Double(fields[3])), set = try XCTUnwrap(Double(fields[4]))
                    if abs(time - rise) < 60 || abs(time - set) < 60 { continue }
                    expected = time > rise && time < set ? 1 : 0
                }
                XCTAssertEqual(SolarPosition.isDay(latitude: place.0, longitude: place.1, time: time), expected, "\(row) at \(time)")
                compared += 1
            }
        }
        XCTAssertGreaterThan(compared, 1000)
    }
}

/// A zenith from another moment's declination and equation of time (what the sunshine count
/// decides sunrise and sunset from) lies within `zenithDrift` of the exact zenith, and is the
/// exact zenith when the moment is the time's own: seeded places and times from 1900 to 2200,
/// moments up to ten days away. With a drift rate below the declination's own (0.396°/day)
/// this fails.
final class SolarMomentTests: XCTestCase {
    func testZenithFromANearbyMomentStaysWithinItsDrift() {
        var random = SeededGenerator(seed: 0x30_50_1a_2026_1127)
        var worstShare = 0.0
        for _ in 0..<20_000 {
            let latitude = Double.random(in: -89.9...89.9, using: &random), longitude = Double.random(in: -180...180, using: &random)
            let time = Double.random(in: -2_208_988_800...7_258_118_400, using: &random)
            let exact = SolarPosition.sky(latitude: latitude, longitude: longitude, time: time)
            let own = SolarPosition.sky(latitude: latitude, longitude: longitude, time: time, moment: SolarPosition.Moment(time: time))
            XCTAssertEqual(own.zenith, exact.zenith)
            XCTAssertEqual(own.hourAngle, exact.hourAngle)
            let away = Double.random(in: -864_000...864_000, using: &random)
            let moment = SolarPosition.Moment(time: time + away)
            let rough = SolarPosition.sky(latitude: latitude, longitude: longitude, time: time, moment: moment).zenith
            let drift = SolarPosition.zenithDrift(from: moment, to: time)
            XCTAssertLessThanOrEqual(abs(rough - exact.zenith), drift, "\(latitude), \(longitude) at \(time), moment \(away) s away")
            if drift > 0.01 { worstShare = max(worstShare, abs(rough - exact.zenith) / drift) }
        }
        // The bound is not loose beyond reason: some zeniths use most of it.
        XCTAssertGreaterThan(worstShare, 0.5)
    }
}
