import Catalog
import Foundation
import GridGeometry
import PointQuery
import TestSupport
import XCTest

/// Issue 47 on the command line's path (`AnswerAssembly`, what `tilecast query --daily` runs):
/// a day's summaries come from every hour of the local day the run holds, not only the hours
/// asked for; a sum or mean is null where the run lacks one of them, and max and min are
/// Open-Meteo's (the hours after the day's last missing one; null when its last hour is
/// missing; open-meteo/open-meteo Sources/App/Helper/Array.swift, `max(by:)`).
final class PartialDayTests: XCTestCase {
    private var directory: TemporaryDirectory!
    /// 2026-11-22T00Z; the run has 120 hourly frames, to 26 Nov 23Z.
    private let start = SyntheticStore.cycle

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        let domain = SyntheticDomain(
            id: 1, parent: nil, westEast: 6, southNorth: 6, dx: 9000, southWestCorner: GeoPoint(latitude: 38.5, longitude: -9.4),
            times: SyntheticStore.hourly(5 * 24, from: start), variables: [.temperature2m, .precipitation, .shortwaveRadiation]) { variable, _, _, t in
                // °C equal to the UTC hour; 0.5 mm in every hour of the run; 100 W/m² all day.
                switch variable {
                case .temperature2m: return Float(t % 24)
                case .precipitation: return t == 0 ? 0 : 0.5
                default: return 100
                }
            }
        try SyntheticStore.write([domain], to: directory.path("store"), cycle: start)
    }

    private let names = ["temperature_2m_mean", "temperature_2m_max", "temperature_2m_min", "precipitation_sum"]

    private func daily(from first: Int64, hours: Int, zone: String, names: [String]? = nil) throws -> DailyForecast {
        let store = try ForecastStore(root: directory.path("store"))
        let names = names ?? self.names
        let variables = names.compactMap(DailyVariable.parse)
        XCTAssertEqual(variables.count, names.count)
        let assembly = AnswerAssembly(forecaster: PointForecaster(store: store),
                                      request: ForecastRequest(times: ForecastRequest.hourly(from: first, hours: hours),
                                                               variables: [.temperature2m, .precipitation, .shortwaveRadiation]),
                                      dailyVariables: variables, timeZone: TimeZone(identifier: zone))
        let answer = assembly.answer(QueryPoint(latitude: 38.55, longitude: -9.35))
        XCTAssertNoThrow(try answer.result.get())
        return try XCTUnwrap(answer.daily)
    }

    private func value(_ daily: DailyForecast, _ name: String, _ date: String) throws -> Float {
        let index = try XCTUnwrap(daily.dates.firstIndex(of: date), "\(date) in \(daily.dates)")
        return try XCTUnwrap(daily.values[try XCTUnwrap(DailyVariable.parse(name))]?[index])
    }

    /// 24 hours from 14Z touch two UTC days the run holds whole: each day's summaries are the
    /// whole day's (mean of 0..23 = 11.5, max 23, min 0, 24 x 0.5 mm), not the asked hours'.
    func testADayTheQueryCoversInPartIsSummarisedOverTheWholeDayTheRunHolds() throws {
        let daily = try daily(from: start + 86_400 + 14 * 3600, hours: 24, zone: "UTC")
        XCTAssertEqual(daily.dates, ["2026-11-23", "2026-11-24"])
        for date in daily.dates {
            XCTAssertEqual(try value(daily, "temperature_2m_mean", date), 11.5, accuracy: 0.03, date)
            XCTAssertEqual(try value(daily, "temperature_2m_max", date), 23, accuracy: 0.03, date)
            XCTAssertEqual(try value(daily, "temperature_2m_min", date), 0, accuracy: 0.03, date)
            XCTAssertEqual(try value(daily, "precipitation_sum", date), 12, accuracy: 0.1, date)
        }
        XCTAssertEqual(daily.hours, [24, 24], "hours of the run behind each day")
    }

    /// The run's last day in UTC: its instants are all held (00Z..23Z), the amount ending at the
    /// next midnight is not, so the sum is null and the mean, max and min are known.
    func testTheRunsLastDayHasNoSumWhenItsLastIntervalIsBeyondTheRun() throws {
        let daily = try daily(from: start + 4 * 86_400 + 18 * 3600, hours: 6, zone: "UTC")
        XCTAssertEqual(daily.dates, ["2026-11-26"])
        XCTAssertTrue(try value(daily, "precipitation_sum", "2026-11-26").isNaN, "the hour ending 27 Nov 00Z is beyond the run")
        XCTAssertEqual(try value(daily, "temperature_2m_mean", "2026-11-26"), 11.5, accuracy: 0.03)
        XCTAssertEqual(try value(daily, "temperature_2m_max", "2026-11-26"), 23, accuracy: 0.03)
    }

    /// In Madrid (UTC+1) 22 Nov starts at 21 Nov 23Z, before the run: the mean is null, max and
    /// min are those of the hours from the run's start on (00Z..22Z: 22 and 0 °C, the missing
    /// hour comes first); the amounts are the intervals ending 22 Nov 00Z (the run's first
    /// frame, its own stored step) to 23Z: 23 x 0.5 mm. The run's last local day, 27 Nov, holds
    /// only 26 Nov 23Z: its last hour is missing, so every statistic is null.
    func testMissingHoursAtEitherEndOfTheRunInAnotherZone() throws {
        let first = try daily(from: start, hours: 3, zone: "Europe/Madrid")
        XCTAssertEqual(first.dates, ["2026-11-22"])
        XCTAssertTrue(try value(first, "temperature_2m_mean", "2026-11-22").isNaN)
        XCTAssertEqual(try value(first, "temperature_2m_max", "2026-11-22"), 22, accuracy: 0.03)
        XCTAssertEqual(try value(first, "temperature_2m_min", "2026-11-22"), 0, accuracy: 0.03)
        XCTAssertEqual(try value(first, "precipitation_sum", "2026-11-22"), 11.5, accuracy: 0.1)

        let last = try daily(from: start + 5 * 86_400 - 3 * 3600, hours: 3, zone: "Europe/Madrid")
        XCTAssertEqual(last.dates, ["2026-11-26", "2026-11-27"])
        XCTAssertFalse(try value(last, "temperature_2m_mean", "2026-11-26").isNaN, "26 Nov local is 25 Nov 23Z..26 Nov 22Z, all held")
        for name in names { XCTAssertTrue(try value(last, name, "2026-11-27").isNaN, name) }
    }

    /// shortwave_radiation_sum of a whole day, Open-Meteo's MJ/m²: 24 hours of 100 W/m² x 3600 s
    /// / 10^6 = 8.64; of the run's last local day in Madrid (one hour), null.
    func testRadiationSumOfAWholeDayInMegajoules() throws {
        let daily = try daily(from: start + 86_400 + 6 * 3600, hours: 2, zone: "UTC", names: ["shortwave_radiation_sum"])
        XCTAssertEqual(try value(daily, "shortwave_radiation_sum", "2026-11-23"), 8.64, accuracy: 0.01)
        let last = try self.daily(from: start + 5 * 86_400 - 1 * 3600, hours: 1, zone: "Europe/Madrid", names: ["shortwave_radiation_sum"])
        XCTAssertTrue(try value(last, "shortwave_radiation_sum", "2026-11-27").isNaN)
    }
}
