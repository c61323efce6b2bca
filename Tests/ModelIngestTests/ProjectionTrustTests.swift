import Foundation
import ModelIngest
import NetCDF
import TestSupport
import XCTest

/// Issue 16 item 5: projection attributes that contradict a file's own XLAT/XLONG are
/// refused (the round trip above half a cell), and so is a nest on another projection.
final class ProjectionTrustTests: XCTestCase {
    private var directory: TemporaryDirectory!
    override func setUpWithError() throws { directory = try TemporaryDirectory() }

    private let baseline = Fixture.edge("baseline.nc")

    /// Baseline with one attribute line replaced.
    private func baseline(replacing old: String, with new: String) throws -> String {
        let path = directory.path("wrfout_d01_2026-11-22_00:00:00")
        try rewriteCDL(baseline, to: path) { replacing($0, old, new) }
        return path
    }

    func testDXDoubledIsRefused() throws {
        let path = try baseline(replacing: ":DX = 15000.f ;", with: ":DX = 30000.f ;")
        assertRefused([path], mentioning: [path, "round trip", "DX/DY"])
    }

    func testGridThinnedTwoToOneWithDXUnchangedIsRefused() throws {
        // Coordinates 15 km apart under a DX of 7.5 km is a 2:1-thinned grid keeping the
        // fine grid's DX: the same contradiction, seen from the attributes' side.
        let path = try baseline(replacing: ":DX = 15000.f ;", with: ":DX = 7500.f ;")
        assertRefused([path], mentioning: [path, "round trip"])
    }

    func testDYAloneChangedIsRefused() throws {
        let path = try baseline(replacing: ":DY = 15000.f ;", with: ":DY = 20000.f ;")
        assertRefused([path], mentioning: [path, "round trip"])
    }

    func testStandLonOf1e30IsRefused() throws {
        let path = try baseline(replacing: ":STAND_LON = -8.f ;", with: ":STAND_LON = 1e30f ;")
        assertRefused([path], mentioning: [path, "projection"])
    }

    /// The nest-inconsistent pair with d02's `old` attribute replaced.
    private func nestPair(replacing old: String, with new: String) throws -> (folder: String, d02: String) {
        let source = Fixture.edge("nest-inconsistent")
        let d01 = directory.path("wrfout_d01_2026-11-22_00:00:00"), d02 = directory.path("wrfout_d02_2026-11-22_00:00:00")
        try FileManager.default.copyItem(atPath: source + "/wrfout_d01_2026-11-22_00:00:00", toPath: d01)
        try rewriteCDL(source + "/wrfout_d02_2026-11-22_00:00:00", to: d02) { replacing($0, old, new) }
        return (directory.url.path, d02)
    }

    func testNestWithOtherTrueLatitudesIsRefused() throws {
        // TRUELAT2 42 -> 42.5 moves a 9 x 9 nest's coordinates by far less than half a
        // cell: only the comparison with d01 can catch it.
        let (folder, d02) = try nestPair(replacing: ":TRUELAT2 = 42.f ;", with: ":TRUELAT2 = 42.5f ;")
        let alone = try SourceFile(path: d02, profile: ModelProfile.load("wrf"))
        XCTAssertLessThan(alone.projectionRoundTripCells, 0.5, "the nest alone looks consistent")
        assertRefused([folder], mentioning: [d02, "TRUELAT2", "d01"])
    }

    func testNestOnAnotherMapProjectionIsRefused() throws {
        let (folder, d02) = try nestPair(replacing: ":MAP_PROJ = 1 ;", with: ":MAP_PROJ = 3 ;")
        assertRefused([folder], mentioning: [d02, "projection"])
    }

    func testEveryRealSampleIsWellBelowTheThreshold() throws {
        var files = Repository.sampleGridFiles()
        files += (try? Repository.allSharedSamples()) ?? []
        for name in try FileManager.default.contentsOfDirectory(atPath: Fixture.edgeCases.path).sorted() where name.hasSuffix(".nc") && !name.hasPrefix("truncated") {
            files.append(Fixture.edge(name))
        }
        for path in files {
            guard let profile = try? ModelRun.detectProfile(path), let file = try? SourceFile(path: path, profile: profile) else { continue }
            XCTAssertLessThan(file.projectionRoundTripCells, 0.01, path)
        }
    }
}

extension ProjectionTrustTests {
    func testInspectingOneFileSaysTheRoundTripIsOverTheLimit() throws {
        let path = directory.path("doubled.nc")
        try rewriteCDL(Fixture.edge("baseline.nc"), to: path) { replacing($0, ":DX = 15000.f ;", ":DX = 30000.f ;") }
        let text = try RunDescription(file: SourceFile(path: path, profile: ModelProfile.load("wrf"))).text
        XCTAssertTrue(text.contains("over the 0.5-cell limit"), text)
        let fine = try RunDescription(file: SourceFile(path: Fixture.edge("baseline.nc"), profile: ModelProfile.load("wrf"))).text
        XCTAssertFalse(fine.contains("limit"), fine)
    }
}
