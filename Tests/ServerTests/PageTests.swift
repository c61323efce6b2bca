import Foundation
import TestSupport
import XCTest

/// The page for people and its chart, over HTTP (not yet in a browser).
final class PageTests: XCTestCase {
    func testPageIsSelfContainedAndChartHasOnePointPerCoveredHour() async throws {
        let directory = try TemporaryDirectory("tilecast-server-page")
        let store = try StoreMaker.extractBaseline(into: directory)
        try await LiveServer.with(configuration(store)) { server in
            let page = try await server.get("/")
            XCTAssertEqual(page.status, 200)
            XCTAssertEqual(page.contentType, "text/html; charset=utf-8")
            // Nothing from elsewhere: no absolute URL in a src or href, no external script or font.
            for pattern in ["src=\"http", "href=\"http", "src=\"//", "@import", "url(http"] {
                XCTAssertFalse(page.body.contains(pattern), pattern)
            }
            XCTAssertTrue(page.body.contains("/v1/meteogram.svg"))

            let chart = try await server.get("/v1/meteogram.svg?latitude=39.3&longitude=-8&hourly=temperature_2m&start_date=2026-11-22&end_date=2026-11-22")
            XCTAssertEqual(chart.status, 200, chart.body)
            XCTAssertEqual(chart.contentType, "image/svg+xml")
            XCTAssertTrue(chart.body.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
            // The run covers 00..03Z of the day's 24 hours: one line of four points.
            let polylines = chart.body.components(separatedBy: "<polyline").dropFirst()
            XCTAssertEqual(polylines.count, 1)
            let points = try XCTUnwrap(polylines.first?.components(separatedBy: "points=\"").last?.split(separator: "\"").first)
            XCTAssertEqual(points.split(separator: " ").count, 4, String(points))
            // Its values are the forecast's: the highest point is the highest temperature.
            let forecast = try await server.get("/v1/forecast?latitude=39.3&longitude=-8&hourly=temperature_2m&start_date=2026-11-22&end_date=2026-11-22")
            let temperatures = ((forecast.object?["hourly"] as? [String: Any])?["temperature_2m"] as? [Any])?.compactMap { $0 as? Double }
            let ys = points.split(separator: " ").compactMap { Double($0.split(separator: ",").last ?? "") }
            XCTAssertEqual(ys.firstIndex(of: ys.min() ?? 0), temperatures?.firstIndex(of: temperatures?.max() ?? 0))

            let two = try await server.get("/v1/meteogram.svg?latitude=39.3&longitude=-8&hourly=temperature_2m,precipitation&start_date=2026-11-22&end_date=2026-11-22")
            XCTAssertEqual(two.status, 400)
            XCTAssertEqual(two.object?["error"] as? Bool, true)
        }
    }
}
