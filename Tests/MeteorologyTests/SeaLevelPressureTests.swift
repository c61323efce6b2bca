import XCTest
import Meteorology

final class SeaLevelPressureTests: XCTestCase {
    func testAtSeaLevelItIsTheSurfacePressure() {
        for p: Float in [98000, 101325, 103500] {
            XCTAssertEqual(seaLevelPressure(surfacePressure: p, elevation: 0, temperature2m: 283), p)
            XCTAssertEqual(seaLevelPressure(surfacePressure: p, elevation: 0, temperature2m: 283, mixingRatio2m: 0.01), p)
        }
    }

    func testThousandMetresAgreesWithTheStandardAtmosphere() {
        // Independent expectation, from the power-law (barometric) form of the standard
        // atmosphere rather than the hypsometric form the code uses: a column with lapse
        // 0.0065 K/m from T2 = 288 K at 1000 m has T0 = 294.5 K at sea level, so
        //   p0 = 90000 * (294.5 / 288)^(g / (R * 0.0065)), g = 9.80665, R = 287.05,
        // which is 101201.57 Pa (computed in Python with float64).
        let slp = seaLevelPressure(surfacePressure: 90000, elevation: 1000, temperature2m: 288)
        XCTAssertEqual(slp, 101201.57, accuracy: 200)
        XCTAssertEqual(slp, 101201.57, accuracy: 20, "both forms agree to a few pascals")
    }

    func testHumidityLowersTheReducedPressureSlightly() {
        let dry = seaLevelPressure(surfacePressure: 90000, elevation: 1000, temperature2m: 288)
        let moist = seaLevelPressure(surfacePressure: 90000, elevation: 1000, temperature2m: 288, mixingRatio2m: 0.01)
        // e = 0.01 * 900 / 0.632 = 14.2 hPa, Ch*e = 1.7 K warmer column: about 70 Pa less.
        XCTAssertLessThan(moist, dry)
        XCTAssertEqual(dry - moist, 70, accuracy: 15)
        XCTAssertEqual(seaLevelPressure(surfacePressure: 90000, elevation: 1000, temperature2m: 288, mixingRatio2m: -0.001), dry)
    }

    func testBelowSeaLevelReducesDownward() {
        XCTAssertLessThan(seaLevelPressure(surfacePressure: 105000, elevation: -400, temperature2m: 300), 105000)
    }

    func testMissingStaysMissingAndFieldsMatchScalars() throws {
        XCTAssert(seaLevelPressure(surfacePressure: .nan, elevation: 100, temperature2m: 280).isNaN)
        XCTAssert(seaLevelPressure(surfacePressure: 9e4, elevation: .nan, temperature2m: 280).isNaN)
        XCTAssert(seaLevelPressure(surfacePressure: 9e4, elevation: 0, temperature2m: .nan).isNaN)
        let p: [Float] = [101000, 85000, 70000], z: [Float] = [0, 1500, 3000], t: [Float] = [290, 280, 265]
        let slp = try seaLevelPressure(surfacePressure: p, elevation: z, temperature2m: t)
        for i in 0..<3 { XCTAssertEqual(slp[i], seaLevelPressure(surfacePressure: p[i], elevation: z[i], temperature2m: t[i])) }
        XCTAssertThrowsError(try seaLevelPressure(surfacePressure: p, elevation: [0], temperature2m: t))
    }
}
