import Foundation
import Catalog
import GridGeometry
import ModelIngest
import NetCDF
import TestSupport
import XCTest

/// SPEC section 8, the edge cases whose handling shows in the numbers: buckets, absent
/// sources, winds without COSALPHA/SINALPHA, fill values, NaN and negative Q2. Expected values
/// come from the fixtures' CSVs or from the raw fields with the formulas written out here.
final class EdgeCaseFieldTests: XCTestCase {
    /// Raw accumulated total (mm) per cell at one frame: the parts present plus bucket tips.
    private func rawTotal(_ path: String, frame: Int, bucketMM: Double = 0) throws -> [Double] {
        let netcdf = try NetCDFFile(path: path)
        var total: [Double]?
        for name in ["RAINC", "RAINNC", "RAINSH"] where netcdf.hasVariable(name) {
            let part = try rawField(path, name, frame: frame)
            total = total.map { zip($0, part).map(+) } ?? part
        }
        for name in ["I_RAINC", "I_RAINNC"] where bucketMM > 0 && netcdf.hasVariable(name) {
            let count = try rawField(path, name, frame: frame)
            total = total.map { zip($0, count).map { $0 + $1 * bucketMM } }
        }
        return try XCTUnwrap(total)
    }

    func testBucketTippingGivesTheDifferenceOfTheTrueTotal() throws {
        let path = Fixture.edge("bucket_tipping.nc")
        XCTAssertEqual(try NetCDFFile(path: path).attribute("BUCKET_MM")?.double, 10)
        let domain = try onlyDomain(ModelRun.read(paths: [path]))
        let frames = try readAllFrames(domain, variables: [.precipitation])
        XCTAssertEqual(frames.count, 6)
        let we = domain.grid.westEast
        let precipitation = try frames.map { try XCTUnwrap($0.values[.precipitation]) }

        // The CSV's cells: per-interval precipitation is the difference of its total_mm.
        let table = try CSVTable(path: Fixture.edge("bucket_tipping_expected.csv"))
        var totals: [String: [Int: Double]] = [:]
        for row in table.rows {
            let key = "\(try CSVTable.integer(row, "i")),\(try CSVTable.integer(row, "j"))"
            totals[key, default: [:]][try CSVTable.integer(row, "frame")] = try CSVTable.number(row, "total_mm")
        }
        XCTAssertEqual(totals.count, 5)
        var sawTip = false
        for row in table.rows {
            let frame = try CSVTable.integer(row, "frame"), i = try CSVTable.integer(row, "i"), j = try CSVTable.integer(row, "j")
            let series = try XCTUnwrap(totals["\(i),\(j)"])
            let expected = frame == 0 ? 0 : try XCTUnwrap(series[frame]) - XCTUnwrap(series[frame - 1])
            XCTAssertEqual(Double(precipitation[frame][j * we + i]), expected, accuracy: 2e-3, "frame \(frame) i \(i) j \(j)")
            if frame > 0, try CSVTable.integer(row, "I_RAINNC") > 0 || CSVTable.integer(row, "I_RAINC") > 0 { sawTip = true }
        }
        XCTAssertTrue(sawTip, "the fixture's buckets tip")

        // Every cell: equal to the raw total's difference, never negative, no 10 mm jump.
        var previous = try rawTotal(path, frame: 0, bucketMM: 10)
        for frame in 1..<6 {
            let total = try rawTotal(path, frame: frame, bucketMM: 10)
            for cell in total.indices {
                let value = precipitation[frame][cell]
                XCTAssertGreaterThanOrEqual(value, 0, "frame \(frame) cell \(cell)")
                XCTAssertEqual(Double(value), total[cell] - previous[cell], accuracy: 2e-3, "frame \(frame) cell \(cell)")
            }
            previous = total
        }
        XCTAssertTrue(precipitation[0].allSatisfy { $0 == 0 }, "nothing has fallen at the simulation start")
    }

    func testMissingU10V10SkipsWindAndApparentTemperatureNamingThem() throws {
        let run = try ModelRun.read(paths: [Fixture.edge("no_uv10.nc")])
        let domain = try onlyDomain(run)
        let missing = Dictionary(uniqueKeysWithValues: domain.variables.missing.filter { !$0.0.isOptional }.map { ($0.0, $0.1) })
        XCTAssertEqual(Set(missing.keys), [.windU10m, .windV10m, .apparentTemperature])
        for (variable, reason) in missing {
            XCTAssertTrue(reason.contains("U10") && reason.contains("V10"), "\(variable): \(reason)")
        }
        let warnings = run.warnings.filter { $0.kind == .missingVariables }
        XCTAssertEqual(warnings.count, 1, "\(run.warnings)")
        let message = warnings.first?.message ?? ""
        for needle in ["U10", "V10", ForecastVariable.windU10m.rawValue, ForecastVariable.apparentTemperature.rawValue] {
            XCTAssertTrue(message.contains(needle), "\(needle) in: \(message)")
        }
        // Everything else comes out, with baseline's numbers.
        let baseline = try onlyDomain(ModelRun.read(paths: [Fixture.edge("baseline.nc")]))
        for (index, (frame, reference)) in zip(try readAllFrames(domain), try readAllFrames(baseline)).enumerated() {
            XCTAssertNil(frame.values[.windU10m])
            XCTAssertNil(frame.values[.apparentTemperature])
            for variable in [ForecastVariable.temperature2m, .relativeHumidity2m, .dewPoint2m, .precipitation, .pressureMSL, .cloudCover] {
                assertSameField(frame.values[variable], reference.values[variable], "\(variable.rawValue) frame \(index)")
            }
        }
    }

    func testMissingRAINSHGivesRAINCPlusRAINNC() throws {
        let path = Fixture.edge("no_rainsh.nc")
        XCTAssertFalse(try NetCDFFile(path: path).hasVariable("RAINSH"))
        let run = try ModelRun.read(paths: [path])
        XCTAssertEqual(run.warnings, [], "no warning for an absent RAINSH")
        XCTAssertTrue(try onlyDomain(run).variables.available.contains(.precipitation))

        // The fixture holds no rain: the same file with seeded RAINC/RAINNC accumulations.
        var generator = SeededGenerator(seed: 0x5EED_0004)
        let cells = 48
        let rainc = accumulatedRain(frames: 4, cells: cells, maximumStep: 2, generator: &generator)
        let rainnc = accumulatedRain(frames: 4, cells: cells, maximumStep: 5, generator: &generator)
        let folder = try TemporaryDirectory("no-rainsh")
        let rainy = folder.path("no_rainsh.nc")
        try rewriteNetCDF(path, to: rainy, replacing: ["RAINC": rainc.flatMap { $0 }, "RAINNC": rainnc.flatMap { $0 }])
        let run2 = try ModelRun.read(paths: [rainy])
        XCTAssertEqual(run2.warnings, [])
        let frames = try readAllFrames(onlyDomain(run2), variables: [.precipitation])
        XCTAssertEqual(frames.count, 4)
        for frame in 1..<frames.count {
            let precipitation = try XCTUnwrap(frames[frame].values[.precipitation])
            for cell in 0..<cells {
                let expected = rainc[frame][cell] + rainnc[frame][cell] - rainc[frame - 1][cell] - rainnc[frame - 1][cell]
                XCTAssertEqual(Double(precipitation[cell]), expected, accuracy: 1e-3, "frame \(frame) cell \(cell)")
            }
        }
    }

    /// Earth-relative wind from WRF's rotation: u = U cos - V sin, v = V cos + U sin.
    private func earthWind(u: Double, v: Double, cos: Double, sin: Double) -> (u: Double, v: Double) {
        (u * cos - v * sin, v * cos + u * sin)
    }

    func testStandLonOffsetRotatesWindsWithTheStoredCosAlphaSinAlpha() throws {
        let path = Fixture.edge("stand_lon_offset.nc")
        let domain = try onlyDomain(ModelRun.read(paths: [path]))
        let frames = try readAllFrames(domain, variables: [.windU10m, .windV10m])
        let cos = try rawField(path, "COSALPHA"), sin = try rawField(path, "SINALPHA")
        XCTAssertTrue(sin.allSatisfy { $0 < -0.1 }, "the grid is turned about 7 degrees against north")
        for (index, frame) in frames.enumerated() {
            let u = try rawField(path, "U10", frame: index), v = try rawField(path, "V10", frame: index)
            let eu = try XCTUnwrap(frame.values[.windU10m]), ev = try XCTUnwrap(frame.values[.windV10m])
            for cell in u.indices {
                let expected = earthWind(u: u[cell], v: v[cell], cos: cos[cell], sin: sin[cell])
                XCTAssertEqual(Double(eu[cell]), expected.u, accuracy: 1e-4, "u frame \(index) cell \(cell)")
                XCTAssertEqual(Double(ev[cell]), expected.v, accuracy: 1e-4, "v frame \(index) cell \(cell)")
            }
        }
        try assertWindsMatchNoAlphaCSV(frames[0], westEast: domain.grid.westEast)
    }

    /// Frame 0's earth-relative winds against `no_alpha_expected.csv` (made from stand_lon_offset.nc).
    private func assertWindsMatchNoAlphaCSV(_ frame: FrameFields, westEast: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        let u = try XCTUnwrap(frame.values[.windU10m]), v = try XCTUnwrap(frame.values[.windV10m])
        let table = try CSVTable(path: Fixture.edge("no_alpha_expected.csv"))
        XCTAssertEqual(table.rows.count, 6)
        for row in table.rows {
            let cell = try CSVTable.integer(row, "j") * westEast + CSVTable.integer(row, "i")
            XCTAssertEqual(Double(u[cell]), try CSVTable.number(row, "u10_earth_ms"), accuracy: 1.5e-4, "u cell \(cell)", file: file, line: line)
            XCTAssertEqual(Double(v[cell]), try CSVTable.number(row, "v10_earth_ms"), accuracy: 1.5e-4, "v cell \(cell)", file: file, line: line)
        }
    }

    func testMissingCosAlphaSinAlphaIsComputedFromTheProjection() throws {
        let path = Fixture.edge("no_alpha.nc")
        let netcdf = try NetCDFFile(path: path)
        XCTAssertFalse(netcdf.hasVariable("COSALPHA") || netcdf.hasVariable("SINALPHA"))
        let run = try ModelRun.read(paths: [path])
        let domain = try onlyDomain(run)
        XCTAssertTrue(domain.variables.available.contains(.windU10m))
        let frames = try readAllFrames(domain, variables: [.windU10m, .windV10m])
        try assertWindsMatchNoAlphaCSV(frames[0], westEast: domain.grid.westEast)

        // The rotation: from the projection at the stored coordinates, and the one the
        // reader applied (recovered from its winds), both against the CSV's.
        let lat = try rawField(path, "XLAT"), lon = try rawField(path, "XLONG")
        let u = try rawField(path, "U10"), v = try rawField(path, "V10")
        let eu = try XCTUnwrap(frames[0].values[.windU10m]), ev = try XCTUnwrap(frames[0].values[.windV10m])
        let table = try CSVTable(path: Fixture.edge("no_alpha_expected.csv"))
        for row in table.rows {
            let cell = try CSVTable.integer(row, "j") * domain.grid.westEast + CSVTable.integer(row, "i")
            let cos = try CSVTable.number(row, "cosalpha"), sin = try CSVTable.number(row, "sinalpha")
            let rotation = domain.grid.windRotation(at: GeoPoint(latitude: lat[cell], longitude: lon[cell]))
            XCTAssertEqual(rotation.cosAlpha, cos, accuracy: 1e-5, "cos cell \(cell)")
            XCTAssertEqual(rotation.sinAlpha, sin, accuracy: 1e-5, "sin cell \(cell)")
            let speed2 = u[cell] * u[cell] + v[cell] * v[cell]
            let appliedCos = (u[cell] * Double(eu[cell]) + v[cell] * Double(ev[cell])) / speed2
            let appliedSin = (u[cell] * Double(ev[cell]) - v[cell] * Double(eu[cell])) / speed2
            XCTAssertEqual(appliedCos, cos, accuracy: 1e-4, "applied cos cell \(cell)")
            XCTAssertEqual(appliedSin, sin, accuracy: 1e-4, "applied sin cell \(cell)")
        }
        // Every frame, every cell: the same winds as the file that stores the rotation.
        let stored = try onlyDomain(ModelRun.read(paths: [Fixture.edge("stand_lon_offset.nc")]))
        for (index, (a, b)) in zip(frames, try readAllFrames(stored, variables: [.windU10m, .windV10m])).enumerated() {
            for variable in [ForecastVariable.windU10m, .windV10m] {
                let x = try XCTUnwrap(a.values[variable]), y = try XCTUnwrap(b.values[variable])
                let worst = zip(x, y).map { abs($0 - $1) }.max() ?? .nan
                XCTAssertLessThan(worst, 2e-4, "\(variable.rawValue) frame \(index)")
            }
        }
    }

    func testFillNaNAndNegativeQ2() throws {
        let path = Fixture.edge("fill_nan_negative_q2.nc")
        let run = try ModelRun.read(paths: [path])
        let domain = try onlyDomain(run)
        let frames = try readAllFrames(domain)
        XCTAssertEqual(frames.count, 4)
        let we = domain.grid.westEast
        func cell(_ i: Int, _ j: Int) -> Int { j * we + i }
        // frame -> cells that are missing, per source (README of edge-cases).
        let badT2: [Int: Set<Int>] = [1: [cell(2, 3)], 2: [cell(5, 4), cell(6, 4)], 3: [cell(6, 1)]]
        let badU10: [Int: Set<Int>] = [2: [cell(4, 4)]]
        let badPSFC: [Int: Set<Int>] = [0: [cell(1, 1)]]
        let negativeQ2: [Int: Set<Int>] = [1: [cell(0, 5), cell(7, 0)], 3: [cell(4, 2)]]
        let uses: [ForecastVariable: [[Int: Set<Int>]]] = [
            .temperature2m: [badT2], .relativeHumidity2m: [badT2, badPSFC], .dewPoint2m: [badPSFC],
            .apparentTemperature: [badT2, badPSFC, badU10], .windU10m: [badU10], .windV10m: [badU10],
            .surfacePressure: [badPSFC], .pressureMSL: [badT2, badPSFC],
        ]
        for (index, frame) in frames.enumerated() {
            for (variable, sources) in uses {
                let values = try XCTUnwrap(frame.values[variable], variable.rawValue)
                let expectedNaN = sources.reduce(into: Set<Int>()) { $0.formUnion($1[index] ?? []) }
                let nan = Set(values.indices.filter { values[$0].isNaN })
                if variable == .dewPoint2m {
                    // Td needs only Q2 and PSFC; where T2 is missing, no cap applies but the value stands.
                    XCTAssertTrue(nan.isSubset(of: expectedNaN.union(badT2[index] ?? [])) && expectedNaN.isSubset(of: nan),
                                  "\(variable.rawValue) frame \(index): NaN at \(nan.sorted()), expected \(expectedNaN.sorted())")
                } else {
                    XCTAssertEqual(nan, expectedNaN, "\(variable.rawValue) frame \(index)")
                }
                let finite = values.filter(\.isFinite)
                XCTAssertTrue(finite.allSatisfy { abs($0) < 2000 }, "\(variable.rawValue) frame \(index): a fill value came out as a number")
            }
            for variable in [ForecastVariable.precipitation, .cloudCover] {
                let values = try XCTUnwrap(frame.values[variable])
                XCTAssertTrue(values.allSatisfy(\.isFinite), "\(variable.rawValue) frame \(index) uses none of the bad cells")
            }
            // Negative Q2: wrf-python clamps q at 0: RH 0 %, e = 0.001 hPa, Td about -80.5 C.
            let lnE = log(0.001 / 6.112)
            let clampedDewPoint = 243.5 * lnE / (17.67 - lnE)
            let rh = try XCTUnwrap(frame.values[.relativeHumidity2m]), td = try XCTUnwrap(frame.values[.dewPoint2m])
            let q2 = try rawField(path, "Q2", frame: index)
            for bad in negativeQ2[index] ?? [] {
                XCTAssertLessThan(q2[bad], 0, "the fixture's Q2 is negative at \(bad)")
                XCTAssertEqual(rh[bad], 0, "RH frame \(index) cell \(bad)")
                XCTAssertEqual(Double(td[bad]), clampedDewPoint, accuracy: 0.05, "Td frame \(index) cell \(bad)")
                XCTAssertTrue(try XCTUnwrap(frame.values[.apparentTemperature])[bad].isFinite)
            }
        }
    }
}
