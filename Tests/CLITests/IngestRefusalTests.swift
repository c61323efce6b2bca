import Foundation
import TestSupport
import XCTest

/// Issue 16 items 3-6, 10 and 11 end to end: input the binary must refuse with exit 3 (unusable
/// input data) and a message naming the file, publishing nothing.
final class IngestRefusalTests: XCTestCase {
    private var directory: TemporaryDirectory!
    override func setUpWithError() throws { directory = try TemporaryDirectory() }

    private var baseline: String { Repository.sampleGrids.appendingPathComponent("edge-cases/baseline.nc").path }

    /// The binary beside this test bundle (`swift build --build-tests` builds both).
    private var tilecast: String { get throws { try tilecastBinary() } }

    /// Runs tilecast under `timeout`, so a hang fails the test instead of stalling the suite
    /// (timeout's own exit status is 124).
    private func run(_ arguments: [String], seconds: Int = 60) throws -> ToolOutput {
        try runTool("timeout", ["-k", "5", String(seconds), try tilecast] + arguments)
    }

    /// Asserts exit 3 with every fragment in stderr, and that nothing was published.
    private func assertUnusable(_ result: ToolOutput, mentioning fragments: [String], store: String? = nil,
                                file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(result.status, 3, "stdout: \(result.stdout) stderr: \(result.stderr)", file: file, line: line)
        for fragment in fragments {
            XCTAssertTrue(result.stderr.contains(fragment), "\"\(fragment)\" not in: \(result.stderr)", file: file, line: line)
        }
        if let store {
            XCTAssertFalse(FileManager.default.fileExists(atPath: store + "/wrf/latest"), "nothing published", file: file, line: line)
        }
    }

    // MARK: item 3

    func testCycleThatIsNotTheRunsStartIsExit3AndPublishesNothing() throws {
        let store = directory.path("store")
        let wrong = try run(["extract", baseline, "--store", store, "--cycle", "2026-11-21T18Z", "--quiet"])
        assertUnusable(wrong, mentioning: ["2026-11-21T18:00Z", "2026-11-22T00:00Z", baseline], store: store)
        let right = try run(["extract", baseline, "--store", store, "--cycle", "2026-11-22T00Z", "--quiet"])
        XCTAssertEqual(right.status, 0, right.stderr)
        XCTAssertTrue(right.stdout.contains("wrf 2026-11-22T00Z published"), right.stdout)
    }

    /// A restart segment 96 days into a long run (Scripts/make_edge_cases.py) extracts under
    /// the run's start or, with --cycle, the segment's; inspect calls it extractable, never
    /// "static". The 40-day limit this replaced refused it with exit 3 as "damaged".
    func testARestartSegmentOfALongRunExtractsUnderEitherStart() throws {
        let restart = Repository.sampleGrids.appendingPathComponent("edge-cases/restart_long.nc").path
        let inspect = try run(["inspect", restart])
        XCTAssertEqual(inspect.status, 0, inspect.stderr)
        XCTAssertTrue(inspect.stdout.contains("extractable"), inspect.stdout)
        XCTAssertTrue(inspect.stdout.contains("a restart segment from 2026-11-22T00:00:00Z"), inspect.stdout)
        XCTAssertFalse(inspect.stdout.contains("static"), inspect.stdout)
        let store = directory.path("store")
        let byRun = try run(["extract", restart, "--store", store, "--quiet"])
        XCTAssertEqual(byRun.status, 0, byRun.stderr)
        XCTAssertTrue(byRun.stdout.contains("wrf 2026-08-18T00Z published"), byRun.stdout)
        let bySegment = try run(["extract", restart, "--store", store, "--cycle", "2026-11-22T00Z", "--quiet"])
        XCTAssertEqual(bySegment.status, 0, bySegment.stderr)
        XCTAssertTrue(bySegment.stdout.contains("wrf 2026-11-22T00Z published"), bySegment.stdout)
        let query = try run(["query", "--store", store, "--lat", "39.3", "--lon", "-8.3", "--time", "2026-11-22T02:00Z",
                             "--variables", "temperature_2m", "--format", "csv"])
        XCTAssertEqual(query.status, 0, query.stderr)
        XCTAssertTrue(query.stdout.contains(",2026-11-22T00:00Z,"), "answered from the latest cycle, the segment: \(query.stdout)")
        let wrong = try run(["extract", restart, "--store", directory.path("other"), "--cycle", "2026-11-21T00Z", "--quiet"])
        assertUnusable(wrong, mentioning: ["2026-08-18T00:00Z", "2026-11-22T00:00Z", restart], store: directory.path("other"))
    }

    /// A model-output file whose times cannot be used is described as such, not as "static".
    func testInspectOfAFileWithUnusableTimesSaysSo() throws {
        let path = directory.path("contradicting.nc")
        let dump = try runTool("ncdump", [baseline])
        XCTAssertEqual(dump.status, 0, dump.stderr)
        let cdl = dump.stdout.replacingOccurrences(of: "\"2026-11-22_03:00:00\" ;", with: "\"9999-11-22_03:00:00\" ;")
        XCTAssertNotEqual(cdl, dump.stdout)
        try cdl.write(toFile: path + ".cdl", atomically: true, encoding: .utf8)
        let made = try runTool("ncgen", ["-k", "64-bit-offset", "-o", path, path + ".cdl"])
        XCTAssertEqual(made.status, 0, made.stderr)
        let inspect = try run(["inspect", path])
        XCTAssertTrue(inspect.stdout.contains("times are unusable"), inspect.stdout + inspect.stderr)
        XCTAssertFalse(inspect.stdout.contains("static"), inspect.stdout)
    }

    // MARK: item 4

    func testGarbageNestInTheRunFolderIsExit3EvenWithQuiet() throws {
        let folder = directory.path("run")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: baseline, toPath: folder + "/wrfout_d01_2026-11-22_00:00:00")
        let d02 = folder + "/wrfout_d02_2026-11-22_00:00:00"
        XCTAssertTrue(FileManager.default.createFile(atPath: d02, contents: Data()))
        let store = directory.path("store")
        assertUnusable(try run(["extract", folder, "--store", store, "--quiet"]), mentioning: [d02], store: store)
        assertUnusable(try run(["inspect", folder]), mentioning: [d02])
    }

    // MARK: item 11

    func testFIFOInputIsExit3NotAHang() throws {
        let folder = directory.path("run")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let fifo = folder + "/wrfout_d01_2026-11-22_00:00:00"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let store = directory.path("store")
        // Under `timeout`: a regression blocks in open(2) and ends as exit 124, not a hung suite.
        assertUnusable(try run(["extract", folder, "--store", store, "--quiet"], seconds: 20), mentioning: [fifo, "FIFO"], store: store)
        assertUnusable(try run(["extract", fifo, "--store", store, "--quiet"], seconds: 20), mentioning: [fifo, "FIFO"], store: store)
        assertUnusable(try run(["inspect", fifo], seconds: 20), mentioning: [fifo, "FIFO"])
    }
}

extension IngestRefusalTests {
    // MARK: item 5

    func testProjectionContradictingTheCoordinatesIsExit3() throws {
        let dump = try runTool("ncdump", [baseline])
        XCTAssertEqual(dump.status, 0)
        var cdl = dump.stdout.replacingOccurrences(of: ":DX = 15000.f ;", with: ":DX = 30000.f ;")
        cdl.replaceSubrange(cdl.startIndex..<(try XCTUnwrap(cdl.range(of: "{"))).lowerBound, with: "netcdf doubled ")
        let input = directory.path("wrfout_d01_2026-11-22_00:00:00")
        try makeNetCDF(cdl: cdl, kind: "64-bit-offset", at: input)
        let store = directory.path("store")
        assertUnusable(try run(["extract", input, "--store", store, "--quiet"]), mentioning: [input, "round trip"], store: store)
    }
}

extension IngestRefusalTests {
    // MARK: item 10

    func testHugeDeclaredGridIsExit3NotAnAbort() throws {
        let input = directory.path("wrfout_d01_2026-11-22_00:00:00")
        try makeHugeDeclaredGrid(at: input)
        let store = directory.path("store")
        assertUnusable(try run(["inspect", input]), mentioning: [input, "too large"])
        assertUnusable(try run(["extract", input, "--store", store, "--quiet"]), mentioning: [input, "too large"], store: store)
    }
}

extension IngestRefusalTests {
    // MARK: issue 13 item 3

    func testMistypedProfileKeyIsAnErrorNamingKeyAndFile() throws {
        let profile = try runTool(try tilecast, ["profile", "wrf"])
        XCTAssertEqual(profile.status, 0, profile.stderr)
        let path = directory.path("site.json")
        try profile.stdout.replacingOccurrences(of: #""temperature_2m":      { "names": ["T2"], "unit": "K" }"#,
                                                with: #""temperature_2M":      { "names": ["T2"] }"#)
            .write(toFile: path, atomically: true, encoding: .utf8)
        let store = directory.path("store")
        let result = try run(["extract", baseline, "--store", store, "--profile", path, "--quiet"])
        XCTAssertNotEqual(result.status, 0, result.stdout)
        XCTAssertTrue(result.stderr.contains(path) && result.stderr.contains("sources.temperature_2M"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: store + "/wrf/latest"))
    }
}

extension IngestRefusalTests {
    // MARK: issue 11 C: met_em and wrfinput through the binary

    func testExtractRefusesMetEmAndWrfinputWithExit3AndInspectDescribesThem() throws {
        let folder = Repository.sampleGrids.appendingPathComponent("static")
        let cases = [("metgrid/met_em.d01.2026-11-22_00:00:00.nc", "WPS metgrid input for real.exe",
                      "WPS metgrid input (for real.exe): not model output, cannot be extracted"),
                     ("real/wrfinput_d01", "real.exe's initial conditions",
                      "real.exe initial conditions (one time, no forecast): cannot be extracted")]
        for (name, what, status) in cases {
            let path = folder.appendingPathComponent(name).path
            let store = directory.path("store-" + (name as NSString).lastPathComponent)
            assertUnusable(try run(["extract", path, "--store", store, "--quiet"]), mentioning: [path, "not model output", what], store: store)
            let inspect = try run(["inspect", path])
            XCTAssertEqual(inspect.status, 0, inspect.stderr)
            XCTAssertTrue(inspect.stdout.contains("Status       " + status), inspect.stdout)
            XCTAssertTrue(inspect.stdout.contains("Valid at     2026-11-22T00:00:00Z"), inspect.stdout)
        }
        let pair = try run(["inspect", folder.appendingPathComponent("metgrid").path])
        XCTAssertEqual(pair.status, 0, pair.stderr)
        XCTAssertTrue(pair.stdout.contains("d02: nest of d01, ratio 3, parent start i=13 j=11 (placement checked: 0.0"), pair.stdout)
    }
}

