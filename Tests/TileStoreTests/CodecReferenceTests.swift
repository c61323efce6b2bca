import Foundation
@testable import TileStore
import TestSupport
import XCTest

/// The tile encoder against a plain one written here from docs/STORE-FORMAT.md (Swift arrays,
/// one bit at a time, the mean delta in Double as the format defines it): the same bytes for
/// random tiles of every shape the writer meets, in both modes, with missing values, wide
/// deltas and means that fall on a half.
final class CodecReferenceTests: XCTestCase {
    func testEncoderWritesTheReferenceBytes() {
        var generator = SeededGenerator(seed: 20261124)
        var modes = [0: 0, 1: 0]
        for steps in [0, 1, 2, 3, 6, 9, 12, 25, 73, 181] {
            for cells in [0, 1, 3, 7, 64] {
                for shape in 0..<8 {
                    let series = Self.tile(cells: cells, steps: steps, shape: shape, using: &generator)
                    let flat = series.flatMap { $0 }
                    let fast = flat.withUnsafeBufferPointer { SeriesCodec.encode(cells: cells, steps: steps, values: $0) }
                    let reference = Self.referenceEncode(series, steps: steps)
                    XCTAssertEqual(fast, reference, "steps \(steps) cells \(cells) shape \(shape)")
                    if let mode = fast.first { modes[Int(mode), default: 0] += 1 }
                }
            }
        }
        // Both modes were exercised (a shared trend wins common mode, noise plain mode).
        XCTAssertGreaterThan(modes[0] ?? 0, 20)
        XCTAssertGreaterThan(modes[1] ?? 0, 20)
    }

    /// One scratch reused across tiles of different sizes gives each tile's own bytes.
    func testReusedScratchGivesTheSameBytes() {
        var generator = SeededGenerator(seed: 7)
        let scratch = TileScratch()
        for (cells, steps) in [(64, 73), (3, 181), (64, 25), (1, 2), (40, 73)] {
            let series = Self.tile(cells: cells, steps: steps, shape: 3, using: &generator)
            let flat = series.flatMap { $0 }
            let reused = flat.withUnsafeBufferPointer { SeriesCodec.encode(cells: cells, steps: steps, values: $0, scratch: scratch) }
            XCTAssertEqual(reused, Self.referenceEncode(series, steps: steps), "cells \(cells) steps \(steps)")
        }
    }

    /// The integer rounding of the tile's mean delta equals the Double rounding the format was
    /// defined with, on halves, near-halves and sums near the limits of Int32 deltas.
    func testRoundedMeanMatchesTheDoubleDefinition() {
        var generator = SeededGenerator(seed: 99)
        var sums: [(Int64, Int)] = []
        for cells in [1, 2, 3, 7, 64, 1000, (1 << 18) - 1] {
            let bound = Int64(cells) * Int64(UInt32.max)
            for _ in 0..<2000 { sums.append((Int64.random(in: -bound...bound, using: &generator), cells)) }
            for k in Int64(-40)...40 {
                // Exact halves and their neighbours.
                let half = k * Int64(cells) + Int64(cells / 2)
                sums += [(half - 1, cells), (half, cells), (half + 1, cells), (-half, cells)]
            }
        }
        for (sum, cells) in sums {
            XCTAssertEqual(SeriesCodec.roundedMean(sum, cells: cells), Int64((Double(sum) / Double(cells)).rounded()),
                           "sum \(sum) cells \(cells)")
        }
    }

    /// A tile of `cells` series: 0 a shared trend, 1 trend plus noise, 2 noise of up to 300,
    /// 3 random Int32 values (34-bit deltas), 4 some missing values (and a cell all missing,
    /// and one whose first values are missing), 5 dry precipitation (all equal), 6 trends whose
    /// mean falls on halves, 7 noise of up to 100,000 (the packer joins two values of 15 to 28
    /// bits, four of up to 14; steps 6 and 12 leave it remainders).
    static func tile(cells: Int, steps: Int, shape: Int, using generator: inout SeededGenerator) -> [[Int32]] {
        let trend = (0..<steps).map { _ in Int32.random(in: -40...40, using: &generator) }
        return (0..<cells).map { cell in
            var value = Int32.random(in: -5000...5000, using: &generator)
            return (0..<steps).map { t in
                switch shape {
                case 0: value &+= trend[t]
                case 1: value &+= trend[t] &+ Int32.random(in: -2...2, using: &generator)
                case 2: value &+= Int32.random(in: -300...300, using: &generator)
                case 3: value = Int32.random(in: (Int32.min + 1)...Int32.max, using: &generator)
                case 4:
                    value &+= Int32.random(in: -9...9, using: &generator)
                    if cell == 1 || (cell == 2 && t < 3) || (cell % 3 == 0 && t % 4 == 1) { return SeriesCodec.missing }
                case 5: value = 0
                case 6: value &+= (cell % 2 == 0 ? trend[t] : trend[t] &+ 1)
                default: value &+= Int32.random(in: -100_000...100_000, using: &generator)
                }
                return value
            }
        }
    }

    /// The format, written out: deltas of the series with missing values carried forward,
    /// the tile's mean delta rounded in Double, each mode's size from its widths, and the
    /// smaller mode's block, bit by bit.
    static func referenceEncode(_ series: [[Int32]], steps: Int) -> [UInt8] {
        let missing = SeriesCodec.missing
        let intervals = max(steps - 1, 0)
        let cells = series.count
        var filled: [[Int64]] = []
        var flagged: [Bool] = []
        for values in series {
            var last = Int64(values.first { $0 != missing } ?? 0)
            filled.append(values.map { value in
                if value != missing { last = Int64(value) }
                return last
            })
            flagged.append(values.contains(missing))
        }
        let deltas = filled.map { row in (0..<intervals).map { row[$0 + 1] - row[$0] } }
        let common = (0..<intervals).map { t in
            cells == 0 ? 0 : Int64((Double(deltas.reduce(Int64(0)) { $0 + $1[t] }) / Double(cells)).rounded())
        }
        let residuals = deltas.map { row in (0..<intervals).map { row[$0] - common[$0] } }
        func zigzag(_ value: Int64) -> UInt64 { UInt64(bitPattern: (value << 1) ^ (value >> 63)) }
        func width(_ values: [Int64]) -> Int {
            var width = 0
            for value in values { while width < 64 && zigzag(value) >> UInt64(width) != 0 { width += 1 } }
            return width
        }
        let plainWidths = deltas.map(width), residualWidths = residuals.map(width), commonWidth = width(common)
        func bytes(_ widths: [Int]) -> Int { widths.reduce(0) { $0 + (intervals * $1 + 7) / 8 } }
        let commonMode = 1 + (intervals * commonWidth + 7) / 8 + bytes(residualWidths) < bytes(plainWidths)
        let packed = commonMode ? residuals : deltas
        let widths = commonMode ? residualWidths : plainWidths

        var bits: [Bool] = []
        func put(_ value: UInt64, _ width: Int) { for k in 0..<width { bits.append((value >> UInt64(k)) & 1 == 1) } }
        func flush(into block: inout [UInt8]) {
            while bits.count % 8 != 0 { bits.append(false) }
            for start in stride(from: 0, to: bits.count, by: 8) {
                block.append((0..<8).reduce(UInt8(0)) { $0 | (bits[start + $1] ? 1 << UInt8($1) : 0) })
            }
            bits = []
        }
        func littleEndian(_ value: UInt64, _ count: Int) -> [UInt8] { (0..<count).map { UInt8((value >> UInt64(8 * $0)) & 0xFF) } }

        var block: [UInt8] = [commonMode ? 1 : 0]
        if commonMode {
            block.append(UInt8(commonWidth))
            for value in common { put(zigzag(value), commonWidth) }
            flush(into: &block)
        }
        var payload: [UInt8] = []
        var offsets: [Int] = []
        for cell in 0..<cells {
            offsets.append(payload.count)
            for value in packed[cell] { put(zigzag(value), widths[cell]) }
            flush(into: &payload)
            if flagged[cell] {
                for value in series[cell] { bits.append(value == missing) }
                flush(into: &payload)
            }
        }
        let bases = filled.map { $0.first ?? 0 }
        let minimum = bases.min() ?? 0
        let span = (bases.max() ?? 0) - minimum
        let baseBytes = span == 0 ? 0 : span <= 0xFF ? 1 : span <= 0xFFFF ? 2 : 4
        let offsetBytes = payload.count <= 0xFFFF ? 2 : 4
        block += littleEndian(UInt64(UInt32(bitPattern: Int32(minimum))), 4)
        block += [UInt8(baseBytes), UInt8(offsetBytes)]
        for cell in 0..<cells { block.append(UInt8(widths[cell]) | (flagged[cell] ? 0x80 : 0)) }
        for base in bases { block += littleEndian(UInt64(base - minimum), baseBytes) }
        for offset in offsets { block += littleEndian(UInt64(offset), offsetBytes) }
        return block + payload
    }
}
