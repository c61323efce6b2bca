import Foundation
import Meteorology
import XCTest

/// `visibility` against UPP CALVIS_GSD's formula worked by hand here (lowest level only).
final class VisibilityTests: XCTestCase {
    /// Air at 1000 hPa: T = theta, so the density is p / (287.04 T (1 + 0.608 q)).
    private let pressure: Float = 100_000

    func testCloudWaterAloneIsKunkelsExtinction() {
        // theta = 280 K at 1000 hPa, dry: rho = 1e5 / (287.04 * 280) = 1.244227 kg/m3;
        // 0.5 g/kg of cloud water: V/m = 1/rho + 0.0005/1000 = 0.803714 m3/kg,
        // C = 0.5 / 0.803714 = 0.622113 g/m3; beta = 144.7 C^0.88 = 95.30 /km; vis = 3/beta km.
        let rho = 100_000.0 / (287.04 * 280)
        let concentration = 0.5 / (1 / rho + 0.0005 / 1000)
        XCTAssertEqual(concentration, 0.622113, accuracy: 1e-6)
        let expected = 3 / (144.7 * pow(concentration, 0.88)) * 1000
        let got = visibility(pressure: pressure, potentialTemperature: 280, vapour: 0, cloudWater: 0.0005,
                             rain: 0, cloudIce: 0, snow: 0, graupel: 0)
        XCTAssertEqual(Double(got), expected, accuracy: 1e-3)
        XCTAssertEqual(Double(got), 31.48, accuracy: 0.01)
    }

    func testSnowIsDryBelowAndWetAboveFreezing() {
        // 0.1 g/kg of snow, extinction linear in C: 10 C /km below 271.15 K, 6 C above 272.15 K.
        for (theta, coefficient) in [(Float(260), 10.0), (275, 6.0), (271.65, 8.0)] {
            let rho = 100_000.0 / (287.04 * Double(theta))
            let concentration = 0.1 / (1 / rho + 0.0001 / 917)
            let expected = 3 / (coefficient * concentration) * 1000
            let got = visibility(pressure: pressure, potentialTemperature: theta, vapour: 0, cloudWater: 0,
                                 rain: 0, cloudIce: 0, snow: 0.0001, graupel: 0)
            XCTAssertEqual(Double(got), expected, accuracy: expected * 1e-5, "theta \(theta)")
        }
    }

    func testHazeFromRelativeHumidity() {
        // At 0 °C UPP's polynomial is 0.99999683, es = 6.1078 / 0.99999683^8 = 6.107955 hPa.
        // RH 0.8: e = 4.886364 hPa; specific humidity q = 0.62197 e' / (1 - 0.37803 e'),
        // e' = e / 1000 hPa; mixing ratio w = q / (1 - q). qrh = 0.8 - 0.15 = 0.65, so
        // vis = 90 exp(-2.5 * 0.65) km = 17.7221 km.
        let es = 6.1078 / pow(0.99999683, 8)
        let ePrime = 0.8 * es / 1000
        let q = 0.62197 * ePrime / (1 - 0.37803 * ePrime)
        let w = Float(q / (1 - q))
        let got = visibility(pressure: pressure, potentialTemperature: 273.15, vapour: w, cloudWater: 0,
                             rain: 0, cloudIce: 0, snow: 0, graupel: 0)
        XCTAssertEqual(Double(got), 90 * exp(-2.5 * 0.65) * 1000, accuracy: 1)
        XCTAssertEqual(Double(got), 17_722.05, accuracy: 1)
        // Saturated: qrh is capped at 0.8, vis = 90 exp(-2) km = 12.18018 km.
        let saturated = visibility(pressure: pressure, potentialTemperature: 280, vapour: 0.02, cloudWater: 0,
                                   rain: 0, cloudIce: 0, snow: 0, graupel: 0)
        XCTAssertEqual(Double(saturated), 12_180.18, accuracy: 0.1)
    }

    func testClearDryAirIsTheCapAndMissingIsMissing() {
        XCTAssertEqual(visibility(pressure: pressure, potentialTemperature: 290, vapour: 0, cloudWater: 0,
                                  rain: 0, cloudIce: 0, snow: 0, graupel: 0), 24_135)
        // Negative mixing ratios (advection round-off) count as none.
        XCTAssertEqual(visibility(pressure: pressure, potentialTemperature: 290, vapour: -1e-6, cloudWater: -1e-7,
                                  rain: 0, cloudIce: 0, snow: 0, graupel: 0), 24_135)
        XCTAssert(visibility(pressure: .nan, potentialTemperature: 290, vapour: 0, cloudWater: 0,
                             rain: 0, cloudIce: 0, snow: 0, graupel: 0).isNaN)
        XCTAssert(visibility(pressure: pressure, potentialTemperature: 290, vapour: 0, cloudWater: 0,
                             rain: 0, cloudIce: 0, snow: 0, graupel: .nan).isNaN)
    }
}
