@testable import ModelIngest
import TestSupport
import XCTest

/// The extraction's count of missing values (the operator's one warning per source) is the
/// plain count of NaNs, whatever the length (lanes and tail) and whatever NaN's bit pattern.
final class MissingCountTests: XCTestCase {
    func testCountsEveryNaNPatternAtEveryLengthAndPosition() {
        var random = SeededGenerator(seed: 0x6d15_5106_2026_1123)
        let nans: [Float] = [.nan, -.nan, .signalingNaN, Float(bitPattern: 0x7fc0_1234), Float(bitPattern: 0xffff_ffff)]
        let others: [Float] = [0, -0.0, 1, -1e30, .infinity, -.infinity, .greatestFiniteMagnitude, 9.96921e36]
        for length in Array(0...40) + [1000, 1003, 8400 * 3 + 5] {
            for _ in 0..<5 {
                let values = (0..<length).map { _ in
                    Int.random(in: 0..<4, using: &random) == 0 ? nans[Int.random(in: 0..<nans.count, using: &random)] : others[Int.random(in: 0..<others.count, using: &random)]
                }
                let expected = values.reduce(0) { $0 + ($1.isNaN ? 1 : 0) }
                XCTAssertEqual(RawFrame.countMissing(values), expected, "length \(length)")
            }
        }
    }
}
