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
}
