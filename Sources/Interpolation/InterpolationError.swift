// The interpolation kernel: bilinear in grid-index space, linear in time, over decoded
// fields laid out [south_north j][west_east i][time t] (time innermost, so one cell's
// series is contiguous and the time loop runs on SIMD registers).
//
// This target has no dependencies: it sees fractional grid positions and Float buffers,
// never projections, files or units.
//
// Rule for failures (nil vs throw vs NaN vs precondition):
// - a position outside the grid (or NaN) or a time outside the run is an ordinary answer:
//   `nil` from `BilinearStencil.init` and `TimeInterpolation.bracket(at:)`, a NaN row from
//   the batch and series functions;
// - sizes that come from data (a field's length against its dimensions, frame times that
//   do not increase) throw `InterpolationError`, because a store or file can lie;
// - an output buffer of the wrong size is a programming error of the caller, who sized
//   it: a `precondition` (the message says which buffer and what was expected).

/// A field or time axis that does not fit the dimensions it was given.
package enum InterpolationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Dimensions below 1, or whose product overflows `Int`.
    case invalidDimensions(westEast: Int, southNorth: Int, steps: Int)
    /// The field holds `actual` values where westEast x southNorth x steps = `expected`.
    case fieldSizeMismatch(expected: Int, actual: Int)
    /// A time axis with no frames.
    case noFrames
    /// Frame `index` is at `time`, not after the previous frame at `previous`.
    case framesNotIncreasing(index: Int, previous: Int64, time: Int64)
    /// A series holds `actual` values for a time axis of `expected` frames.
    case seriesLengthMismatch(expected: Int, actual: Int)

    package var description: String {
        switch self {
        case let .invalidDimensions(westEast, southNorth, steps):
            return "invalid field dimensions west_east \(westEast) x south_north \(southNorth) x time \(steps) "
                + "(expected each at least 1 and a product that fits in memory)"
        case let .fieldSizeMismatch(expected, actual):
            return "field holds \(actual) values, expected \(expected) (west_east x south_north x time)"
        case .noFrames:
            return "time axis has no frames (expected at least one)"
        case let .framesNotIncreasing(index, previous, time):
            return "frame \(index) is at \(time) s, not after frame \(index - 1) at \(previous) s "
                + "(expected strictly increasing frame times)"
        case let .seriesLengthMismatch(expected, actual):
            return "series holds \(actual) values, expected \(expected) (one per frame)"
        }
    }
}
