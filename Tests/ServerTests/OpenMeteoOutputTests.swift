import Foundation
import NIOHTTP1
import TestSupport
import TileCastServer
import XCTest

/// Issue 26: the CSV answer, `length_unit` and `initial_hours` as Open-Meteo's server treats
/// them (open-meteo/open-meteo at commit ba13de1c; each rule cites its file). The baseline run
/// holds 2026-11-22 00Z..03Z; the server's clock is 02:10Z (`baselineNow`).
final class OpenMeteoOutputTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var store: String!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory("tilecast-om-output")
        store = try StoreMaker.extractBaseline(into: directory)
    }

    private let place = "latitude=39.3&longitude=-8"
    private let day = "start_date=2026-11-22&end_date=2026-11-22"

    // MARK: CSV

    /// Sources/App/Helper/Writer/CsvWriter.swift: a number that is not finite is written `NaN`
    /// (hourly, daily, current, and the header's elevation); a column Open-Meteo knows but the
    /// run lacks is NaN too (its values are NaN floats); a missing time of day (sunrise) would
    /// be an empty cell. The answer is `text/csv; charset=utf-8` with `Content-Disposition:
    /// attachment; filename="open-meteo-<lat><N|S><lon><E|W><elevation>m.csv"`, the first
    /// place's coordinates to 2 decimals and its elevation to whole metres
    /// (`formatedCoordinatesFilename`, Sources/App/Helper/Writer/ForecastApiResult.swift).
    func testCSVWritesNaNForNullsAndNamesTheFileAsOpenMeteo() async throws {
        try await LiveServer.with(configuration(store)) { server in
            let (reply, headers) = try await server.send(
                .GET, "/v1/forecast?\(place)&\(day)&hourly=temperature_2m,ice_pellets_probability&daily=uv_index_max,sunrise&current=temperature_2m,uv_index&format=csv")
            XCTAssertEqual(reply.status, 200, reply.body)
            XCTAssertEqual(headers["content-type"], "text/csv; charset=utf-8")
            let lines = reply.body.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            XCTAssertEqual(lines[0], "latitude,longitude,elevation,utc_offset_seconds,timezone,timezone_abbreviation")
            let header = lines[1].split(separator: ",").map(String.init)
            let elevation = try XCTUnwrap(Double(header[2]), lines[1])
            let expected = String(format: "attachment; filename=\"open-meteo-%.2fN%.2fW%dm.csv\"", 39.3, 8.0, Int(elevation.rounded()))
            XCTAssertEqual(headers["content-disposition"], expected)

            // current: inside the run; the unavailable column is NaN.
            XCTAssertEqual(lines[3], "time,temperature_2m (°C),uv_index (undefined)")
            XCTAssertTrue(lines[4].hasPrefix("2026-11-22T02:00,") && lines[4].hasSuffix(",NaN"), lines[4])
            // hourly: 00..03Z have temperatures; later hours are outside the run: NaN, never empty.
            XCTAssertEqual(lines[6], "time,temperature_2m (°C),ice_pellets_probability (undefined)")
            let hourly = Array(lines[7..<31])
            XCTAssertEqual(hourly.count, 24)
            for (hour, row) in hourly.enumerated() {
                let cells = row.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                XCTAssertEqual(cells.count, 3, row)
                XCTAssertEqual(cells[2], "NaN", row)
                if hour <= 3 { XCTAssertNotNil(Double(cells[1]), row) } else { XCTAssertEqual(cells[1], "NaN", row) }
            }
            XCTAssertFalse(reply.body.contains(",,") || reply.body.contains(",\n"), "no empty cell: \(reply.body)")
            // daily: the unavailable column is NaN; sunrise is astronomy, always there.
            XCTAssertEqual(lines[32], "time,uv_index_max (undefined),sunrise (iso8601)")
            XCTAssertTrue(lines[33].hasPrefix("2026-11-22,NaN,2026-11-22T"), lines[33])

            // Several places: the file is named after the first; JSON has no disposition.
            let (two, twoHeaders) = try await server.send(.GET, "/v1/forecast?latitude=39.304,39.2&longitude=-8.006,-8.1&hourly=temperature_2m&\(day)&format=csv")
            XCTAssertEqual(two.status, 200, two.body)
            let firstElevation = try XCTUnwrap(Double(two.body.split(separator: "\n")[1].split(separator: ",")[3]))
            XCTAssertEqual(twoHeaders["content-disposition"],
                           String(format: "attachment; filename=\"open-meteo-%.2fN%.2fW%dm.csv\"", 39.304, 8.006, Int(firstElevation.rounded())))
            let (json, jsonHeaders) = try await server.send(.GET, "/v1/forecast?\(place)&hourly=temperature_2m&\(day)")
            XCTAssertEqual(json.status, 200)
            XCTAssertNil(jsonHeaders["content-disposition"])
        }
    }

    // MARK: length_unit

    /// Sources/App/Helper/SiUnit.swift, `convertAndRound`: `length_unit=imperial` is the default
    /// of `precipitation_unit` (inch): millimetres / 25.4, centimetres / 2.54, metres in feet; an
    /// explicit `precipitation_unit` wins. `metric` changes nothing; another word is refused by
    /// Open-Meteo's decoder (LengthUnit has metric and imperial only), a 400 here.
    func testLengthUnitImperialIsPrecipitationInInches() async throws {
        try await LiveServer.with(configuration(store)) { server in
            let base = "/v1/forecast?\(place)&hourly=precipitation,snowfall&start_hour=2026-11-22T01:00&end_hour=2026-11-22T03:00"
            let millimetres = try await server.get(base + "&precipitation_unit=mm")
            let imperial = try await server.get(base + "&length_unit=imperial")
            let inch = try await server.get(base + "&precipitation_unit=inch")
            let metric = try await server.get(base + "&length_unit=metric")
            let explicit = try await server.get(base + "&length_unit=imperial&precipitation_unit=mm")
            for reply in [millimetres, imperial, inch, metric, explicit] { XCTAssertEqual(reply.status, 200, reply.body) }
            func block(_ reply: LiveServer.Reply, _ key: String) throws -> [String: Any] { try XCTUnwrap(reply.object?[key] as? [String: Any], key) }
            XCTAssertEqual(try block(imperial, "hourly_units") as? [String: String], ["time": "iso8601", "precipitation": "inch", "snowfall": "inch"])
            XCTAssertEqual(try block(imperial, "hourly") as NSDictionary, try block(inch, "hourly") as NSDictionary)
            XCTAssertEqual(try block(metric, "hourly") as NSDictionary, try block(millimetres, "hourly") as NSDictionary)
            XCTAssertEqual(try block(explicit, "hourly_units")["precipitation"] as? String, "mm")
            // Inches are the millimetres / 25.4 (to the answer's 3 decimals); the baseline is dry,
            // so this holds the values' count and presence (the conversion: precipitation_unit's tests).
            let mm = try XCTUnwrap(try block(millimetres, "hourly")["precipitation"] as? [Double])
            let inches = try XCTUnwrap(try block(imperial, "hourly")["precipitation"] as? [Double])
            XCTAssertEqual(mm.count, 3)
            XCTAssertEqual(inches.count, 3)
            for (a, b) in zip(mm, inches) { XCTAssertEqual(b, a / 25.4, accuracy: 0.0005 + 0.005 / 25.4, "\(a) mm") }
            let refused = try await server.get(base + "&length_unit=feet")
            XCTAssertEqual(refused.status, 400)
            XCTAssertTrue(refused.body.hasPrefix("{\"error\": true, \"reason\": ") && refused.body.contains("length_unit"), refused.body)
        }
    }

    // MARK: initial_hours

    /// Sources/App/Helper/ForecastapiQuery.swift, `forecastTimeRange2`: with `forecast_hours` or
    /// `past_hours`, the hourly range starts at the current hour, or with `initial_hours` at that
    /// many hours after today's local midnight, then reaches back `past_hours` and forward
    /// `forecast_hours`. Without either it has no effect (the default days are answered).
    func testInitialHoursStartsTheHoursFromTodaysLocalMidnight() async throws {
        try await LiveServer.with(configuration(store)) { server in
            func hours(_ query: String) async throws -> [String] {
                let reply = try await server.get("/v1/forecast?\(place)&hourly=temperature_2m&" + query)
                XCTAssertEqual(reply.status, 200, reply.body)
                return try XCTUnwrap((reply.object?["hourly"] as? [String: Any])?["time"] as? [String], query)
            }
            // 02:10Z: the current hour is 02:00.
            let fromNow = try await hours("forecast_hours=2&timezone=GMT")
            XCTAssertEqual(fromNow, ["2026-11-22T02:00", "2026-11-22T03:00"])
            let fromMidnight = try await hours("forecast_hours=3&initial_hours=0&timezone=GMT")
            XCTAssertEqual(fromMidnight, ["2026-11-22T00:00", "2026-11-22T01:00", "2026-11-22T02:00"])
            // Tokyo (UTC+9): now is 11:10 local on the 22nd; 06:00 local is 21:00Z the day before.
            let tokyo = try await hours("forecast_hours=2&past_hours=1&initial_hours=6&timezone=Asia/Tokyo")
            XCTAssertEqual(tokyo, ["2026-11-22T05:00", "2026-11-22T06:00", "2026-11-22T07:00"])
            let pastOnly = try await hours("past_hours=2&forecast_hours=0&initial_hours=1&timezone=GMT")
            XCTAssertEqual(pastOnly, ["2026-11-21T23:00", "2026-11-22T00:00"])
            // The same hours with the same values as asking for them by start_hour/end_hour.
            let a = try await server.get("/v1/forecast?\(place)&hourly=temperature_2m&forecast_hours=4&initial_hours=0&timezone=GMT")
            let b = try await server.get("/v1/forecast?\(place)&hourly=temperature_2m&start_hour=2026-11-22T00:00&end_hour=2026-11-22T03:00&timezone=GMT")
            XCTAssertEqual(a.object?["hourly"] as? NSDictionary, b.object?["hourly"] as? NSDictionary)
            // Alone, it changes nothing.
            let alone = try await hours("initial_hours=5&timezone=GMT")
            XCTAssertEqual(alone.count, 7 * 24)
            XCTAssertEqual(alone.first, "2026-11-22T00:00")
            let refused = try await server.get("/v1/forecast?\(place)&hourly=temperature_2m&forecast_hours=2&initial_hours=x")
            XCTAssertEqual(refused.status, 400, refused.body)
        }
    }
}
