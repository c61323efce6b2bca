// The inner loop: one point's series from its four corner series,
//     out[t] = ((w00 * c00[t] + w10 * c10[t]) + w01 * c01[t]) + w11 * c11[t],
// over the time axis, which is contiguous in the field.
//
// Two versions with the same operations in the same order, so they agree bit for bit:
// `interpolateSeries` runs on SIMD8<Float> (one AVX register in the fast build, two SSE
// registers in the portable one) with a scalar tail; `interpolateSeriesScalar` is the
// plain reference that tests and benchmarks compare against. Swift never fuses a multiply
// and an add into an FMA on its own (no floating-point contraction), which is what keeps
// the two identical; the C reference kernel is built with -ffp-contract=off for the same
// reason. An explicit FMA would be slower, not faster, in the portable build, where x86-64
// has no FMA instruction and it becomes a library call per lane.

/// Writes `count` values of one point's series from its four corner series, SIMD over time.
///
/// Values are `((w00 * c00[t] + w10 * c10[t]) + w01 * c01[t]) + w11 * c11[t]` in Float, bit
/// for bit equal to `interpolateSeriesScalar`. The corner pointers may be equal (aliased
/// corners); `out` must not overlap them.
/// - Parameters:
///   - c00, c10, c01, c11: the corner series, each with at least `count` values.
///   - weights: the stencil's weights.
///   - count: values to write; 0 writes nothing.
///   - out: room for `count` values.
package func interpolateSeries(
    _ c00: UnsafePointer<Float>, _ c10: UnsafePointer<Float>,
    _ c01: UnsafePointer<Float>, _ c11: UnsafePointer<Float>,
    weights: BilinearWeights, count: Int, into out: UnsafeMutablePointer<Float>
) {
    simdSteps(c00, c10, c01, c11, weights: weights, count: count, into: out)
}

/// The reference for `interpolateSeries`: the same sums, one value at a time.
///
/// Kept as plain scalar code; the optimiser may still vectorise it (the benchmark reports
/// what it became), but the order of operations per value is fixed by the source.
package func interpolateSeriesScalar(
    _ c00: UnsafePointer<Float>, _ c10: UnsafePointer<Float>,
    _ c01: UnsafePointer<Float>, _ c11: UnsafePointer<Float>,
    weights: BilinearWeights, count: Int, into out: UnsafeMutablePointer<Float>
) {
    scalarSteps(c00, c10, c01, c11, weights: weights, from: 0, to: count, into: out)
}

/// The body of `interpolateSeries`, inlined into the batch loop together with the stencil, so
/// each point costs no call and the stencil stays in registers.
@inline(__always)
func simdSteps(
    _ c00: UnsafePointer<Float>, _ c10: UnsafePointer<Float>,
    _ c01: UnsafePointer<Float>, _ c11: UnsafePointer<Float>,
    weights: BilinearWeights, count: Int, into out: UnsafeMutablePointer<Float>
) {
    let w00 = SIMD8<Float>(repeating: weights.w00)
    let w10 = SIMD8<Float>(repeating: weights.w10)
    let w01 = SIMD8<Float>(repeating: weights.w01)
    let w11 = SIMD8<Float>(repeating: weights.w11)
    var t = 0
    while t &+ 8 <= count {
        // Series start anywhere in the field (offset a multiple of `steps` floats), so the
        // loads are unaligned; on current x86 an unaligned load costs the same.
        let a = UnsafeRawPointer(c00 + t).loadUnaligned(as: SIMD8<Float>.self)
        let b = UnsafeRawPointer(c10 + t).loadUnaligned(as: SIMD8<Float>.self)
        let c = UnsafeRawPointer(c01 + t).loadUnaligned(as: SIMD8<Float>.self)
        let d = UnsafeRawPointer(c11 + t).loadUnaligned(as: SIMD8<Float>.self)
        var sum = w00 * a
        sum += w10 * b
        sum += w01 * c
        sum += w11 * d
        UnsafeMutableRawPointer(out + t).storeBytes(of: sum, as: SIMD8<Float>.self)
        t &+= 8
    }
    scalarSteps(c00, c10, c01, c11, weights: weights, from: t, to: count, into: out)
}

/// Values `start..<end` of the series, one at a time: the SIMD tail and the reference.
@inline(__always)
func scalarSteps(
    _ c00: UnsafePointer<Float>, _ c10: UnsafePointer<Float>,
    _ c01: UnsafePointer<Float>, _ c11: UnsafePointer<Float>,
    weights: BilinearWeights, from start: Int, to end: Int, into out: UnsafeMutablePointer<Float>
) {
    var t = start
    while t < end {
        var sum = weights.w00 * c00[t]
        sum += weights.w10 * c10[t]
        sum += weights.w01 * c01[t]
        sum += weights.w11 * c11[t]
        out[t] = sum
        t &+= 1
    }
}
