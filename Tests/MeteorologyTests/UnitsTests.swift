import TestSupport
import XCTest
import Meteorology

final class UnitsTests: XCTestCase {
    func testRawValuesAreTheOpenWeatherApiWords() {
        XCTAssertEqual(TemperatureUnit.allCases.map(\.rawValue), ["celsius", "fahrenheit"])
        XCTAssertEqual(WindSpeedUnit.allCases.map(\.rawValue), ["kmh", "ms", "mph", "kn"])
        XCTAssertEqual(PrecipitationUnit.allCases.map(\.rawValue), ["mm", "inch"])
        XCTAssertEqual(WindSpeedUnit(rawValue: "kn"), .kn)
        XCTAssertNil(WindSpeedUnit(rawValue: "knots"))
    }

    func testTemperature() {
        XCTAssertEqual(TemperatureUnit.fahrenheit.convert(0), 32)
        XCTAssertEqual(TemperatureUnit.fahrenheit.convert(100), 212)
        XCTAssertEqual(TemperatureUnit.fahrenheit.convert(-40), -40)
        XCTAssertEqual(TemperatureUnit.celsius.convert(21.5), 21.5)
        XCTAssertEqual(TemperatureUnit.fahrenheit.celsius(from: 212), 100)
        XCTAssertEqual(celsius(fromKelvin: 273.15), 0)
        XCTAssertEqual(kelvin(fromCelsius: -273.15), 0)
        XCTAssertEqual(celsius(fromKelvin: 300), 26.85, accuracy: 1e-4)
    }

    func testWindSpeed() {
        XCTAssertEqual(WindSpeedUnit.ms.metresPerSecond(from: 1), 1)
        XCTAssertEqual(WindSpeedUnit.kmh.metresPerSecond(from: 100), 27.777_778, accuracy: 1e-5)
        XCTAssertEqual(WindSpeedUnit.kmh.convert(10), 36, accuracy: 1e-5)
        // 1 kn = 1852 m/h = 1.852 km/h; 1 mph = 1609.344 m/h.
        let oneKnot = WindSpeedUnit.kn.metresPerSecond(from: 1)
        XCTAssertEqual(WindSpeedUnit.kmh.convert(oneKnot), 1.852, accuracy: 1e-6)
        XCTAssertEqual(WindSpeedUnit.mph.convert(WindSpeedUnit.kmh.metresPerSecond(from: 1.609_344)), 1, accuracy: 1e-6)
        XCTAssertEqual(WindSpeedUnit.kn.convert(10), 19.438_445, accuracy: 1e-4)
    }

    func testPrecipitation() {
        XCTAssertEqual(PrecipitationUnit.inch.convert(25.4), 1)
        XCTAssertEqual(PrecipitationUnit.inch.millimetres(from: 1), 25.4)
        XCTAssertEqual(PrecipitationUnit.mm.convert(3.2), 3.2)
        XCTAssertEqual(PrecipitationUnit.inch.convertSnowfall(2.54), 1)
        XCTAssertEqual(PrecipitationUnit.mm.convertSnowfall(2.54), 2.54)
    }

    func testPressure() {
        XCTAssertEqual(hectopascals(fromPascals: 101_325), 1013.25)
        XCTAssertEqual(pascals(fromHectopascals: 1013.25), 101_325)
    }

    func testRoundTrips() {
        var rng = SeededGenerator(seed: 1852)
        for _ in 0..<2000 {
            let x = Float.random(in: -500...500, using: &rng)
            for unit in TemperatureUnit.allCases {
                XCTAssertEqual(unit.celsius(from: unit.convert(x)), x, accuracy: abs(x) * 1e-6 + 1e-5)
            }
            for unit in WindSpeedUnit.allCases {
                XCTAssertEqual(unit.metresPerSecond(from: unit.convert(x)), x, accuracy: abs(x) * 1e-6 + 1e-6)
            }
            for unit in PrecipitationUnit.allCases {
                XCTAssertEqual(unit.millimetres(from: unit.convert(x)), x, accuracy: abs(x) * 1e-6 + 1e-6)
            }
            XCTAssertEqual(kelvin(fromCelsius: celsius(fromKelvin: x + 500)), x + 500, accuracy: 1e-4)
        }
    }

}
