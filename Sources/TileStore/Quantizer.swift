import CQuantize
import Catalog

/// Turns values into integers at a variable's stored step, and back. The rounding error is
/// at most half a step; NaN becomes `SeriesCodec.missing`.
struct Quantizer: Sendable, Equatable {
    /// The value of one integer step.
    let step: Float

    /// 1 / step, so quantizing multiplies instead of dividing.
    private let inverse: Float

    init(step: Float) {
        self.step = step
        inverse = 1 / step
    }

    /// Quantization for a catalog variable: the step is its precision (SPEC section 3), so
    /// the stored value is within half the precision of what ingest computed.
    init(_ variable: ForecastVariable) { self.init(step: Float(variable.precision)) }

    @inline(__always)
    func quantize(_ value: Double) -> Int32 {
        guard value.isFinite else { return SeriesCodec.missing }
        let scaled = Self.roundedHalfAwayFromZero(value / Double(step))
        guard scaled > -2.0e9, scaled < 2.0e9 else { return SeriesCodec.missing }
        return Int32(scaled)
    }

    /// A running total's stored value: `amount` added to `total` (Double: exact sums) and the
    /// total quantized; a missing amount is missing and adds nothing.
    @inline(__always)
    func addingToTotal(_ amount: Float, _ total: inout Double) -> Int32 {
        guard !amount.isNaN else { return SeriesCodec.missing }
        total += Double(amount)
        return quantize(total)
    }

    /// `addingToTotal` of each of `count` amounts (Float bits in `row`, replaced by the
    /// stored values) to `totals`, in SIMD (see quantize.h).
    func addToRunningTotals(_ row: UnsafeMutablePointer<Int32>, totals: UnsafeMutablePointer<Double>, count: Int) {
        tilecast_add_to_running_totals(row, totals, count, Double(step))
    }

    @inline(__always)
    func value(_ quantized: Int32) -> Float {
        quantized == SeriesCodec.missing ? .nan : Float(quantized) * step
    }

    /// Quantizes each of `values` into `quantized` (as many values as both hold), in SIMD:
    /// the writer quantizes every value of every frame (see quantize.h). A value becomes
    /// value x (1 / step) rounded to the nearest integer, ties to even; multiplying by the
    /// inverse can differ from dividing by one unit in the last place, which moves a value
    /// sitting exactly between two steps, and either rounding is within half a step. Values
    /// that are not finite or beyond (-2e9, 2e9) cannot be stored faithfully: missing, not wrong.
    func quantize(_ values: UnsafeBufferPointer<Float>, into quantized: UnsafeMutableBufferPointer<Int32>) {
        guard let input = values.baseAddress, let output = quantized.baseAddress else { return }
        tilecast_quantize(input, output, min(values.count, quantized.count), inverse)
    }

    /// `x.rounded()` (to nearest, ties away from zero) without libm's `round`, which the
    /// baseline x86-64 target calls out of line: below 2^52, `x` minus its integer part is
    /// exact, so the fraction decides exactly; from 2^52 on (and NaN, infinities) `x` is its
    /// own rounding. A zero may lose its sign, which no Int32 keeps.
    @inline(__always)
    static func roundedHalfAwayFromZero(_ x: Double) -> Double {
        guard x.magnitude < 0x1p52 else { return x }
        let whole = Double(Int64(x))
        let fraction = x - whole
        return fraction >= 0.5 ? whole + 1 : fraction <= -0.5 ? whole - 1 : whole
    }
}
