import Foundation
import GridGeometry
import TestSupport
import XCTest

/// position(of: point(at: p)) == p, and the longitude conventions, over seeded random positions.
final class RoundTripTests: XCTestCase {
    /// Every fixture grid plus a few shapes the fixtures do not have (a Lambert across the
    /// dateline, a lat-lon across the dateline, a polar grid around the pole).
    private func grids() throws -> [(String, ProjectedGrid)] {
        var grids: [(String, ProjectedGrid)] = try ProjectionFixture.caseNames.map { ($0, try ProjectionFixture.load($0).grid()) }
        let lambertDateline = ProjectionParameters(kind: .lambertConformal, trueLatitude1: 45, trueLatitude2: 60,
                                                   standardLongitude: 180, dx: 12000)
        grids.append(("lambert_dateline", try ProjectedGrid(parameters: lambertDateline, westEast: 60, southNorth: 40,
                                                            southWestCorner: GeoPoint(latitude: 50, longitude: 176))))
        let latLonDateline = ProjectionParameters(kind: .latLon, dx: 0.5 * 2 * Double.pi * 6_370_000 / 360)
        grids.append(("latlon_dateline", try ProjectedGrid(parameters: latLonDateline, westEast: 40, southNorth: 20,
                                                           southWestCorner: GeoPoint(latitude: -20, longitude: 170))))
        let polarCap = ProjectionParameters(kind: .polarStereographic, trueLatitude1: 60, standardLongitude: 0, dx: 50000)
        grids.append(("polar_cap", try ProjectedGrid(parameters: polarCap, westEast: 41, southNorth: 41,
                                                     southWestCorner: GeoPoint(latitude: 73, longitude: -135))))
        return grids
    }

    func testPositionOfPointAtIsIdentity() throws {
        var rng = SeededGenerator(seed: 0x5EED_0001)
        for (name, grid) in try grids() {
            var worst = 0.0
            for _ in 0..<2000 {
                let p = GridPosition(i: Double.random(in: -10...Double(grid.westEast + 9), using: &rng),
                                     j: Double.random(in: -10...Double(grid.southNorth + 9), using: &rng))
                let back = grid.position(of: grid.point(at: p))
                let error = max(abs(back.i - p.i), abs(back.j - p.j))
                worst = max(worst, error)
                XCTAssertLessThan(error, 1e-9, "\(name): \(p) came back as \(back)")
            }
            print(String(format: "round trip %@: worst %.2e cell", name, worst))
        }
    }

    func testPointAtPositionOfIsIdentity() throws {
        var rng = SeededGenerator(seed: 0x5EED_0002)
        for (name, grid) in try grids() {
            for _ in 0..<500 {
                // Points drawn from the grid's own area, so they are places the projection can show.
                let inside = GridPosition(i: Double.random(in: 0...Double(grid.westEast - 1), using: &rng),
                                          j: Double.random(in: 0...Double(grid.southNorth - 1), using: &rng))
                let point = grid.point(at: inside)
                let again = grid.point(at: grid.position(of: point))
                XCTAssertEqual(again.latitude, point.latitude, accuracy: 1e-9, name)
                XCTAssertLessThan(longitudeDifference(again.longitude, point.longitude), 1e-9, name)
            }
        }
    }

    func testLongitudeConventionsAgree() throws {
        var rng = SeededGenerator(seed: 0x5EED_0003)
        for (name, grid) in try grids() {
            for _ in 0..<300 {
                let p = grid.point(at: GridPosition(i: Double.random(in: 0...Double(grid.westEast - 1), using: &rng),
                                                    j: Double.random(in: 0...Double(grid.southNorth - 1), using: &rng)))
                let reference = grid.position(of: p)
                let east = p.longitude < 0 ? p.longitude + 360 : p.longitude  // 0..360
                for longitude in [east, east - 360, p.longitude + 720] {
                    let other = grid.position(of: GeoPoint(latitude: p.latitude, longitude: longitude))
                    XCTAssertEqual(other.i, reference.i, accuracy: 1e-9, "\(name) at longitude \(longitude)")
                    XCTAssertEqual(other.j, reference.j, accuracy: 1e-9, "\(name) at longitude \(longitude)")
                }
            }
        }
    }

    func testPositionsAreContinuousAcrossTheDateline() throws {
        for (name, grid) in try grids() where name.hasSuffix("dateline") {
            // Walk eastwards along the middle row's latitude through 180 degrees in both conventions.
            let middle = grid.point(at: GridPosition(i: Double(grid.westEast - 1) / 2, j: Double(grid.southNorth - 1) / 2))
            var previousI = -Double.infinity
            for step in -20...20 {
                let longitude = 180 + Double(step) * 0.025
                let east = grid.position(of: GeoPoint(latitude: middle.latitude, longitude: longitude))
                let signed = grid.position(of: GeoPoint(latitude: middle.latitude, longitude: normalized(longitude)))
                XCTAssertTrue(grid.contains(east), "\(name): \(longitude) falls outside at \(east)")
                XCTAssertEqual(east.i, signed.i, accuracy: 1e-9, "\(name) at \(longitude)")
                XCTAssertEqual(east.j, signed.j, accuracy: 1e-9, "\(name) at \(longitude)")
                XCTAssertGreaterThan(east.i, previousI, "\(name): i must grow eastwards across 180")
                if previousI.isFinite { XCTAssertLessThan(east.i - previousI, 1, "\(name): i jumps at \(longitude)") }
                previousI = east.i
            }
        }
    }

    func testLatLonCellsAreDXConvertedAsWRFDoes() throws {
        // WRF: loninc = DX * 360 / (2 pi R), with DX in metres; a 0.25 degree grid has DX = 27,794.37 m.
        let dx = 0.25 * 2 * Double.pi * 6_370_000 / 360
        XCTAssertEqual(dx, 27794.37, accuracy: 0.01)
        let parameters = ProjectionParameters(kind: .latLon, dx: dx)
        XCTAssertEqual(parameters.longitudeIncrement, 0.25, accuracy: 1e-12)
        let grid = try ProjectedGrid(parameters: parameters, westEast: 10, southNorth: 10,
                                     southWestCorner: GeoPoint(latitude: 40, longitude: -9))
        let position = grid.position(of: GeoPoint(latitude: 41, longitude: -8.25))
        XCTAssertEqual(position.i, 3, accuracy: 1e-9)
        XCTAssertEqual(position.j, 4, accuracy: 1e-9)
    }

    private func normalized(_ longitude: Double) -> Double {
        longitude > 180 ? longitude - 360 : longitude
    }
}
