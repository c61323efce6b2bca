import Foundation
import TestSupport
import TileCastServer
import XCTest

/// `/v1/forecast`'s `elevation=` (one per place, nan for the model terrain, as Open-Meteo) and
/// `sunshine_duration`, over HTTP on the baseline run.
final class DownscalingAPITests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var store: String!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory("tilecast-server")
        store = try StoreMaker.extractBaseline(into: directory)
    }

    private let query = "/v1/forecast?latitude=39.3,39.4&longitude=-8,-8.2&hourly=temperature_2m,surface_pressure,relative_humidity_2m&start_hour=2026-11-22T00:00&end_hour=2026-11-22T03:00"

    private func places(_ reply: LiveServer.Reply) throws -> [[String: Any]] {
        try XCTUnwrap(reply.json as? [[String: Any]], reply.body)
    }

    private func hourly(_ place: [String: Any], _ name: String) throws -> [Double] {
        try XCTUnwrap((place["hourly"] as? [String: Any])?[name] as? [Double], name)
    }

    /// Two places, the first moved to 200 m, the second at its model terrain (nan): the first's
    /// temperatures move by 0.0065 K/m x (model - 200 m) and its surface pressure by the
    /// standard atmosphere's barometric formula (arithmetic written here), the second's not at all.
    func testElevationPerPlaceMovesTemperatureAndPressure() async throws {
        try await LiveServer.with(configuration(store)) { server in
            let plainReply = try await server.get(query)
            XCTAssertEqual(plainReply.status, 200, plainReply.body)
            let movedReply = try await server.get(query + "&elevation=200,nan")
            XCTAssertEqual(movedReply.status, 200, movedReply.body)
            let plain = try places(plainReply), moved = try places(movedReply)
            XCTAssertEqual(moved.count, 2)

            let model = try XCTUnwrap(plain[0]["elevation"] as? Double)
            XCTAssertEqual(moved[0]["elevation"] as? Double, 200)
            let provenance = try XCTUnwrap(moved[0]["tilecast"] as? [String: Any])
            XCTAssertEqual(provenance["elevation_source"] as? String, "requested")
            XCTAssertEqual(provenance["model_elevation"] as? Double, model)
            XCTAssertEqual((moved[1]["tilecast"] as? [String: Any])?["elevation_source"] as? String, "model_terrain")
            XCTAssertEqual(moved[1]["elevation"] as? Double, plain[1]["elevation"] as? Double)

            let lapse = 0.0065, exponent = 9.80665 * 0.0289644 / (8.3144598 * lapse)
            let shift = lapse * (model - 200)
            XCTAssertGreaterThan(abs(shift), 0.1, "the baseline terrain is not at 200 m: \(model)")
            let t = try hourly(plain[0], "temperature_2m"), tMoved = try hourly(moved[0], "temperature_2m")
            XCTAssertEqual(t.count, 4)
            for (a, b) in zip(t, tMoved) { XCTAssertEqual(b - a, shift, accuracy: 0.0151) }
            let p = try hourly(plain[0], "surface_pressure"), pMoved = try hourly(moved[0], "surface_pressure")
            for k in p.indices {
                let kelvin = t[k] + 273.15
                XCTAssertEqual(pMoved[k], p[k] * pow((kelvin + shift) / kelvin, exponent), accuracy: 0.15)
            }
            XCTAssertEqual(try hourly(moved[0], "relative_humidity_2m"), try hourly(plain[0], "relative_humidity_2m"))
            for name in ["temperature_2m", "surface_pressure", "relative_humidity_2m"] {
                XCTAssertEqual(try hourly(moved[1], name), try hourly(plain[1], name), name)
            }
        }
    }

    /// Refusals in Open-Meteo's shape: a count that does not match the coordinates, text that
    /// is not metres, an elevation beyond -500..9000.
    func testBadElevationsAreRefusedInOpenMeteoShape() async throws {
        try await LiveServer.with(configuration(store)) { server in
            for (suffix, expected) in [("&elevation=100", "same number of elements"), ("&elevation=100,abc", "Given: abc"),
                                       ("&elevation=100,9001", "Given: 9001"), ("&elevation=inf,0", "Given: inf")] {
                let reply = try await server.get(query + suffix)
                XCTAssertEqual(reply.status, 400, "\(suffix): \(reply.body)")
                XCTAssertEqual(reply.object?["error"] as? Bool, true)
                let reason = try XCTUnwrap(reply.object?["reason"] as? String)
                XCTAssertTrue(reason.contains("elevation") && reason.contains(expected), "\(suffix): \(reason)")
            }
        }
    }

    /// sunshine_duration hourly and daily by Open-Meteo's names and unit; 00-03Z in November
    /// at 8 W is night: 0 s, and the hour ending at 00Z is known (night) though before the run.
    func testSunshineDurationIsServed() async throws {
        try await LiveServer.with(configuration(store)) { server in
            let reply = try await server.get("/v1/forecast?latitude=39.3&longitude=-8&hourly=sunshine_duration&daily=sunshine_duration&start_date=2026-11-22&end_date=2026-11-22")
            XCTAssertEqual(reply.status, 200, reply.body)
            let object = try XCTUnwrap(reply.object)
            XCTAssertEqual((object["hourly_units"] as? [String: String])?["sunshine_duration"], "s")
            XCTAssertEqual((object["daily_units"] as? [String: String])?["sunshine_duration"], "s")
            let hourly = try XCTUnwrap((object["hourly"] as? [String: Any])?["sunshine_duration"] as? [Any])
            XCTAssertEqual(hourly.prefix(4).compactMap { $0 as? Double }, [0, 0, 0, 0], "\(hourly)")
            XCTAssertEqual((object["daily"] as? [String: Any])?["sunshine_duration"].map { ($0 as? [Any])?.count }, 1)
        }
    }
}
