import Foundation
import TestSupport
import XCTest

/// The sample run (WRF 9 km with a 3 km nest around Lisbon, 00..24Z; MM5 27 km): best match
/// across models, and daily values equal to the command line's and to the hourly values.
final class SampleRunTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var store: String!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory("tilecast-server-sample")
        store = directory.path("store")
        let result = try StoreMaker.run(["extract", Repository.sampleGrids.path, "--store", store])
        XCTAssertEqual(result.status, 0, result.stderr)
    }

    func testBestMatchIsTheFinestDomainOfAnyModel() async throws {
        try await LiveServer.with(configuration(store)) { server in
            let lisbon = try await server.get("/v1/forecast?latitude=38.7223&longitude=-9.1393&hourly=temperature_2m&start_date=2026-11-22&end_date=2026-11-22")
            XCTAssertEqual(lisbon.status, 200, lisbon.body)
            let provenance = try XCTUnwrap(lisbon.object?["tilecast"] as? [String: Any])
            XCTAssertEqual(provenance["model"] as? String, "wrf")
            XCTAssertEqual(provenance["domain"] as? String, "d02")
            XCTAssertEqual(provenance["grid_spacing_km"] as? Double, 3)
            let named = try await server.get("/v1/forecast?latitude=38.7223&longitude=-9.1393&hourly=temperature_2m&models=mm5&start_date=2026-11-22&end_date=2026-11-22")
            XCTAssertEqual(named.status, 200, named.body)
            XCTAssertEqual((named.object?["tilecast"] as? [String: Any])?["model"] as? String, "mm5")
            // A variable MM5 does not store: a column of nulls, unit "undefined", the answer naming
            // why and what it holds (SPEC 8; Open-Meteo's null column for a variable a model lacks).
            let unstored = try await server.get("/v1/forecast?latitude=38.7223&longitude=-9.1393&hourly=cloud_cover&models=mm5&start_date=2026-11-22&end_date=2026-11-22")
            XCTAssertEqual(unstored.status, 200, unstored.body)
            XCTAssertTrue(((unstored.object?["hourly"] as? [String: Any])?["cloud_cover"] as? [Any])?.allSatisfy { $0 is NSNull } == true, unstored.body)
            XCTAssertEqual((unstored.object?["hourly_units"] as? [String: String])?["cloud_cover"], "undefined")
            let why = (unstored.object?["tilecast"] as? [String: Any])?["unavailable"] as? [String: String]
            XCTAssertTrue(why?["cloud_cover"]?.contains("cloud_cover is not stored in mm5") == true, unstored.body)
        }
    }

    func testDailyValuesAreTheCommandLinesAndTheHourlyValues() async throws {
        let daily = "temperature_2m_max,temperature_2m_min,temperature_2m_mean,precipitation_sum,wind_speed_10m_max,weather_code"
        let cli = try StoreMaker.run(["query", "--store", store, "--model", "wrf", "--lat", "38.7223", "--lon", "-9.1393",
                                      "--start", "2026-11-22T00Z", "--hours", "25", "--variables", "temperature_2m",
                                      "--daily", daily, "--wind-speed-unit", "ms", "--format", "json"])
        XCTAssertEqual(cli.status, 0, cli.stderr)
        let expected = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(cli.stdout.utf8)) as? [String: Any])
        let expectedDaily = try XCTUnwrap(expected["daily"] as? [String: Any])
        XCTAssertEqual((expectedDaily["time"] as? [String])?.first, "2026-11-22")
        try await LiveServer.with(configuration(store)) { server in
            let reply = try await server.get("/v1/forecast?latitude=38.7223&longitude=-9.1393&models=wrf&hourly=temperature_2m,precipitation&daily=\(daily),wind_direction_10m_dominant&wind_speed_unit=ms&start_date=2026-11-22&end_date=2026-11-22")
            XCTAssertEqual(reply.status, 200, reply.body)
            let object = try XCTUnwrap(reply.object)
            let ours = try XCTUnwrap(object["daily"] as? [String: Any])
            XCTAssertEqual(ours["time"] as? [String], ["2026-11-22"])
            for name in daily.split(separator: ",").map(String.init) {
                let value = try XCTUnwrap((ours[name] as? [Double])?.first, "\(name): \(ours)")
                XCTAssertEqual(value, (expectedDaily[name] as? [Any])?.first as? Double, name)
            }
            // Independently: the day's max, min of the printed hourly values 00..23 local.
            let hourly = try XCTUnwrap((object["hourly"] as? [String: Any])?["temperature_2m"] as? [Double])
            XCTAssertEqual(hourly.count, 24)
            XCTAssertEqual((ours["temperature_2m_max"] as? [Double])?.first, hourly.max())
            XCTAssertEqual((ours["temperature_2m_min"] as? [Double])?.first, hourly.min())
            let direction = try XCTUnwrap((ours["wind_direction_10m_dominant"] as? [Double])?.first)
            XCTAssertTrue(direction >= 0 && direction <= 360, "\(direction)")
            XCTAssertEqual((object["daily_units"] as? [String: String])?["wind_speed_10m_max"], "m/s")
            XCTAssertEqual((object["daily_units"] as? [String: String])?["wind_direction_10m_dominant"], "°")
        }
    }

    /// Days the cycle covers only in part get the same values on the command line as from the
    /// server (one policy: `AnswerAssembly`), and those are Open-Meteo's (issue 47): a sum or
    /// mean of a day with an hour the run lacks is null; max, min and the weather code (a max)
    /// are those of the hours after the day's last missing one, null when its last hour is
    /// missing. In New York the run (00Z 22nd .. 00Z 23rd) covers 19:00-23:00 of the 21st (its
    /// last hour held: extremes known, mean and sum null) and 00:00-19:00 of the 22nd (its last
    /// hour missing: all null).
    func testPartlyCoveredDaysAreTheCommandLines() async throws {
        let daily = "temperature_2m_max,temperature_2m_min,temperature_2m_mean,precipitation_sum,weather_code"
        let cli = try StoreMaker.run(["query", "--store", store, "--model", "wrf", "--lat", "38.7223", "--lon", "-9.1393",
                                      "--start", "2026-11-22T00Z", "--hours", "25", "--variables", "temperature_2m",
                                      "--daily", daily, "--timezone", "America/New_York", "--format", "json"])
        XCTAssertEqual(cli.status, 0, cli.stderr)
        let expected = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(cli.stdout.utf8)) as? [String: Any])?["daily"] as? [String: Any])
        XCTAssertEqual(expected["time"] as? [String], ["2026-11-21", "2026-11-22"])
        try await LiveServer.with(configuration(store)) { server in
            let reply = try await server.get("/v1/forecast?latitude=38.7223&longitude=-9.1393&models=wrf&daily=\(daily)&timezone=America/New_York&start_date=2026-11-21&end_date=2026-11-22")
            XCTAssertEqual(reply.status, 200, reply.body)
            let ours = try XCTUnwrap(reply.object?["daily"] as? [String: Any])
            XCTAssertEqual(ours["time"] as? [String], ["2026-11-21", "2026-11-22"])
            for name in daily.split(separator: ",").map(String.init) {
                let values = try XCTUnwrap(ours[name] as? [Any], "\(name): \(ours)")
                let theirs = try XCTUnwrap(expected[name] as? [Any], "\(name): \(expected)")
                XCTAssertEqual(values.count, 2, name)
                for day in 0..<2 {
                    XCTAssertEqual(values[day] as? Double, theirs[day] as? Double, "\(name) day \(day): server \(values), CLI \(theirs)")
                    XCTAssertEqual(values[day] is NSNull, theirs[day] is NSNull, "\(name) day \(day): server \(values), CLI \(theirs)")
                    let known = day == 0 && !name.hasSuffix("_mean") && !name.hasSuffix("_sum")
                    XCTAssertEqual(values[day] is Double, known, "\(name) day \(day): \(values[day])")
                }
            }
        }
    }
}
