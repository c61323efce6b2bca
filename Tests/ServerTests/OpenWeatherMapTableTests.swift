import Meteorology
import TileCastServer
import XCTest

/// The shared conditions table (Sources/TileCastServer/Conditions/WeatherConditions.swift)
/// against OpenWeatherMap's published list of condition codes, written out here independently.
final class OpenWeatherMapTableTests: XCTestCase {
    /// OpenWeatherMap's "Weather condition codes" page: id -> (main, description, icon), for the
    /// ids TileCast can answer.
    private let published: [Int: (String, String, String)] = [
        211: ("Thunderstorm", "thunderstorm", "11"), 212: ("Thunderstorm", "heavy thunderstorm", "11"),
        300: ("Drizzle", "light intensity drizzle", "09"), 301: ("Drizzle", "drizzle", "09"),
        302: ("Drizzle", "heavy intensity drizzle", "09"), 500: ("Rain", "light rain", "10"), 501: ("Rain", "moderate rain", "10"),
        502: ("Rain", "heavy intensity rain", "10"), 511: ("Rain", "freezing rain", "13"),
        520: ("Rain", "light intensity shower rain", "09"), 521: ("Rain", "shower rain", "09"),
        522: ("Rain", "heavy intensity shower rain", "09"), 600: ("Snow", "light snow", "13"), 601: ("Snow", "snow", "13"),
        602: ("Snow", "heavy snow", "13"), 620: ("Snow", "light shower snow", "13"), 621: ("Snow", "shower snow", "13"),
        741: ("Fog", "fog", "50"), 800: ("Clear", "clear sky", "01"), 801: ("Clouds", "few clouds", "02"),
        802: ("Clouds", "scattered clouds", "03"), 803: ("Clouds", "broken clouds", "04"), 804: ("Clouds", "overcast clouds", "04"),
    ]

    func testEveryConditionHasOpenWeatherMapsPublishedEntry() {
        for condition in SkyCondition.allCases {
            guard let owm = WeatherConditions.openWeatherMap[condition] else { return XCTFail("\(condition) has no OpenWeatherMap entry") }
            guard let entry = published[owm.code] else { return XCTFail("\(condition): \(owm.code) is not among the published ids") }
            XCTAssertEqual(owm.group, entry.0, "\(condition)")
            XCTAssertEqual(owm.text, entry.1, "\(condition)")
            XCTAssertEqual(owm.icon, entry.2, "\(condition)")
            // A precipitation class answers a 2xx/3xx/5xx/6xx id, a dry one 7xx/8xx.
            XCTAssertEqual(condition.isPrecipitation, [2, 3, 5, 6].contains(owm.code / 100), "\(condition)")
        }
    }

    /// Every WMO code TileCast derives has a class; precipitation codes get precipitation
    /// classes; a dry sky's class follows the whole percent of cloud cover in OpenWeatherMap's bands.
    func testEveryWeatherCodeHasAClass() {
        for code in WeatherCode.allCases {
            let condition = SkyCondition.of(weatherCode: Float(code.rawValue), cloudCover: 50)
            XCTAssertNotNil(condition, "\(code)")
            XCTAssertEqual(condition?.isPrecipitation, code.rawValue >= 50, "\(code)")
        }
        let bands: [(Float, SkyCondition)] = [(0, .clear), (10, .clear), (11, .fewClouds), (25, .fewClouds), (26, .scatteredClouds),
                                              (50, .scatteredClouds), (51, .brokenClouds), (84, .brokenClouds), (85, .overcast), (100, .overcast)]
        for (cover, expected) in bands {
            for code in [WeatherCode.clearSky, .mainlyClear, .partlyCloudy, .overcast] {
                XCTAssertEqual(SkyCondition.of(weatherCode: Float(code.rawValue), cloudCover: cover), expected, "\(code) at \(cover) %")
            }
        }
        XCTAssertNil(SkyCondition.of(weatherCode: .nan, cloudCover: 50), "no code, no condition")
        XCTAssertNil(SkyCondition.of(weatherCode: 7, cloudCover: 50), "a number that is no WMO code of ours")
    }
}
