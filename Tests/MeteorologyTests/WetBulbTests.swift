import Foundation
import Meteorology
import XCTest

/// Stull (2011)'s wet-bulb fit against the paper's own worked value and against physics it must
/// respect (Tw = T at saturation within the fit's ~1 K, Tw < T below it, capped at T).
final class WetBulbTests: XCTestCase {
    /// The paper's example: "at T = 20 °C and RH = 50 %, Tw = 13.7 °C" (J. Appl. Meteor.
    /// Climatol. 50, 2267, abstract).
    func testThePapersWorkedExample() {
        XCTAssertEqual(wetBulbTemperature(temperature: 20, relativeHumidity: 50), 13.7, accuracy: 0.05)
    }

    func testSaturatedAirIsNearItsOwnTemperatureAndNeverAbove() {
        for t: Float in [-10, 0, 10, 25, 40] {
            let saturated = wetBulbTemperature(temperature: t, relativeHumidity: 99)
            XCTAssertEqual(saturated, t, accuracy: 1, "T \(t)")
            XCTAssertLessThanOrEqual(wetBulbTemperature(temperature: t, relativeHumidity: 140), t)
            XCTAssertLessThan(wetBulbTemperature(temperature: t, relativeHumidity: 30), saturated)
        }
    }
}
