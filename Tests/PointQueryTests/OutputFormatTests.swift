import Catalog
import Foundation
import GridGeometry
@testable import PointQuery
import TestSupport
import XCTest

/// What the printed output says (issue 15 items 3 and 5, issue 16 "messages that mislead").
final class OutputFormatTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        // A north wind 0.29 degrees east of north (u = -0.05, v = -10 m/s: both multiples of the
        // stored 0.05 m/s step, so stored exactly); 0.06 mm of rain an hour.
        let domain = SyntheticDomain(id: 1, parent: nil, westEast: 6, southNorth: 6, dx: 9000,
                                     southWestCorner: GeoPoint(latitude: 38.5, longitude: -9.4), times: SyntheticStore.hourly(30),
                                     variables: [.temperature2m, .windU10m, .windV10m, .precipitation]) { variable, _, _, t in
            switch variable {
            case .windU10m: return -0.05
            case .windV10m: return -10
            case .precipitation: return t == 0 ? 0 : 0.06
            default: return Float(t % 24)
            }
        }
        try SyntheticStore.write([domain], to: directory.path("store"), model: "synthetic")
    }

    private func forecast(_ units: OutputUnits = OutputUnits(), hours: Int = 3) throws -> PointForecast {
        let store = try ForecastStore(root: directory.path("store"))
        return try PointForecaster(store: store).forecast(QueryPoint(latitude: 38.55, longitude: -9.35),
            request: ForecastRequest(times: ForecastRequest.hourly(from: SyntheticStore.cycle + 3600, hours: hours), units: units))
    }

    /// 0.29 degrees rounds to 0, which means calm: a real wind prints 360 (north).
    /// Open-Meteo converts every metre-valued variable to feet with `precipitation_unit=inch`
    /// (its SiUnit: metre -> feet, x 3.280839895): snow_depth as visibility (snow_depth stayed in
    /// metres, labelled "m", before). 1 ft = 0.3048 m exactly.
    func testSnowDepthAndVisibilityInFeetWithInches() {
        for variable in [ForecastVariable.snowDepth, .visibility] {
            XCTAssertEqual(OutputUnits(precipitation: .inch).symbol(variable), "ft", variable.rawValue)
            XCTAssertEqual(OutputUnits(precipitation: .mm).symbol(variable), "m", variable.rawValue)
            XCTAssertEqual(Double(OutputUnits(precipitation: .inch).convert(1.2192, variable)), 4, accuracy: 1e-5, variable.rawValue)
            XCTAssertEqual(OutputUnits(precipitation: .mm).convert(1.2192, variable), 1.2192, variable.rawValue)
        }
    }

    func testAWindJustEastOfNorthPrints360NotCalm() throws {
        let forecast = try forecast()
        let direction = try XCTUnwrap(forecast.values[.windDirection10m]?.first)
        XCTAssertEqual(Double(direction), atan2(0.05, 10) * 180 / .pi, accuracy: 1e-3, "independent: atan2(0.05, 10)")
        let renderer = ForecastRenderer(timeZone: nil, dailyVariables: [])
        let answer = PlaceAnswer(latitude: 38.55, longitude: -9.35, result: .success(forecast))
        let json = renderer.render([answer], format: .json, single: true)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        XCTAssertEqual((object["hourly"] as? [String: Any])?["wind_direction_10m"] as? [Double], [360, 360, 360])
        let csv = renderer.render([answer], format: .csv, single: true).split(separator: "\n").map(String.init)
        let column = try XCTUnwrap(csv[0].split(separator: ",").firstIndex(of: "wind_direction_10m"))
        XCTAssertEqual(csv[1].split(separator: ",", omittingEmptySubsequences: false)[column], "360")
        let table = renderer.render([answer], format: .table, single: true)
        XCTAssertFalse(table.split(separator: "\n").dropFirst(4).contains { $0.split(separator: " ").contains("0") }, table)
    }

    /// The JSON and CSV written byte by byte are the layout the string-built renderer wrote
    /// (issue 12 moved it to bytes): checked against a transcription of that layout here,
    /// with a missing value, a name to quote, a failed place and a time zone.
    func testJSONAndCSVBytesAreTheStringLayout() throws {
        let forecast = try forecast(hours: 3)
        // A gap: the second hour's temperature missing (null in JSON, empty in CSV).
        var values = forecast.values
        values[.temperature2m]?[1] = .nan
        let gapped = PointForecast(latitude: forecast.latitude, longitude: forecast.longitude, provenance: forecast.provenance,
                                   elevation: 12.4, modelElevation: forecast.modelElevation, isDownscaled: true,
                                   times: forecast.times, values: values, units: forecast.units,
                                   variables: forecast.variables)
        let answers = [PlaceAnswer(name: "Sintra, \"old\" town", latitude: 38.55, longitude: -9.35, result: .success(gapped)),
                       PlaceAnswer(latitude: 1, longitude: 2, line: 3, result: .failure(.outsideDomains(latitude: 1, longitude: 2, extents: ["d01"])))]
        for zone in [nil, TimeZone(identifier: "Asia/Kathmandu")] {
            let renderer = ForecastRenderer(timeZone: zone, dailyVariables: [], times: forecast.times)
            XCTAssertEqual(renderer.render(answers, format: .json, single: false), Self.referenceJSON(answers, zone: zone))
            XCTAssertEqual(renderer.render(answers, format: .csv, single: false), Self.referenceCSV(answers, zone: zone))
        }
    }

    /// The layout of the string-built renderer, transcribed.
    private static func referenceJSON(_ answers: [PlaceAnswer], zone: TimeZone?) -> String {
        func quote(_ text: String) -> String { ForecastRenderer.jsonQuoted(text) }
        func object(_ fields: [(String, String)], indent: Int) -> String {
            let pad = String(repeating: "  ", count: indent), close = String(repeating: "  ", count: indent - 1)
            return "{\n" + fields.map { "\(pad)\(quote($0.0)): \($0.1)" }.joined(separator: ",\n") + "\n\(close)}"
        }
        let objects = answers.map { answer -> String in
            var fields: [(String, String)] = []
            if let name = answer.name { fields.append(("name", quote(name))) }
            switch answer.result {
            case .failure(let error):
                fields += [("latitude", "\(answer.latitude)"), ("longitude", "\(answer.longitude)")]
                if let line = answer.line { fields.append(("line", "\(line)")) }
                fields += [("error", quote(error.description)), ("exit_code", "\(error.exitCode.rawValue)")]
            case .success(let f):
                let p = f.provenance
                fields += [("latitude", "\(f.latitude)"), ("longitude", "\(f.longitude)"),
                           ("elevation", f.elevation.flatMap { ForecastRenderer.number($0, 0) } ?? "null"),
                           ("elevation_source", quote(f.isDownscaled ? "requested" : "model_terrain"))]
                if f.isDownscaled { fields.append(("model_elevation", f.modelElevation.flatMap { ForecastRenderer.number($0, 0) } ?? "null")) }
                fields += [
                           ("model", quote(p.model)), ("model_title", quote(p.modelTitle)), ("cycle", quote(p.cycle)),
                           ("domain", quote(p.domain)), ("grid_spacing_km", String(format: "%g", p.gridSpacingKilometres)),
                           ("grid_position", "{\"i\": \(p.gridI), \"j\": \(p.gridJ)}")]
                if let zone { fields.append(("timezone", quote(zone.identifier))) }
                var units = [("time", quote("iso8601"))]
                var hourly = [("time", "[" + f.times.map { quote(label($0, zone)) }.joined(separator: ", ") + "]")]
                for variable in f.variables {
                    units.append((variable.rawValue, quote(f.units.symbol(variable))))
                    hourly.append((variable.rawValue, "[" + (f.values[variable] ?? []).map {
                        ForecastRenderer.formatted($0, variable, f.units) ?? "null" }.joined(separator: ", ") + "]"))
                }
                fields += [("hourly_units", object(units, indent: 2)), ("hourly", object(hourly, indent: 2))]
            }
            return object(fields, indent: 1)
        }
        return "[\n" + objects.joined(separator: ",\n") + "\n]"
    }

    private static func referenceCSV(_ answers: [PlaceAnswer], zone: TimeZone?) -> String {
        func field(_ text: String) -> String {
            text.contains(where: { $0 == "," || $0 == "\"" }) ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
        }
        let variables = answers.compactMap { try? $0.result.get() }.first?.variables ?? []
        var lines = [(["name", "latitude", "longitude", "time", "model", "cycle", "domain", "grid_i", "grid_j"] + variables.map(\.rawValue)).joined(separator: ",")]
        for answer in answers {
            guard case .success(let f) = answer.result else { continue }
            let p = f.provenance
            for (t, time) in f.times.enumerated() {
                lines.append(([field(answer.name ?? ""), "\(f.latitude)", "\(f.longitude)", label(time, zone), field(p.model), field(p.cycle),
                               field(p.domain), "\(p.gridI)", "\(p.gridJ)"]
                              + variables.map { ForecastRenderer.formatted(f.values[$0]?[t] ?? .nan, $0, f.units) ?? "" }).joined(separator: ","))
            }
        }
        return lines.joined(separator: "\n")
    }

    /// "2026-11-22T01:00Z", or local time with its offset.
    private static func label(_ time: Int64, _ zone: TimeZone?) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone ?? TimeZone(identifier: "UTC")
        formatter.dateFormat = zone == nil ? "yyyy-MM-dd'T'HH:mm'Z'" : "yyyy-MM-dd'T'HH:mmxxx"
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(time)))
    }

    /// The byte-level helpers of a large query say what the Foundation/Character versions say:
    /// lines of a points file (LF, CR LF, CR, VT, FF, blank lines, a final newline or none),
    /// fields with quotes and spaces, and "%g" of a grid spacing.
    func testByteHelpersMatchTheirStringVersions() {
        for text in ["lat,lon\n1,2\r\n3,4\r5,6\u{0B}7,8\u{0C}\n\n  \t\n", "lat,lon\n1,2", "", "\n", "a\r\n\r\nb\r", "é,lon\n1,2\n"] {
            XCTAssertEqual(PointsFile.splitLines(text), text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline), text.debugDescription)
        }
        for line in [" 38.5 ,\t-9.1 ", "\"Lisbon, PT\",38.7,-9.1", "a,,b,", "\t", ""] {
            let reference = line.split(separator: ",", omittingEmptySubsequences: false).isEmpty ? [""] : PointsFile.splitCharacters(Substring(line))
            XCTAssertEqual(PointsFile.split(Substring(line)), reference, line.debugDescription)
            XCTAssertEqual(PointsFile.isBlank(Substring(line)), line.trimmingCharacters(in: .whitespaces).isEmpty, line.debugDescription)
        }
        for value in [9.0, 3.0, 1.0, 27.0, 0.0, 3.3333333, 0.5, 12_000.0, 123_456.0, -0.0, -3.0, 1e-7] {
            XCTAssertEqual(ForecastRenderer.shortest(value), String(format: "%g", value), "\(value)")
        }
    }

    /// The request's time labels are made once; a place with other times (a points file
    /// row with its own time) still gets its own labels.
    func testTimeLabelsOfOtherTimesAreTheirOwn() throws {
        let forecast = try forecast(hours: 2)
        let answer = PlaceAnswer(latitude: 38.55, longitude: -9.35, result: .success(forecast))
        for times in [forecast.times, [SyntheticStore.cycle + 7200, SyntheticStore.cycle + 10800], []] {
            let csv = ForecastRenderer(timeZone: TimeZone(identifier: "Asia/Kathmandu"), dailyVariables: [], times: times)
                .render([answer], format: .csv, single: true).split(separator: "\n")
            XCTAssertEqual(csv.dropFirst().map { String($0.split(separator: ",")[2]) }, ["2026-11-22T06:45+05:45", "2026-11-22T07:45+05:45"])
        }
    }

    /// 0.06 mm is 0.00236 inch: printed with 3 decimals, not as 0.00.
    func testInchesPrintWithThreeDecimals() throws {
        let forecast = try forecast(OutputUnits(precipitation: .inch))
        let text = ForecastRenderer(timeZone: nil, dailyVariables: []).render(
            [PlaceAnswer(latitude: 38.55, longitude: -9.35, result: .success(forecast))], format: .json, single: true)
        XCTAssertTrue(text.contains("\"precipitation\": [0.002, 0.002, 0.002]"), text)
    }

    /// `--format csv --daily`: the daily summaries follow as a second section (a blank line,
    /// then their own header), as Open-Meteo's CSV does.
    func testCSVWritesTheDailySummariesAsASecondSection() throws {
        let forecast = try forecast(hours: 26)
        let variables = ["temperature_2m_max", "precipitation_sum"].compactMap(DailyVariable.parse)
        let daily = DailyForecast(forecast: forecast, variables: variables, timeZone: try XCTUnwrap(TimeZone(identifier: "UTC")))
        let text = ForecastRenderer(timeZone: nil, dailyVariables: variables).render(
            [PlaceAnswer(name: "here", latitude: 38.55, longitude: -9.35, result: .success(forecast), daily: daily)], format: .csv, single: false)
        let sections = text.components(separatedBy: "\n\n")
        guard sections.count == 2 else { return XCTFail("expected an hourly and a daily section: \(text)") }
        let rows = sections[1].split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        XCTAssertEqual(rows[0], ["name", "latitude", "longitude", "date", "model", "cycle", "domain", "hours", "temperature_2m_max", "precipitation_sum"])
        // 01Z..23Z of the first day (23 hours, max 23 °C); its rain is the 24 intervals ending
        // 01Z..00Z (an amount belongs to the day its interval lies in): 24 x 0.06 mm.
        XCTAssertEqual(rows[1], ["here", "38.55", "-9.35", "2026-11-22", "synthetic", "2026-11-22T00:00Z", "d01", "23", "23.00", "1.44"])
        XCTAssertEqual(rows[2][3], "2026-11-23")
        XCTAssertEqual(rows.count, 3)
    }

    /// RFC 4180: a field with a comma, quote, CR or LF is quoted, quotes doubled.
    func testCSVFieldsAreQuotedPerRFC4180() throws {
        let forecast = try forecast(hours: 1)
        let text = ForecastRenderer(timeZone: nil, dailyVariables: []).render(
            [PlaceAnswer(name: "two\nlines", latitude: 38.55, longitude: -9.35, result: .success(forecast)),
             PlaceAnswer(name: "say \"hi\"", latitude: 38.55, longitude: -9.35, result: .success(forecast)),
             PlaceAnswer(name: "cr\r", latitude: 38.55, longitude: -9.35, result: .success(forecast))], format: .csv, single: false)
        XCTAssertTrue(text.contains("\n\"two\nlines\",38.55,"), text)
        XCTAssertTrue(text.contains("\n\"say \"\"hi\"\"\",38.55,"), text)
        XCTAssertTrue(text.contains("\n\"cr\r\",38.55,"), text)
    }

    /// Numbers print as C's printf("%.Nf") prints them (the reference: libc, through
    /// String(format:)), minus sign dropped on a zero: random floats of every magnitude,
    /// exact ties (0.125, 2.5) and values on either side of them.
    func testNumbersPrintAsPrintfDoes() {
        func reference(_ value: Float, _ decimals: Int) -> String {
            let text = String(format: "%.\(decimals)f", value)
            return text == "-0" || text.hasPrefix("-0.") && Double(text) == 0 ? String(text.dropFirst()) : text
        }
        var generator = SeededGenerator(seed: 42)
        var values: [Float] = [0, -0, 0.125, -0.125, 0.375, 2.5, 3.5, -2.5, 0.0005, 0.0015, 0.005, 0.015, 1e-30, -1e-30,
                               999.9995, 1013.25, 359.5, 359.4999, 0.4999999, 0.5, 1.5, 1e15, 3e38, -3e38, Float.leastNonzeroMagnitude]
        values += values.flatMap { [$0.nextUp, $0.nextDown] }
        for _ in 0..<20_000 {
            let magnitude = Float.random(in: -6...8, using: &generator)
            values.append(Float.random(in: -1...1, using: &generator) * pow(10, magnitude))
            // Multiples of the stored steps, as decoded values are.
            values.append(Float(Int.random(in: -40_000...40_000, using: &generator)) * 0.05)
            values.append(Float(Int.random(in: -40_000...40_000, using: &generator)) * 0.005)
        }
        var mismatches: [String] = []
        for value in values {
            for decimals in 0...3 where ForecastRenderer.number(value, decimals) != reference(value, decimals) {
                mismatches.append("\(value) %.\(decimals)f: \(ForecastRenderer.number(value, decimals) ?? "nil") vs \(reference(value, decimals))")
            }
        }
        XCTAssertEqual(mismatches.count, 0, "\(mismatches.prefix(10))")
        XCTAssertNil(ForecastRenderer.number(.nan, 2))
        XCTAssertNil(ForecastRenderer.number(.infinity, 2))
    }
}
