import Foundation
@testable import Meteorology
import TestSupport
import XCTest

/// `WholeTurns.remainder` against libm's `fmod` (Swift's `truncatingRemainder`), bit for bit:
/// the sun's hour angles and azimuths must not move by an ulp for being made without it.
final class WholeTurnsTests: XCTestCase {
    private func assertSameBits(_ x: Double, _ turn: Double, file: StaticString = #filePath, line: UInt = #line) {
        let expected = x.truncatingRemainder(dividingBy: turn), got = WholeTurns.remainder(x, turn: turn)
        if expected.isNaN {
            XCTAssertTrue(got.isNaN, "remainder(\(x), \(turn)) = \(got), fmod NaN", file: file, line: line)
        } else {
            XCTAssertEqual(got.bitPattern, expected.bitPattern, "remainder(\(x), \(turn)) = \(got), fmod \(expected)", file: file, line: line)
        }
    }

    /// Where the quotient's rounding would put it one off if the proof in `remainder` were
    /// wrong: the last few values below and above whole numbers of turns, of either sign, at
    /// every magnitude up to 2^52 and beyond.
    func testValuesWithinRoundingOfWholeTurnsGiveFmodsBits() {
        for turn in [360.0, 1440.0, 1.0, 7.0] {
            for turns in [1.0, 2, 3, 5, 1000, 29_000_000, 1e9, 0x1p40, 0x1p52 / turn - 1, 0x1p52 / turn, 0x1p53 / turn] {
                let whole = turns * turn
                var below = whole, above = whole
                for _ in 0..<8 {
                    for x in [below, above, -below, -above] { assertSameBits(x, turn) }
                    below = below.nextDown
                    above = above.nextUp
                }
            }
        }
    }

    func testSeededValuesOfEveryMagnitudeGiveFmodsBits() {
        var random = SeededGenerator(seed: 0x7e1e_2026_1127)
        for _ in 0..<200_000 {
            let turn = [360.0, 1440.0][Int.random(in: 0...1, using: &random)]
            // Minutes and degrees as the sun's formulas make them, and any exponent besides.
            let x: Double
            switch Int.random(in: 0...2, using: &random) {
            case 0: x = Double.random(in: 0..<3e7, using: &random)
            case 1: x = Double.random(in: -2000..<4000, using: &random)
            default: x = Double(sign: Bool.random(using: &random) ? .minus : .plus,
                                exponent: Int.random(in: -1074...60, using: &random),
                                significand: Double.random(in: 1..<2, using: &random))
            }
            assertSameBits(x, turn)
        }
    }

    func testZerosNaNsAndInfinitiesGiveFmodsAnswers() {
        for x in [0.0, -0.0, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .nan, .infinity, -.infinity,
                  .greatestFiniteMagnitude, -360, 360, -1440, 1440, 0x1p52, -0x1p52] {
            assertSameBits(x, 360)
            assertSameBits(x, 1440)
        }
    }
}
