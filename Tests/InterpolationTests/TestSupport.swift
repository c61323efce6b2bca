// Shared helpers for the interpolation tests: a seeded generator, fields that are linear in
// i, j and t, and bit-exact comparison of Float buffers.

import Foundation
import Interpolation
@_exported import TestSupport

// The seeded generator is TestSupport's SeededGenerator (SplitMix64).

/// The seed a test uses: `fixed`, unless TILECAST_TEST_SEED is set.
func testSeed(_ fixed: UInt64) -> UInt64 {
    if let text = ProcessInfo.processInfo.environment["TILECAST_TEST_SEED"], let seed = UInt64(text) {
        return seed
    }
    return fixed
}

/// f = a + b*i + c*j + d*t, evaluated in Double.
struct LinearField {
    var a: Double, b: Double, c: Double, d: Double

    static func random(using rng: inout SeededGenerator) -> LinearField {
        LinearField(a: .random(in: -50...50, using: &rng), b: .random(in: -3...3, using: &rng),
                    c: .random(in: -3...3, using: &rng), d: .random(in: -2...2, using: &rng))
    }

    func value(i: Double, j: Double, t: Double) -> Double { a + b * i + c * j + d * t }

    /// The field sampled on a grid, laid out [j][i][t].
    func sampled(westEast: Int, southNorth: Int, steps: Int) -> [Float] {
        var out = [Float](repeating: 0, count: westEast * southNorth * steps)
        for j in 0..<southNorth {
            for i in 0..<westEast {
                for t in 0..<steps {
                    out[(j * westEast + i) * steps + t] = Float(value(i: Double(i), j: Double(j), t: Double(t)))
                }
            }
        }
        return out
    }

    /// Float precision on this grid: 1e-6 of the largest magnitude the field reaches, about
    /// 16 Float ulps (values, weights and four products are each rounded once).
    func tolerance(westEast: Int, southNorth: Int, steps: Int) -> Double {
        let largest = abs(a) + abs(b) * Double(westEast) + abs(c) * Double(southNorth) + abs(d) * Double(steps)
        return 1e-6 * max(1, largest)
    }
}

/// True when both are NaN or both have the same bits.
func sameBits(_ x: Float, _ y: Float) -> Bool {
    (x.isNaN && y.isNaN) || x.bitPattern == y.bitPattern
}

/// The first index where two buffers differ in bits (NaN equals NaN), or their common
/// length when one is longer; nil when they are identical.
func firstBitDifference(_ x: [Float], _ y: [Float]) -> Int? {
    for k in 0..<min(x.count, y.count) where !sameBits(x[k], y[k]) { return k }
    return x.count == y.count ? nil : min(x.count, y.count)
}

/// Runs `body` with a kernel over `field`.
func withKernel<R>(
    _ field: [Float], westEast: Int, southNorth: Int, steps: Int,
    _ body: (BilinearKernel) throws -> R
) throws -> R {
    try field.withUnsafeBufferPointer { buffer in
        try body(try BilinearKernel(field: buffer, westEast: westEast, southNorth: southNorth, steps: steps))
    }
}

/// The batch output of `positions`, [point][t].
func batch(
    _ kernel: BilinearKernel, _ positions: [FractionalIndex], path: KernelPath = .simd,
    concurrent: Bool = false, chunks: Int? = nil
) -> [Float] {
    var out = [Float](repeating: -12345, count: positions.count * kernel.steps)
    out.withUnsafeMutableBufferPointer { buffer in
        if concurrent {
            kernel.interpolateConcurrently(positions, into: buffer, path: path, chunks: chunks)
        } else {
            kernel.interpolate(positions, into: buffer, path: path)
        }
    }
    return out
}
