import XCTest
import Meteorology

final class WeatherCodeTests: XCTestCase {
    private func code(
        cloud: Float = 0, rain: Float = 0, snow: Float? = nil, convective: Float? = nil
    ) -> Int? {
        WeatherCode.classify(cloudCover: cloud, precipitationRate: rain, snowfallRate: snow,
                             convectivePrecipitationRate: convective)?.rawValue
    }

    func testCloudBandsAndTheirBoundaries() {
        let cases: [(Float, Int)] = [
            (0, 0), (19.99, 0), (20, 1), (49.99, 1), (50, 2), (79.99, 2), (80, 3), (100, 3),
        ]
        for (cloud, expected) in cases { XCTAssertEqual(code(cloud: cloud), expected, "cloud \(cloud)") }
        // Below the precipitation threshold the sky decides.
        XCTAssertEqual(code(cloud: 90, rain: 0.099), 3)
    }

    func testSteadyRainAndDrizzleBands() {
        let cases: [(Float, Int)] = [
            (0.1, 51), (0.49, 51), (0.5, 53), (0.99, 53), (1.0, 55), (1.29, 55),
            (1.3, 61), (2.49, 61), (2.5, 63), (7.59, 63), (7.6, 65), (40, 65),
        ]
        for (rate, expected) in cases {
            XCTAssertEqual(code(cloud: 100, rain: rate), expected, "rate \(rate)")
            // Precipitation overrides a clear sky, and a small convective part stays steady.
            XCTAssertEqual(code(cloud: 0, rain: rate, convective: rate * 0.49), expected, "rate \(rate)")
        }
    }

    func testRainShowerBands() {
        let cases: [(Float, Int)] = [(0.1, 80), (2.49, 80), (2.5, 81), (7.59, 81), (7.6, 82), (30, 82)]
        for (rate, expected) in cases {
            XCTAssertEqual(code(cloud: 60, rain: rate, convective: rate * 0.5), expected, "rate \(rate)")
            XCTAssertEqual(code(cloud: 60, rain: rate, convective: rate), expected, "rate \(rate)")
        }
    }

    func testSnowBands() {
        // Snowfall (cm/h) with its water (mm/h = cm / 0.7) as the precipitation rate.
        let cases: [(Float, Int)] = [(0.07, 71), (0.19, 71), (0.2, 73), (0.79, 73), (0.8, 75), (3, 75)]
        for (snow, expected) in cases {
            XCTAssertEqual(code(cloud: 100, rain: snow / 0.7, snow: snow), expected, "snow \(snow)")
        }
    }

    func testSnowShowerBands() {
        let cases: [(Float, Int)] = [(0.07, 85), (0.79, 85), (0.8, 86), (3, 86)]
        for (snow, expected) in cases {
            let water = snow / 0.7
            XCTAssertEqual(code(cloud: 70, rain: water, snow: snow, convective: water), expected, "snow \(snow)")
        }
    }

    func testSnowNeedsHalfTheWater() {
        // 2 mm/h of precipitation: 0.7 cm/h of snow is exactly 1 mm of water, half of it.
        XCTAssertEqual(code(cloud: 100, rain: 2, snow: 0.7), 73)
        XCTAssertEqual(code(cloud: 100, rain: 2, snow: 0.69), 61)
        // A snowfall rate without precipitation rate still counts as precipitation.
        XCTAssertEqual(code(cloud: 100, rain: 0, snow: 0.3), 73)
    }

    func testMissingInputGivesNoCode() {
        XCTAssertNil(code(cloud: .nan))
        XCTAssertNil(code(rain: .nan))
        XCTAssertNil(code(snow: .nan))
        XCTAssertNil(code(convective: .nan))
        XCTAssert(weatherCode(cloudCover: .nan, precipitationRate: 0).isNaN)
        XCTAssertEqual(weatherCode(cloudCover: 85, precipitationRate: 0), 3)
    }

    func testFieldVersion() throws {
        let cloud: [Float] = [10, 90, 90, 50, .nan]
        let rain: [Float] = [0, 3, 3, 1, 0]
        let snow: [Float] = [0, 0, 3, 0, 0]
        let conv: [Float] = [0, 0, 3, 1, 0]
        var out = [Float](repeating: -1, count: 5)
        try cloud.withUnsafeBufferPointer { c in
            try rain.withUnsafeBufferPointer { r in
                try snow.withUnsafeBufferPointer { s in
                    try conv.withUnsafeBufferPointer { v in
                        try out.withUnsafeMutableBufferPointer { o in
                            try weatherCode(cloudCover: c, precipitationRate: r, snowfallRate: s,
                                            convectivePrecipitationRate: v, into: o)
                        }
                    }
                }
            }
        }
        XCTAssertEqual(Array(out[0..<4]), [0, 63, 86, 80])
        XCTAssert(out[4].isNaN)
        try cloud.withUnsafeBufferPointer { c in
            try rain.withUnsafeBufferPointer { r in
                try out.withUnsafeMutableBufferPointer { o in
                    try weatherCode(cloudCover: c, precipitationRate: r, snowfallRate: nil,
                                    convectivePrecipitationRate: nil, into: o)
                }
            }
        }
        XCTAssertEqual(Array(out[0..<4]), [0, 63, 63, 55])
    }

    func testEveryCodeIsAWmoCodeWithASummary() {
        let wmo: Set<Int> = [0, 1, 2, 3, 45, 48, 51, 53, 55, 56, 57, 61, 63, 65, 66, 67, 71, 73, 75, 80, 81, 82, 85, 86]
        XCTAssertEqual(Set(WeatherCode.allCases.map(\.rawValue)), wmo)
        XCTAssert(WeatherCode.allCases.allSatisfy { !$0.summary.isEmpty })
        XCTAssertEqual(Set(WeatherCode.severityOrder), Set(WeatherCode.allCases), "every code has a severity")
        XCTAssertEqual(WeatherCode.severityOrder.count, WeatherCode.allCases.count)
    }

    /// Issue 15 item 8: below 0 °C rain and drizzle freeze (WMO 4677 56/57/66/67), in the
    /// same rate bands as Open-Meteo's freezing codes; snow and dry codes are unchanged.
    func testRainAndDrizzleBelowZeroAreFreezing() {
        func code(_ rate: Float, convective: Float = 0, snow: Float = 0, t: Float) -> Int? {
            WeatherCode.classify(cloudCover: 90, precipitationRate: rate, snowfallRate: snow,
                                 convectivePrecipitationRate: convective, temperature2m: t)?.rawValue
        }
        XCTAssertEqual(code(0.3, t: -1), 56)
        XCTAssertEqual(code(0.7, t: -1), 57)
        XCTAssertEqual(code(1.1, t: -1), 57)
        XCTAssertEqual(code(2.0, t: -1), 66)
        XCTAssertEqual(code(3.0, t: -1), 67)
        XCTAssertEqual(code(9.0, t: -1), 67)
        XCTAssertEqual(code(2.0, convective: 2.0, t: -1), 66, "a slight shower below 0 °C is freezing rain")
        XCTAssertEqual(code(2.0, t: 0), 61, "0 °C is not below freezing")
        XCTAssertEqual(code(0.5, snow: 0.5, t: -5), 73, "snow stays snow")
        XCTAssertEqual(code(0, t: -5), 3)
        XCTAssertEqual(code(2.0, t: .nan), nil, "unknown temperature: rain code unknown")
        XCTAssertEqual(code(0, t: .nan), 3)
    }

    /// Fog (45) when a dry hour's visibility is at most 1000 m (Open-Meteo's `<= 1000`), rime
    /// fog (48) below 0 °C; precipitation codes come first, cloud codes after; without a
    /// visibility the codes are as before.
    func testFogAndRimeFogFromVisibility() {
        func code(rain: Float = 0, snow: Float = 0, cloud: Float = 10, t: Float? = nil, visibility: Float?) -> Int? {
            WeatherCode.classify(cloudCover: cloud, precipitationRate: rain, snowfallRate: snow,
                                 temperature2m: t, visibility: visibility)?.rawValue
        }
        // Cloud water 0.5 g/m3 (the sample's fog): Kunkel's beta = 144.7 * 0.5^0.88 /km =
        // 144.7 * exp(0.88 ln 0.5) = 144.7 * 0.54333 = 78.620 /km, CALVIS_GSD's visibility
        // 3.0 / 78.620 km = 38.16 m: fog.
        let fog = Float(3.0 / (144.7 * pow(0.5, 0.88)) * 1000)
        XCTAssertEqual(Double(fog), 38.16, accuracy: 0.01)
        XCTAssertEqual(code(visibility: fog), 45)
        XCTAssertEqual(code(t: 5, visibility: fog), 45)
        XCTAssertEqual(code(t: -0.1, visibility: fog), 48, "below 0 °C the droplets freeze on contact")
        XCTAssertEqual(code(t: 0, visibility: fog), 45, "0 °C is not below freezing")
        // The threshold is inclusive: 1000 m is fog, the next Float above it is not.
        XCTAssertEqual(code(visibility: 1000), 45)
        XCTAssertEqual(code(visibility: Float(1000).nextUp), 0)
        XCTAssertEqual(code(cloud: 90, visibility: 24_135), 3)
        // Precipitation first (0.1 mm/h is drizzle even in fog), cloud codes after.
        XCTAssertEqual(code(rain: 0.1, visibility: fog), 51)
        XCTAssertEqual(code(rain: 0.1, t: -1, visibility: fog), 56)
        XCTAssertEqual(code(rain: 0.099, cloud: 100, visibility: fog), 45)
        XCTAssertEqual(code(snow: 0.07, visibility: fog), 71)
        // No visibility: the old codes; unknown visibility or unknown T2 in fog: unknown.
        XCTAssertEqual(code(cloud: 100, visibility: nil), 3)
        XCTAssertNil(code(visibility: .nan))
        XCTAssertNil(code(t: .nan, visibility: fog))
        XCTAssertEqual(weatherCode(cloudCover: 0, precipitationRate: 0, temperature2m: -3, visibility: 500), 48)
        // Fog ranks above a dry sky and below any precipitation for the daily code.
        XCTAssertEqual(WeatherCode.mostSevere([3, 45, 0]), 45)
        XCTAssertEqual(WeatherCode.mostSevere([45, 48]), 48)
        XCTAssertEqual(WeatherCode.mostSevere([48, 51]), 51)
    }
}
