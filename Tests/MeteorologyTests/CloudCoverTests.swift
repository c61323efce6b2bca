import XCTest
import Meteorology
import TestSupport

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

/// Low, mid and high cover against their definition written out here, lane by lane: the
/// engine's loop runs eight cells at a time in SIMD and the rest one by one, so the cell
/// counts below are not multiples of eight and the inputs hold every case (NaN fraction or
/// geopotential, fractions outside 0-1, heights on the 2 and 6 km bounds).
final class CloudLayerTests: XCTestCase {
    /// The definition: a mass level's height is ((PH+PHB)[k] + (PH+PHB)[k+1]) / 2 / 9.81 - HGT
    /// in Float; its cover 100 x CLDFRA clamped to 0-1; low < 2000 m <= mid < 6000 m <= high
    /// (a NaN height is high); a layer is the maximum of its levels, NaN if one is NaN.
    private func expectedLayers(_ fraction: [Float], _ geopotential: [Float], levels: Int, terrain: [Float]) -> [[Float]] {
        let cells = terrain.count
        var layers = [[Float]](repeating: [Float](repeating: 0, count: cells), count: 3)
        for cell in 0..<cells {
            for k in 0..<levels {
                let height = (geopotential[k * cells + cell] + geopotential[(k + 1) * cells + cell]) / 2 / 9.81 - terrain[cell]
                let raw = fraction[k * cells + cell]
                let value: Float = raw.isNaN || height.isNaN ? .nan : Swift.min(Swift.max(raw, 0), 1) * 100
                let layer = height < 2000 ? 0 : (height < 6000 ? 1 : 2)
                let current = layers[layer][cell]
                layers[layer][cell] = current.isNaN || value.isNaN ? .nan : Swift.max(current, value)
            }
        }
        return layers
    }

    private func sameBits(_ a: [Float], _ b: [Float], _ what: String) {
        XCTAssertEqual(a.count, b.count, what)
        for (index, (x, y)) in zip(a, b).enumerated() where !(x.isNaN && y.isNaN) && x.bitPattern != y.bitPattern {
            XCTFail("\(what) cell \(index): \(x) against \(y)")
            return
        }
    }

    /// Seeded random columns (monotonic geopotential from terrain to ~20 km), every cell count
    /// from 1 to 37, with and without the level bound of `lowestHighLevel`.
    func testLayersMatchTheirDefinitionInSIMDLanesAndTail() throws {
        var random = SeededGenerator(seed: 0x00C1_0D5E_2026_1123)
        let levels = 12
        var bounded = 0
        for cells in 1...37 {
            let terrain = (0..<cells).map { _ in Float.random(in: 0...3000, using: &random) }
            var geopotential = [Float](repeating: 0, count: (levels + 1) * cells)
            for cell in 0..<cells {
                var height = terrain[cell]
                for k in 0...levels {
                    geopotential[k * cells + cell] = height * 9.81
                    height += Float.random(in: 200...2500, using: &random)
                }
            }
            var fraction = (0..<(levels * cells)).map { _ in Float.random(in: -0.1...1.1, using: &random) }
            // Cases: a NaN fraction, a NaN geopotential, and a level exactly on 2 km.
            if cells > 3 {
                fraction[2 * cells + 1] = .nan
                geopotential[5 * cells + 2] = .nan
                geopotential[cells + 3] = (2000 + terrain[3]) * 2 * 9.81 - geopotential[3]
            }
            let expected = expectedLayers(fraction, geopotential, levels: levels, terrain: terrain)
            let got = try cloudCoverLayers(cloudFraction: fraction, geopotential: geopotential, levelCount: levels, terrainHeight: terrain)
            sameBits(got.low, expected[0], "low, \(cells) cells")
            sameBits(got.mid, expected[1], "mid, \(cells) cells")
            sameBits(got.high, expected[2], "high, \(cells) cells")

            // Bounded: only the staggered levels up to the lowest all-high level, as the
            // extraction reads them; the answer must not change.
            guard let highFrom = lowestHighLevel(geopotential: geopotential, staggeredLevels: levels + 1, terrainHeight: terrain) else { continue }
            for k in 0..<highFrom {   // it is the lowest such level
                XCTAssertTrue((0..<cells).contains { cell in
                    let height = (geopotential[k * cells + cell] + geopotential[(k + 1) * cells + cell]) / 2 / 9.81 - terrain[cell]
                    return !(height >= 6000)
                }, "level \(k) below \(highFrom) is high everywhere")
            }
            let cut = Array(geopotential[0..<((highFrom + 1) * cells)])
            let short = try cloudCoverLayers(cloudFraction: fraction, geopotential: cut, levelCount: levels, heightLevels: highFrom, terrainHeight: terrain)
            sameBits(short.low, expected[0], "bounded low, \(cells) cells")
            sameBits(short.mid, expected[1], "bounded mid, \(cells) cells")
            sameBits(short.high, expected[2], "bounded high, \(cells) cells")
            bounded += 1
        }
        XCTAssertGreaterThan(bounded, 20, "the bound was found in too few cases to test it")
    }

    /// `lowestHighLevel` needs the level found within the staggered levels given, and no NaN.
    func testLowestHighLevelNeedsAllCellsAndTheLevelsGiven() {
        // 2 cells, 4 staggered levels (3 mass levels), terrain 0: heights of mass levels
        // cell 0: 1000, 5000, 9000; cell 1: 1000, 7000, 9000.
        let geopotential: [Float] = [0, 0, 2000, 2000, 8000, 12000, 10000, 6000].map { $0 * 9.81 }
        XCTAssertEqual(lowestHighLevel(geopotential: geopotential, staggeredLevels: 4, terrainHeight: [0, 0]), 2)
        XCTAssertNil(lowestHighLevel(geopotential: geopotential, staggeredLevels: 3, terrainHeight: [0, 0]))
        var broken = geopotential
        broken[4] = .nan
        XCTAssertNil(lowestHighLevel(geopotential: broken, staggeredLevels: 4, terrainHeight: [0, 0]))
        XCTAssertThrowsError(try cloudCoverLayers(cloudFraction: [Float](repeating: 0.5, count: 6), geopotential: Array(geopotential[0..<4]),
                                                  levelCount: 3, heightLevels: 2, terrainHeight: [0, 0]))
    }
}
