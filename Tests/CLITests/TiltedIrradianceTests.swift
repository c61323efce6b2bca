import Foundation
import TestSupport
import XCTest

/// `global_tilted_irradiance` against Scripts/tilted_irradiance_reference.py (pvlib's SPA sun,
/// `erbs` and `get_total_irradiance(model="isotropic", albedo=0.2)`; nothing shared with the
/// engine) on the real allvars sample: every mass node at every frame and 200 seeded places at
/// half-hour times between frames, for fixed planes (flat, Open-Meteo's east and west walls,
/// north-facing), Open-Meteo's tracking (nan) and seeded random tilts and azimuths. Once from
/// SWDOWN alone (split by Erbs: the sample has no SWDDIR) and once from a copy carrying SWDDIR
/// and SWDDIF (Scripts/add_radiation_fields.py). The tolerance is the reference's own, per row:
/// its spread over half the stored radiation step and 0.05° of sun, plus the printed rounding.
final class TiltedIrradianceTests: XCTestCase {
    private static let fixed = "0:0,35:-20,90:-90,90:90,30:180,nan:nan,nan:0,40:nan"

    private func requirePython() throws {
        let check = try runTool("python3", ["-c", "import numpy, netCDF4, pyproj, pvlib, pandas"])
        try XCTSkipIf(check.status != 0, "python3 with numpy, netCDF4, pyproj and pvlib is needed for the reference: \(check.stderr)")
    }

    /// Extracts `input`, runs the reference, asks the engine for each orientation and compares.
    private func compare(_ input: String, label: String) throws {
        let directory = try TemporaryDirectory("tilecast-tilted")
        let store = directory.path("store")
        let tilecast = try tilecastBinary()
        let extracted = try runTool(tilecast, ["extract", input, "--store", store, "--quiet"])
        XCTAssertEqual(extracted.status, 0, extracted.stderr)
        let script = Repository.root.appendingPathComponent("Scripts/tilted_irradiance_reference.py").path
        let reference = try runTool("python3", [script, input, "--orientations", Self.fixed, "--random-orientations", "6",
                                                "--places", "200", "--seed", "20261127"])
        XCTAssertEqual(reference.status, 0, reference.stderr)
        let rows = reference.stdout.split(separator: "\n").map { $0.split(separator: ",").map(String.init) }
        let header = try XCTUnwrap(rows.first)
        XCTAssertEqual(rows.count, 1 + 80 * 4 + 200)
        let points = directory.path("points.csv")
        try rows.map { $0[0...2].joined(separator: ",") }.joined(separator: "\n").write(toFile: points, atomically: true, encoding: .utf8)
        let orientations = header.filter { $0.hasPrefix("gti_") }.map { String($0.dropFirst(4)) }
        XCTAssertEqual(orientations.count, 14)
        var worstOverall = 0.0, sunlit = 0
        for orientation in orientations {
            let parts = orientation.split(separator: ":").map(String.init)
            let answer = try runTool(tilecast, ["query", "--store", store, "--points", points, "--format", "csv",
                                                "--variables", "global_tilted_irradiance,global_tilted_irradiance_instant",
                                                "--tilt", parts[0], "--azimuth", parts[1]])
            XCTAssertEqual(answer.status, 0, answer.stderr)
            let lines = answer.stdout.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
            XCTAssertEqual(lines.count, rows.count)
            let got = try XCTUnwrap(lines.first?.firstIndex(of: "global_tilted_irradiance"))
            let gotInstant = try XCTUnwrap(lines.first?.firstIndex(of: "global_tilted_irradiance_instant"))
            let expected = try XCTUnwrap(header.firstIndex(of: "gti_\(orientation)"))
            let allowed = try XCTUnwrap(header.firstIndex(of: "tolerance_\(orientation)"))
            var worst = 0.0, worstRow = "", widest = 0.0
            for (row, line) in zip(rows.dropFirst(), lines.dropFirst()) {
                let where_ = "\(label) \(orientation) at \(row[0]), \(row[1]), \(row[2])"
                let value = try XCTUnwrap(Double(line[got]), where_), truth = try XCTUnwrap(Double(row[expected]), where_)
                let tolerance = try XCTUnwrap(Double(row[allowed]), where_)
                XCTAssertEqual(line[gotInstant], line[got], where_)
                XCTAssertEqual(value, truth, accuracy: tolerance, where_)
                if truth > 50 { sunlit += 1 }
                widest = max(widest, tolerance)
                if abs(value - truth) > worst { worst = abs(value - truth); worstRow = where_ }
            }
            worstOverall = max(worstOverall, worst)
            print("\(label) tilt:azimuth \(orientation): worst \(String(format: "%.3f", worst)) W/m² (\(worstRow)); widest tolerance \(String(format: "%.2f", widest))")
        }
        print("\(label): worst \(worstOverall) W/m² over \(orientations.count) planes x \(rows.count - 1) rows")
        // The comparison is not all night: most rows of the day frames have sun on the plane.
        XCTAssertGreaterThan(sunlit, orientations.count * 200, label)
    }

    func testTiltedIrradianceMatchesPvlibFromTheGlobalRadiation() throws {
        try requirePython()
        try compare(try Repository.sharedSample("wrf_d01_allvars_cropped.nc"), label: "SWDOWN (Erbs)")
    }

    func testTiltedIrradianceMatchesPvlibFromDirectAndDiffuse() throws {
        try requirePython()
        let directory = try TemporaryDirectory("tilecast-tilted-split")
        let copy = directory.path("with_direct.nc")
        let script = Repository.root.appendingPathComponent("Scripts/add_radiation_fields.py").path
        let made = try runTool("python3", [script, try Repository.sharedSample("wrf_d01_allvars_cropped.nc"), copy])
        XCTAssertEqual(made.status, 0, made.stderr)
        try compare(copy, label: "SWDDIR + SWDDIF")
    }

    /// Night is 0 W/m²; an unknown input radiation is null, never 0, by day or night.
    func testNightIsZeroAndMissingRadiationIsNull() throws {
        let directory = try TemporaryDirectory("tilecast-tilted-missing")
        let copy = directory.path("holes.nc")
        // The sample's frames at 00Z (before sunrise at its western cells) and 06Z; SWDOWN
        // unknown (its _FillValue-free NaN) everywhere in the 03Z frame.
        let made = try runTool("python3", ["-c", """
            import shutil, sys, numpy as np
            from netCDF4 import Dataset
            shutil.copy(sys.argv[1], sys.argv[2])
            with Dataset(sys.argv[2], "a") as ds:
                ds.set_auto_mask(False)
                sw = ds["SWDOWN"][:]
                sw[1] = np.nan
                ds["SWDOWN"][:] = sw
            """, try Repository.sharedSample("wrf_d01_allvars_cropped.nc"), copy])
        XCTAssertEqual(made.status, 0, made.stderr)
        let store = directory.path("store")
        let tilecast = try tilecastBinary()
        let extracted = try runTool(tilecast, ["extract", copy, "--store", store, "--quiet"])
        XCTAssertEqual(extracted.status, 0, extracted.stderr)
        let answer = try runTool(tilecast, ["query", "--store", store, "--lat", "29.1", "--lon", "85.7", "--start", "2005-09-21T00:00Z",
                                            "--hours", "7", "--format", "csv", "--tilt", "90", "--azimuth", "-90",
                                            "--variables", "global_tilted_irradiance,shortwave_radiation"])
        XCTAssertEqual(answer.status, 0, answer.stderr)
        let lines = answer.stdout.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let column = try XCTUnwrap(lines.first?.firstIndex(of: "global_tilted_irradiance"), answer.stdout)
        let values = lines.dropFirst().map { $0[column] }
        XCTAssertEqual(values.count, 7, answer.stdout)
        // 00Z: the sun is below the horizon at 85.7° E (sunrise about 00:20Z): 0.
        XCTAssertEqual(values.first, "0", answer.stdout)
        // 01Z-05Z lean on the 03Z frame (linear in time between 00Z, 03Z and 06Z): unknown.
        for k in 1...5 { XCTAssertEqual(values[k], "", "hour \(k): \(answer.stdout)") }
        // 06Z: known and positive on the east wall in the morning.
        XCTAssertGreaterThan(Double(values[6]) ?? 0, 50, answer.stdout)
    }

    /// The options refuse what Open-Meteo refuses, saying the range and the convention.
    func testInvalidTiltAndAzimuthAreRefusedWithTheRange() throws {
        let tilecast = try tilecastBinary()
        let directory = try TemporaryDirectory("tilecast-tilted-options")
        for (option, value, expected) in [("--tilt", "91", "0..90 degrees"), ("--tilt", "-1", "0..90 degrees"),
                                          ("--tilt", "steep", "0..90 degrees"), ("--azimuth", "181", "-180..180 degrees, 0 south"),
                                          ("--azimuth", "-180.5", "-180..180 degrees, 0 south"), ("--azimuth", "inf", "-180..180 degrees")] {
            let result = try runTool(tilecast, ["query", "--store", directory.path("none"), "--lat", "29", "--lon", "86", option, value])
            XCTAssertEqual(result.status, 2, "\(option) \(value): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("\(option) \(value): expected \(expected)"), "\(option) \(value): \(result.stderr)")
        }
        let help = try runTool(tilecast, ["query", "--help"])
        XCTAssertTrue(help.stdout.contains("0 south"), help.stdout)
        XCTAssertTrue(help.stdout.contains("-90 east"), help.stdout)
    }
}
