import XCTest
import Interpolation

final class SeriesInterpolationTests: XCTestCase {
    /// SIMD and scalar write the same bits for every count from 0 to 40 (all tail lengths,
    /// several full vectors), at unaligned starts, with aliased corners and NaN values, and
    /// neither writes past `count`.
    func testSIMDAndScalarAgreeBitForBitForAllTailLengths() {
        let seed = testSeed(0x5EED_0004)
        var rng = SeededGenerator(seed: seed)
        let pool = (0..<4_096).map { k -> Float in
            k % 97 == 0 ? .nan : Float.random(in: -1e3...1e3, using: &rng)
        }
        pool.withUnsafeBufferPointer { values in
            guard let base = values.baseAddress else { return XCTFail("empty pool") }
            for count in 0...40 {
                for _ in 0..<50 {
                    let stencil = BilinearStencil(i: .random(in: 0...1, using: &rng), j: .random(in: 0...1, using: &rng),
                                                  westEast: 2, southNorth: 2)
                    guard let weights = stencil?.weights else { return XCTFail("seed \(seed): stencil") }
                    let starts = (0..<4).map { _ in Int.random(in: 0...(values.count - count), using: &rng) }
                    var corners = starts.map { base + $0 }
                    if Bool.random(using: &rng) { corners[1] = corners[0] }  // an aliased pair
                    var simd = [Float](repeating: 7, count: count + 3)
                    var scalar = [Float](repeating: 7, count: count + 3)
                    simd.withUnsafeMutableBufferPointer { out in
                        interpolateSeries(corners[0], corners[1], corners[2], corners[3],
                                          weights: weights, count: count, into: out.baseAddress! + 1)
                    }
                    scalar.withUnsafeMutableBufferPointer { out in
                        interpolateSeriesScalar(corners[0], corners[1], corners[2], corners[3],
                                                weights: weights, count: count, into: out.baseAddress! + 1)
                    }
                    let differs = firstBitDifference(simd, scalar)
                    XCTAssertNil(differs, "seed \(seed) count \(count) weights \(weights) starts \(starts)")
                    XCTAssertEqual([simd[0], simd[count + 1], simd[count + 2]], [7, 7, 7], "seed \(seed) count \(count)")
                    XCTAssertEqual([scalar[0], scalar[count + 1], scalar[count + 2]], [7, 7, 7], "seed \(seed) count \(count)")
                }
            }
        }
    }

    /// Both paths compute ((w00 a + w10 b) + w01 c) + w11 d in Float, in that order: an
    /// independent evaluation in that order must match bit for bit.
    func testTheOrderOfOperationsIsTheDocumentedOne() {
        let seed = testSeed(0x5EED_0005)
        var rng = SeededGenerator(seed: seed)
        for _ in 0..<2_000 {
            let v = (0..<4).map { _ in Float.random(in: -1e4...1e4, using: &rng) }
            let w = (0..<4).map { _ in Float.random(in: 0...1, using: &rng) }
            let weights = BilinearWeights(w00: w[0], w10: w[1], w01: w[2], w11: w[3])
            var partial = w[0] * v[0]
            partial = partial + w[1] * v[1]
            partial = partial + w[2] * v[2]
            let expected = partial + w[3] * v[3]
            for path in KernelPath.allCases {
                // Nine values: one full SIMD8 vector and a one-value tail, all the same.
                let series = v.map { [Float](repeating: $0, count: 9) }
                var out = [Float](repeating: 0, count: 9)
                out.withUnsafeMutableBufferPointer { buffer in
                    let run = path == .simd ? interpolateSeries : interpolateSeriesScalar
                    run(series[0], series[1], series[2], series[3], weights, 9, buffer.baseAddress!)
                }
                XCTAssert(out.allSatisfy { $0.bitPattern == expected.bitPattern },
                          "seed \(seed) \(path) values \(v) weights \(w): \(out[0]) \(out[8]) vs \(expected)")
            }
        }
    }
}
