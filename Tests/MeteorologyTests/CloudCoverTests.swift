import XCTest
import Meteorology

final class CloudCoverTests: XCTestCase {
    func testColumnMaximumInPercent() {
        XCTAssertEqual(cloudCover(columnCloudFractions: [0, 0.2, 0.75, 0.1]), 75)
        XCTAssertEqual(cloudCover(columnCloudFractions: [0, 0, 0]), 0)
        XCTAssertEqual(cloudCover(columnCloudFractions: [1.0000001, 0.5]), 100)
        XCTAssert(cloudCover(columnCloudFractions: [0.2, .nan]).isNaN)
        XCTAssert(cloudCover(columnCloudFractions: [Float]()).isNaN)
    }

    func testThreeDimensionalFieldLevelSlowest() throws {
        // 3 levels x 2 rows x 2 columns, laid out [level][j][i].
        let cldfra: [Float] = [
            0.1, 0.0, 0.3, 0.9,     // level 0
            0.5, 0.0, 0.2, 1.2,     // level 1
            0.2, 0.0, .nan, -0.01,  // level 2
        ]
        let cover = try cloudCover(cloudFraction: cldfra, levelCount: 3, cellCount: 4)
        XCTAssertEqual(cover[0], 50, accuracy: 1e-4)
        XCTAssertEqual(cover[1], 0)
        XCTAssert(cover[2].isNaN)
        XCTAssertEqual(cover[3], 100)
        // Agrees with the scalar form column by column.
        for i in [0, 1, 3] {
            XCTAssertEqual(cover[i], cloudCover(columnCloudFractions: [cldfra[i], cldfra[4 + i], cldfra[8 + i]]))
        }
    }

    func testOutputMayBeTheFirstLevelSlice() throws {
        var cldfra: [Float] = [0.1, 0.8, 0.4, 0.2]  // 2 levels x 2 cells
        try cldfra.withUnsafeMutableBufferPointer { all in
            let first = UnsafeMutableBufferPointer(rebasing: all[0..<2])
            try cloudCover(cloudFraction: UnsafeBufferPointer(all), levelCount: 2, into: first)
        }
        XCTAssertEqual(cldfra[0], 40, accuracy: 1e-4)
        XCTAssertEqual(cldfra[1], 80, accuracy: 1e-4)
    }

    func testShapeMismatchThrows() {
        XCTAssertThrowsError(try cloudCover(cloudFraction: [0.1, 0.2, 0.3], levelCount: 2, cellCount: 2)) {
            XCTAssertEqual($0 as? MeteorologyError, .fieldLengthMismatch(argument: "cloudFraction", expected: 4, actual: 3))
        }
        XCTAssertThrowsError(try cloudCover(cloudFraction: [], levelCount: 0, cellCount: 0))
        XCTAssertThrowsError(try cloudCover(cloudFraction: [0.1], levelCount: Int.max, cellCount: 2))
    }
}
