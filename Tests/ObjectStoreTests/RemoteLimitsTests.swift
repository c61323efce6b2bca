import Foundation
import TestSupport
import XCTest

/// Issue 27 item 4: every remote read is bounded in bytes (what it asked for) and in time (a
/// read-progress timeout, each attempt's limit, the query's deadline), against the fault proxy
/// playing a misbehaving server: an endless body, a body far larger than the range, a server
/// that hangs, one that sends a byte at a time. Each query fails fast, names the object, and
/// its peak memory stays small.
final class RemoteLimitsTests: XCTestCase {
    /// Small limits so that the test is quick (the defaults are in docs/RELIABILITY.md).
    static let limits = ["TILECAST_OBJECT_PROGRESS_SECONDS": "1", "TILECAST_OBJECT_ATTEMPT_SECONDS": "2",
                         "TILECAST_OBJECT_QUERY_SECONDS": "5"]
    /// Well above a query's usual peak (~30 MB) and far below what the faults would take.
    static let peakKilobytes = 120_000

    struct Measured {
        let output: RunOutput
        let seconds: Double
        let peakKilobytes: Int
    }

    /// `tilecast query` through `proxy`, under /usr/bin/time (peak memory of the process, which
    /// execs tilecast-remote) and `timeout` (so that an unbounded read ends the test, failed).
    static func query(_ proxy: Peer, in folder: TemporaryDirectory) throws -> Measured {
        let report = folder.path("time-\(UUID().uuidString)")
        let started = Date()
        let output = try runCommand("/usr/bin/time", ["-o", report, "-f", "%M", "timeout", "20", try tilecastBinary(),
                                                      "query", "--store", proxy.address, "--model", SampleStore.model,
                                                      "--lat", "38.72", "--lon", "-9.14", "--start", "2026-11-22T00Z", "--hours", "3"],
                                    environment: limits)
        let seconds = Date().timeIntervalSince(started)
        let peak = (try? String(contentsOfFile: report, encoding: .utf8))?.split(whereSeparator: \.isNewline).last.flatMap { Int($0) } ?? -1
        return Measured(output: output, seconds: seconds, peakKilobytes: peak)
    }

    func testMisbehavingServersFailFastWithBoundedMemory() throws {
        let directory = try TemporaryDirectory()
        let store = try SampleStore.extract(into: directory)
        let nginx = try Peer.nginx(serving: store)
        let proxy = try Peer.faultProxy(upstream: nginx.port)
        let good = try Self.query(proxy, in: directory)
        XCTAssertEqual(good.output.status, 0, good.output.stderr)
        print("remote-limits: a good query took \(good.seconds) s, peak \(good.peakKilobytes) kB")

        // (fault, what the proxy matches, only data blocks, the words the error must hold, at most seconds)
        let cases: [(String, String, Bool, Double, [String], Double)] = [
            ("endless", "cycle.json", false, 0, ["wrf/latest/cycle.json", "more than the 1048576 bytes asked for"], 5),
            ("huge", "cycle.json", false, 0, ["wrf/latest/cycle.json", "more than the 1048576 bytes asked for"], 5),
            ("endless", ".tcs", true, 0, [".tcs", "bytes asked for"], 5),
            ("huge", ".tcs", true, 0, [".tcs", "bytes asked for"], 5),
            ("huge", ".tcs", false, 0, [".tcs", "bytes asked for"], 5),
            // Nothing at all: the read-progress timeout (1 s) ends each attempt; the query's
            // deadline (5 s) ends the retries.
            ("stall", "cycle.json", false, 3600, ["wrf/latest/cycle.json", "no byte came for 1 s"], 9),
            // A byte every 0.4 s keeps the progress timeout quiet: each attempt's limit (2 s)
            // and the deadline end it.
            ("trickle", ".tcs", true, 0.4, [".tcs", "gave up", "deadline"], 9),
        ]
        for (mode, match, blocks, interval, words, most) in cases {
            try proxy.fault(mode, match: match, blocksOnly: blocks, interval: interval)
            let measured = try Self.query(proxy, in: directory)
            let label = "\(mode) on \(match)\(blocks ? " blocks" : "")"
            print("remote-limits: \(label): exit \(measured.output.status) in \(String(format: "%.2f", measured.seconds)) s, peak \(measured.peakKilobytes) kB: \(measured.output.stderr.prefix(400))")
            XCTAssertEqual(measured.output.status, 5, "\(label): \(measured.output.stderr)")
            XCTAssertEqual(measured.output.stdout, "", label)
            for word in words { XCTAssertTrue(measured.output.stderr.contains(word), "\(label): wants \"\(word)\": \(measured.output.stderr)") }
            // A network failure is said as the object server's, never as a disk's errno.
            XCTAssertFalse(measured.output.stderr.contains("Input/output error"), "\(label): \(measured.output.stderr)")
            XCTAssertLessThan(measured.seconds, most, label)
            XCTAssertGreaterThan(measured.peakKilobytes, 0, label)
            XCTAssertLessThan(measured.peakKilobytes, Self.peakKilobytes, label)
        }
        try proxy.fault("none")
        let again = try Self.query(proxy, in: directory)
        XCTAssertEqual(again.output.status, 0, again.output.stderr)
        XCTAssertEqual(again.output.stdout, good.output.stdout)
    }
}
