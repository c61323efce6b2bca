import Catalog
import Extraction
import Foundation
import PointQuery
import TestSupport
import XCTest

/// Independent cross-check (issue 5): `Scripts/reference_points.py` computed expected point
/// values with netCDF4 + pyproj + numpy in float64, sharing no code with the engine, and
/// committed them as golden CSVs in `SampleGrids/reference/`. Here each input is extracted
/// into a fresh store and every CSV row is asked of `PointForecaster`; the answer must agree
/// within the stored precision of SPEC section 3, and the grid position it reports within
/// a thousandth of a cell.
final class ReferenceCrossCheckTests: XCTestCase {
    func testSampleGridsD01() throws {
        try crossCheck("sample_d01", input: Repository.sampleGrids.appendingPathComponent("wrfout_d01_2026-11-22_00:00:00").path)
    }

    /// The nest on its own (margin 0: a single-domain store answers to its edge).
    func testSampleGridsD02() throws {
        try crossCheck("sample_d02", input: Repository.sampleGrids.appendingPathComponent("wrfout_d02_2026-11-22_00:00:00").path)
    }

    /// COSALPHA/SINALPHA and XLAT/XLONG without a Time dimension.
    func testSharedAllVariablesSample() throws {
        try crossCheck("wrf_d01_allvars_cropped", input: Repository.sharedSample("wrf_d01_allvars_cropped.nc"))
    }

    /// T2 only; later frames' coordinates disagree in one block, the grid is frame 0's.
    func testSharedCroppedSample() throws {
        try crossCheck("wrf_cropped", input: Repository.sharedSample("wrf_cropped.nc"))
    }

    // MARK: - The check

    /// A CSV column, the variable that answers it, and how far the answer may be from it.
    private struct Column {
        let name: String
        let variable: ForecastVariable
        let tolerance: Double
    }

    /// Stored precision of SPEC section 3: temperature 0.05 K (plus interpolation of
    /// quantised values), RH 0.5 %, pressure 0.1 hPa, wind 0.05 m/s per component and so
    /// about 0.05 * sqrt(2) on the speed.
    private static let columns: [Column] = [
        Column(name: "temperature_2m", variable: .temperature2m, tolerance: 0.05 + 1e-3),
        Column(name: "relative_humidity_2m", variable: .relativeHumidity2m, tolerance: 0.5),
        Column(name: "surface_pressure", variable: .surfacePressure, tolerance: 0.1),
        Column(name: "wind_u_10m", variable: .windU10m, tolerance: 0.05),
        Column(name: "wind_v_10m", variable: .windV10m, tolerance: 0.05),
        Column(name: "wind_speed_10m", variable: .windSpeed10m, tolerance: 0.08),
    ]

    /// Allowed distance between the reported grid position and the reference one, in cells
    /// (the answer reports it rounded to 1e-3, so up to 5e-4 of this is rounding).
    private static let positionTolerance = 1e-3
    /// The same for the unrounded position the forecaster uses (`ForecastStore.choose`): both
    /// sides project in float64 from the same anchor, so they agree far closer (1e-5 cell is
    /// 3 cm at 3 km); the CSV keeps 6 decimals.
    private static let exactPositionTolerance = 1e-5

    private struct Row {
        let line: Int
        let latitude: Double
        let longitude: Double
        let time: Int64
        let i: Double
        let j: Double
        let kind: String
        let expected: [String: Double]
    }

    private func crossCheck(_ name: String, input: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let csvPath = Repository.sampleGrids.appendingPathComponent("reference/\(name).csv").path
        let rows = try Self.readRows(csvPath, input: input)
        XCTAssertGreaterThanOrEqual(rows.count, 200, "\(name).csv: at least 200 rows", file: file, line: line)
        let columns = Self.columns.filter { column in rows.allSatisfy { $0.expected[column.name] != nil } }
        XCTAssertFalse(columns.isEmpty, "\(name).csv: no expected values", file: file, line: line)

        let directory = try TemporaryDirectory("tilecast-reference")
        let storePath = directory.path("store")
        var extractor = Extractor(inputs: [input], store: storePath)
        extractor.model = "wrf"
        _ = try extractor.run()
        let store = try ForecastStore(root: storePath, model: "wrf", nestMargin: 0)
        let forecaster = PointForecaster(store: store)

        var worst: [String: (difference: Double, line: Int)] = [:]
        var worstPosition = (difference: 0.0, line: 0)
        var worstExactPosition = (difference: 0.0, line: 0)
        var failures: [String] = []
        for row in rows {
            let request = ForecastRequest(times: [row.time], variables: columns.map(\.variable),
                                          units: OutputUnits(windSpeed: .ms))
            let answer: PointForecast
            do {
                answer = try forecaster.forecast(QueryPoint(latitude: row.latitude, longitude: row.longitude), request: request)
            } catch {
                failures.append("line \(row.line) (\(row.kind)) \(row.latitude), \(row.longitude) at \(ModelTimeText.iso(row.time)): \(error)")
                continue
            }
            // The position the answer reports (rounded to 1e-3) and the one it used (unrounded).
            let position = max(abs(answer.provenance.gridI - row.i), abs(answer.provenance.gridJ - row.j))
            if let (_, used) = try? store.choose(latitude: row.latitude, longitude: row.longitude, first: row.time, last: row.time) {
                let exact = max(abs(used.i - row.i), abs(used.j - row.j))
                if !(exact <= worstExactPosition.difference) { worstExactPosition = (exact, row.line) }
                if !(exact <= Self.exactPositionTolerance) {
                    failures.append("line \(row.line) (\(row.kind)): unrounded grid position (\(used.i), \(used.j)), reference (\(row.i), \(row.j))")
                }
            }
            if !(position <= worstPosition.difference) { worstPosition = (position, row.line) }
            if !(position <= Self.positionTolerance) {
                failures.append("line \(row.line) (\(row.kind)): grid position (\(answer.provenance.gridI), \(answer.provenance.gridJ)), reference (\(row.i), \(row.j))")
            }
            for column in columns {
                guard let expected = row.expected[column.name] else { continue }
                let got = Double(answer.values[column.variable]?.first ?? .nan)
                let difference = abs(got - expected)
                if !(difference <= (worst[column.name]?.difference ?? 0)) { worst[column.name] = (difference, row.line) }
                if !(difference <= column.tolerance) {
                    failures.append("line \(row.line) (\(row.kind)) \(row.latitude), \(row.longitude) at \(ModelTimeText.iso(row.time)), i \(row.i) j \(row.j): \(column.name) \(got), reference \(expected), difference \(difference) > \(column.tolerance)")
                }
            }
        }

        var report = "reference cross-check \(name) (\(rows.count) rows, \(store.domains.first?.name ?? "?")):"
        report += String(format: " grid position %.2e cell as reported (line %d), %.2e as used (line %d)",
                         worstPosition.difference, worstPosition.line, worstExactPosition.difference, worstExactPosition.line)
        for column in columns {
            let entry = worst[column.name] ?? (0, 0)
            report += "; \(column.name) " + String(format: "%.4f (line %d, allowed %g)", entry.difference, entry.line, column.tolerance)
        }
        print(report)
        for failure in failures.prefix(12) { XCTFail("\(name).csv " + failure, file: file, line: line) }
        if failures.count > 12 { XCTFail("\(name).csv: \(failures.count - 12) more disagreements", file: file, line: line) }
    }

    /// The golden rows, checked to belong to `input`.
    private static func readRows(_ path: String, input: String) throws -> [Row] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let header = lines.first?.split(separator: ",", omittingEmptySubsequences: false).map(String.init) else {
            throw CrossCheckError("\(path): empty")
        }
        func index(_ name: String) throws -> Int {
            guard let k = header.firstIndex(of: name) else { throw CrossCheckError("\(path): no column \(name)") }
            return k
        }
        let fileColumn = try index("file"), kind = try index("kind"), lat = try index("lat"), lon = try index("lon")
        let time = try index("time"), iColumn = try index("i"), jColumn = try index("j")
        let valueColumns = try columns.map { ($0.name, try index($0.name)) }
        let inputName = (input as NSString).lastPathComponent
        var rows: [Row] = []
        for (offset, line) in lines.enumerated().dropFirst() where !line.isEmpty {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            let number = offset + 1
            guard fields.count == header.count else { throw CrossCheckError("\(path) line \(number): \(fields.count) fields, header has \(header.count)") }
            guard fields[fileColumn] == inputName else { throw CrossCheckError("\(path) line \(number): made from \(fields[fileColumn]), not \(inputName)") }
            guard let latitude = Double(fields[lat]), let longitude = Double(fields[lon]),
                  let seconds = parseISO(fields[time]), let i = Double(fields[iColumn]), let j = Double(fields[jColumn]) else {
                throw CrossCheckError("\(path) line \(number): unreadable place, time or position")
            }
            var expected: [String: Double] = [:]
            for (name, k) in valueColumns where !fields[k].isEmpty {
                guard let value = Double(fields[k]) else { throw CrossCheckError("\(path) line \(number): \(name) '\(fields[k])'") }
                expected[name] = value
            }
            rows.append(Row(line: number, latitude: latitude, longitude: longitude, time: seconds, i: i, j: j,
                            kind: fields[kind], expected: expected))
        }
        return rows
    }

    /// "2026-11-22T05:07:18Z" as seconds since 1970 (Foundation's parser, not the engine's).
    private static func parseISO(_ text: String) -> Int64? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        guard let date = formatter.date(from: text) else { return nil }
        return Int64(date.timeIntervalSince1970.rounded())
    }
}

private struct CrossCheckError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Times in failure messages.
private enum ModelTimeText {
    static func iso(_ seconds: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }
}
