import Foundation
@testable import TileStore
import TestSupport
import XCTest

/// `SeriesCodec.decodeScaled`, the point read's pass over two or four cells of one block,
/// against the values the tile was made from (not against the codec's other decoder): the same
/// Floats for every lane, in both modes; a refusal, never a wrong value, for a cell with
/// missing values or sums beyond Int32's fast loop. Both loops: the portable one and, on a CPU
/// with AVX2, the vector one (`tilecast_decode4`), which the reader takes there.
final class SharedBlockDecodeTests: XCTestCase {
    /// The loops this CPU can run: `vectorized: false` always, `true` with AVX2.
    private let loops = SeriesCodec.hasVectorDecode ? [false, true] : [false]

    func testSharedDecodeGivesTheTilesValues() {
        var generator = SeededGenerator(seed: 20261127)
        let step: Float = 0.1
        var decoded = [0: 0, 1: 0], refused = 0
        for steps in [2, 3, 25, 73] {
            for cells in [4, 7, 64] {
                for shape in 0..<8 {
                    let series = CodecReferenceTests.tile(cells: cells, steps: steps, shape: shape, using: &generator)
                    let block = series.flatMap { $0 }.withUnsafeBufferPointer { SeriesCodec.encode(cells: cells, steps: steps, values: $0) }
                    for count in [2, 13, steps, steps + 5] {
                        for lanes in [2, 4] {
                            var chosen = Array((0..<cells).shuffled(using: &generator).prefix(lanes))
                            if lanes == 2, cells > 2, Bool.random(using: &generator) { chosen = [chosen[0], chosen[0]] }   // an aliased pair
                            let wanted = min(count, steps)
                            for vectorized in loops {
                                var outputs = [[Float]](repeating: [Float](repeating: .infinity, count: wanted), count: 4)
                                let accepted = Self.decode(block, cells: cells, steps: steps, chosen: chosen, step: step, count: count,
                                                           vectorized: vectorized, into: &outputs)
                                let hasMissing = chosen.contains { series[$0].contains(SeriesCodec.missing) }
                                if hasMissing { XCTAssertFalse(accepted, "a cell with missing values: steps \(steps) cells \(cells) shape \(shape)") }
                                guard accepted else { refused += 1; continue }
                                decoded[Int(block[0]), default: 0] += 1
                                for (lane, cell) in chosen.enumerated() {
                                    let expected = series[cell].prefix(wanted).map { Float($0) * step }
                                    XCTAssertEqual(outputs[lane], expected,
                                                   "steps \(steps) cells \(cells) shape \(shape) count \(count) cell \(cell) vectorized \(vectorized)")
                                }
                            }
                        }
                    }
                }
            }
        }
        // Both modes went through the shared pass, and some tiles were refused (missing values,
        // shape 3's full-range values).
        XCTAssertGreaterThan(decoded[0] ?? 0, 50)
        XCTAssertGreaterThan(decoded[1] ?? 0, 50)
        XCTAssertGreaterThan(refused, 20)
    }

    /// A block cut short is refused, never read past its end (the fuzz targets' address
    /// sanitizer covers the same code), unless the cut spares the cells read: then their values.
    func testTruncatedBlocksAreRefusedOrRight() {
        var generator = SeededGenerator(seed: 5)
        let series = CodecReferenceTests.tile(cells: 64, steps: 25, shape: 1, using: &generator)
        let block = series.flatMap { $0 }.withUnsafeBufferPointer { SeriesCodec.encode(cells: 64, steps: 25, values: $0) }
        let chosen = [0, 9, 20, 30]
        var outputs = [[Float]](repeating: [Float](repeating: 0, count: 25), count: 4)
        for vectorized in loops {
            // (The tile's last cells are read one by one: their packed values end within a load's
            // 8 bytes of the block's end.)
            XCTAssertTrue(Self.decode(block, cells: 64, steps: 25, chosen: chosen, step: 1, count: 25, vectorized: vectorized, into: &outputs))
            var refused = 0
            for length in [0, 1, 2, 7, 100, 300, block.count / 2, block.count - 1] {
                let cut = Array(block.prefix(length))
                if Self.decode(cut, cells: 64, steps: 25, chosen: chosen, step: 1, count: 25, vectorized: vectorized, into: &outputs) {
                    for (lane, cell) in chosen.enumerated() {
                        XCTAssertEqual(outputs[lane], series[cell].map { Float($0) }, "cut to \(length), vectorized \(vectorized)")
                    }
                } else {
                    refused += 1
                }
            }
            XCTAssertGreaterThanOrEqual(refused, 6, "every cut through the head or the table is refused (vectorized \(vectorized))")
            XCTAssertFalse(Self.decode(block, cells: 64, steps: 25, chosen: [0, 64], step: 1, count: 25, vectorized: vectorized, into: &outputs),
                           "a cell past the tile")
        }
    }

    /// `decodeScaled` on `chosen` (2 or 4 cells) into the first lanes of `outputs`.
    private static func decode(_ block: [UInt8], cells: Int, steps: Int, chosen: [Int], step: Float, count: Int,
                               vectorized: Bool, into outputs: inout [[Float]]) -> Bool {
        let wanted = min(count, steps)
        let pointers = (0..<4).map { _ in
            let lane = UnsafeMutablePointer<Float>.allocate(capacity: max(wanted, 1))
            lane.initialize(repeating: .infinity, count: max(wanted, 1))
            return lane
        }
        defer { pointers.forEach { $0.deallocate() } }
        let four = chosen.count == 4
        let lanes = SeriesCodec.Lanes(count: chosen.count,
                                      cells: (chosen[0], chosen[1], four ? chosen[2] : chosen[0], four ? chosen[3] : chosen[1]),
                                      outputs: (pointers[0], pointers[1], four ? pointers[2] : pointers[0], four ? pointers[3] : pointers[1]))
        let accepted = block.withUnsafeBytes {
            SeriesCodec.decodeScaled(block: $0, cells: cells, steps: steps, lanes: lanes, step: step, count: count, vectorized: vectorized)
        }
        for lane in 0..<chosen.count { outputs[lane] = Array(UnsafeBufferPointer(start: pointers[lane], count: wanted)) }
        return accepted
    }
}
