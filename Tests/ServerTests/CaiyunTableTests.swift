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
