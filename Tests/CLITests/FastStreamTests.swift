import Foundation
import TestSupport
import XCTest

/// A run with a 15-minute auxiliary history stream beside hourly wrfout files
/// (Scripts/make_auxhist_run.py): the stream is stored as a file of its own beside its domain's,
/// and 15-minute answers read it. Values are checked against Scripts/fast_stream_reference.py
/// (pyproj and numpy on the WRF file's own frames), never against the engine.
final class FastStreamTests: XCTestCase {
    private var directory: TemporaryDirectory!
    override func setUpWithError() throws { directory = try TemporaryDirectory() }

    private func run(_ arguments: [String]) throws -> ToolOutput {
        try runTool("timeout", ["-k", "5", "120", try tilecastBinary()] + arguments)
    }

    private func sample(_ path: String) -> String {
        Repository.sampleGrids.appendingPathComponent("auxhist-runs/\(path)").path
    }

    private var history: [String] {
        ["fifteen-minutes/wrfout_d01_2026-11-22_06:00:00", "fifteen-minutes/wrfout_d02_2026-11-22_06:00:00"].map(sample)
    }
    private var stream: String { sample("fifteen-minutes/auxhist2_d02_2026-11-22_06:00:00") }

    private func manifest(_ store: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: store + "/wrf/latest/cycle.json"))
        return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// One reference row: place, time, T2 (°C) and the precipitation of the 15 minutes before.
    private struct Row: Hashable { let latitude: String, longitude: String, time: String }

    private func reference(_ file: String, places: Int, margin: Double) throws -> [Row: (celsius: Double, rain: Double)] {
        let check = try runTool("python3", ["-c", "import numpy, netCDF4, pyproj"])
        try XCTSkipIf(check.status != 0, "python3 with numpy, netCDF4 and pyproj is needed for the reference: \(check.stderr)")
        let script = Repository.root.appendingPathComponent("Scripts/fast_stream_reference.py").path
        let result = try runTool("python3", [script, file, "--places", String(places), "--margin", String(margin)])
        XCTAssertEqual(result.status, 0, result.stderr)
        var rows: [Row: (Double, Double)] = [:]
        for line in result.stdout.split(separator: "\n").dropFirst() {
            let f = line.split(separator: ",").map(String.init)
            guard f.count == 5, let t = Double(f[3]), let r = Double(f[4]) else { continue }
            rows[Row(latitude: f[0], longitude: f[1], time: f[2])] = (t, r)
        }
        XCTAssertEqual(rows.count, places * 25, "reference rows")
        return rows
    }

    /// `query --points` of the reference's places every 15 minutes from 06:15Z: rows by place
    /// and time, with the answering domain.
    private func answers(_ store: String, places: Set<String>) throws -> [Row: (domain: String, celsius: Double, rain: Double)] {
        let points = directory.path("points.csv")
        try ("lat,lon\n" + places.sorted().joined(separator: "\n") + "\n").write(toFile: points, atomically: true, encoding: .utf8)
        let result = try run(["query", "--store", store, "--points", points, "--start", "2026-11-22T06:15Z", "--hours", "6",
                              "--every", "15", "--variables", "temperature_2m,precipitation", "--format", "csv"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdout.split(separator: "\n")
        let header = lines.first?.split(separator: ",").map(String.init) ?? []
        let column = { (name: String) in header.firstIndex(of: name) ?? 0 }
        var rows: [Row: (String, Double, Double)] = [:]
        for line in lines.dropFirst() {
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard f.count == header.count else { continue }
            rows[Row(latitude: f[column("latitude")], longitude: f[column("longitude")], time: f[column("time")])] =
                (f[column("domain")], Double(f[column("temperature_2m")]) ?? .nan, Double(f[column("precipitation")]) ?? .nan)
        }
        XCTAssertEqual(rows.count, places.count * 24, "answer rows")
        return rows
    }

    /// The stream is stored as a file of its own, and the domain's history keeps every field
    /// (before, the stream's frames were joined into d02's time axis, which then held only the
    /// stream's few fields: cloud cover, radiation and the rest were dropped for d02).
    func testTheStreamIsStoredBesideItsDomain() throws {
        let store = directory.path("store")
        let extracted = try run(["extract"] + history + [stream, "--store", store, "--quiet"])
        XCTAssertEqual(extracted.status, 0, extracted.stderr)
        XCTAssertFalse(extracted.stderr.contains("warning"), extracted.stderr)
        let cycle = try manifest(store)
        let domains = try XCTUnwrap(cycle["domains"] as? [[String: Any]])
        XCTAssertEqual(domains.map { $0["domain"] as? String }, ["d01", "d02"])
        let d02 = try XCTUnwrap(domains.last)
        XCTAssertEqual(d02["frames"] as? Int, 7, "d02's history: hourly frames 06Z..12Z")
        XCTAssertTrue((d02["variables"] as? [String] ?? []).contains("cloud_cover"), "\(d02)")
        let streams = try XCTUnwrap(cycle["streams"] as? [[String: Any]], "\(cycle)")
        XCTAssertEqual(streams.count, 1)
        XCTAssertEqual(streams.first?["domain"] as? String, "d02")
        XCTAssertEqual(streams.first?["stream"] as? String, "auxhist2")
        XCTAssertEqual(streams.first?["file"] as? String, "d02-auxhist2.tcs")
        XCTAssertEqual(streams.first?["frames"] as? Int, 25)
        let verified = try run(["inspect", store, "--verify"])
        XCTAssertEqual(verified.status, 0, verified.stderr)
        XCTAssertTrue(verified.stdout.contains("d02 auxhist2"), verified.stdout)
    }

    /// The manifest is checked (issue 43 item 8): a changed value fails its checksum; with
    /// the checksum removed too, a stream file it no longer lists, frames or a reach its files
    /// do not hold are damage (exit 5), in a query and in `inspect --verify`, never answers
    /// switched silently to interpolation.
    func testTheManifestIsCheckedAgainstItselfAndItsFiles() throws {
        let pristine = directory.path("pristine")
        let extracted = try run(["extract"] + history + [stream, "--store", pristine, "--quiet"])
        XCTAssertEqual(extracted.status, 0, extracted.stderr)
        let text = try String(contentsOfFile: pristine + "/wrf/latest/cycle.json", encoding: .utf8)
        XCTAssertNotNil(text.range(of: #""checksum" : "crc32:[0-9a-f]{8}""#, options: .regularExpression), text)
        let query = ["--lat", "39.2322", "--lon", "-8.3869", "--start", "2026-11-22T06:15Z", "--hours", "1", "--every", "15"]

        func damaged(_ name: String, _ change: (inout [String: Any]) -> Void, keepChecksum: Bool = false) throws -> String {
            let store = directory.path(name)
            XCTAssertEqual(try runTool("cp", ["-a", pristine, store]).status, 0)
            let path = store + "/wrf/latest/cycle.json"
            var object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
            change(&object)
            if !keepChecksum { object["checksum"] = nil }
            let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
            try data.write(to: URL(fileURLWithPath: path))
            return store
        }
        var cases: [(String, String, String)] = []
        cases.append(("edited", try damaged("edited", { $0["warnings"] = ["forged"] }, keepChecksum: true), "fails its checksum"))
        cases.append(("no-streams", try damaged("no-streams", { $0["streams"] = nil }), "the cycle's manifest does not list"))
        cases.append(("frames", try damaged("frames", { object in
            var domains = object["domains"] as? [[String: Any]] ?? []
            domains[0]["frames"] = 3
            object["domains"] = domains
        }), "holds 7 frames, but the cycle's manifest lists 3"))
        cases.append(("reaches", try damaged("reaches", { $0["reaches"] = "2026-11-25T00:00:00Z" }), "reaches 2026-11-25T00:00:00Z, but its domain files reach"))
        for (name, store, said) in cases {
            let answered = try run(["query", "--store", store] + query)
            XCTAssertEqual(answered.status, 5, "\(name): \(answered.stdout.prefix(300)) \(answered.stderr)")
            XCTAssertTrue(answered.stderr.contains(said), "\(name): \(answered.stderr)")
            let verified = try run(["inspect", store, "--verify"])
            XCTAssertEqual(verified.status, 5, "\(name): \(verified.stderr)")
            XCTAssertTrue(verified.stderr.contains(said), "\(name): \(verified.stderr)")
        }
        // A manifest written before checksums (none in it, nothing else changed) still reads.
        let older = try damaged("older", { _ in })
        XCTAssertEqual(try run(["query", "--store", older] + query).status, 0)
    }

    /// 15-minute answers inside d02 are the stream's values at its frames (T2 within the
    /// store's 0.05 K, the 15-minute precipitation within two 0.01 mm steps). The same times
    /// interpolated from the hourly frames miss the stream's sub-hourly change by up to 1 K,
    /// so an answer that ignored the stream fails here.
    func testFifteenMinuteAnswersReadTheStream() throws {
        let store = directory.path("store")
        let extracted = try run(["extract"] + history + [stream, "--store", store, "--quiet"])
        XCTAssertEqual(extracted.status, 0, extracted.stderr)
        let expected = try reference(stream, places: 60, margin: 5)
        let places = Set(expected.keys.map { "\($0.latitude),\($0.longitude)" })
        let answered = try answers(store, places: places)
        var worstT = 0.0, worstRain = 0.0, rainy = 0, compared = 0
        for (row, answer) in answered {
            let wanted = try XCTUnwrap(expected[row], "\(row)")
            XCTAssertEqual(answer.domain, "d02", "\(row)")
            worstT = max(worstT, abs(answer.celsius - wanted.celsius))
            worstRain = max(worstRain, abs(answer.rain - wanted.rain))
            if wanted.rain > 0.05 { rainy += 1 }
            compared += 1
        }
        XCTAssertEqual(compared, 60 * 24)
        XCTAssertLessThanOrEqual(worstT, 0.03 + 0.005, "T2 against the stream's frames")
        XCTAssertLessThanOrEqual(worstRain, 0.02 + 0.005, "15-minute precipitation against the stream's totals")
        XCTAssertGreaterThan(rainy, 100, "the hours hold rain, so the precipitation check means something")
        // The JSON answer names the stream that answered.
        let one = try XCTUnwrap(places.sorted().first).split(separator: ",")
        let json = try run(["query", "--store", store, "--lat", String(one[0]), "--lon", String(one[1]), "--start", "2026-11-22T06:15Z",
                            "--hours", "1", "--every", "15", "--variables", "temperature_2m,cloud_cover"])
        XCTAssertEqual(json.status, 0, json.stderr)
        XCTAssertTrue(json.stdout.contains("\"stream\": \"auxhist2\""), json.stdout)
        XCTAssertTrue(json.stdout.contains("\"stream_variables\": [\"temperature_2m\"]"), json.stdout)
    }

    /// Where no stream holds the place (d01 outside d02), 15-minute answers are the hourly
    /// frames interpolated in time, and the precipitation is the hour's spread evenly.
    func testWithoutAStreamFifteenMinutesAreInterpolated() throws {
        let store = directory.path("store")
        let extracted = try run(["extract"] + history + [stream, "--store", store, "--quiet"])
        XCTAssertEqual(extracted.status, 0, extracted.stderr)
        // d01's places away from d02 (which spans d01's cells 3..8 x 2..7 plus its margin).
        let expected = try reference(history[0], places: 40, margin: 0).filter { row, _ in
            (Double(row.longitude) ?? 0) < -8.75 || (Double(row.latitude) ?? 0) > 39.55
        }
        let places = Set(expected.keys.map { "\($0.latitude),\($0.longitude)" })
        XCTAssertGreaterThan(places.count, 5)
        let answered = try answers(store, places: places)
        for (row, answer) in answered where answer.domain == "d01" {
            let wanted = try XCTUnwrap(expected[row], "\(row)")
            XCTAssertEqual(answer.celsius, wanted.celsius, accuracy: 0.035, "\(row)")
            XCTAssertEqual(answer.rain, wanted.rain, accuracy: 0.025, "\(row)")
        }
        XCTAssertGreaterThan(answered.values.filter { $0.domain == "d01" }.count, 5 * 24)
    }

    /// Frames of the two streams at the same time that disagree (the stream's T2 2 K warmer):
    /// the stream is left out with a warning naming the field, the time and the difference;
    /// the history is published, and 15-minute answers are interpolated from it.
    func testAStreamThatDisagreesWithTheHistoryIsNotUsed() throws {
        let store = directory.path("store")
        let extracted = try run(["extract"] + history + [sample("disagreeing/auxhist2_d02_2026-11-22_06:00:00"), "--store", store])
        XCTAssertEqual(extracted.status, 0, extracted.stderr)
        let said = extracted.stdout + extracted.stderr
        XCTAssertTrue(said.contains("the auxhist2 stream"), said)
        XCTAssertTrue(said.contains("is not used: its T2 at 2026-11-22T06:00:00Z differs from the history's by up to 2"), said)
        let cycle = try manifest(store)
        XCTAssertNil(cycle["streams"], "\(cycle)")
        let domains = try XCTUnwrap(cycle["domains"] as? [[String: Any]])
        XCTAssertEqual(domains.last?["frames"] as? Int, 7)
    }
}
