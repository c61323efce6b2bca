import Foundation
import Catalog
import GridGeometry
import ModelIngest
import NetCDF
import TestSupport
import XCTest

/// Ingest on the real WRF samples: projections, rotation, moving and inconsistent grids.
final class SharedSampleTests: XCTestCase {
    private func source(_ name: String) throws -> SourceFile {
        try SourceFile(path: Repository.sharedSample(name), profile: ModelProfile.load("wrf"))
    }

    /// Projects every stored XLAT/XLONG of one frame with a grid anchored at that frame's own
    /// south-west point; returns the worst distance from the integer index, in cells.
    private func worstRoundTrip(_ file: SourceFile, frame: Int) throws -> Double {
        let netcdf = try NetCDFFile(path: file.path)
        let latitude = try netcdf.variable("XLAT"), longitude = try netcdf.variable("XLONG")
        let sn = file.southNorth, we = file.westEast
        let start = latitude.shape.count == 3 ? [frame, 0, 0] : [0, 0]
        let count = latitude.shape.count == 3 ? [1, sn, we] : [sn, we]
        let lat = try latitude.readFloats(start: start, count: count)
        let lon = try longitude.readFloats(start: start, count: count)
        let grid = try ProjectedGrid(parameters: file.projection, westEast: we, southNorth: sn,
                                     southWestCorner: GeoPoint(latitude: Double(lat[0]), longitude: Double(lon[0])))
        var worst = 0.0
        for j in 0..<sn {
            for i in 0..<we {
                let p = grid.position(of: GeoPoint(latitude: Double(lat[j * we + i]), longitude: Double(lon[j * we + i])))
                worst = max(worst, abs(p.i - Double(i)), abs(p.j - Double(j)))
            }
        }
        return worst
    }

    func testProjectionRoundTripOnEverySharedSample() throws {
        var report: [String] = []
        for name in ["wrf_d01_allvars_cropped.nc", "wrf_cropped.nc", "ci_test_file.nc"] {
            let file = try source(name)
            // wrf_cropped.nc: frame 0 only (its later frames are inconsistent); the moving
            // nest: every frame, each anchored at its own corner.
            let frames = name == "ci_test_file.nc" ? Array(0..<file.times.count) : [0]
            for frame in frames {
                let worst = try worstRoundTrip(file, frame: frame)
                report.append("\(name)[\(frame)]: \(String(format: "%.5f", worst)) cells")
                XCTAssertLessThan(worst, 0.001, "\(name) frame \(frame)")
            }
            XCTAssertLessThan(file.projectionRoundTripCells, 0.001, name)
        }
        print("projection round trip, worst per file/frame: " + report.joined(separator: "; "))
    }

    func testMovingNestIsDetectedAndPlacedByWholeCells() throws {
        let file = try source("ci_test_file.nc")
        guard case .moving(let shift, let frame) = file.coordinates else {
            return XCTFail("ci_test_file.nc is a moving nest, got \(file.coordinates)")
        }
        XCTAssertGreaterThan(shift, 0.05)
        XCTAssertEqual(frame, 1)
        // Each frame's corner lies a whole number of cells from the first frame's: where WRF
        // moved the nest, by whole parent cells (3 nest cells).
        let origin = try file.grid
        for corner in file.frameCorners {
            let position = origin.position(of: corner)
            XCTAssertEqual(position.i, position.i.rounded(), accuracy: 0.01)
            XCTAssertEqual(position.j, position.j.rounded(), accuracy: 0.01)
            XCTAssertEqual(Int(position.i.rounded()) % 3, 0, "moves by whole parent cells")
        }
        let run = try ModelRun.read(paths: [file.path])
        XCTAssertEqual(run.domains.first?.motion?.offsets.count, 4)
    }

    func testInconsistentCoordinatesAreReportedAndFrameZeroUsed() throws {
        let file = try source("wrf_cropped.nc")
        guard case .inconsistent(let difference, let frames, let cells) = file.coordinates else {
            return XCTFail("wrf_cropped.nc has inconsistent later frames, got \(file.coordinates)")
        }
        XCTAssertEqual(frames, [1, 2, 3])
        XCTAssertGreaterThan(cells, 0)
        XCTAssertEqual(difference, 0.022, accuracy: 0.002)
        let run = try ModelRun.read(paths: [file.path])
        XCTAssertTrue(run.warnings.contains { $0.kind == .inconsistentCoordinates })
        XCTAssertEqual(run.domains[0].grid.southWestCorner.latitude, file.southWestCorner.latitude)
    }

    /// The rotation the projection gives matches the COSALPHA/SINALPHA WRF stored.
    func testRotationFromProjectionMatchesStoredCosAlphaSinAlpha() throws {
        let path = try Repository.sharedSample("wrf_d01_allvars_cropped.nc")
        let file = try source("wrf_d01_allvars_cropped.nc")
        let netcdf = try NetCDFFile(path: path)
        let cos = try netcdf.variable("COSALPHA").readFloats(), sin = try netcdf.variable("SINALPHA").readFloats()
        let lat = try netcdf.variable("XLAT").readFloats(), lon = try netcdf.variable("XLONG").readFloats()
        let grid = try file.grid
        var worst = 0.0
        for cell in cos.indices {
            let rotation = grid.windRotation(at: GeoPoint(latitude: Double(lat[cell]), longitude: Double(lon[cell])))
            worst = max(worst, abs(rotation.cosAlpha - Double(cos[cell])), abs(rotation.sinAlpha - Double(sin[cell])))
        }
        XCTAssertLessThan(worst, 1e-4)
    }

    func testRunOfTheAllVariablesSampleProvidesTheWholeCatalog() throws {
        let run = try ModelRun.read(paths: [Repository.sharedSample("wrf_d01_allvars_cropped.nc")])
        XCTAssertEqual(run.domains.count, 1)
        let domain = run.domains[0]
        XCTAssertEqual(domain.variables.missing.filter { !$0.0.isOptional }.count, 0, "\(domain.variables.missing)")
        // Issue 11: it has UST, SNOWH and Noah's soil layers, but no SWDDIR, SWDDIF or CAPE (issue
        // 28: cape then comes from its 3-D fields, the surface-based parcel's).
        // Nor SWDDNI, SWDNBC, LPI or ZNT (issue 28's optional pass-through fields).
        XCTAssertEqual(domain.variables.missing.map(\.0), [.directRadiation, .diffuseRadiation, .directNormalIrradiance,
                                                           .shortwaveRadiationClearSky, .lightningPotential, .roughnessLength])
        XCTAssertEqual(domain.times.count, 4)
        XCTAssertEqual(domain.step, 3 * 3600)
        // A restart-style file: the first frame (00Z) is 12 h after the simulation start.
        XCTAssertEqual(run.simulationStart, ModelTime.parseWRF("2005-09-20_12:00:00"))
        var reader = try FrameReader(domain: domain)
        var frames = 0
        while let frame = try reader.nextFrame() {
            let precipitation = try XCTUnwrap(frame.values[.precipitation])
            if frames == 0 {
                XCTAssertTrue(precipitation.allSatisfy(\.isNaN), "restart output: the first interval is unknown")
            } else {
                XCTAssertTrue(precipitation.allSatisfy { $0 >= 0 }, "precipitation is never negative")
            }
            let rh = try XCTUnwrap(frame.values[.relativeHumidity2m])
            XCTAssertTrue(rh.allSatisfy { (0...100).contains($0) })
            let td = try XCTUnwrap(frame.values[.dewPoint2m]), t = try XCTUnwrap(frame.values[.temperature2m])
            XCTAssertTrue(zip(td, t).allSatisfy { $0 <= $1 + 0.01 }, "dew point never above temperature")
            frames += 1
        }
        XCTAssertEqual(frames, 4)
    }
}
