import Foundation
import TestSupport
import TileCastServer
import XCTest

/// Issue 46's `_spread` variables: the sample standard deviation over the lagged members (the
/// newest cycles covering the hour) at the place, checked against numpy's `std(ddof=1)` of each
/// member's own raw value, interpolated from the raw netCDF files (spread_reference.py), on the
/// store of four cycles 6 hours apart that the probability tests build.
final class SpreadTests: XCTestCase {
    /// 2026-11-22T00Z, the sample run's start.
    private static let base: Int64 = 1_795_305_600

    /// What is compared, the answer's unit, and how far the answer may be from the reference:
    /// each member's value is read back from the store's precision p (an error up to p, half a
    /// quantisation step of up to 2p), which moves a sample standard deviation of 4 members by
    /// at most p sqrt(4/3), plus half the printed last decimal. Wind speed is made from two
    /// components (p sqrt 2); an hour's precipitation from two running totals (2p).
    private static let quantities: [(name: String, unit: String, tolerance: Double)] = [
        ("temperature_2m", "K", 0.05 * 1.155 + 0.005),
        ("surface_pressure", "hPa", 0.1 * 1.155 + 0.05),
        ("wind_speed_10m", "m/s", 0.05 * 1.415 * 1.155 + 0.005),
        ("precipitation", "mm", 0.02 * 1.155 + 0.005),
    ]

    /// 25 seeded places over the sample d01, hours 2026-11-22T15Z to 2026-11-23T16Z: covered by
    /// 3, then 4, then 3 and 2 members as the older runs end, and the newest run alone from
    /// 13Z the next day (a spread needs two members: null). Every spread within the
    /// tolerance above of the reference's; the unit of a temperature's spread is kelvin, and
    /// the same number with `temperature_unit=fahrenheit`.
    func testSpreadsEqualTheReferenceAtSeededPlaces() async throws {
        let directory = try TemporaryDirectory("tilecast-spread")
        let starts = [0, 6, 12, 18]
        let store = try StoreMaker.shiftedCycles(starts: starts, into: directory)
        let files = starts.map { directory.path("run-\($0)/wrfout_d01_" + Self.stamp(hours: $0)) }
        var random = SeededGenerator(seed: 4601)
        let places: [(Double, Double)] = (0..<25).map { _ in
            (Double.random(in: 37.2...41.6, using: &random), Double.random(in: (-9.6)...(-6.8), using: &random))
        }
        let hours = (15...40).map { Self.base + Int64($0) * 3600 }
        let reference = try Self.reference(files: files, places: places, hours: hours)
        XCTAssertEqual(reference.count, places.count * hours.count)

        var compared = [String: Int](), nulls = 0, worst = [String: Double](), largest = [String: Double]()
        var settings = ServerConfiguration(storeRoot: store)
        settings.now = { Self.base + 18 * 3600 + 600 }
        let names = Self.quantities.map { $0.name + "_spread" }.joined(separator: ",")
        try await LiveServer.with(settings) { server in
            for (p, place) in places.enumerated() {
                let at = String(format: "/v1/forecast?latitude=%.5f&longitude=%.5f", place.0, place.1)
                    + "&hourly=\(names)&start_hour=2026-11-22T15:00&end_hour=2026-11-23T16:00&timezone=GMT&wind_speed_unit=ms&elevation=nan"
                let reply = try await server.get(at)
                XCTAssertEqual(reply.status, 200, reply.body)
                let object = try XCTUnwrap(reply.object)
                let hourly = try XCTUnwrap(object["hourly"] as? [String: Any])
                let units = try XCTUnwrap(object["hourly_units"] as? [String: Any])
                let members = try XCTUnwrap((object["tilecast"] as? [String: Any])?["members"] as? [String: Any])
                XCTAssertEqual(members["asked"] as? Int, 4)
                XCTAssertEqual(members["fewest"] as? Int, 1, "the newest run alone from 13Z")
                XCTAssertEqual(members["most"] as? Int, 4)
                for quantity in Self.quantities {
                    let name = quantity.name + "_spread"
                    XCTAssertEqual(units[name] as? String, quantity.unit, name)
                    let values = try XCTUnwrap(hourly[name] as? [Any], name)
                    XCTAssertEqual(values.count, hours.count)
                    for (h, value) in values.enumerated() {
                        let expected = reference[p * hours.count + h][quantity.name]
                        guard let want = expected?.spread else {
                            XCTAssertTrue(value is NSNull, "\(name) place \(p) hour \(h): fewer than two members, got \(value)")
                            nulls += 1
                            continue
                        }
                        guard let got = value as? Double else { XCTFail("\(name) place \(p) hour \(h): null, expected \(want)"); continue }
                        compared[name, default: 0] += 1
                        worst[name] = max(worst[name] ?? 0, abs(got - want))
                        largest[name] = max(largest[name] ?? 0, want)
                        XCTAssertEqual(got, want, accuracy: quantity.tolerance,
                                       "\(name) place \(p) (\(place)) hour \(h): members \(expected?.values ?? [])")
                    }
                }
                // A temperature's spread is a difference: kelvin whatever temperature_unit says.
                if p < 5 {
                    let fahrenheit = try await server.get(at + "&temperature_unit=fahrenheit")
                    let block = try XCTUnwrap(fahrenheit.object?["hourly"] as? [String: Any])
                    XCTAssertEqual((fahrenheit.object?["hourly_units"] as? [String: Any])?["temperature_2m_spread"] as? String, "K")
                    XCTAssertEqual((block["temperature_2m_spread"] as? [Any])?.map { $0 as? Double },
                                   (hourly["temperature_2m_spread"] as? [Any])?.map { $0 as? Double })
                }
            }
        }
        for quantity in Self.quantities {
            let name = quantity.name + "_spread"
            print("\(name): \(compared[name] ?? 0) place-hours compared, worst \(worst[name] ?? -1) \(quantity.unit) (tolerance \(quantity.tolerance), largest spread \(largest[name] ?? -1))")
            // 25 places x 22 hours with two members or more (15Z..12Z).
            XCTAssertEqual(compared[name], places.count * 22, name)
        }
        XCTAssertEqual(nulls, Self.quantities.count * places.count * 4, "13..16Z: the newest run alone")
        XCTAssertGreaterThan(largest["temperature_2m_spread"] ?? 0, 1, "the shifted runs disagree by kelvins")
        XCTAssertGreaterThan(largest["precipitation_spread"] ?? 0, 0.5, "and on where it rains")
    }

    /// `tilecast query` gives the same spreads from the same members (`--members`, default 4),
    /// with a note naming them, and none with `--members 1`.
    func testTheCommandLineGivesTheSameSpreads() throws {
        let directory = try TemporaryDirectory("tilecast-spread-cli")
        let starts = [0, 6, 12, 18]
        let store = try StoreMaker.shiftedCycles(starts: starts, into: directory)
        let files = starts.map { directory.path("run-\($0)/wrfout_d01_" + Self.stamp(hours: $0)) }
        var random = SeededGenerator(seed: 4602)
        let places: [(Double, Double)] = (0..<8).map { _ in
            (Double.random(in: 37.2...41.6, using: &random), Double.random(in: (-9.6)...(-6.8), using: &random))
        }
        let hours = (19...24).map { Self.base + Int64($0) * 3600 }
        let reference = try Self.reference(files: files, places: places, hours: hours)
        var compared = 0, worst = 0.0
        for (p, place) in places.enumerated() {
            for members in [4, 1] {
                let result = try StoreMaker.run(["query", "--store", store, "--lat", String(format: "%.5f", place.0), "--lon", String(format: "%.5f", place.1),
                                                 "--start", "2026-11-22T19:00Z", "--hours", "6", "--variables", "temperature_2m_spread",
                                                 "--members", String(members), "--format", "csv"])
                XCTAssertEqual(result.status, 0, result.stderr)
                let rows = result.stdout.split(separator: "\n").map(String.init).filter { $0.contains(",2026-11-2") }
                XCTAssertEqual(rows.count, 6, result.stdout)
                if members == 1 {
                    // One member has no spread: every value empty (null), never 0.
                    for row in rows { XCTAssertTrue(row.hasSuffix(","), "--members 1: \(row)") }
                    continue
                }
                XCTAssertTrue(result.stderr.contains("note: temperature_2m_spread (wrf) is the sample standard deviation over the newest of 2026-11-22T18Z, 2026-11-22T12Z, 2026-11-22T06Z, 2026-11-22T00Z"),
                              result.stderr)
                for (h, row) in rows.enumerated() {
                    let want = try XCTUnwrap(reference[p * hours.count + h]["temperature_2m"]?.spread)
                    let got = try XCTUnwrap(row.split(separator: ",").last.flatMap { Double($0) }, row)
                    worst = max(worst, abs(got - want))
                    XCTAssertEqual(got, want, accuracy: Self.quantities[0].tolerance, "place \(p): \(row)")
                    compared += 1
                }
            }
        }
        print("command line temperature_2m_spread: \(compared) values compared, worst \(worst) K")
        XCTAssertEqual(compared, places.count * hours.count)
    }

    /// The official Open-Meteo SDK reads the spreads from `format=flatbuffers` as Open-Meteo
    /// writes its own: the base's Variable code and altitude with aggregation spread (11), the
    /// temperature's in kelvin (21), values equal to the JSON answer's (openmeteo-sdk's
    /// flatbuffers/weather_api.fbs: temperature 47, precipitation 24, wind_speed 59; units
    /// millimetre 32, metre_per_second 28).
    func testTheOfficialSDKReadsSpreads() async throws {
        let python = try ClientLibraryPins.sdkPython()
        let directory = try TemporaryDirectory("tilecast-spread-sdk")
        let store = try StoreMaker.shiftedCycles(starts: [0, 6, 12, 18], into: directory)
        var settings = ServerConfiguration(storeRoot: store)
        settings.now = { Self.base + 18 * 3600 + 600 }
        let (latitude, longitude) = (39.3, -8.0)
        try await LiveServer.with(settings) { server in
            let result = try runTool(python, [Repository.root.appendingPathComponent("Tests/ServerTests/openmeteo_sdk_spread.py").path,
                                              server.base, String(latitude), String(longitude)])
            XCTAssertEqual(result.status, 0, result.stderr)
            let columns = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]], result.stdout)
            XCTAssertEqual(columns.map { $0["variable"] as? Int }, [47, 24, 59])
            XCTAssertEqual(columns.map { $0["aggregation"] as? Int }, [11, 11, 11])
            XCTAssertEqual(columns.map { $0["unit"] as? Int }, [21, 32, 28])
            XCTAssertEqual(columns.map { $0["altitude"] as? Int }, [2, 0, 10])
            let json = try await server.get("/v1/forecast?latitude=\(latitude)&longitude=\(longitude)&hourly=temperature_2m_spread,precipitation_spread,"
                                            + "wind_speed_10m_spread&wind_speed_unit=ms&timezone=GMT&start_hour=2026-11-22T19:00&end_hour=2026-11-23T00:00&elevation=nan")
            let hourly = try XCTUnwrap(json.object?["hourly"] as? [String: Any], json.body)
            for (column, name) in zip(columns, ["temperature_2m_spread", "precipitation_spread", "wind_speed_10m_spread"]) {
                let sdk = try XCTUnwrap(column["values"] as? [Any]).map { $0 as? Double }
                let printed = try XCTUnwrap(hourly[name] as? [Any]).map { $0 as? Double }
                XCTAssertEqual(sdk.count, 6)
                for (a, b) in zip(sdk, printed) {
                    XCTAssertEqual(try XCTUnwrap(a, name), try XCTUnwrap(b, name), accuracy: 1e-4, name)
                }
            }
        }
    }

    // MARK: - Helpers

    private struct Expected {
        let spread: Double?
        let values: [Double]
    }

    /// "2026-11-22_06:00:00" for the run starting `hours` after 2026-11-22T00Z.
    private static func stamp(hours: Int) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd_HH:mm:ss"
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(base + Int64(hours) * 3600)))
    }

    /// The reference's answers, place after place, hour after hour: per quantity, the spread.
    private static func reference(files: [String], places: [(Double, Double)], hours: [Int64]) throws -> [[String: Expected]] {
        let formatter = ISO8601DateFormatter()
        let input: [String: Any] = [
            "places": places.map { [$0.0, $0.1] },
            "hours": hours.map { formatter.string(from: Date(timeIntervalSince1970: TimeInterval($0))).replacingOccurrences(of: ":00:00Z", with: ":00Z") },
            "quantities": quantities.map(\.name),
        ]
        let stdin = String(decoding: try JSONSerialization.data(withJSONObject: input), as: UTF8.self)
        let script = Repository.root.appendingPathComponent("Tests/ServerTests/spread_reference.py").path
        let selftest = try runTool("python3", [script, "--selftest"])
        XCTAssertEqual(selftest.status, 0, selftest.stderr)
        let output = try runTool("python3", [script, "--members", "4"] + files, input: stdin)
        XCTAssertEqual(output.status, 0, output.stderr)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        let answers = try XCTUnwrap(object["answers"] as? [[String: Any]])
        return answers.map { answer in
            var expected: [String: Expected] = [:]
            for quantity in quantities {
                let entry = answer[quantity.name] as? [String: Any]
                expected[quantity.name] = Expected(spread: entry?["spread"] as? Double,
                                                   values: (entry?["values"] as? [Any])?.compactMap { $0 as? Double } ?? [])
            }
            return expected
        }
    }
}
