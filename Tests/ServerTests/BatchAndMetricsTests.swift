import Foundation
import TestSupport
import TileCastServer
import XCTest

/// Issue 27 item 7 through a live server: damage wins over a place outside the store in a
/// batch; a model folder whose first cycle is being published is 503, not "Unknown model";
/// /metrics forgets the age of cycles it no longer serves.
final class BatchAndMetricsTests: XCTestCase {
    let hourly = "temperature_2m,relative_humidity_2m,dew_point_2m,pressure_msl,surface_pressure,precipitation,wind_speed_10m,wind_direction_10m"

    func testDamageWinsOverAnOutsidePlaceThatComesFirst() async throws {
        let directory = try TemporaryDirectory("tilecast-server-batch-damage")
        let store = try StoreMaker.extractBaseline(into: directory)
        let file = try XCTUnwrap(FileManager.default.enumerator(atPath: store)?.compactMap { $0 as? String }.first { $0.hasSuffix("d01.tcs") })
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: store + "/" + file)))
        bytes[20] ^= 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: store + "/" + file))
        let dates = "&hourly=\(hourly)&start_date=2026-11-22&end_date=2026-11-22"
        try await LiveServer.with(configuration(store)) { server in
            // The store opens (the damage is in one block): the outside place alone is the client's 400.
            let outside = try await server.get("/v1/forecast?latitude=10&longitude=10" + dates)
            XCTAssertEqual(outside.status, 400, outside.body)
            let inside = try await server.get("/v1/forecast?latitude=39.3&longitude=-8" + dates)
            XCTAssertEqual(inside.status, 503, inside.body)
            let both = try await server.get("/v1/forecast?latitude=10,39.3&longitude=10,-8" + dates)
            XCTAssertEqual(both.status, 503, both.body)
            XCTAssertTrue((both.object?["reason"] as? String ?? "").contains("checksum"), both.body)
            // The file is named from the store folder on, not by the server's absolute path (item 8).
            XCTAssertFalse(both.body.contains(store), both.body)
            XCTAssertTrue(both.body.contains("STORE/wrf/"), both.body)
        }
    }

    func testModelWhoseFirstCycleIsBeingPublishedIs503() async throws {
        let directory = try TemporaryDirectory("tilecast-server-model-publishing")
        let store = try StoreMaker.extractBaseline(into: directory)
        // What `tilecast extract --model mm5` leaves while it writes the model's first cycle
        // (and a store being made again): the folder, no `latest` yet.
        try FileManager.default.createDirectory(atPath: store + "/mm5/.data", withIntermediateDirectories: true)
        try await LiveServer.with(configuration(store)) { server in
            let dates = "&hourly=temperature_2m&start_date=2026-11-22&end_date=2026-11-22"
            let publishing = try await server.get("/v1/forecast?latitude=39.3&longitude=-8&models=mm5" + dates)
            XCTAssertEqual(publishing.status, 503, publishing.body)
            XCTAssertEqual(publishing.object?["error"] as? Bool, true)
            for unknown in ["nothere", "..", ".data", "..%2Fwrf"] {
                let reply = try await server.get("/v1/forecast?latitude=39.3&longitude=-8&models=\(unknown)" + dates)
                XCTAssertEqual(reply.status, 400, "\(unknown): \(reply.body)")
            }
            let served = try await server.get("/v1/forecast?latitude=39.3&longitude=-8&models=wrf" + dates)
            XCTAssertEqual(served.status, 200, served.body)
        }
    }

    func testMetricsForgetTheAgeOfCyclesNoLongerServed() async throws {
        let directory = try TemporaryDirectory("tilecast-server-metrics-cycles")
        let store = try StoreMaker.extractBaseline(into: directory)
        try await LiveServer.with(configuration(store)) { server in
            let before = try await server.get("/metrics")
            XCTAssertTrue(before.body.contains("tilecast_cycle_age_seconds{model=\"wrf\",cycle=\"2026-11-22T00Z\"}"), before.body)
            let later = try shiftedRun(StoreMaker.baseline, byMinutes: 360, into: directory)
            let extract = try StoreMaker.run(["extract", later, "--store", store, "--keep", "1"])
            XCTAssertEqual(extract.status, 0, extract.stderr)
            let after = try await server.get("/metrics")
            XCTAssertTrue(after.body.contains("tilecast_cycle_age_seconds{model=\"wrf\",cycle=\"2026-11-22T06Z\"}"), after.body)
            XCTAssertFalse(after.body.contains("cycle=\"2026-11-22T00Z\""), after.body)
            XCTAssertTrue(after.body.contains("tilecast_open_descriptors "), after.body)
            XCTAssertTrue(after.body.contains("tilecast_descriptor_limit "), after.body)
        }
    }
}
