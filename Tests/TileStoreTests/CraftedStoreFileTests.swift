import Extraction
import Foundation
@testable import TileStore
import TestSupport
import XCTest

/// Store files whose checksums are all valid but whose metadata lies (a file crafted on
/// purpose, or written by a broken writer): the reader must refuse them as damage, never trap.
/// The shapes are the ones the CRC-repairing pass of the store fuzzer (fuzz/, Scripts/fuzz)
/// aims at; each of the first three trapped on an integer overflow in the reader's metadata
/// check before it was fixed.
final class CraftedStoreFileTests: XCTestCase {
    private var pristine: [UInt8] = []

    override func setUpWithError() throws {
        let directory = try TemporaryDirectory()
        var extractor = Extractor(inputs: [Repository.sampleGrids.appendingPathComponent("edge-cases/baseline.nc").path],
                                  store: directory.path("store"))
        extractor.model = "crafted"
        _ = try extractor.run()
        let (_, folder) = try CycleStore.resolve(root: directory.path("store"), model: "crafted")
        pristine = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/d01.tcs")))
    }

    /// The pristine file with its metadata JSON edited and every checksum made valid again.
    private func crafted(_ edit: (inout [String: Any]) -> Void) throws -> [UInt8] {
        func field(_ offset: Int) -> Int { (0..<8).reduce(0) { $0 | Int(pristine[pristine.count - 56 + offset + $1]) << (8 * $1) } }
        let indexOffset = field(0), indexLength = field(8), metadataOffset = field(16), metadataLength = field(24)
        var json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(pristine[metadataOffset..<(metadataOffset + metadataLength)])) as? [String: Any])
        edit(&json)
        let metadata = [UInt8](try JSONSerialization.data(withJSONObject: json))
        let trailer = Trailer(indexOffset: UInt64(indexOffset), indexLength: UInt64(indexLength), metadataOffset: UInt64(metadataOffset),
                              metadataLength: UInt64(metadata.count),
                              indexCRC: checksum(Array(pristine[indexOffset..<(indexOffset + indexLength)])),
                              metadataCRC: checksum(metadata), version: DomainFileFormat.version)
        return Array(pristine[..<metadataOffset]) + metadata + trailer.bytes
    }

    private func assertRefusedAsDamage(_ bytes: [UInt8], _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        do {
            let reader = try DomainFileReader(bytes: bytes, label: "crafted.tcs")
            XCTFail("\(what): opened (\(reader.metadata.westEast) x \(reader.metadata.southNorth))", file: file, line: line)
        } catch {
            XCTAssertTrue(error.isDamage, "\(what): \(error)", file: file, line: line)
        }
    }

    func testTheCraftingItselfKeepsAValidFile() throws {
        let same = try crafted { _ in }
        XCTAssertNoThrow(try DomainFileReader(bytes: same, label: "crafted.tcs").verifyAll())
    }

    /// westEast x southNorth overflowed Int in the size check (a trap, not an error).
    func testGridWhoseCellCountOverflowsIsRefused() throws {
        assertRefusedAsDamage(try crafted { $0["westEast"] = 1 << 32; $0["southNorth"] = 1 << 32 }, "2^32 x 2^32 cells")
        assertRefusedAsDamage(try crafted { $0["westEast"] = Int.max; $0["southNorth"] = 2 }, "Int.max x 2 cells")
    }

    /// tilesAcross = (westEast + tileWidth - 1) / tileWidth overflowed for a huge tile width.
    func testHugeTileWidthIsRefused() throws {
        assertRefusedAsDamage(try crafted { $0["tileWidth"] = Int.max }, "tileWidth Int.max")
    }

    func testHugeTileHeightIsRefused() throws {
        assertRefusedAsDamage(try crafted { $0["tileHeight"] = Int.max }, "tileHeight Int.max")
    }

    func testOtherImpossibleMetadataIsRefused() throws {
        assertRefusedAsDamage(try crafted { $0["westEast"] = 0 }, "no columns")
        assertRefusedAsDamage(try crafted { $0["tileWidth"] = -8 }, "negative tile width")
        assertRefusedAsDamage(try crafted { $0["times"] = [Int]() }, "no times")
        assertRefusedAsDamage(try crafted { $0["westEast"] = 9 }, "one column more than the index holds")
        assertRefusedAsDamage(try crafted { $0["variables"] = [[String: Any]]() }, "no variables for a full index")
        assertRefusedAsDamage(try crafted { $0["cycle"] = "not a number" }, "metadata that does not decode")
    }
}
