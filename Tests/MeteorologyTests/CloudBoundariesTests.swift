import Meteorology
import XCTest

/// The cloud boundaries' and snow density's rules on hand-made columns (arithmetic by hand):
/// a level is cloudy only when both ECMWF thresholds are passed, and no cloud or no snow is
/// null, never 0.
final class CloudBoundariesTests: XCTestCase {
    func testBothThresholdsMakeALevelCloudy() {
        // Level 0: cover 0.5 % (below 1 %); level 1: condensate 5e-7 (below 1e-6); levels 2 and 4 cloudy.
        let result = cloudBaseAndTop(fraction: [0.005, 0.5, 0.5, 0, 0.3], condensate: [1e-5, 5e-7, 2e-6, 0, 1e-4],
                                     heights: [10, 100, 300, 600, 1000])
        XCTAssertEqual(result.base, 300)
        XCTAssertEqual(result.top, 1000)
        // Exactly at the thresholds is not above them.
        let edge = cloudBaseAndTop(fraction: [0.01, 0.02], condensate: [1e-5, 1e-6], heights: [20, 40])
        XCTAssertTrue(edge.base.isNaN && edge.top.isNaN)
    }

    func testClearAndUnknownColumnsAreNull() {
        let clear = cloudBaseAndTop(fraction: [0, 0, 0], condensate: [0, 0, 0], heights: [10, 100, 300])
        XCTAssertTrue(clear.base.isNaN && clear.top.isNaN, "no cloud is null, not 0")
        let unknown = cloudBaseAndTop(fraction: [0.5, .nan], condensate: [1e-5, 1e-5], heights: [10, 100])
        XCTAssertTrue(unknown.base.isNaN && unknown.top.isNaN)
        let fog = cloudBaseAndTop(fraction: [1], condensate: [1e-4], heights: [12])
        XCTAssertEqual(fog.base, 12)
    }

    func testSnowDensityIsWaterOverDepthWhereThereIsSnow() {
        XCTAssertEqual(snowDensity(waterEquivalent: 30, depth: 0.1), 300, accuracy: 1e-4)
        XCTAssertTrue(snowDensity(waterEquivalent: 0, depth: 0.1).isNaN)
        XCTAssertTrue(snowDensity(waterEquivalent: 5, depth: 0).isNaN)
        XCTAssertTrue(snowDensity(waterEquivalent: .nan, depth: 0.1).isNaN)
    }
}
