import Foundation
import TestSupport
import TileCastServer
import XCTest

/// The time-zone table as a resource file (`Resources/timezones.tzr`, copied by SwiftPM into
/// `TileCast_TileCastServer.resources` beside the built executables): where it is looked for,
/// what a missing or damaged file does, and the server refusing to start without it.
final class TimeZoneFileTests: XCTestCase {
    private var committed: URL {
        Repository.root.appendingPathComponent("Sources/TileCastServer/Resources").appendingPathComponent(TimeZoneTable.fileName)
    }

    /// The table this process read is the bundle's copy beside the test executable, and that
    /// copy is the committed file, byte for byte.
    func testReadFromTheBundleBesideTheExecutable() throws {
        let executable = try XCTUnwrap(TimeZoneTable.executablePath())
        let places = TimeZoneTable.places(environment: [:], executable: executable)
        let beside = URL(fileURLWithPath: executable).deletingLastPathComponent()
            .appendingPathComponent(TimeZoneTable.bundleName).appendingPathComponent(TimeZoneTable.fileName).path
        XCTAssertEqual(places.first?.path, beside)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: beside)), try Data(contentsOf: committed))
        XCTAssertNoThrow(try TimeZoneTable.loaded.get())
        // The variable names the one file to read; nothing else is then tried.
        let chosen = TimeZoneTable.places(environment: [TimeZoneTable.environmentVariable: "/srv/tz.tzr"], executable: executable)
        XCTAssertEqual(chosen.map(\.path), ["/srv/tz.tzr"])
    }

    /// A missing file names every place looked at; a damaged, truncated, lengthened, empty or
    /// non-file table is refused, never read as a table.
    func testMissingOrDamagedFilesAreRefused() throws {
        let directory = try TemporaryDirectory("tilecast-tz-file")
        let good = [UInt8](try Data(contentsOf: committed))
        XCTAssertNotNil(TimeZoneTable(file: good))

        let missing = TimeZoneTable.load([(directory.path("a.tzr"), "first"), (directory.path("b.tzr"), "second")])
        XCTAssertEqual(failure(missing), "the time-zone table (timezone=auto) was not found: looked for \(directory.path("a.tzr")) (first), "
                       + "\(directory.path("b.tzr")) (second); install the TileCast_TileCastServer.resources folder beside tilecast-server, "
                       + "or set TILECAST_TIMEZONE_TABLE to the file")

        var flipped = good
        flipped[good.count / 2] ^= 0x10
        var zone = good
        zone[good.count - 5] ^= 0x01  // the last run's zone index: a valid table, with the wrong zone
        let cases: [(String, [UInt8])] = [("flipped", flipped), ("zone", zone), ("truncated", Array(good.prefix(good.count - 1000))),
                                          ("lengthened", good + [0]), ("empty", []), ("crc only", Array(good.suffix(4)))]
        for (name, bytes) in cases {
            XCTAssertNil(TimeZoneTable(file: bytes), name)
            let path = directory.path("\(name).tzr")
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            // A damaged file ends the search: the good one after it is not read instead.
            let message = failure(TimeZoneTable.load([(path, "chosen"), (committed.path, "the source folder")]))
            XCTAssertTrue(message?.hasPrefix("the time-zone table \(path) (chosen) is damaged") == true, "\(name): \(message ?? "read")")
        }
        // The structure is checked as well as the checksum: a CRC made for bytes that are no table.
        var notTable = Array(good.prefix(good.count - 4))
        notTable[0] = UInt8(ascii: "X")
        XCTAssertNil(TimeZoneTable(file: notTable + crc32Bytes(notTable)), "not TZR1")
        var extra = Array(good.prefix(good.count - 4)) + [7]
        extra += crc32Bytes(extra)
        XCTAssertNil(TimeZoneTable(file: extra), "bytes after the last row")
        XCTAssertNotNil(TimeZoneTable(file: Array(good.prefix(good.count - 4)) + crc32Bytes(Array(good.prefix(good.count - 4)))))

        let folder = directory.url.path
        XCTAssertEqual(failure(TimeZoneTable.load([(folder, "a folder")])), "the time-zone table \(folder) is not a regular file")
    }

    /// A forged table with a good CRC whose zone name the system does not know: refused at
    /// load, naming the zone (issue 43 item 8: every place of that zone was answered in GMT).
    func testAZoneTheSystemLacksIsRefused() throws {
        let directory = try TemporaryDirectory("tilecast-tz-forged")
        let good = [UInt8](try Data(contentsOf: committed))
        let body = Array(good.prefix(good.count - 4))
        let lisbon = Array("Europe/Lisbon".utf8)
        let at = try XCTUnwrap((0...(body.count - lisbon.count)).first { Array(body[$0..<($0 + lisbon.count)]) == lisbon })
        var forged = body
        forged.replaceSubrange(at..<(at + lisbon.count), with: Array("Europe/Lisbox".utf8))
        forged += crc32Bytes(forged)
        XCTAssertNotNil(TimeZoneTable(file: forged), "the forgery is a well-formed table")
        let path = directory.path("forged.tzr")
        try Data(forged).write(to: URL(fileURLWithPath: path))
        let message = failure(TimeZoneTable.load([(path, "chosen")]))
        XCTAssertEqual(message, "the time-zone table \(path) (chosen) names 1 zone this system's time-zone data lacks (\"Europe/Lisbox\"): "
                       + "update the system's tzdata, or regenerate the table with Scripts/make_timezone_table.py")
        // The committed table names only zones the system knows.
        XCTAssertNil(failure(TimeZoneTable.load([(committed.path, "committed")])))
    }

    /// `tilecast serve` without its table: exit 2 before listening, one line naming where it
    /// looked; with a damaged one: exit 2, the file named.
    func testServerRefusesToStartWithoutItsTable() throws {
        let directory = try TemporaryDirectory("tilecast-tz-serve")
        let store = try StoreMaker.extractBaseline(into: directory)
        let tilecast = try StoreMaker.tilecast()
        let nowhere = directory.path("nowhere/timezones.tzr")
        let missing = try runTool("env", ["\(TimeZoneTable.environmentVariable)=\(nowhere)", tilecast, "serve", "--store", store, "--port", "0"])
        XCTAssertEqual(missing.status, 2, missing.stderr)
        XCTAssertEqual(missing.stderr, "tilecast: error: the time-zone table (timezone=auto) was not found: looked for \(nowhere) "
                       + "(TILECAST_TIMEZONE_TABLE); install the TileCast_TileCastServer.resources folder beside tilecast-server, "
                       + "or set TILECAST_TIMEZONE_TABLE to the file\n")

        var bytes = [UInt8](try Data(contentsOf: committed))
        bytes[100] ^= 0xFF
        let damaged = directory.path("damaged.tzr")
        try Data(bytes).write(to: URL(fileURLWithPath: damaged))
        let refused = try runTool("env", ["\(TimeZoneTable.environmentVariable)=\(damaged)", tilecast, "serve", "--store", store, "--port", "0"])
        XCTAssertEqual(refused.status, 2, refused.stderr)
        XCTAssertTrue(refused.stderr.hasPrefix("tilecast: error: the time-zone table \(damaged) (TILECAST_TIMEZONE_TABLE) is damaged"), refused.stderr)
        XCTAssertEqual(refused.stderr.filter { $0 == "\n" }.count, 1, refused.stderr)
    }

    private func failure(_ result: Result<TimeZoneTable, TimeZoneTable.LoadError>) -> String? {
        if case .failure(let error) = result { return error.description }
        return nil
    }

    /// zlib's CRC-32, little-endian, written out here so the test does not share the code it checks.
    private func crc32Bytes(_ bytes: [UInt8]) -> [UInt8] {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        crc ^= 0xFFFF_FFFF
        return (0..<4).map { UInt8(truncatingIfNeeded: crc >> (8 * $0)) }
    }
}
