import Catalog
import Extraction
import Foundation
import GridGeometry
import PointQuery
import TestSupport
import XCTest

/// `weather_code` is computed from the row's own interpolated quantities at the place, as
/// Open-Meteo computes it at query time from the hour's series (open-meteo
/// `Sources/App/Helper/Reader/DerivedMapping.swift`, case `.weatherCode`, calling
/// `WeatherCode.calculate` of `Sources/App/Helper/WeatherCode.swift`). On real WRF runs, at
/// seeded places between grid nodes and every half hour (between and on frames), each row's
/// code must equal `Scripts/weather_code_reference.py` (Open-Meteo's rule, written from its
/// source in float32) applied to the same row's cloud cover, precipitation, snowfall, showers,
/// visibility, CAPE, gusts and boundary-layer height as the forecaster answers them. A code
/// taken from the nearest node or the next frame disagrees wherever the place's interpolated
/// cloud cover or precipitation falls in another band.
final class WeatherCodeAtPlaceTests: XCTestCase {
    /// A d01 with CLDFRA, SNOWNC, RAINC/RAINNC/RAINSH, UST and PBLH, 3-hourly frames.
    func testSharedAllVariablesSampleRowsFollowOpenMeteosRule() throws {
        try checkRows(inputs: [Repository.sharedSample("wrf_d01_allvars_cropped.nc")], places: 40, seed: 26)
    }

    /// `Scripts/make_fog_sample.py`'s copy of the allvars sample: its 00Z fog moved into the
    /// dry 06Z frame, so visibility decides rows (fog, 45) between frames and nodes.
    func testFogSampleRowsFollowOpenMeteosRule() throws {
        let directory = try TemporaryDirectory("tilecast-fog-rows")
        let path = directory.path("wrfout_d01_fog.nc")
        let script = Repository.root.appendingPathComponent("Scripts/make_fog_sample.py").path
        let made = try runTool("python3", [script, try Repository.sharedSample("wrf_d01_allvars_cropped.nc"), path])
        XCTAssertEqual(made.status, 0, made.stderr)
        try checkRows(inputs: [path], places: 40, seed: 45, mustInclude: [45])
    }

    /// The SampleGrids run: a 9 km d01 with its 3 km nest (places in both).
    func testSampleGridsRunRowsFollowOpenMeteosRule() throws {
        let wrf = Repository.sampleGridFiles().filter { $0.contains("wrfout_") }
        XCTAssertEqual(wrf.count, 2)
        try checkRows(inputs: wrf, places: 30, seed: 2026)
    }

    /// `Scripts/make_cold_sample.py`'s copy of the SampleGrids d01, 12 K colder at 2 m (issue 46):
    /// its grid-scale rain at or below 0 °C gives the freezing codes by Open-Meteo's rule, and no
    /// row with rain at or below 0 °C carries a drizzle, rain or rain-shower code.
    func testColdSampleRowsFreezeAsOpenMeteosRuleSays() throws {
        let directory = try TemporaryDirectory("tilecast-cold-rows")
        let path = directory.path("wrfout_d01_2026-11-22_00:00:00")
        let script = Repository.root.appendingPathComponent("Scripts/make_cold_sample.py").path
        let source = Repository.sampleGrids.appendingPathComponent("wrfout_d01_2026-11-22_00:00:00").path
        let made = try runTool("python3", [script, source, path])
        XCTAssertEqual(made.status, 0, made.stderr)
        try checkRows(inputs: [path], places: 60, seed: 46, mustInclude: [56])
    }

    // MARK: - The check

    /// The inputs the rule reads, with the reference script's column names.
    private static let inputs: [(column: String, variable: ForecastVariable)] = [
        ("cloud_cover", .cloudCover), ("precipitation", .precipitation), ("snowfall", .snowfall), ("showers", .showers),
        ("visibility", .visibility), ("cape", .cape), ("gusts", .windGusts10m), ("boundary_layer_height", .boundaryLayerHeight),
        ("rain", .rain), ("temperature_2m", .temperature2m),
    ]

    /// Grid positions strictly inside a row of `count` nodes: away from a large grid's edge
    /// cells (a nest's relaxation zone, which its parent answers), anywhere in a small one.
    private static func inside(_ count: Int) -> ClosedRange<Double> {
        let margin = count > 20 ? 5.2 : 0.2
        return margin...(Double(count) - 1 - margin)
    }

    private func checkRows(inputs files: [String], places: Int, seed: UInt64, mustInclude: Set<Float> = []) throws {
        let check = try runTool("python3", ["-c", "import numpy"])
        guard check.status == 0 else { throw XCTSkip("python3 with numpy is needed for the weather code reference") }
        let directory = try TemporaryDirectory("tilecast-weather-code")
        var extractor = Extractor(inputs: files, store: directory.path("store"))
        extractor.model = "wrf"
        _ = try extractor.run()
        let store = try ForecastStore(root: directory.path("store"), model: "wrf")
        let held = Self.inputs.filter { store.availableVariables.contains($0.variable) }
        XCTAssert(held.contains { $0.variable == .cloudCover } && held.contains { $0.variable == .precipitation })
        let request = ForecastRequest(times: [], variables: [.weatherCode] + held.map(\.variable),
                                      units: OutputUnits(windSpeed: .ms))
        var generator = SeededGenerator(seed: seed)
        var rows: [String] = []
        var codes: [Float] = []
        var labels: [String] = []
        for domain in store.domains {
            let frames = domain.metadata.times
            guard let first = frames.first, let last = frames.last else { continue }
            let times = Array(stride(from: first + 1800, through: last, by: 1800))
            for _ in 0..<places {
                let i = Double.random(in: Self.inside(domain.metadata.westEast), using: &generator)
                let j = Double.random(in: Self.inside(domain.metadata.southNorth), using: &generator)
                let point = domain.grid.point(at: GridPosition(i: i, j: j))
                let forecast = try PointForecaster(store: store).forecast(
                    QueryPoint(latitude: point.latitude, longitude: point.longitude, times: times), request: request)
                for (k, time) in times.enumerated() {
                    let cells = held.map { input in
                        String(format: "%.9g", Double(forecast.values[input.variable]?[k] ?? .nan))
                    }
                    rows.append((cells + ["1", String(format: "%.9g", forecast.latitude)]).joined(separator: ","))
                    codes.append(forecast.values[.weatherCode]?[k] ?? .nan)
                    labels.append("\(forecast.provenance.domain) i \(forecast.provenance.gridI) j \(forecast.provenance.gridJ) \(ModelTime.iso(time))")
                }
            }
        }
        let csv = directory.path("rows.csv")
        let header = (held.map(\.column) + ["hours", "latitude"]).joined(separator: ",")
        try ([header] + rows).joined(separator: "\n").write(toFile: csv, atomically: true, encoding: .utf8)
        let script = Repository.root.appendingPathComponent("Scripts/weather_code_reference.py").path
        let result = try runTool("python3", [script, csv])
        XCTAssertEqual(result.status, 0, result.stderr)
        let expected = result.stdout.split(separator: "\n").map { Float(String($0)) ?? -1 }
        XCTAssertEqual(expected.count, codes.count)
        var contradicting: [String] = []
        for (k, (got, want)) in zip(codes, expected).enumerated() where !(got == want || (got.isNaN && want.isNaN)) {
            contradicting.append("\(labels[k]): code \(got), Open-Meteo's rule \(want) from \(rows[k])")
        }
        let known = codes.filter { !$0.isNaN }.count
        let distinct = Set(codes.filter { !$0.isNaN }).sorted()
        print("weather_code: \(contradicting.count) of \(codes.count) rows contradict Open-Meteo's rule on the row's inputs (\(known) known; codes \(distinct))")
        XCTAssertEqual(contradicting.count, 0, contradicting.prefix(10).joined(separator: "\n"))
        XCTAssertGreaterThan(known, codes.count * 3 / 4, "most rows have a window inside the run")
        XCTAssertGreaterThan(distinct.count, 2, "the rows exercise several codes")
        XCTAssertTrue(mustInclude.isSubset(of: Set(distinct)), "\(mustInclude) among \(distinct)")
        // Never "rain" where the run's rain falls at or below 0 °C (issue 46).
        let column = { (name: String) in held.firstIndex { $0.column == name } }
        if let rain = column("rain"), let temperature = column("temperature_2m") {
            let liquid: Set<Float> = [51, 53, 55, 61, 63, 65, 80, 81, 82]
            var frozen = 0
            for (k, row) in rows.enumerated() {
                let cells = row.split(separator: ",").map { Float(String($0)) ?? .nan }
                guard cells[rain] > 0, cells[temperature] <= 0 else { continue }
                frozen += 1
                XCTAssertFalse(liquid.contains(codes[k]), "\(labels[k]): code \(codes[k]) for rain at \(cells[temperature]) °C")
            }
            print("weather_code: \(frozen) rows with rain at or below 0 °C")
        }
    }
}
