import Foundation
import Catalog
import ModelIngest
import NetCDF
import TestSupport
import XCTest

/// Issue 16 item 6: each source's dimensions are checked against its role, and its `units`
/// attribute is read (converted when convertible, refused when not).
final class LayoutAndUnitsTests: XCTestCase {
    private var directory: TemporaryDirectory!
    override func setUpWithError() throws { directory = try TemporaryDirectory() }

    private let baseline = Fixture.edge("baseline.nc")

    /// `cdl` with the data of variable `name` replaced by `values`.
    private func replacingData(_ cdl: String, _ name: String, _ values: [Double]) throws -> String {
        var cdl = cdl
        let data = try XCTUnwrap(cdl.range(of: "\ndata:\n"))
        let start = try XCTUnwrap(cdl.range(of: "\n \(name) =", range: data.upperBound..<cdl.endIndex), name)
        let end = try XCTUnwrap(cdl.range(of: ";", range: start.upperBound..<cdl.endIndex))
        cdl.replaceSubrange(start.upperBound..<end.lowerBound, with: "\n  " + values.map { "\($0)" }.joined(separator: ", ") + " ")
        return cdl
    }

    /// Every T2 value of baseline, frame-major, straight from ncdump.
    private func baselineT2() throws -> [Double] {
        let values = try ncdumpValues(path: baseline, variable: "T2")
        XCTAssertEqual(values.count, 4 * 6 * 8)
        return values
    }

    // MARK: dimensions

    func testTransposedT2IsRefused() throws {
        let path = directory.path("transposed.nc")
        try rewriteCDL(baseline, to: path) {
            replacing($0, "float T2(Time, south_north, west_east)", "float T2(Time, west_east, south_north)")
        }
        assertRefused([path], mentioning: [path, "T2", "(Time, west_east, south_north)", "(Time, south_north, west_east)"])
    }

    func testOneRecordLeadingDimensionThatIsNotTimeIsRefused() throws {
        let path = directory.path("one.nc")
        let frame0 = Array(try baselineT2().prefix(48))
        try rewriteCDL(baseline, to: path) { cdl in
            let declared = replacing(replacing(cdl, "\tbottom_top = 2 ;", "\tbottom_top = 2 ;\n\tone = 1 ;"),
                                     "float T2(Time, south_north, west_east)", "float T2(one, south_north, west_east)")
            return try replacingData(declared, "T2", frame0)
        }
        assertRefused([path], mentioning: [path, "T2", "(one, south_north, west_east)"])
    }

    func testT2OnLevelsIsRefused() throws {
        let path = directory.path("levels.nc")
        let two = Array(try baselineT2().prefix(96))
        try rewriteCDL(baseline, to: path) { cdl in
            try replacingData(replacing(cdl, "float T2(Time, south_north, west_east)", "float T2(bottom_top, south_north, west_east)"), "T2", two)
        }
        assertRefused([path], mentioning: [path, "T2", "bottom_top"])
    }

    func testCloudFractionWithOneLevelPerTimeIsReadPerFrame() throws {
        let path = directory.path("cldfra2d.nc")
        var generator = SeededGenerator(seed: 6)
        // Multiples of 1/64, exact in float: cover is fraction x 100.
        let fractions = (0..<(4 * 48)).map { _ in Double(Int.random(in: 0...64, using: &generator)) / 64 }
        try rewriteCDL(baseline, to: path) { cdl in
            try replacingData(replacing(cdl, "float CLDFRA(Time, bottom_top, south_north, west_east)", "float CLDFRA(Time, south_north, west_east)"),
                              "CLDFRA", fractions)
        }
        let frames = try readAllFrames(try onlyDomain(ModelRun.read(paths: [path])), variables: [.cloudCover])
        XCTAssertEqual(frames.count, 4)
        for (index, frame) in frames.enumerated() {
            let cover = try XCTUnwrap(frame.values[.cloudCover])
            let expected = fractions[(index * 48)..<((index + 1) * 48)].map { Float($0 * 100) }
            XCTAssertEqual(cover, expected, "frame \(index): its own CLDFRA, not the maximum over all times")
        }
    }

    func testCloudFractionWithoutTimeIsRefused() throws {
        let path = directory.path("cldfra-static.nc")
        try rewriteCDL(baseline, to: path) { cdl in
            let values = try ncdumpValues(path: baseline, variable: "CLDFRA")
            return try replacingData(replacing(cdl, "float CLDFRA(Time, bottom_top, south_north, west_east)", "float CLDFRA(bottom_top, south_north, west_east)"),
                                     "CLDFRA", Array(values.prefix(96)))
        }
        assertRefused([path], mentioning: [path, "CLDFRA"])
    }

    // MARK: units

    func testT2InDegreesCelsiusIsConverted() throws {
        let path = directory.path("celsius.nc")
        let kelvin = try baselineT2()
        // Celsius values with a short decimal form (ncgen reads them exactly as written).
        let celsius = kelvin.map { (($0 - 273.15) * 100).rounded() / 100 }
        try rewriteCDL(baseline, to: path) { cdl in
            try replacingData(replacing(cdl, "T2:units = \"K\"", "T2:units = \"degC\""), "T2", celsius)
        }
        let frames = try readAllFrames(try onlyDomain(ModelRun.read(paths: [path])), variables: [.temperature2m])
        for (index, frame) in frames.enumerated() {
            let t2 = try XCTUnwrap(frame.values[.temperature2m])
            for cell in 0..<48 {
                XCTAssertEqual(Double(t2[cell]), celsius[index * 48 + cell], accuracy: 2e-3, "frame \(index) cell \(cell)")
            }
        }
    }

    func testT2InFahrenheitIsConverted() throws {
        let path = directory.path("fahrenheit.nc")
        try rewriteCDL(baseline, to: path) { cdl in
            try replacingData(replacing(cdl, "T2:units = \"K\"", "T2:units = \"deg_F\""), "T2", [Double](repeating: 50, count: 192))
        }
        let frames = try readAllFrames(try onlyDomain(ModelRun.read(paths: [path])), variables: [.temperature2m])
        XCTAssertEqual(Double(try XCTUnwrap(frames.last?.values[.temperature2m]?[7])), 10, accuracy: 1e-4, "50 °F is 10 °C")
    }

    func testMM5RainDeclaredInMillimetresIsNotMultipliedByTen() throws {
        let source = Fixture.grid(Fixture.mm5)
        let path = directory.path("mm5_mm.nc")
        try rewriteCDL(source, to: path) { cdl in
            replacing(replacing(cdl, "rain_con:units = \"cm\"", "rain_con:units = \"mm\""), "rain_non:units = \"cm\"", "rain_non:units = \"mm\"")
        }
        let con = try ncdumpValues(path: path, variable: "rain_con"), non = try ncdumpValues(path: path, variable: "rain_non")
        let cells = 30 * 36
        let frames = try readAllFrames(try onlyDomain(ModelRun.read(paths: [path])), variables: [.precipitation])
        let rain = try XCTUnwrap(frames[1].values[.precipitation])
        var compared = 0
        for cell in stride(from: 0, to: cells, by: 37) {
            let expected = con[cells + cell] + non[cells + cell] - con[cell] - non[cell]
            XCTAssertEqual(Double(rain[cell]), expected, accuracy: 1e-3 + expected * 1e-5, "cell \(cell): the file's millimetres")
            compared += expected > 0.01 ? 1 : 0
        }
        XCTAssertGreaterThan(compared, 0, "some cells rain in the first interval")
    }

    func testXTIMEInSecondsIsReadAsSeconds() throws {
        // times_missing.nc has no Times: its time axis is XTIME.
        let source = Fixture.edge("times_missing.nc")
        let path = directory.path("seconds.nc")
        let minutes = try ncdumpValues(path: source, variable: "XTIME")
        XCTAssertEqual(minutes, [0, 60, 120, 180])
        try rewriteCDL(source, to: path) { cdl in
            try replacingData(replacing(cdl, "XTIME:units = \"minutes since", "XTIME:units = \"seconds since"), "XTIME", minutes.map { $0 * 60 })
        }
        let run = try ModelRun.read(paths: [path])
        XCTAssertEqual(try onlyDomain(run).times, [0, 1, 2, 3].map { nov22(hour: $0) })
    }

    func testUnknownOrWrongQuantityUnitsAreRefused() throws {
        let furlongs = directory.path("furlongs.nc"), kelvinRain = directory.path("kelvin-rain.nc")
        try rewriteCDL(baseline, to: furlongs) { replacing($0, "U10:units = \"m s-1\"", "U10:units = \"furlongs per fortnight\"") }
        assertRefused([furlongs], mentioning: [furlongs, "U10", "furlongs per fortnight"])
        try rewriteCDL(baseline, to: kelvinRain) { replacing($0, "RAINC:units = \"mm\"", "RAINC:units = \"K\"") }
        assertRefused([kelvinRain], mentioning: [kelvinRain, "RAINC", "\"K\""])
        // "degrees" is a latitude or a longitude, never a temperature.
        let degrees = directory.path("degrees.nc")
        try rewriteCDL(baseline, to: degrees) { replacing($0, "T2:units = \"K\"", "T2:units = \"degrees\"") }
        assertRefused([degrees], mentioning: [degrees, "T2", "\"degrees\""])
    }

    /// POTEVP's units attribute: WRF writes "W m-2" for what Noah accumulates in metres of water
    /// (module_sf_noahdrv: POTEVP += ETP * DT / (XLV * RHOWATER)); that one attribute yields to
    /// the profile's "m", so the amounts come out in mm, 1000 x the difference of the totals (read
    /// here with ncdump). A length it declares is still converted by the attribute (POTEVP in mm:
    /// the difference itself), and a unit of another quantity is still refused.
    func testPotentialEvaporationsMisdeclaredFluxUnitYieldsToTheProfile() throws {
        let sample = try Repository.sharedSample("wrf_d01_allvars_cropped.nc")
        let totals = try ncdumpValues(path: sample, variable: "POTEVP")
        XCTAssertEqual(totals.count, 4 * 80)
        func secondFrame(_ path: String) throws -> [Float] {
            let domain = try onlyDomain(ModelRun.read(paths: [path]))
            XCTAssertTrue(domain.variables.available.contains(.potentialEvapotranspiration), path)
            let frames = try readAllFrames(domain, variables: [.potentialEvapotranspiration])
            return try XCTUnwrap(frames[1].values[.potentialEvapotranspiration])
        }
        let asWritten = try secondFrame(sample)
        let millimetres = directory.path("potevp-mm.nc")
        try rewriteCDL(sample, to: millimetres) { replacing($0, "POTEVP:units = \"W m-2\"", "POTEVP:units = \"mm\"") }
        let declaredMillimetres = try secondFrame(millimetres)
        var positive = 0
        for cell in 0..<80 {
            let difference = totals[80 + cell] - totals[cell]
            if difference > 0 { positive += 1 }
            XCTAssertEqual(Double(asWritten[cell]), 1000 * difference, accuracy: 1e-4, "cell \(cell)")
            XCTAssertEqual(Double(declaredMillimetres[cell]), difference, accuracy: 1e-7, "cell \(cell)")
        }
        XCTAssertGreaterThan(positive, 40, "the sample evaporates over land")
        let kelvin = directory.path("potevp-kelvin.nc")
        try rewriteCDL(sample, to: kelvin) { replacing($0, "POTEVP:units = \"W m-2\"", "POTEVP:units = \"K\"") }
        assertRefused([kelvin], mentioning: [kelvin, "POTEVP", "\"K\""])
    }
}

/// Issue 11 item D and issue 13 item 6: MM5 projection and model-top handling.
final class MM5MetadataTests: XCTestCase {
    private var directory: TemporaryDirectory!
    override func setUpWithError() throws { directory = try TemporaryDirectory() }

    func testMM5WithoutPtopWarnsOfTheAssumedModelTop() throws {
        let source = Fixture.grid(Fixture.mm5)
        XCTAssertFalse(try ModelRun.read(paths: [source]).warnings.contains { $0.message.contains("assumed model top") })
        let path = directory.path("mm5_noptop.nc")
        try rewriteCDL(source, to: path) { cdl in
            var text = replacing(cdl, "\tfloat ptop ;\n\t\tptop:long_name = \"pressure at model top\" ;\n\t\tptop:units = \"Pa\" ;\n", "")
            text = replacing(text, "\n ptop = 10000 ;\n", "\n")
            return text
        }
        let run = try ModelRun.read(paths: [path])
        let warning = try XCTUnwrap(run.warnings.first { $0.message.contains("assumed model top") }, "\(run.warnings)")
        XCTAssertTrue(warning.message.contains(path) && warning.message.contains("ptop") && warning.message.contains("10000 Pa"), warning.message)
        // The assumption is the one used: pressure = p* + 10000 Pa, from the raw file.
        let pstar = try ncdumpValues(path: path, variable: "pstarcrs")
        let frame = try XCTUnwrap(readAllFrames(try onlyDomain(run), variables: [.surfacePressure]).first)
        let pressure = try XCTUnwrap(frame.values[.surfacePressure])
        XCTAssertEqual(Double(pressure[17]), (pstar[17] + 10_000) / 100, accuracy: 1e-3)
    }

    func testMM5ProjectionCodeAndSpacingGoThroughGridGeometry() throws {
        let source = Fixture.grid(Fixture.mm5)
        let code = directory.path("mm5_code6.nc"), spacing = directory.path("mm5_ds0.nc")
        let dump = try runTool("ncdump", ["-v", "map_proj_code,grid_ds", source]).stdout
        XCTAssertTrue(dump.contains("map_proj_code = 1 ;"), dump)
        let ds = try XCTUnwrap(dump.range(of: "grid_ds = ").map { String(dump[$0.upperBound...].prefix { $0 != " " && $0 != ";" }) })
        try rewriteCDL(source, to: code) { replacing($0, "map_proj_code = 1 ;", "map_proj_code = 6 ;") }
        assertRefused([code], mentioning: [code, "map_proj_code = 6"])
        try rewriteCDL(source, to: spacing) { replacing($0, "grid_ds = \(ds) ;", "grid_ds = 0 ;") }
        assertRefused([spacing], mentioning: [spacing, "grid_ds"])
    }
}
