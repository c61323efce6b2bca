import TestSupport
import XCTest
import Meteorology

final class AccumulationTests: XCTestCase {
    private let start = AccumulationSettings(firstFrameIsSimulationStart: true)

    /// Feeds single-cell frames through a de-accumulator: frames[t][k] is part k at time t.
    private func run(
        _ settings: AccumulationSettings, parts: [[Float]], counts: [[Float]] = []
    ) throws -> (values: [Float], reports: [DeaccumulationReport]) {
        var d = Deaccumulator(cellCount: 1, settings: settings)
        var values: [Float] = []
        var reports: [DeaccumulationReport] = []
        for t in parts.indices {
            let step = try d.next(parts: parts[t].map { [$0] },
                                  bucketCounts: counts.isEmpty ? [] : counts[t].map { [$0] })
            values.append(step.values[0])
            reports.append(step.report)
        }
        return (values, reports)
    }

    private func assertSeries(_ actual: [Float], _ expected: [Float], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(actual.count, expected.count, file: file, line: line)
        for (a, e) in zip(actual, expected) {
            if e.isNaN {
                XCTAssert(a.isNaN, "expected NaN, got \(a)", file: file, line: line)
            } else {
                XCTAssertEqual(a, e, accuracy: 1e-4, "\(actual) vs \(expected)", file: file, line: line)
            }
        }
    }

    func testMonotonicSeries() throws {
        let r = try run(start, parts: [[0], [1], [1], [3.5], [10]])
        assertSeries(r.values, [0, 1, 0, 2.5, 6.5])
        XCTAssertEqual(r.reports.map(\.resetCells), [0, 0, 0, 0, 0])
    }

    func testFirstFrameIsZeroAtSimulationStartAndUnknownForRestartOutput() throws {
        let parts: [[Float]] = [[12], [15]]
        assertSeries(try run(start, parts: parts).values, [0, 3])
        let restart = AccumulationSettings(firstFrameIsSimulationStart: false)
        let r = try run(restart, parts: parts)
        assertSeries(r.values, [.nan, 3])
        XCTAssertEqual(r.reports[0].unknownCells, 1)
    }

    func testBucketTipsGiveCorrectNonNegativeIntervals() throws {
        // RAINC, RAINNC with I_RAINC, I_RAINNC and BUCKET_MM = 100. RAINNC passes 100 mm
        // twice; each time it drops by 100 while I_RAINNC steps up.
        let settings = AccumulationSettings(bucketMillimetres: 100, firstFrameIsSimulationStart: true)
        let parts: [[Float]] = [[0, 0], [1, 95], [2, 99], [2, 3], [3, 50], [3, 1]]
        let counts: [[Float]] = [[0, 0], [0, 0], [0, 0], [0, 1], [0, 1], [0, 2]]
        // Totals: 0, 96, 101, 105, 153, 204.
        let r = try run(settings, parts: parts, counts: counts)
        assertSeries(r.values, [0, 96, 5, 4, 48, 51])
        XCTAssert(r.values.allSatisfy { $0 >= 0 })
        XCTAssertEqual(r.reports.map(\.resetCells).reduce(0, +), 0)
    }

    func testBucketCountsIgnoredWithoutBucket() throws {
        let settings = AccumulationSettings(bucketMillimetres: -1, firstFrameIsSimulationStart: true)
        let r = try run(settings, parts: [[1], [2]], counts: [[5], [5]])
        assertSeries(r.values, [0, 1])
    }

    func testAbsentPartsAreSimplyNotGiven() throws {
        // RAINNC alone; then RAINC + RAINNC without RAINSH; then all three.
        assertSeries(try run(start, parts: [[0], [2], [5]]).values, [0, 2, 3])
        assertSeries(try run(start, parts: [[0, 0], [1, 2], [1, 5]]).values, [0, 3, 3])
        assertSeries(try run(start, parts: [[0, 0, 0], [1, 2, 0.5], [1, 5, 1]]).values, [0, 3.5, 3.5])
        var d = Deaccumulator(cellCount: 1, settings: start)
        XCTAssertThrowsError(try d.next(parts: [], bucketCounts: [])) {
            XCTAssertEqual($0 as? MeteorologyError, .noAccumulatedParts)
        }
    }

    func testRoundingDropsClampToZeroAndArePaidBack() throws {
        let r = try run(start, parts: [[10], [9.99], [9.995], [12]])
        assertSeries(r.values, [0, 0, 0, 2])
        XCTAssertEqual(r.reports.map(\.resetCells).reduce(0, +), 0)
        XCTAssertEqual(r.values.reduce(0, +), 12 - 10, accuracy: 1e-4)
    }

    func testRealResetWithoutBucketRestartsFromTheNewTotal() throws {
        let r = try run(start, parts: [[5], [8], [1], [3]])
        assertSeries(r.values, [0, 3, 1, 2])
        XCTAssertEqual(r.reports.map(\.resetCells), [0, 0, 1, 0])
    }

    func testResetWithUncountedBucketIsUnknown() throws {
        // BUCKET_MM = 100 but the file has no I_RAINNC: a drop may be a tip or a restart.
        let settings = AccumulationSettings(bucketMillimetres: 100, bucketCountsComplete: false,
                                            firstFrameIsSimulationStart: true)
        let r = try run(settings, parts: [[90], [98], [3], [4]])
        assertSeries(r.values, [0, 8, .nan, 1])
        XCTAssertEqual(r.reports[2], DeaccumulationReport(resetCells: 1, unknownCells: 1))
    }

    func testMissingValueMakesThisAndTheNextIntervalUnknown() throws {
        let r = try run(start, parts: [[0], [1], [.nan], [4], [6]])
        assertSeries(r.values, [0, 1, .nan, .nan, 2])
    }

    func testMM5CentimetresBecomeMillimetres() throws {
        let settings = AccumulationSettings(unit: .centimetres, firstFrameIsSimulationStart: true)
        let r = try run(settings, parts: [[0, 0], [0.5, 0], [0.5, 0.7]])
        assertSeries(r.values, [0, 5, 7])
    }

    func testSnowWaterEquivalentToSnowfall() throws {
        let values = try run(start, parts: [[0], [2], [5]]).values.map(snowfallCentimetres(waterEquivalentMillimetres:))
        assertSeries(values, [0, 1.4, 2.1])
        XCTAssertEqual(snowfallCentimetres(waterEquivalentMillimetres: 10), 7, accuracy: 1e-6)
        XCTAssertEqual(snowWaterEquivalentMillimetres(snowfallCentimetres: 7), 10, accuracy: 1e-5)
    }

    func testWrongFieldSizeThrowsAndLeavesStateUnchanged() throws {
        var d = Deaccumulator(cellCount: 2, settings: start)
        XCTAssertThrowsError(try d.next(parts: [[1, 2], [1]])) {
            XCTAssertEqual($0 as? MeteorologyError, .fieldLengthMismatch(argument: "parts[1]", expected: 2, actual: 1))
        }
        XCTAssertThrowsError(try d.next(parts: [[1, 2]], bucketCounts: [[0, 0, 0]]))
        XCTAssertEqual(d.framesSeen, 0)
        XCTAssertEqual(try d.next(parts: [[1, 2]]).values, [0, 0])
    }

    /// 73 hourly frames over several cells with showers, bucket tips in RAINC and RAINNC,
    /// Float storage as WRF writes it, and rounding noise of up to 0.019 mm on the stored
    /// RAINNC (so stored totals sometimes step down a little): every window sum must equal
    /// the raw accumulated difference within 0.1 mm. (Clamping the small drops to 0 without
    /// paying them back later would add up to about 0.15 mm over the run and fail this.)
    func testWindowSumsEqualAccumulatedDifferenceOnRandomSeries() throws {
        var rng = SeededGenerator(seed: 20_261_122)
        let frames = 73, cells = 5, bucket = 100.0
        let settings = AccumulationSettings(bucketMillimetres: bucket, firstFrameIsSimulationStart: true)
        var d = Deaccumulator(cellCount: cells, settings: settings)
        var rainc = [Double](repeating: 0, count: cells), rainnc = rainc, rainsh = rainc
        var ic = [Double](repeating: 0, count: cells), inc = ic
        var rawTotals: [[Double]] = []      // from the Float fields, as the file holds them
        var trueTotals: [[Double]] = []     // exact, never bucketed
        var values: [[Float]] = []
        var truth = [Double](repeating: 0, count: cells)
        for t in 0..<frames {
            if t > 0 {
                for c in 0..<cells where Double.random(in: 0...1, using: &rng) < 0.4 {
                    let heavy = Double.random(in: 0...1, using: &rng) < 0.1
                    let conv = Double.random(in: 0...(heavy ? 40 : 6), using: &rng)
                    let grid = Double.random(in: 0...(heavy ? 60 : 8), using: &rng)
                    let shallow = Double.random(in: 0...0.5, using: &rng)
                    rainc[c] += conv; rainnc[c] += grid; rainsh[c] += shallow
                    truth[c] += conv + grid + shallow
                    while rainc[c] >= bucket { rainc[c] -= bucket; ic[c] += 1 }
                    while rainnc[c] >= bucket { rainnc[c] -= bucket; inc[c] += 1 }
                }
            }
            let fc = rainc.map { Float($0) }, fsh = rainsh.map { Float($0) }
            let fnc = rainnc.map { value -> Float in
                let noisy = Double.random(in: 0...1, using: &rng) < 0.5
                return Float(value - (noisy ? Double.random(in: 0.005...0.019, using: &rng) : 0))
            }
            let counts = [ic.map { Float($0) }, inc.map { Float($0) }]
            rawTotals.append((0..<cells).map {
                Double(fc[$0]) + Double(fnc[$0]) + Double(fsh[$0]) + (ic[$0] + inc[$0]) * bucket
            })
            trueTotals.append(truth)
            let step = try d.next(parts: [fc, fnc, fsh], bucketCounts: counts)
            XCTAssertEqual(step.report, DeaccumulationReport(), "frame \(t)")
            values.append(step.values)
        }
        XCTAssertGreaterThan(ic.reduce(0, +) + inc.reduce(0, +), 5, "the series must tip the bucket")
        for c in 0..<cells {
            XCTAssertEqual(values[0][c], 0)
            XCTAssert((0..<frames).allSatisfy { values[$0][c] >= 0 }, "cell \(c)")
            var worstRaw = 0.0, worstTrue = 0.0
            for a in 0..<frames {
                var sum = 0.0
                for b in (a + 1)..<max(frames, a + 1) {
                    sum += Double(values[b][c])
                    worstRaw = max(worstRaw, abs(sum - (rawTotals[b][c] - rawTotals[a][c])))
                    worstTrue = max(worstTrue, abs(sum - (trueTotals[b][c] - trueTotals[a][c])))
                }
            }
            XCTAssertLessThanOrEqual(worstRaw, 0.1, "cell \(c): worst window against the stored totals")
            XCTAssertLessThanOrEqual(worstTrue, 0.1, "cell \(c): worst window against the exact rain")
        }
    }
}
