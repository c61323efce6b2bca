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

    /// Quantization for a catalog variable: the step is its precision (docs/VARIABLES.md), so
    /// the stored value is within half the precision of what ingest computed.
    init(_ variable: ForecastVariable) { self.init(step: Float(variable.precision)) }

    /// Running totals, one row of cells: each amount (a Float's bits in `row`) is added to its
    /// cell's total (Double: exact sums) and replaced by the total quantized, rounded half away
    /// from zero; a missing amount stays missing and adds nothing. In SIMD (see quantize.h).
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
}
