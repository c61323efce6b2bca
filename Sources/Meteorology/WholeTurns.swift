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
    /// Why it is exact when |x| < 2^52 (x >= 0 here; the negative side is its mirror): let
    /// n = trunc(x / turn); x - n turn is fmod's remainder, which is representable. The
    /// quotient rounded to nearest truncates to n too: it cannot fall below n (n is
    /// representable), and it cannot round up onto n + 1, because x is short of (n + 1) turn by
    /// at least ulp(x) (both are multiples of ulp(x) <= 1/2), which puts x / turn more than half
    /// an ulp of n + 1 below it (turn = m 2^e with 1 < m < 2, so ulp(x) >= ulp(n + 1) 2^e >
    /// ulp(n + 1) turn / 2; a turn that is a power of two divides exactly). So q = n; q turn is
    /// a whole number below 2^53, so exact; and x - q turn, whose exact value is representable,
    /// is exact too. Beyond 2^52, and for NaN and infinities, it is `fmod`'s own answer.
    @inlinable
    package static func remainder(_ x: Double, turn: Double) -> Double {
        guard abs(x) < 0x1p52 else { return x.truncatingRemainder(dividingBy: turn) }
        let r = x - (x / turn).rounded(.towardZero) * turn
        // fmod's zero keeps x's sign; the difference above gives +0.
        return r == 0 ? (x.sign == .minus ? -0.0 : 0.0) : r
    }
}
