import Foundation
import TestSupport
import XCTest

/// `extract --grow`: a run served while the model writes it. Files of the one-file-per-hour
/// run (Scripts/make_nested_runs.py) are copied into a run folder a few hours at a time while
/// the extraction follows it; the cycle is readable, and says how far it reaches, throughout.
final class GrowingCycleTests: XCTestCase {
    private var directory: TemporaryDirectory!
    override func setUpWithError() throws { directory = try TemporaryDirectory() }

    private let source = Repository.sampleGrids.appendingPathComponent("nested-runs/hourly-files").path
    private var runFolder: String { directory.path("run") }
    private var store: String { directory.path("store") }

    /// Copies the d01 and d02 files of these hours (after 2026-11-22T00Z) into the run folder,
    /// each through a temporary name, as a model's file appears complete only when closed.
    private func arrive(hours: ClosedRange<Int>) throws {
        try FileManager.default.createDirectory(atPath: runFolder, withIntermediateDirectories: true)
        for hour in hours {
            let stamp = hour < 24 ? String(format: "2026-11-22_%02d:00:00", hour) : "2026-11-23_00:00:00"
            for domain in ["d01", "d02"] {
                let name = "wrfout_\(domain)_\(stamp)"
                try FileManager.default.copyItem(atPath: source + "/" + name, toPath: directory.path(".arriving"))
                try FileManager.default.moveItem(atPath: directory.path(".arriving"), toPath: runFolder + "/" + name)
            }
        }
    }

    private func startGrowing(wait: Int = 60) throws -> (process: Process, output: Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try tilecastBinary())
        process.arguments = ["extract", runFolder, "--store", store, "--grow", "--expect-hours", "24",
                             "--wait", String(wait), "--poll", "1", "--quiet"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        return (process, output)
    }

    /// The published cycle's manifest, read as any reader would (through `latest`).
    private func manifest() -> [String: Any]? {
        guard let data = FileManager.default.contents(atPath: store + "/wrf/latest/cycle.json") else { return nil }
        return try? JSONSerialization.jsonObject(with: data) as? [String: Any]
    }

    /// Waits (at most `seconds`) until the published cycle reaches `time`.
    private func waitUntilPublished(reaching time: String, seconds: Double = 30) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let reaches = manifest()?["reaches"] as? String, reaches >= time { return true }
            Thread.sleep(forTimeInterval: 0.2)
        }
        return false
    }

    private func query(at time: String) throws -> ToolOutput {
        try runTool("timeout", ["-k", "5", "60", try tilecastBinary(), "query", "--store", store, "--lat", "39.3", "--lon", "-8.3",
                                "--time", time, "--variables", "temperature_2m", "--format", "csv"])
    }

    func testACycleIsServedWhileItsRunIsWrittenAndCompletedAtTheEnd() throws {
        try arrive(hours: 0...5)
        let (process, output) = try startGrowing()
        defer { if process.isRunning { process.terminate() } }
        XCTAssertTrue(waitUntilPublished(reaching: "2026-11-22T04:00:00Z"), "the first hours are published while the run is written")
        XCTAssertEqual(manifest()?["growing"] as? Bool, true)
        XCTAssertEqual(try query(at: "2026-11-22T03:00Z").status, 0)
        XCTAssertEqual(try query(at: "2026-11-22T10:00Z").status, 4, "hours not yet written are outside the cycle")
        let inspect = try runTool(try tilecastBinary(), ["inspect", store])
        XCTAssertTrue(inspect.stdout.contains("growing: the run is still being written; holds up to 2026-11-22T0"), inspect.stdout)

        try arrive(hours: 6...12)
        XCTAssertTrue(waitUntilPublished(reaching: "2026-11-22T11:00:00Z"), "the cycle is extended as frames arrive")
        XCTAssertEqual(try query(at: "2026-11-22T10:00Z").status, 0)
        try arrive(hours: 13...24)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        let lines = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n")
        let extents = lines.compactMap { line in line.range(of: "holds up to ").map { String(line[$0.upperBound...]) } }
        XCTAssertGreaterThanOrEqual(extents.count, 2, lines.joined(separator: "\n"))
        XCTAssertEqual(extents, extents.sorted(), "every extension reaches further")
        XCTAssertFalse(lines.last?.contains("growing") ?? true, "the last publication is the complete cycle")
        XCTAssertNil(manifest()?["growing"], "complete: no longer growing")
        XCTAssertEqual(manifest()?["reaches"] as? String, "2026-11-23T00:00:00Z")
        XCTAssertEqual(try query(at: "2026-11-23T00:00Z").status, 0)
    }

    /// A growing extraction killed between extensions leaves the last published extent, whole
    /// and verified; running it again completes the cycle.
    func testAKilledGrowthKeepsTheLastExtentAndARerunCompletesIt() throws {
        try arrive(hours: 0...5)
        let (process, _) = try startGrowing()
        XCTAssertTrue(waitUntilPublished(reaching: "2026-11-22T05:00:00Z"))
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let verify = try runTool(try tilecastBinary(), ["inspect", store, "--verify"])
        XCTAssertEqual(verify.status, 0, verify.stderr)
        XCTAssertEqual(manifest()?["growing"] as? Bool, true)
        XCTAssertEqual(try query(at: "2026-11-22T05:00Z").status, 0)

        try arrive(hours: 6...24)
        let (rerun, _) = try startGrowing()
        rerun.waitUntilExit()
        XCTAssertEqual(rerun.terminationStatus, 0)
        XCTAssertNil(manifest()?["growing"])
        XCTAssertEqual(try query(at: "2026-11-23T00:00Z").status, 0)
    }

    /// Time runs out before the run is complete: exit 3, saying how far the cycle stays published.
    func testTimeRunningOutLeavesTheGrowingCycleAndSaysSo() throws {
        try arrive(hours: 0...5)
        let result = try runTool("timeout", ["-k", "5", "60", try tilecastBinary(), "extract", runFolder, "--store", store, "--grow",
                                             "--expect-hours", "24", "--wait", "3", "--poll", "1", "--quiet"])
        XCTAssertEqual(result.status, 3, result.stderr)
        XCTAssertTrue(result.stderr.contains("the cycle stays published, growing, wrf up to 2026-11-22T05:00:00Z"), result.stderr)
        XCTAssertEqual(manifest()?["growing"] as? Bool, true)
    }

    /// `latest` is the newest cycle that covers now: a cycle still being written whose hours do
    /// not reach now yet leaves it on the cycle before, which does, and takes it once it
    /// reaches now. (Before: `latest` moved to the growing cycle at its first publication, and
    /// a client asking for the coming hours got nothing.) The hourly run is shifted to the
    /// real clock: an older cycle 6 hours before this hour, complete, and a newer one 2 hours
    /// before it, arriving hour by hour.
    func testAGrowingCycleTakesLatestOnceItReachesNow() throws {
        let base = try XCTUnwrap(ModelTimeForTests.seconds("2026-11-22T00:00:00Z"))
        let hour = Int64(Date().timeIntervalSince1970) / 3600 * 3600
        let shift = { (hours: Int64) -> String in String((hour - base) / 3600 - hours) }
        let script = Repository.root.appendingPathComponent("Scripts/shift_run.py").path
        let older = directory.path("older"), newer = directory.path("newer")
        for (folder, hours) in [(older, Int64(6)), (newer, Int64(2))] {
            let shifted = try runTool("python3", [script, source, folder, shift(hours)])
            XCTAssertEqual(shifted.status, 0, shifted.stderr)
        }
        let stamp = { (hours: Int64) in ModelTimeForTests.cycleName(hour - hours * 3600) }
        let first = try runTool(try tilecastBinary(), ["extract", older, "--store", store, "--quiet"])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: store + "/wrf/latest"), stamp(6))

        // The newer run's first two hours (it reaches an hour before this one): published,
        // growing, but `latest` stays on the older cycle, which covers now.
        try FileManager.default.createDirectory(atPath: runFolder, withIntermediateDirectories: true)
        // The files of each output time (d01 and d02), in time order: "wrfout_d01_<time>".
        let names = try FileManager.default.contentsOfDirectory(atPath: newer)
        let stamps = Array(Set(names.map { String($0.dropFirst("wrfout_d01_".count)) })).sorted()
        XCTAssertEqual(stamps.count, 25)
        func arrive(_ hours: Range<Int>) throws {
            for name in names.sorted() where hours.contains(stamps.firstIndex(of: String(name.dropFirst("wrfout_d01_".count))) ?? -1) {
                try FileManager.default.copyItem(atPath: newer + "/" + name, toPath: directory.path(".arriving"))
                try FileManager.default.moveItem(atPath: directory.path(".arriving"), toPath: runFolder + "/" + name)
            }
        }
        try arrive(0..<2)
        let growing = try runTool("timeout", ["-k", "5", "60", try tilecastBinary(), "extract", runFolder, "--store", store, "--grow",
                                              "--expect-hours", "24", "--wait", "3", "--poll", "1", "--quiet"])
        XCTAssertEqual(growing.status, 3, growing.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: store + "/wrf/" + stamp(2) + "/cycle.json"), "the growing cycle is published")
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: store + "/wrf/latest"), stamp(6))

        // The rest of the run: it reaches now, and then its end; `latest` names it.
        try arrive(2..<25)
        let complete = try runTool("timeout", ["-k", "5", "60", try tilecastBinary(), "extract", runFolder, "--store", store, "--grow",
                                               "--expect-hours", "24", "--wait", "30", "--poll", "1", "--quiet"])
        XCTAssertEqual(complete.status, 0, complete.stderr)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: store + "/wrf/latest"), stamp(2))
    }
}

/// Times for the test above, by arithmetic (not the engine's code).
private enum ModelTimeForTests {
    static func seconds(_ iso: String) -> Int64? {
        let formatter = ISO8601DateFormatter()
        return formatter.date(from: iso).map { Int64($0.timeIntervalSince1970) }
    }

    /// "2026-11-22T06Z"
    static func cycleName(_ seconds: Int64) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH'Z'"
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }
}
