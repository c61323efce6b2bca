import XCTest
import Meteorology

/// `WeatherCode.calculate` against Open-Meteo's rule as its source writes it
/// (open-meteo `Sources/App/Helper/WeatherCode.swift`, `calculate`, commit ba13de1c): the
/// bands' bounds on both sides, the order of the branches, and the thunderstorm probability
/// checked against numbers worked by hand from that file's formula.
final class WeatherCodeTests: XCTestCase {
    private func code(cloud: Float = 0, rain: Float = 0, snow: Float = 0, showers: Float? = nil, visibility: Float? = nil,
                      cape: Float? = nil, gusts: Float? = nil, height: Float? = nil, hours: Float = 1, latitude: Float = 45) -> Int? {
        WeatherCode.calculate(WeatherCodeInputs(cloudCover: cloud, precipitation: rain, snowfall: snow, showers: showers,
                                                visibility: visibility, cape: cape, gusts: gusts, boundaryLayerHeight: height,
                                                hours: hours, latitude: latitude))?.rawValue
    }

    /// `switch cloudcover { case 0..<20 ... case 80...: }`: a negative cover has no code.
    func testCloudBandsAndTheirBoundaries() {
        let cases: [(Float, Int?)] = [(-0.1, nil), (0, 0), (19.99, 0), (20, 1), (49.99, 1), (50, 2), (79.99, 2), (80, 3), (100, 3), (101, 3)]
        for (cloud, expected) in cases { XCTAssertEqual(code(cloud: cloud), expected, "cloud \(cloud)") }
        XCTAssertEqual(code(cloud: 90, rain: 0.0099), 3, "below 0.01 mm/h the sky decides")
    }

    /// Drizzle and rain from 0.01 mm/h: 51 / 53 / 55 / 61 / 63 / 65 at 0.5, 1.0, 1.3, 2.5, 7.6.
    func testDrizzleAndRainBands() {
        let cases: [(Float, Int)] = [(0.01, 51), (0.49, 51), (0.5, 53), (0.99, 53), (1.0, 55), (1.29, 55),
                                     (1.3, 61), (2.49, 61), (2.5, 63), (7.59, 63), (7.6, 65), (40, 65)]
        for (rate, expected) in cases {
            XCTAssertEqual(code(cloud: 100, rain: rate), expected, "rate \(rate)")
            XCTAssertEqual(code(cloud: 0, rain: rate), expected, "precipitation overrides a clear sky")
            XCTAssertEqual(code(cloud: 0, rain: rate * 3, hours: 3), expected, "a 3-hour amount is a rate per hour first")
        }
    }

    /// Showers when the convective part is above 0 (any trace): 80 / 81 / 82 from 1.3 mm/h;
    /// below 1.3 a convective row falls through to drizzle.
    func testRainShowerBandsAndTheirFallThrough() {
        let cases: [(Float, Int)] = [(0.01, 51), (1.29, 55), (1.3, 80), (2.49, 80), (2.5, 81), (7.59, 81), (7.6, 82), (30, 82)]
        for (rate, expected) in cases {
            XCTAssertEqual(code(cloud: 60, rain: rate, showers: 0.001), expected, "rate \(rate)")
        }
        XCTAssertEqual(code(cloud: 60, rain: 3, showers: 0), 63, "no convective part: steady rain")
        XCTAssertEqual(code(cloud: 60, rain: 3, showers: nil), 63, "showers not held: steady rain")
        XCTAssertEqual(code(cloud: 60, rain: 3, showers: .nan), 63, "NaN showers count as not held")
    }

    /// Snow from 0.01 cm/h before any rain code: 71 / 73 / 75 at 0.2 and 0.8 cm/h; snow showers
    /// 85 below 0.8 cm/h and 86 from it.
    func testSnowAndSnowShowerBands() {
        let steady: [(Float, Int)] = [(0.0099, 63), (0.01, 71), (0.19, 71), (0.2, 73), (0.79, 73), (0.8, 75), (3, 75)]
        for (snow, expected) in steady { XCTAssertEqual(code(cloud: 100, rain: 5, snow: snow), expected, "snow \(snow)") }
        let showers: [(Float, Int)] = [(0.01, 85), (0.2, 85), (0.79, 85), (0.8, 86), (3, 86)]
        for (snow, expected) in showers { XCTAssertEqual(code(cloud: 70, rain: 0, snow: snow, showers: 0.1), expected, "snow \(snow)") }
        XCTAssertEqual(code(cloud: 100, rain: 0, snow: 0.3), 73, "snowfall alone is precipitation")
    }

    /// Fog when visibility is at most 1000 m, after every precipitation code and before the cloud codes.
    func testFogFromVisibility() {
        XCTAssertEqual(code(visibility: 1000), 45)
        XCTAssertEqual(code(visibility: Float(1000).nextUp), 0)
        XCTAssertEqual(code(cloud: 90, visibility: 24_135), 3)
        XCTAssertEqual(code(rain: 0.01, visibility: 40), 51, "drizzle in fog is drizzle")
        XCTAssertEqual(code(cloud: 100, rain: 0.0099, visibility: 40), 45)
        XCTAssertEqual(code(snow: 0.01, visibility: 40), 71)
        XCTAssertEqual(code(visibility: nil), 0, "no visibility held: never fog")
        XCTAssertEqual(code(visibility: .nan), 0, "NaN visibility counts as not held")
    }

    func testMissingRequiredInputGivesNoCode() {
        XCTAssertNil(code(cloud: .nan))
        XCTAssertNil(code(rain: .nan))
        XCTAssertNil(code(snow: .nan))
        XCTAssertNil(code(rain: .infinity))
    }

    /// The thunderstorm probability with CAPE, by hand from Open-Meteo's formula (mid-latitude,
    /// no CIN or lifted index): CAPE 2500 J/kg scores (2500 - 300) / (2500 - 300) = 1 x 0.25;
    /// showers 2 mm/h against 2 mm/h score 1 x 0.25; PBL 1500 m scores 1 x 0.075; gusts 18 m/s
    /// 1 x 0.075: 100 % -> 96. With CAPE 1400: (1100 / 2200) = 0.5 -> (0.125 + 0.25 + 0.075 +
    /// 0.075) / 0.65 = 80.77 % -> 95. CAPE 10 or cloud below 30 %: 0. At the equator the CAPE
    /// ceiling is 4000 J/kg, the rain reference 5 mm/h, and the result x 0.8.
    func testThunderstormFromCAPE() {
        func probability(cloud: Float = 100, rain: Float = 2, showers: Float? = 2, cape: Float, gusts: Float? = 18, height: Float? = 1500,
                         latitude: Float = 45) -> Float {
            WeatherCode.thunderstormProbability(WeatherCodeInputs(cloudCover: cloud, precipitation: rain, snowfall: 0, showers: showers,
                                                                  cape: cape, gusts: gusts, boundaryLayerHeight: height, latitude: latitude), cape: cape)
        }
        XCTAssertEqual(probability(cape: 2500), 100, accuracy: 1e-4)
        XCTAssertEqual(probability(cape: 1400), (0.125 + 0.25 + 0.075 + 0.075) / 0.65 * 100, accuracy: 1e-3)
        XCTAssertEqual(probability(cape: 10), 0)
        XCTAssertEqual(probability(cloud: 29.9, cape: 2500), 0)
        // No showers: precipitation against 1.6 x the reference with 0.6 of the weight; 2 mm/h
        // against 3.2 scores 0.625: (0.25 + 0.625 x 0.15) / (0.25 + 0.15) = 85.94 %.
        XCTAssertEqual(probability(showers: nil, cape: 2500, gusts: nil, height: nil), (0.25 + 0.625 * 0.15) / 0.4 * 100, accuracy: 1e-3)
        // Dry: x 0.7; cloud 45 %: x (0.6 + 0.4 x 0.5) = 0.8; the equator: x 0.8, CAPE ceiling 4000.
        XCTAssertEqual(probability(rain: 0, showers: nil, cape: 2500, gusts: nil, height: nil), 0.25 / 0.4 * 100 * 0.7, accuracy: 1e-3)
        XCTAssertEqual(probability(cloud: 45, cape: 2500), 80, accuracy: 1e-3)
        XCTAssertEqual(probability(rain: 5, showers: 5, cape: 4000, latitude: 0), 80, accuracy: 1e-3)
        XCTAssertEqual(code(cloud: 100, rain: 2, showers: 2, cape: 2500, gusts: 18, height: 1500), 96)
        XCTAssertEqual(code(cloud: 100, rain: 2, showers: 2, cape: 1400, gusts: 18, height: 1500), 95)
        // CAPE >= 800 makes precipitation showery even without convective rain.
        XCTAssertEqual(code(cloud: 20, rain: 2, cape: 800), 80)
        XCTAssertEqual(code(cloud: 20, rain: 2, cape: 799), 61)
    }

    func testEveryCodeIsAWmoCodeWithASummary() {
        let wmo: Set<Int> = [0, 1, 2, 3, 45, 48, 51, 53, 55, 56, 57, 61, 63, 65, 66, 67, 71, 73, 75, 80, 81, 82, 85, 86, 95, 96, 99]
        XCTAssertEqual(Set(WeatherCode.allCases.map(\.rawValue)), wmo)
        XCTAssert(WeatherCode.allCases.allSatisfy { !$0.summary.isEmpty })
        XCTAssertEqual(Set(WeatherCode.severityOrder), Set(WeatherCode.allCases), "every code has a severity")
        XCTAssertEqual(WeatherCode.severityOrder.count, WeatherCode.allCases.count)
        // Fog ranks above a dry sky and below any precipitation; thunderstorms above all.
        XCTAssertEqual(WeatherCode.mostSevere([3, 45, 0]), 45)
        XCTAssertEqual(WeatherCode.mostSevere([45, 51]), 51)
        XCTAssertEqual(WeatherCode.mostSevere([67, 95, 65]), 95)
    }
}
