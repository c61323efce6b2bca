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
public struct ForecastRenderer: Sendable {
    public enum Format: String, CaseIterable, Sendable { case json, csv, table }

    public let timeZone: TimeZone?
    public let dailyVariables: [DailyVariable]
    /// Labels of the request's times, made once: every place of a request shares them.
    private let commonTimes: [Int64]
    private let commonLabels: [String]

    /// - Parameter times: the request's times, whose labels are made once (optional).
    public init(timeZone: TimeZone?, dailyVariables: [DailyVariable], times: [Int64] = []) {
        self.timeZone = timeZone
        self.dailyVariables = dailyVariables
        commonTimes = times
        commonLabels = times.map { Self.timeText($0, timeZone) }
    }

    /// The labels of a forecast's times.
    func timeLabels(_ times: [Int64]) -> [String] {
        times == commonTimes ? commonLabels : times.map(timeText)
    }

    /// The whole output as one string (for a few answers; `ForecastWriter` streams many).
    public func render(_ answers: [PlaceAnswer], format: Format, single: Bool) -> String {
        var text = ""
        let variables = answers.compactMap { try? $0.result.get() }.first?.variables ?? OutputVariable.defaults
        var writer = ForecastWriter(renderer: self, format: format, single: single, variables: variables,
                                    names: answers.contains { $0.name != nil }) { text += $0 }
        for answer in answers { writer.write(answer) }
        writer.finish()
        return text
    }

    /// Decimals printed per variable: about the stored precision (3 for inches, whose
    /// hundredths are a quarter millimetre: 0.06 mm would print as 0.00).
    static func decimals(_ variable: OutputVariable, _ units: OutputUnits) -> Int {
        switch variable {
        case .precipitation, .snowfall, .rain, .showers: return units.precipitation == .inch ? 3 : 2
        case .et0FaoEvapotranspiration: return units.precipitation == .inch ? 4 : 3
        case .temperature2m, .dewPoint2m, .apparentTemperature, .windSpeed10m, .windU10m, .windV10m, .windGusts10m, .snowDepth, .vapourPressureDeficit,
             .soilTemperature0to10cm, .soilTemperature10to40cm, .soilTemperature40to100cm, .soilTemperature100to200cm: return 2
        case .soilMoisture0to10cm, .soilMoisture10to40cm, .soilMoisture40to100cm, .soilMoisture100to200cm: return 3
        case .relativeHumidity2m, .pressureMSL, .surfacePressure: return 1
        case .cloudCover, .cloudCoverLow, .cloudCoverMid, .cloudCoverHigh, .windDirection10m, .shortwaveRadiation, .weatherCode, .isDay, .directRadiation, .diffuseRadiation, .cape: return 0
        }
    }

    /// A value with a fixed number of decimals, as C's "%.Nf" prints it, without a minus
    /// sign on a value that rounds to zero; nil when not finite.
    package static func number(_ value: Float, _ decimals: Int) -> String? {
        guard value.isFinite else { return nil }
        if let text = fixed(value, decimals) { return text }
        let text = String(format: "%.\(decimals)f", value)
        return text == "-0" || text.hasPrefix("-0.") && Double(text) == 0 ? String(text.dropFirst()) : text
    }

    private static let powers: [Double] = [1, 10, 100, 1000]

    /// "%.Nf" for N <= 3 without Foundation's formatter (half the time of a large query went
    /// there). Exact: a Float has a 24-bit significand and 10^3 < 2^10, so value * 10^N is
    /// exact in a Double's 53 bits, and rounding it half-to-even is what printf does to the
    /// exact binary value. nil (use printf) beyond 2^53 or for other N.
    @inline(__always)
    static func fixed(_ value: Float, _ decimals: Int) -> String? {
        guard decimals >= 0 && decimals <= 3 else { return nil }
        let scaled = (Double(value) * powers[decimals]).rounded(.toNearestOrEven)
        guard abs(scaled) < 9_007_199_254_740_992 else { return nil }
        var units = UInt64(abs(scaled))
        // Digits written backwards into a stack buffer: at most 16 digits, a point, a sign.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { buffer in
            var index = buffer.count
            func put(_ byte: UInt8) { index -= 1; buffer[index] = byte }
            for _ in 0..<decimals { put(48 + UInt8(units % 10)); units /= 10 }
            if decimals > 0 { put(UInt8(ascii: ".")) }
            repeat { put(48 + UInt8(units % 10)); units /= 10 } while units > 0
            if scaled < 0 { put(UInt8(ascii: "-")) }
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[index...]), as: UTF8.self)
        }
    }

    /// A value as printed: nil when missing. A wind direction is in (0, 360] with 0 kept
    /// for calm (see Meteorology's windDirection), so a real wind within half a degree of
    /// north, which rounds to 0, prints as 360.
    package static func formatted(_ value: Float, _ variable: OutputVariable, _ units: OutputUnits) -> String? {
        guard let text = number(value, decimals(variable, units)) else { return nil }
        return variable == .windDirection10m && value > 0 && text == "0" ? "360" : text
    }

    /// A daily value as printed (unquoted), nil when missing: a time of day as a time like
    /// the hourly ones (to the minute), shortwave_radiation_sum in MJ/m² to 0.01, any other
    /// as its hourly variable prints.
    func dailyText(_ value: Float, _ daily: DailyVariable, _ units: OutputUnits, dayStart: Int64) -> String? {
        guard value.isFinite else { return nil }
        if daily.isTimeOfDay { return timeText(dayStart + Int64((Double(value) / 60).rounded()) * 60) }
        if daily.statistic == .sum && daily.variable == .shortwaveRadiation { return Self.number(value, 2) }
        if daily.statistic == .dominant { return Self.formatted(value, .windDirection10m, units) }
        return Self.formatted(value, daily.variable, units)
    }

    /// "2026-11-22T06:00Z", or local time with its offset when a time zone is given.
    func timeText(_ time: Int64) -> String { Self.timeText(time, timeZone) }

    static func timeText(_ time: Int64, _ timeZone: TimeZone?) -> String {
        guard let timeZone else { return ModelTime.isoMinutes(time) }
        let offset = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(time)))
        let local = ModelTime.isoMinutes(time + Int64(offset)).dropLast()
        let sign = offset < 0 ? "-" : "+"
        return "\(local)\(sign)\(String(format: "%02d:%02d", abs(offset) / 3600, abs(offset) % 3600 / 60))"
    }

    // MARK: JSON

    func jsonObject(_ answer: PlaceAnswer) -> String {
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
            var hourly = [("time", "[" + timeLabels(forecast.times).map(quote).joined(separator: ", ") + "]")]
            for variable in forecast.variables {
                units.append((variable.rawValue, quote(forecast.units.symbol(variable))))
                hourly.append((variable.rawValue, Self.jsonArray(forecast.values[variable] ?? [], variable, forecast.units)))
            }
            fields.append(("hourly_units", object(units, indent: 2)))
            fields.append(("hourly", object(hourly, indent: 2)))
            if let daily = answer.daily {
                var dailyUnits = [("time", quote("iso8601"))]
                var values = [("time", "[" + daily.dates.map(quote).joined(separator: ", ") + "]"),
                              ("hours", "[" + daily.hours.map(String.init).joined(separator: ", ") + "]")]
                for variable in dailyVariables {
                    dailyUnits.append((variable.description, quote(variable.unit(forecast.units))))
                    let series = daily.values[variable] ?? []
                    let texts = series.indices.map { d in
                        dailyText(series[d], variable, forecast.units, dayStart: daily.dayStarts[d]).map { variable.isTimeOfDay ? quote($0) : $0 } ?? "null"
                    }
                    values.append((variable.description, "[" + texts.joined(separator: ", ") + "]"))
                }
                fields.append(("daily_units", object(dailyUnits, indent: 2)))
                fields.append(("daily", object(values, indent: 2)))
            }
        }
        return object(fields, indent: 1)
    }

    /// "[1.00, null, 2.50]", appended in place (no array of strings to join).
    static func jsonArray(_ values: [Float], _ variable: OutputVariable, _ units: OutputUnits) -> String {
        var text = "["
        text.reserveCapacity(values.count * 8 + 2)
        for (k, value) in values.enumerated() {
            if k > 0 { text += ", " }
            text += formatted(value, variable, units) ?? "null"
        }
        return text + "]"
    }

    private func object(_ fields: [(String, String)], indent: Int) -> String {
        let pad = String(repeating: "  ", count: indent)
        let close = String(repeating: "  ", count: indent - 1)
        return "{\n" + fields.map { "\(pad)\(quote($0.0)): \($0.1)" }.joined(separator: ",\n") + "\n\(close)}"
    }

    private func quote(_ text: String) -> String { Self.jsonQuoted(text) }

    /// A JSON string literal of `text` (quotes, backslashes and control characters escaped):
    /// the one JSON string writer, used by the renderer and the server.
    package static func jsonQuoted(_ text: String) -> String {
        // Most strings (keys, times, names) need no escaping: skip the per-scalar loop.
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            return "\"" + text + "\""
        }
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

    func csvHeader(_ variables: [OutputVariable], names: Bool) -> String {
        ((names ? ["name"] : []) + ["latitude", "longitude", "time", "model", "cycle", "domain", "grid_i", "grid_j"]
            + variables.map(\.rawValue)).joined(separator: ",")
    }

    /// One row per time of a place; nothing for a failed place (its error goes to stderr).
    /// The place's own fields and its columns are looked up once, not per row.
    func csvRows(_ answer: PlaceAnswer, variables: [OutputVariable], names: Bool) -> [String] {
        guard case .success(let forecast) = answer.result else { return [] }
        let p = forecast.provenance
        let prefix = (names ? Self.csvField(answer.name ?? "") + "," : "") + "\(forecast.latitude),\(forecast.longitude),"
        let middle = "," + Self.csvField(p.model) + "," + Self.csvField(p.cycle) + "," + Self.csvField(p.domain) + ",\(p.gridI),\(p.gridJ)"
        let columns = variables.map { forecast.values[$0] ?? [] }
        let labels = timeLabels(forecast.times)
        return labels.enumerated().map { t, label in
            var row = prefix
            row += label
            row += middle
            for (k, variable) in variables.enumerated() {
                row += ","
                if t < columns[k].count, let text = Self.formatted(columns[k][t], variable, forecast.units) { row += text }
            }
            return row
        }
    }

    /// The daily section's header: as Open-Meteo's CSV, a second table after a blank line.
    func csvDailyHeader(names: Bool) -> String {
        ((names ? ["name"] : []) + ["latitude", "longitude", "date", "model", "cycle", "domain", "hours"]
            + dailyVariables.map(\.description)).joined(separator: ",")
    }

    func csvDailyRows(_ answer: PlaceAnswer, names: Bool) -> [String] {
        guard case .success(let forecast) = answer.result, let daily = answer.daily else { return [] }
        let p = forecast.provenance
        return daily.dates.enumerated().map { d, date in
            var row = names ? [Self.csvField(answer.name ?? "")] : []
            row += ["\(forecast.latitude)", "\(forecast.longitude)", date, Self.csvField(p.model), Self.csvField(p.cycle),
                    Self.csvField(p.domain), "\(daily.hours[d])"]
            row += dailyVariables.map { dailyText(daily.values[$0]?[d] ?? .nan, $0, forecast.units, dayStart: daily.dayStarts[d]) ?? "" }
            return row.joined(separator: ",")
        }
    }

    /// RFC 4180: a field holding a comma, a double quote, CR or LF is quoted, its quotes doubled.
    static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    // MARK: Table

    private static let shortNames: [OutputVariable: String] = [
        .temperature2m: "temp", .relativeHumidity2m: "rh", .dewPoint2m: "dew", .apparentTemperature: "feels",
        .precipitation: "precip", .snowfall: "snow", .weatherCode: "code", .pressureMSL: "msl",
        .surfacePressure: "psfc", .cloudCover: "cloud", .windSpeed10m: "wind", .windDirection10m: "dir",
        .shortwaveRadiation: "sw", .windU10m: "u10", .windV10m: "v10",
    ]

    func tableBlock(_ answer: PlaceAnswer) -> String {
        switch answer.result {
        case .failure(let error):
            return "\(answer.name.map { "\($0): " } ?? "")\(answer.latitude), \(answer.longitude): \(error.description)"
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
                lines.append(row(timeText(time), columns.map { Self.formatted(forecast.values[$0]?[t] ?? .nan, $0, forecast.units) ?? "-" }))
            }
            if let daily = answer.daily, !dailyVariables.isEmpty {
                lines.append("")
                let dailyWidths = dailyVariables.map { max($0.description.count, 8) }
                lines.append("day".padding(toLength: 12, withPad: " ", startingAt: 0) + zip(dailyVariables, dailyWidths).map { String(repeating: " ", count: $1 - $0.description.count) + $0.description }.joined(separator: "  "))
                for (d, date) in daily.dates.enumerated() {
                    let cells = dailyVariables.map { dailyText(daily.values[$0]?[d] ?? .nan, $0, forecast.units, dayStart: daily.dayStarts[d]) ?? "-" }
                    lines.append(date.padding(toLength: 12, withPad: " ", startingAt: 0) + zip(cells, dailyWidths).map { String(repeating: " ", count: max(0, $1 - $0.count)) + $0 }.joined(separator: "  "))
                }
            }
            return lines.joined(separator: "\n")
        }
    }
}

/// How each answer of one request is laid out; `render` is pure, so answers can be rendered
/// on every core and written in order.
package struct AnswerLayout: Sendable {
    package let renderer: ForecastRenderer
    package let format: ForecastRenderer.Format
    /// The CSV columns (every answer of one request has the same variables).
    package let variables: [OutputVariable]
    /// Whether the CSV has a name column.
    package let names: Bool

    package init(renderer: ForecastRenderer, format: ForecastRenderer.Format, variables: [OutputVariable], names: Bool) {
        self.renderer = renderer
        self.format = format
        self.variables = variables
        self.names = names
    }

    /// One answer's text: a JSON object, CSV rows (each after a newline) and daily rows, or
    /// a table block; without the separators between answers, which the writer adds.
    package func render(_ answer: PlaceAnswer) -> RenderedAnswer {
        switch format {
        case .json:
            return RenderedAnswer(body: renderer.jsonObject(answer), dailyRows: [])
        case .csv:
            var body = ""
            for row in renderer.csvRows(answer, variables: variables, names: names) {
                body += "\n"
                body += row
            }
            let daily = renderer.dailyVariables.isEmpty ? [] : renderer.csvDailyRows(answer, names: names)
            return RenderedAnswer(body: body, dailyRows: daily)
        case .table:
            return RenderedAnswer(body: renderer.tableBlock(answer), dailyRows: [])
        }
    }
}

/// One answer as text, ready to be written.
package struct RenderedAnswer: Sendable {
    package var body: String
    /// CSV only: the rows of the daily section, written after every hourly row.
    package var dailyRows: [String]
}

/// Writes answers one place at a time, so the output of many places never has to be held
/// whole: a JSON array written element by element, CSV rows, table blocks. Only the CSV's
/// daily section (printed after every hourly row, as Open-Meteo's CSV does) is kept until
/// `finish`, a few rows per place.
package struct ForecastWriter {
    package let layout: AnswerLayout
    /// One place, printed as a bare JSON object rather than an array.
    let single: Bool
    let sink: (String) -> Void
    private var written = 0
    private var dailyRows: [String] = []

    package init(renderer: ForecastRenderer, format: ForecastRenderer.Format, single: Bool, variables: [OutputVariable],
                names: Bool, sink: @escaping (String) -> Void) {
        layout = AnswerLayout(renderer: renderer, format: format, variables: variables, names: names)
        self.single = single
        self.sink = sink
    }

    package mutating func write(_ answer: PlaceAnswer) { write(layout.render(answer)) }

    /// Writes an answer `layout` rendered (possibly on another thread), with its separator.
    package mutating func write(_ rendered: RenderedAnswer) {
        defer { written += 1 }
        switch layout.format {
        case .json:
            if !single { sink(written == 0 ? "[\n" : ",\n") }
            sink(rendered.body)
        case .csv:
            if written == 0 { sink(layout.renderer.csvHeader(layout.variables, names: layout.names)) }
            sink(rendered.body)
            dailyRows += rendered.dailyRows
        case .table:
            if written > 0 { sink("\n\n") }
            sink(rendered.body)
        }
    }

    /// Closes the output (no final newline, as `render` returns it).
    package mutating func finish() {
        switch layout.format {
        case .json:
            if !single { sink(written == 0 ? "[\n\n]" : "\n]") }
        case .csv:
            if written == 0 { sink(layout.renderer.csvHeader(layout.variables, names: layout.names)) }
            if !layout.renderer.dailyVariables.isEmpty {
                sink("\n\n" + layout.renderer.csvDailyHeader(names: layout.names))
                for row in dailyRows { sink("\n" + row) }
                dailyRows = []
            }
        case .table:
            break
        }
    }
}
