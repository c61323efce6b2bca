import Foundation
import TestSupport
import TileCastServer
import XCTest

/// Open-Meteo's `cell_selection`: `nearest` answers the nearest grid cell's values and echoes
/// that cell's coordinates and elevation (`GridSelectionMode.nearest` picks
/// `findPointNearest`, Sources/App/Domains/Gridable.swift; the answer's latitude, longitude
/// and elevation are the grid cell's, Sources/App/Controllers/ForecastapiController.swift).
/// `land` and `sea` stay bilinear: the store keeps no land-sea mask to choose a cell by.
final class CellSelectionTests: XCTestCase {
    /// The sample d01 run: 9 km Lambert conformal, hourly 2026-11-22T00Z..23T00Z.
    private static let source = Repository.sampleGrids.appendingPathComponent("wrfout_d01_2026-11-22_00:00:00").path
    private static let seed = 20_261_122
    private static let hours = "&start_hour=2026-11-22T00:00&end_hour=2026-11-23T00:00&timezone=GMT"

    /// One store of the d01 run alone, so every place is answered by that grid.
    private func store(_ directory: TemporaryDirectory) throws -> String {
        let store = directory.path("store")
        let extract = try StoreMaker.run(["extract", Self.source, "--store", store, "--quiet"])
        XCTAssertEqual(extract.status, 0, extract.stderr)
        return store
    }

    /// Places and their nearest node, found by netCDF4-python and pyproj's geodesic distance to
    /// every node's XLAT/XLONG (`nearest_cell_reference.py`), never by the engine's projection.
    private func reference(count: Int) throws -> [[String: Any]] {
        let script = Repository.root.appendingPathComponent("Tests/ServerTests/nearest_cell_reference.py").path
        let result = try runTool("python3", [script, Self.source, String(count), String(Self.seed)])
        XCTAssertEqual(result.status, 0, result.stderr)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
    }

    func testNearestAnswersTheNearestNodesValuesAndEchoesTheNode() async throws {
        let directory = try TemporaryDirectory("tilecast-nearest")
        let store = try store(directory)
        let places = try reference(count: 20)
        let latitudes = places.compactMap { $0["latitude"] as? Double }, longitudes = places.compactMap { $0["longitude"] as? Double }
        XCTAssertEqual(latitudes.count, 20)
        try await LiveServer.with(ServerConfiguration(storeRoot: store)) { server in
            let query = "/v1/forecast?latitude=\(latitudes.map { String($0) }.joined(separator: ","))"
                + "&longitude=\(longitudes.map { String($0) }.joined(separator: ","))&hourly=temperature_2m" + Self.hours
            let reply = try await server.get(query + "&cell_selection=nearest")
            XCTAssertEqual(reply.status, 200, reply.body)
            let answers = try XCTUnwrap(reply.json as? [[String: Any]])
            XCTAssertEqual(answers.count, places.count)
            var differsFromBilinear = 0
            for (place, answer) in zip(places, answers) {
                let label = "place \(place["latitude"] ?? ""),\(place["longitude"] ?? "")"
                let expected = try XCTUnwrap(place["t2"] as? [Double])
                let hourly = try XCTUnwrap(answer["hourly"] as? [String: Any])
                let values = try XCTUnwrap(hourly["temperature_2m"] as? [Double], label)
                XCTAssertEqual(values.count, expected.count, label)
                // T2 is kept to 0.05 K: 0.025 off at most, and written to 0.01 °C.
                for (k, (value, truth)) in zip(values, expected).enumerated() {
                    XCTAssertEqual(value, truth, accuracy: 0.04, "\(label), hour \(k)")
                }
                // An interpolated answer here would be at least 0.1 - 0.025 off: outside 0.04.
                if let bilinear = place["bilinear_t2_frame0"] as? Double, abs(bilinear - expected[0]) > 0.1 { differsFromBilinear += 1 }
                // The node's coordinates (the projection against the file's float XLAT/XLONG,
                // both to 4 decimals) and its terrain height (kept to 1 m, written to 1 m).
                XCTAssertEqual(try XCTUnwrap(answer["latitude"] as? Double), try XCTUnwrap(place["node_latitude"] as? Double), accuracy: 2e-4, label)
                XCTAssertEqual(try XCTUnwrap(answer["longitude"] as? Double), try XCTUnwrap(place["node_longitude"] as? Double), accuracy: 2e-4, label)
                XCTAssertEqual(try XCTUnwrap(answer["elevation"] as? Double), try XCTUnwrap(place["node_elevation"] as? Double), accuracy: 1.01, label)
                let position = try XCTUnwrap((answer["tilecast"] as? [String: Any])?["grid_position"] as? [String: Double], label)
                XCTAssertEqual(position["i"], Double(try XCTUnwrap(place["i"] as? Int)), label)
                XCTAssertEqual(position["j"], Double(try XCTUnwrap(place["j"] as? Int)), label)
            }
            // The places are not all where interpolation and the nearest node agree: the check
            // above tells the two answers apart.
            XCTAssertGreaterThanOrEqual(differsFromBilinear, 5, "places whose bilinear T2 differs from the nearest node's by more than 0.1 K")
        }
    }

    /// `land` and `sea` are the default answer (bilinear between the four cells), and echo the
    /// place as asked.
    func testLandAndSeaAreTheInterpolatedAnswer() async throws {
        let directory = try TemporaryDirectory("tilecast-land-sea")
        let store = try store(directory)
        let place = try XCTUnwrap(try reference(count: 1).first)
        let latitude = try XCTUnwrap(place["latitude"] as? Double), longitude = try XCTUnwrap(place["longitude"] as? Double)
        try await LiveServer.with(ServerConfiguration(storeRoot: store)) { server in
            let query = "/v1/forecast?latitude=\(latitude)&longitude=\(longitude)&hourly=temperature_2m" + Self.hours
            let plain = try await server.get(query)
            XCTAssertEqual(plain.status, 200, plain.body)
            let values = try XCTUnwrap((plain.object?["hourly"] as? [String: Any])?["temperature_2m"] as? [Double])
            XCTAssertEqual(try XCTUnwrap(values.first), try XCTUnwrap(place["bilinear_t2_frame0"] as? Double), accuracy: 0.04)
            for mode in ["land", "sea"] {
                let reply = try await server.get(query + "&cell_selection=\(mode)")
                XCTAssertEqual(reply.status, 200, reply.body)
                XCTAssertEqual((reply.object?["hourly"] as? [String: Any])?["temperature_2m"] as? [Double], values, mode)
                XCTAssertEqual(reply.object?["latitude"] as? Double, latitude, mode)
                XCTAssertEqual(reply.object?["longitude"] as? Double, longitude, mode)
            }
        }
    }

    /// `tilecast query --cell-selection nearest` takes the same path: the node's values and
    /// coordinates.
    func testCommandLineNearest() throws {
        let directory = try TemporaryDirectory("tilecast-nearest-cli")
        let store = try store(directory)
        let place = try XCTUnwrap(try reference(count: 1).first)
        let result = try StoreMaker.run(["query", "--store", store, "--lat", "\(try XCTUnwrap(place["latitude"] as? Double))",
                                         "--lon", "\(try XCTUnwrap(place["longitude"] as? Double))", "--start", "2026-11-22T00Z",
                                         "--hours", "25", "--variables", "temperature_2m", "--cell-selection", "nearest", "--format", "json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let answer = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], result.stdout)
        XCTAssertEqual(try XCTUnwrap(answer["latitude"] as? Double), try XCTUnwrap(place["node_latitude"] as? Double), accuracy: 2e-4)
        XCTAssertEqual(try XCTUnwrap(answer["longitude"] as? Double), try XCTUnwrap(place["node_longitude"] as? Double), accuracy: 2e-4)
        let expected = try XCTUnwrap(place["t2"] as? [Double])
        let values = try XCTUnwrap((answer["hourly"] as? [String: Any])?["temperature_2m"] as? [Double], result.stdout)
        XCTAssertEqual(values.count, expected.count)
        for (k, (value, truth)) in zip(values, expected).enumerated() { XCTAssertEqual(value, truth, accuracy: 0.04, "hour \(k)") }
        let position = try XCTUnwrap(answer["grid_position"] as? [String: Double])
        XCTAssertEqual(position["i"], Double(try XCTUnwrap(place["i"] as? Int)))
        XCTAssertEqual(position["j"], Double(try XCTUnwrap(place["j"] as? Int)))
    }
}
