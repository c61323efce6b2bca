import Foundation
import Meteorology
import TestSupport
import XCTest

/// Facts written out from published tables, not from the code: the ICAO Standard Atmosphere's
/// sea-level density, and the Earth's perihelion and aphelion distances of 2024.
final class AirDensityAndTopOfAtmosphereTests: XCTestCase {
    /// ISA sea level (ICAO Doc 7488): 15 °C, 1013.25 hPa, dry air: 1.2250 kg/m³.
    func testDryAirAtStandardSeaLevel() {
        // A dew point of -80 °C leaves 0.0005 hPa of vapour: dry for four decimals.
        XCTAssertEqual(moistAirDensity(temperature: 15, dewPoint: -80, pressure: 1013.25), 1.2250, accuracy: 0.0002)
    }

    /// Vapour is lighter than the dry air it displaces: saturated air at 30 °C is about 1 % lighter
    /// (e = 42.4 hPa: Δρ = e (1/Rd − 1/Rv)/T = 4240 · 0.001317 / 303.15 ≈ 0.0184 kg/m³).
    func testMoistAirIsLighter() {
        let dry = moistAirDensity(temperature: 30, dewPoint: -80, pressure: 1000)
        let saturated = moistAirDensity(temperature: 30, dewPoint: 30, pressure: 1000)
        XCTAssertEqual(dry - saturated, 0.0184, accuracy: 0.0006)
    }

    /// Perihelion 2024-01-03 00:39 UTC at 0.983307 AU, aphelion 2024-07-05 05:06 UTC at 1.016725 AU
    /// (US Naval Observatory, "Earth's Seasons and Apsides").
    func testSunDistanceAtTheApsides() {
        func distance(_ iso: String) -> Double {
            let time = ISO8601DateFormatter().date(from: iso)?.timeIntervalSince1970 ?? .nan
            return TerrestrialRadiation.sunDistance(julianCentury: SolarPosition.julianCentury(time))
        }
        XCTAssertEqual(distance("2024-01-03T00:39:00Z"), 0.983307, accuracy: 0.0001)
        XCTAssertEqual(distance("2024-07-05T05:06:00Z"), 1.016725, accuracy: 0.0001)
    }

    /// At night the top of the atmosphere gets nothing; the hour's mean of a constant-sun hour is
    /// close to its middle's value, and a mean is never above the hour's largest value.
    func testInstantAndMean() {
        let midnight = Double(ISO8601DateFormatter().date(from: "2024-06-21T00:00:00Z")?.timeIntervalSince1970 ?? .nan)
        XCTAssertEqual(TerrestrialRadiation.instant(latitude: 48, longitude: 0, time: midnight), 0)
        let noon = Int64(midnight) + 12 * 3600
        let mean = TerrestrialRadiation.backwardsMean(latitude: 48, longitude: 0, end: noon + 1800, window: 3600)
        let middle = TerrestrialRadiation.instant(latitude: 48, longitude: 0, time: Double(noon))
        XCTAssertLessThan(mean, middle)
        XCTAssertEqual(mean, middle, accuracy: 3)
        // June solstice noon at 48° N: S0 / r² cos(48 − 23.44) with r = 1.0163.
        XCTAssertEqual(middle, 1367.7 / (1.0163 * 1.0163) * cos((48 - 23.44) * Double.pi / 180), accuracy: 2)
    }

    /// The hour's mean integrated over the hour angle equals the mean of many instants (10 s
    /// apart) within 0.1 W/m², at seeded places and times: sunrise and sunset hours, polar day and
    /// night, windows across midnight and 3-hour windows included.
    func testIntegratedMeanMatchesSampledMean() {
        var random = SeededGenerator(seed: 0x30_70a_2026_1127)
        for _ in 0..<500 {
            let latitude = Double.random(in: -89.9...89.9, using: &random), longitude = Double.random(in: -180...180, using: &random)
            let end = Int64.random(in: 0...4_102_444_800, using: &random) / 60 * 60
            let window: Int64 = [3600, 10_800, 900][Int.random(in: 0...2, using: &random)]
            let samples = Int(window / 10)
            var sum = 0.0
            for k in 0..<samples {
                sum += TerrestrialRadiation.instant(latitude: latitude, longitude: longitude, time: Double(end - window) + (Double(k) + 0.5) * 10)
            }
            let mean = TerrestrialRadiation.backwardsMean(latitude: latitude, longitude: longitude, end: end, window: window)
            XCTAssertEqual(mean, sum / Double(samples), accuracy: 0.1, "\(latitude), \(longitude) at \(end), \(window) s")
        }
    }
}
