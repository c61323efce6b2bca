// Linear interpolation in time between the two output frames that bracket a query time.
//
// Same aliasing rule as in space: a time exactly on a frame gets that frame twice, with
// weight 1 and 0, and the value is read from it alone, so a NaN in the unused neighbour
// frame cannot leak in. Frame times are whole seconds (Int64): "exactly on a frame" is an
// integer comparison, never a floating-point accident.

/// The frames around a query time and their weights.
package struct TimeBracket: Sendable, Equatable {
    /// The frame at or before the query time.
    package let lower: Int
    /// The frame after the query time, or `lower` when the time is exactly on a frame.
    package let upper: Int
    /// Weight of `lower`: 1 on a frame.
    package let lowerWeight: Float
    /// Weight of `upper`: 0 on a frame.
    package let upperWeight: Float

    /// A bracket from its parts; `TimeInterpolation.bracket(at:)` makes the real ones.
    package init(lower: Int, upper: Int, lowerWeight: Float, upperWeight: Float) {
        self.lower = lower
        self.upper = upper
        self.lowerWeight = lowerWeight
        self.upperWeight = upperWeight
    }

    /// True when the time is exactly on frame `lower`.
    package var isOnFrame: Bool { upperWeight == 0 }

    /// The interpolated value of `series` (one value per frame).
    ///
    /// On a frame this is the frame's value itself, whatever its neighbours hold.
    /// - Precondition: `lower` and `upper` are valid indices of `series`.
    @inlinable
    package func value(of series: UnsafeBufferPointer<Float>) -> Float {
        if upperWeight == 0 { return series[lower] }
        return lowerWeight * series[lower] + upperWeight * series[upper]
    }
}

/// A run's frame times and the brackets of query times against them.
package struct TimeInterpolation: Sendable {
    /// Frame times in seconds (any epoch, the same as the query times), strictly increasing.
    package let frameTimes: [Int64]

    /// A time axis of at least one frame.
    /// - Throws: `noFrames` for an empty axis; `framesNotIncreasing` naming the first frame
    ///   that is not after its predecessor.
    package init(frameTimes: [Int64]) throws(InterpolationError) {
        guard !frameTimes.isEmpty else { throw .noFrames }
        for k in frameTimes.indices.dropFirst() where frameTimes[k] <= frameTimes[k - 1] {
            throw .framesNotIncreasing(index: k, previous: frameTimes[k - 1], time: frameTimes[k])
        }
        self.frameTimes = frameTimes
    }

    /// The frames around `time` and their weights; nil before the first frame or after the
    /// last (both frames included).
    package func bracket(at time: Int64) -> TimeBracket? {
        guard let first = frameTimes.first, let last = frameTimes.last,
              time >= first, time <= last else { return nil }
        // Binary search for the last frame at or before `time`: frameTimes[lo] <= time.
        var lo = 0, hi = frameTimes.count - 1
        while lo < hi {
            let mid = lo + (hi - lo + 1) / 2
            if frameTimes[mid] <= time { lo = mid } else { hi = mid - 1 }
        }
        if frameTimes[lo] == time {
            return TimeBracket(lower: lo, upper: lo, lowerWeight: 1, upperWeight: 0)
        }
        return between(lo, time)
    }

    /// `bracket(at:)` with a guess of the lower frame (the last answer, when times are visited
    /// in order, as the sunshine count's minutes are): a right guess skips the search.
    package func bracket(at time: Int64, near guess: Int) -> TimeBracket? {
        if guess >= 0, guess + 1 < frameTimes.count, frameTimes[guess] < time, time < frameTimes[guess + 1] {
            return between(guess, time)
        }
        return bracket(at: time)
    }

    /// The bracket of a time strictly between frames `lo` and `lo + 1`.
    private func between(_ lo: Int, _ time: Int64) -> TimeBracket {
        // The differences are taken as unsigned bit patterns: they are non-negative but may
        // not fit Int64 for extreme inputs.
        let span = UInt64(bitPattern: frameTimes[lo + 1] &- frameTimes[lo])
        let into = UInt64(bitPattern: time &- frameTimes[lo])
        let w = Double(into) / Double(span)
        return TimeBracket(lower: lo, upper: lo + 1, lowerWeight: Float(1 - w), upperWeight: Float(w))
    }

    /// The brackets of many query times, nil for those outside the run.
    package func brackets(at times: [Int64]) -> [TimeBracket?] {
        times.map { bracket(at: $0) }
    }

    /// Writes `series` interpolated at each of `brackets` into `out`; NaN where a bracket is nil.
    /// - Throws: `seriesLengthMismatch` when `series` does not hold one value per frame.
    /// - Precondition: `out.count == brackets.count`.
    package func interpolate(
        _ series: UnsafeBufferPointer<Float>, at brackets: [TimeBracket?], into out: UnsafeMutableBufferPointer<Float>
    ) throws(InterpolationError) {
        precondition(out.count == brackets.count,
                     "output holds \(out.count) values, expected \(brackets.count) (one per query time)")
        guard series.count == frameTimes.count else {
            throw .seriesLengthMismatch(expected: frameTimes.count, actual: series.count)
        }
        for (k, b) in brackets.enumerated() {
            // Brackets made by another axis could index past this series: check, not trust.
            if let b, b.lower >= 0, b.upper >= 0, b.lower < series.count, b.upper < series.count {
                out[k] = b.value(of: series)
            } else {
                out[k] = .nan
            }
        }
    }

    /// Writes `series` interpolated at each of `times` into `out`; NaN for times outside the run.
    /// - Throws: `seriesLengthMismatch` when `series` does not hold one value per frame.
    /// - Precondition: `out.count == times.count`.
    package func interpolate(
        _ series: UnsafeBufferPointer<Float>, at times: [Int64], into out: UnsafeMutableBufferPointer<Float>
    ) throws(InterpolationError) {
        try interpolate(series, at: brackets(at: times), into: out)
    }
}
