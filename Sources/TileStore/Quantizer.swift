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
    func quantize(_ value: Float) -> Int32 {
        guard value.isFinite else { return SeriesCodec.missing }
        // Multiplying by the inverse can differ from dividing by one unit in the last place,
        // which moves a value sitting exactly between two steps; either rounding is within half
        // a step.
        let scaled = (value * inverse).rounded(.toNearestOrEven)
        // Values beyond the integer range cannot be stored faithfully: missing, not wrong.
        guard scaled > -2.0e9, scaled < 2.0e9 else { return SeriesCodec.missing }
        return Int32(scaled)
    }

    @inline(__always)
    func quantize(_ value: Double) -> Int32 {
        guard value.isFinite else { return SeriesCodec.missing }
        let scaled = (value / Double(step)).rounded()
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

    @inline(__always)
    func value(_ quantized: Int32) -> Float {
        quantized == SeriesCodec.missing ? .nan : Float(quantized) * step
    }
}
