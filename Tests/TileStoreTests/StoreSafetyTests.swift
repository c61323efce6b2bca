import Extraction
import Foundation
import TileStore
import TestSupport
import XCTest

/// Issue 16, items 1, 2 and 9: the store never touches anything outside itself, prunes only
/// what it published, and orders cycles by time. (Extraction's own refusals, `ExtractionError`'s
/// input inside the store and cycle replaced with fewer domains, are in
/// Tests/ExtractionTests/ExtractionRefusalTests.swift.)
final class StoreSafetyTests: XCTestCase {
    private var baseline: String { Repository.sampleGrids.appendingPathComponent("edge-cases/baseline.nc").path }
    private let cycle00: Int64 = 1_795_305_600   // 2026-11-22T00Z
    private var directory: TemporaryDirectory!
    private var store: String { directory.path("store") }

    override func setUpWithError() throws { directory = try TemporaryDirectory() }
    override func tearDown() { directory = nil }

    private func extract(_ inputs: [String]? = nil, cycle: Int64? = nil, keep: Int? = nil, model: String = "wrf") throws -> ExtractionSummary {
        // A run is filed only under its own start: a later cycle is a shifted copy of baseline.
        let shift = Int(((cycle ?? cycle00) - cycle00) / 60)
        let run = shift == 0 ? baseline : try shiftedRun(baseline, byMinutes: shift, into: directory)
        var extractor = Extractor(inputs: inputs ?? [run], store: store)
        extractor.model = model
        extractor.cycle = cycle
        extractor.keep = keep
        return try extractor.run()
    }

    /// A file outside the store with known content, to check nothing touched it.
    private func victim(_ name: String) throws -> String {
        let path = directory.path(name)
        try Data("precious\n".utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func assertIntact(_ path: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }, "precious\n",
                       "\(path) outside the store must be untouched", file: file, line: line)
    }

    // MARK: item 1: symbolic links inside the store

    func testLockThatIsASymlinkIsRefusedAndItsTargetNotTruncated() throws {
        let target = try victim("victim-lock")
        try FileManager.default.createDirectory(atPath: store, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: store + "/.lock", withDestinationPath: target)
        XCTAssertThrowsError(try extract()) { error in
            XCTAssertTrue("\(error)".contains(".lock"), "the error names the lock: \(error)")
        }
        assertIntact(target)
    }

    func testDataFolderThatIsASymlinkIsRefusedAndTheFolderItNamesKeepsItsEntries() throws {
        let outside = directory.path("outside")
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        let keepMe = try victim("outside/important.txt")
        try FileManager.default.createDirectory(atPath: store + "/wrf", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: store + "/wrf/.data", withDestinationPath: outside)
        XCTAssertThrowsError(try extract()) { error in
            XCTAssertTrue("\(error)".contains(".data"), "the error names .data: \(error)")
        }
        assertIntact(keepMe)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: outside), ["important.txt"])
    }

    func testCycleLinkPointingOutsideTheStoreIsNeverFollowedWhenReplacedOrPruned() throws {
        _ = try extract(cycle: cycle00)
        let outside = directory.path("victim-folder")
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        let keepMe = try victim("victim-folder/data.txt")
        // The 00Z link replaced by one naming a folder outside, relative ("../../victim-folder").
        let link = store + "/wrf/2026-11-22T00Z"
        try FileManager.default.removeItem(atPath: link)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "../../victim-folder")
        // And an older "cycle" whose link names another outside folder, for --keep to meet.
        let outside2 = directory.path("victim-folder-2")
        try FileManager.default.createDirectory(atPath: outside2, withIntermediateDirectories: true)
        let keepMe2 = try victim("victim-folder-2/data.txt")
        try FileManager.default.createSymbolicLink(atPath: store + "/wrf/2026-11-21T00Z", withDestinationPath: outside2)

        _ = try extract(cycle: cycle00, keep: 1)                 // re-extract 00Z: replaces the link
        _ = try extract(cycle: cycle00 + 6 * 3600, keep: 1)      // and prune
        assertIntact(keepMe)
        assertIntact(keepMe2)
        XCTAssertEqual(CycleStore.latest(root: store, model: "wrf")?.name, "2026-11-22T06Z")
    }

    // MARK: item 2: --keep prunes only what the store published

    func testKeepNeverDeletesAFolderThatOnlyLooksLikeACycleEvenTheInput() throws {
        // The input run sits inside the store, in a folder named like a cycle.
        let inputFolder = store + "/wrf/2026-11-20T00Z"
        try FileManager.default.createDirectory(atPath: inputFolder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: baseline, toPath: inputFolder + "/wrfout_d01_2026-11-22_00:00:00")
        let summary = try extract([inputFolder], cycle: cycle00, keep: 1)
        XCTAssertTrue(FileManager.default.fileExists(atPath: inputFolder + "/wrfout_d01_2026-11-22_00:00:00"),
                      "the input folder must survive --keep")
        XCTAssertEqual(summary.pruned, [], "nothing the store published was old enough to prune")
        // The next run, also inside the store, published with --keep 1: the old cycle goes,
        // both input folders stay.
        let later = store + "/wrf/2026-11-20T06Z"
        try FileManager.default.createDirectory(atPath: later, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: try shiftedRun(baseline, byMinutes: 360, into: directory),
                                         toPath: later + "/wrfout_d01_2026-11-22_06:00:00")
        _ = try extract([later], cycle: cycle00 + 6 * 3600, keep: 1)
        XCTAssertTrue(FileManager.default.fileExists(atPath: inputFolder + "/wrfout_d01_2026-11-22_00:00:00"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: later + "/wrfout_d01_2026-11-22_06:00:00"))
        XCTAssertEqual(try CycleStore.cycles(root: store, model: "wrf").map(\.name), ["2026-11-22T06Z"])
    }

    // MARK: item 9 (and issue 13 bug 1): cycles sort by time, not by name

    func testSubHourCyclesSortByTimeForLatestAndKeep() throws {
        _ = try extract(cycle: cycle00 + 6 * 3600)                  // 06Z
        _ = try extract(cycle: cycle00 + 6 * 3600 + 1800)           // 06:30Z
        XCTAssertEqual(CycleStore.latest(root: store, model: "wrf")?.name, "2026-11-22T0630Z", "06:30 is newer than 06:00")
        XCTAssertEqual(try CycleStore.cycles(root: store, model: "wrf").map(\.name), ["2026-11-22T06Z", "2026-11-22T0630Z"])
        // A re-run of 06Z must not move latest back.
        _ = try extract(cycle: cycle00 + 6 * 3600)
        XCTAssertEqual(CycleStore.latest(root: store, model: "wrf")?.name, "2026-11-22T0630Z")
        // --keep 1 keeps the newest (06:30), prunes 06Z.
        let summary = try extract(cycle: cycle00 + 6 * 3600 + 1800, keep: 1)
        XCTAssertEqual(summary.pruned, ["2026-11-22T06Z"])
        _ = try extract(cycle: cycle00 + 12 * 3600, keep: 1)
        XCTAssertEqual(try CycleStore.cycles(root: store, model: "wrf").map(\.name), ["2026-11-22T12Z"])
        XCTAssertEqual(CycleStore.latest(root: store, model: "wrf")?.name, "2026-11-22T12Z")
    }
}
