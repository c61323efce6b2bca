import TestSupport
import XCTest
import Meteorology

final class ApparentTemperatureTests: XCTestCase {
    // Worked by hand from the ABoM formula (and checked once with Python float64):
    //   e  = rh/100 * 6.105 * exp(17.27*T/(237.7+T))
    //   Q  = 0.7 * 0.25 * SW
    //   AT = T + 0.348*e - 0.70*ws + 0.70*Q/(ws+10) - 4.25
    // T=20, rh=50, ws=0, SW=0:    e = 11.661340  AT = 20 + 4.058146 - 4.25          = 19.808146
    // T=30, rh=70, ws=2, SW=800:  e = 29.601013  Q = 140, 0.7*140/12 = 8.166667
    //                             AT = 30 + 10.301152 - 1.4 + 8.166667 - 4.25        = 42.817819
    // T=-5, rh=80, ws=10, SW=0:   e = 3.369910   AT = -5 + 1.172729 - 7 - 4.25       = -15.077271
    // T=25, rh=40, ws=3, SW=900:  e = 12.633185  Q = 157.5, 0.7*157.5/13 = 8.480769
    //                             AT = 25 + 4.396348 - 2.1 + 8.480769 - 4.25         = 31.527118
    func testReferenceValues() {
        let cases: [(t: Float, rh: Float, ws: Float, sw: Float, at: Float)] = [
            (20, 50, 0, 0, 19.808146),
            (30, 70, 2, 800, 42.817819),
            (-5, 80, 10, 0, -15.077271),
            (25, 40, 3, 900, 31.527118),
        ]
        for c in cases {
            XCTAssertEqual(apparentTemperature(temperature: c.t, relativeHumidity: c.rh, windSpeed: c.ws,
                                               shortwaveRadiation: c.sw), c.at, accuracy: 0.001, "\(c)")
        }
    }

    func testMonotonicInTemperatureAndInSunshine() {
        var rng = SeededGenerator(seed: 94)
        for _ in 0..<500 {
            let rh = Float.random(in: 5...100, using: &rng)
            let ws = Float.random(in: 0...25, using: &rng)
            let sw = Float.random(in: 0...1100, using: &rng)
            var previous = -Float.infinity
            for t in stride(from: Float(-30), through: 45, by: 0.5) {
                let at = apparentTemperature(temperature: t, relativeHumidity: rh, windSpeed: ws, shortwaveRadiation: sw)
                XCTAssertGreaterThan(at, previous, "rh=\(rh) ws=\(ws) sw=\(sw) t=\(t)")
                previous = at
            }
            let shade = apparentTemperature(temperature: 20, relativeHumidity: rh, windSpeed: ws, shortwaveRadiation: 0)
            let sun = apparentTemperature(temperature: 20, relativeHumidity: rh, windSpeed: ws, shortwaveRadiation: sw)
            XCTAssertGreaterThanOrEqual(sun, shade)
        }
    }

    func testNegativeRadiationCountsAsNoneAndNaNStaysNaN() {
        XCTAssertEqual(apparentTemperature(temperature: 10, relativeHumidity: 60, windSpeed: 3, shortwaveRadiation: -5),
                       apparentTemperature(temperature: 10, relativeHumidity: 60, windSpeed: 3, shortwaveRadiation: 0))
        XCTAssert(apparentTemperature(temperature: .nan, relativeHumidity: 60, windSpeed: 3, shortwaveRadiation: 0).isNaN)
        XCTAssert(apparentTemperature(temperature: 10, relativeHumidity: .nan, windSpeed: 3, shortwaveRadiation: 0).isNaN)
        XCTAssert(apparentTemperature(temperature: 10, relativeHumidity: 60, windSpeed: .nan, shortwaveRadiation: 0).isNaN)
        XCTAssert(apparentTemperature(temperature: 10, relativeHumidity: 60, windSpeed: 3, shortwaveRadiation: .nan).isNaN)
    }

    func testFieldVersion() throws {
        let t: [Float] = [20, 30], rh: [Float] = [50, 70], ws: [Float] = [0, 2], sw: [Float] = [0, 800]
        var out: [Float] = [0, 0]
        try t.withUnsafeBufferPointer { t in
            try rh.withUnsafeBufferPointer { rh in
                try ws.withUnsafeBufferPointer { ws in
                    try sw.withUnsafeBufferPointer { sw in
                        try out.withUnsafeMutableBufferPointer { o in
                            try apparentTemperature(temperature: t, relativeHumidity: rh, windSpeed: ws,
                                                    shortwaveRadiation: sw, into: o)
                        }
                    }
                }
            }
        }
        XCTAssertEqual(out[0], 19.808146, accuracy: 0.001)
        XCTAssertEqual(out[1], 42.817819, accuracy: 0.001)
    }
}
