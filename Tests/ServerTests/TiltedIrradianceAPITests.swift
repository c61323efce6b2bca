import Foundation
import TestSupport
import XCTest

/// `/v1/forecast` with Open-Meteo's `tilt` and `azimuth`: `global_tilted_irradiance` and its
/// `_instant` name in JSON, CSV and `minutely_15`, the same numbers as `tilecast query` with
/// `--tilt`/`--azimuth` on the store; a flat plane's value is the global horizontal radiation
/// (the isotropic model's identity, an independent check); and Open-Meteo's 400 answers, word
/// for word, for a tilt or azimuth out of range (its GenericReaderOptions).
final class TiltedIrradianceAPITests: XCTestCase {
    private let place = "latitude=29.865&longitude=86.8444&start_date=2005-09-21&end_date=2005-09-21&timezone=GMT"

    private func makeStore(_ directory: TemporaryDirectory) throws -> String {
        let store = directory.path("store")
        let extracted = try StoreMaker.run(["extract", try Repository.sharedSample("wrf_d01_allvars_cropped.nc"), "--store", store, "--quiet"])
        XCTAssertEqual(extracted.status, 0, extracted.stderr)
        return store
    }

    func testTiltAndAzimuthAnswerAsTheCommandLineAndFlatIsGlobal() async throws {
        let directory = try TemporaryDirectory("tilecast-server-tilted")
        let store = try makeStore(directory)
        let query = try StoreMaker.run(["query", "--store", store, "--lat", "29.865", "--lon", "86.8444", "--format", "csv",
                                        "--variables", "global_tilted_irradiance", "--tilt", "35", "--azimuth", "-20",
                                        "--start", "2005-09-21T00:00Z", "--hours", "10"])
        XCTAssertEqual(query.status, 0, query.stderr)
        let lines = query.stdout.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let column = try XCTUnwrap(lines.first?.firstIndex(of: "global_tilted_irradiance"))
        let cli = lines.dropFirst().map { Double($0[column]) }
        XCTAssertEqual(cli.count, 10)
        try await LiveServer.with(configuration(store)) { server in
            let reply = try await server.get("/v1/forecast?\(place)&hourly=global_tilted_irradiance,global_tilted_irradiance_instant&tilt=35&azimuth=-20")
            XCTAssertEqual(reply.status, 200, reply.body)
            XCTAssertEqual((reply.object?["hourly_units"] as? [String: String])?["global_tilted_irradiance"], "W/m²")
            let hourly = try XCTUnwrap(reply.object?["hourly"] as? [String: Any])
            let served = try XCTUnwrap(hourly["global_tilted_irradiance"] as? [Any]).map { $0 as? Double }
            let instant = try XCTUnwrap(hourly["global_tilted_irradiance_instant"] as? [Any]).map { $0 as? Double }
            XCTAssertEqual(Array(served.prefix(10)), cli)
            XCTAssertEqual(served, instant)
            XCTAssertGreaterThan(served.compactMap { $0 }.filter { $0 > 100 }.count, 4, "\(served)")
            // Hours after the run (10Z on) are null: no radiation, never 0.
            XCTAssertTrue(served.dropFirst(10).allSatisfy { $0 == nil }, "\(served)")
            let csv = try await server.get("/v1/forecast?\(place)&hourly=global_tilted_irradiance&tilt=35&azimuth=-20&format=csv")
            XCTAssertEqual(csv.status, 200, csv.body)
            XCTAssertTrue(csv.body.contains("global_tilted_irradiance (W/m²)"), csv.body)
            // A different plane is a different answer (the parameters reach the computation).
            let west = try await server.get("/v1/forecast?\(place)&hourly=global_tilted_irradiance&tilt=90&azimuth=90")
            let westValues = try XCTUnwrap((west.object?["hourly"] as? [String: Any])?["global_tilted_irradiance"] as? [Any]).map { $0 as? Double }
            XCTAssertNotEqual(westValues, served)
            // Flat (the defaults): DNI cos θz + DHI + 0 ground = GHI, to the printed W/m², in
            // the hours with the sun above 87° zenith (DNI is not estimated beyond).
            let flat = try await server.get("/v1/forecast?\(place)&hourly=global_tilted_irradiance,shortwave_radiation,is_day")
            let values = try XCTUnwrap(flat.object?["hourly"] as? [String: Any])
            let gti = try XCTUnwrap(values["global_tilted_irradiance"] as? [Any]).map { $0 as? Double }
            let ghi = try XCTUnwrap(values["shortwave_radiation"] as? [Any]).map { $0 as? Double }
            for hour in 2..<10 {
                XCTAssertEqual(try XCTUnwrap(gti[hour]), try XCTUnwrap(ghi[hour]), accuracy: 1.0, "hour \(hour)")
            }
            let quarter = try await server.get("/v1/forecast?\(place)&minutely_15=global_tilted_irradiance&tilt=35&azimuth=-20")
            XCTAssertEqual(quarter.status, 200, quarter.body)
            let quarters = try XCTUnwrap((quarter.object?["minutely_15"] as? [String: Any])?["global_tilted_irradiance"] as? [Any]).map { $0 as? Double }
            // On the hour, the quarter-hour series is the hourly one.
            for hour in 0..<10 { XCTAssertEqual(quarters[hour * 4], served[hour], "hour \(hour)") }
        }
    }

    func testInvalidTiltAndAzimuthAreOpenMeteosBadRequests() async throws {
        let directory = try TemporaryDirectory("tilecast-server-tilted-errors")
        let store = try makeStore(directory)
        try await LiveServer.with(configuration(store)) { server in
            let tilt = "Parameter `&tilt=` must be within 0° and 90°", azimuth = "Parameter `&azimuth=` must be within -180° and 180°"
            for (parameters, reason) in [("tilt=91", tilt), ("tilt=-0.5", tilt), ("azimuth=180.1", azimuth), ("azimuth=-200", azimuth),
                                         ("tilt=30&azimuth=270", azimuth)] {
                let reply = try await server.get("/v1/forecast?\(place)&hourly=global_tilted_irradiance&\(parameters)")
                XCTAssertEqual(reply.status, 400, parameters)
                XCTAssertEqual(reply.object?["error"] as? Bool, true, reply.body)
                XCTAssertEqual(reply.object?["reason"] as? String, reason, parameters)
            }
            // Open-Meteo checks them whatever is asked for.
            let other = try await server.get("/v1/forecast?\(place)&hourly=temperature_2m&tilt=95")
            XCTAssertEqual(other.status, 400, other.body)
            let words = try await server.get("/v1/forecast?\(place)&hourly=global_tilted_irradiance&tilt=steep")
            XCTAssertEqual(words.status, 400, words.body)
            XCTAssertTrue((words.object?["reason"] as? String ?? "").hasPrefix(tilt), words.body)
            XCTAssertTrue((words.object?["reason"] as? String ?? "").contains("Given: steep"), words.body)
            // The ends of the ranges and Open-Meteo's nan (tracking) are accepted.
            for parameters in ["tilt=0&azimuth=-180", "tilt=90&azimuth=180", "tilt=nan&azimuth=nan"] {
                let reply = try await server.get("/v1/forecast?\(place)&hourly=global_tilted_irradiance&\(parameters)")
                XCTAssertEqual(reply.status, 200, "\(parameters): \(reply.body)")
            }
        }
    }
}
