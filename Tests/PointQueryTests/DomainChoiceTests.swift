import Catalog
import GridGeometry
import PointQuery
import TestSupport
import XCTest

/// The finest domain whose interior holds the place and the times wins; the nest's margin and
/// times only d01 covers fall back to d01.
final class DomainChoiceTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var parent: ProjectedGrid!
    private var nest: ProjectedGrid!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        parent = try ProjectedGrid(parameters: SyntheticStore.projection, westEast: 30, southNorth: 30,
                                   southWestCorner: GeoPoint(latitude: 37.5, longitude: -10.5))
        // The nest: 3 km cells, 33 x 33, its origin at parent position (10, 10).
        var nestParameters = SyntheticStore.projection
        nestParameters.dx = 3000
        nestParameters.dy = 3000
        let origin = parent.point(at: GridPosition(i: 10, j: 10))
        nest = try ProjectedGrid(parameters: nestParameters, westEast: 33, southNorth: 33, southWestCorner: origin)
        let d01 = SyntheticDomain(id: 1, parent: nil, westEast: 30, southNorth: 30, dx: 9000,
                                  southWestCorner: parent.southWestCorner, times: SyntheticStore.hourly(49),
                                  variables: [.temperature2m]) { _, _, _, _ in 1 }
        let d02 = SyntheticDomain(id: 2, parent: 1, westEast: 33, southNorth: 33, dx: 3000,
                                  southWestCorner: origin, times: SyntheticStore.hourly(25),
                                  variables: [.temperature2m]) { _, _, _, _ in 2 }
        try SyntheticStore.write([d01, d02], to: directory.path("store"))
    }

    private func domain(at position: GridPosition, on grid: ProjectedGrid, hours: [Int] = [0, 24]) throws -> String {
        let store = try ForecastStore(root: directory.path("store"))
        let point = grid.point(at: position)
        let times = hours.map { SyntheticStore.cycle + Int64($0) * 3600 }
        let forecast = try PointForecaster(store: store).forecast(QueryPoint(latitude: point.latitude, longitude: point.longitude),
                                                                  request: ForecastRequest(times: times, variables: [.temperature2m]))
        XCTAssertEqual(forecast.values[.temperature2m]?.first ?? .nan, forecast.provenance.domain == "d02" ? 2 : 1, accuracy: 1e-5)
        return forecast.provenance.domain
    }

    func testInteriorOfTheNestUsesTheNest() throws {
        XCTAssertEqual(try domain(at: GridPosition(i: 16, j: 16), on: nest), "d02")
        XCTAssertEqual(try domain(at: GridPosition(i: 5.01, j: 26.99), on: nest), "d02")
    }

    func testTheNestsMarginAndOutsideUseTheParent() throws {
        XCTAssertEqual(try domain(at: GridPosition(i: 4.9, j: 16), on: nest), "d01", "inside the 5-cell relaxation zone")
        XCTAssertEqual(try domain(at: GridPosition(i: 16, j: 28.5), on: nest), "d01")
        XCTAssertEqual(try domain(at: GridPosition(i: 3, j: 3), on: parent), "d01")
        XCTAssertEqual(try domain(at: GridPosition(i: 29, j: 29), on: parent), "d01", "the parent's last row and column are valid")
    }

    func testTimesOnlyTheParentCoversUseTheParent() throws {
        XCTAssertEqual(try domain(at: GridPosition(i: 16, j: 16), on: nest, hours: [20, 30]), "d01")
        XCTAssertEqual(try domain(at: GridPosition(i: 16, j: 16), on: nest, hours: [48]), "d01")
    }

    func testOutsideEveryDomainListsTheExtents() throws {
        let store = try ForecastStore(root: directory.path("store"))
        XCTAssertThrowsError(try PointForecaster(store: store).forecast(QueryPoint(latitude: 50, longitude: 20), request: ForecastRequest(times: [SyntheticStore.cycle]))) { error in
            guard case QueryError.outsideDomains(_, _, let extents) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(extents.map { String($0.prefix(3)) }, ["d02", "d01"])
        }
        XCTAssertThrowsError(try PointForecaster(store: store).forecast(QueryPoint(latitude: 38.5, longitude: -9.5), request: ForecastRequest(times: [SyntheticStore.cycle + 49 * 3600]))) { error in
            guard case QueryError.outsideTimes = error else { return XCTFail("\(error)") }
        }
    }

    func testLongitudesGivenAs0To360() throws {
        let store = try ForecastStore(root: directory.path("store"))
        let point = nest.point(at: GridPosition(i: 16, j: 16))
        let request = ForecastRequest(times: [SyntheticStore.cycle], variables: [.temperature2m])
        let a = try PointForecaster(store: store).forecast(QueryPoint(latitude: point.latitude, longitude: point.longitude), request: request)
        let b = try PointForecaster(store: store).forecast(QueryPoint(latitude: point.latitude, longitude: point.longitude + 360), request: request)
        XCTAssertEqual(a.provenance, b.provenance)
        // The same numbers, not only the same cell (this test once checked provenance alone).
        XCTAssertEqual(a.values[.temperature2m], b.values[.temperature2m])
        XCTAssertFalse(a.values[.temperature2m]?.contains { $0.isNaN } ?? true, "a real value to compare")
        XCTAssertEqual(b.longitude, point.longitude + 360, accuracy: 1e-4, "the answer keeps the caller's 0..360 form")
    }

    func testConcurrentBatchEqualsSerialInOrder() throws {
        let store = try ForecastStore(root: directory.path("store"))
        let forecaster = PointForecaster(store: store)
        var generator = SeededGenerator(seed: 99)
        let points = (0..<300).map { _ -> QueryPoint in
            let p = parent.point(at: GridPosition(i: Double.random(in: -2...31, using: &generator), j: Double.random(in: 0...29, using: &generator)))
            return QueryPoint(latitude: p.latitude, longitude: p.longitude)
        }
        let request = ForecastRequest(times: SyntheticStore.hourly(3), variables: [.temperature2m])
        let batch = forecaster.forecast(points, request: request)
        for (point, result) in zip(points, batch) {
            let serial = Result { try forecaster.forecast(point, request: request) }
            switch (result, serial) {
            case (.success(let a), .success(let b)):
                XCTAssertEqual(a.provenance, b.provenance)
                XCTAssertEqual(a.values[.temperature2m], b.values[.temperature2m])
            case (.failure(let a), .failure(let b as QueryError)):
                XCTAssertEqual(a, b)
            default:
                XCTFail("batch and serial disagree at \(point)")
            }
        }
    }
}
