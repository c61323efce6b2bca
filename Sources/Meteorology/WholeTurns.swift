/// Remainders of whole turns (360 degrees, 1440 minutes) for the sun's formulas, without
/// libm's `fmod`.
///
/// `fmod` is exact and costs about 80 instructions a call; the sun's hour angle takes three
/// per zenith, and a forecast of every variable makes hundreds of zeniths (the sunshine
/// count, the tilted and terrestrial radiation): 4 % of its instructions (issue 30). The
/// quotient below is a division, a truncation, a product and a difference, and gives the
/// same bits.
package enum WholeTurns {
    /// `x.truncatingRemainder(dividingBy: turn)`, bit for bit (the sign of a zero included),
    /// for a whole `turn` from 1 to 2^20.
    ///
    /// Why it is exact when |x| < 2^52: the integer n = trunc(x / turn) makes the exact
    /// remainder x - n turn, which is representable (fmod's result always is). Rounding the
    /// division never crosses an integer, so the quotient q taken here is n, or n ± 1 (away
    /// from zero) when x lies within rounding of a whole number of turns. q turn is a whole
    /// number below 2^53, so exact; x - q turn is then either the remainder itself or, when
    /// q is one off, x minus a value within a factor 2 of it (exact by Sterbenz's lemma); and
    /// adding back one turn gives the representable remainder, so exact again. Beyond 2^52,
    /// and for NaN and infinities, it is `fmod`'s own answer.
    @inlinable
    package static func remainder(_ x: Double, turn: Double) -> Double {
        guard abs(x) < 0x1p52 else { return x.truncatingRemainder(dividingBy: turn) }
        let q = (x / turn).rounded(.towardZero)
        var r = x - q * turn
        if x >= 0 {
            if r < 0 { r += turn }
        } else if r > 0 {
            r -= turn
        }
        // fmod's zero keeps x's sign; the difference above gives +0.
        return r == 0 ? (x.sign == .minus ? -0.0 : 0.0) : r
    }
}
