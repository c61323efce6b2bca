import Foundation
import GridGeometry
import TestSupport
import XCTest

/// The rotated-pole conventions of MAP_PROJ 6, as WRF's rotate_coords defines them.
final class RotatedPoleTests: XCTestCase {
    private func projection(poleLatitude: Double, poleLongitude: Double, standardLongitude: Double) throws -> LatLonProjection {
        try LatLonProjection(parameters: ProjectionParameters(kind: .latLon, standardLongitude: standardLongitude,
                                                              poleLatitude: poleLatitude, poleLongitude: poleLongitude,
                                                              dx: 12000))
    }

    func testTrueNorthPoleSitsAtPOLELATInTheComputationalGrid() throws {
        for (poleLatitude, poleLongitude, standardLongitude) in [(38.0, 180.0, -10.0), (50.0, 0.0, 30.0), (30.0, 40.0, -70.0)] {
            let p = try projection(poleLatitude: poleLatitude, poleLongitude: poleLongitude, standardLongitude: standardLongitude)
            XCTAssertEqual(p.computational(GeoPoint(latitude: 90, longitude: 0)).latitude, poleLatitude, accuracy: 1e-9)
            // ... and the computational pole at geographic (POLE_LAT, 180 - STAND_LON).
            let pole = p.geographic(GeoPoint(latitude: 90, longitude: 0))
            XCTAssertEqual(pole.latitude, poleLatitude, accuracy: 1e-9)
            XCTAssertLessThan(longitudeDifference(pole.longitude, 180 - standardLongitude), 1e-9)
        }
    }

    func testWPSRecipesPutTheReferencePointOnTheComputationalEquator() throws {
        // WPS user guide: NH pole_lat = 90 - ref_lat, pole_lon = 180, stand_lon = -ref_lon;
        // SH pole_lat = 90 + ref_lat, pole_lon = 0, stand_lon = 180 - ref_lon.
        let north = try projection(poleLatitude: 38, poleLongitude: 180, standardLongitude: -10)
        XCTAssertEqual(north.computational(GeoPoint(latitude: 52, longitude: 10)).latitude, 0, accuracy: 1e-9)
        let south = try projection(poleLatitude: 50, poleLongitude: 0, standardLongitude: 30)
        XCTAssertEqual(south.computational(GeoPoint(latitude: -40, longitude: 150)).latitude, 0, accuracy: 1e-9)
    }

    func testGridIsNorthUpInBothHemispheres() throws {
        for name in ["rotated_north", "rotated_south"] {
            let fixture = try ProjectionFixture.load(name)
            let grid = try fixture.grid()
            let middle = grid.point(at: GridPosition(i: Double(grid.westEast - 1) / 2, j: Double(grid.southNorth - 1) / 2))
            let above = grid.point(at: GridPosition(i: Double(grid.westEast - 1) / 2, j: Double(grid.southNorth - 1) / 2 + 1))
            XCTAssertGreaterThan(above.latitude, middle.latitude, "\(name): +j must point north")
        }
    }

    func testPOLELONOnlyRelabelsComputationalLongitudes() throws {
        var rng = SeededGenerator(seed: 0x5EED_0004)
        let anchor = GeoPoint(latitude: 45, longitude: 5)
        let grids = try [0.0, 40.0, 180.0].map { poleLongitude in
            try ProjectedGrid(parameters: ProjectionParameters(kind: .latLon, standardLongitude: -10, poleLatitude: 38,
                                                               poleLongitude: poleLongitude, dx: 12000),
                              westEast: 100, southNorth: 80, southWestCorner: anchor)
        }
        for _ in 0..<200 {
            let point = GeoPoint(latitude: Double.random(in: 40...60, using: &rng), longitude: Double.random(in: -5...30, using: &rng))
            let reference = grids[0].position(of: point)
            for grid in grids.dropFirst() {
                let position = grid.position(of: point)
                XCTAssertEqual(position.i, reference.i, accuracy: 1e-9)
                XCTAssertEqual(position.j, reference.j, accuracy: 1e-9)
            }
        }
    }

    func testPoleLatitudeNinetyIsTheRegularGrid() throws {
        // WRF's set_cassini/llij_cassini skip the rotation when |POLE_LAT| == 90.
        let grid = try ProjectedGrid(parameters: ProjectionParameters(kind: .latLon, standardLongitude: 40,
                                                                      poleLatitude: 90, poleLongitude: 180, dx: 11119.5),
                                     westEast: 10, southNorth: 10, southWestCorner: GeoPoint(latitude: 10, longitude: 20))
        let position = grid.position(of: GeoPoint(latitude: 12, longitude: 23))
        let increment = grid.parameters.longitudeIncrement
        XCTAssertEqual(position.i, 3 / increment, accuracy: 1e-9)
        XCTAssertEqual(position.j, 2 / increment, accuracy: 1e-9)
    }
}
