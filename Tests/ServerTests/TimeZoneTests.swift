import Foundation
import TestSupport
import TileCastServer
import XCTest

/// `timezone=auto`: the offline table against timezonefinder's own answers (written by
/// Scripts/make_timezone_table.py into timezone_reference.csv: named places and 2,000 seeded
/// random points, half of them over Europe), and a live response following each place's zone.
final class TimeZoneTests: XCTestCase {
    private struct Reference { let name: String; let latitude: Double; let longitude: Double; let zone: String }

    private func references() throws -> [Reference] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("timezone_reference.csv")
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }.dropFirst()
        return try lines.map { line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 4, let latitude = Double(fields[1]), let longitude = Double(fields[2]) else {
                throw NSError(domain: "TimeZoneTests", code: 1, userInfo: [NSLocalizedDescriptionKey: "bad reference line: \(line)"])
            }
            return Reference(name: fields[0], latitude: latitude, longitude: longitude, zone: fields[3])
        }
    }

    func testTableAgreesWithTimezonefinder() throws {
        let table = try XCTUnwrap(TimeZoneTable.shared, "the committed table decodes")
        let all = try references()
        let named = all.filter { !$0.name.hasPrefix("random") }
        XCTAssertGreaterThanOrEqual(named.count, 10)
        for place in named {
            XCTAssertEqual(table.zoneName(latitude: place.latitude, longitude: place.longitude), place.zone, place.name)
        }
        let lookup = Dictionary(uniqueKeysWithValues: named.map { ($0.name, $0.zone) })
        XCTAssertEqual(lookup["Lisbon"], "Europe/Lisbon")
        XCTAssertEqual(lookup["Ponta Delgada (Azores)"], "Atlantic/Azores")
        XCTAssertEqual(lookup["Madrid"], "Europe/Madrid")

        let random = all.filter { $0.name.hasPrefix("random") }
        XCTAssertEqual(random.count, 2000)
        let agree = random.filter { table.zoneName(latitude: $0.latitude, longitude: $0.longitude) == $0.zone }.count
        let europe = random.suffix(1000)
        let agreeEurope = europe.filter { table.zoneName(latitude: $0.latitude, longitude: $0.longitude) == $0.zone }.count
        print("TimeZoneTests: table agrees with timezonefinder at \(agree)/2000 random points (\(agreeEurope)/1000 over Europe)")
        // A 0.05° cell on a border may hold the neighbour's zone: a few disagreements at most.
        XCTAssertGreaterThanOrEqual(agree, 1980)
        XCTAssertGreaterThanOrEqual(agreeEurope, 985)
        // Every zone the table names is one this system's tz database knows.
        XCTAssertTrue(table.names.allSatisfy { TimeZone(identifier: $0) != nil }, "\(table.names.filter { TimeZone(identifier: $0) == nil })")
    }

    /// Two places a request, each in its own zone: Lisbon (UTC+0 in November) and Badajoz, just
    /// across the border in Spain (UTC+1). Each object's timezone, offset, abbreviation, hourly
    /// labels and daily values follow its zone; Badajoz's daily values are the command line's
    /// with `--timezone Europe/Madrid`.
    func testAutoZoneFollowsEachPlace() async throws {
        let directory = try TemporaryDirectory("tilecast-server-zones")
        let store = directory.path("store")
        let extract = try StoreMaker.run(["extract", Repository.sampleGrids.path, "--store", store])
        XCTAssertEqual(extract.status, 0, extract.stderr)
        let (badajozLat, badajozLon) = (38.8794, -6.9707)
        let cli = try StoreMaker.run(["query", "--store", store, "--model", "wrf", "--lat", "\(badajozLat)", "--lon", "\(badajozLon)",
                                      "--start", "2026-11-22T00Z", "--hours", "25", "--variables", "temperature_2m",
                                      "--daily", "temperature_2m_max,temperature_2m_min", "--timezone", "Europe/Madrid", "--format", "json"])
        XCTAssertEqual(cli.status, 0, cli.stderr)
        let expected = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(cli.stdout.utf8)) as? [String: Any])?["daily"] as? [String: Any])
        try await LiveServer.with(configuration(store)) { server in
            let reply = try await server.get("/v1/forecast?latitude=38.7223,\(badajozLat)&longitude=-9.1393,\(badajozLon)&models=wrf&timezone=auto"
                                             + "&hourly=temperature_2m&daily=temperature_2m_max,temperature_2m_min&start_date=2026-11-22&end_date=2026-11-22")
            XCTAssertEqual(reply.status, 200, reply.body)
            let places = try XCTUnwrap(reply.json as? [[String: Any]])
            XCTAssertEqual(places.count, 2)
            XCTAssertEqual(places[0]["timezone"] as? String, "Europe/Lisbon")
            XCTAssertEqual(places[0]["utc_offset_seconds"] as? Int, 0)
            XCTAssertEqual(places[1]["timezone"] as? String, "Europe/Madrid")
            XCTAssertEqual(places[1]["utc_offset_seconds"] as? Int, 3600)
            XCTAssertEqual(places[1]["timezone_abbreviation"] as? String, "GMT+1")
            // Local midnight in Badajoz is 23Z the day before: the first label is local.
            let badajoz = try XCTUnwrap(places[1]["hourly"] as? [String: Any])
            XCTAssertEqual((badajoz["time"] as? [String])?.first, "2026-11-22T00:00")
            let values = try XCTUnwrap(badajoz["temperature_2m"] as? [Any])
            XCTAssertTrue(values[0] is NSNull, "local 00:00 is 23Z on the 21st, before the run")
            XCTAssertTrue(values[1] is Double, "local 01:00 is the run's first hour")
            let daily = try XCTUnwrap(places[1]["daily"] as? [String: Any])
            XCTAssertEqual(daily["time"] as? [String], ["2026-11-22"])
            for name in ["temperature_2m_max", "temperature_2m_min"] {
                let ours = try XCTUnwrap((daily[name] as? [Double])?.first, "\(name): \(daily)")
                let theirs = try XCTUnwrap((expected[name] as? [Any])?.first as? Double, "\(name): \(expected)")
                XCTAssertEqual(ours, theirs, name)
            }
        }
    }
}
