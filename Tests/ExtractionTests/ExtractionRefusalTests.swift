import Extraction
import Foundation
import TileStore
import TestSupport
import XCTest

/// What an extraction refuses to publish though its inputs can be read (`ExtractionError`): an
/// input inside the store's data folder, which extraction cleans up, and a re-run that would
/// silently replace a cycle with fewer domains.
final class ExtractionRefusalTests: XCTestCase {
    private var baseline: String { Repository.sampleGrids.appendingPathComponent("edge-cases/baseline.nc").path }
    private var directory: TemporaryDirectory!
    private var store: String { directory.path("store") }

    override func setUpWithError() throws { directory = try TemporaryDirectory() }
    override func tearDown() { directory = nil }

    private func extract(_ inputs: [String], allowFewerDomains: Bool = false) throws -> ExtractionSummary {
        var extractor = Extractor(inputs: inputs, store: store)
        extractor.model = "wrf"
        extractor.allowFewerDomains = allowFewerDomains
        return try extractor.run()
    }

    func testAnInputInsideWhatMayBePrunedIsRefused() throws {
        let inside = store + "/wrf/.data/my-run"
        try FileManager.default.createDirectory(atPath: inside, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: baseline, toPath: inside + "/wrfout_d01_2026-11-22_00:00:00")
        XCTAssertThrowsError(try extract([inside])) { error in
            XCTAssertTrue("\(error)".contains("inside the store"), "\(error)")
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: inside + "/wrfout_d01_2026-11-22_00:00:00"))
    }

    func testReplacingACycleWithFewerDomainsIsRefusedUnlessAllowed() throws {
        let d01 = Repository.sampleGrids.appendingPathComponent("wrfout_d01_2026-11-22_00:00:00").path
        let d02 = Repository.sampleGrids.appendingPathComponent("wrfout_d02_2026-11-22_00:00:00").path
        _ = try extract([d01, d02])
        let before = try CycleStore.resolve(root: store, model: "wrf")
        XCTAssertThrowsError(try extract([d01])) { error in
            XCTAssertTrue("\(error)".contains("d02") && "\(error)".contains("--allow-fewer-domains"), "\(error)")
        }
        XCTAssertEqual(try CycleStore.resolve(root: store, model: "wrf").folder, before.folder, "the published cycle stays")
        XCTAssertTrue(FileManager.default.fileExists(atPath: before.folder + "/d02.tcs"))
        let summary = try extract([d01], allowFewerDomains: true)
        XCTAssertEqual(summary.domains, ["d01"])
    }
}
