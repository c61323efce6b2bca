import Foundation
import GridGeometry
import XCTest

/// Bad parameters throw errors that name the parameter; bad points give NaN, never numbers.
final class ValidationTests: XCTestCase {
    private let corner = GeoPoint(latitude: 38, longitude: -10)

    private func grid(_ parameters: ProjectionParameters, westEast: Int = 10, southNorth: Int = 10,
                      corner: GeoPoint? = nil) throws -> ProjectedGrid {
        try ProjectedGrid(parameters: parameters, westEast: westEast, southNorth: southNorth,
                          southWestCorner: corner ?? self.corner)
    }

    func testLambertTrueLatitudes() throws {
        assertInvalid("TRUELAT1") { _ = try self.grid(.init(kind: .lambertConformal, trueLatitude1: 0, trueLatitude2: 40, dx: 9000)) }
        assertInvalid("TRUELAT1") { _ = try self.grid(.init(kind: .lambertConformal, trueLatitude1: 95, dx: 9000)) }
        assertInvalid("TRUELAT1") { _ = try self.grid(.init(kind: .lambertConformal, trueLatitude1: 90, dx: 9000)) }
        assertInvalid("TRUELAT1") { _ = try self.grid(.init(kind: .lambertConformal, trueLatitude1: .nan, dx: 9000)) }
        assertInvalid("TRUELAT2") { _ = try self.grid(.init(kind: .lambertConformal, trueLatitude1: 30, trueLatitude2: -40, dx: 9000)) }
        assertInvalid("TRUELAT2") { _ = try self.grid(.init(kind: .lambertConformal, trueLatitude1: 30, trueLatitude2: .infinity, dx: 9000)) }
        assertInvalid("STAND_LON") {
            _ = try self.grid(.init(kind: .lambertConformal, trueLatitude1: 30, standardLongitude: .nan, dx: 9000))
        }
    }

    func testTrueLatitude2BeyondNinetyMeansTangentAsWPSReadsIt() throws {
        // WPS map_set: IF (ABS(truelat2) > 90.) truelat2 = truelat1 (MM5 files write 91 for "unused").
        let tangent = try grid(.init(kind: .lambertConformal, trueLatitude1: 40, trueLatitude2: 40, standardLongitude: -8, dx: 9000))
        let unused = try grid(.init(kind: .lambertConformal, trueLatitude1: 40, trueLatitude2: 91, standardLongitude: -8, dx: 9000))
        let point = GeoPoint(latitude: 39, longitude: -9)
        XCTAssertEqual(tangent.position(of: point), unused.position(of: point))
    }

    func testGridSpacingAndRadius() throws {
        for bad in [0.0, -3000, .nan, .infinity] {
            assertInvalid("DX") { _ = try self.grid(.init(kind: .mercator, dx: bad, dy: 3000)) }
            assertInvalid("DY") { _ = try self.grid(.init(kind: .mercator, dx: 3000, dy: bad)) }
            assertInvalid("earthRadius") { _ = try self.grid(.init(kind: .mercator, dx: 3000, earthRadius: bad)) }
        }
    }

    func testGridSizeAndAnchor() throws {
        let mercator = ProjectionParameters(kind: .mercator, trueLatitude1: 10, dx: 3000)
        assertInvalid("westEast") { _ = try self.grid(mercator, westEast: 0) }
        assertInvalid("southNorth") { _ = try self.grid(mercator, southNorth: -3) }
        assertInvalid("southWestCorner.latitude") { _ = try self.grid(mercator, corner: GeoPoint(latitude: 91, longitude: 0)) }
        assertInvalid("southWestCorner.latitude") { _ = try self.grid(mercator, corner: GeoPoint(latitude: .nan, longitude: 0)) }
        assertInvalid("southWestCorner.longitude") { _ = try self.grid(mercator, corner: GeoPoint(latitude: 0, longitude: .infinity)) }
        assertInvalid("southWestCorner") { _ = try self.grid(mercator, corner: GeoPoint(latitude: -90, longitude: 0)) }
        let lambertNorth = ProjectionParameters(kind: .lambertConformal, trueLatitude1: 30, trueLatitude2: 60, dx: 9000)
        assertInvalid("southWestCorner") { _ = try self.grid(lambertNorth, corner: GeoPoint(latitude: -90, longitude: 0)) }
        let polarSouth = ProjectionParameters(kind: .polarStereographic, trueLatitude1: -60, dx: 9000)
        assertInvalid("southWestCorner") { _ = try self.grid(polarSouth, corner: GeoPoint(latitude: 90, longitude: 0)) }
    }

    func testOtherProjectionParameters() throws {
        assertInvalid("TRUELAT1") { _ = try self.grid(.init(kind: .mercator, trueLatitude1: 90, dx: 3000)) }
        assertInvalid("TRUELAT1") { _ = try self.grid(.init(kind: .polarStereographic, trueLatitude1: -91, dx: 3000)) }
        assertInvalid("POLE_LAT") { _ = try self.grid(.init(kind: .latLon, poleLatitude: 100, dx: 3000)) }
        assertInvalid("POLE_LON") { _ = try self.grid(.init(kind: .latLon, poleLatitude: 40, poleLongitude: .nan, dx: 3000)) }
    }

    func testUnsupportedCodes() {
        for code in [0, 4, 5, 203] {
            XCTAssertThrowsError(try ProjectionParameters(wrfMapProjection: code, trueLatitude1: 30, trueLatitude2: 60,
                                                          standardLongitude: 0, dx: 3000, dy: 3000)) {
                XCTAssertEqual($0 as? GridGeometryError, .unsupportedProjection(code))
            }
        }
        XCTAssertThrowsError(try ProjectionParameters.mm5(mapProjCode: 6, standardLatitude1: 0, standardLatitude2: 0,
                                                          standardLongitude: 0, gridSpacingKilometres: 9)) {
            XCTAssertEqual($0 as? GridGeometryError, .unsupportedProjection(6))
        }
        XCTAssertTrue(GridGeometryError.unsupportedProjection(203).description.contains("203"))
    }

    func testMM5Parameters() throws {
        let lambert = try ProjectionParameters.mm5(mapProjCode: 1, standardLatitude1: 30, standardLatitude2: 60,
                                                   standardLongitude: -8, gridSpacingKilometres: 9)
        XCTAssertEqual(lambert, ProjectionParameters(kind: .lambertConformal, trueLatitude1: 30, trueLatitude2: 60,
                                                     standardLongitude: -8, dx: 9000, dy: 9000))
        XCTAssertEqual(try ProjectionParameters.mm5(mapProjCode: 2, standardLatitude1: 60, standardLatitude2: 91,
                                                    standardLongitude: 0, gridSpacingKilometres: 45).kind, .polarStereographic)
        XCTAssertEqual(try ProjectionParameters.mm5(mapProjCode: 3, standardLatitude1: 0, standardLatitude2: 0,
                                                    standardLongitude: 0, gridSpacingKilometres: 3).dx, 3000)
        for bad in [0.0, -9, .nan] {
            XCTAssertThrowsError(try ProjectionParameters.mm5(mapProjCode: 1, standardLatitude1: 30, standardLatitude2: 60,
                                                              standardLongitude: 0, gridSpacingKilometres: bad)) {
                guard case .invalidParameters(let message)? = $0 as? GridGeometryError else { return XCTFail("\($0)") }
                XCTAssertTrue(message.contains("grid_ds"))
            }
        }
    }

    func testWRFAttributesInit() throws {
        let parameters = try ProjectionParameters(wrfMapProjection: 6, trueLatitude1: 0, trueLatitude2: 0,
                                                  standardLongitude: -10, poleLatitude: 38, poleLongitude: 180,
                                                  dx: 12229.6, dy: 12229.6)
        XCTAssertEqual(parameters.kind, .latLon)
        XCTAssertTrue(parameters.isRotatedPole)
        XCTAssertFalse(ProjectionParameters(kind: .latLon, poleLatitude: 90, poleLongitude: 180, dx: 1000).isRotatedPole)
    }

    func testBadPointsGiveNaNAndAreNotContained() throws {
        let grid = try realSampleGrid()
        for bad in [GeoPoint(latitude: .nan, longitude: 87), GeoPoint(latitude: 30, longitude: .infinity),
                    GeoPoint(latitude: 90.5, longitude: 87), GeoPoint(latitude: -90, longitude: 87)] {
            let position = grid.position(of: bad)
            XCTAssertTrue(position.i.isNaN && position.j.isNaN, "\(bad) gave \(position)")
            XCTAssertFalse(grid.contains(position))
            XCTAssertFalse(grid.contains(position, margin: -100))
        }
        assertInvalid("latitude") { _ = try grid.validatedPosition(of: GeoPoint(latitude: 91, longitude: 87)) }
        assertInvalid("longitude") { _ = try grid.validatedPosition(of: GeoPoint(latitude: 30, longitude: .nan)) }
        assertInvalid("cannot be placed") { _ = try grid.validatedPosition(of: GeoPoint(latitude: -90, longitude: 87)) }
        let point = grid.point(at: GridPosition(i: .nan, j: 2))
        XCTAssertTrue(point.latitude.isNaN && point.longitude.isNaN)
        XCTAssertEqual(try grid.validatedPosition(of: GeoPoint(latitude: 29.04805, longitude: 85.61215)).i, 0, accuracy: 1e-9)
    }

    func testContainsIncludesTheLastRowAndColumn() throws {
        let grid = try realSampleGrid()  // 10 x 8
        XCTAssertTrue(grid.contains(GridPosition(i: 0, j: 0)))
        XCTAssertTrue(grid.contains(GridPosition(i: 9, j: 7)))
        XCTAssertFalse(grid.contains(GridPosition(i: 9.000001, j: 7)))
        XCTAssertFalse(grid.contains(GridPosition(i: 4, j: -0.000001)))
        XCTAssertTrue(grid.contains(GridPosition(i: 2, j: 2), margin: 2))
        XCTAssertFalse(grid.contains(GridPosition(i: 1.99, j: 3), margin: 2))
        XCTAssertTrue(grid.contains(GridPosition(i: 7, j: 5), margin: 2))
        XCTAssertFalse(grid.contains(GridPosition(i: 7.01, j: 5), margin: 2))
        XCTAssertEqual(grid.corners.count, 4)
        XCTAssertEqual(grid.corners[0].latitude, 29.04805, accuracy: 1e-9)
    }

    func testParametersRoundTripThroughJSONWithKindAsMapProjCode() throws {
        let parameters = ProjectionParameters(kind: .polarStereographic, trueLatitude1: -60, standardLongitude: 140, dx: 25000)
        let data = try JSONEncoder().encode(parameters)
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        XCTAssertEqual(object?["kind"] as? Int, 2)
        XCTAssertEqual(try JSONDecoder().decode(ProjectionParameters.self, from: data), parameters)
    }
}
