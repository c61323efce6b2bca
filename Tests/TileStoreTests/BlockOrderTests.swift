import Catalog
import Foundation
import GridGeometry
@testable import TileStore
import TestSupport
import XCTest

/// Issue 30: the writer lays blocks tile by tile, each tile's blocks side by side, those a
/// default forecast reads first, so that a point forecast's blocks are one range of the file
/// (one request from a bucket). The index still lists blocks by (variable, tile), so the order is the
/// writer's choice and every reader finds blocks through the index: files written variable by
/// variable (every file before issue 30) are read as before.
///
/// The file is parsed here from its bytes (trailer, index, metadata's `firstBlock`), not
/// through the reader, so the order is checked against the format's description.
final class BlockOrderTests: XCTestCase {
    /// 20 x 12 cells in 8 x 8 tiles: 3 x 2 tiles, the edge ones smaller.
    static func metadata() throws -> DomainFileMetadata {
        var metadata = try FormatTests.tinyMetadata()
        metadata.westEast = 20
        metadata.southNorth = 12
        metadata.tileWidth = 8
        metadata.tileHeight = 8
        metadata.times = (0..<5).map { 1_795_305_600 + Int64($0) * 3600 }
        return metadata
    }

    static let variables: [ForecastVariable] = [.temperature2m, .windU10m, .precipitation, .elevation, .rain, .showers, .soilMoisture0to10cm]
    /// A tile's blocks as docs/STORE-FORMAT.md orders them: what a default forecast reads
    /// (temperature, wind, precipitation, the terrain, and rain and showers for the weather
    /// code: rain for its freezing category, issue 46) in metadata (store) order, then the rest
    /// (soil moisture, which no default variable reads). Written out here, not computed by the catalog.
    static let tileOrder = ["temperature_2m", "wind_u_10m", "precipitation", "elevation", "rain", "showers", "soil_moisture_0_to_10cm"]

    /// Seeded fields, frame by frame.
    static func frames() -> [[ForecastVariable: [Float]]] {
        var generator = SeededGenerator(seed: 30)
        return (0..<5).map { _ in
            Dictionary(uniqueKeysWithValues: variables.map { variable in
                (variable, (0..<240).map { _ in Float.random(in: 0..<1, using: &generator) })
            })
        }
    }

    static func write(at path: String, memoryLimit: Int = DomainFileWriter.defaultMemoryLimit) throws {
        let writer = try DomainFileWriter(path: path, metadata: try metadata(), variables: variables, memoryLimit: memoryLimit)
        for frame in frames() { try writer.add(frame: frame) }
        try writer.finish()
    }

    /// A domain file's parts, read from its bytes as docs/STORE-FORMAT.md describes them.
    struct Parsed {
        var bytes: [UInt8]
        var indexOffset: Int
        var entries: [(offset: Int, length: Int, crc: UInt32)]
        var firstBlocks: [Int]
        var names: [String]
        var tiles: Int

        init(_ bytes: [UInt8]) throws {
            self.bytes = bytes
            func u64(_ at: Int) -> Int { (0..<8).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
            func u32(_ at: Int) -> UInt32 { (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[at + $1]) << (8 * UInt32($1)) } }
            let trailer = bytes.count - 56
            indexOffset = u64(trailer)
            let indexLength = u64(trailer + 8)
            let metadataOffset = u64(trailer + 16), metadataLength = u64(trailer + 24)
            entries = stride(from: indexOffset, to: indexOffset + indexLength, by: 16).map { (u64($0), Int(u32($0 + 8)), u32($0 + 12)) }
            let json = try JSONSerialization.jsonObject(with: Data(bytes[metadataOffset..<(metadataOffset + metadataLength)])) as? [String: Any]
            let stored = json?["variables"] as? [[String: Any]] ?? []
            firstBlocks = stored.compactMap { $0["firstBlock"] as? Int }
            names = stored.compactMap { $0["name"] as? String }
            tiles = stored.isEmpty ? 0 : entries.count / stored.count
        }

        /// Block numbers variable by variable (the order before issue 30).
        var variableOrder: [Int] { Array(entries.indices) }
        /// Block numbers tile by tile, each tile's variables in the order `names` (issue 30).
        func tileOrder(_ order: [String]) -> [Int] {
            let firsts = order.compactMap { name in names.firstIndex(of: name).map { firstBlocks[$0] } }
            XCTAssertEqual(firsts.count, firstBlocks.count, "every variable ordered")
            return (0..<tiles).flatMap { tile in firsts.map { $0 + tile } }
        }

        /// The file with the same blocks laid in `order` (block numbers), the index's offsets
        /// and CRC and the trailer's CRC made again; index and metadata stay as they are.
        func laid(_ order: [Int]) -> [UInt8] {
            var out = Array(bytes[0..<16])
            var offsets = [Int](repeating: 0, count: entries.count)
            for block in order {
                let entry = entries[block]
                offsets[block] = out.count
                out += bytes[entry.offset..<(entry.offset + entry.length)]
            }
            XCTAssertEqual(out.count, indexOffset, "the same blocks, no more, no less")
            var index: [UInt8] = []
            func put(_ value: UInt64, _ count: Int, into buffer: inout [UInt8]) { for k in 0..<count { buffer.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(k)))) } }
            for (entry, offset) in zip(entries, offsets) {
                put(UInt64(offset), 8, into: &index)
                put(UInt64(entry.length), 4, into: &index)
                put(UInt64(entry.crc), 4, into: &index)
            }
            // Index and metadata stay where they were (the data area keeps its size).
            out += index
            let trailer = bytes.count - 56
            let metadataOffset = (0..<8).reduce(0) { $0 | Int(bytes[trailer + 16 + $1]) << (8 * $1) }
            out += bytes[metadataOffset..<trailer]
            var tail = Array(bytes[trailer..<(trailer + 32)])
            put(UInt64(referenceCRC32(index)), 4, into: &tail)
            tail += bytes[(trailer + 36)..<(trailer + 44)]
            put(UInt64(referenceCRC32(tail)), 4, into: &tail)
            tail += Array("TILECAST".utf8)
            return out + tail
        }
    }

    func testBlocksLieTileByTileEachTilesVariablesSideBySide() throws {
        let directory = try TemporaryDirectory()
        for (name, limit) in [("memory", DomainFileWriter.defaultMemoryLimit), ("spilled", 0)] {
            let path = directory.path("\(name).tcs")
            try Self.write(at: path, memoryLimit: limit)
            let parsed = try Parsed([UInt8](Data(contentsOf: URL(fileURLWithPath: path))))
            XCTAssertEqual(parsed.firstBlocks, [0, 6, 12, 18, 24, 30, 36], "\(name): the index still lists blocks variable by variable")
            XCTAssertEqual(parsed.names, Self.variables.map(\.rawValue), "\(name): metadata in store order")
            XCTAssertEqual(parsed.tiles, 6)
            // Walking tiles, then each tile's variables in `tileOrder`, each block starts where
            // the one before ended, from the header to the index.
            var expected = 16
            for block in parsed.tileOrder(Self.tileOrder) {
                let entry = parsed.entries[block]
                XCTAssertEqual(entry.offset, expected, "\(name): block \(block)")
                expected = entry.offset + entry.length
            }
            XCTAssertEqual(expected, parsed.indexOffset, name)
        }
    }

    /// A file laid variable by variable (as every writer before issue 30 wrote) answers every
    /// series exactly as the same blocks laid tile by tile, and both within half a step of
    /// the values written.
    func testAFileLaidVariableByVariableReadsTheSame() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("tiles.tcs")
        try Self.write(at: path)
        let parsed = try Parsed([UInt8](Data(contentsOf: URL(fileURLWithPath: path))))
        let older = parsed.laid(parsed.variableOrder)
        XCTAssertNotEqual(older, parsed.bytes, "the orders differ for a file of several tiles")
        let olderPath = directory.path("variables.tcs")
        try Data(older).write(to: URL(fileURLWithPath: olderPath))
        let tileReader = try DomainFileReader(path: path)
        let variableReader = try DomainFileReader(path: olderPath)
        let frames = Self.frames()
        for variable in Self.variables {
            let step = tileReader.metadata.variables.first { $0.name == variable.rawValue }?.step ?? 0
            for j in 0..<12 {
                for i in 0..<20 {
                    let a = try tileReader.series(variable, i: i, j: j), b = try variableReader.series(variable, i: i, j: j)
                    XCTAssertEqual(a.map(\.bitPattern), b.map(\.bitPattern), "\(variable) \(i), \(j)")
                    if variable == .temperature2m {
                        for t in 0..<5 { XCTAssertEqual(a[t], frames[t][variable]?[j * 20 + i] ?? .nan, accuracy: step / 2 + 1e-4) }
                    }
                }
            }
        }
        XCTAssertEqual(try variableReader.verifyAll(), 42)
    }
}
