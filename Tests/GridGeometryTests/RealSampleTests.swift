import Foundation
import GridGeometry
import XCTest

/// The Lambert projection against a real WRF file: XLAT/XLONG of
/// /work/shared/wrf-samples/wrf_d01_allvars_cropped.nc (MAP_PROJ 1, TRUELAT1 30, TRUELAT2 35,
/// STAND_LON 87, DX = DY = 30 km; a 10 x 8 crop from the middle of a 200 x 200 domain), read with
/// `ncdump -v XLAT,XLONG` / netCDF4 at full float32 precision. The full-file round trip belongs
/// to the ingest tests.
final class RealSampleTests: XCTestCase {
    private let stored: [(i: Int, j: Int, lat: Double, lon: Double)] = [
        (0, 0, 29.04805, 85.61215),
        (9, 0, 29.04805, 88.38785),
        (9, 7, 30.93666, 88.416534),
        (0, 7, 30.93666, 85.583466),
        (4, 4, 30.134823, 86.843994),
        (5, 3, 29.86499, 87.15558),
        (2, 5, 30.402332, 86.21762),
        (7, 6, 30.672276, 87.78467),
        (3, 0, 29.05507, 86.53735),
        (6, 7, 30.94383, 87.4722),
    ]

    func testXLATXLONGProjectToTheirIndices() throws {
        let grid = try realSampleGrid()
        var worst = 0.0
        for node in stored {
            let position = grid.position(of: GeoPoint(latitude: node.lat, longitude: node.lon))
            let error = max(abs(position.i - Double(node.i)), abs(position.j - Double(node.j)))
            worst = max(worst, error)
            XCTAssertLessThan(error, 1e-3, "XLAT/XLONG[\(node.j), \(node.i)] lands at (\(position.i), \(position.j))")
        }
        print(String(format: "real sample wrf_d01_allvars_cropped.nc: worst position error %.2e cell", worst))
    }

    func testIndicesUnprojectToXLATXLONG() throws {
        let grid = try realSampleGrid()
        for node in stored {
            let point = grid.point(at: GridPosition(i: Double(node.i), j: Double(node.j)))
            // float32 storage and WRF's single-precision arithmetic: about 1e-5 degree.
            XCTAssertEqual(point.latitude, node.lat, accuracy: 5e-5)
            XCTAssertEqual(point.longitude, node.lon, accuracy: 5e-5)
        }
    }

    func testCentreOfTheUncroppedDomainIsCENLATCENLON() throws {
        // The crop keeps columns 95..104 and rows 96..103 of the 200 x 200 mass grid (the
        // symmetric XLONG about STAND_LON puts i = 4.5 on 87E); CEN_LAT 30 / CEN_LON 87 is the
        // domain's middle, at 0-based mass position (99.5, 99.5) of the full grid.
        let grid = try realSampleGrid()
        let centre = grid.position(of: GeoPoint(latitude: 30, longitude: 87))
        XCTAssertEqual(centre.i, 4.5, accuracy: 1e-3)
        XCTAssertEqual(centre.j - centre.j.rounded(.down), 0.5, accuracy: 1e-2)
    }
}
