import Foundation
import TestSupport
import TileCastServer
import XCTest

/// The page for people, its meteogram and `/v1/cycles`, over HTTP (BrowserTests looks at them
/// in Chromium).
final class PageTests: XCTestCase {
    func testPageIsSelfContained() async throws {
        let directory = try TemporaryDirectory("tilecast-server-page")
        let store = try StoreMaker.extractBaseline(into: directory)
        try await LiveServer.with(configuration(store)) { server in
            let page = try await server.get("/")
            XCTAssertEqual(page.status, 200)
            XCTAssertEqual(page.contentType, "text/html; charset=utf-8")
            // Nothing from elsewhere: no absolute URL in a src or href, no external script or font.
            for pattern in ["src=\"http", "href=\"http", "src=\"//", "href=\"//", "@import", "url(", "@font-face", "<img"] {
                XCTAssertFalse(page.body.contains(pattern), pattern)
            }
            XCTAssertTrue(page.body.contains("/v1/meteogram.svg"))
            // The weather symbols and words come from the one table (every code has both).
            XCTAssertTrue(page.body.contains("<symbol id=\"pg-sun\""))
            XCTAssertTrue(page.body.contains("\"61\":{\"words\":\"Slight rain\",\"day\":[\"dark-cloud\",\"rain\"]"))
        }
    }

    /// The baseline run covers 00..03Z of 22 Nov; now is 02:10Z.
    func testMeteogramDrawsEachHourTheRunCovers() async throws {
        let directory = try TemporaryDirectory("tilecast-server-meteogram")
        let store = try StoreMaker.extractBaseline(into: directory)
        try await LiveServer.with(configuration(store)) { server in
            let place = "latitude=39.3&longitude=-8&start_date=2026-11-22&end_date=2026-11-22"
            let chart = try await server.get("/v1/meteogram.svg?\(place)")
            XCTAssertEqual(chart.status, 200, chart.body)
            XCTAssertEqual(chart.contentType, "image/svg+xml")
            let svg = chart.body
            XCTAssertTrue(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"meteogram\""))
            XCTAssertTrue(svg.contains("role=\"img\" aria-labelledby=\"mg-title mg-desc\""))
            func count(_ marker: String) -> Int { svg.components(separatedBy: marker).count - 1 }
            // One bar per covered hour, a symbol at 00 and 03 (every third hour), 24 cloud cells
            // less the 20 uncovered, and the hours after 03Z shaded as not covered.
            XCTAssertEqual(count("<g class=\"bar\">"), 4)
            XCTAssertEqual(count("<g class=\"symbol\""), 2)
            XCTAssertEqual(count("<rect class=\"cloud\""), 4)
            XCTAssertEqual(count("<g class=\"arrow\">"), 2)
            XCTAssertTrue(svg.contains("<title>04:00-23:00: not covered by the run</title>"), svg)
            XCTAssertTrue(svg.contains("<g class=\"now\"><title>Now, 02:10 local time</title>"))
            XCTAssertTrue(svg.contains("Local time, GMT"))
            XCTAssertTrue(svg.contains(">Sun 22 Nov</text>"))
            // Every drawn mark has a text alternative: a title per bar, symbol, cloud cell, arrow.
            XCTAssertGreaterThanOrEqual(count("<title>"), 4 + 2 + 4 + 2 + 1)
            // No external references: symbols are the picture's own.
            XCTAssertFalse(svg.contains("href=\"http"))
            XCTAssertEqual(count("<use href=\"#mg-"), count("<use href=\""))

            // The temperature line's highest point is the highest temperature of the API's answer.
            let forecast = try await server.get("/v1/forecast?\(place)&hourly=temperature_2m")
            let temperatures = ((forecast.object?["hourly"] as? [String: Any])?["temperature_2m"] as? [Any])?.compactMap { $0 as? Double } ?? []
            XCTAssertEqual(temperatures.count, 4)
            let group = try XCTUnwrap(svg.components(separatedBy: "<g class=\"temperature\">").dropFirst().first)
            let points = try XCTUnwrap(group.components(separatedBy: "points=\"").dropFirst().first?.split(separator: "\"").first)
            let ys = points.split(separator: " ").compactMap { Double($0.split(separator: ",").last ?? "") }
            XCTAssertEqual(ys.count, 4)
            XCTAssertEqual(ys.firstIndex(of: ys.min() ?? 0), temperatures.firstIndex(of: temperatures.max() ?? 0))

            // Units switch the axes' labels.
            let fahrenheit = try await server.get("/v1/meteogram.svg?\(place)&temperature_unit=fahrenheit&wind_speed_unit=kn&precipitation_unit=inch")
            XCTAssertTrue(fahrenheit.body.contains(">°F</text>"))
            XCTAssertTrue(fahrenheit.body.contains(">kn</text>"))
            XCTAssertTrue(fahrenheit.body.contains(">inch</text>"))

            let two = try await server.get("/v1/meteogram.svg?latitude=39.3,40&longitude=-8,-8")
            XCTAssertEqual(two.status, 400)
            XCTAssertEqual(two.object?["error"] as? Bool, true)
        }
    }

    func testCyclesSayHowOldTheRunIsAndWhenItIsLate() async throws {
        let directory = try TemporaryDirectory("tilecast-server-cycles")
        let store = try StoreMaker.extractBaseline(into: directory)
        try await LiveServer.with(configuration(store)) { server in
            let reply = try await server.get("/v1/cycles")
            XCTAssertEqual(reply.status, 200, reply.body)
            let model = try XCTUnwrap((reply.object?["models"] as? [[String: Any]])?.first)
            XCTAssertEqual(model["cycle"] as? String, "2026-11-22T00:00Z")
            XCTAssertEqual(model["age_seconds"] as? Int, 2 * 3600 + 600)
            XCTAssertEqual(model["last"] as? String, "2026-11-22T03:00Z")
            XCTAssertEqual(model["stale"] as? Bool, false)
            let domain = try XCTUnwrap((model["domains"] as? [[String: Any]])?.first)
            XCTAssertEqual((domain["outline"] as? [Any])?.count, 32)
        }
        // Eleven hours on: later than 6 h + 4 h, and past the run's end at 03Z.
        var late = configuration(store)
        late.now = { baselineNow + 9 * 3600 }
        try await LiveServer.with(late) { server in
            let reply = try await server.get("/v1/cycles")
            let model = try XCTUnwrap((reply.object?["models"] as? [[String: Any]])?.first)
            XCTAssertEqual(model["stale"] as? Bool, true)
            XCTAssertEqual(model["warnings"] as? [String], [
                "The newest WRF run (22 Nov 2026 00 UTC) is 11 h old: a new run is expected every 6 h, about 4 h after it starts.",
                "It ends at 22 Nov 2026 03 UTC, before now: it has no forecast for the coming hours.",
            ])
        }
        // A schedule of daily runs published 12 h after their start: 11 h is not late.
        var daily = configuration(store)
        daily.now = { baselineNow + 9 * 3600 }
        daily.schedule = CycleSchedule(intervalHours: 24, delayHours: 12)
        try await LiveServer.with(daily) { server in
            let reply = try await server.get("/v1/cycles")
            let model = try XCTUnwrap((reply.object?["models"] as? [[String: Any]])?.first)
            XCTAssertEqual((model["warnings"] as? [String])?.count, 1)
        }
    }
}
