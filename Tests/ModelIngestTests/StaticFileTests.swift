import Foundation
import ModelIngest
import TestSupport
import XCTest

/// Issue 11 C: `inspect` describes WPS geo_em files (no times, XLAT_M/XLONG_M, lower-case nest
/// attributes, HGT_M in "meters MSL") instead of failing with "no usable time axis", and says
/// plainly that they cannot be extracted. The files are written by
/// `Scripts/make_static_samples.py` with pyproj's projections, so the round trip and the nest
/// placement are checked against an independent implementation.
final class StaticFileTests: XCTestCase {
    private let folder = Repository.sampleGrids.appendingPathComponent("static")

    private func describe(_ name: String) throws -> RunDescription {
        let path = folder.appendingPathComponent(name).path
        return try RunDescription(file: SourceFile(path: path, profile: ModelRun.detectProfile(path), allowStatic: true))
    }

    func testEachGeoEmFileIsDescribedAsStatic() throws {
        let cases: [(String, String)] = [("lambert/geo_em.d01.nc", "Lambert conformal"), ("geo_em.d01.mercator.nc", "Mercator"),
                                         ("geo_em.d01.polarstereo.nc", "polar stereographic (north)")]
        for (name, projection) in cases {
            let description = try describe(name)
            let domain = try XCTUnwrap(description.domains.first)
            XCTAssertTrue(domain.projection.hasPrefix(projection), "\(name): \(domain.projection)")
            XCTAssertEqual(domain.frames, 0, name)
            XCTAssertTrue(domain.status.hasPrefix("static: no times, cannot be extracted alone"), "\(name): \(domain.status)")
            XCTAssertLessThan(domain.projectionRoundTripCells, 0.01, "\(name): pyproj's coordinates against ours")
            XCTAssertEqual(domain.provides, ["elevation"], "\(name): HGT_M in \"meters MSL\" is terrain height")
        }
    }

    func testAFolderOfGeoEmFilesGivesTheNestTreeCheckedAgainstTheCoordinates() throws {
        let descriptions = try RunDescription.describeRuns(paths: [folder.appendingPathComponent("lambert").path], profile: nil)
        let run = try XCTUnwrap(descriptions.first)
        XCTAssertEqual(run.domains.map(\.domain), ["d01", "d02"])
        let nest = run.domains[1]
        XCTAssertEqual(nest.parent, "d01", "from the lower-case parent_id geogrid writes")
        XCTAssertEqual(nest.parentGridRatio, 3)
        XCTAssertEqual(nest.parentStart ?? [], [13, 11])
        XCTAssertLessThan(try XCTUnwrap(nest.nestOffsetCells), 0.01)
        XCTAssertEqual(nest.spacingKilometres, 10, accuracy: 1e-6)
    }

    func testANestWhoseAttributesContradictItsCoordinatesIsReported() throws {
        let directory = try TemporaryDirectory()
        let lambert = folder.appendingPathComponent("lambert")
        try FileManager.default.copyItem(atPath: lambert.appendingPathComponent("geo_em.d01.nc").path, toPath: directory.path("geo_em.d01.nc"))
        let dump = try runTool("ncdump", [lambert.appendingPathComponent("geo_em.d02.nc").path])
        let moved = dump.stdout.replacingOccurrences(of: ":i_parent_start = 13 ;", with: ":i_parent_start = 15 ;")
        XCTAssertNotEqual(moved, dump.stdout)
        try makeNetCDF(cdl: moved, kind: "nc4", at: directory.path("geo_em.d02.nc"))
        let run = try XCTUnwrap(try RunDescription.describeRuns(paths: [directory.url.path], profile: nil).first)
        XCTAssertEqual(try XCTUnwrap(run.domains[1].nestOffsetCells), 2, accuracy: 0.01, "two parent cells off")
    }

    func testExtractionRefusesStaticFilesNamingTheMissingTimes() throws {
        XCTAssertThrowsError(try ModelRun.read(paths: [folder.appendingPathComponent("lambert").path])) { error in
            XCTAssertTrue("\(error)".contains("Times"), "\(error)")
        }
    }

    // MARK: met_em and wrfinput (issue 11 C)

    private let metEm = "metgrid/met_em.d01.2026-11-22_00:00:00.nc"
    private let metEmNest = "metgrid/met_em.d02.2026-11-22_00:00:00.nc"
    private let wrfinput = "real/wrfinput_d01"
    private static let metgridStatus = "WPS metgrid input (for real.exe): not model output, cannot be extracted"
    private static let initialStatus = "real.exe initial conditions (one time, no forecast): cannot be extracted"

    func testEachMetEmIsDescribedAsMetgridInputAtItsOneValidTime() throws {
        for name in [metEm, metEmNest] {
            let domain = try XCTUnwrap(try describe(name).domains.first)
            XCTAssertEqual(domain.projection, "Lambert conformal, TRUELAT1 30, TRUELAT2 35, STAND_LON 87", name)
            XCTAssertLessThan(domain.projectionRoundTripCells, 0.01, "\(name): pyproj's XLAT_M/XLONG_M against ours")
            XCTAssertEqual(domain.fileKind, "met_em", name)
            XCTAssertTrue(domain.status.hasPrefix(Self.metgridStatus), "\(name): \(domain.status)")
            XCTAssertEqual(domain.frames, 1, name)
            XCTAssertEqual(domain.firstTime, "2026-11-22T00:00:00Z", "\(name): its Times entry")
        }
        let nest = try XCTUnwrap(try describe(metEmNest).domains.first)
        XCTAssertEqual([nest.westEast, nest.southNorth], [33, 27])
        XCTAssertEqual(nest.spacingKilometres, 10, accuracy: 1e-6)
        let text = try describe(metEm).text
        XCTAssertTrue(text.contains("Valid at     2026-11-22T00:00:00Z (from Times; met_em: not a forecast frame)"), text)
        XCTAssertTrue(text.contains("Cycle          none (not model output)"), text)
        XCTAssertFalse(text.contains("Provides"), "a file that is not extracted provides nothing:\n\(text)")
    }

    func testAMetEmPairGivesTheNestTreeCheckedAgainstTheCoordinates() throws {
        let run = try XCTUnwrap(try RunDescription.describeRuns(paths: [folder.appendingPathComponent("metgrid").path], profile: nil).first)
        XCTAssertEqual(run.domains.map(\.domain), ["d01", "d02"])
        XCTAssertEqual(run.simulationStart, "2026-11-22T00:00:00Z", "metgrid's SIMULATION_START_DATE")
        let nest = run.domains[1]
        XCTAssertEqual(nest.parent, "d01", "from metgrid's lower-case parent_id")
        XCTAssertEqual(nest.parentGridRatio, 3)
        XCTAssertEqual(nest.parentStart ?? [], [13, 11])
        XCTAssertLessThan(try XCTUnwrap(nest.nestOffsetCells), 0.01, "pyproj placed d02 by the attributes")
        XCTAssertTrue(run.domains.allSatisfy { $0.status.hasPrefix(Self.metgridStatus) })
    }

    func testWrfinputIsDescribedAsInitialConditions() throws {
        let description = try describe(wrfinput)
        let domain = try XCTUnwrap(description.domains.first)
        XCTAssertEqual(domain.projection, "Lambert conformal, TRUELAT1 30, TRUELAT2 35, STAND_LON 87")
        XCTAssertEqual([domain.westEast, domain.southNorth], [40, 36])
        XCTAssertLessThan(domain.projectionRoundTripCells, 0.01, "pyproj's XLAT/XLONG against ours")
        XCTAssertEqual(domain.fileKind, "wrfinput")
        XCTAssertTrue(domain.status.hasPrefix(Self.initialStatus), domain.status)
        XCTAssertEqual(domain.frames, 1)
        XCTAssertEqual(domain.firstTime, "2026-11-22T00:00:00Z")
        XCTAssertNil(domain.parent, "PARENT_ID 0 as real.exe writes it for d01")
        XCTAssertEqual(description.cycle, "none (not model output)")
    }

    func testExtractionRefusesMetEmAndWrfinputNamingWhatTheyAre() throws {
        let cases = [(metEm, "WPS metgrid input for real.exe"), (wrfinput, "real.exe's initial conditions"),
                     ("metgrid", "WPS metgrid input for real.exe")]
        for (name, what) in cases {
            let path = folder.appendingPathComponent(name).path
            XCTAssertThrowsError(try ModelRun.read(paths: [path])) { error in
                guard case IngestError.notModelOutput(_, let said) = error else { return XCTFail("\(name): \(error)") }
                XCTAssertTrue(said.hasPrefix(what), "\(name): \(said)")
                XCTAssertTrue("\(error)".contains("not model output"), "\(error)")
            }
        }
    }

    /// A run folder holding wrfinput_d01 and met_em beside wrfout: they are passed over with a
    /// warning; read as a frame, the wrfinput (another grid, GRID_ID 1) would make d01 refused.
    func testARunFolderPassesOverMetEmAndWrfinputBesideWrfout() throws {
        let directory = try TemporaryDirectory()
        let baseline = Repository.sampleGrids.appendingPathComponent("edge-cases/baseline.nc").path
        try FileManager.default.copyItem(atPath: baseline, toPath: directory.path("wrfout_d01_2026-11-22_00:00:00"))
        try FileManager.default.copyItem(atPath: folder.appendingPathComponent(wrfinput).path, toPath: directory.path("wrfinput_d01"))
        try FileManager.default.copyItem(atPath: folder.appendingPathComponent(metEm).path, toPath: directory.path("met_em.d01.2026-11-22_00:00:00.nc"))
        let run = try ModelRun.read(paths: [directory.url.path])
        let alone = try ModelRun.read(paths: [baseline])
        XCTAssertEqual(run.domains.map(\.times), alone.domains.map(\.times))
        let skipped = run.warnings.filter { $0.kind == .skippedFile }.map(\.message)
        XCTAssertEqual(skipped.count, 2, "\(skipped)")
        XCTAssertTrue(skipped.contains { $0.contains("wrfinput_d01") && $0.contains("not model output") }, "\(skipped)")
        XCTAssertTrue(skipped.contains { $0.contains("met_em.d01") && $0.contains("not model output") }, "\(skipped)")
    }
}
