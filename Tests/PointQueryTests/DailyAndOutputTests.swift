import Catalog
import Foundation
import GridGeometry
import PointQuery
import TestSupport
import XCTest

/// Daily summaries on local days across a DST change, units, and output shapes (parsed back).
final class DailyAndOutputTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private let dstStart: Int64 = 1_774_742_400 - 2 * 86_400   // 2026-03-27T00:00Z; Lisbon springs forward 2026-03-29 01:00Z

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        let domain = SyntheticDomain(
            id: 1, parent: nil, westEast: 6, southNorth: 6, dx: 9000, southWestCorner: GeoPoint(latitude: 38.5, longitude: -9.4),
            times: SyntheticStore.hourly(5 * 24, from: dstStart),
            variables: [.temperature2m, .precipitation, .windU10m, .windV10m, .weatherCode]) { variable, _, _, t in
                switch variable {
                case .temperature2m: return Float(t % 24)          // 0..23 °C by UTC hour
                case .precipitation: return t == 0 ? 0 : 0.5      // 0.5 mm every hour
                case .windU10m: return 10
                case .windV10m: return 0
                default: return Float(t % 24 == 12 ? 63 : 1)
                }
            }
        try SyntheticStore.write([domain], to: directory.path("store"), cycle: dstStart)
    }

    private func forecast(_ units: OutputUnits = OutputUnits(), hours: Int = 4 * 24) throws -> PointForecast {
        let store = try ForecastStore(root: directory.path("store"))
        return try PointForecaster(store: store).forecast(QueryPoint(latitude: 38.55, longitude: -9.35),
            request: ForecastRequest(times: ForecastRequest.hourly(from: dstStart + 3600, hours: hours), units: units))
    }

    func testDailySummariesAcrossTheSpringDSTChangeInLisbon() throws {
        guard let lisbon = TimeZone(identifier: "Europe/Lisbon") else { return XCTFail("no tz database") }
        let variables = ["temperature_2m_max", "temperature_2m_min", "precipitation_sum", "weather_code"].compactMap(DailyVariable.parse)
        XCTAssertEqual(variables.count, 4)
        let daily = DailyForecast(forecast: try forecast(), variables: variables, timeZone: lisbon)
        let index = try XCTUnwrap(daily.dates.firstIndex(of: "2026-03-29"))
        XCTAssertEqual(daily.hours[index], 23, "the day the clocks go forward has 23 hours")
        XCTAssertEqual(daily.hours[index + 1], 24)
        // Local 2026-03-29 runs 00:00Z..22:59Z (UTC+0 until 01:00Z, then UTC+1): max 22, min 0 °C.
        XCTAssertEqual(daily.values[variables[0]]?[index] ?? .nan, 22, accuracy: 0.05)
        XCTAssertEqual(daily.values[variables[1]]?[index] ?? .nan, 0, accuracy: 0.05)
        XCTAssertEqual(daily.values[variables[2]]?[index] ?? .nan, 23 * 0.5, accuracy: 0.1, "23 hourly amounts")
        XCTAssertEqual(daily.values[variables[3]]?[index], 63, "the most severe code of the day")
    }

    func testUnitConversions() throws {
        let metric = try forecast(OutputUnits(), hours: 3)
        let imperial = try forecast(OutputUnits(temperature: .fahrenheit, windSpeed: .mph, precipitation: .inch), hours: 3)
        let knots = try forecast(OutputUnits(windSpeed: .kn), hours: 3)
        for t in 0..<3 {
            let c = try XCTUnwrap(metric.values[.temperature2m]?[t]), f = try XCTUnwrap(imperial.values[.temperature2m]?[t])
            XCTAssertEqual(f, c * 9 / 5 + 32, accuracy: 1e-3)
            XCTAssertEqual(metric.values[.windSpeed10m]?[t] ?? 0, 36, accuracy: 0.2, "10 m/s is 36 km/h")
            XCTAssertEqual(imperial.values[.windSpeed10m]?[t] ?? 0, 22.369, accuracy: 0.1)
            XCTAssertEqual(knots.values[.windSpeed10m]?[t] ?? 0, 19.438, accuracy: 0.1)
            XCTAssertEqual(imperial.values[.precipitation]?[t] ?? 0, 0.5 / 25.4, accuracy: 1e-3)
        }
        XCTAssertEqual(imperial.units.symbol(.temperature2m), "°F")
    }

    func testJSONParsesBackWithProvenanceAndNulls() throws {
        let forecast = try forecast(hours: 3)
        let renderer = ForecastRenderer(timeZone: TimeZone(identifier: "Europe/Lisbon"), dailyVariables: [])
        let text = renderer.render([PlaceAnswer(latitude: 38.55, longitude: -9.35, result: .success(forecast))], format: .json, single: true)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        XCTAssertEqual(object["domain"] as? String, "d01")
        XCTAssertEqual(object["model"] as? String, "synthetic")
        XCTAssertNotNil((object["grid_position"] as? [String: Any])?["i"] as? Double)
        let hourly = try XCTUnwrap(object["hourly"] as? [String: Any])
        XCTAssertEqual((hourly["time"] as? [String])?.count, 3)
        XCTAssertEqual((hourly["time"] as? [String])?.first, "2026-03-27T01:00+00:00")
        XCTAssertEqual((hourly["temperature_2m"] as? [Double])?.count, 3)
        XCTAssertEqual((object["hourly_units"] as? [String: String])?["wind_speed_10m"], "km/h")
        // A failed place in a batch is an object with its error and exit code.
        let failure = renderer.render([PlaceAnswer(latitude: 1, longitude: 2, line: 7, result: .failure(.outsideDomains(latitude: 1, longitude: 2, extents: ["d01 x"])))], format: .json, single: false)
        let array = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(failure.utf8)) as? [[String: Any]])
        XCTAssertEqual(array.first?["exit_code"] as? Int, 4)
        XCTAssertEqual(array.first?["line"] as? Int, 7)
    }

    func testCSVHasOneRowPerPlaceAndTime() throws {
        let forecast = try forecast(hours: 5)
        let text = ForecastRenderer(timeZone: nil, dailyVariables: []).render(
            [PlaceAnswer(name: "a,b", latitude: 38.55, longitude: -9.35, result: .success(forecast)),
             PlaceAnswer(name: "c", latitude: 38.55, longitude: -9.35, result: .success(forecast))], format: .csv, single: false)
        let rows = text.split(separator: "\n").map(String.init)
        XCTAssertEqual(rows.count, 1 + 2 * 5)
        let header = rows[0].split(separator: ",").map(String.init)
        XCTAssertEqual(Array(header.prefix(4)), ["name", "latitude", "longitude", "time"])
        XCTAssertTrue(rows[1].hasPrefix("\"a,b\",38.55,-9.35,2026-03-27T01:00Z"), rows[1])
        let temperature = try XCTUnwrap(header.firstIndex(of: "temperature_2m"))
        XCTAssertEqual(Double(rows[10].split(separator: ",").map(String.init)[temperature]), 5)
    }

    func testPointsFileErrorsNameTheLine() {
        XCTAssertThrowsError(try PointsFile.parse("lat,lon\n38.7,-9.1\n38.7,abc\n", source: "p.csv")) { error in
            XCTAssertTrue("\(error)".contains("p.csv:3"), "\(error)")
            XCTAssertEqual((error as? QueryError)?.exitCode, .badUsage)
        }
        XCTAssertThrowsError(try PointsFile.parse("x,y\n1,2\n", source: "p.csv"))
        XCTAssertEqual(try PointsFile.parse("name,lat,lon,time\nLisbon,38.7223,-9.1393,2026-11-22T06:00Z\n", source: "p.csv").first?.time,
                       ModelTime.parseUser("2026-11-22T06:00Z"))
        XCTAssertEqual(TimeParsing.parse("2026-11-22T07:00+01:00"), ModelTime.parseUser("2026-11-22T06:00Z"))
    }
}
