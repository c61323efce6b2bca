import Foundation
import TestSupport
import XCTest

/// The page in a real headless Chromium (Debian's `chromium`): it loads with no console
/// messages, its script fills the tables and the chart from the API, and a screenshot is
/// written to $TMPDIR/tilecast-page.png for a person to look at. Skipped, saying so, where
/// Chromium is not installed.
final class BrowserTests: XCTestCase {
    private func chromium() throws -> String {
        for path in ["/usr/bin/chromium", "/usr/bin/chromium-browser"] where FileManager.default.isExecutableFile(atPath: path) {
            return path
        }
        throw XCTSkip("chromium is not installed (apt-get install chromium): the page's browser test is skipped")
    }

    func testPageLoadsInChromiumWithoutConsoleErrors() async throws {
        let browser = try chromium()
        let directory = try TemporaryDirectory("tilecast-server-browser")
        // The sample run: the page's default place, Lisbon, is in its 3 km nest.
        let store = directory.path("store")
        XCTAssertEqual(try StoreMaker.run(["extract", Repository.sampleGrids.path, "--store", store]).status, 0)
        let screenshot = FileManager.default.temporaryDirectory.appendingPathComponent("tilecast-page.png").path
        try? FileManager.default.removeItem(atPath: screenshot)
        try await LiveServer.with(configuration(store)) { server in
            let common = ["--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--user-data-dir=" + directory.path("profile"),
                          "--enable-logging=stderr", "--v=0", "--virtual-time-budget=10000", "--window-size=1000,1600"]
            let dom = try runTool(browser, common + ["--dump-dom", server.base + "/"])
            XCTAssertEqual(dom.status, 0, dom.stderr)
            let console = dom.stderr.split(separator: "\n").filter { $0.contains("CONSOLE") }
            XCTAssertEqual(console, [], "console messages: \(console)")
            // The script ran: provenance, filled tables and the chart's address.
            XCTAssertTrue(dom.stdout.contains("wrf cycle 2026-11-22T00:00Z, d02"), String(dom.stdout.prefix(2000)))
            XCTAssertTrue(dom.stdout.contains("<td>2026-11-22T00:00</td>"), String(dom.stdout.prefix(2000)))
            XCTAssertTrue(dom.stdout.contains("/v1/meteogram.svg?latitude="), String(dom.stdout.prefix(2000)))
            let shot = try runTool(browser, common + ["--screenshot=" + screenshot, server.base + "/"])
            XCTAssertEqual(shot.status, 0, shot.stderr)
            XCTAssertTrue(FileManager.default.fileExists(atPath: screenshot), "screenshot at \(screenshot)")
        }
    }
}
