import Foundation
import TestSupport
import XCTest
import Meteorology

final class HumidityTests: XCTestCase {
    // Reference values computed once, independently, in float64 with numpy by transcribing
    // wrf-python's DCOMPUTERH and DCOMPUTETD (fortran/wrf_user.f90, constants from
    // wrf_constants.f90):
    //   es  = 6.112*exp(17.67*(t-273.15)/(t-29.65)); qvs = 0.622*es/(0.01*p - 0.378*es)
    //   rh  = 100*max(min(q/qvs, 1), 0)
    //   e   = max(max(q,0)*0.01*p/(0.622+max(q,0)), 0.001)
    //   td  = (243.5*log(e) - 440.8)/(19.48 - log(e))  [°C], + 273.15 for K
    // (q kg/kg, t K, p Pa) -> (rh %, td K)
    let references: [(q: Float, t: Float, p: Float, rh: Float, td: Float)] = [
        (0.0, 250.0, 70000.0, 0.000000, 192.702141),
        (0.001, 268.15, 85000.0, 32.322845, 254.101478),
        (0.005, 283.15, 101325.0, 66.069171, 277.058507),
        (0.010, 293.15, 100000.0, 68.187894, 287.003673),
        (0.0152, 300.0, 95000.0, 64.758276, 292.654720),
        (0.020, 305.0, 101000.0, 67.605501, 298.038724),
    ]

    func testRelativeHumidityMatchesWrfPythonReference() {
        for r in references {
            XCTAssertEqual(relativeHumidity(mixingRatio: r.q, temperature: r.t, pressure: r.p), r.rh,
                           accuracy: 0.005, "q=\(r.q) t=\(r.t) p=\(r.p)")
        }
    }

    func testDewPointMatchesWrfPythonReference() {
        for r in references {
            XCTAssertEqual(dewPoint(mixingRatio: r.q, pressure: r.p), r.td, accuracy: 0.005, "q=\(r.q) p=\(r.p)")
        }
    }

    /// Saturation mixing ratio in the form rh2 uses, computed here in Double.
    private func rh2SaturationMixingRatio(temperature t: Double, pressure p: Double) -> Double {
        let es = 6.112 * exp(17.67 * (t - 273.15) / (t - 29.65))
        return 0.622 * es / (0.01 * p - 0.378 * es)
    }

    func testRelativeHumidityIsHundredAtSaturationAndClampsAbove() {
        for (t, p) in [(263.15, 80000.0), (283.15, 100000.0), (303.15, 101325.0)] {
            let qvs = rh2SaturationMixingRatio(temperature: t, pressure: p)
            XCTAssertEqual(relativeHumidity(mixingRatio: Float(qvs), temperature: Float(t), pressure: Float(p)),
                           100, accuracy: 0.01)
            XCTAssertEqual(relativeHumidity(mixingRatio: Float(qvs * 1.2), temperature: Float(t), pressure: Float(p)), 100)
            XCTAssertEqual(relativeHumidity(mixingRatio: Float(qvs * 0.5), temperature: Float(t), pressure: Float(p)),
                           50, accuracy: 0.01)
        }
    }

    func testDewPointEqualsTemperatureWhenVapourPressureIsSaturated() {
        // Td inverts the mixing-ratio form e = q p / (0.622 + q), so saturation for Td is
        // q = 0.622 es / (p - es) with es by the same Magnus form (17.67, 243.5).
        for celsius in stride(from: -30.0, through: 35.0, by: 5.0) {
            let t = celsius + 273.15
            let p = 95000.0
            let es = 6.112 * exp(17.67 * celsius / (celsius + 243.5))
            let q = 0.622 * es / (0.01 * p - es)
            XCTAssertEqual(dewPoint(mixingRatio: Float(q), pressure: Float(p)), Float(t), accuracy: 0.05, "T=\(celsius) °C")
        }
    }

    func testDewPointNeverAboveTemperatureForUnsaturatedAir() {
        var rng = SeededGenerator(seed: 0x7D2)
        for _ in 0..<5000 {
            let t = Double.random(in: 233...318, using: &rng)
            let p = Double.random(in: 50000...105000, using: &rng)
            let q = rh2SaturationMixingRatio(temperature: t, pressure: p) * Double.random(in: 0...1, using: &rng)
            let td = dewPoint(mixingRatio: Float(q), pressure: Float(p))
            XCTAssertLessThanOrEqual(td, Float(t) + 1e-3, "t=\(t) p=\(p) q=\(q)")
            let rh = relativeHumidity(mixingRatio: Float(q), temperature: Float(t), pressure: Float(p))
            XCTAssert((0...100).contains(rh), "rh=\(rh)")
        }
    }

    func testNegativeMixingRatioGivesZeroHumidityAndFiniteDewPoint() {
        XCTAssertEqual(relativeHumidity(mixingRatio: -1e-4, temperature: 290, pressure: 100000), 0)
        let td = dewPoint(mixingRatio: -1e-4, pressure: 100000)
        XCTAssert(td.isFinite)
        // Same as q = 0: the 0.001 hPa floor of DCOMPUTETD (192.70 K, see references).
        XCTAssertEqual(td, dewPoint(mixingRatio: 0, pressure: 100000))
        XCTAssertEqual(td, 192.702141, accuracy: 0.005)
    }

    func testMissingStaysMissing() {
        XCTAssert(relativeHumidity(mixingRatio: .nan, temperature: 290, pressure: 1e5).isNaN)
        XCTAssert(relativeHumidity(mixingRatio: 0.01, temperature: .nan, pressure: 1e5).isNaN)
        XCTAssert(relativeHumidity(mixingRatio: 0.01, temperature: 290, pressure: .nan).isNaN)
        XCTAssert(dewPoint(mixingRatio: .nan, pressure: 1e5).isNaN)
        XCTAssert(dewPoint(mixingRatio: 0.01, pressure: .nan).isNaN)
    }

    func testFieldVersionsMatchScalarsAndWorkInPlace() throws {
        let q = references.map(\.q) + [.nan, -0.001]
        let t = references.map(\.t) + [290, 290]
        let p = references.map(\.p) + [1e5, 1e5]
        let rh = try relativeHumidity(mixingRatio: q, temperature: t, pressure: p)
        let td = try dewPoint(mixingRatio: q, pressure: p)
        for i in q.indices {
            let expectedRH = relativeHumidity(mixingRatio: q[i], temperature: t[i], pressure: p[i])
            let expectedTd = dewPoint(mixingRatio: q[i], pressure: p[i])
            XCTAssert(rh[i] == expectedRH || (rh[i].isNaN && expectedRH.isNaN))
            XCTAssert(td[i] == expectedTd || (td[i].isNaN && expectedTd.isNaN))
        }
        // In place: the Q2 buffer becomes the dew point.
        var field = q
        try p.withUnsafeBufferPointer { p in
            try field.withUnsafeMutableBufferPointer { f in
                try dewPoint(mixingRatio: UnsafeBufferPointer(f), pressure: p, into: f)
            }
        }
        for i in q.indices { XCTAssert(field[i] == td[i] || (field[i].isNaN && td[i].isNaN)) }
    }

    func testFieldLengthMismatchNamesTheField() {
        XCTAssertThrowsError(try relativeHumidity(mixingRatio: [0.01, 0.01], temperature: [290], pressure: [1e5, 1e5])) {
            XCTAssertEqual($0 as? MeteorologyError,
                           .fieldLengthMismatch(argument: "temperature", expected: 2, actual: 1))
        }
        XCTAssertThrowsError(try dewPoint(mixingRatio: [0.01], pressure: []))
    }
}
