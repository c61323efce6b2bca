import Extraction
import Foundation
import GridGeometry
import PointQuery
import TestSupport
import XCTest

/// Edges (issue 15 item 4, issue 16 item 13): a domain's own edge nodes, typed as users type
/// them (4 decimals), are inside the outermost domain; the nest margin applies only to a
/// domain that has a coarser domain around it in the same cycle.
final class EdgeAndMarginTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws { directory = try TemporaryDirectory("tilecast-edges") }

    private var d01: String { Repository.sampleGrids.appendingPathComponent("wrfout_d01_2026-11-22_00:00:00").path }
    private var d02: String { Repository.sampleGrids.appendingPathComponent("wrfout_d02_2026-11-22_00:00:00").path }

    /// A store extracted from real files by the real extractor.
    private func store(_ inputs: [String], name: String = "store") throws -> ForecastStore {
        let path = directory.path(name)
        var extractor = Extractor(inputs: inputs, store: path)
        extractor.model = "wrf"
        _ = try extractor.run()
        return try ForecastStore(root: path, model: "wrf")
    }

    /// The coordinates of every edge node of a file's mass grid, read by ncdump (not by the
    /// engine), with their (i, j); XLAT/XLONG of the first time when they have one.
    private func edgeNodes(_ path: String, westEast: Int, southNorth: Int) throws -> [(lat: Double, lon: Double, i: Int, j: Int)] {
        let lat = try ncdumpValues(path: path, variable: "XLAT"), lon = try ncdumpValues(path: path, variable: "XLONG")
        XCTAssertGreaterThanOrEqual(lat.count, westEast * southNorth)
        var nodes: [(lat: Double, lon: Double, i: Int, j: Int)] = []
        for j in 0..<southNorth {
            for i in 0..<westEast where i == 0 || j == 0 || i == westEast - 1 || j == southNorth - 1 {
                nodes.append((lat[j * westEast + i], lon[j * westEast + i], i, j))
            }
        }
        return nodes
    }

    private static func round4(_ x: Double) -> Double { (x * 10_000).rounded() / 10_000 }

    /// Every edge node at 4 decimals is answered from the domain, at the node (within the
    /// rounding: 1e-4 degree is well under a tenth of a cell at these spacings).
    private func checkEdgeNodes(_ input: String, westEast: Int, southNorth: Int, domain: String,
                                file: StaticString = #filePath, line: UInt = #line) throws {
        let store = try store([input])
        let forecaster = PointForecaster(store: store)
        let time = try XCTUnwrap(store.runTimes.first)
        let nodes = try edgeNodes(input, westEast: westEast, southNorth: southNorth)
        XCTAssertEqual(nodes.count, 2 * westEast + 2 * southNorth - 4, file: file, line: line)
        var refused: [String] = []
        for node in nodes {
            let point = QueryPoint(latitude: Self.round4(node.lat), longitude: Self.round4(node.lon))
            do {
                let answer = try forecaster.forecast(point, request: ForecastRequest(times: [time], variables: [.temperature2m]))
                XCTAssertEqual(answer.provenance.domain, domain, file: file, line: line)
                XCTAssertEqual(answer.provenance.gridI, Double(node.i), accuracy: 0.1, "node \(node)", file: file, line: line)
                XCTAssertEqual(answer.provenance.gridJ, Double(node.j), accuracy: 0.1, "node \(node)", file: file, line: line)
                XCTAssertFalse(answer.values[.temperature2m]?.first?.isNaN ?? true, file: file, line: line)
            } catch {
                refused.append("(\(node.i), \(node.j)) \(point.latitude), \(point.longitude)")
            }
        }
        XCTAssertEqual(refused.count, 0, "\(refused.count) of \(nodes.count) edge nodes refused, e.g. \(refused.prefix(4))", file: file, line: line)
    }

    func testEveryEdgeNodeOfSampleGridsD01AtFourDecimalsIsAnswered() throws {
        try checkEdgeNodes(d01, westEast: 43, southNorth: 68, domain: "d01")
    }

    func testEveryEdgeNodeOfTheSharedAllVariablesSampleIsAnswered() throws {
        try checkEdgeNodes(try Repository.sharedSample("wrf_d01_allvars_cropped.nc"), westEast: 10, southNorth: 8, domain: "d01")
    }

    /// The tolerance is 0.01 cell: a place 0.005 cell outside is clamped onto the edge, one
    /// 0.05 cell outside is refused.
    func testTheEdgeToleranceIsOneHundredthOfACell() throws {
        let store = try store([d01])
        let grid = try XCTUnwrap(store.domains.first?.grid)
        let time = try XCTUnwrap(store.runTimes.first)
        let forecaster = PointForecaster(store: store)
        let request = ForecastRequest(times: [time], variables: [.temperature2m])
        let near = grid.point(at: GridPosition(i: -0.005, j: 30))
        let clamped = try forecaster.forecast(QueryPoint(latitude: near.latitude, longitude: near.longitude), request: request)
        XCTAssertEqual(clamped.provenance.gridI, 0)
        let far = grid.point(at: GridPosition(i: 20, j: 67.05))
        XCTAssertThrowsError(try forecaster.forecast(QueryPoint(latitude: far.latitude, longitude: far.longitude), request: request)) { error in
            guard case QueryError.outsideDomains = error else { return XCTFail("\(error)") }
        }
    }

    /// d02 on its own (its metadata says it is a nest of d01, which the cycle does not hold):
    /// no margin, every edge node answered with the default margin of 5 cells.
    func testANestAloneInItsCycleHasNoMargin() throws {
        let folder = directory.path("input")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let copy = folder + "/wrfout_d02_2026-11-22_00:00:00"
        try FileManager.default.copyItem(atPath: d02, toPath: copy)
        let store = try store([folder])
        XCTAssertEqual(store.domains.map(\.name), ["d02"])
        XCTAssertEqual(store.domains.first?.margin, 0)
        try checkEdgeNodes(copy, westEast: 66, southNorth: 66, domain: "d02")
    }

    /// With d01 around it, d02 keeps its 5-cell margin: 3 cells in is d01's, 10 cells in d02's.
    func testANestWithItsParentKeepsTheMargin() throws {
        let store = try store([d01, d02])
        XCTAssertEqual(store.domains.map(\.name), ["d02", "d01"])
        let nest = try XCTUnwrap(store.domains.first)
        XCTAssertEqual(nest.margin, 5)
        XCTAssertEqual(store.domains.last?.margin, 0)
        // With --nest-margin 0 the nest still gets no edge tolerance: just outside its edge
        // is the parent's.
        let noMargin = try ForecastStore(root: directory.path("store"), model: "wrf", nestMargin: 0)
        let outside = nest.grid.point(at: GridPosition(i: -0.005, j: 33))
        let answer = try PointForecaster(store: noMargin).forecast(QueryPoint(latitude: outside.latitude, longitude: outside.longitude),
                                                                   request: ForecastRequest(times: [try XCTUnwrap(store.runTimes.first)], variables: [.temperature2m]))
        XCTAssertEqual(answer.provenance.domain, "d01")
        let forecaster = PointForecaster(store: store)
        let time = try XCTUnwrap(store.runTimes.first)
        let request = ForecastRequest(times: [time], variables: [.temperature2m])
        for (i, expected) in [(3.0, "d01"), (10.0, "d02")] {
            let p = nest.grid.point(at: GridPosition(i: i, j: 33))
            let answer = try forecaster.forecast(QueryPoint(latitude: p.latitude, longitude: p.longitude), request: request)
            XCTAssertEqual(answer.provenance.domain, expected, "i = \(i)")
        }
    }

    /// Metadata that loops (d01 says its parent is d02, d02 says d01): the margin follows the
    /// geometry, so d01 (the coarser, around d02) keeps its edge and d02 its margin.
    func testParentLoopsInMetadataDoNotStripTheOutermostEdge() throws {
        let parent = try ProjectedGrid(parameters: SyntheticStore.projection, westEast: 30, southNorth: 30,
                                       southWestCorner: GeoPoint(latitude: 37.5, longitude: -10.5))
        let origin = parent.point(at: GridPosition(i: 10, j: 10))
        let d01 = SyntheticDomain(id: 1, parent: 2, westEast: 30, southNorth: 30, dx: 9000, southWestCorner: parent.southWestCorner,
                                  times: SyntheticStore.hourly(3), variables: [.temperature2m]) { _, _, _, _ in 1 }
        let d02 = SyntheticDomain(id: 2, parent: 1, westEast: 33, southNorth: 33, dx: 3000, southWestCorner: origin,
                                  times: SyntheticStore.hourly(3), variables: [.temperature2m]) { _, _, _, _ in 2 }
        try SyntheticStore.write([d01, d02], to: directory.path("loop"))
        let store = try ForecastStore(root: directory.path("loop"))
        XCTAssertEqual(store.domains.map(\.name), ["d02", "d01"])
        XCTAssertEqual(store.domains.map(\.margin), [5, 0])
        let corner = parent.point(at: GridPosition(i: 0, j: 29))
        let answer = try PointForecaster(store: store).forecast(QueryPoint(latitude: corner.latitude, longitude: corner.longitude),
                                                                request: ForecastRequest(times: [SyntheticStore.cycle], variables: [.temperature2m]))
        XCTAssertEqual(answer.provenance.domain, "d01")
    }
}
