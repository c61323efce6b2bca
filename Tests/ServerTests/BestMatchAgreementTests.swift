import Foundation
import TestSupport
import XCTest

/// The server and `tilecast query` pick each place's model and domain by one rule
/// (`ModelChoice.bestMatch`): for the same places and hours, both name the same model and
/// domain. The store holds SampleGrids' two models: WRF (9 km d01 with a 3 km nest around
/// Lisbon, hourly 2026-11-22T00Z..23T00Z) and MM5 (27 km over Iberia, three-hourly
/// 22T00Z..23T12Z).
final class BestMatchAgreementTests: XCTestCase {
    /// The generator's seed: the 1,000 places replay exactly.
    static let seed: UInt64 = 20_261_122

    /// Hours both runs cover, and hours that run past WRF's end (18Z..05Z: WRF covers 7 of
    /// the 12, MM5 all of them), where a rule that prefers the finest domain regardless of
    /// the hours it lacks answers from WRF and one that wants every hour from MM5.
    static let windows: [(start: String, end: String, cli: String)] = [
        ("2026-11-22T06:00", "2026-11-22T17:00", "2026-11-22T06Z"),
        ("2026-11-22T18:00", "2026-11-23T05:00", "2026-11-22T18Z"),
    ]

    /// Places drawn uniformly over a box inside MM5's domain (so every place has an answer)
    /// that takes in most of WRF's d01 and part of its d02: each place has one, two or three
    /// domains to choose from.
    static func places(count: Int) -> [(latitude: String, longitude: String)] {
        var generator = SeededGenerator(seed: seed)
        func uniform(_ low: Double, _ high: Double) -> String {
            String(format: "%.4f", low + (high - low) * Double(generator.next() >> 11) / Double(1 << 53))
        }
        return (0..<count).map { _ in (uniform(37.0, 42.5), uniform(-9.0, -3.0)) }
    }

    func testServerAndCommandLineAnswerEachPlaceFromTheSameModelAndDomain() async throws {
        let directory = try TemporaryDirectory("tilecast-best-match")
        let store = directory.path("store")
        let extract = try StoreMaker.run(["extract", Repository.sampleGrids.path, "--store", store, "--quiet"])
        XCTAssertEqual(extract.status, 0, extract.stderr)
        let places = Self.places(count: 1000)
        let csv = directory.path("places.csv")
        try ("lat,lon\n" + places.map { "\($0.latitude),\($0.longitude)\n" }.joined()).write(toFile: csv, atomically: true, encoding: .utf8)
        try await LiveServer.with(configuration(store)) { server in
            for window in Self.windows {
                let cli = try commandLineChoices(store: store, points: csv, start: window.cli, hours: 12)
                let api = try await serverChoices(server, places: places, start: window.start, end: window.end)
                XCTAssertEqual(cli.count, places.count)
                XCTAssertEqual(api.count, places.count)
                var differing: [String] = []
                for (k, place) in places.enumerated() where k < cli.count && k < api.count && cli[k] != api[k] {
                    differing.append("\(place.latitude),\(place.longitude): tilecast query \(cli[k]), server \(api[k])")
                }
                XCTAssertTrue(differing.isEmpty, "\(window.start)..\(window.end): \(differing.count) of \(places.count) places differ, e.g. \(differing.prefix(3))")
                // The places exercise every domain: WRF's nest, its d01, MM5 alone.
                let chosen = Set(cli)
                XCTAssertTrue(chosen.contains("mm5 d01"), "\(chosen)")
                if window.cli == "2026-11-22T06Z" {
                    XCTAssertTrue(chosen.isSuperset(of: ["wrf d02", "wrf d01"]), "\(chosen)")
                }
            }
        }
    }

    /// "model domain" for each place, in order, as `tilecast query --points` answers.
    private func commandLineChoices(store: String, points: String, start: String, hours: Int) throws -> [String] {
        let result = try StoreMaker.run(["query", "--store", store, "--points", points, "--start", start, "--hours", "\(hours)",
                                         "--variables", "temperature_2m", "--format", "json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let answers = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        return answers.map { "\($0["model"] as? String ?? "none") \($0["domain"] as? String ?? "none")" }
    }

    /// "model domain" for each place, in order, from the server's `tilecast` provenance key,
    /// asking 200 places a request (the server's URL limit).
    private func serverChoices(_ server: LiveServer, places: [(latitude: String, longitude: String)],
                               start: String, end: String) async throws -> [String] {
        var choices: [String] = []
        for first in stride(from: 0, to: places.count, by: 200) {
            let batch = places[first..<min(first + 200, places.count)]
            let reply = try await server.get("/v1/forecast?latitude=\(batch.map(\.latitude).joined(separator: ","))"
                                             + "&longitude=\(batch.map(\.longitude).joined(separator: ","))"
                                             + "&hourly=temperature_2m&start_hour=\(start)&end_hour=\(end)")
            XCTAssertEqual(reply.status, 200, reply.body)
            let answers = try XCTUnwrap(reply.json as? [[String: Any]], reply.body)
            choices += answers.map { answer in
                let provenance = answer["tilecast"] as? [String: Any]
                return "\(provenance?["model"] as? String ?? "none") \(provenance?["domain"] as? String ?? "none")"
            }
        }
        return choices
    }
}
