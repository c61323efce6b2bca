import Extraction
import Foundation
import TileStore
import TestSupport
import XCTest

/// Regression tests from the fault suite (Scripts/faults, issue 7).
final class CrashLeftoverTests: XCTestCase {
    private var baseline: String { Repository.sampleGrids.appendingPathComponent("edge-cases/baseline.nc").path }

    /// An extraction killed between creating a link's temporary ("<cycle>.new-PID" or
    /// "latest.new-PID") and renaming it over the link leaves that temporary behind. Found by
    /// `Scripts/faults` (SIGKILL injected at the second rename): the stray link counted as
    /// naming its data folder, so neither was ever removed and every such crash leaked a whole
    /// cycle's files. The next extraction (holding the lock) now removes both.
    func testNextExtractionRemovesStrayLinkTemporariesAndTheFoldersTheyKeptAlive() throws {
        let directory = try TemporaryDirectory()
        let store = directory.path("store")
        var extractor = Extractor(inputs: [baseline], store: store)
        extractor.model = "wrf"
        _ = try extractor.run()
        let modelFolder = store + "/wrf"
        let fm = FileManager.default

        // What a writer killed inside CycleWriter.switchLink leaves: its renamed (complete)
        // folder, named only by the temporary link, and possibly a temporary for latest.
        let leaked = modelFolder + "/.data/2026-11-22T06Z.1795316809178-99999"
        try fm.createDirectory(atPath: leaked, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: URL(fileURLWithPath: leaked + "/d01.tcs"))
        try fm.createSymbolicLink(atPath: modelFolder + "/2026-11-22T06Z.new-99999", withDestinationPath: ".data/2026-11-22T06Z.1795316809178-99999")
        try fm.createSymbolicLink(atPath: modelFolder + "/latest.new-99998", withDestinationPath: "2026-11-22T00Z")

        _ = try extractor.run()

        let entries = try fm.contentsOfDirectory(atPath: modelFolder).sorted()
        XCTAssertEqual(entries, [".data", "2026-11-22T00Z", "latest"], "stray temporaries must be gone")
        XCTAssertFalse(fm.fileExists(atPath: leaked), "the folder only a stray temporary named must be removed")
        let data = try fm.contentsOfDirectory(atPath: modelFolder + "/.data")
        XCTAssertEqual(data.count, 1, "only the published cycle's folder remains: \(data)")
        XCTAssertEqual(CycleStore.latest(root: store, model: "wrf")?.name, "2026-11-22T00Z")
        let (_, folder) = try CycleStore.resolve(root: store, model: "wrf")
        XCTAssertNoThrow(try DomainFileReader(path: folder + "/d01.tcs").verifyAll())
    }
}
