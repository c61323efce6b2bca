import TestSupport
import XCTest
import Meteorology

final class ApparentTemperatureTests: XCTestCase {
    // Issue 15 item 9: Open-Meteo's definition, worked independently (Python float64):
    //   ws = 0.75 * ws10,  e = rh/100 * 6.105 * exp(17.27*T/(237.7+T)),
    //   Q = max(0, 0.1*(SW - 550)),  AT = T + 0.348*e - 0.70*ws + 0.70*Q/(ws+10) - 4.25
    // T=30, rh=50, ws10=3,  SW=900:  ws = 2.25, e = 21.143581, Q = 35     AT = 33.5330
    // T=30, rh=50, ws10=3,  SW=0:                                         AT = 31.5330
    // T=-5, rh=80, ws10=10, SW=0:    ws = 7.5                             AT = -13.3273
    // T=20, rh=60, ws10=0,  SW=1000: Q = 45, 0.7*45/10 = 3.15             AT = 23.7698
    // T=25, rh=40, ws10=5,  SW=550:  Q = 0                                AT = 22.5213
    // (The former formula gave 39.49, 31.01, -15.08, 32.87 and 26.14 for these.)
    func testReferenceValuesOfOpenMeteosDefinition() {
        let cases: [(t: Float, rh: Float, ws: Float, sw: Float, at: Float)] = [
            (30, 50, 3, 900, 33.5330),
            (30, 50, 3, 0, 31.5330),
            (-5, 80, 10, 0, -13.3273),
            (20, 60, 0, 1000, 23.7698),
            (25, 40, 5, 550, 22.5213),
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
        XCTAssertEqual(out[1], 36.522892, accuracy: 0.001)   // Python float64, Open-Meteo definition
    }
}
