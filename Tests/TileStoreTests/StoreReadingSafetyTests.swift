import Extraction
import Foundation
@testable import TileStore
import TestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Issue 16, items 7, 11 and 12, and issue 13 bug 5: what a reader meets in a store that was
/// damaged, shrunk or tampered with is an error (exit 5), never a signal, a hang or a coarser
/// answer; I/O errors keep their errno.
final class StoreReadingSafetyTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var store: String { directory.path("store") }
    private var d01: String { Repository.sampleGrids.appendingPathComponent("wrfout_d01_2026-11-22_00:00:00").path }
    private var d02: String { Repository.sampleGrids.appendingPathComponent("wrfout_d02_2026-11-22_00:00:00").path }
    private var mm5: String { Repository.sampleGrids.appendingPathComponent("mm5_2026-11-22_00.nc").path }

    override func setUpWithError() throws { directory = try TemporaryDirectory() }
    override func tearDown() { directory = nil }

    private func extract(_ inputs: [String], model: String) throws {
        var extractor = Extractor(inputs: inputs, store: store)
        extractor.model = model
        _ = try extractor.run()
    }

    private func folder(_ model: String = "wrf") throws -> String { try CycleStore.resolve(root: store, model: model).folder }

    // MARK: item 12: a file that shrinks under a reader

    func testAFileTruncatedWhileOpenIsReportedAsDamageNotASignal() throws {
        try extract([d01], model: "wrf")
        let path = try folder() + "/d01.tcs"
        let reader = try DomainFileReader(path: path)
        let size = reader.fileSize
        // What `rsync --inplace` or a careless copy does to a file a server has open.
        XCTAssertEqual(truncate(path, off_t(size / 3)), 0)
        var errors = 0
        let variables = reader.metadata.variables.compactMap(\.variable)
        for variable in variables {
            for j in stride(from: 0, to: reader.metadata.southNorth, by: 7) {
                for i in stride(from: 0, to: reader.metadata.westEast, by: 7) {
                    do { _ = try reader.series(variable, i: i, j: j) } catch {
                        guard case .truncated = error else { return XCTFail("expected .truncated, got \(error)") }
                        errors += 1
                    }
                }
            }
        }
        XCTAssertGreaterThan(errors, 0, "blocks past the cut must be reported")
        XCTAssertThrowsError(try reader.verifyAll())
    }

    // MARK: item 11: only regular files are opened

    func testAFIFOInPlaceOfADomainFileIsRefusedWithoutHanging() throws {
        try extract([d01, d02], model: "wrf")
        let path = try folder() + "/d02.tcs"
        try FileManager.default.removeItem(atPath: path)
        XCTAssertEqual(mkfifo(path, 0o644), 0)
        let done = DispatchSemaphore(value: 0)
        let outcome = OutcomeBox()
        Thread.detachNewThread {
            do { _ = try DomainFileReader(path: path); outcome.set("opened") } catch { outcome.set("\(error)") }
            done.signal()
        }
        if done.wait(timeout: .now() + 10) == .timedOut {
            // Unblock the stuck open so the test process can go on, then fail.
            let writer = open(path, O_WRONLY | O_NONBLOCK)
            if writer >= 0 { close(writer) }
            return XCTFail("opening a FIFO hung")
        }
        XCTAssertTrue(outcome.value.contains("not a regular file"), outcome.value)
    }

    // MARK: item 7: verify checks every cycle against its manifest; queries never fall back

    func testVerifyReportsAMissingDomainFile() throws {
        try extract([d01, d02], model: "wrf")
        XCTAssertNoThrow(try StoreDescription(root: store, verify: true))
        try FileManager.default.removeItem(atPath: try folder() + "/d02.tcs")
        XCTAssertThrowsError(try StoreDescription(root: store, verify: true)) { error in
            XCTAssertTrue("\(error)".contains("d02.tcs"), "\(error)")
            XCTAssertTrue((error as? StoreError)?.isDamage ?? false, "exit 5: \(error)")
        }
        XCTAssertThrowsError(try CycleStore.openCycle(root: store, model: "wrf")) { error in
            XCTAssertTrue("\(error)".contains("d02.tcs"), "a query must not answer from d01 alone: \(error)")
        }
    }

    func testVerifyReportsAnEmptiedDataFolderAndTheModelDoesNotVanish() throws {
        try extract([d01], model: "wrf")
        try extract([mm5], model: "mm5")
        let data = store + "/wrf/.data"
        for name in try FileManager.default.contentsOfDirectory(atPath: data) {
            try FileManager.default.removeItem(atPath: data + "/" + name)
        }
        XCTAssertEqual(try CycleStore.models(root: store), ["mm5", "wrf"], "a model with a dangling latest is still a model")
        XCTAssertThrowsError(try StoreDescription(root: store, verify: true)) { error in
            XCTAssertTrue((error as? StoreError)?.isDamage ?? false, "exit 5: \(error)")
        }
    }

    func testVerifyReportsADomainFileOfAnotherModelSwappedIn() throws {
        try extract([d01], model: "wrf")
        try extract([d01], model: "other")
        try FileManager.default.removeItem(atPath: try folder("wrf") + "/d01.tcs")
        try FileManager.default.copyItem(atPath: try folder("other") + "/d01.tcs", toPath: try folder("wrf") + "/d01.tcs")
        XCTAssertThrowsError(try StoreDescription(root: store, verify: true)) { error in
            XCTAssertTrue("\(error)".contains("other"), "names the foreign model: \(error)")
        }
    }

    func testVerifyRefusesMetadataAQueryCannotUse() throws {
        // Metadata with DX = 0, times that repeat, a latitude of 100: written with valid
        // checksums, so only the sanity check can catch them.
        let cases: [(String, (inout DomainFileMetadata) -> Void)] = [
            ("DX", { $0.projection.dx = 0 }),
            ("times", { $0.times[1] = $0.times[0] }),
            ("latitude", { $0.southWestCorner.latitude = 100 }),
        ]
        for (label, damage) in cases {
            var metadata = try FormatTests.tinyMetadata()
            damage(&metadata)
            let path = directory.path("bad-\(label).tcs")
            _ = try FormatTests.tinyFile(at: path, metadata: metadata)
            XCTAssertThrowsError(try DomainFileReader(path: path), "\(label): refused at open") { error in
                XCTAssertTrue((error as? StoreError)?.isDamage ?? false, "\(label): \(error)")
            }
        }
    }

    // MARK: issue 13 bug 5: I/O errors keep errno

    func testWriteFailureKeepsErrnoAndSaysDiskFull() throws {
        // (A real full disk is Scripts/faults' tmpfs case; here the errno must survive.)
        let file = try OutputFile(path: directory.path("out.bin"))
        SystemCalls.inject(.write, errno: ENOSPC)
        defer { SystemCalls.reset() }
        XCTAssertThrowsError(try file.write([UInt8](repeating: 1, count: 4096))) { error in
            guard case .io(let failure)? = error as? StoreError else { return XCTFail("\(error)") }
            XCTAssertEqual(failure.code, ENOSPC)
            XCTAssertTrue("\(error)".contains("No space left"), "\(error)")
        }
    }

    func testPermissionDeniedIsNotReportedAsMissing() throws {
        // Root reads anything, so the injected error comes from the system-call seam.
        try extract([d01], model: "wrf")
        let path = try folder() + "/d01.tcs"
        SystemCalls.inject(.open, errno: EACCES)
        defer { SystemCalls.reset() }
        XCTAssertThrowsError(try DomainFileReader(path: path)) { error in
            guard case .io(let failure)? = error as? StoreError else { return XCTFail("\(error)") }
            XCTAssertEqual(failure.code, EACCES)
            XCTAssertTrue("\(error)".contains("Permission denied"), "\(error)")
            XCTAssertFalse("\(error)".contains("not found"), "\(error)")
        }
    }

    func testAFailedDirectorySyncFailsThePublication() throws {
        try extract([d01], model: "wrf")
        let before = try folder()
        SystemCalls.inject(.fsyncDirectory, errno: EIO)
        defer { SystemCalls.reset() }
        var extractor = Extractor(inputs: [try shiftedRun(d01, byMinutes: 360, into: directory)], store: store)
        extractor.model = "wrf"
        XCTAssertThrowsError(try extractor.run()) { error in
            guard case .io(let failure)? = error as? StoreError else { return XCTFail("\(error)") }
            XCTAssertEqual(failure.code, EIO)
        }
        SystemCalls.reset()
        XCTAssertEqual(try folder(), before, "latest unchanged")
    }

    func testPruneReportsOnlyWhatItRemoved() throws {
        var extractor = Extractor(inputs: [d01], store: store)
        extractor.model = "wrf"
        extractor.cycle = 1_795_305_600
        _ = try extractor.run()
        SystemCalls.inject(.unlink, errno: EBUSY)
        defer { SystemCalls.reset() }
        extractor.inputs = [try shiftedRun(d01, byMinutes: 360, into: directory)]
        extractor.cycle = nil
        extractor.keep = 1
        let summary = try extractor.run()
        XCTAssertEqual(summary.pruned, [], "nothing was removed, so nothing is reported pruned")
        XCTAssertTrue(summary.warnings.contains { $0.contains("2026-11-22T00Z") && $0.contains("Device or resource busy") },
                      "\(summary.warnings)")
    }
}

/// A value set from another thread.
private final class OutcomeBox: @unchecked Sendable {
    private let lock = NSLock()
    private var text = "nothing"
    func set(_ value: String) { lock.lock(); text = value; lock.unlock() }
    var value: String { lock.lock(); defer { lock.unlock() }; return text }
}
