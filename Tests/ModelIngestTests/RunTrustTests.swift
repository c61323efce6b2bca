import Foundation
import Catalog
import ModelIngest
import NetCDF
import TestSupport
import XCTest

/// Issue 16 item 3: files of two runs are never one cycle, frames lie near their run's start,
/// and a run is filed under its own start.
final class RunTrustTests: XCTestCase {
    private var directory: TemporaryDirectory!
    override func setUpWithError() throws { directory = try TemporaryDirectory() }

    private let baseline = Fixture.edge("baseline.nc")

    /// A copy of baseline as a d02 of a run that started the day before at 12Z.
    private func staleNest() throws -> String {
        let path = directory.path("wrfout_d02_2026-11-22_00:00:00")
        try rewriteCDL(baseline, to: path) { cdl in
            replacing(replacing(cdl, ":GRID_ID = 1 ;", ":GRID_ID = 2 ;"),
                      ":SIMULATION_START_DATE = \"2026-11-22_00:00:00\"", ":SIMULATION_START_DATE = \"2026-11-21_12:00:00\"")
        }
        return path
    }

    func testTodaysD01WithYesterdaysD02IsRefusedNamingBothStarts() throws {
        let d01 = directory.path("wrfout_d01_2026-11-22_00:00:00")
        try FileManager.default.copyItem(atPath: baseline, toPath: d01)
        let d02 = try staleNest()
        assertRefused([directory.url.path], mentioning: [d01, d02, "2026-11-22T00:00Z", "2026-11-21T12:00Z", "different runs"])
        // Each file alone is fine: the refusal is about the pair.
        XCTAssertNoThrow(try ModelRun.read(paths: [d01]))
        XCTAssertNoThrow(try ModelRun.read(paths: [d02]))
    }

    func testTwoRunsOfD01AreNotStitchedIntoOneSeries() throws {
        let split = try Fixture.files(in: Fixture.edge("split"))
        XCTAssertEqual(split.count, 3)
        var inputs: [String] = []
        for (index, file) in split.enumerated() {
            let copy = directory.path((file as NSString).lastPathComponent)
            if index == 1 {
                try rewriteCDL(file, to: copy) { cdl in
                    replacing(cdl, ":SIMULATION_START_DATE = \"2026-11-22_00:00:00\"", ":SIMULATION_START_DATE = \"2026-11-21_18:00:00\"")
                }
            } else {
                try FileManager.default.copyItem(atPath: file, toPath: copy)
            }
            inputs.append(copy)
        }
        assertRefused([directory.url.path], mentioning: [inputs[1], "2026-11-21T18:00Z", "different runs"])
    }

    /// A parseable but garbled date is caught by the file's second clock (XTIME), not by a
    /// limit on how long a run may last.
    func testFramesInYear9999AreRefusedAsContradictingXTIME() throws {
        let path = directory.path("far.nc")
        try rewriteCDL(baseline, to: path) { cdl in
            replacing(cdl, "\"2026-11-22_03:00:00\" ;", "\"9999-11-22_03:00:00\" ;")
        }
        assertRefused([path], mentioning: [path, "9999-11-22T03:00:00Z", "frame 3", "XTIME says 2026-11-22T03:00:00Z", "contradict"])
    }

    func testFramesBeforeTheSimulationStartAreRefused() throws {
        let path = directory.path("early.nc")
        try rewriteCDL(baseline, to: path) { cdl in
            replacing(cdl, ":SIMULATION_START_DATE = \"2026-11-22_00:00:00\"", ":SIMULATION_START_DATE = \"2026-11-22_06:00:00\"")
        }
        assertRefused([path], mentioning: [path, "before the simulation start"])
    }

    func testFramesBeforeTheFilesOwnStartAreRefused() throws {
        let path = directory.path("before-start.nc")
        try rewriteCDL(baseline, to: path) { cdl in
            replacing(cdl, ":START_DATE = \"2026-11-22_00:00:00\"", ":START_DATE = \"2026-11-22_01:00:00\"")
        }
        assertRefused([path], mentioning: [path, "before the file's own start", "START_DATE"])
    }

    /// A restart segment 96 days into a long run, written by Scripts/make_edge_cases.py as WRF
    /// writes one. The 40-day limit this replaced refused it ("frames more than 40 days after
    /// the start are refused as damaged"), as it refused a real WRF 3.6.1 restart file.
    func testARestartSegmentOfALongRunIsOrdinaryInput() throws {
        let path = Fixture.edge("restart_long.nc")
        let run = try ModelRun.read(paths: [path])
        let simulationStart = ModelTime.seconds(year: 2026, month: 8, day: 18)
        XCTAssertEqual(run.simulationStart, simulationStart)
        XCTAssertEqual(run.restartStart, nov22(hour: 0))
        XCTAssertEqual(run.domains[0].frames.map(\.time), [nov22(hour: 1), nov22(hour: 2), nov22(hour: 3)])
        // The run by default; the segment when asked for; nothing else.
        XCTAssertEqual(try run.cycle(requested: nil), simulationStart)
        XCTAssertEqual(try run.cycle(requested: simulationStart), simulationStart)
        XCTAssertEqual(try run.cycle(requested: nov22(hour: 0)), nov22(hour: 0))
        XCTAssertThrowsError(try run.cycle(requested: nov22(hour: -24))) { error in
            XCTAssertEqual(error as? IngestError, .cycleMismatch(requested: "2026-11-21T00:00Z", stated: "2026-08-18T00:00Z",
                                                                restart: "2026-11-22T00:00Z", path: path))
        }
    }

    /// A later file of a long run that was never restarted (frames_per_outfile splits it):
    /// its frames lie 96 days after its simulation start.
    func testALaterFileOfALongRunIsOrdinaryInput() throws {
        let run = try ModelRun.read(paths: [Fixture.edge("long_run_day96.nc")])
        XCTAssertEqual(run.simulationStart, ModelTime.seconds(year: 2026, month: 8, day: 18))
        XCTAssertNil(run.restartStart)
        XCTAssertEqual(run.domains[0].frames.first?.time, nov22(hour: 0))
    }

    /// Some WRF versions counted a restart segment's XTIME from the restart, with units that
    /// name no date: that clock agrees with Times from START_DATE and is accepted.
    func testXTIMECountedFromTheRestartIsAccepted() throws {
        let path = directory.path("restart-xtime.nc")
        try rewriteCDL(Fixture.edge("restart_long.nc"), to: path) { cdl in
            var edited = replacing(cdl, "XTIME:units = \"minutes since 2026-08-18 00:00:00\" ;", "XTIME:units = \"\" ;")
            edited = replacing(edited, "XTIME:description = \"minutes since 2026-08-18 00:00:00\" ;", "XTIME:description = \"minutes since simulation start\" ;")
            return replacing(edited, "XTIME = 138300, 138360, 138420 ;", "XTIME = 60, 120, 180 ;")
        }
        let run = try ModelRun.read(paths: [path])
        XCTAssertEqual(run.domains[0].frames.map(\.time), [nov22(hour: 1), nov22(hour: 2), nov22(hour: 3)])
    }

    func testCycleMustBeTheRunsOwnStart() throws {
        let run = try ModelRun.read(paths: [baseline])
        XCTAssertEqual(try run.cycle(requested: nil), nov22(hour: 0))
        XCTAssertEqual(try run.cycle(requested: nov22(hour: 0)), nov22(hour: 0))
        XCTAssertThrowsError(try run.cycle(requested: nov22(hour: -6))) { error in
            XCTAssertEqual(error as? IngestError, .cycleMismatch(requested: "2026-11-21T18:00Z", stated: "2026-11-22T00:00Z", restart: nil, path: baseline))
        }
    }

    // MARK: item 4: a missing or unreadable nest

    /// A folder with a good d01 and a d02 that cannot be read, made by `damage`.
    private func runWithBadNest(_ damage: (String) throws -> Void) throws -> (folder: String, d02: String) {
        let d01 = directory.path("wrfout_d01_2026-11-22_00:00:00")
        try FileManager.default.copyItem(atPath: baseline, toPath: d01)
        let d02 = directory.path("wrfout_d02_2026-11-22_00:00:00")
        try damage(d02)
        return (directory.url.path, d02)
    }

    func testZeroLengthNestIsRefusedNotSkipped() throws {
        let (folder, d02) = try runWithBadNest { XCTAssertTrue(FileManager.default.createFile(atPath: $0, contents: Data())) }
        assertRefused([folder], mentioning: [d02, "named like model output"])
    }

    func testGarbageNestIsRefusedNotSkipped() throws {
        var generator = SeededGenerator(seed: 16_4)
        let bytes = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let (folder, d02) = try runWithBadNest { XCTAssertTrue(FileManager.default.createFile(atPath: $0, contents: Data(bytes))) }
        assertRefused([folder], mentioning: [d02, "named like model output"])
    }

    func testNetCDFNamedLikeOutputWithoutCoordinatesIsRefused() throws {
        let (folder, d02) = try runWithBadNest { path in
            try makeNetCDF(cdl: "netcdf x { dimensions: n = 2 ; variables: float v(n) ; data: v = 1, 2 ; }", kind: "classic", at: path)
            try FileManager.default.removeItem(atPath: path + ".cdl")
        }
        assertRefused([folder], mentioning: [d02, "missing"])
    }

    func testNotesBesideTheRunAreStillSkipped() throws {
        let (folder, _) = try runWithBadNest { _ in }   // no d02 at all: a one-domain run
        try "run notes".write(toFile: directory.path("NOTES"), atomically: true, encoding: .utf8)
        let run = try ModelRun.read(paths: [folder])
        XCTAssertEqual(run.domains.map(\.id), [1])
        XCTAssertTrue(run.warnings.contains { $0.kind == .skippedFile && $0.message.contains("NOTES") }, "\(run.warnings)")
    }

    // MARK: item 11: only regular files are opened

    func testFIFONamedLikeOutputIsRefusedWithoutOpeningIt() throws {
        let fifo = directory.path("wrfout_d01_2026-11-22_00:00:00")
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        // Should a regression open the FIFO, the open blocks until a writer comes: a rescuer
        // plays that writer (a non-blocking open for writing succeeds only while a reader
        // waits), so the test fails instead of hanging the suite.
        let rescuer = FIFORescuer(path: fifo)
        assertRefused([fifo], mentioning: [fifo, "FIFO"])
        assertRefused([directory.url.path], mentioning: [fifo, "FIFO"])
        XCTAssertFalse(rescuer.stop(), "ingest opened the FIFO and blocked until the rescuer wrote")
    }

    func testSymlinkToARegularFileIsFine() throws {
        let link = directory.path("wrfout_d01_2026-11-22_00:00:00")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: baseline)
        XCTAssertEqual(try ModelRun.read(paths: [directory.url.path]).domains.count, 1)
    }

    // MARK: item 10: a grid too large for the machine

    func testHugeDeclaredGridIsRefusedBeforeAllocating() throws {
        let path = directory.path("wrfout_d01_2026-11-22_00:00:00")
        try makeHugeDeclaredGrid(at: path)
        assertRefused([path], mentioning: [path, "200000 x 200000", "GiB"])
        // 50000 x 50000, the size the issue found, too.
        let smaller = directory.path("wrfout_d02_2026-11-22_00:00:00")
        try makeHugeDeclaredGrid(at: smaller, cells: 50_000)
        assertRefused([smaller], mentioning: [smaller, "50000 x 50000"])
    }
}

/// Unblocks anyone stuck opening a FIFO for reading, and says whether anyone was.
final class FIFORescuer: @unchecked Sendable {
    private let lock = NSLock()
    private var stopped = false
    private var rescued = false

    init(path: String) {
        Thread.detachNewThread { [self] in
            while !isStopped {
                let fd = open(path, O_WRONLY | O_NONBLOCK)
                if fd >= 0 {
                    close(fd)
                    lock.withLock { rescued = true }
                }
                usleep(100_000)
            }
        }
    }

    private var isStopped: Bool { lock.withLock { stopped } }

    /// Stops the rescuer; true when it found a blocked reader.
    func stop() -> Bool {
        lock.withLock {
            stopped = true
            return rescued
        }
    }
}
