import Foundation
import GridGeometry
import XCTest

/// Cross-checks against an independent implementation: PROJ (through pyproj) placed every mass
/// point of a small grid per case; see Scripts/make_projection_fixtures.py.
final class ProjectionFixtureTests: XCTestCase {
    func testEveryCaseIsPresent() throws {
        for name in ProjectionFixture.caseNames {
            let fixture = try ProjectionFixture.load(name)
            XCTAssertEqual(fixture.name, name)
            XCTAssertEqual(fixture.nodes.first?.i, 0)
            XCTAssertEqual(fixture.nodes.first?.j, 0)
        }
    }

    func testFixtureLatLonProjectToTheirIndices() throws {
        for name in ProjectionFixture.caseNames {
            let fixture = try ProjectionFixture.load(name)
            let grid = try fixture.grid()
            var worstCell = 0.0
            var worstDegrees = 0.0
            for node in fixture.nodes {
                let position = grid.position(of: node.point)
                let cellError = max(abs(position.i - Double(node.i)), abs(position.j - Double(node.j)))
                worstCell = max(worstCell, cellError)
                XCTAssertLessThan(cellError, 1e-4, "\(name): (\(node.i), \(node.j)) projects to (\(position.i), \(position.j))")
                XCTAssertTrue(grid.contains(position, margin: -1e-6), "\(name): node (\(node.i), \(node.j)) not contained")

                let back = grid.point(at: GridPosition(i: Double(node.i), j: Double(node.j)))
                let degreeError = max(abs(back.latitude - node.point.latitude),
                                      longitudeDifference(back.longitude, node.point.longitude))
                worstDegrees = max(worstDegrees, degreeError)
                XCTAssertLessThan(degreeError, 1e-6, "\(name): (\(node.i), \(node.j)) unprojects to \(back), pyproj says \(node.point)")
                XCTAssertTrue((-180...180).contains(back.longitude), "\(name): longitude \(back.longitude) out of -180...180")
            }
            print(String(format: "fixture %@: worst position error %.2e cell, worst lat/lon error %.2e degrees (%d points)",
                         name, worstCell, worstDegrees, fixture.nodes.count))
        }
    }

    func testFixtureCasesCoverTheRequiredSituations() throws {
        let tangent = try ProjectionFixture.load("lambert_tangent").parameters
        XCTAssertEqual(tangent.trueLatitude1, tangent.trueLatitude2)
        let offCentre = try ProjectionFixture.load("lambert_offcentre")
        XCTAssertGreaterThan(abs(offCentre.southWestCorner.longitude - offCentre.parameters.standardLongitude), 15)
        XCTAssertLessThan(try ProjectionFixture.load("lambert_south").parameters.trueLatitude1, 0)
        let south = try ProjectionFixture.load("polar_south").parameters
        XCTAssertEqual(south.trueLatitude1, -60)
        XCTAssertEqual(south.standardLongitude, 140)
        let dateline = try ProjectionFixture.load("mercator_dateline")
        let longitudes = dateline.nodes.map(\.point.longitude)
        XCTAssertTrue(longitudes.contains { $0 > 179 } && longitudes.contains { $0 < -179 }, "Mercator case must cross the dateline")
        XCTAssertTrue(try ProjectionFixture.load("rotated_north").parameters.isRotatedPole)
        XCTAssertTrue(try ProjectionFixture.load("rotated_south").parameters.isRotatedPole)
        XCTAssertFalse(try ProjectionFixture.load("latlon_regular").parameters.isRotatedPole)
    }

    func testFixtureLongitudesIn0To360GiveTheSamePositions() throws {
        for name in ProjectionFixture.caseNames {
            let fixture = try ProjectionFixture.load(name)
            let grid = try fixture.grid()
            for node in fixture.nodes where node.point.longitude < 0 {
                let shifted = GeoPoint(latitude: node.point.latitude, longitude: node.point.longitude + 360)
                let a = grid.position(of: node.point)
                let b = grid.position(of: shifted)
                XCTAssertEqual(a.i, b.i, accuracy: 1e-9, name)
                XCTAssertEqual(a.j, b.j, accuracy: 1e-9, name)
            }
        }
    }
}
