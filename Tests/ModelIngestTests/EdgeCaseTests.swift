import Foundation
import Catalog
import GridGeometry
import ModelIngest
import NetCDF
import TestSupport
import XCTest

/// SPEC section 8, reading a run: one test per bad input of `SampleGrids/edge-cases`
/// (README there), each asserting the exact error or the correct handling. Split runs are in
/// EdgeCaseSplitTests, field values in EdgeCaseFieldTests, projections in EdgeCaseProjectionTests.
final class EdgeCaseTests: XCTestCase {
    private let hourly: [Int64] = (0..<4).map { nov22(hour: $0) }

    func testBaselineReadsCleanlyWithTheWholeCatalog() throws {
        let path = Fixture.edge("baseline.nc")
        let run = try ModelRun.read(paths: [path])
        XCTAssertEqual(run.warnings, [])
        XCTAssertEqual(run.profileName, "wrf")
        XCTAssertEqual(run.defaultCycle, nov22(hour: 0))
        let domain = try onlyDomain(run)
        XCTAssertEqual(domain.id, 1)
        XCTAssertEqual(domain.times, hourly)
        XCTAssertEqual(domain.step, 3600)
        // Every variable but the optional ones (issue 11: snow, soil, SWDDIR, CAPE, UST fields).
        let core = ForecastVariable.stored.filter { !$0.isOptional }.sorted()
        XCTAssertEqual(domain.variables.available, core)
        XCTAssertEqual(domain.grid.westEast, 8)
        XCTAssertEqual(domain.grid.southNorth, 6)
        let frames = try readAllFrames(domain)
        XCTAssertEqual(frames.map(\.time), hourly)
        for (index, frame) in frames.enumerated() {
            let t2 = try rawField(path, "T2", frame: index)
            let temperature = try XCTUnwrap(frame.values[.temperature2m])
            for cell in t2.indices { XCTAssertEqual(Double(temperature[cell]), t2[cell] - 273.15, accuracy: 1e-4) }
            XCTAssertEqual(frame.values.count, core.count, "every variable in frame \(index)")
        }
    }

    // MARK: - Times

    func testRestartOutputIsFiledUnderTheSimulationStart() throws {
        let run = try ModelRun.read(paths: [Fixture.edge("restart.nc")])
        XCTAssertEqual(run.simulationStart, nov22(hour: 0))
        XCTAssertEqual(run.defaultCycle, nov22(hour: 0), "cycle 2026-11-22T00Z, not the 09Z START_DATE")
        let domain = try onlyDomain(run)
        XCTAssertEqual(domain.times, (9...12).map { nov22(hour: $0) })
        let frames = try readAllFrames(domain, variables: [.precipitation])
        let first = try XCTUnwrap(frames.first?.values[.precipitation])
        XCTAssertTrue(first.allSatisfy(\.isNaN), "the 00-09Z accumulation is not rain in the 09Z hour")
        let path = Fixture.edge("restart.nc")
        let rainAt09 = try ["RAINC", "RAINNC"].map { try rawField(path, $0, frame: 0) }
        XCTAssertTrue(zip(rainAt09[0], rainAt09[1]).contains { $0 + $1 > 0 }, "the fixture starts with rain already accumulated")
        for frame in frames.dropFirst() {
            let precipitation = try XCTUnwrap(frame.values[.precipitation])
            XCTAssertTrue(precipitation.allSatisfy { $0 >= 0 }, "later intervals are known and never negative")
        }
    }

    /// Garbled Times: the times come from XTIME with its units, and a warning names Times.
    private func assertTimesFromXTIME(_ name: String, problem: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let path = Fixture.edge(name)
        let run = try ModelRun.read(paths: [path])
        let domain = try onlyDomain(run, file: file, line: line)
        XCTAssertEqual(domain.times, hourly, file: file, line: line)
        XCTAssertTrue(domain.files[0].timeSource.hasPrefix("XTIME"), domain.files[0].timeSource, file: file, line: line)
        let fallbacks = run.warnings.filter { $0.kind == .timeFallback }
        XCTAssertEqual(fallbacks.count, 1, "\(run.warnings)", file: file, line: line)
        let message = fallbacks.first?.message ?? ""
        XCTAssertTrue(message.contains(path) && message.contains("XTIME") && message.contains(problem), message, file: file, line: line)
        XCTAssertEqual(try readAllFrames(domain, variables: [.temperature2m]).map(\.time), hourly, file: file, line: line)
    }

    func testGarbledTimesFallBackToXTIME() throws {
        try assertTimesFromXTIME("times_garbled.nc", problem: "0000-00-00_00:00:00")
    }

    func testOneGarbledTimeFallsBackToXTIME() throws {
        try assertTimesFromXTIME("times_garbled_one_frame.nc", problem: "2026-13-45_99:00:00")
    }

    func testMissingTimesFallBackToXTIME() throws {
        try assertTimesFromXTIME("times_missing.nc", problem: "no Times")
    }

    func testMissingTimesAndXTIMEIsRefusedNamingTheFile() throws {
        let path = Fixture.edge("times_and_xtime_missing.nc")
        XCTAssertThrowsError(try ModelRun.read(paths: [path])) { error in
            guard case IngestError.badTimes(let file, let detail) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(file, path)
            XCTAssertTrue(detail.contains("Times") && detail.contains("XTIME"), detail)
        }
    }

    // MARK: - Coordinates

    /// A variant that differs from baseline.nc only in how coordinates are stored must give
    /// baseline's grid and every one of its numbers.
    private func assertSameAsBaseline(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let run = try ModelRun.read(paths: [Fixture.edge(name)])
        XCTAssertEqual(run.warnings, [], file: file, line: line)
        let domain = try onlyDomain(run, file: file, line: line)
        let baseline = try onlyDomain(ModelRun.read(paths: [Fixture.edge("baseline.nc")]), file: file, line: line)
        XCTAssertEqual(domain.grid.southWestCorner, baseline.grid.southWestCorner, file: file, line: line)
        XCTAssertEqual(domain.files[0].coordinates, .fixed, file: file, line: line)
        XCTAssertEqual(domain.variables, baseline.variables, file: file, line: line)
        for (index, (x, y)) in zip(try readAllFrames(domain), try readAllFrames(baseline)).enumerated() {
            for variable in ForecastVariable.stored {
                assertSameField(x.values[variable], y.values[variable], "\(name) \(variable.rawValue) frame \(index)", file: file, line: line)
            }
        }
    }

    func testGeoEmNamingIsAcceptedAsCoordinates() throws {
        let file = try SourceFile(path: Fixture.edge("geo_em_naming.nc"), profile: ModelProfile.load("wrf"))
        XCTAssertEqual(file.variables[.latitude], "XLAT_M")
        XCTAssertEqual(file.variables[.longitude], "XLONG_M")
        try assertSameAsBaseline("geo_em_naming.nc")
    }

    func testXLATWithoutTimeReadsNormally() throws {
        let path = Fixture.edge("xlat_no_time.nc")
        XCTAssertEqual(try NetCDFFile(path: path).variable("XLAT").shape, [6, 8])
        try assertSameAsBaseline("xlat_no_time.nc")
    }

    /// The moving nest (one parent cell east per hour) is placed frame by frame on the grid
    /// covering its track: 9 + 3 x 3 cells across, its own 9 down.
    func testMovingNestIsPlacedOnTheGridCoveringItsTrack() throws {
        let folder = Fixture.edge("moving-nest")
        let d02 = (folder as NSString).appendingPathComponent(Fixture.d02)
        let file = try SourceFile(path: d02, profile: ModelProfile.load("wrf"))
        guard case .moving(let shift, let frame) = file.coordinates else { return XCTFail("\(file.coordinates)") }
        XCTAssertEqual(frame, 1)
        XCTAssertGreaterThan(shift, 0.1, "one 15 km parent cell is about 0.17 degrees of longitude")
        let run = try ModelRun.read(paths: [folder])
        let nest = try XCTUnwrap(run.domains.first { $0.id == 2 })
        let motion = try XCTUnwrap(nest.motion)
        XCTAssertEqual(motion.offsets, (0..<4).map { CellOffset(i: 3 * $0, j: 0) })
        XCTAssertEqual([nest.grid.westEast, nest.grid.southNorth, motion.westEast, motion.southNorth], [18, 9, 9, 9])
        // d01 alone is a fine run.
        XCTAssertNoThrow(try ModelRun.read(paths: [(folder as NSString).appendingPathComponent(Fixture.d01)]))
    }

    func testInconsistentNestAttributesAreReportedAndTheNestPlacedByItsCoordinates() throws {
        let folder = Fixture.edge("nest-inconsistent")
        let d02Path = (folder as NSString).appendingPathComponent(Fixture.d02)
        let run = try ModelRun.read(paths: [folder])
        XCTAssertEqual(run.domains.map(\.id), [1, 2])
        let d01 = run.domains[0], d02 = run.domains[1]
        let mismatches = run.warnings.filter { $0.kind == .nestMismatch }
        XCTAssertEqual(mismatches.count, 1, "\(run.warnings)")
        let message = mismatches.first?.message ?? ""
        for needle in ["d02", "I_PARENT_START 4", "J_PARENT_START 3", d02Path] {
            XCTAssertTrue(message.contains(needle), "\(needle) in: \(message)")
        }
        // The attributes say start (4, 3); the coordinates were made for start (2, 2):
        // the nest's [0,0] mass point is at parent (2 - 1.5 + 1/6) = 0.6667 on both axes.
        let check = try XCTUnwrap(d02.nestCheck)
        XCTAssertEqual(check.expected.i, 4 - 1.5 + 1.0 / 6, accuracy: 1e-9)
        XCTAssertEqual(check.expected.j, 3 - 1.5 + 1.0 / 6, accuracy: 1e-9)
        XCTAssertEqual(check.measured.i, 2 - 1.5 + 1.0 / 6, accuracy: 0.001)
        XCTAssertEqual(check.measured.j, 2 - 1.5 + 1.0 / 6, accuracy: 0.001)
        // Placed by its own coordinates: the grid's anchor is the stored XLAT/XLONG[0,0].
        let lat = try rawField(d02Path, "XLAT"), lon = try rawField(d02Path, "XLONG")
        XCTAssertEqual(d02.grid.southWestCorner.latitude, lat[0], accuracy: 1e-6)
        XCTAssertEqual(d02.grid.southWestCorner.longitude, lon[0], accuracy: 1e-6)
        let centre = GeoPoint(latitude: lat[4 * 9 + 4], longitude: lon[4 * 9 + 4])
        let inParent = d01.grid.position(of: centre)
        XCTAssertEqual(inParent.i, 2 - 1.5 + (4 + 0.5) / 3, accuracy: 0.001)
        XCTAssertEqual(inParent.j, 2 - 1.5 + (4 + 0.5) / 3, accuracy: 0.001)
    }

    // MARK: - Damaged files

    func testTruncatedClassicFileIsRefusedAsTruncated() throws {
        let path = Fixture.edge("truncated_nc3.nc")
        XCTAssertThrowsError(try ModelRun.read(paths: [path])) { error in
            guard case IngestError.unreadable(let netcdf) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(netcdf.status, .truncated)
            XCTAssertEqual(netcdf.path, path)
        }
        // In a folder too: a damaged netCDF file is an error, never skipped quietly.
        let folder = try TemporaryDirectory("edge-truncated")
        let copy = folder.path("wrfout_d01_2026-11-22_00:00:00")
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        XCTAssertThrowsError(try ModelRun.read(paths: [folder.url.path])) { error in
            guard case IngestError.unreadable(let netcdf) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(netcdf.status, .truncated)
            XCTAssertEqual(netcdf.path, copy)
        }
    }

    /// A header libnetcdf 4.9.0 segfaults on, and one it opens though the file ends inside it:
    /// both refused by TileCast's own header check, in a run folder too.
    func testDamagedClassicHeadersAreRefusedBeforeLibnetcdf() throws {
        let refused: [(String, NetCDFStatus)] = [
            ("header_impossible_cdf5.nc", .notNetCDF), ("header_cut_nc3.nc", .truncated),
            // issue 43 item 1: libnetcdf 4.9.0 copies these names (ids) past its caller's buffer.
            ("header_long_dimension_name.nc", .notNetCDF), ("header_long_attribute_name.nc", .notNetCDF),
            ("header_long_variable_name.nc", .notNetCDF), ("header_rank_over_max.nc", .notNetCDF)]
        for (name, status) in refused {
            let folder = try TemporaryDirectory("edge-header")
            let copy = folder.path("wrfout_d01_2026-11-22_00:00:00")
            try FileManager.default.copyItem(atPath: Fixture.edge(name), toPath: copy)
            XCTAssertThrowsError(try ModelRun.read(paths: [Fixture.edge(name)]), name) { error in
                guard case IngestError.unreadable(let netcdf) = error else { return XCTFail("\(name): \(error)") }
                XCTAssertEqual(netcdf.status, status, name)
            }
            // In a folder, under a model output's name: a damaged part, never skipped.
            XCTAssertThrowsError(try ModelRun.read(paths: [folder.url.path]), name) { error in
                switch error {
                case IngestError.unreadable(let netcdf):
                    XCTAssertEqual(netcdf.status, status, name)
                    XCTAssertEqual(netcdf.path, copy, name)
                case IngestError.unreadableOutput(let path, let cause):
                    XCTAssertEqual(path, copy, name)
                    XCTAssertEqual(cause.status, status, name)
                    XCTAssertTrue(cause.description.contains("damaged"), cause.description)
                default:
                    XCTFail("\(name): \(error)")
                }
            }
        }
    }

    func testTruncatedNetCDF4FileIsRefusedAsUnreadable() throws {
        let path = Fixture.edge("truncated_nc4.nc")
        XCTAssertThrowsError(try ModelRun.read(paths: [path])) { error in
            guard case IngestError.unreadable(let netcdf) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(netcdf.path, path)
            XCTAssertTrue("\(error)".contains(path), "\(error)")
        }
    }

    func testHDF5ChecksumFailureFailsTheFrameNamingFileAndT2() throws {
        let path = Fixture.edge("hdf5_checksum_failure.nc")
        let domain: Domain
        do {
            domain = try onlyDomain(ModelRun.read(paths: [path]))
        } catch IngestError.unreadable(let netcdf) {
            // Acceptable only if libnetcdf already refuses the file when opening it.
            XCTAssertEqual(netcdf.path, path)
            return
        }
        var reader = try FrameReader(domain: domain)
        let first = try XCTUnwrap(try reader.nextFrame(), "frame 0 is undamaged")
        let t2 = try rawField(path, "T2", frame: 0)
        let temperature = try XCTUnwrap(first.values[.temperature2m])
        XCTAssertEqual(Double(temperature[0]), t2[0] - 273.15, accuracy: 1e-4)
        XCTAssertThrowsError(try reader.nextFrame(), "frame 1 fails its Fletcher-32 checksum") { error in
            guard case IngestError.unreadable(let netcdf) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(netcdf.path, path)
            XCTAssertEqual(netcdf.variable, "T2")
            XCTAssertEqual(netcdf.status, .hdfError)
        }
    }
}
