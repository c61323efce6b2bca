// Many points at once over one decoded variable of one domain.
//
// The field is borrowed, not copied: the kernel is a view over memory the caller owns
// (a decoded block, a memory-mapped store), valid only while that memory is. Each point
// writes its own row of the output; the concurrent batch (ConcurrentBatch.swift) relies
// on that.

/// Which series loop a batch uses.
package enum KernelPath: Sendable, CaseIterable {
    /// `interpolateSeries`: SIMD over time with a scalar tail.
    case simd
    /// `interpolateSeriesScalar`: the plain reference.
    case scalar
}

/// Bilinear interpolation of full time series at many positions of one field.
package struct BilinearKernel {
    /// The field, laid out [south_north j][west_east i][time t].
    package let field: UnsafeBufferPointer<Float>
    /// Mass points along west_east (i).
    package let westEast: Int
    /// Mass points along south_north (j).
    package let southNorth: Int
    /// Values per cell (time steps), the innermost dimension.
    package let steps: Int

    /// A kernel over `field`, which must stay valid while the kernel is used.
    /// - Throws: `invalidDimensions` when a dimension is below 1 or their product overflows;
    ///   `fieldSizeMismatch` when the field does not hold westEast x southNorth x steps values.
    package init(
        field: UnsafeBufferPointer<Float>, westEast: Int, southNorth: Int, steps: Int
    ) throws(InterpolationError) {
        guard westEast >= 1, southNorth >= 1, steps >= 1 else {
            throw .invalidDimensions(westEast: westEast, southNorth: southNorth, steps: steps)
        }
        let (cells, overflowA) = westEast.multipliedReportingOverflow(by: southNorth)
        let (values, overflowB) = cells.multipliedReportingOverflow(by: steps)
        guard !overflowA, !overflowB else {
            throw .invalidDimensions(westEast: westEast, southNorth: southNorth, steps: steps)
        }
        guard field.count == values else {
            throw .fieldSizeMismatch(expected: values, actual: field.count)
        }
        self.field = field
        self.westEast = westEast
        self.southNorth = southNorth
        self.steps = steps
    }

    /// The stencil of `position` on this grid, or nil outside it.
    @inlinable
    package func stencil(at position: FractionalIndex) -> BilinearStencil? {
        BilinearStencil(position, westEast: westEast, southNorth: southNorth)
    }

    /// Writes the series at `position` (`steps` values) into `out`.
    /// - Returns: false, with `out` filled with NaN, when the position is outside the grid.
    /// - Precondition: `out.count == steps`.
    @discardableResult
    package func interpolate(
        at position: FractionalIndex, into out: UnsafeMutableBufferPointer<Float>, path: KernelPath = .simd
    ) -> Bool {
        precondition(out.count == steps, "output holds \(out.count) values, expected \(steps) (steps)")
        guard let base = out.baseAddress else { return false }  // unreachable: steps >= 1
        return row(at: position, into: base, path: path)
    }

    /// Writes one row of `steps` values per position into `out`, laid out [point][t], on the
    /// calling thread. Rows of positions outside the grid are NaN.
    /// - Precondition: `out.count == positions.count * steps`.
    package func interpolate(
        _ positions: [FractionalIndex], into out: UnsafeMutableBufferPointer<Float>, path: KernelPath = .simd
    ) {
        checkOutput(out, points: positions.count)
        guard let base = out.baseAddress else { return }  // no points
        positions.withUnsafeBufferPointer { points in
            rows(points, 0..<points.count, into: base, path: path)
        }
    }

    func checkOutput(_ out: UnsafeMutableBufferPointer<Float>, points: Int) {
        let (expected, overflow) = points.multipliedReportingOverflow(by: steps)
        precondition(!overflow && out.count == expected,
                     "output holds \(out.count) values, expected \(points) points x \(steps) steps")
    }

    /// Rows `range` of the batch; row p starts at out + p * steps.
    func rows(
        _ points: UnsafeBufferPointer<FractionalIndex>, _ range: Range<Int>,
        into out: UnsafeMutablePointer<Float>, path: KernelPath
    ) {
        for p in range {
            row(at: points[p], into: out + p &* steps, path: path)
        }
    }

    @discardableResult
    private func row(at position: FractionalIndex, into out: UnsafeMutablePointer<Float>, path: KernelPath) -> Bool {
        guard let s = stencil(at: position), let field = field.baseAddress else {
            out.update(repeating: .nan, count: steps)
            return false
        }
        // In bounds: the stencil's indices are inside the grid, and init checked that the
        // field holds westEast x southNorth x steps values.
        let row0 = s.j0 &* westEast, row1 = s.j1 &* westEast
        let c00 = field + (row0 &+ s.i0) &* steps
        let c10 = field + (row0 &+ s.i1) &* steps
        let c01 = field + (row1 &+ s.i0) &* steps
        let c11 = field + (row1 &+ s.i1) &* steps
        switch path {
        case .simd:
            simdSteps(c00, c10, c01, c11, weights: s.weights, count: steps, into: out)
        case .scalar:
            scalarSteps(c00, c10, c01, c11, weights: s.weights, from: 0, to: steps, into: out)
        }
        return true
    }
}
