import Foundation
@testable import TileStore
import TestSupport
import XCTest

/// The writer's SIMD quantizing (C) against the definition, value by value: the product
/// rounded to the nearest integer, ties to even, by Swift's own rounding; missing when that
/// is not finite or not inside (-2e9, 2e9).
final class QuantizerTests: XCTestCase {
    func testBulkQuantizingEqualsTheDefinition() {
        var generator = SeededGenerator(seed: 20261124)
        var values: [Float] = [0, -0, .nan, -.nan, .infinity, -.infinity, .leastNonzeroMagnitude, -.leastNormalMagnitude,
                               .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 2e9, -2e9, 1.9999999e9, -1.9999999e9,
                               0x1p23, -0x1p23, 0x1p23 + 1, 0x1p22 + 0.5, -(0x1p22 + 0.5), 0x1p22 + 1.5, 8388607.5, -8388607.5]
        // Halves (ties), neighbours of halves, and random values of every size.
        for k in -300...300 {
            let half = Float(k) + 0.5
            values += [half, half.nextUp, half.nextDown]
        }
        for _ in 0..<100_000 {
            let exponent = Float(Int.random(in: -30...40, using: &generator))
            values.append(Float.random(in: -1...1, using: &generator) * Float(pow(2, Double(exponent))))
        }
        for step: Float in [1, 0.1, 0.01, 0.5, 100, 1e-6] {
            let quantizer = Quantizer(step: step)
            var bulk = [Int32](repeating: 7, count: values.count)
            values.withUnsafeBufferPointer { input in bulk.withUnsafeMutableBufferPointer { quantizer.quantize(input, into: $0) } }
            for (index, value) in values.enumerated() {
                let scaled = value * (1 / step)
                let expected = scaled.isFinite && scaled.rounded(.toNearestOrEven) > -2e9 && scaled.rounded(.toNearestOrEven) < 2e9
                    ? Int32(scaled.rounded(.toNearestOrEven)) : SeriesCodec.missing
                if bulk[index] != expected {
                    XCTFail("step \(step): \(value) quantized to \(bulk[index]), expected \(expected)")
                    return
                }
            }
        }
    }

    /// The writer's SIMD running totals (C) against their definition in Swift's own arithmetic
    /// (`runningTotal` below), cell by cell and row by row: the totals kept, NaN amounts
    /// (missing, adding nothing), ties of total / step of both signs and their neighbours,
    /// totals beyond the integer range and back, infinities.
    func testBulkRunningTotalsEqualTheDefinition() {
        var generator = SeededGenerator(seed: 20261126)
        let cells = 1_001, rows = 40
        for step: Float in [0.1, 1, 0.25, 0.01, 1e-6, 100] {
            let quantizer = Quantizer(step: step)
            var amounts: [Float] = []
            for row in 0..<rows {
                for cell in 0..<cells {
                    switch (cell % 7, row % 5) {
                    case (0, _): amounts.append(.nan)
                    case (1, 0): amounts.append(step / 2) // totals of k + 0.5 steps: ties
                    case (1, _): amounts.append(step)
                    case (2, _): amounts.append(Float.random(in: 0...3e8, using: &generator) * step) // past 2e9 steps
                    case (3, 2): amounts.append(cell % 2 == 0 ? .infinity : -.infinity)
                    case (3, _): amounts.append(-Float.random(in: 0...10, using: &generator))
                    case (4, _): amounts.append(row % 3 == 0 ? .nan : Float.random(in: 0...1, using: &generator))
                    case (5, 0): amounts.append(-step / 2) // -(k + 0.5) steps: ties below zero
                    case (5, _): amounts.append(-step)
                    case (6, 0): amounts.append(cell % 2 == 0 ? (step / 2).nextUp : (step / 2).nextDown)
                    default:
                        let exponent = Double(Int.random(in: -25...20, using: &generator))
                        amounts.append(Float.random(in: -0.1...1, using: &generator) * Float(pow(2, exponent)))
                    }
                }
            }
            var expectedTotals = [Double](repeating: 0, count: cells)
            let expected = amounts.indices.map { runningTotal(amounts[$0], &expectedTotals[$0 % cells], step: step) }
            var stored = amounts.map { Int32(bitPattern: $0.bitPattern) }
            var totals = [Double](repeating: 0, count: cells)
            stored.withUnsafeMutableBufferPointer { rowsPointer in
                totals.withUnsafeMutableBufferPointer { totalsPointer in
                    for row in 0..<rows {
                        quantizer.addToRunningTotals(rowsPointer.baseAddress! + row * cells, totals: totalsPointer.baseAddress!, count: cells)
                    }
                }
            }
            for index in amounts.indices where stored[index] != expected[index] {
                XCTFail("step \(step), row \(index / cells), cell \(index % cells): amount \(amounts[index]) stored \(stored[index]), expected \(expected[index])")
                return
            }
            XCTAssertEqual(totals.map(\.bitPattern), expectedTotals.map(\.bitPattern), "step \(step): the totals kept")
        }
    }

    /// A running total's stored value by definition: the amount added to a Double total, the
    /// total over the step rounded half away from zero (the standard library's `rounded()`);
    /// missing when the amount is NaN (then nothing is added) or the result is not finite or
    /// not inside (-2e9, 2e9).
    private func runningTotal(_ amount: Float, _ total: inout Double, step: Float) -> Int32 {
        guard !amount.isNaN else { return SeriesCodec.missing }
        total += Double(amount)
        let scaled = (total / Double(step)).rounded()
        guard scaled.isFinite, scaled > -2e9, scaled < 2e9 else { return SeriesCodec.missing }
        return Int32(scaled)
    }
}
