import Foundation
import Catalog
import ModelIngest
import NetCDF
import TestSupport
import XCTest

/// Issue 11's stored 2-D variables against `Scripts/variables_reference.py`, a numpy
/// transcription of each published definition (not of our code), on the real allvars sample.
final class NewVariablesReferenceTests: XCTestCase {
    /// Worst allowed difference per variable, in its unit: float32 rounding of the inputs
    /// (the engine reads and computes in Float, the reference in float64).
    private let tolerance: [ForecastVariable: Double] = [
        .rain: 1e-4, .showers: 1e-4, .snowDepth: 1e-6, .vapourPressureDeficit: 1e-4, .windGusts10m: 1e-4,
        .cloudCoverLow: 1e-3, .cloudCoverMid: 1e-3, .cloudCoverHigh: 1e-3,
        .soilTemperature0to10cm: 1e-3, .soilTemperature10to40cm: 1e-3, .soilTemperature40to100cm: 1e-3, .soilTemperature100to200cm: 1e-3,
        .soilMoisture0to10cm: 1e-6, .soilMoisture10to40cm: 1e-6, .soilMoisture40to100cm: 1e-6, .soilMoisture100to200cm: 1e-6,
    ]

    func testNewVariablesMatchTheReferenceOnTheAllvarsSample() throws {
        let path = try Repository.sharedSample("wrf_d01_allvars_cropped.nc")
        let check = try runTool("python3", ["-c", "import numpy, netCDF4"])
        try XCTSkipIf(check.status != 0, "python3 with numpy and netCDF4 is needed for the reference: \(check.stderr)")
        let script = Repository.root.appendingPathComponent("Scripts/variables_reference.py").path
        let result = try runTool("python3", [script, path])
        XCTAssertEqual(result.status, 0, result.stderr)
        var reference: [String: [Int: [Int: Double]]] = [:]
        for line in result.stdout.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: ",")
            guard fields.count == 5, let frame = Int(fields[1]), let j = Int(fields[2]), let i = Int(fields[3]) else { continue }
            reference[String(fields[0]), default: [:]][frame, default: [:]][j * 1000 + i] = Double(fields[4]) ?? .nan
        }
        let domain = try onlyDomain(ModelRun.read(paths: [path]))
        let variables = Array(tolerance.keys).sorted()
        for variable in variables { XCTAssertTrue(domain.variables.available.contains(variable), variable.rawValue) }
        let frames = try readAllFrames(domain, variables: variables)
        let we = domain.grid.westEast, sn = domain.grid.southNorth
        for variable in variables {
            let expected = try XCTUnwrap(reference[variable.rawValue], variable.rawValue)
            let (worst, compared, bothUnknown) = try worstDifference(frames, variable, reference: expected, westEast: we, southNorth: sn,
                                                                     unknownInBothAgrees: true)
            print("\(variable.rawValue) vs Scripts/variables_reference.py: worst \(worst) \(variable.unit) over \(compared) cell-frames (\(bothUnknown) unknown in both)")
            XCTAssertEqual(compared + bothUnknown, frames.count * we * sn, variable.rawValue)
            XCTAssertGreaterThan(compared, 0, variable.rawValue)
            XCTAssertLessThanOrEqual(worst, tolerance[variable] ?? 0, variable.rawValue)
        }
    }

    /// Rain and showers split the total: rain + showers + frozen grid-scale parts equals the
    /// precipitation of every known interval (a check of the split, not of its source).
    func testRainAndShowersSplitPrecipitation() throws {
        let path = try Repository.sharedSample("wrf_d01_allvars_cropped.nc")
        let domain = try onlyDomain(ModelRun.read(paths: [path]))
        let frames = try readAllFrames(domain, variables: [.precipitation, .rain, .showers, .snowfall])
        var checked = 0
        for frame in frames {
            let total = try XCTUnwrap(frame.values[.precipitation]), rain = try XCTUnwrap(frame.values[.rain])
            let showers = try XCTUnwrap(frame.values[.showers])
            for cell in total.indices where !total[cell].isNaN {
                XCTAssertLessThanOrEqual(rain[cell] + showers[cell], total[cell] + 1e-4)
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 0)
    }

    /// direct_radiation, diffuse_radiation and cape are the file's own fields: on a copy of
    /// the allvars sample with SWDDIR, SWDDIF and CAPE added (Scripts/add_radiation_fields.py),
    /// equal to what netCDF reads (the file's CAPE is kept, not recomputed from the 3-D fields);
    /// the radiation is not offered by the sample itself, and its cape is the surface-based
    /// parcel's from the 3-D fields (checked against MetPy by CLITests.ColumnQuantitiesTests).
    func testDirectDiffuseRadiationAndCapeAreTheFilesFields() throws {
        let sample = try Repository.sharedSample("wrf_d01_allvars_cropped.nc")
        let check = try runTool("python3", ["-c", "import numpy, netCDF4"])
        try XCTSkipIf(check.status != 0, "python3 with numpy and netCDF4 is needed: \(check.stderr)")
        let plain = try onlyDomain(ModelRun.read(paths: [sample]))
        let lacking = Dictionary(plain.variables.missing, uniquingKeysWith: { a, _ in a })
        XCTAssertEqual(lacking[.directRadiation], "no SWDDIR")
        XCTAssertNil(lacking[.cape])
        XCTAssertTrue(plain.variables.available.contains(.cape))
        let directory = try TemporaryDirectory("tilecast-radiation")
        let path = directory.path("wrfout_d01_radiation.nc")
        let script = Repository.root.appendingPathComponent("Scripts/add_radiation_fields.py").path
        let made = try runTool("python3", [script, sample, path])
        XCTAssertEqual(made.status, 0, made.stderr)
        let domain = try onlyDomain(ModelRun.read(paths: [path]))
        let variables: [(ForecastVariable, String)] = [(.directRadiation, "SWDDIR"), (.diffuseRadiation, "SWDDIF"), (.cape, "CAPE")]
        let frames = try readAllFrames(domain, variables: variables.map(\.0))
        for (variable, name) in variables {
            var worst = 0.0
            for (index, frame) in frames.enumerated() {
                let got = try XCTUnwrap(frame.values[variable], variable.rawValue)
                for (a, b) in zip(got, try rawField(path, name, frame: index)) { worst = max(worst, abs(Double(a) - b)) }
            }
            print("\(variable.rawValue) vs \(name) read by netCDF: worst \(worst)")
            XCTAssertEqual(worst, 0, variable.rawValue)
        }
    }

    /// Reference values of `Scripts/visibility_reference.py` for a file: [frame][j * 1000 + i].
    private func visibilityReference(_ path: String) throws -> [Int: [Int: Double]] {
        let check = try runTool("python3", ["-c", "import numpy, netCDF4"])
        try XCTSkipIf(check.status != 0, "python3 with numpy and netCDF4 is needed for the reference: \(check.stderr)")
        let script = Repository.root.appendingPathComponent("Scripts/visibility_reference.py").path
        let result = try runTool("python3", [script, path])
        XCTAssertEqual(result.status, 0, result.stderr)
        var reference: [Int: [Int: Double]] = [:]
        for line in result.stdout.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: ",")
            guard fields.count == 5, let frame = Int(fields[1]), let j = Int(fields[2]), let i = Int(fields[3]) else { continue }
            reference[frame, default: [:]][j * 1000 + i] = Double(fields[4]) ?? .nan
        }
        return reference
    }

    /// visibility against `Scripts/visibility_reference.py` (numpy transcription of UPP's
    /// CALVIS_GSD Fortran) at every cell and frame of the real allvars sample, which has fog
    /// (tens of metres) on the plateau at 00Z, haze (12-24 km) and clear air (the cap).
    func testVisibilityMatchesTheUPPReferenceOnTheAllvarsSample() throws {
        let path = try Repository.sharedSample("wrf_d01_allvars_cropped.nc")
        let reference = try visibilityReference(path)
        let domain = try onlyDomain(ModelRun.read(paths: [path]))
        XCTAssertTrue(domain.variables.available.contains(.visibility))
        let frames = try readAllFrames(domain, variables: [.visibility])
        let we = domain.grid.westEast, sn = domain.grid.southNorth
        var worst = 0.0, worstRelative = 0.0, compared = 0, fog = 0, capped = 0
        for (index, frame) in frames.enumerated() {
            let values = try XCTUnwrap(frame.values[.visibility])
            for j in 0..<sn {
                for i in 0..<we {
                    let want = try XCTUnwrap(reference[index]?[j * 1000 + i], "frame \(index) j \(j) i \(i)")
                    let got = Double(values[j * we + i])
                    worst = max(worst, abs(got - want))
                    worstRelative = max(worstRelative, abs(got - want) / want)
                    compared += 1
                    if want <= 1000 { fog += 1 }
                    if want == 24_135 { capped += 1 }
                }
            }
        }
        print("visibility vs Scripts/visibility_reference.py: worst \(worst) m (relative \(worstRelative)) over \(compared) cell-frames, \(fog) of them fog, \(capped) at the cap")
        XCTAssertEqual(compared, 4 * we * sn)
        XCTAssertGreaterThan(fog, 20, "the sample's fog is compared")
        XCTAssertGreaterThan(capped, 0)
        XCTAssertLessThan(compared - fog - capped, compared, "haze values are compared")
        XCTAssertLessThanOrEqual(worst, 0.05)
        XCTAssertLessThanOrEqual(worstRelative, 1e-5)
    }

    /// `Scripts/make_fog_sample.py`'s copy of the allvars sample without QICE offers no
    /// visibility and says why. (The fog codes themselves are the query's: WeatherCodeAtPlaceTests.)
    func testNoVisibilityWithoutItsSources() throws {
        let sample = try Repository.sharedSample("wrf_d01_allvars_cropped.nc")
        let directory = try TemporaryDirectory("tilecast-fog")
        let withoutIce = directory.path("wrfout_d01_noice.nc")
        let script = Repository.root.appendingPathComponent("Scripts/make_fog_sample.py").path
        let plain = try runTool("python3", [script, sample, withoutIce, "--without", "QICE"])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        let noIce = try onlyDomain(ModelRun.read(paths: [withoutIce]))
        XCTAssertFalse(noIce.variables.available.contains(.visibility))
        XCTAssertEqual(Dictionary(noIce.variables.missing, uniquingKeysWith: { a, _ in a })[.visibility], "no QICE")
    }

    /// A file without a variable's sources does not offer it, and says which source is
    /// missing (SampleGrids: WRF has no SNOWH or soil fields; MM5 has no SNOWNC, so no rain).
    func testMissingSourcesAreNamed() throws {
        let wrf = try ModelRun.read(paths: [Repository.sampleGrids.appendingPathComponent("wrfout_d01_2026-11-22_00:00:00").path])
        let missing = Dictionary(try XCTUnwrap(wrf.domains.first).variables.missing, uniquingKeysWith: { a, _ in a })
        XCTAssertEqual(missing[.snowDepth], "no SNOWH")
        XCTAssertEqual(missing[.soilTemperature0to10cm], "no TSLB, ZS")
        XCTAssertTrue(try XCTUnwrap(wrf.domains.first).variables.available.contains(.rain))
        XCTAssertEqual(missing[.visibility], "no P, PB, T, QVAPOR, QCLOUD, QRAIN, QICE, QSNOW")
        let mm5 = try ModelRun.read(paths: [Repository.sampleGrids.appendingPathComponent("mm5_2026-11-22_00.nc").path])
        let mm5Domain = try XCTUnwrap(mm5.domains.first)
        XCTAssertFalse(mm5Domain.variables.available.contains(.rain))
        XCTAssertTrue(mm5Domain.variables.available.contains(.showers), "rain_con gives showers")
        let reason = Dictionary(mm5Domain.variables.missing, uniquingKeysWith: { a, _ in a })[.rain] ?? ""
        XCTAssertFalse(mm5Domain.variables.available.contains(.visibility))
        XCTAssertTrue(reason.contains("snow_water"), reason)
    }
}
