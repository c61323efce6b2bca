import TestSupport
import TileCastServer
import XCTest

/// The `caiyun` column of the shared conditions table and Caiyun's radar intensity, against
/// Caiyun's own published lists, written out here independently.
final class CaiyunTableTests: XCTestCase {
    /// Caiyun's "天气现象" table: every skycon name of API v2.5.
    private let skycons: Set<String> = [
        "CLEAR_DAY", "CLEAR_NIGHT", "PARTLY_CLOUDY_DAY", "PARTLY_CLOUDY_NIGHT", "CLOUDY", "LIGHT_HAZE", "MODERATE_HAZE",
        "HEAVY_HAZE", "LIGHT_RAIN", "MODERATE_RAIN", "HEAVY_RAIN", "STORM_RAIN", "FOG", "LIGHT_SNOW", "MODERATE_SNOW",
        "HEAVY_SNOW", "STORM_SNOW", "DUST", "SAND", "WIND",
    ]

    func testEveryConditionHasACaiyunSkyconOfItsKind() {
        for condition in SkyCondition.allCases {
            guard let name = WeatherConditions.caiyun[condition] else { return XCTFail("\(condition) has no Caiyun skycon") }
            XCTAssertTrue(skycons.contains(name), "\(condition): \(name) is not one of Caiyun's")
            // A precipitation class is a rain or snow skycon, a dry one a sky or fog.
            XCTAssertEqual(condition.isPrecipitation, name.hasSuffix("_RAIN") || name.hasSuffix("_SNOW"), "\(condition): \(name)")
            if name.hasSuffix("_DAY") { XCTAssertTrue(skycons.contains(String(name.dropLast(4)) + "_NIGHT"), name) }
        }
        XCTAssertEqual(WeatherConditions.caiyun[.clear], "CLEAR_DAY")
        XCTAssertEqual(WeatherConditions.caiyun[.overcast], "CLOUDY")
        XCTAssertEqual(WeatherConditions.caiyun[.heavySnow], "HEAVY_SNOW")
    }

    /// Caiyun's "降水强度" table (v2.4 on): the radar intensity at each bound of light,
    /// moderate, heavy and storm, for the minute rates and for the hourly amounts.
    func testRadarIntensityMeetsCaiyunsBounds() {
        let radar: [(Double, Double)] = [(0.0606, 0.031), (0.8989, 0.25), (2.87, 0.35), (12.8638, 0.48)]
        let hourly: [(Double, Double)] = [(0.08, 0.031), (3.44, 0.25), (11.33, 0.35), (51.30, 0.48)]
        for (block, bounds) in [(CaiyunNumbers.Block.radar, radar), (.hourly, hourly)] {
            for (rate, intensity) in bounds {
                XCTAssertEqual(CaiyunNumbers.intensity(rate, block: block), intensity, accuracy: 1e-9, "\(block) \(rate) mm/h")
            }
            XCTAssertEqual(CaiyunNumbers.intensity(0, block: block), 0)
            var last = 0.0
            for k in 1...2000 {
                let value = CaiyunNumbers.intensity(Double(k) * 0.05, block: block)
                XCTAssertGreaterThan(value, last - 1e-12, "\(block): grows with the rate")
                XCTAssertLessThanOrEqual(value, 1)
                last = value
            }
        }
    }
}

/// The fuzz target's contract for Caiyun (fuzz/Sources/FuzzForecastParameters/CaiyunParameters.swift)
/// over 2,000 seeded requests: a place in range with steps in Caiyun's limits and a derived
/// `/v1/forecast` query for it, or Caiyun's 400/401; never another status.
final class CaiyunParametersTests: XCTestCase {
    func testSeededRequestsAreAcceptedForOnePlaceOrRefusedWith400Or401() throws {
        var generator = SeededGenerator(seed: 4_547)
        // Good values more often than bad ones, so both outcomes are common.
        let tokens = ["TAkhjf8d1nlSlspN", "T1", "abc", "TAkhjf8d1nlSlspN", "", "a/b", "token with space", String(repeating: "x", count: 65), "ÄÖ"]
        let places = ["-9.14,38.72", "116.39,39.9", "-8,39.5", "0,0", "-9.14,38.72", "181,1", "1,-91", "x,y", "1", "1,2,3", "nan,1", ",", "-0,0"]
        let pieces: [[String]] = [
            ["unit=metric", "unit=metric:v2", "unit=imperial", "unit=si", "unit=kelvin", "", ""],
            ["lang=zh_CN", "lang=en_US", "lang=ja", "lang=xx", "", ""],
            ["hourlysteps=1", "hourlysteps=360", "hourlysteps=361", "", "", ""],
            ["dailysteps=15", "dailysteps=16", "", ""],
            ["alert=true", "alert=maybe", "tzshift=28800", "tzshift=1800", "begin=1795300000", "begin=1", "", "", ""],
        ]
        var accepted = 0, refused = 0
        for _ in 0..<2_000 {
            let token = tokens.randomElement(using: &generator) ?? "", place = places.randomElement(using: &generator) ?? ""
            let query = pieces.map { $0.randomElement(using: &generator) ?? "" }.filter { !$0.isEmpty }.joined(separator: "&")
            do {
                let (request, parameters) = try ForecastServer.caiyunParameters(token: token, place: place, query: query, now: 1_795_313_400)
                accepted += 1
                XCTAssertTrue(abs(request.latitude) <= 90 && abs(request.longitude) <= 180, "\(place)?\(query)")
                XCTAssertTrue((1...360).contains(request.hourlySteps) && (1...15).contains(request.dailySteps), query)
                XCTAssertEqual(parameters.latitudes, [request.latitude], query)
            } catch {
                refused += 1
                XCTAssertTrue([400, 401].contains(error.status.code), "\(token) \(place)?\(query): \(error.body)")
            }
        }
        XCTAssertGreaterThan(accepted, 100)
        XCTAssertGreaterThan(refused, 100)
    }
}
