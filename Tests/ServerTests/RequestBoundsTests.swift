import Foundation
import TestSupport
import TileCastServer
import XCTest

/// Issue 43 item 4: a request's lists are counted before their entries are parsed, a form
/// body is decoded in one pass, and a refusal quotes at most about 100 bytes of what was sent.
/// Each case is told apart by behaviour, not by time: a list past its limit is refused for its
/// length even when an entry near its end is malformed (parsing it first named that entry).
final class RequestBoundsTests: XCTestCase {
    private func reason(_ target: String, formBody: String? = nil, file: StaticString = #filePath, line: UInt = #line) -> String {
        do {
            _ = try ForecastServer.parameters(target: target, formBody: formBody)
            XCTFail("accepted: \(target.prefix(120))", file: file, line: line)
            return ""
        } catch {
            XCTAssertEqual(error.status, .badRequest, file: file, line: line)
            return error.reason
        }
    }

    private func list(_ entry: String, _ count: Int, last: String? = nil) -> String {
        var entries = Array(repeating: entry, count: count)
        if let last { entries[count - 1] = last }
        return entries.joined(separator: ",")
    }

    func testListsAreCountedBeforeTheirEntriesAreParsed() {
        // 120,000 latitudes, the last one no number: refused for the count.
        let places = reason("/v1/forecast", formBody: "latitude=\(list("39", 120_000, last: "x"))&longitude=-8")
        XCTAssertTrue(places.contains("At most 1000 locations") && places.contains("120000"), places)

        // 43,000 date ranges for 2 places, the last start malformed: refused for the count.
        let body = "latitude=39,40&longitude=-8,-8&start_date=\(list("2026-11-22", 43_000, last: "2026-11-x"))&end_date=\(list("2026-11-22", 43_000))"
        let ranges = reason("/v1/forecast", formBody: body)
        XCTAssertTrue(ranges.contains("same number of elements as coordinates"), ranges)
        // One place: at most 1000 ranges (each answers the place once).
        let single = reason("/v1/forecast", formBody: "latitude=39&longitude=-8&start_date=\(list("2026-11-22", 1001, last: "x"))&end_date=\(list("2026-11-22", 1001))")
        XCTAssertTrue(single.contains("At most 1000 time ranges") && single.contains("1001"), single)

        // Models: the list's length, whatever repeats it holds (de-duplicating 120,000 names in
        // a loop took 14.6 s of CPU before the limit was checked).
        let repeated = reason("/v1/forecast?latitude=39&longitude=-8&models=\(list("best_match", 9))")
        XCTAssertTrue(repeated.contains("at most 8 models") && repeated.contains("Given: 9"), repeated)
        var random = SeededGenerator(seed: 0x43_04)
        let names = (0..<120_000).map { _ in "m" + String(UInt32.random(in: 0...UInt32.max, using: &random), radix: 36) }
        let many = reason("/v1/forecast", formBody: "latitude=39&longitude=-8&models=" + names.joined(separator: ","))
        XCTAssertTrue(many.contains("at most 8 models") && many.contains("Given: 120000"), many)

        // Variable names: any number of level names exists (temperature_<N>hPa), so the list is bounded.
        let hourly = reason("/v1/forecast", formBody: "latitude=39&longitude=-8&hourly=\(list("temperature_2m", 1001))")
        XCTAssertTrue(hourly.contains("at most 1000 variables") && hourly.contains("1001"), hourly)
        let levels = (1...1001).map { "temperature_\($0)hPa" }.joined(separator: ",")
        XCTAssertTrue(reason("/v1/forecast", formBody: "latitude=39&longitude=-8&minutely_15=\(levels)").contains("'minutely_15'"))

        // Time zones: one a place at most, counted before any name is looked up.
        let zones = reason("/v1/forecast", formBody: "latitude=39,40,41&longitude=-8,-8,-8&timezone=\(list("GMT", 1000, last: "Not/AZone"))")
        XCTAssertTrue(zones.contains("'timezone' and coordinates must have the same number of elements"), zones)
        let elevations = reason("/v1/forecast", formBody: "latitude=39&longitude=-8&elevation=\(list("10", 5000, last: "x"))")
        XCTAssertTrue(elevations.contains("'elevation' must have the same number of elements"), elevations)
        let box = reason("/v1/forecast", formBody: "bounding_box=\(list("1", 50_000, last: "x"))")
        XCTAssertTrue(box.contains("must have 4 values"), box)

        // What the limits allow still parses: 8 models, 1000 places with a range each.
        XCTAssertNoThrow(try ForecastServer.parameters(target: "/v1/forecast?latitude=39&longitude=-8&models=a,b,c,d,e,f,g,best_match", formBody: nil))
        let thousand = list("39", 1000), ranges1000 = list("2026-11-22", 1000)
        XCTAssertEqual(try ForecastServer.parameters(target: "/v1/forecast", formBody: "latitude=\(thousand)&longitude=\(list("-8", 1000))&start_date=\(ranges1000)&end_date=\(ranges1000)").ranges.count, 1000)
    }

    /// A 400 quotes at most `APIError.maxEchoBytes` of a value (it quoted up to 1 MB of the
    /// request, an answer outside the answer budget).
    func testRefusalsQuoteAtMostAHundredBytesOfAValue() {
        let huge = String(repeating: "x", count: 1 << 20)
        let targets = ["latitude=\(huge)&longitude=-8", "latitude=39&longitude=-8&hourly=\(huge)", "latitude=39&longitude=-8&daily=\(huge)",
                       "latitude=39&longitude=-8&timezone=\(huge)", "latitude=39&longitude=-8&temperature_unit=\(huge)",
                       "latitude=39&longitude=-8&tilt=\(huge)", "latitude=39&longitude=-8&temporal_resolution=\(huge)",
                       "latitude=39&longitude=-8&start_date=\(huge)&end_date=2026-11-22", "bounding_box=1,2,3,\(huge)",
                       "latitude=39&longitude=-8&location_id=\(huge)", "latitude=39&longitude=-8&forecast_days=\(huge)",
                       "latitude=39&longitude=-8&hourly=temperature_2m&x=%zz\(huge)"]
        for body in targets {
            let text = reason("/v1/forecast", formBody: body)
            XCTAssertLessThan(text.utf8.count, 400, "\(body.prefix(40)): \(text.prefix(300))")
            XCTAssertTrue(text.contains("xxxxxxxxxx") && text.contains("bytes)"), "\(body.prefix(40)): \(text.prefix(300))")
        }
        // Cut between characters: 99 ASCII bytes then a 2-byte character straddling byte 100.
        let accented = String(repeating: "a", count: 99) + "é" + String(repeating: "b", count: 50)
        XCTAssertEqual(APIError.echo(accented), String(repeating: "a", count: 99) + "... (151 bytes)")
        XCTAssertEqual(APIError.echo("short"), "short")
    }

    /// The one-pass form decoder gives what Foundation's `replacingOccurrences` and
    /// `removingPercentEncoding` gave (its pairs, or a refusal for the same bodies) on seeded
    /// bodies of names, values, `+`, escapes good and broken, and bytes beyond ASCII.
    func testFormBodyDecodesAsFoundationDoes() throws {
        var random = SeededGenerator(seed: 0x43_0F0B)
        let pieces = ["a", "latitude", "=", "&", "+", "%2C", "%2c", "%2B", "%20", "%", "%4", "%zz", "%C3%A9", "%C3", "%FF", "é", "1.5", ",", " ", "=="]
        func foundation(_ body: String) -> [(String, String)]? {
            var pairs: [(String, String)] = []
            for field in body.split(separator: "&", omittingEmptySubsequences: true) {
                let parts = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard let name = parts[0].replacingOccurrences(of: "+", with: " ").removingPercentEncoding else { return nil }
                var value = ""
                if parts.count > 1 {
                    guard let decoded = parts[1].replacingOccurrences(of: "+", with: " ").removingPercentEncoding else { return nil }
                    value = decoded
                }
                pairs.append((name, value))
            }
            return pairs
        }
        var refused = 0
        for _ in 0..<3000 {
            let body = (0..<Int.random(in: 0...12, using: &random)).map { _ in pieces[Int.random(in: 0..<pieces.count, using: &random)] }.joined()
            let expected = foundation(body)
            let got = try? FormBody.pairs(body)
            XCTAssertEqual(got?.map(\.name), expected?.map(\.0), body)
            XCTAssertEqual(got?.map(\.value), expected?.map(\.1), body)
            if expected == nil { refused += 1 }
        }
        XCTAssertGreaterThan(refused, 100, "the seeded bodies never held a broken escape")
        // 1 MB of `+`: one name of spaces (Foundation took 0.5 s of a request thread for it).
        let pluses = try FormBody.pairs(String(repeating: "+", count: 1 << 20))
        XCTAssertEqual(pluses.count, 1)
        XCTAssertEqual(pluses.first?.name.utf8.count, 1 << 20)
    }
}
