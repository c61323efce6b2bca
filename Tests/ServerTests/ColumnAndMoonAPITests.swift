import Foundation
import TestSupport
import XCTest

/// `/v1/forecast` serves issue 28's column quantities and the moon's daily fields from a store
/// of the real allvars sample: Open-Meteo's names (and its older `freezinglevel_height`), units
/// and formats, the same numbers as `tilecast query` on the store, and the official SDK's
/// Variable and Unit codes in format=flatbuffers.
final class ColumnAndMoonAPITests: XCTestCase {
    private let place = "latitude=29.865&longitude=86.8444&start_date=2005-09-21&end_date=2005-09-21"
    private let hourly = ["total_column_integrated_water_vapour", "freezing_level_height", "updraft", "k_index"]

    private func makeStore(_ directory: TemporaryDirectory) throws -> String {
        let store = directory.path("store")
        let extracted = try StoreMaker.run(["extract", try Repository.sharedSample("wrf_d01_allvars_cropped.nc"), "--store", store, "--set", "all", "--quiet"])
        XCTAssertEqual(extracted.status, 0, extracted.stderr)
        return store
    }

    func testForecastServesColumnQuantitiesAndTheMoon() async throws {
        let directory = try TemporaryDirectory("tilecast-server-column")
        let store = try makeStore(directory)
        // The command line's answer on the same store (UTC hours 00..09 of the day).
        let query = try StoreMaker.run(["query", "--store", store, "--lat", "29.865", "--lon", "86.8444", "--format", "csv",
                                        "--variables", hourly.joined(separator: ","), "--start", "2005-09-21T00:00Z", "--hours", "10"])
        XCTAssertEqual(query.status, 0, query.stderr)
        let lines = query.stdout.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let header = try XCTUnwrap(lines.first)
        try await LiveServer.with(configuration(store)) { server in
            let reply = try await server.get("/v1/forecast?\(place)&hourly=\(hourly.joined(separator: ",")),freezinglevel_height&daily=moonrise,moonset,moon_phase,updraft_max&timezone=GMT")
            XCTAssertEqual(reply.status, 200, reply.body)
            let units = try XCTUnwrap(reply.object?["hourly_units"] as? [String: String])
            XCTAssertEqual(units["total_column_integrated_water_vapour"], "kg/m²")
            XCTAssertEqual(units["freezing_level_height"], "m")
            XCTAssertEqual(units["freezinglevel_height"], "m")
            XCTAssertEqual(units["updraft"], "m/s")
            XCTAssertEqual(units["k_index"], "")
            let values = try XCTUnwrap(reply.object?["hourly"] as? [String: Any])
            for name in hourly {
                let series = try XCTUnwrap(values[name] as? [Any], name)
                XCTAssertEqual(series.count, 24, name)
                let column = try XCTUnwrap(header.firstIndex(of: name), name)
                // Hours 00..09 are the run's; the command line prints the same numbers.
                for (hour, line) in lines.dropFirst().enumerated() {
                    let cli = Double(line[column]), served = series[hour] as? Double
                    if name == "k_index" {
                        XCTAssertNil(served, "850 hPa lies below the plateau's ground: null")
                        XCTAssertNil(cli)
                    } else {
                        XCTAssertEqual(try XCTUnwrap(served, "\(name) \(hour)"), try XCTUnwrap(cli, "\(name) \(hour)"), accuracy: 1e-9, "\(name) \(hour)")
                    }
                }
            }
            XCTAssertEqual((values["freezinglevel_height"] as? [Any])?.compactMap { $0 as? Double },
                           (values["freezing_level_height"] as? [Any])?.compactMap { $0 as? Double })
            let dailyUnits = try XCTUnwrap(reply.object?["daily_units"] as? [String: String])
            XCTAssertEqual(dailyUnits["moonrise"], "iso8601")
            XCTAssertEqual(dailyUnits["moon_phase"], "fraction")
            XCTAssertEqual(dailyUnits["updraft_max"], "m/s")
            let daily = try XCTUnwrap(reply.object?["daily"] as? [String: Any])
            // 2005-09-21 was three days after full moon (2005-09-18 02:01 UTC): waning gibbous,
            // rising in the evening and setting in the morning at 29.9 N, 86.8 E (UTC + 5:47).
            let phase = try XCTUnwrap((daily["moon_phase"] as? [Double])?.first)
            XCTAssertEqual(phase, 0.5 + 3.4 / 29.53, accuracy: 0.02)
            let rise = try XCTUnwrap((daily["moonrise"] as? [String])?.first), set = try XCTUnwrap((daily["moonset"] as? [String])?.first)
            XCTAssertTrue(rise.hasPrefix("2005-09-21T1"), rise)
            XCTAssertTrue(set.hasPrefix("2005-09-21T0"), set)
            XCTAssertEqual(rise.count, "2005-09-21T14:35".count, rise)
        }
    }

    func testOfficialSDKReadsColumnQuantitiesAndTheMoon() async throws {
        let python = try ClientLibraryPins.sdkPython()
        let directory = try TemporaryDirectory("tilecast-server-column-sdk")
        let store = try makeStore(directory)
        let script = Repository.root.appendingPathComponent("Tests/ServerTests/openmeteo_sdk_column.py").path
        try await LiveServer.with(configuration(store)) { server in
            let result = try runTool(python, [script, server.base])
            XCTAssertEqual(result.status, 0, result.stderr)
            let answer = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], result.stdout)
            let columns = try XCTUnwrap(answer["hourly"] as? [[String: Any]]) + (try XCTUnwrap(answer["daily"] as? [[String: Any]]))
            XCTAssertEqual(columns.count, 7)
            for column in columns {
                for key in ["variable_ok", "unit_ok", "same_as_json"] { XCTAssertEqual(column[key] as? Bool, true, "\(key): \(column)") }
            }
        }
    }
}
