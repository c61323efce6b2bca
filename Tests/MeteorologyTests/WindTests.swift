import Foundation
import TestSupport
import XCTest
import Meteorology

final class WindTests: XCTestCase {
    func testDirectionOfCardinalAndDiagonalWinds() {
        // (u, v) of a wind blowing FROM the named direction, and that direction in degrees.
        let s = Float(0.5).squareRoot()
        let cases: [(u: Float, v: Float, from: Float, name: String)] = [
            (0, -1, 360, "north"),     // blows toward the south; WMO writes north as 360
            (-1, 0, 90, "east"),
            (0, 1, 180, "south"),
            (1, 0, 270, "west"),       // u > 0 blows toward the east
            (-s, -s, 45, "north-east"),
            (-s, s, 135, "south-east"),
            (s, s, 225, "south-west"),
            (s, -s, 315, "north-west"),
        ]
        for c in cases {
            XCTAssertEqual(windDirection(u: c.u * 7, v: c.v * 7), c.from, accuracy: 1e-3, c.name)
            XCTAssertEqual(windSpeed(u: c.u * 7, v: c.v * 7), 7, accuracy: 1e-5, c.name)
        }
    }

    func testCalmIsZeroAndMissingIsNaN() {
        XCTAssertEqual(windDirection(u: 0, v: 0), 0)
        XCTAssertEqual(windDirection(u: -0.0, v: -0.0), 0)
        XCTAssertEqual(windSpeed(u: 0, v: 0), 0)
        XCTAssert(windDirection(u: .nan, v: 1).isNaN)
        XCTAssert(windDirection(u: 1, v: .nan).isNaN)
        XCTAssert(windSpeed(u: .nan, v: 1).isNaN)
    }

    func testDirectionStaysInRangeOverASweep() {
        var rng = SeededGenerator(seed: 42)
        for _ in 0..<10_000 {
            let u = Float.random(in: -30...30, using: &rng)
            let v = Float.random(in: -30...30, using: &rng)
            let d = windDirection(u: u, v: v)
            XCTAssert(d > 0 && d <= 360, "u=\(u) v=\(v) d=\(d)")
            // Blowing from d means the air moves toward d + 180: check against sin/cos.
            let toward = (Double(d) + 180) * .pi / 180
            let speed = Double(windSpeed(u: u, v: v))
            XCTAssertEqual(Double(u), speed * sin(toward), accuracy: 1e-3)
            XCTAssertEqual(Double(v), speed * cos(toward), accuracy: 1e-3)
        }
    }

    func testRotationThenInverseRotationIsIdentityAndKeepsSpeed() {
        var rng = SeededGenerator(seed: 7)
        for _ in 0..<2000 {
            let alpha = Float.random(in: -Float.pi...Float.pi, using: &rng)
            let u = Float.random(in: -40...40, using: &rng)
            let v = Float.random(in: -40...40, using: &rng)
            let e = earthRelativeWind(u: u, v: v, cosAlpha: cos(alpha), sinAlpha: sin(alpha))
            let back = earthRelativeWind(u: e.u, v: e.v, cosAlpha: cos(-alpha), sinAlpha: sin(-alpha))
            XCTAssertEqual(back.u, u, accuracy: 1e-4)
            XCTAssertEqual(back.v, v, accuracy: 1e-4)
            XCTAssertEqual(windSpeed(u: e.u, v: e.v), windSpeed(u: u, v: v), accuracy: 1e-4)
        }
    }

    func testRotationFollowsWrfConvention() {
        // Grid rotated 90° (alpha = 90°): a grid-relative westerly (u = 1) is an earth
        // southerly (v_e = v cos + u sin = 1), and grid v = 1 is earth u_e = -1.
        let a = earthRelativeWind(u: 1, v: 0, cosAlpha: 0, sinAlpha: 1)
        XCTAssertEqual(a.u, 0)
        XCTAssertEqual(a.v, 1)
        let b = earthRelativeWind(u: 0, v: 1, cosAlpha: 0, sinAlpha: 1)
        XCTAssertEqual(b.u, -1)
        XCTAssertEqual(b.v, 0)
        // A grid-north wind on a grid turned by alpha = 20° comes from 360 - 20 = 340°.
        let alpha: Float = 20 * .pi / 180
        let r = earthRelativeWind(u: 0, v: -5, cosAlpha: cos(alpha), sinAlpha: sin(alpha))
        XCTAssertEqual(windDirection(u: r.u, v: r.v), 340, accuracy: 1e-3)
    }

    func testFieldVersions() throws {
        var u: [Float] = [1, 0, -3, .nan, 0]
        var v: [Float] = [0, -2, 4, 1, 0]
        let cosA = [Float](repeating: cos(0.3), count: 5)
        let sinA = [Float](repeating: sin(0.3), count: 5)
        let expected = (0..<5).map { earthRelativeWind(u: u[$0], v: v[$0], cosAlpha: cosA[$0], sinAlpha: sinA[$0]) }
        try rotateToEarthRelative(u: &u, v: &v, cosAlpha: cosA, sinAlpha: sinA)
        for i in 0..<5 where !expected[i].u.isNaN {
            XCTAssertEqual(u[i], expected[i].u)
            XCTAssertEqual(v[i], expected[i].v)
        }
        let speed = try windSpeed(u: u, v: v)
        let direction = try windDirection(u: u, v: v)
        XCTAssert(speed[3].isNaN && direction[3].isNaN)
        XCTAssertEqual(direction[4], 0)
        XCTAssertEqual(speed[2], 5, accuracy: 1e-5)
        XCTAssertThrowsError(try windSpeed(u: [1, 2], v: [1]))
        XCTAssertThrowsError(try rotateToEarthRelative(u: &u, v: &v, cosAlpha: [1], sinAlpha: sinA))
    }
}
