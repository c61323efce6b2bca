import Catalog
import Foundation
import GridGeometry
@testable import TileStore
import TestSupport
import XCTest

/// The byte layout: golden header, trailer and codec bytes, and a codec round trip.
final class FormatTests: XCTestCase {
    /// A 3 x 2 grid with 4 times and two variables, values chosen so the encoding is known.
    static func tinyMetadata() throws -> DomainFileMetadata {
        DomainFileMetadata(
            model: "test", modelTitle: "unit test", cycle: 1_795_305_600, domain: 1, parentDomain: nil, parentGridRatio: nil,
            parentStart: nil, projection: ProjectionParameters(kind: .lambertConformal, trueLatitude1: 37, trueLatitude2: 42,
                                                               standardLongitude: -8, dx: 9000),
            westEast: 3, southNorth: 2, southWestCorner: GeoPoint(latitude: 38, longitude: -9),
            times: [0, 3600, 7200, 10800].map { 1_795_305_600 + $0 }, tileWidth: 2, tileHeight: 2,
            sources: ["tiny.nc"], createdBy: "tests")
    }

    static func tinyFile(at path: String, version: UInt32? = nil, metadata given: DomainFileMetadata? = nil) throws -> DomainFileMetadata {
        let metadata = try given ?? tinyMetadata()
        let writer = try DomainFileWriter(path: path, metadata: metadata, variables: [.temperature2m, .elevation])
        for t in 0..<4 {
            try writer.add(frame: [.temperature2m: (0..<6).map { Float($0) + Float(t) * 0.25 },
                                   .elevation: (0..<6).map { Float($0 * 100) }])
        }
        try writer.finish()
        return metadata
    }

    func testHeaderGoldenBytes() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("tiny.tcs")
        _ = try Self.tinyFile(at: path)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        XCTAssertEqual(Array(bytes.prefix(16)), [0x54, 0x49, 0x4C, 0x45, 0x43, 0x41, 0x53, 0x54, 1, 0, 0, 0, 0, 0, 0, 0])
    }

    /// The trailer decoded by hand: offsets add up, the version and magic are where the
    /// format says, and its CRC covers its first 44 bytes.
    func testTrailerLayout() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("tiny.tcs")
        _ = try Self.tinyFile(at: path)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let trailer = Array(bytes.suffix(56))
        func u64(_ at: Int) -> UInt64 { (0..<8).reduce(UInt64(0)) { $0 | UInt64(trailer[at + $1]) << (8 * UInt64($1)) } }
        func u32(_ at: Int) -> UInt32 { (0..<4).reduce(UInt32(0)) { $0 | UInt32(trailer[at + $1]) << (8 * UInt32($1)) } }
        XCTAssertEqual(Array(trailer.suffix(8)), Array("TILECAST".utf8))
        XCTAssertEqual(u32(40), 1, "version")
        // 2 variables x 2 tiles (3 x 2 grid in 2 x 2 tiles) = 4 index entries of 16 bytes.
        XCTAssertEqual(u64(8), 64, "index length")
        XCTAssertEqual(u64(16), u64(0) + u64(8), "metadata follows the index")
        XCTAssertEqual(u64(16) + u64(24), UInt64(bytes.count - 56), "the trailer follows the metadata")
        // CRCs checked with an independent bitwise CRC-32, not the code's own function.
        XCTAssertEqual(u32(44), referenceCRC32(Array(trailer.prefix(44))))
        let metadata = Array(bytes[Int(u64(16))..<Int(u64(16) + u64(24))])
        XCTAssertEqual(u32(36), referenceCRC32(metadata))
        XCTAssertEqual(u32(32), referenceCRC32(Array(bytes[Int(u64(0))..<Int(u64(0) + u64(8))])), "index CRC")
        XCTAssertEqual(metadata.first, UInt8(ascii: "{"), "metadata is JSON")
    }

    /// A tile of two cells: [10, 11, 13] packs as deltas +1, +2 (zigzag 2, 4) in 3 bits;
    /// [10, 10, 10] packs to nothing.
    func testCodecGoldenBlock() {
        let block = Self.encode([[10, 11, 13], [10, 10, 10]])
        // Plain mode (0) is smaller here. Base minimum 10 (Int32), base bytes 0 (both bases are
        // 10), offset bytes 2; widths [3, 0]; offsets [0, 1]; payload 010 then 100 -> 0b00100010.
        XCTAssertEqual(block, [0x00, 0x0A, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, 0x22])
        // Common mode: two cells rising together by 5 a step store the rise once.
        let shared = Self.encode([[0, 5, 10, 15], [7, 12, 17, 22]])
        // mode 1; common width 4 (zigzag 5 = 10 = 0b1010), three values 1010 1010 1010 -> 0xAA 0x0A;
        // base minimum 0, base bytes 1, offset bytes 2; widths [0, 0]; bases [0, 7]; offsets [0, 0].
        XCTAssertEqual(shared, [0x01, 0x04, 0xAA, 0x0A, 0x00, 0x00, 0x00, 0x00, 0x01, 0x02, 0x00, 0x00, 0x00, 0x07,
                                0x00, 0x00, 0x00, 0x00])
    }

    /// Encodes equal-length series, each cell's pointer valid only inside the one buffer
    /// access (an earlier version let pointers escape `withUnsafeBufferPointer`).
    static func encode(_ series: [[Int32]]) -> [UInt8] {
        let steps = series.first?.count ?? 0
        let flat = series.flatMap { $0 }
        return flat.withUnsafeBufferPointer { buffer in
            SeriesCodec.encode(cells: series.count, steps: steps, values: buffer)
        }
    }

    func testCodecRoundTripWithMissingValuesAndWideDeltas() {
        var generator = SeededGenerator(seed: 20261122)
        for steps in [1, 2, 7, 73] {
            let cells = 9
            var series: [[Int32]] = []
            for cell in 0..<cells {
                series.append((0..<steps).map { t in
                    if cell == 3 && t % 5 == 2 { return SeriesCodec.missing }
                    if cell == 4 { return Int32.random(in: -2_000_000_000...2_000_000_000, using: &generator) }
                    if cell == 5 { return SeriesCodec.missing }
                    return Int32(cell * 100 + t) + Int32.random(in: -3...3, using: &generator)
                })
            }
            let flat = series.flatMap { $0 }
            let block = flat.withUnsafeBufferPointer { buffer in
                SeriesCodec.encode(cells: cells, steps: steps, values: buffer)
            }
            for cell in 0..<cells {
                var decoded = [Int32](repeating: 0, count: steps)
                let ok = block.withUnsafeBytes { raw in
                    decoded.withUnsafeMutableBufferPointer { SeriesCodec.decode(block: raw, cells: cells, steps: steps, cell: cell, into: $0) }
                }
                XCTAssertTrue(ok)
                XCTAssertEqual(decoded, series[cell], "steps \(steps) cell \(cell)")
            }
        }
    }

    /// Every cell of blocks in both modes (plain and common deltas, widths from 0 to 33 bits,
    /// missing values), decoded to every length 1...steps: the decoder's fast path (all loads
    /// inside the block) and its checked path (a payload ending near the block's end) give the
    /// values encoded.
    func testCodecDecodesEveryPrefixOfEveryCell() {
        var generator = SeededGenerator(seed: 20261123)
        for steps in [2, 3, 9, 30, 73] {
            for shape in 0..<4 {
                let cells = 64
                // A shared trend (common mode wins) plus per-cell noise of a shape's width.
                let trend = (0..<steps).map { _ in Int32.random(in: -40...40, using: &generator) }
                let series: [[Int32]] = (0..<cells).map { cell in
                    var value = Int32(cell * 17)
                    return (0..<steps).map { t in
                        switch shape {
                        case 0: value &+= trend[t]
                        case 1: value &+= trend[t] &+ Int32.random(in: -2...2, using: &generator)
                        case 2: value = Int32.random(in: -1_000_000_000...1_000_000_000, using: &generator)
                        default: value &+= Int32.random(in: -300...300, using: &generator)
                        }
                        return cell == 63 && t % 4 == 1 ? SeriesCodec.missing : value
                    }
                }
                let flat = series.flatMap { $0 }
                let block = flat.withUnsafeBufferPointer { buffer in
                    SeriesCodec.encode(cells: cells, steps: steps, values: buffer)
                }
                for cell in 0..<cells {
                    for count in 1...steps {
                        var decoded = [Int32](repeating: 7, count: count)
                        let ok = block.withUnsafeBytes { raw in
                            decoded.withUnsafeMutableBufferPointer {
                                SeriesCodec.decode(block: raw, cells: cells, steps: steps, cell: cell, into: $0, count: count)
                            }
                        }
                        XCTAssertTrue(ok)
                        XCTAssertEqual(decoded, Array(series[cell].prefix(count)), "steps \(steps) shape \(shape) cell \(cell) count \(count)")
                    }
                }
            }
        }
    }

    /// The decoder skips tracking the lowest and highest value when the deltas' widths bound
    /// every sum inside Int32; near the limits it must track them: series a few steps from
    /// Int32.max and Int32.min (plain and common mode) decode exactly, and a hand-built block
    /// whose running sum passes Int32.max is refused, while the same deltas from 0 decode.
    func testCodecNearTheInt32LimitsTracksTheRange() {
        var generator = SeededGenerator(seed: 20261124)
        for (low, shared) in [(Int32.max - 400, false), (Int32.min + 1, false), (Int32.max - 400, true), (Int32.min + 1, true)] {
            let cells = 16, steps = 30
            let trend = (0..<steps).map { _ in Int32.random(in: 0...6, using: &generator) }
            let series: [[Int32]] = (0..<cells).map { _ in
                var value = low
                return (0..<steps).map { t in
                    value += shared ? trend[t] : Int32.random(in: 0...12, using: &generator)
                    return value
                }
            }
            let flat = series.flatMap { $0 }
            let block = flat.withUnsafeBufferPointer { buffer in
                SeriesCodec.encode(cells: cells, steps: steps, values: buffer)
            }
            for cell in 0..<cells {
                var decoded = [Int32](repeating: 7, count: 24)
                let ok = block.withUnsafeBytes { raw in
                    decoded.withUnsafeMutableBufferPointer { SeriesCodec.decode(block: raw, cells: cells, steps: steps, cell: cell, into: $0, count: 24) }
                }
                XCTAssertTrue(ok)
                XCTAssertEqual(decoded, Array(series[cell].prefix(24)), "low \(low) shared \(shared) cell \(cell)")
            }
        }
        // Plain mode, one cell, three steps: base, then deltas +3, +3 (zigzag 6, 6) at 3 bits.
        func block(base: Int32) -> [UInt8] {
            var bytes: [UInt8] = [0]
            bytes += withUnsafeBytes(of: base.littleEndian) { Array($0) }
            bytes += [0, 2, 3, 0, 0, 0b110_110] + [UInt8](repeating: 0, count: 8)
            return bytes
        }
        for (base, expected) in [(Int32(0), [Int32(0), 3, 6] as [Int32]?), (Int32.max - 4, nil)] {
            var decoded = [Int32](repeating: 0, count: 3)
            let ok = block(base: base).withUnsafeBytes { raw in
                decoded.withUnsafeMutableBufferPointer { SeriesCodec.decode(block: raw, cells: 1, steps: 3, cell: 0, into: $0) }
            }
            XCTAssertEqual(ok, expected != nil, "base \(base)")
            if let expected { XCTAssertEqual(decoded, expected) }
        }
    }

    func testTinyFileReadsBackAtItsPrecision() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("tiny.tcs")
        _ = try Self.tinyFile(at: path)
        let reader = try DomainFileReader(path: path)
        for j in 0..<2 {
            for i in 0..<3 {
                let t2 = try reader.series(.temperature2m, i: i, j: j)
                for t in 0..<4 { XCTAssertEqual(t2[t], Float(j * 3 + i) + Float(t) * 0.25, accuracy: 0.025 + 1e-5) }
                XCTAssertEqual(try reader.series(.elevation, i: i, j: j), [Float((j * 3 + i) * 100)])
            }
        }
        XCTAssertEqual(try reader.verifyAll(), 4)
        XCTAssertThrowsError(try reader.series(.temperature2m, i: 3, j: 0))
        XCTAssertThrowsError(try reader.series(.cloudCover, i: 0, j: 0))
    }
}

/// CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320), bit by bit: the reference the
/// store's zlib-based checksum is checked against.
func referenceCRC32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = (crc >> 1) ^ (crc & 1 == 1 ? 0xEDB8_8320 : 0) }
    }
    return ~crc
}

/// The store's checksum pinned to published values (as zarrs pins its crc32c), and format
/// version 1 pinned by a file written by version 0.1.0 and committed.
final class FormatPinTests: XCTestCase {
    func testChecksumIsZlibCRC32() {
        // The standard check value of CRC-32/ISO-HDLC for "123456789".
        XCTAssertEqual(checksum(Array("123456789".utf8)), 0xCBF4_3926)
        XCTAssertEqual(referenceCRC32(Array("123456789".utf8)), 0xCBF4_3926)
        XCTAssertEqual(checksum([UInt8]()), 0)
        var generator = SeededGenerator(seed: 42)
        let random = (0..<4099).map { _ in UInt8.random(in: 0...255, using: &generator) }
        XCTAssertEqual(checksum(random), referenceCRC32(random))
    }

    private static let fixture = Repository.root.appendingPathComponent("Tests/TileStoreTests/Fixtures/tiny-v1.tcs").path
    /// The same file as today's writer lays it (issue 30: blocks tile by tile), committed on
    /// 2026-11-27.
    private static let tileFixture = Repository.root.appendingPathComponent("Tests/TileStoreTests/Fixtures/tiny-v1-tiles.tcs").path

    /// A version 1 file committed on 2026-11-23 (written by `FormatTests.tinyFile`, blocks
    /// variable by variable): every later reader must read it. Today's writer must write exactly
    /// its bytes with the blocks laid tile by tile (issue 30; nothing else changed: metadata key
    /// names included), which `tiny-v1-tiles.tcs` pins (to write that again after a deliberate
    /// format change, run the tests with TILECAST_WRITE_FIXTURES=1 and bump the format version).
    func testCommittedVersion1FileReadsBackAndTodaysWriterWritesTheSameBytes() throws {
        let directory = try TemporaryDirectory()
        let fresh = directory.path("tiny.tcs")
        _ = try FormatTests.tinyFile(at: fresh)
        if ProcessInfo.processInfo.environment["TILECAST_WRITE_FIXTURES"] == "1" {
            try? FileManager.default.removeItem(atPath: Self.tileFixture)
            try FileManager.default.copyItem(atPath: fresh, toPath: Self.tileFixture)
        }
        for path in [Self.fixture, Self.tileFixture] {
            let reader = try DomainFileReader(path: path)
            XCTAssertEqual(reader.metadata.variables.map(\.name), ["temperature_2m", "elevation"])
            for j in 0..<2 {
                for i in 0..<3 {
                    let t2 = try reader.series(.temperature2m, i: i, j: j)
                    for t in 0..<4 { XCTAssertEqual(t2[t], Float(j * 3 + i) + Float(t) * 0.25, accuracy: 0.025 + 1e-5) }
                    XCTAssertEqual(try reader.series(.elevation, i: i, j: j), [Float((j * 3 + i) * 100)])
                }
            }
        }
        let written = [UInt8](try Data(contentsOf: URL(fileURLWithPath: fresh)))
        let committed = try BlockOrderTests.Parsed([UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.fixture))))
        XCTAssertEqual(committed.tiles, 2)
        XCTAssertEqual(written, committed.laid(committed.tileOrder(["temperature_2m", "elevation"])),
                       "today's writer no longer writes format version 1 as committed, blocks tile by tile")
        XCTAssertEqual(written, [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.tileFixture))))
    }

    /// Issue 11's additions within version 1: the committed file has no `unavailable` key and
    /// reads as nil; a file written with it and with issue 11's variables reads back both, and
    /// its JSON still decodes as the version 1 metadata an older reader knew (unknown keys
    /// ignored), so neither reader refuses the other's files.
    func testIssue11AdditionsStayReadableBothWays() throws {
        XCTAssertNil(try DomainFileReader(path: Self.fixture).metadata.unavailable)
        let directory = try TemporaryDirectory()
        let path = directory.path("new.tcs")
        var metadata = try FormatTests.tinyMetadata()
        metadata.unavailable = ["snow_depth": "no SNOWH"]
        let writer = try DomainFileWriter(path: path, metadata: metadata, variables: [.temperature2m, .rain, .soilMoisture0to10cm])
        for t in 0..<4 {
            try writer.add(frame: [.temperature2m: (0..<6).map { Float($0) }, .rain: (0..<6).map { _ in Float(t) * 0.5 },
                                   .soilMoisture0to10cm: (0..<6).map { Float($0) * 0.01 + 0.2 }])
        }
        try writer.finish()
        let reader = try DomainFileReader(path: path)
        XCTAssertEqual(reader.metadata.unavailable, ["snow_depth": "no SNOWH"])
        XCTAssertEqual(reader.metadata.variables.first { $0.name == "rain" }?.runningTotal, true)
        let moisture = try reader.series(.soilMoisture0to10cm, i: 2, j: 1)
        XCTAssertEqual(moisture[3], 0.25, accuracy: 0.0005 + 1e-6)
        XCTAssertEqual(try reader.series(.rain, i: 0, j: 0), [0, 0.5, 1.5, 3.0], "running totals of 0, 0.5, 1, 1.5")
        // The version 1 metadata an older reader decodes: the same keys minus `unavailable`.
        struct OlderMetadata: Decodable { let model: String; let variables: [DomainFileMetadata.StoredVariable] }
        let json = try JSONEncoder().encode(reader.metadata)
        let older = try JSONDecoder().decode(OlderMetadata.self, from: json)
        XCTAssertEqual(older.variables.map(\.name), ["temperature_2m", "rain", "soil_moisture_0_to_10cm"])
    }
}
