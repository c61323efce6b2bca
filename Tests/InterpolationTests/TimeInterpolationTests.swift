import XCTest
import Interpolation

final class TimeInterpolationTests: XCTestCase {
    /// A series linear in time is exact between frames and on them, on irregular frames.
    func testLinearSeriesIsExactBetweenAndOnFrames() throws {
        let seed = testSeed(0x5EED_0006)
        var rng = SeededGenerator(seed: seed)
        for _ in 0..<50 {
            var times: [Int64] = [Int64.random(in: 1_700_000_000...1_800_000_000, using: &rng)]
            for _ in 0..<Int.random(in: 0...80, using: &rng) {
                times.append(times[times.count - 1] + Int64.random(in: 1...21_600, using: &rng))
            }
            let slope = Double.random(in: -1e-3...1e-3, using: &rng), offset = Double.random(in: -30...30, using: &rng)
            let first = times[0]
            let value = { (t: Int64) -> Double in offset + slope * Double(t - first) }
            let series = times.map { Float(value($0)) }
            let axis = try TimeInterpolation(frameTimes: times)
            var queries = times
            for _ in 0..<200 { queries.append(Int64.random(in: first...times[times.count - 1], using: &rng)) }
            var out = [Float](repeating: 0, count: queries.count)
            try series.withUnsafeBufferPointer { s in
                try out.withUnsafeMutableBufferPointer { try axis.interpolate(s, at: queries, into: $0) }
            }
            let largest = abs(offset) + abs(slope) * Double(times[times.count - 1] - first)
            for (k, q) in queries.enumerated() {
                if k < times.count {
                    XCTAssertEqual(out[k], series[k], "seed \(seed): on frame \(k)")
                } else {
                    XCTAssertEqual(Double(out[k]), value(q), accuracy: 1e-6 * max(1, largest), "seed \(seed) at \(q)")
                }
            }
        }
    }

    func testBracketsAndWeights() throws {
        let axis = try TimeInterpolation(frameTimes: [0, 3600, 7200, 14_400])
        XCTAssertEqual(axis.bracket(at: 0), TimeBracket(lower: 0, upper: 0, lowerWeight: 1, upperWeight: 0))
        XCTAssertEqual(axis.bracket(at: 900), TimeBracket(lower: 0, upper: 1, lowerWeight: 0.75, upperWeight: 0.25))
        XCTAssertEqual(axis.bracket(at: 3600), TimeBracket(lower: 1, upper: 1, lowerWeight: 1, upperWeight: 0))
        XCTAssertEqual(axis.bracket(at: 9000), TimeBracket(lower: 2, upper: 3, lowerWeight: 0.75, upperWeight: 0.25))
        XCTAssertEqual(axis.bracket(at: 14_400), TimeBracket(lower: 3, upper: 3, lowerWeight: 1, upperWeight: 0))
        XCTAssertNil(axis.bracket(at: -1))
        XCTAssertNil(axis.bracket(at: 14_401))
        XCTAssertNil(axis.bracket(at: .min))
        XCTAssertNil(axis.bracket(at: .max))
        let one = try TimeInterpolation(frameTimes: [42])
        XCTAssertEqual(one.bracket(at: 42), TimeBracket(lower: 0, upper: 0, lowerWeight: 1, upperWeight: 0))
        XCTAssertNil(one.bracket(at: 43))
    }

    /// A bracket found from a guess is the searched bracket, whatever the guess (right, wrong,
    /// out of range), on irregular frames, at seeded times inside, on and outside the run.
    func testBracketFromAGuessEqualsTheSearchedOne() throws {
        var rng = SeededGenerator(seed: testSeed(0x5EED_0B4A))
        for _ in 0..<50 {
            var times: [Int64] = [Int64.random(in: 1_700_000_000...1_800_000_000, using: &rng)]
            for _ in 0..<Int.random(in: 0...80, using: &rng) {
                times.append(times[times.count - 1] + Int64.random(in: 1...21_600, using: &rng))
            }
            let axis = try TimeInterpolation(frameTimes: times)
            for _ in 0..<200 {
                let time = Bool.random(using: &rng) ? times[Int.random(in: 0..<times.count, using: &rng)]
                    : Int64.random(in: (times[0] - 7200)...(times[times.count - 1] + 7200), using: &rng)
                let guess = Int.random(in: -2...(times.count + 1), using: &rng)
                XCTAssertEqual(axis.bracket(at: time, near: guess), axis.bracket(at: time), "time \(time), guess \(guess)")
                if let right = axis.bracket(at: time) {
                    XCTAssertEqual(axis.bracket(at: time, near: right.lower), right)
                }
            }
        }
    }

    /// On a frame, a NaN in the neighbouring frames does not leak in; between a finite and
    /// a NaN frame the answer is NaN (missing), outside the run it is NaN too.
    func testOnFrameNaNNeighboursDoNotLeakAndOutsideIsNaN() throws {
        let axis = try TimeInterpolation(frameTimes: [0, 10, 20])
        let series: [Float] = [.nan, 5, .nan]
        var out = [Float](repeating: 0, count: 5)
        try series.withUnsafeBufferPointer { s in
            try out.withUnsafeMutableBufferPointer { try axis.interpolate(s, at: [10, 5, -1, 21, 20], into: $0) }
        }
        XCTAssertEqual(out[0], 5)
        XCTAssert(out[1...].allSatisfy(\.isNaN), "\(out)")
        let infinite: [Float] = [.infinity, 1, 2]
        XCTAssertEqual(infinite.withUnsafeBufferPointer { axis.bracket(at: 10)!.value(of: $0) }, 1)
    }

    func testFramesMustExistAndIncreaseStrictly() {
        XCTAssertThrowsError(try TimeInterpolation(frameTimes: [])) {
            XCTAssertEqual($0 as? InterpolationError, .noFrames)
        }
        XCTAssertThrowsError(try TimeInterpolation(frameTimes: [0, 3600, 3600])) {
            XCTAssertEqual($0 as? InterpolationError, .framesNotIncreasing(index: 2, previous: 3600, time: 3600))
        }
        XCTAssertThrowsError(try TimeInterpolation(frameTimes: [0, -5])) {
            XCTAssertEqual($0 as? InterpolationError, .framesNotIncreasing(index: 1, previous: 0, time: -5))
        }
    }

    func testExtremeTimesDoNotOverflow() throws {
        let axis = try TimeInterpolation(frameTimes: [.min, 0, .max])
        let b = try XCTUnwrap(axis.bracket(at: -1))
        XCTAssertEqual([b.lower, b.upper], [0, 1])
        XCTAssertEqual(b.upperWeight, 1, accuracy: 1e-6)
        let c = try XCTUnwrap(axis.bracket(at: Int64.max / 2))
        XCTAssertEqual([c.lower, c.upper], [1, 2])
        XCTAssertEqual(c.upperWeight, 0.5, accuracy: 1e-6)
    }

    func testSeriesOfTheWrongLengthThrows() throws {
        let axis = try TimeInterpolation(frameTimes: [0, 1, 2])
        let series: [Float] = [1, 2]
        var out = [Float](repeating: 0, count: 1)
        try series.withUnsafeBufferPointer { s in
            try out.withUnsafeMutableBufferPointer { o in
                XCTAssertThrowsError(try axis.interpolate(s, at: [1], into: o)) {
                    XCTAssertEqual($0 as? InterpolationError, .seriesLengthMismatch(expected: 3, actual: 2))
                }
            }
        }
    }
}
