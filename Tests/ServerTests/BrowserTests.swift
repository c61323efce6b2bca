import Foundation
import TestSupport
import TileCastServer
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

    /// Headless Chromium's options: scripts run for up to 10 s of virtual time, console
    /// messages go to stderr.
    private static func headless(profile: String) -> [String] {
        ["--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--user-data-dir=" + profile,
         "--enable-logging=stderr", "--v=0", "--virtual-time-budget=10000", "--window-size=1000,1600"]
    }

    /// The page's DOM after its scripts ran, asserting Chromium exited cleanly and the console
    /// stayed silent (no script error, no failed request).
    private func load(_ url: String, in browser: String, profile: String, line: UInt = #line) throws -> ToolOutput {
        let dom = try runTool(browser, Self.headless(profile: profile) + ["--dump-dom", url])
        XCTAssertEqual(dom.status, 0, dom.stderr, line: line)
        let console = dom.stderr.split(separator: "\n").filter { $0.contains("CONSOLE") }
        XCTAssertEqual(console, [], "console messages: \(console)", line: line)
        return dom
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
            let dom = try load(server.base + "/", in: browser, profile: directory.path("profile"))
            // The script ran: provenance, filled tables and the chart's address.
            XCTAssertTrue(dom.stdout.contains("wrf cycle 2026-11-22T00:00Z, d02"), String(dom.stdout.prefix(2000)))
            XCTAssertTrue(dom.stdout.contains("<td>2026-11-22T00:00</td>"), String(dom.stdout.prefix(2000)))
            XCTAssertTrue(dom.stdout.contains("/v1/meteogram.svg?latitude="), String(dom.stdout.prefix(2000)))
            let shot = try runTool(browser, Self.headless(profile: directory.path("profile")) + ["--screenshot=" + screenshot, server.base + "/"])
            XCTAssertEqual(shot.status, 0, shot.stderr)
            XCTAssertTrue(FileManager.default.fileExists(atPath: screenshot), "screenshot at \(screenshot)")
        }
    }

    /// `--places`: the page offers the file's places by name and shows the first one (Porto,
    /// outside the Lisbon nest: the 9 km domain answers), in Chromium.
    func testPageOffersNamedPlaces() async throws {
        let browser = try chromium()
        let directory = try TemporaryDirectory("tilecast-server-places")
        let store = directory.path("store")
        XCTAssertEqual(try StoreMaker.run(["extract", Repository.sampleGrids.path, "--store", store]).status, 0)
        let file = directory.path("places.csv")
        try "name,latitude,longitude\nPorto,41.1579,-8.6291\n\"Lisbon, Baixa\",38.7223,-9.1393\n".write(toFile: file, atomically: true, encoding: .utf8)
        var config = configuration(store)
        config.places = try NamedPlace.read(path: file)
        XCTAssertEqual(config.places, [NamedPlace(name: "Porto", latitude: 41.1579, longitude: -8.6291),
                                       NamedPlace(name: "Lisbon, Baixa", latitude: 38.7223, longitude: -9.1393)])
        try await LiveServer.with(config) { server in
            let dom = try load(server.base + "/", in: browser, profile: directory.path("profile"))
            XCTAssertTrue(dom.stdout.contains("<option value=\"0\">Porto</option><option value=\"1\">Lisbon, Baixa</option>"), String(dom.stdout.prefix(3000)))
            XCTAssertTrue(dom.stdout.contains("Porto: wrf cycle 2026-11-22T00:00Z, d01 (9 km)"), String(dom.stdout.prefix(3000)))
        }
    }

    /// Names that are markup or script in the context they land in: the page still runs and
    /// shows each name as text (before the fix `<!--<script>` left the page blank: the HTML
    /// tokenizer read the rest of the document as script).
    func testPlaceNamesThatLookLikeMarkupStayText() async throws {
        let browser = try chromium()
        let directory = try TemporaryDirectory("tilecast-server-places-markup")
        let store = directory.path("store")
        XCTAssertEqual(try StoreMaker.run(["extract", Repository.sampleGrids.path, "--store", store]).status, 0)
        let names = ["Porto <!--<script>", "</script><b>bold</b>", "Say \"hi\" & go", "Line\u{2028}break"]
        var config = configuration(store)
        config.places = names.map { NamedPlace(name: $0, latitude: 41.1579, longitude: -8.6291) }
        try await LiveServer.with(config) { server in
            let page = try await server.get("/")
            XCTAssertFalse(page.body.contains("<!--<script>"), "the name is escaped in the page's script")
            let dom = try load(server.base + "/", in: browser, profile: directory.path("profile"))
            XCTAssertTrue(dom.stdout.contains("<option value=\"0\">Porto &lt;!--&lt;script&gt;</option>"), String(dom.stdout.prefix(3000)))
            XCTAssertTrue(dom.stdout.contains("<option value=\"1\">&lt;/script&gt;&lt;b&gt;bold&lt;/b&gt;</option>"), String(dom.stdout.prefix(3000)))
            XCTAssertTrue(dom.stdout.contains("Say \"hi\" &amp; go"), String(dom.stdout.prefix(3000)))
            XCTAssertTrue(dom.stdout.contains("Porto &lt;!--&lt;script&gt;: wrf cycle 2026-11-22T00:00Z, d01 (9 km)"), String(dom.stdout.prefix(3000)))
        }
    }

    /// A page on another origin (a file: page, origin "null") reads a forecast, with a custom
    /// header that makes Chromium send a preflight first, and reads an error's reason: CORS as
    /// Open-Meteo's server allows it (Sources/App/configure.swift, every origin for GET, POST and
    /// OPTIONS, errors included). Before CORS both fetches failed ("Failed to fetch").
    func testPageOnAnotherOriginReadsForecastsAndErrors() async throws {
        let browser = try chromium()
        let directory = try TemporaryDirectory("tilecast-server-cors")
        let store = try StoreMaker.extractBaseline(into: directory)
        try await LiveServer.with(configuration(store)) { server in
            let page = directory.path("page.html")
            try """
            <!doctype html><html><body data-result="pending"><script>
            async function run() {
              const parts = [];
              try {
                const r = await fetch("\(server.base)/v1/forecast?latitude=39.3&longitude=-8&hourly=temperature_2m&start_date=2026-11-22&end_date=2026-11-22",
                                      {headers: {"X-Client-Version": "1"}});
                const j = await r.json();
                parts.push("forecast " + r.status + " " + j.hourly.temperature_2m.length);
              } catch (e) { parts.push("forecast failed " + e); }
              try {
                const r = await fetch("\(server.base)/v1/forecast?latitude=39.3&longitude=-8&hourly=nope");
                const j = await r.json();
                parts.push("error " + r.status + " " + j.error);
              } catch (e) { parts.push("error failed " + e); }
              document.body.setAttribute("data-result", parts.join("; "));
            }
            run();
            </script></body></html>
            """.write(toFile: page, atomically: true, encoding: .utf8)
            let dom = try runTool(browser, Self.headless(profile: directory.path("profile")) + ["--dump-dom", "file://" + page])
            XCTAssertEqual(dom.status, 0, dom.stderr)
            XCTAssertTrue(dom.stdout.contains("data-result=\"forecast 200 24; error 400 true\""), String(dom.stdout.prefix(2000)))
        }
    }
}
