import Foundation
import Catalog
import GridGeometry
import ModelIngest
import NetCDF
import TestSupport
import XCTest

/// Ingest of the SampleGrids WRF pair and MM5 file against the values their generator
/// computed independently (expected_derived.csv, expected_nest.csv; SampleGrids/README.md).
final class SampleGridTests: XCTestCase {
    /// Every frame of one SampleGrids file read alone, with the derived variables the CSV covers.
    private func frames(of name: String) throws -> (Domain, [FrameFields]) {
        let domain = try onlyDomain(ModelRun.read(paths: [Fixture.grid(name)]))
        let frames = try readAllFrames(domain, variables: [.temperature2m, .relativeHumidity2m, .dewPoint2m, .windU10m, .windV10m,
                                                           .precipitation, .cloudCover, .shortwaveRadiation])
        XCTAssertEqual(frames.count, 25)
        return (domain, frames)
    }

    /// The rows of expected_derived.csv for one file, with the frame and cell they name.
    private func expectedRows(_ name: String, westEast: Int) throws -> [(frame: Int, cell: Int, row: [String: String])] {
        let table = try CSVTable(path: Fixture.grid("expected_derived.csv"))
        return try table.rows.filter { $0["file"] == name }.map { row in
            (try CSVTable.integer(row, "frame"), try CSVTable.integer(row, "j") * westEast + CSVTable.integer(row, "i"), row)
        }
    }

    func testHumidityAndDewPointAtTheExpectedPoints() throws {
        var checked = 0
        for name in [Fixture.d01, Fixture.d02] {
            let (domain, frames) = try frames(of: name)
            for (frame, cell, row) in try expectedRows(name, westEast: domain.grid.westEast) {
                let values = frames[frame].values
                let label = "\(name) frame \(frame) \(row["note"] ?? "")"
                XCTAssertEqual(ModelTime.iso(frames[frame].time), row["time_utc"], label)
                let t2 = try CSVTable.number(row, "t2_C")
                XCTAssertEqual(Double(try XCTUnwrap(values[.temperature2m])[cell]), t2, accuracy: 1e-3, label)
                XCTAssertEqual(Double(try XCTUnwrap(values[.relativeHumidity2m])[cell]), try CSVTable.number(row, "rh2_pct"),
                               accuracy: 0.05, "RH " + label)
                // wrf-python's td2, capped at T2 by FrameReader (see its comment on supersaturated Q2).
                let td = min(try CSVTable.number(row, "td2_C"), t2)
                XCTAssertEqual(Double(try XCTUnwrap(values[.dewPoint2m])[cell]), td, accuracy: 0.05, "Td " + label)
                XCTAssertEqual(Double(try XCTUnwrap(values[.precipitation])[cell]), try CSVTable.number(row, "precip_since_prev_frame_mm"),
                               accuracy: 2e-3, "precipitation " + label)
                XCTAssertEqual(Double(try XCTUnwrap(values[.cloudCover])[cell]), try CSVTable.number(row, "cloud_cover_pct"),
                               accuracy: 2e-3, "cloud " + label)
                XCTAssertEqual(Double(try XCTUnwrap(values[.shortwaveRadiation])[cell]), try CSVTable.number(row, "swdown_Wm2"),
                               accuracy: 2e-3, "SWDOWN " + label)
                checked += 1
            }
        }
        XCTAssertEqual(checked, 15)
    }

    func testEarthRelativeWindAtTheExpectedPoints() throws {
        var checked = 0
        for name in [Fixture.d01, Fixture.d02] {
            let (domain, frames) = try frames(of: name)
            for (frame, cell, row) in try expectedRows(name, westEast: domain.grid.westEast) {
                let label = "\(name) frame \(frame) \(row["note"] ?? "")"
                let u = Double(try XCTUnwrap(frames[frame].values[.windU10m])[cell])
                let v = Double(try XCTUnwrap(frames[frame].values[.windV10m])[cell])
                XCTAssertEqual(u, try CSVTable.number(row, "u10_earth_ms"), accuracy: 2e-4, "u " + label)
                XCTAssertEqual(v, try CSVTable.number(row, "v10_earth_ms"), accuracy: 2e-4, "v " + label)
                XCTAssertEqual((u * u + v * v).squareRoot(), try CSVTable.number(row, "wind_speed_10m_ms"), accuracy: 3e-4, "speed " + label)
                // Direction the wind blows from, 0..360.
                var direction = atan2(-u, -v) * 180 / .pi
                if direction < 0 { direction += 360 }
                XCTAssertEqual(direction, try CSVTable.number(row, "wind_direction_10m_deg"), accuracy: 0.01, "direction " + label)
                checked += 1
            }
        }
        XCTAssertEqual(checked, 15)
    }

    func testNestLandsWhereItsAttributesSay() throws {
        let run = try ModelRun.read(paths: [Fixture.grid(Fixture.d01), Fixture.grid(Fixture.d02)])
        XCTAssertEqual(run.domains.map(\.id), [1, 2])
        XCTAssertFalse(run.warnings.contains { $0.kind == .nestMismatch }, "\(run.warnings)")
        let d01 = run.domains[0], d02 = run.domains[1]
        let nest = try XCTUnwrap(d02.nest)
        XCTAssertEqual([nest.parentID, nest.ratio, nest.iParentStart, nest.jParentStart], [1, 3, 4, 14])
        let check = try XCTUnwrap(d02.nestCheck)
        XCTAssertLessThan(check.offsetCells, 0.01)
        XCTAssertEqual(check.spacingRatio, 3, accuracy: 1e-9)
        // WRF: nest mass point i sits at parent (I_PARENT_START - 1.5) + (i + 0.5) / ratio.
        let table = try CSVTable(path: Fixture.grid("expected_nest.csv"))
        XCTAssertEqual(table.rows.count, 10)
        let d02Path = Fixture.grid(Fixture.d02)
        let lat = try rawField(d02Path, "XLAT"), lon = try rawField(d02Path, "XLONG")
        for row in table.rows {
            let i = try CSVTable.integer(row, "d02_i"), j = try CSVTable.integer(row, "d02_j")
            let fromAttributes = GridPosition(i: Double(4) - 1.5 + (Double(i) + 0.5) / 3, j: Double(14) - 1.5 + (Double(j) + 0.5) / 3)
            XCTAssertEqual(fromAttributes.i, try CSVTable.number(row, "d01_i_from_attributes"), accuracy: 1e-6)
            XCTAssertEqual(fromAttributes.j, try CSVTable.number(row, "d01_j_from_attributes"), accuracy: 1e-6)
            XCTAssertEqual(nest.parentPositionOfOrigin.i + Double(i) / 3, fromAttributes.i, accuracy: 1e-9)
            XCTAssertEqual(nest.parentPositionOfOrigin.j + Double(j) / 3, fromAttributes.j, accuracy: 1e-9)
            let cell = j * d02.grid.westEast + i
            XCTAssertEqual(lat[cell], try CSVTable.number(row, "lat"), accuracy: 1e-5)
            XCTAssertEqual(lon[cell], try CSVTable.number(row, "lon"), accuracy: 1e-5)
            let measured = d01.grid.position(of: GeoPoint(latitude: lat[cell], longitude: lon[cell]))
            XCTAssertEqual(measured.i, try CSVTable.number(row, "d01_i_from_latlon"), accuracy: 1e-4, "d02 (\(i), \(j))")
            XCTAssertEqual(measured.j, try CSVTable.number(row, "d01_j_from_latlon"), accuracy: 1e-4, "d02 (\(i), \(j))")
            XCTAssertEqual(measured.i, fromAttributes.i, accuracy: 0.01)
            XCTAssertEqual(measured.j, fromAttributes.j, accuracy: 0.01)
            // And the nest's own grid puts the point back at its index.
            let own = d02.grid.position(of: GeoPoint(latitude: lat[cell], longitude: lon[cell]))
            XCTAssertEqual(own.i, Double(i), accuracy: 0.001)
            XCTAssertEqual(own.j, Double(j), accuracy: 0.001)
        }
    }

    func testProjectionRoundTripOfTheSampleGridFiles() throws {
        var report: [String] = []
        for (name, latitude, longitude) in [(Fixture.d01, "XLAT", "XLONG"), (Fixture.d02, "XLAT", "XLONG"), (Fixture.mm5, "latitcrs", "longicrs")] {
            let path = Fixture.grid(name)
            let file = try SourceFile(path: path, profile: ModelRun.detectProfile(path))
            XCTAssertEqual(file.coordinates, .fixed, name)
            XCTAssertLessThan(file.projectionRoundTripCells, 0.001, name)
            let own = try ownRoundTrip(file, latitude: latitude, longitude: longitude)
            XCTAssertLessThan(own.cells, 0.001, name)
            XCTAssertLessThan(own.metres, 0.001 * file.projection.dx, name)
            report.append("\(name): \(String(format: "%.6f", own.cells)) cells")
        }
        print("projection round trip, SampleGrids: " + report.joined(separator: "; "))
    }

    func testMM5RunConvertsCentimetreRain() throws {
        let path = Fixture.grid(Fixture.mm5)
        let run = try ModelRun.read(paths: [path])
        XCTAssertEqual(run.profileName, "mm5")
        XCTAssertEqual(run.defaultCycle, nov22(hour: 0))
        let domain = try onlyDomain(run)
        XCTAssertEqual(domain.times, (0..<13).map { nov22(hour: 3 * $0) })
        XCTAssertEqual(domain.grid.westEast, 36)
        XCTAssertEqual(domain.grid.southNorth, 30)
        XCTAssertEqual(domain.spacing, 27_000)
        let frames = try readAllFrames(domain, variables: [.temperature2m, .precipitation, .surfacePressure, .pressureMSL])
        XCTAssertEqual(frames.count, 13)
        let ptop = try XCTUnwrap(try NetCDFFile(path: path).variable("ptop").readDoubles().first)
        func rainCentimetres(_ frame: Int) throws -> [Double] {
            zip(try rawField(path, "rain_con", frame: frame), try rawField(path, "rain_non", frame: frame)).map(+)
        }
        var previous = try rainCentimetres(0)
        var wettest = 0.0
        XCTAssertTrue(try XCTUnwrap(frames[0].values[.precipitation]).allSatisfy { $0 == 0 }, "00Z is the start")
        for (index, frame) in frames.enumerated() {
            let values = frame.values
            let t2 = try rawField(path, "t2", frame: index), pstar = try rawField(path, "pstarcrs", frame: index)
            let slp = try rawField(path, "psealvlc", frame: index)
            for cell in t2.indices {
                XCTAssertEqual(Double(try XCTUnwrap(values[.temperature2m])[cell]), t2[cell] - 273.15, accuracy: 1e-4)
                XCTAssertEqual(Double(try XCTUnwrap(values[.surfacePressure])[cell]), (pstar[cell] + ptop) / 100, accuracy: 1e-3)
                XCTAssertEqual(Double(try XCTUnwrap(values[.pressureMSL])[cell]), slp[cell] / 100, accuracy: 1e-3)
            }
            guard index > 0 else { continue }
            let rain = try rainCentimetres(index)
            let precipitation = try XCTUnwrap(values[.precipitation])
            for cell in rain.indices {
                XCTAssertGreaterThanOrEqual(precipitation[cell], 0)
                XCTAssertEqual(Double(precipitation[cell]), 10 * (rain[cell] - previous[cell]), accuracy: 1e-3, "frame \(index) cell \(cell)")
                wettest = max(wettest, Double(precipitation[cell]))
            }
            previous = rain
        }
        XCTAssertGreaterThan(wettest, 1, "the fixture has rain in mm after conversion")
    }

    func testFolderWithWRFAndMM5GivesTwoRuns() throws {
        let folder = try TemporaryDirectory("wrf-and-mm5")
        for name in [Fixture.d01, Fixture.mm5] {
            try FileManager.default.copyItem(atPath: Fixture.grid(name), toPath: folder.path(name))
        }
        let runs = try ModelRun.readRuns(paths: [folder.url.path])
        XCTAssertEqual(runs.map(\.profileName), ["mm5", "wrf"])
        XCTAssertEqual(runs.map { $0.domains.map(\.files.count) }, [[1], [1]])
        XCTAssertEqual(runs[0].domains[0].files[0].path, folder.path(Fixture.mm5))
        XCTAssertEqual(runs[1].domains[0].files[0].path, folder.path(Fixture.d01))
        XCTAssertThrowsError(try ModelRun.read(paths: [folder.url.path])) { error in
            XCTAssertEqual(error as? IngestError, .mixedModels(models: ["mm5", "wrf"]))
        }
    }

    func testD01AndD02InOneFolderGroupByGridIDNotName() throws {
        // Misnamed on purpose: the d02 file is called d01 and the other way round.
        let folder = try TemporaryDirectory("mixed-domains")
        let d02AsD01 = folder.path(Fixture.d01), d01AsD02 = folder.path(Fixture.d02)
        try FileManager.default.copyItem(atPath: Fixture.grid(Fixture.d02), toPath: d02AsD01)
        try FileManager.default.copyItem(atPath: Fixture.grid(Fixture.d01), toPath: d01AsD02)
        let run = try ModelRun.read(paths: [folder.url.path])
        XCTAssertEqual(run.domains.map(\.id), [1, 2])
        let d01 = run.domains[0], d02 = run.domains[1]
        XCTAssertEqual(d01.files.map(\.path), [d01AsD02])
        XCTAssertEqual(d02.files.map(\.path), [d02AsD01])
        XCTAssertEqual([d01.grid.westEast, d01.grid.southNorth], [43, 68])
        XCTAssertEqual([d02.grid.westEast, d02.grid.southNorth], [66, 66])
        XCTAssertEqual(d02.nest?.parentID, 1)
        XCTAssertLessThan(try XCTUnwrap(d02.nestCheck).offsetCells, 0.01)
        XCTAssertFalse(run.warnings.contains { $0.kind == .nestMismatch }, "\(run.warnings)")
    }
}
