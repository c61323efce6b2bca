import Foundation
import GridGeometry
import XCTest

/// windRotation against what WRF stored, against the closed forms, and against WPS's own
/// finite-difference definition (geogrid process_tile_module.F get_rotang).
final class WindRotationTests: XCTestCase {
    /// COSALPHA, SINALPHA, XLAT, XLONG as stored by WRF in /work/shared/wrf-samples/
    /// wrf_d01_allvars_cropped.nc (`ncdump -v COSALPHA,SINALPHA,XLAT,XLONG`; values read with
    /// netCDF4 at full float32 precision). Lambert, TRUELAT1 30, TRUELAT2 35, STAND_LON 87.
    /// WRF's sign: SINALPHA > 0 west of STAND_LON, where the grid's +j axis points west of north.
    private let storedRotation: [(i: Int, j: Int, lat: Double, lon: Double, cos: Double, sin: Double)] = [
        (0, 0, 29.04805, 85.61215, 0.99991536, 0.013012418),
        (9, 0, 29.04805, 88.38785, 0.99991536, -0.013012418),
        (9, 7, 30.93666, 88.416534, 0.9999118, -0.013282031),
        (0, 7, 30.93666, 85.583466, 0.9999118, 0.013282031),
        (4, 4, 30.134823, 86.843994, 0.9999989, 0.001467021),
        (5, 3, 29.86499, 87.15558, 0.999999, -0.0014222631),
        (2, 5, 30.402332, 86.21762, 0.99997324, 0.007313716),
        (7, 6, 30.672276, 87.78467, 0.99997306, -0.007340793),
    ]

    func testLambertMatchesCOSALPHAAndSINALPHAStoredByWRF() throws {
        let grid = try realSampleGrid()
        var worst = 0.0
        for stored in storedRotation {
            let rotation = grid.windRotation(at: GeoPoint(latitude: stored.lat, longitude: stored.lon))
            worst = max(worst, abs(rotation.cosAlpha - stored.cos), abs(rotation.sinAlpha - stored.sin))
            XCTAssertEqual(rotation.cosAlpha, stored.cos, accuracy: 1e-4, "COSALPHA at (\(stored.i), \(stored.j))")
            XCTAssertEqual(rotation.sinAlpha, stored.sin, accuracy: 1e-4, "SINALPHA at (\(stored.i), \(stored.j))")
        }
        print(String(format: "wind rotation vs WRF's stored COSALPHA/SINALPHA: worst difference %.2e", worst))
    }

    func testPolarStereographicUsesConeOne() throws {
        for (truelat, hemisphere) in [(60.0, 1.0), (-60.0, -1.0)] {
            let parameters = ProjectionParameters(kind: .polarStereographic, trueLatitude1: truelat,
                                                  standardLongitude: -100, dx: 25000)
            let grid = try ProjectedGrid(parameters: parameters, westEast: 10, southNorth: 10,
                                         southWestCorner: GeoPoint(latitude: 70 * hemisphere, longitude: -110))
            let rotation = grid.windRotation(at: GeoPoint(latitude: 75 * hemisphere, longitude: -70))
            XCTAssertEqual(rotation.cosAlpha, cos(30 * Double.pi / 180), accuracy: 1e-12)
            XCTAssertEqual(rotation.sinAlpha, -hemisphere * sin(30 * Double.pi / 180), accuracy: 1e-12)
        }
    }

    func testMercatorAndRegularLatLonDoNotRotate() throws {
        for name in ["mercator_dateline", "latlon_regular"] {
            let fixture = try ProjectionFixture.load(name)
            let grid = try fixture.grid()
            for node in fixture.nodes {
                let rotation = grid.windRotation(at: node.point)
                XCTAssertEqual(rotation.cosAlpha, 1, name)
                XCTAssertEqual(rotation.sinAlpha, 0, name)
            }
        }
    }

    func testEveryProjectionAgreesWithWPSFiniteDifferences() throws {
        // WPS get_rotang: alpha = atan2(-cos(lat) * dlon, dlat) along the grid's j axis.
        for name in ProjectionFixture.caseNames {
            let grid = try ProjectionFixture.load(name).grid()
            var worst = 0.0
            for i in stride(from: 0.0, through: Double(grid.westEast - 1), by: 2.5) {
                for j in stride(from: 0.0, through: Double(grid.southNorth - 1), by: 2.5) {
                    let h = 1e-3
                    let south = grid.point(at: GridPosition(i: i, j: j - h))
                    let north = grid.point(at: GridPosition(i: i, j: j + h))
                    let here = grid.point(at: GridPosition(i: i, j: j))
                    let dLon = (north.longitude - south.longitude).remainder(dividingBy: 360) * Double.pi / 180
                    let dLat = (north.latitude - south.latitude) * Double.pi / 180
                    let alpha = atan2(-cos(here.latitude * Double.pi / 180) * dLon, dLat)
                    let rotation = grid.windRotation(at: here)
                    worst = max(worst, abs(rotation.cosAlpha - cos(alpha)), abs(rotation.sinAlpha - sin(alpha)))
                    XCTAssertEqual(rotation.cosAlpha, cos(alpha), accuracy: 1e-6, "\(name) at (\(i), \(j))")
                    XCTAssertEqual(rotation.sinAlpha, sin(alpha), accuracy: 1e-6, "\(name) at (\(i), \(j))")
                    XCTAssertEqual(rotation.cosAlpha * rotation.cosAlpha + rotation.sinAlpha * rotation.sinAlpha, 1, accuracy: 1e-12)
                }
            }
            print(String(format: "wind rotation %@: worst difference to finite differences %.2e", name, worst))
        }
    }

    func testRotatedPoleTurnsTheWindAwayFromTheCentreMeridian() throws {
        // The NH recipe (POLE_LAT 38, STAND_LON -10, centre 52N 10E): along the centre meridian
        // computational and true north coincide; east of it the grid's +j axis leans east.
        let grid = try ProjectionFixture.load("rotated_north").grid()
        let onMeridian = grid.windRotation(at: GeoPoint(latitude: 52, longitude: 10))
        XCTAssertEqual(onMeridian.sinAlpha, 0, accuracy: 1e-12)
        XCTAssertEqual(onMeridian.cosAlpha, 1, accuracy: 1e-12)
        XCTAssertLessThan(grid.windRotation(at: GeoPoint(latitude: 52, longitude: 20)).sinAlpha, 0)
        XCTAssertGreaterThan(grid.windRotation(at: GeoPoint(latitude: 52, longitude: 0)).sinAlpha, 0)
    }

    func testInvalidPointsGiveNaNNotNumbers() throws {
        let grid = try realSampleGrid()
        let rotation = grid.windRotation(at: GeoPoint(latitude: .nan, longitude: 87))
        XCTAssertTrue(rotation.cosAlpha.isNaN && rotation.sinAlpha.isNaN)
    }
}
