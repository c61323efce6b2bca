import Catalog
import Foundation

/// One place's answer, ready to print: the forecast, its daily summary, or why it failed.
public struct PlaceAnswer: Sendable {
    public var name: String?
    public var latitude: Double
    public var longitude: Double
    public var line: Int?
    public var result: Result<PointForecast, QueryError>
    public var daily: DailyForecast?

    public init(name: String? = nil, latitude: Double, longitude: Double, line: Int? = nil,
                result: Result<PointForecast, QueryError>, daily: DailyForecast? = nil) {
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
        self.line = line
        self.result = result
        self.daily = daily
    }
}

/// Prints answers as JSON, CSV or a readable table. Missing values print as null (JSON) or
/// an empty field (CSV) or "-" (table), never as a made-up number.
public struct ForecastRenderer {
    public enum Format: String, CaseIterable, Sendable { case json, csv, table }

    public let timeZone: TimeZone?
    public let dailyVariables: [DailyVariable]

    public init(timeZone: TimeZone?, dailyVariables: [DailyVariable]) {
        self.timeZone = timeZone
        self.dailyVariables = dailyVariables
    }

    public func render(_ answers: [PlaceAnswer], format: Format, single: Bool) -> String {
        switch format {
        case .json: return json(answers, single: single)
        case .csv: return csv(answers)
        case .table: return table(answers)
        }
    }

    /// Decimals printed per variable: about the stored precision.
    static func decimals(_ variable: OutputVariable) -> Int {
        switch variable {
        case .temperature2m, .dewPoint2m, .apparentTemperature, .precipitation, .snowfall, .windSpeed10m, .windU10m, .windV10m: return 2
        case .relativeHumidity2m, .pressureMSL, .surfacePressure: return 1
        case .cloudCover, .windDirection10m, .shortwaveRadiation, .weatherCode: return 0
        }
    }

    static func number(_ value: Float, _ decimals: Int) -> String? {
        guard value.isFinite else { return nil }
        let text = String(format: "%.\(decimals)f", value)
        return text == "-0" || text.hasPrefix("-0.") && Double(text) == 0 ? String(text.dropFirst()) : text
    }

    /// "2026-11-22T06:00Z", or local time with its offset when a time zone is given.
    func timeText(_ time: Int64) -> String {
        guard let timeZone else { return ModelTime.isoMinutes(time) }
        let offset = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(time)))
        let local = ModelTime.isoMinutes(time + Int64(offset)).dropLast()
        let sign = offset < 0 ? "-" : "+"
        return "\(local)\(sign)\(String(format: "%02d:%02d", abs(offset) / 3600, abs(offset) % 3600 / 60))"
    }

    // MARK: JSON

    private func json(_ answers: [PlaceAnswer], single: Bool) -> String {
        let objects = answers.map(jsonObject)
        return single && objects.count == 1 ? objects[0] : "[\n" + objects.joined(separator: ",\n") + "\n]"
    }

    private func jsonObject(_ answer: PlaceAnswer) -> String {
        var fields: [(String, String)] = []
        if let name = answer.name { fields.append(("name", quote(name))) }
        switch answer.result {
        case .failure(let error):
            fields += [("latitude", "\(answer.latitude)"), ("longitude", "\(answer.longitude)")]
            if let line = answer.line { fields.append(("line", "\(line)")) }
            fields.append(("error", quote(error.description)))
            fields.append(("exit_code", "\(error.exitCode)"))
        case .success(let forecast):
            let p = forecast.provenance
            fields += [("latitude", "\(forecast.latitude)"), ("longitude", "\(forecast.longitude)"),
                       ("elevation", forecast.elevation.flatMap { Self.number($0, 0) } ?? "null"),
                       ("model", quote(p.model)), ("model_title", quote(p.modelTitle)), ("cycle", quote(p.cycle)),
                       ("domain", quote(p.domain)), ("grid_spacing_km", String(format: "%g", p.gridSpacingKilometres)),
                       ("grid_position", "{\"i\": \(p.gridI), \"j\": \(p.gridJ)}")]
            if let timeZone { fields.append(("timezone", quote(timeZone.identifier))) }
            var units = [("time", quote("iso8601"))]
            var hourly = [("time", "[" + forecast.times.map { quote(timeText($0)) }.joined(separator: ", ") + "]")]
            for variable in forecast.variables {
                units.append((variable.rawValue, quote(forecast.units.symbol(variable))))
                let values = forecast.values[variable] ?? []
                hourly.append((variable.rawValue, "[" + values.map { Self.number($0, Self.decimals(variable)) ?? "null" }.joined(separator: ", ") + "]"))
            }
            fields.append(("hourly_units", object(units, indent: 2)))
            fields.append(("hourly", object(hourly, indent: 2)))
            if let daily = answer.daily {
                var dailyUnits = [("time", quote("iso8601"))]
                var values = [("time", "[" + daily.dates.map(quote).joined(separator: ", ") + "]"),
                              ("hours", "[" + daily.hours.map(String.init).joined(separator: ", ") + "]")]
                for variable in dailyVariables {
                    dailyUnits.append((variable.description, quote(forecast.units.symbol(variable.variable))))
                    values.append((variable.description, "[" + (daily.values[variable] ?? []).map { Self.number($0, Self.decimals(variable.variable)) ?? "null" }.joined(separator: ", ") + "]"))
                }
                fields.append(("daily_units", object(dailyUnits, indent: 2)))
                fields.append(("daily", object(values, indent: 2)))
            }
        }
        return object(fields, indent: 1)
    }

    private func object(_ fields: [(String, String)], indent: Int) -> String {
        let pad = String(repeating: "  ", count: indent)
        let close = String(repeating: "  ", count: indent - 1)
        return "{\n" + fields.map { "\(pad)\(quote($0.0)): \($0.1)" }.joined(separator: ",\n") + "\n\(close)}"
    }

    private func quote(_ text: String) -> String {
        var escaped = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\t": escaped += "\\t"
            default:
                if scalar.value < 0x20 { escaped += String(format: "\\u%04x", scalar.value) } else { escaped.unicodeScalars.append(scalar) }
            }
        }
        return escaped + "\""
    }

    // MARK: CSV

    private func csv(_ answers: [PlaceAnswer]) -> String {
        let variables = answers.compactMap { try? $0.result.get() }.first?.variables ?? OutputVariable.defaults
        let hasNames = answers.contains { $0.name != nil }
        var header = (hasNames ? ["name"] : []) + ["latitude", "longitude", "time", "model", "cycle", "domain", "grid_i", "grid_j"]
        header += variables.map(\.rawValue)
        var rows = [header.joined(separator: ",")]
        for answer in answers {
            guard case .success(let forecast) = answer.result else { continue }
            let p = forecast.provenance
            for (t, time) in forecast.times.enumerated() {
                var row = hasNames ? [csvField(answer.name ?? "")] : []
                row += ["\(forecast.latitude)", "\(forecast.longitude)", timeText(time), csvField(p.model), p.cycle, p.domain, "\(p.gridI)", "\(p.gridJ)"]
                row += variables.map { Self.number(forecast.values[$0]?[t] ?? .nan, Self.decimals($0)) ?? "" }
                rows.append(row.joined(separator: ","))
            }
        }
        return rows.joined(separator: "\n")
    }

    private func csvField(_ text: String) -> String {
        text.contains(",") || text.contains("\"") ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
    }

    // MARK: Table

    private static let shortNames: [OutputVariable: String] = [
        .temperature2m: "temp", .relativeHumidity2m: "rh", .dewPoint2m: "dew", .apparentTemperature: "feels",
        .precipitation: "precip", .snowfall: "snow", .weatherCode: "code", .pressureMSL: "msl",
        .surfacePressure: "psfc", .cloudCover: "cloud", .windSpeed10m: "wind", .windDirection10m: "dir",
        .shortwaveRadiation: "sw", .windU10m: "u10", .windV10m: "v10",
    ]

    private func table(_ answers: [PlaceAnswer]) -> String {
        var blocks: [String] = []
        for answer in answers {
            switch answer.result {
            case .failure(let error):
                blocks.append("\(answer.name.map { "\($0): " } ?? "")\(answer.latitude), \(answer.longitude): \(error.description)")
            case .success(let forecast):
                let p = forecast.provenance
                var lines: [String] = []
                let place = (answer.name.map { "\($0)  " } ?? "") + "\(forecast.latitude), \(forecast.longitude)"
                lines.append("\(place)  elevation \(forecast.elevation.flatMap { Self.number($0, 0) } ?? "-") m")
                lines.append("\(p.model) cycle \(p.cycle), \(p.domain) (\(String(format: "%g", p.gridSpacingKilometres)) km), grid position i=\(p.gridI) j=\(p.gridJ)")
                let columns = forecast.variables
                let timeHeader = "time" + (timeZone.map { " (\($0.identifier))" } ?? " (UTC)")
                let widths = columns.map { max((Self.shortNames[$0] ?? $0.rawValue).count, forecast.units.symbol($0).count, 6) }
                let timeWidth = max(timeHeader.count, 22) + 2
                func row(_ first: String, _ cells: [String]) -> String {
                    first.padding(toLength: timeWidth, withPad: " ", startingAt: 0)
                        + zip(cells, widths).map { String(repeating: " ", count: max(0, $1 - $0.count)) + $0 }.joined(separator: "  ")
                }
                lines.append(row(timeHeader, columns.map { Self.shortNames[$0] ?? $0.rawValue }))
                lines.append(row("", columns.map { forecast.units.symbol($0) }))
                for (t, time) in forecast.times.enumerated() {
                    lines.append(row(timeText(time), columns.map { Self.number(forecast.values[$0]?[t] ?? .nan, Self.decimals($0)) ?? "-" }))
                }
                if let daily = answer.daily, !dailyVariables.isEmpty {
                    lines.append("")
                    let dailyWidths = dailyVariables.map { max($0.description.count, 8) }
                    lines.append("day".padding(toLength: 12, withPad: " ", startingAt: 0) + zip(dailyVariables, dailyWidths).map { String(repeating: " ", count: $1 - $0.description.count) + $0.description }.joined(separator: "  "))
                    for (d, date) in daily.dates.enumerated() {
                        let cells = dailyVariables.map { Self.number(daily.values[$0]?[d] ?? .nan, Self.decimals($0.variable)) ?? "-" }
                        lines.append(date.padding(toLength: 12, withPad: " ", startingAt: 0) + zip(cells, dailyWidths).map { String(repeating: " ", count: max(0, $1 - $0.count)) + $0 }.joined(separator: "  "))
                    }
                }
                blocks.append(lines.joined(separator: "\n"))
            }
        }
        return blocks.joined(separator: "\n\n")
    }
}
