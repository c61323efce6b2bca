import Foundation
import Catalog
import GridGeometry
import ModelIngest
import NetCDF
import TestSupport
import XCTest

/// SPEC section 8, the projections: polar stereographic south, rotated pole, tangent Lambert,
/// STAND_LON away from CEN_LON, Mercator across the dateline. Their XLAT/XLONG were made by
/// PROJ (edge-cases/README.md), so projecting them with the file's own attributes must give
/// integer grid positions.
final class EdgeCaseProjectionTests: XCTestCase {
    /// Reads the file as a run, checks the projection kind and the round trip both ways; returns
    /// the worst error in cells for the report.
    @discardableResult
    private func assertRoundTrip(_ name: String, kind: ProjectionKind, latitude: String = "XLAT", longitude: String = "XLONG",
                                 file: StaticString = #filePath, line: UInt = #line) throws -> Double {
        let run = try ModelRun.read(paths: [Fixture.edge(name)])
        let domain = try onlyDomain(run, file: file, line: line)
        XCTAssertEqual(domain.projection.kind, kind, file: file, line: line)
        XCTAssertFalse(run.warnings.contains { $0.kind == .inconsistentCoordinates }, "\(run.warnings)", file: file, line: line)
        let source = domain.files[0]
        XCTAssertLessThan(source.projectionRoundTripCells, 0.001, "\(name): SourceFile's round trip", file: file, line: line)
        let own = try ownRoundTrip(source, latitude: latitude, longitude: longitude)
        XCTAssertLessThan(own.cells, 0.001, "\(name): stored lat/lon to grid index", file: file, line: line)
        XCTAssertLessThan(own.metres, 0.001 * min(domain.projection.dx, domain.projection.dy),
                          "\(name): grid index back to the stored lat/lon", file: file, line: line)
        // The whole catalog comes out finite at frame 0 (rotation included).
        let frame = try XCTUnwrap(try readAllFrames(domain, variables: [.windU10m, .windV10m, .temperature2m]).first, file: file, line: line)
        for (variable, values) in frame.values {
            XCTAssertTrue(values.allSatisfy(\.isFinite), "\(name): \(variable.rawValue)", file: file, line: line)
        }
        print("projection round trip \(name): \(String(format: "%.6f", own.cells)) cells, \(String(format: "%.3f", own.metres)) m")
        return own.cells
    }

    func testPolarStereographicSouth() throws {
        try assertRoundTrip("polar_stereo_south.nc", kind: .polarStereographic)
        let domain = try onlyDomain(ModelRun.read(paths: [Fixture.edge("polar_stereo_south.nc")]))
        XCTAssertEqual(domain.projection.trueLatitude1, -60)
        XCTAssertEqual(domain.projection.standardLongitude, 140)
        // On the standard longitude the grid's north is true north, in the southern hemisphere too.
        let rotation = domain.grid.windRotation(at: GeoPoint(latitude: -66.7, longitude: 140))
        XCTAssertEqual(rotation.cosAlpha, 1, accuracy: 1e-9)
        XCTAssertEqual(rotation.sinAlpha, 0, accuracy: 1e-9)
    }

    func testRotatedPole() throws {
        try assertRoundTrip("rotated_pole.nc", kind: .latLon)
        let domain = try onlyDomain(ModelRun.read(paths: [Fixture.edge("rotated_pole.nc")]))
        XCTAssertEqual(domain.projection.poleLatitude, 40)
        XCTAssertEqual(domain.projection.poleLongitude, 180)
    }

    func testTangentLambert() throws {
        try assertRoundTrip("lambert_tangent.nc", kind: .lambertConformal)
        let domain = try onlyDomain(ModelRun.read(paths: [Fixture.edge("lambert_tangent.nc")]))
        XCTAssertEqual(domain.projection.trueLatitude1, 40)
        XCTAssertEqual(domain.projection.trueLatitude2, 40)
    }

    func testMercatorAcrossTheDateline() throws {
        try assertRoundTrip("mercator_dateline.nc", kind: .mercator)
        let path = Fixture.edge("mercator_dateline.nc")
        let domain = try onlyDomain(ModelRun.read(paths: [path]))
        let lon = try rawField(path, "XLONG"), lat = try rawField(path, "XLAT")
        XCTAssertTrue(lon.contains { $0 > 169 } && lon.contains { $0 < -169 }, "XLONG crosses the dateline")
        // The same place given as 179.5, -179.5 and 180.5 (0..360): one position each, inside the grid.
        let latitude = lat[3 * domain.grid.westEast + 4]
        let east = domain.grid.position(of: GeoPoint(latitude: latitude, longitude: 179.5))
        let west = domain.grid.position(of: GeoPoint(latitude: latitude, longitude: -179.5))
        let over = domain.grid.position(of: GeoPoint(latitude: latitude, longitude: 180.5))
        XCTAssertEqual(over.i, west.i, accuracy: 1e-9)
        XCTAssertEqual(over.j, west.j, accuracy: 1e-9)
        // 1 degree of longitude at 240 km cells and lat_ts -15: 111.2 km * cos(15) / 240 km.
        let cellsPerDegree = 6_370_000 * Double.pi / 180 * cos(15 * Double.pi / 180) / 240_000
        XCTAssertEqual(west.i - east.i, cellsPerDegree, accuracy: 1e-6)
        for position in [east, west] {
            XCTAssertTrue((0...Double(domain.grid.westEast - 1)).contains(position.i), "\(position)")
            XCTAssertEqual(position.j, 3, accuracy: 0.001)
        }
    }

    func testStandLonAwayFromCenLon() throws {
        try assertRoundTrip("stand_lon_offset.nc", kind: .lambertConformal)
        let path = Fixture.edge("stand_lon_offset.nc")
        let domain = try onlyDomain(ModelRun.read(paths: [path]))
        XCTAssertEqual(domain.projection.standardLongitude, -20, "STAND_LON, not CEN_LON")
        XCTAssertEqual(try NetCDFFile(path: path).attribute("CEN_LON")?.double ?? 0, -8.3, accuracy: 0.01)
        // The projection's rotation reproduces the stored COSALPHA/SINALPHA everywhere.
        let lat = try rawField(path, "XLAT"), lon = try rawField(path, "XLONG")
        let cos = try rawField(path, "COSALPHA"), sin = try rawField(path, "SINALPHA")
        for cell in cos.indices {
            let rotation = domain.grid.windRotation(at: GeoPoint(latitude: lat[cell], longitude: lon[cell]))
            XCTAssertEqual(rotation.cosAlpha, cos[cell], accuracy: 1e-5)
            XCTAssertEqual(rotation.sinAlpha, sin[cell], accuracy: 1e-5)
        }
    }

    func testBaselineAndGeoEmNaming() throws {
        try assertRoundTrip("baseline.nc", kind: .lambertConformal)
        try assertRoundTrip("geo_em_naming.nc", kind: .lambertConformal, latitude: "XLAT_M", longitude: "XLONG_M")
        try assertRoundTrip("xlat_no_time.nc", kind: .lambertConformal)
    }
}
