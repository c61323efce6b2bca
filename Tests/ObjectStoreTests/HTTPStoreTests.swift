import Foundation
import TestSupport
import XCTest

/// A store folder published behind a plain web server (nginx, started here on loopback) and
/// read with ranged GETs by `tilecast query --store http://...`: the same bytes out as the
/// local store, and damage or a broken transfer is an error, never numbers.
final class HTTPStoreTests: XCTestCase {
    /// Places: in the d02 nest, in d01 only, outside every domain (exit 4).
    static let places: [(Double, Double)] = [(38.72, -9.14), (39.3, -8.0), (37.0, -11.5), (60, 20)]

    static func query(_ store: String, _ lat: Double, _ lon: Double, _ extra: [String] = []) throws -> RunOutput {
        try runCommand(try tilecastBinary(), ["query", "--store", store, "--model", SampleStore.model, "--lat", "\(lat)", "--lon", "\(lon)",
                                       "--start", "2026-11-22T00Z", "--hours", "3", "--daily", "temperature_2m_max"] + extra)
    }

    func testAnswersOverHTTPAreByteIdenticalToTheLocalStore() throws {
        let directory = try TemporaryDirectory()
        let store = try SampleStore.extract(into: directory)
        let nginx = try Peer.nginx(serving: store)
        for (lat, lon) in Self.places {
            for format in ["json", "csv"] {
                let local = try Self.query(store, lat, lon, ["--format", format])
                let remote = try Self.query(nginx.address, lat, lon, ["--format", format])
                XCTAssertEqual(remote.status, local.status, "\(lat), \(lon): \(remote.stderr)")
                XCTAssertEqual(remote.stdout, local.stdout, "\(lat), \(lon) \(format)")
                if local.status != 0 { XCTAssertEqual(remote.stderr, local.stderr) }
            }
        }
        // A points file and a named cycle go the same way.
        let points = directory.path("places.csv")
        try "name,lat,lon\nlisbon,38.72,-9.14\ninland,39.3,-8.0\n".write(toFile: points, atomically: true, encoding: .utf8)
        let arguments = ["query", "--model", SampleStore.model, "--points", points, "--cycle", "2026-11-22T00Z", "--start", "2026-11-22T01Z", "--hours", "2", "--format", "csv"]
        let local = try runCommand(try tilecastBinary(), arguments + ["--store", store])
        let remote = try runCommand(try tilecastBinary(), arguments + ["--store", nginx.address + "/"])
        XCTAssertEqual(local.status, 0, local.stderr)
        XCTAssertEqual(remote.stdout, local.stdout, remote.stderr)
    }

    func testAPointReadsOnlyItsBlocks() throws {
        let directory = try TemporaryDirectory()
        let store = try SampleStore.extract(into: directory)
        let nginx = try Peer.nginx(serving: store)
        let proxy = try Peer.faultProxy(upstream: nginx.port)
        let answer = try Self.query(proxy.address, 38.72, -9.14)
        XCTAssertEqual(answer.status, 0, answer.stderr)
        let stats = try runTool("curl", ["-sf", proxy.address + "/__stats__"]).stdout.split(separator: " ").compactMap { Int($0) }
        let fileBytes = try FileManager.default.subpathsOfDirectory(atPath: store + "/" + SampleStore.model + "/.data")
            .filter { $0.hasSuffix(".tcs") }
            .reduce(0) { $0 + ((try? FileManager.default.attributesOfItem(atPath: store + "/wrf/.data/" + $1)[.size] as? Int) ?? 0) }
        XCTAssertEqual(stats.count, 2)
        // Fetched: the manifest, two domains' header and tail, and one forecast's blocks; far
        // less than the files.
        XCTAssertLessThan(stats[1], fileBytes / 2, "fetched \(stats[1]) of \(fileBytes) bytes in \(stats[0]) requests")
    }

    func testAByteFlippedOnTheServerIsDamage() throws {
        let directory = try TemporaryDirectory()
        let store = try SampleStore.extract(into: directory)
        let nginx = try Peer.nginx(serving: store)
        let before = try Self.query(nginx.address, 38.72, -9.14)
        XCTAssertEqual(before.status, 0, before.stderr)
        // One byte in every 97 of d02's data blocks (from the header to the index, which the
        // trailer's first field locates) flipped on disk: the blocks a forecast reads fail
        // their checksums. (Blocks lie tile by tile since issue 30: the first half of the file
        // is the first half of the tiles, which need not hold the place.)
        let data = try FileManager.default.contentsOfDirectory(atPath: store + "/wrf/.data")[0]
        let path = store + "/wrf/.data/" + data + "/d02.tcs"
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let indexOffset = (0..<8).reduce(0) { $0 | Int(bytes[bytes.count - 56 + $1]) << (8 * $1) }
        for k in stride(from: 16, to: indexOffset, by: 97) { bytes[k] ^= 0x10 }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let after = try Self.query(nginx.address, 38.72, -9.14)
        XCTAssertEqual(after.status, 5, after.stderr)
        XCTAssertTrue(after.stderr.contains("checksum mismatch"), after.stderr)
        XCTAssertEqual(after.stdout, "")
    }

    func testDamageInTransitIsDamageAndATruncatedAnswerIsAnError() throws {
        let directory = try TemporaryDirectory()
        let store = try SampleStore.extract(into: directory)
        let nginx = try Peer.nginx(serving: store)
        let proxy = try Peer.faultProxy(upstream: nginx.port)
        let good = try Self.query(store, 38.72, -9.14)
        // A byte flipped in every answer from a domain file: the opening reads (trailer,
        // index, metadata) or the blocks fail their checksums.
        try proxy.fault("flip", match: ".tcs")
        let flipped = try Self.query(proxy.address, 38.72, -9.14)
        XCTAssertEqual(flipped.status, 5, flipped.stderr)
        XCTAssertEqual(flipped.stdout, "")
        // Only the data blocks flipped (the files open well): their checksums fail.
        try proxy.fault("flip", match: ".tcs", blocksOnly: true)
        let blocks = try Self.query(proxy.address, 38.72, -9.14)
        XCTAssertEqual(blocks.status, 5, blocks.stderr)
        XCTAssertTrue(blocks.stderr.contains("checksum mismatch in data block"), blocks.stderr)
        XCTAssertEqual(blocks.stdout, "")
        // Every answer cut short: retried, then an error; nothing on stdout.
        try proxy.fault("truncate", match: ".tcs")
        let truncated = try Self.query(proxy.address, 38.72, -9.14)
        XCTAssertEqual(truncated.status, 5, truncated.stderr)
        XCTAssertEqual(truncated.stdout, "")
        // One answer cut short: the retry reads it whole, and the answer is the local one.
        try proxy.fault("truncate", count: 1, match: ".tcs")
        let once = try Self.query(proxy.address, 38.72, -9.14)
        XCTAssertEqual(once.status, 0, once.stderr)
        XCTAssertEqual(once.stdout, good.stdout)
        // The server gone mid-read: an error, never numbers.
        try proxy.fault("refuse", match: ".tcs")
        let refused = try Self.query(proxy.address, 38.72, -9.14)
        XCTAssertEqual(refused.status, 5, refused.stderr)
        XCTAssertEqual(refused.stdout, "")
    }

    func testLatestNamingAMissingCycleIsDamageAndAMissingStoreIsMissing() throws {
        let directory = try TemporaryDirectory()
        let store = try SampleStore.extract(into: directory)
        // A served copy whose latest names a cycle that is not there.
        let served = directory.path("served")
        try FileManager.default.createDirectory(atPath: served + "/wrf/latest", withIntermediateDirectories: true)
        var manifest = try String(contentsOfFile: store + "/wrf/latest/cycle.json", encoding: .utf8)
        manifest = manifest.replacingOccurrences(of: "2026-11-22T00Z", with: "2026-11-23T00Z")
        // Without its checksum (a manifest as written before issue 43): the edit would
        // otherwise be refused as a changed manifest before the missing cycle is seen.
        manifest = manifest.replacingOccurrences(of: #"\s*"checksum" : "crc32:[0-9a-f]{8}",?"#, with: "", options: .regularExpression)
        try manifest.write(toFile: served + "/wrf/latest/cycle.json", atomically: true, encoding: .utf8)
        let nginx = try Peer.nginx(serving: served)
        let answer = try Self.query(nginx.address, 38.72, -9.14)
        XCTAssertEqual(answer.status, 5, answer.stderr)
        XCTAssertTrue(answer.stderr.contains("missing") && answer.stderr.contains("2026-11-23T00Z"), answer.stderr)
        let nothing = try runCommand(try tilecastBinary(), ["query", "--store", nginx.address + "/nothing", "--model", "wrf", "--lat", "38.7", "--lon", "-9.1"])
        XCTAssertEqual(nothing.status, 5, nothing.stderr)
        XCTAssertTrue(nothing.stderr.contains("no published cycle"), nothing.stderr)
        let noModel = try runCommand(try tilecastBinary(), ["query", "--store", nginx.address, "--lat", "38.7", "--lon", "-9.1"])
        XCTAssertEqual(noModel.status, 2, noModel.stderr)
        XCTAssertTrue(noModel.stderr.contains("--model"), noModel.stderr)
    }
}
