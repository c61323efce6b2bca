import Foundation
import TestSupport
import TileCastServer
import XCTest

/// The page in a real headless Chromium (Debian's `chromium`, driven through `chromium-driver`
/// by Scripts/page_check.py) against a live server with a fixed "now": phone and desktop
/// widths, now first in the place's own zone, the run's state and warnings, errors replacing
/// what was shown, the meteogram's bars and symbols, console and requests, and axe-core's
/// rules. Skipped, saying so, where Chromium, its driver or selenium are not installed
/// (Scripts/setup installs them).
final class BrowserTests: XCTestCase {
    /// 2026-11-22T00Z, the sample run's cycle.
    static let cycle: Int64 = 1_795_305_600
    /// 06:10Z: six hours after the cycle, inside the WRF run (00Z..23 Nov 00Z).
    static let freshNow = cycle + 6 * 3600 + 600

    private func chromium() throws -> String {
        for path in ["/usr/bin/chromium", "/usr/bin/chromium-browser"] where FileManager.default.isExecutableFile(atPath: path) {
            return path
        }
        throw XCTSkip("chromium is not installed (apt-get install chromium): the page's browser test is skipped")
    }

    /// Skips unless the page checker can run: Chromium, its driver and selenium.
    private func requirePageCheck() throws {
        _ = try chromium()
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver") else {
            throw XCTSkip("chromium-driver is not installed (Scripts/setup): the page's browser checks are skipped")
        }
        let probe = try runTool("python3", ["-c", "import selenium, axe_selenium_python"])
        guard probe.status == 0 else { throw XCTSkip("selenium or axe-selenium-python missing (pip install -r Scripts/requirements.txt)") }
    }

    /// Scripts/page_check.py's report of the page at `path`, `width` CSS pixels wide.
    /// - Parameter failedLoads: the 400s a wrong place gets, which Chromium's console logs as
    ///   failed loads (expected once the test asks for one); any other message still fails.
    private func check(_ server: LiveServer, _ path: String, width: Int, _ extra: [String] = [], failedLoads: Bool = false,
                       line: UInt = #line) throws -> [String: Any] {
        let script = Repository.root.appendingPathComponent("Scripts/page_check.py").path
        let run = try runTool("python3", [script, "--base", server.base, "--path", path, "--width", String(width)] + extra)
        XCTAssertEqual(run.status, 0, run.stderr, line: line)
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], run.stdout, line: line)
        XCTAssertEqual(report["settled"] as? Bool, true, "the page never showed a forecast or an error", line: line)
        // No script error, no failed request, nothing asked of another host.
        let console = ((report["console"] as? [String]) ?? ["?"]).filter {
            !(failedLoads && $0.hasSuffix("Failed to load resource: the server responded with a status of 400 (Bad Request)"))
        }
        XCTAssertEqual(console, [], line: line)
        let requests = (report["requests"] as? [String]) ?? []
        XCTAssertFalse(requests.isEmpty, line: line)
        for url in requests { XCTAssertTrue(url.hasPrefix(server.base + "/"), "a request to another host: \(url)", line: line) }
        return report
    }

    private func sampleStore(_ directory: TemporaryDirectory) throws -> String {
        let store = directory.path("store")
        XCTAssertEqual(try StoreMaker.run(["extract", Repository.sampleGrids.path, "--store", store]).status, 0)
        return store
    }

    private func placesConfiguration(_ store: String, now: Int64) -> ServerConfiguration {
        var config = configuration(store)
        config.now = { now }
        config.places = [NamedPlace(name: "Lisbon", latitude: 38.7223, longitude: -9.1393),
                         NamedPlace(name: "Porto", latitude: 41.1579, longitude: -8.6291),
                         NamedPlace(name: "Madrid", latitude: 40.4168, longitude: -3.7038)]
        return config
    }

    /// Where screenshots go: a temporary folder, and docs/ when TILECAST_UPDATE_SCREENSHOTS=1
    /// (the README's pictures; tests do not write into the work tree otherwise).
    private func screenshotFolder() -> URL {
        if ProcessInfo.processInfo.environment["TILECAST_UPDATE_SCREENSHOTS"] == "1" { return Repository.root.appendingPathComponent("docs") }
        return FileManager.default.temporaryDirectory
    }

    private func assertSmallPNG(_ path: String, line: UInt = #line) {
        let size = ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
        XCTAssertGreaterThan(size, 5_000, "\(path) missing or blank", line: line)
        XCTAssertLessThan(size, 200_000, "\(path): \(size) bytes", line: line)
    }

    /// The axe-core violations of serious or critical impact, and whether axe ran at all.
    private func assertAccessible(_ report: [String: Any], line: UInt = #line) {
        for key in ["axe", "axeMeteogram"] {
            let violations = (report[key] as? [[String: Any]]) ?? [["id": "axe did not run"]]
            let serious = violations.filter { ["serious", "critical"].contains($0["impact"] as? String ?? "") }
            XCTAssertEqual(serious.count, 0, "\(key): \(serious)", line: line)
            XCTAssertGreaterThan(report[key + "Passes"] as? Int ?? 0, 0, "\(key): no rule checked", line: line)
        }
    }

    /// What the meteogram should hold: a bar per hour with a precipitation value, a symbol per
    /// third local hour with a weather code, from the API's own answer for the same hours.
    private func expectedMarks(_ server: LiveServer, latitude: Double, longitude: Double) async throws -> (bars: Int, symbols: Int) {
        let reply = try await server.get("/v1/forecast?latitude=\(latitude)&longitude=\(longitude)&timezone=auto&forecast_hours=48&hourly=precipitation,weather_code")
        let hourly = try XCTUnwrap(reply.object?["hourly"] as? [String: Any], reply.body)
        let times = (hourly["time"] as? [String]) ?? []
        let rain = (hourly["precipitation"] as? [Any]) ?? [], codes = (hourly["weather_code"] as? [Any]) ?? []
        XCTAssertEqual(times.count, 48)
        let bars = rain.filter { $0 is Double }.count
        let symbols = times.indices.filter { k in (Int(times[k].dropFirst(11).prefix(2)) ?? 1) % 3 == 0 && codes[k] is Double }.count
        return (bars, symbols)
    }

    func testNowFirstInLocalTimeAtDesktopAndPhoneWidths() async throws {
        try requirePageCheck()
        let directory = try TemporaryDirectory("tilecast-server-browser")
        let store = try sampleStore(directory)
        let folder = screenshotFolder()
        try await LiveServer.with(placesConfiguration(store, now: Self.freshNow)) { server in
            let marks = try await expectedMarks(server, latitude: 38.7223, longitude: -9.1393)
            XCTAssertEqual(marks.bars, 19, "06Z..23 Nov 00Z covered")
            XCTAssertEqual(marks.symbols, 7, "06, 09, ..., 00 local")
            for width in [1280, 360] {
                let shot = folder.appendingPathComponent("page-\(width).png").path
                var extra = ["--screenshot", shot, "--axe"]
                if width == 1280 { extra += ["--meteogram-screenshot", folder.appendingPathComponent("meteogram.png").path] }
                let page = try check(server, "/?place=Lisbon", width: width, extra)
                XCTAssertEqual(page["contentShown"] as? Bool, true, "\(page)")
                XCTAssertLessThanOrEqual(page["scrollWidth"] as? Int ?? .max, page["innerWidth"] as? Int ?? 0, "width \(width): \(page)")
                XCTAssertEqual(page["innerWidth"] as? Int, width)
                // Lisbon is on UTC in November: the current local hour is 06:00.
                XCTAssertEqual(page["firstRow"] as? String, "2026-11-22T06:00")
                XCTAssertEqual(page["hourRows"] as? Int, 19)
                XCTAssertEqual(page["nowTitle"] as? String, "Now, 06:00 local time")
                XCTAssertEqual(page["warningShown"] as? Bool, false, "\(page["warning"] ?? "")")
                XCTAssertEqual(page["source"] as? String, "WRF 3 km (domain d02), run of today 00 UTC, 6 h ago.")
                XCTAssertTrue((page["zone"] as? String ?? "").contains("Times are local: Europe/Lisbon"), "\(page["zone"] ?? "")")
                XCTAssertEqual(page["headers"] as? [String], ["Time", "Weather", "Temperature°C", "Feels like°C", "Rainmm", "Windkm/h"])
                XCTAssertEqual(page["bars"] as? Int, marks.bars)
                XCTAssertEqual(page["symbols"] as? Int, marks.symbols)
                XCTAssertEqual(page["nowLine"] as? Int, 1)
                XCTAssertEqual(page["domains"] as? Int, 2)
                // A surface cycle: no "Aloft" table, and no request for it.
                XCTAssertEqual(page["aloftShown"] as? Bool, false)
                XCTAssertEqual(((page["requests"] as? [String]) ?? []).filter { $0.contains("/v1/forecast?") }.count, 1, "\(page["requests"] ?? "")")
                XCTAssertEqual((page["smallTargets"] as? [Any])?.count, 0, "touch targets under 44 px: \(page["smallTargets"] ?? "")")
                // Only the meteogram may scroll inside its box; the tables fit the screen.
                XCTAssertEqual(page["overflowing"] as? [String], width == 360 ? ["meteogram"] : [], "\(page["overflowing"] ?? "")")
                // Only the day the run covers fully (22 Nov, 00Z..00Z) is listed, not 23 Nov's one hour.
                let days = (page["days"] as? [[String: Any]]) ?? []
                XCTAssertEqual(days.compactMap { $0["date"] as? String }, ["2026-11-22"])
                XCTAssertEqual(days.first?["partial"] as? Bool, false)
                XCTAssertEqual(page["address"] as? String, "/?place=Lisbon&lat=38.7223&lon=-9.1393")
                // The footer links the place through each API the server answers, and each answers it.
                let links = (page["footerLinks"] as? [String]) ?? []
                XCTAssertEqual(links.map { String($0.prefix { $0 != "?" }) }, ["/v1/forecast", "/data/2.5/weather", "/v7/weather/24h",
                                                                                 "/v2.5/TOKEN/-9.1393,38.7223/weather"])
                for link in links {
                    let reply = try await server.get(link)
                    XCTAssertEqual(reply.status, 200, "\(link): \(reply.body.prefix(300))")
                }
                XCTAssertTrue(links.contains("/v7/weather/24h?location=-9.1393%2C38.7223&lang=en"), "\(links)")
                assertAccessible(page)
                assertSmallPNG(shot)
            }
            assertSmallPNG(folder.appendingPathComponent("meteogram.png").path)

            // Madrid, answered by MM5, is an hour ahead of UTC: its page opens at 07:00, and its
            // first day, which began at 23Z, is partial.
            let madrid = try check(server, "/?place=Madrid", width: 360)
            XCTAssertEqual(madrid["firstRow"] as? String, "2026-11-22T07:00")
            XCTAssertTrue((madrid["source"] as? String ?? "").hasPrefix("MM5 27 km (domain d01), run of today 00 UTC"), "\(madrid["source"] ?? "")")
            XCTAssertTrue((madrid["zone"] as? String ?? "").contains("Europe/Madrid"))
            let first = ((madrid["days"] as? [[String: Any]]) ?? []).first
            XCTAssertEqual(first?["date"] as? String, "2026-11-22")
            XCTAssertEqual(first?["partial"] as? Bool, true, "\(first ?? [:])")
            XCTAssertLessThanOrEqual(madrid["scrollWidth"] as? Int ?? .max, 360)
        }
    }

    /// A cycle older than the schedule allows shows the warning beside its numbers; one that
    /// ends before now says so, and shows no hours.
    /// A cycle extracted with `--set all` (the real allvars sample: the Tibetan plateau, 00Z-09Z
    /// 21 Sep 2005) gets the "Aloft" table: the levels and column quantities the cycle holds,
    /// every third local hour, the same numbers as the API's; a phone does not scroll sideways.
    func testAloftTableForACycleWithLevels() async throws {
        try requirePageCheck()
        let directory = try TemporaryDirectory("tilecast-server-browser-aloft")
        let store = directory.path("store")
        let extracted = try StoreMaker.run(["extract", try Repository.sharedSample("wrf_d01_allvars_cropped.nc"), "--store", store,
                                            "--set", "all", "--quiet"])
        XCTAssertEqual(extracted.status, 0, extracted.stderr)
        var config = configuration(store)
        config.now = { 1_127_265_000 }   // 2005-09-21T01:10Z
        try await LiveServer.with(config) { server in
            let reply = try await server.get("/v1/forecast?latitude=29.865&longitude=86.8444&timezone=auto&forecast_hours=48"
                                             + "&hourly=temperature_500hPa,wind_speed_100m,wind_direction_100m,freezing_level_height")
            let hourly = try XCTUnwrap(reply.object?["hourly"] as? [String: Any], reply.body)
            let times = try XCTUnwrap(hourly["time"] as? [String])
            let t500 = try XCTUnwrap(hourly["temperature_500hPa"] as? [Any])
            let freezing = try XCTUnwrap(hourly["freezing_level_height"] as? [Any])
            for width in [1280, 360] {
                let shot = screenshotFolder().appendingPathComponent("page-aloft-\(width).png").path
                let page = try check(server, "/?lat=29.865&lon=86.8444", width: width, ["--screenshot", shot] + (width == 1280 ? ["--axe"] : []))
                XCTAssertEqual(page["contentShown"] as? Bool, true, "\(page)")
                XCTAssertEqual(page["aloftShown"] as? Bool, true, "\(page)")
                XCTAssertLessThanOrEqual(page["scrollWidth"] as? Int ?? .max, page["innerWidth"] as? Int ?? 0, "width \(width)")
                XCTAssertEqual(page["aloftHeaders"] as? [String],
                               ["Time", "Wind 100 mkm/h", "850 hPa°C", "Wind 850 hPakm/h", "700 hPa°C", "500 hPa°C", "0 °C levelm", "CAPEJ/kg"])
                let rows = (page["aloftRows"] as? [[String]]) ?? []
                // Every third local hour (the zone of the place, as the API's) the run covers from now.
                let expected = times.indices.filter { k in (Int(times[k].dropFirst(11).prefix(2)) ?? 1) % 3 == 0 && t500[k] is Double }
                XCTAssertEqual(rows.count, expected.count, "\(rows)")
                XCTAssertGreaterThan(rows.count, 0)
                for (row, k) in zip(rows, expected) {
                    // 500 hPa to whole degrees, the freezing level to whole metres, as the API's.
                    XCTAssertTrue(row[5].hasSuffix("°"), "\(row)")
                    XCTAssertEqual(Double(row[5].dropLast()) ?? .nan, (t500[k] as? Double) ?? .nan, accuracy: 0.51, "\(row)")
                    XCTAssertEqual(Double(row[6]) ?? .nan, (freezing[k] as? Double) ?? .nan, accuracy: 0.51, "\(row)")
                }
                if width == 1280 { assertAccessible(page) }
                assertSmallPNG(shot)
            }
        }
    }

    func testStaleStoreShowsTheWarning() async throws {
        try requirePageCheck()
        let directory = try TemporaryDirectory("tilecast-server-stale")
        let store = try sampleStore(directory)
        // 14:00Z: 14 h after the cycle, past 6 h + 4 h; the run still covers now.
        try await LiveServer.with(placesConfiguration(store, now: Self.cycle + 14 * 3600)) { server in
            let page = try check(server, "/?place=Lisbon", width: 360)
            XCTAssertEqual(page["warningShown"] as? Bool, true)
            XCTAssertEqual(page["warning"] as? String,
                           "The newest WRF run (22 Nov 2026 00 UTC) is 14 h old: a new run is expected every 6 h, about 4 h after it starts.")
            XCTAssertEqual(page["firstRow"] as? String, "2026-11-22T14:00")
            XCTAssertEqual(page["contentShown"] as? Bool, true)
        }
        // Four days later: nothing for the coming hours.
        try await LiveServer.with(placesConfiguration(store, now: Self.cycle + 4 * 86_400)) { server in
            let page = try check(server, "/?place=Lisbon", width: 1280)
            XCTAssertEqual(page["warningShown"] as? Bool, true)
            let warning = page["warning"] as? String ?? ""
            XCTAssertTrue(warning.contains("is 4 days old"), warning)
            XCTAssertTrue(warning.contains("before now: it has no forecast for the coming hours"), warning)
            XCTAssertEqual(page["hourRows"] as? Int, 0)
            XCTAssertEqual(page["bars"] as? Int, 0)
            XCTAssertEqual(page["nowTitle"] as? String, "Now, 00:00 local time")
        }
    }

    /// Warnings (issue 46) above the meteogram: a server with rules shows the place's warnings
    /// in its local time, coloured by level; a rule that never passes shows nothing.
    func testWarningsShowAboveTheMeteogram() async throws {
        try requirePageCheck()
        let directory = try TemporaryDirectory("tilecast-server-page-warnings")
        let store = try sampleStore(directory)
        let rules = directory.path("rules.json")
        try """
        {"source": "test", "rules": [
          {"event": "Test warning", "level": "orange", "quantity": "temperature_2m", "statistic": "max", "hours": 1, "threshold": -50},
          {"event": "Never", "level": "red", "quantity": "temperature_2m", "statistic": "max", "hours": 1, "threshold": 60}
        ]}
        """.write(toFile: rules, atomically: true, encoding: .utf8)
        var config = placesConfiguration(store, now: Self.cycle + 2 * 3600)
        config.warningRules = try WarningRules.read(path: rules)
        try await LiveServer.with(config) { server in
            let page = try check(server, "/?place=Lisbon", width: 360)
            XCTAssertEqual(page["alertsShown"] as? Bool, true)
            XCTAssertEqual(page["alertsAboveMeteogram"] as? Bool, true)
            // Every hour of the run passes: from the hour before its first (00Z's window) to its last, 23 Nov 00Z (Lisbon is UTC+0 in November).
            let alerts = try XCTUnwrap(page["alerts"] as? [[String]])
            XCTAssertEqual(alerts, [["orange", "Orange warning: Test warning, Sat 21 23:00 to Mon 23 00:00 (in force)."]])
        }
        // Without rules: no box, and no request for warnings.
        try await LiveServer.with(placesConfiguration(store, now: Self.cycle + 2 * 3600)) { server in
            let page = try check(server, "/?place=Lisbon", width: 1280)
            XCTAssertEqual(page["alertsShown"] as? Bool, false)
            XCTAssertFalse(((page["requests"] as? [String]) ?? []).contains { $0.contains("/v1/warnings") })
        }
    }

    /// An error (a place outside every domain, a name that is not one) replaces what the page
    /// showed: no chart, table or provenance of the place before stays beside it.
    func testAnErrorClearsThePreviousPlace() async throws {
        try requirePageCheck()
        let directory = try TemporaryDirectory("tilecast-server-error")
        let store = try sampleStore(directory)
        try await LiveServer.with(placesConfiguration(store, now: Self.freshNow)) { server in
            let outside = try check(server, "/?place=Lisbon", width: 360, ["--then-lat", "10", "--then-lon", "10"], failedLoads: true)
            XCTAssertEqual(outside["contentShown"] as? Bool, true)
            let after = try XCTUnwrap(outside["after"] as? [String: Any])
            XCTAssertEqual(after["errorShown"] as? Bool, true)
            XCTAssertTrue((after["error"] as? String ?? "").contains("outside"), "\(after["error"] ?? "")")
            XCTAssertEqual(after["contentShown"] as? Bool, false)
            XCTAssertEqual(after["hourRows"] as? Int, 0)
            XCTAssertEqual(after["bars"] as? Int, 0)
            XCTAssertEqual(after["placeName"] as? String, "")
            XCTAssertEqual(after["source"] as? String, "")

            let typo = try check(server, "/?place=Lisbon", width: 1280, ["--then-place", "Lisbn"], failedLoads: true)
            let typed = try XCTUnwrap(typo["after"] as? [String: Any])
            XCTAssertEqual(typed["errorShown"] as? Bool, true)
            XCTAssertTrue((typed["error"] as? String ?? "").hasPrefix("No place called “Lisbn” in the area this server forecasts for."),
                          "\(typed["error"] ?? "")")
            XCTAssertEqual(typed["contentShown"] as? Bool, false)
            XCTAssertEqual(typed["hourRows"] as? Int, 0)
        }
    }

    /// Finding a place: by name as typed (any case), by the browser's location on request; and
    /// without named places the page opens on the centre of the finest domain.
    func testFindAPlaceByNameOrLocation() async throws {
        try requirePageCheck()
        let directory = try TemporaryDirectory("tilecast-server-find")
        let store = try sampleStore(directory)
        try await LiveServer.with(placesConfiguration(store, now: Self.freshNow)) { server in
            let named = try check(server, "/?place=Lisbon", width: 360, ["--then-place", "porto"])
            let porto = try XCTUnwrap(named["after"] as? [String: Any])
            XCTAssertEqual(porto["placeName"] as? String, "Porto")
            XCTAssertEqual(porto["source"] as? String, "WRF 9 km (domain d01), run of today 00 UTC, 6 h ago.")
            XCTAssertEqual(porto["address"] as? String, "/?place=Porto&lat=41.1579&lon=-8.6291")

            let located = try check(server, "/?place=Lisbon", width: 360, ["--then-locate", "38.5244,-8.8882"])
            let setubal = try XCTUnwrap(located["after"] as? [String: Any])
            XCTAssertEqual(setubal["placeName"] as? String, "38.52° N, 8.89° W")
            XCTAssertEqual(setubal["address"] as? String, "/?lat=38.5244&lon=-8.8882")
            XCTAssertEqual(setubal["firstRow"] as? String, "2026-11-22T06:00")
        }
        var unnamed = configuration(store)
        unnamed.now = { Self.freshNow }
        try await LiveServer.with(unnamed) { server in
            let page = try check(server, "/", width: 1280)
            XCTAssertEqual(page["contentShown"] as? Bool, true, "\(page)")
            XCTAssertTrue((page["source"] as? String ?? "").hasPrefix("WRF 3 km (domain d02)"), "\(page["source"] ?? "")")
        }
    }

    /// Any place by name (issue 49): typing "lis" key by key asks `/v1/search` once the typing
    /// pauses (one request, not one a key) and offers Lisbon first, then Lista (Madrid, in MM5's
    /// domain) and nothing the store does not hold; choosing Lisbon shows its forecast with one
    /// forecast request. Enter in the field asks for the forecast once (it asked twice: the
    /// field's change handler and the form's submit both did), and coordinates typed with
    /// decimal commas are a place.
    func testSearchOffersLisbonAndEnterAsksOnce() async throws {
        try requirePageCheck()
        let directory = try TemporaryDirectory("tilecast-server-search")
        let store = try sampleStore(directory)
        var unnamed = configuration(store)
        unnamed.now = { Self.freshNow }
        try await LiveServer.with(unnamed) { server in
            let page = try check(server, "/?lat=41.1579&lon=-8.6291", width: 360, ["--search", "lis", "--choose", "Lisbon"])
            let search = try XCTUnwrap(page["search"] as? [String: Any], "\(page)")
            XCTAssertEqual(search["offers"] as? [String], ["LisbonPortugal", "ListaSpain"], "\(search)")
            let asked = ((search["requests"] as? [String]) ?? []).filter { $0.contains("/v1/search?") }
            XCTAssertEqual(asked.count, 1, "\(asked)")
            XCTAssertTrue(asked.first?.contains("name=lis&") == true, "\(asked)")
            XCTAssertEqual(search["clicked"] as? Bool, true)
            let chosen = try XCTUnwrap(search["chosen"] as? [String: Any])
            XCTAssertEqual(chosen["placeName"] as? String, "Lisbon")
            XCTAssertEqual(chosen["contentShown"] as? Bool, true, "\(chosen)")
            XCTAssertEqual(chosen["source"] as? String, "WRF 3 km (domain d02), run of today 00 UTC, 6 h ago.")
            XCTAssertEqual(chosen["address"] as? String, "/?place=Lisbon&lat=38.7251&lon=-9.1498", "GeoNames' Lisbon")
            XCTAssertEqual(chosen["hourRows"] as? Int, 19)
            let forecasts = ((search["chosenRequests"] as? [String]) ?? []).filter { $0.contains("/v1/forecast?") }
            XCTAssertEqual(forecasts.count, 1, "\(forecasts)")

            // Accents as typed or not: "evora" and Enter finds Évora, one forecast asked.
            let typed = try check(server, "/?lat=41.1579&lon=-8.6291", width: 1280, ["--then-place", "evora"])
            let evora = try XCTUnwrap(typed["after"] as? [String: Any])
            XCTAssertEqual(evora["placeName"] as? String, "Évora", "\(evora)")
            XCTAssertEqual(((typed["afterRequests"] as? [String]) ?? []).filter { $0.contains("/v1/forecast?") }.count, 1,
                           "\(typed["afterRequests"] ?? "")")

            let commas = try check(server, "/?lat=41.1579&lon=-8.6291", width: 360, ["--then-place", "38,72, -9,14"])
            let at = try XCTUnwrap(commas["after"] as? [String: Any])
            XCTAssertEqual(at["placeName"] as? String, "38.72° N, 9.14° W", "\(at)")
            XCTAssertEqual(at["address"] as? String, "/?lat=38.72&lon=-9.14")
            XCTAssertEqual(at["contentShown"] as? Bool, true)
        }
        // A named place of --places, by Enter: one forecast (two before the fix).
        try await LiveServer.with(placesConfiguration(store, now: Self.freshNow)) { server in
            let named = try check(server, "/?place=Lisbon", width: 1280, ["--then-place", "porto"])
            XCTAssertEqual((named["after"] as? [String: Any])?["placeName"] as? String, "Porto")
            XCTAssertEqual(((named["afterRequests"] as? [String]) ?? []).filter { $0.contains("/v1/forecast?") }.count, 1,
                           "\(named["afterRequests"] ?? "")")
        }
    }

    /// The day daylight saving time ends in Lisbon (25 Oct 2026, 25 hours: 24 Oct 23Z to 26 Oct
    /// 00Z) with the sample run moved to start at 25 Oct 00Z: the day is partial from 01:00
    /// local (the run's first hour, 00Z, is 01:00 summer time) to its end, and 26 Oct, which
    /// the run does not reach, is not listed. (Counting every day as 24 hours at the answer's
    /// one offset, +00:00 by 06Z, listed 25 Oct as a whole day the run covers.)
    func testTheDayDaylightSavingTimeEndsIsMarkedByItsOwnHours() async throws {
        try requirePageCheck()
        let directory = try TemporaryDirectory("tilecast-server-dst")
        let run = directory.path("run"), store = directory.path("store")
        let shift = try runTool("python3", [Repository.root.appendingPathComponent("Scripts/shift_run.py").path,
                                            Repository.sampleGrids.appendingPathComponent("wrfout_d01_2026-11-22_00:00:00").path, run, "-672"])
        XCTAssertEqual(shift.status, 0, shift.stderr)
        XCTAssertEqual(try StoreMaker.run(["extract", run, "--store", store]).status, 0)
        let cycle: Int64 = 1_792_886_400   // 2026-10-25T00Z
        try await LiveServer.with(placesConfiguration(store, now: cycle + 6 * 3600 + 600)) { server in
            let page = try check(server, "/?place=Lisbon", width: 1280)
            XCTAssertEqual(page["firstRow"] as? String, "2026-10-25T06:00", "06:10Z is 06:10 WET, after the change at 01Z")
            let days = (page["days"] as? [[String: Any]]) ?? []
            XCTAssertEqual(days.compactMap { $0["date"] as? String }, ["2026-10-25"], "\(days)")
            XCTAssertEqual(days.first?["partial"] as? Bool, true)
            XCTAssertTrue((days.first?["text"] as? String ?? "").contains("partial: 01:00–24:00 only"), "\(days.first ?? [:])")
        }
    }

    /// The page with the keyboard alone, at a phone's width: every control and scrolling box
    /// is a Tab stop in reading order with its focus drawn, a place is found by typing its name
    /// and Enter, a unit changes with the arrow keys, and the meteogram scrolls with them.
    func testKeyboardAloneFindsAPlaceChangesUnitsAndScrollsTheMeteogram() async throws {
        try requirePageCheck()
        let directory = try TemporaryDirectory("tilecast-server-keyboard")
        let store = try sampleStore(directory)
        try await LiveServer.with(placesConfiguration(store, now: Self.freshNow)) { server in
            let page = try check(server, "/?place=Lisbon", width: 360, ["--keyboard", "Porto"])
            let keys = try XCTUnwrap(page["keyboard"] as? [String: Any], "\(page)")
            // The page's controls, its three scrolling boxes and the API link, in reading order.
            XCTAssertEqual(keys["tabOrder"] as? [String], ["q", "lat", "lon", "button", "locate", "tunit", "wunit", "punit",
                                                            "meteogram", "hours-caption", "days-title", "api-link", "owm-link", "qweather-link", "caiyun-link"])
            XCTAssertEqual(keys["unfocusedOutline"] as? [String], [], "Tab stops without a visible focus")
            XCTAssertEqual(keys["reachedSearch"] as? Bool, true)
            XCTAssertEqual(keys["placeName"] as? String, "Porto")
            XCTAssertEqual(keys["reachedUnit"] as? Bool, true)
            XCTAssertEqual(keys["headers"] as? [String], ["Time", "Weather", "Temperature°F", "Feels like°F", "Rainmm", "Windkm/h"])
            XCTAssertEqual(keys["reachedMeteogram"] as? Bool, true)
            XCTAssertEqual(keys["meteogramOverflows"] as? Bool, true, "at 360 px the meteogram scrolls inside its box")
            XCTAssertGreaterThan(keys["meteogramScrolled"] as? Int ?? 0, 0, "the arrow keys did not scroll the meteogram")
            XCTAssertTrue((keys["address"] as? String ?? "").hasPrefix("/?place=Porto"), "\(keys["address"] ?? "")")
        }
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

    /// `--places`: the page finds the file's places by name and shows the first one (Porto,
    /// outside the Lisbon nest: the 9 km domain answers), in Chromium's DOM.
    func testPageOffersNamedPlaces() async throws {
        let browser = try chromium()
        let directory = try TemporaryDirectory("tilecast-server-places")
        let store = try sampleStore(directory)
        let file = directory.path("places.csv")
        try "name,latitude,longitude\nPorto,41.1579,-8.6291\n\"Lisbon, Baixa\",38.7223,-9.1393\n".write(toFile: file, atomically: true, encoding: .utf8)
        var config = configuration(store)
        config.places = try NamedPlace.read(path: file)
        XCTAssertEqual(config.places, [NamedPlace(name: "Porto", latitude: 41.1579, longitude: -8.6291),
                                       NamedPlace(name: "Lisbon, Baixa", latitude: 38.7223, longitude: -9.1393)])
        try await LiveServer.with(config) { server in
            let dom = try load(server.base + "/", in: browser, profile: directory.path("profile"))
            // The file's places are found by the search the page asks as a name is typed, before the gazetteer's.
            let search = try await server.get("/v1/search?name=lisb")
            let names = ((search.object?["results"] as? [[String: Any]]) ?? []).compactMap { $0["name"] as? String }
            XCTAssertEqual(names.first, "Lisbon, Baixa", search.body)
            XCTAssertTrue(dom.stdout.contains("<h2 id=\"place-name\">Porto</h2>"), String(dom.stdout.prefix(4000)))
            XCTAssertTrue(dom.stdout.contains("<p id=\"source\">WRF 9 km (domain d01), run of today 00 UTC, 2 h ago.</p>"), String(dom.stdout.prefix(4000)))
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
            // The first name is shown as the place's heading, as text; every name is offered.
            XCTAssertTrue(dom.stdout.contains("<h2 id=\"place-name\">Porto &lt;!--&lt;script&gt;</h2>"), String(dom.stdout.prefix(6000)))
            XCTAssertTrue(dom.stdout.contains("<p id=\"source\">WRF 9 km (domain d01), run of today 00 UTC, 2 h ago.</p>"), String(dom.stdout.prefix(6000)))
            XCTAssertEqual(dom.stdout.components(separatedBy: "<option value=").count - 1, 8, "the eight unit choices")
            // The search answers every name as JSON text (the page shows its results as text).
            let search = try await server.get("/v1/search?name=port")
            let found = ((search.object?["results"] as? [[String: Any]]) ?? []).compactMap { $0["name"] as? String }
            XCTAssertEqual(Array(found.prefix(1)), ["Porto <!--<script>"], search.body)
            let say = try await server.get("/v1/search?name=say")
            XCTAssertEqual(((say.object?["results"] as? [[String: Any]]) ?? []).compactMap { $0["name"] as? String }.first, "Say \"hi\" & go", say.body)
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
