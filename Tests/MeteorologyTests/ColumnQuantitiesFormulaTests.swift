import Meteorology
import XCTest

/// The column formulas' branches the real sample does not reach, against values worked out by
/// hand and by MetPy (1.7.1) where named.
final class ColumnQuantitiesFormulaTests: XCTestCase {
    /// Levels between the standard ones: MetPy's k_index gives 29.666667 for this sounding
    /// (T850 14.75, T500 -10.75, Td850 10, T700 5.1667, Td700 -0.6667 by hand).
    func testKIndexInterpolatesLinearlyInPressureAsMetPy() {
        let p: [Double] = [1000, 900, 800, 650, 550, 450, 300].map { $0 * 100 }
        let t: [Double] = [25.0, 18.0, 11.5, 2.0, -6.0, -15.5, -38.0].map { $0 + 273.15 }
        let td: [Double] = [20.0, 14.0, 6.0, -4.0, -15.0, -30.0, -50.0].map { $0 + 273.15 }
        XCTAssertEqual(kIndex(pressure: p, temperature: t, dewPoint: td), 29.666667, accuracy: 1e-5)
        // 850 hPa below the lowest level: undefined, as MetPy's (no extrapolation).
        XCTAssertTrue(kIndex(pressure: Array(p[3...]), temperature: Array(t[3...]), dewPoint: Array(td[3...])).isNaN)
    }

    /// The uppermost crossing when there are several (a warm nose aloft), linear in height.
    func testFreezingLevelIsTheUppermostCrossing() {
        // T2 -2 at 102 m; 0-level crossings at 150 m (rising), 500 m (falling), 900 m (rising), 1250 m (falling).
        let heights: [Double] = [200, 400, 600, 800, 1000, 1500, 3000]
        let temperatures: [Double] = [2, 1, -1, -1, 1, -1, -20]
        XCTAssertEqual(freezingLevelHeight(heights: heights, temperatures: temperatures, terrain: 100, temperature2m: -2), 1250, accuracy: 1e-9)
    }

    /// Below freezing everywhere: Open-Meteo's estimate below the ground, max(0, terrain) - 70 |T2|.
    func testFreezingLevelBelowTheGroundFollowsOpenMeteo() {
        XCTAssertEqual(freezingLevelHeight(heights: [500, 1000], temperatures: [-3, -8], terrain: 450, temperature2m: -2.5), 275, accuracy: 1e-9)
        // Terrain below sea level: from 0, never above the terrain.
        XCTAssertEqual(freezingLevelHeight(heights: [50, 500], temperatures: [-3, -8], terrain: -20, temperature2m: -0.1), -20, accuracy: 1e-9)
        // A column warm to its top has no freezing level a model could give.
        XCTAssertTrue(freezingLevelHeight(heights: [500, 1000], temperatures: [3, 1], terrain: 0, temperature2m: 5).isNaN)
    }

    /// wrf-python's DCOMPUTEPW by hand for two levels: p / (Rd Tv) q dz.
    func testPrecipitableWaterIsWrfPythonsSum() {
        let tv0 = 290.0 * (0.622 + 0.01) / (0.622 * 1.01), tv1 = 280.0 * (0.622 + 0.005) / (0.622 * 1.005)
        let expected = 95_000 / (287 * tv0) * 0.01 * 100 + 85_000 / (287 * tv1) * 0.005 * 1000
        XCTAssertEqual(precipitableWater(pressure: [95_000, 85_000], temperature: [290, 280], mixingRatio: [0.01, 0.005],
                                         interfaceHeights: [0, 100, 1100]), expected, accuracy: 1e-9)
    }

    /// The updraft ignores levels above 10 km over the ground.
    func testUpdraftStopsAtTenKilometres() {
        XCTAssertEqual(updraft(verticalVelocity: [0, 0.5, 2, 9], heightsAboveGround: [0, 3000, 9000, 12000]), 2)
        XCTAssertEqual(updraft(verticalVelocity: [0, -0.5], heightsAboveGround: [0, 500]), 0)
    }
}
