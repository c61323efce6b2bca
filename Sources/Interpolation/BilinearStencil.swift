// Where a position falls between four cells, and how much each counts.
//
// Bilinear in grid-index space, not in lat/lon. Three rules shape the stencil:
// * The last row and column are inside: i == westEast - 1 uses the cell pair
//   (westEast - 2, westEast - 1) with all weight on the second, so every interior cell pair
//   is a real pair and no index runs past the grid.
// * A corner whose weight is exactly 0 aliases the corner that carries the weight along that
//   axis. The series loop then never multiplies a neighbour's value by 0, so a NaN (missing)
//   neighbour cannot turn 0 * NaN into a NaN result on a node or along an edge.
// * A fraction within 2^-30 of a cell (a billionth of a cell, about 3 um at 3 km) snaps onto
//   it. Positions computed by a projection land a few ulps off a node; snapping lets them
//   see the node, and it guarantees that a non-zero corner weight is at least 2^-60, so no
//   weight underflows to 0 in Float while its corner is still read.
// Weights are computed in Double from the fractions and rounded to Float once each; the C
// reference kernel in benchmarks/ does the same, so the two agree bit for bit.

/// A fractional position on the mass grid: i along west_east, j along south_north,
/// 0-based; (0, 0) is the south-west mass point and (westEast - 1, southNorth - 1) the
/// north-east one.
package struct FractionalIndex: Sendable, Equatable {
    package var i: Double
    package var j: Double

    /// A position from fractional indices.
    package init(i: Double, j: Double) {
        self.i = i
        self.j = j
    }
}

/// The weights of a stencil's four corners. Corner `ab` is the cell (i_a, j_b): `w00` at
/// (i0, j0), `w10` at (i1, j0), `w01` at (i0, j1), `w11` at (i1, j1).
package struct BilinearWeights: Sendable, Equatable {
    package var w00: Float
    package var w10: Float
    package var w01: Float
    package var w11: Float

    /// Weights for the four corners, in the order w00, w10, w01, w11.
    package init(w00: Float, w10: Float, w01: Float, w11: Float) {
        self.w00 = w00
        self.w10 = w10
        self.w01 = w01
        self.w11 = w11
    }
}

/// The four cells around a position and their bilinear weights.
package struct BilinearStencil: Sendable, Equatable {
    /// Column (west_east index) of corners 00 and 01.
    package let i0: Int
    /// Column of corners 10 and 11; equal to `i0` when the position lies on column `i0`.
    package let i1: Int
    /// Row (south_north index) of corners 00 and 10.
    package let j0: Int
    /// Row of corners 01 and 11; equal to `j0` when the position lies on row `j0`.
    package let j1: Int
    package let weights: BilinearWeights

    /// Fractions closer than this to a node (in cells) snap onto it.
    package static let snapTolerance: Double = 0x1p-30

    /// The stencil of position (i, j) on a grid of westEast x southNorth mass points.
    ///
    /// Returns nil when the position is outside the grid (0...westEast-1, 0...southNorth-1,
    /// bounds included) or not a number, and for a grid with no cells. An axis of length 1
    /// holds only index 0, with weight 1.
    // Always inlined: left to the optimiser, the batch loop sometimes called it per point and
    // B1 ran about 25 % slower (measured; see benchmarks/RESULTS.md).
    @inline(__always)
    package init?(i: Double, j: Double, westEast: Int, southNorth: Int) {
        guard let x = Self.axis(i, count: westEast), let y = Self.axis(j, count: southNorth) else {
            return nil
        }
        i0 = x.lower
        i1 = x.upper
        j0 = y.lower
        j1 = y.upper
        let gi = 1 - x.fraction, gj = 1 - y.fraction
        weights = BilinearWeights(
            w00: Float(gi * gj), w10: Float(x.fraction * gj),
            w01: Float(gi * y.fraction), w11: Float(x.fraction * y.fraction))
    }

    /// The stencil of `position` on a grid of westEast x southNorth mass points.
    @inline(__always)
    package init?(_ position: FractionalIndex, westEast: Int, southNorth: Int) {
        self.init(i: position.i, j: position.j, westEast: westEast, southNorth: southNorth)
    }

    /// One axis: the lower and upper index and the fraction towards the upper one, with the
    /// aliasing and snapping rules above applied; nil outside 0...count-1.
    @inline(__always)
    static func axis(_ x: Double, count: Int) -> (lower: Int, upper: Int, fraction: Double)? {
        // NaN fails both comparisons and lands here too.
        guard count >= 1, x >= 0, x <= Double(count - 1) else { return nil }
        if count == 1 { return (0, 0, 0) }
        // x >= 0, so truncation is floor; clamping puts x == count - 1 into the last pair.
        let lower = min(Int(x), count - 2)
        let fraction = x - Double(lower)  // exact: made of x's own bits below the units place
        if fraction < snapTolerance { return (lower, lower, 0) }
        if fraction > 1 - snapTolerance { return (lower + 1, lower + 1, 1) }
        return (lower, lower + 1, fraction)
    }
}
