import Catalog
import Foundation

/// One place's answer, ready to print: the forecast, its daily summary, or why it failed.
package struct PlaceAnswer: Sendable {
    package var name: String?
    package var latitude: Double
    package var longitude: Double
    package var line: Int?
    package var result: Result<PointForecast, QueryError>
    package var daily: DailyForecast?

    package init(name: String? = nil, latitude: Double, longitude: Double, line: Int? = nil,
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
package struct ForecastRenderer: Sendable {
    package enum Format: String, CaseIterable, Sendable { case json, csv, table }

    package let timeZone: TimeZone?
    package let dailyVariables: [DailyVariable]
    /// Labels of the request's times, made once: every place of a request shares them.
    private let commonTimes: [Int64]
    private let commonLabels: [String]
    /// `commonLabels` as a JSON array, made once.
    private let commonLabelsJSON: [UInt8]

    /// - Parameter times: the request's times, whose labels are made once (optional).
    package init(timeZone: TimeZone?, dailyVariables: [DailyVariable], times: [Int64] = []) {
        self.timeZone = timeZone
        self.dailyVariables = dailyVariables
        commonTimes = times
        commonLabels = times.map { Self.timeText($0, timeZone) }
        var labels: [UInt8] = []
        Self.appendJSONStrings(commonLabels, to: &labels)
        commonLabelsJSON = labels
    }

    /// The labels of a forecast's times.
    func timeLabels(_ times: [Int64]) -> [String] {
        times == commonTimes ? commonLabels : times.map(timeText)
    }

    /// The whole output as one string (for a few answers; `ForecastWriter` streams many).
    package func render(_ answers: [PlaceAnswer], format: Format, single: Bool) -> String {
        var text: [UInt8] = []
        let variables = answers.compactMap { try? $0.result.get() }.first?.variables ?? ForecastVariable.defaults
        var writer = ForecastWriter(renderer: self, format: format, single: single, variables: variables,
                                    names: answers.contains { $0.name != nil }) { text += $0 }
        for answer in answers { writer.write(answer) }
        writer.finish()
        return String(decoding: text, as: UTF8.self)
    }

    /// A value with a fixed number of decimals, as C's "%.Nf" prints it, without a minus
    /// sign on a value that rounds to zero; nil when not finite.
    package static func number(_ value: Float, _ decimals: Int) -> String? {
        guard value.isFinite else { return nil }
        if let text = fixed(value, decimals) { return text }
        let text = String(format: "%.\(decimals)f", value)
        return text == "-0" || text.hasPrefix("-0.") && Double(text) == 0 ? String(text.dropFirst()) : text
    }

    @usableFromInline static let powers: [Double] = [1, 10, 100, 1000]

    /// "%.Nf" for N <= 3 without Foundation's formatter (half the time of a large query went
    /// there). Exact: a Float has a 24-bit significand and 10^3 < 2^10, so value * 10^N is
    /// exact in a Double's 53 bits, and rounding it half-to-even is what printf does to the
    /// exact binary value. nil (use printf) beyond 2^53 or for other N.
    @inline(__always)
    static func fixed(_ value: Float, _ decimals: Int) -> String? {
        guard let scaled = fixedScaled(value, decimals) else { return nil }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { buffer in
            let start = writeFixed(scaled, decimals, backwardsInto: buffer)
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[start...]), as: UTF8.self)
        }
    }

    /// value x 10^decimals rounded half-to-even, when `fixed` can print it (see there).
    @inlinable @inline(__always)
    static func fixedScaled(_ value: Float, _ decimals: Int) -> Double? {
        guard decimals >= 0 && decimals <= 3 else { return nil }
        let scaled = (Double(value) * powers[decimals]).rounded(.toNearestOrEven)
        guard abs(scaled) < 9_007_199_254_740_992 else { return nil }
        return scaled
    }

    /// The digits of `fixed` written backwards to the end of `buffer` (24 bytes: at most 16
    /// digits, a point, a sign); returns where they start.
    @inlinable @inline(__always)
    static func writeFixed(_ scaled: Double, _ decimals: Int, backwardsInto buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var units = UInt64(abs(scaled))
        var index = buffer.count
        func put(_ byte: UInt8) { index -= 1; buffer[index] = byte }
        for _ in 0..<decimals { put(48 + UInt8(units % 10)); units /= 10 }
        if decimals > 0 { put(UInt8(ascii: ".")) }
        repeat { put(48 + UInt8(units % 10)); units /= 10 } while units > 0
        if scaled < 0 { put(UInt8(ascii: "-")) }
        return index
    }

    /// Room `writeFormatted` may use: a fixed number is at most 16 digits, a point and a
    /// sign; printf's form of the largest Float with 3 decimals is 44 bytes.
    package static let formattedRoom = 64

    /// Writes `formatted(value, variable, units)`, or `missing` when that is nil, at `target`
    /// (room for `formattedRoom` bytes); returns the bytes written. No string is made on the
    /// common path. `decimals` is `units.decimals(variable)`, looked up by the caller once per
    /// series, not per value; inlined into the loops that write every value of an answer,
    /// the server's too (`@inlinable`: across modules a call was ~15 % of each value's cost).
    @inlinable @inline(__always)
    package static func writeFormatted(_ value: Float, _ variable: ForecastVariable, decimals: Int, _ units: OutputUnits, missing: StaticString,
                               at target: UnsafeMutablePointer<UInt8>) -> Int {
        func copy(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
            let count = min(bytes.count, formattedRoom)
            if let source = bytes.baseAddress { target.update(from: source, count: count) }
            return count
        }
        guard value.isFinite else { return missing.withUTF8Buffer(copy) }
        guard let scaled = fixedScaled(value, decimals) else {
            var text = formatted(value, variable, units) ?? ""
            return text.withUTF8(copy)
        }
        // Wind direction: a real wind that rounds to 0 degrees prints as 360 (see `formatted`).
        // The variable is asked last: the other two tests are a compare each, it is a call.
        if scaled == 0 && value > 0 && variable.isWindDirection { return ("360" as StaticString).withUTF8Buffer(copy) }
        // Backwards into the end of the first 24 bytes, then moved to the front as three words
        // (all loaded before any is stored; the loads may reach past the 24 bytes, never past
        // the room).
        let start = writeFixed(scaled, decimals, backwardsInto: UnsafeMutableBufferPointer(start: target, count: 24))
        let raw = UnsafeMutableRawPointer(target)
        let a = raw.loadUnaligned(fromByteOffset: start, as: UInt64.self)
        let b = raw.loadUnaligned(fromByteOffset: start + 8, as: UInt64.self)
        let c = raw.loadUnaligned(fromByteOffset: start + 16, as: UInt64.self)
        raw.storeBytes(of: a, toByteOffset: 0, as: UInt64.self)
        raw.storeBytes(of: b, toByteOffset: 8, as: UInt64.self)
        raw.storeBytes(of: c, toByteOffset: 16, as: UInt64.self)
        return 24 - start
    }

    @inline(__always)
    static func appendStatic(_ text: StaticString, to out: inout [UInt8]) {
        text.withUTF8Buffer { bytes in for byte in bytes { out.append(byte) } }
    }

    /// A value as printed: nil when missing. A wind direction is in (0, 360] with 0 kept
    /// for calm (see Meteorology's windDirection), so a real wind within half a degree of
    /// north, which rounds to 0, prints as 360.
    package static func formatted(_ value: Float, _ variable: ForecastVariable, _ units: OutputUnits) -> String? {
        guard let text = number(value, units.decimals(variable)) else { return nil }
        return variable.isWindDirection && value > 0 && text == "0" ? "360" : text
    }

    /// A daily value as printed (unquoted), nil when missing: a time of day as a time like
    /// the hourly ones (to the minute), shortwave_radiation_sum in MJ/m² to 0.01, any other
    /// as its hourly variable prints.
    func dailyText(_ value: Float, _ daily: DailyVariable, _ units: OutputUnits, dayStart: Int64) -> String? {
        guard value.isFinite else { return nil }
        if daily.isTimeOfDay { return timeText(dayStart + Int64((Double(value) / 60).rounded()) * 60) }
        if daily.statistic == .sum && daily.variable == .shortwaveRadiation { return Self.number(value, 2) }
        if daily.statistic == .moonPhase { return Self.number(value, 3) }
        if daily.statistic == .dominant { return Self.formatted(value, .windDirection10m, units) }
        return Self.formatted(value, daily.variable, units)
    }

    /// "2026-11-22T06:00Z", or local time with its offset when a time zone is given.
    func timeText(_ time: Int64) -> String { Self.timeText(time, timeZone) }

    /// To the minute, or to the second for a time that has seconds (a points file's).
    static func timeText(_ time: Int64, _ timeZone: TimeZone?) -> String {
        let text = time % 60 == 0 ? ModelTime.isoMinutes : ModelTime.iso
        guard let timeZone else { return text(time) }
        let offset = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(time)))
        let local = text(time + Int64(offset)).dropLast()
        let sign = offset < 0 ? "-" : "+"
        return "\(local)\(sign)\(String(format: "%02d:%02d", abs(offset) / 3600, abs(offset) % 3600 / 60))"
    }

    // MARK: JSON

    func jsonObject(_ answer: PlaceAnswer) -> String {
        var out: [UInt8] = []
        appendJSONObject(answer, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// One answer as a JSON object (the layout `object(_:indent:)` makes: two spaces per
    /// level, one field a line), appended byte by byte: building it from strings spent most
    /// of a large query's time in string appends.
    func appendJSONObject(_ answer: PlaceAnswer, to out: inout [UInt8]) {
        var fields = JSONFields(indent: 1)
        if let name = answer.name { fields.field("name", to: &out); Self.appendQuoted(name, to: &out) }
        switch answer.result {
        case .failure(let error):
            appendJSONFailure(error, of: answer, fields: &fields, to: &out)
        case .success(let forecast):
            appendJSONPlace(forecast, fields: &fields, to: &out)
            appendJSONHourly(forecast, fields: &fields, to: &out)
            if let daily = answer.daily { appendJSONDaily(daily, units: forecast.units, fields: &fields, to: &out) }
        }
        fields.close(to: &out)
    }

    /// A place that got no forecast: where it is, its line in the points file, and why.
    private func appendJSONFailure(_ error: QueryError, of answer: PlaceAnswer, fields: inout JSONFields, to out: inout [UInt8]) {
        fields.field("latitude", to: &out); out.append(contentsOf: "\(answer.latitude)".utf8)
        fields.field("longitude", to: &out); out.append(contentsOf: "\(answer.longitude)".utf8)
        if let line = answer.line { fields.field("line", to: &out); out.append(contentsOf: "\(line)".utf8) }
        fields.field("error", to: &out); Self.appendQuoted(error.description, to: &out)
        fields.field("exit_code", to: &out); out.append(contentsOf: "\(error.exitCode.rawValue)".utf8)
    }

    /// Where the forecast is for and where it came from (model, cycle, domain, grid position).
    private func appendJSONPlace(_ forecast: PointForecast, fields: inout JSONFields, to out: inout [UInt8]) {
        let p = forecast.provenance
        fields.field("latitude", to: &out); out.append(contentsOf: "\(forecast.latitude)".utf8)
        fields.field("longitude", to: &out); out.append(contentsOf: "\(forecast.longitude)".utf8)
        fields.field("elevation", to: &out); out.append(contentsOf: (forecast.elevation.flatMap { Self.number($0, 0) } ?? "null").utf8)
        // Which elevation the values are for: the requested one (moved from the model
        // terrain, which is then given too) or the model terrain's.
        fields.field("elevation_source", to: &out); Self.appendQuoted(forecast.isDownscaled ? "requested" : "model_terrain", to: &out)
        if forecast.isDownscaled {
            fields.field("model_elevation", to: &out); out.append(contentsOf: (forecast.modelElevation.flatMap { Self.number($0, 0) } ?? "null").utf8)
        }
        fields.field("model", to: &out); Self.appendQuoted(p.model, to: &out)
        fields.field("model_title", to: &out); Self.appendQuoted(p.modelTitle, to: &out)
        fields.field("cycle", to: &out); Self.appendQuoted(p.cycle, to: &out)
        fields.field("domain", to: &out); Self.appendQuoted(p.domain, to: &out)
        fields.field("grid_spacing_km", to: &out); out.append(contentsOf: Self.shortest(p.gridSpacingKilometres).utf8)
        fields.field("grid_position", to: &out); out.append(contentsOf: "{\"i\": \(p.gridI), \"j\": \(p.gridJ)}".utf8)
        // A finer answer that read some variables from the domain's fast stream says which.
        if let stream = p.stream {
            fields.field("stream", to: &out); Self.appendQuoted(stream, to: &out)
            fields.field("stream_variables", to: &out)
            out.append(contentsOf: ("[" + (p.streamVariables ?? []).map { "\"\($0)\"" }.joined(separator: ", ") + "]").utf8)
        }
        if let timeZone { fields.field("timezone", to: &out); Self.appendQuoted(timeZone.identifier, to: &out) }
    }

    /// "hourly_units" and "hourly": the times and each variable's values.
    private func appendJSONHourly(_ forecast: PointForecast, fields: inout JSONFields, to out: inout [UInt8]) {
        fields.field("hourly_units", to: &out)
        var units = JSONFields(indent: 2)
        units.field("time", to: &out); Self.appendQuoted("iso8601", to: &out)
        for variable in forecast.variables {
            units.field(variable.rawValue, to: &out); Self.appendQuoted(forecast.units.symbol(variable), to: &out)
        }
        units.close(to: &out)
        fields.field("hourly", to: &out)
        var hourly = JSONFields(indent: 2)
        hourly.field("time", to: &out)
        if forecast.times == commonTimes { out.append(contentsOf: commonLabelsJSON) } else { Self.appendJSONStrings(timeLabels(forecast.times), to: &out) }
        for variable in forecast.variables {
            hourly.field(variable.rawValue, to: &out)
            Self.appendJSONArray(forecast.values[variable] ?? [], variable, forecast.units, to: &out)
        }
        hourly.close(to: &out)
    }

    /// "daily_units" and "daily": the dates, the hours of data behind each, and each summary.
    private func appendJSONDaily(_ daily: DailyForecast, units: OutputUnits, fields: inout JSONFields, to out: inout [UInt8]) {
        fields.field("daily_units", to: &out)
        var dailyUnits = JSONFields(indent: 2)
        dailyUnits.field("time", to: &out); Self.appendQuoted("iso8601", to: &out)
        for variable in dailyVariables {
            dailyUnits.field(variable.description, to: &out); Self.appendQuoted(variable.unit(units), to: &out)
        }
        dailyUnits.close(to: &out)
        fields.field("daily", to: &out)
        var values = JSONFields(indent: 2)
        values.field("time", to: &out); Self.appendJSONStrings(daily.dates, to: &out)
        values.field("hours", to: &out); out.append(contentsOf: ("[" + daily.hours.map(String.init).joined(separator: ", ") + "]").utf8)
        for variable in dailyVariables {
            values.field(variable.description, to: &out)
            // A few values a day: the daily text rules (times of day quoted, sums in
            // their own units) rather than the hourly fast path.
            let series = daily.values[variable] ?? []
            out.append(UInt8(ascii: "["))
            for d in series.indices {
                if d > 0 { out.append(contentsOf: ", ".utf8) }
                if let text = dailyText(series[d], variable, units, dayStart: daily.dayStarts[d]) {
                    if variable.isTimeOfDay { Self.appendQuoted(text, to: &out) } else { out.append(contentsOf: text.utf8) }
                } else {
                    out.append(contentsOf: "null".utf8)
                }
            }
            out.append(UInt8(ascii: "]"))
        }
        values.close(to: &out)
    }

    /// "[1.00, null, 2.50]", appended in place (no array of strings to join).
    static func jsonArray(_ values: [Float], _ variable: ForecastVariable, _ units: OutputUnits) -> String {
        var out: [UInt8] = []
        appendJSONArray(values, variable, units, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    static func appendJSONArray(_ values: [Float], _ variable: ForecastVariable, _ units: OutputUnits, to out: inout [UInt8]) {
        // Written into one buffer, appended once: per-byte appends to the array cost more than
        // the digits.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: values.count * (formattedRoom + 2) + 2) { buffer in
            guard let base = buffer.baseAddress else { return }
            var count = 0
            base[count] = UInt8(ascii: "["); count += 1
            let decimals = units.decimals(variable)
            for (k, value) in values.enumerated() {
                if k > 0 { base[count] = UInt8(ascii: ","); base[count + 1] = UInt8(ascii: " "); count += 2 }
                count += writeFormatted(value, variable, decimals: decimals, units, missing: "null", at: base + count)
            }
            base[count] = UInt8(ascii: "]"); count += 1
            out.append(contentsOf: UnsafeBufferPointer(start: base, count: count))
        }
    }

    /// "%g" of a value: whole numbers (every usual grid spacing in km) without printf.
    static func shortest(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 100_000, value != 0 || value.sign == .plus { return String(Int(value)) }
        return String(format: "%g", value)
    }

    /// `["a", "b"]`.
    static func appendJSONStrings(_ texts: [String], to out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        for (k, text) in texts.enumerated() {
            if k > 0 { appendStatic(", ", to: &out) }
            appendQuoted(text, to: &out)
        }
        out.append(UInt8(ascii: "]"))
    }

    /// `jsonQuoted(text)` appended.
    static func appendQuoted(_ text: String, to out: inout [UInt8]) {
        var text = text
        // Most strings (keys, times, names) need no escaping: their bytes go straight in.
        let plain = text.withUTF8 { bytes -> Bool in
            guard !bytes.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else { return false }
            out.append(UInt8(ascii: "\""))
            out.append(contentsOf: bytes)
            out.append(UInt8(ascii: "\""))
            return true
        }
        if !plain { out.append(contentsOf: jsonQuoted(text).utf8) }
    }

    /// Writes a JSON object's fields one a line, two spaces of indent per level, as
    /// `{\n  "a": 1,\n  "b": 2\n}`: the field's key here, its value by the caller.
    struct JSONFields {
        let indent: Int
        private var count = 0

        init(indent: Int) { self.indent = indent }

        mutating func field(_ key: String, to out: inout [UInt8]) {
            ForecastRenderer.appendStatic(count == 0 ? "{\n" : ",\n", to: &out)
            for _ in 0..<indent { ForecastRenderer.appendStatic("  ", to: &out) }
            ForecastRenderer.appendQuoted(key, to: &out)
            ForecastRenderer.appendStatic(": ", to: &out)
            count += 1
        }

        func close(to out: inout [UInt8]) {
            if count == 0 { ForecastRenderer.appendStatic("{\n", to: &out) }
            ForecastRenderer.appendStatic("\n", to: &out)
            for _ in 0..<max(indent - 1, 0) { ForecastRenderer.appendStatic("  ", to: &out) }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// A JSON string literal of `text` (quotes, backslashes and control characters escaped):
    /// the one JSON string writer, used by the renderer and the server.
    package static func jsonQuoted(_ text: String) -> String {
        // Most strings (keys, times, names) need no escaping: skip the per-scalar loop.
        if !needsJSONEscaping(text) { return "\"" + text + "\"" }
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

    /// Whether `text` holds a byte JSON must escape inside quotes (a control byte, `"` or `\`).
    package static func needsJSONEscaping(_ text: String) -> Bool {
        text.utf8.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
    }

    // MARK: CSV

    func csvHeader(_ variables: [ForecastVariable], names: Bool) -> String {
        ((names ? ["name"] : []) + ["latitude", "longitude", "time", "model", "cycle", "domain", "grid_i", "grid_j"]
            + variables.map(\.rawValue)).joined(separator: ",")
    }

    /// One row per time of a place, each after a newline; nothing for a failed place (its
    /// error goes to stderr). The place's own fields are made once, not per row, and the
    /// rows are appended byte by byte.
    func appendCSVRows(_ answer: PlaceAnswer, variables: [ForecastVariable], names: Bool, to out: inout [UInt8]) {
        guard case .success(let forecast) = answer.result else { return }
        let p = forecast.provenance
        let prefix = Array(((names ? Self.csvField(answer.name ?? "") + "," : "") + "\(forecast.latitude),\(forecast.longitude),").utf8)
        let middle = Array(("," + Self.csvField(p.model) + "," + Self.csvField(p.cycle) + "," + Self.csvField(p.domain) + ",\(p.gridI),\(p.gridJ)").utf8)
        let columns = variables.map { forecast.values[$0] ?? [] }
        let decimals = variables.map(forecast.units.decimals)
        let labels = timeLabels(forecast.times)
        let room = 1 + prefix.count + 64 + middle.count + variables.count * (Self.formattedRoom + 1)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: room) { buffer in
            guard let base = buffer.baseAddress else { return }
            func put(_ bytes: [UInt8], at count: inout Int) {
                bytes.withUnsafeBufferPointer { source in
                    if let from = source.baseAddress { (base + count).update(from: from, count: source.count) }
                }
                count += bytes.count
            }
            for (t, label) in labels.enumerated() {
                var count = 0
                base[count] = UInt8(ascii: "\n"); count += 1
                put(prefix, at: &count)
                out.append(contentsOf: UnsafeBufferPointer(start: base, count: count))
                out.append(contentsOf: label.utf8)
                count = 0
                put(middle, at: &count)
                for (k, variable) in variables.enumerated() {
                    base[count] = UInt8(ascii: ","); count += 1
                    if t < columns[k].count {
                        count += Self.writeFormatted(columns[k][t], variable, decimals: decimals[k], forecast.units, missing: "", at: base + count)
                    }
                }
                out.append(contentsOf: UnsafeBufferPointer(start: base, count: count))
            }
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
        // U+2028/U+2029 quoted too: some readers (JavaScript, Python's splitlines) end lines there.
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" || $0 == "\u{2028}" || $0 == "\u{2029}" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    // MARK: Table

    func tableBlock(_ answer: PlaceAnswer) -> String {
        switch answer.result {
        case .failure(let error):
            return "\(answer.name.map { "\($0): " } ?? "")\(answer.latitude), \(answer.longitude): \(error.description)"
        case .success(let forecast):
            let p = forecast.provenance
            var lines: [String] = []
            let place = (answer.name.map { "\($0)  " } ?? "") + "\(forecast.latitude), \(forecast.longitude)"
            let terrain = forecast.isDownscaled ? " (requested; model terrain \(forecast.modelElevation.flatMap { Self.number($0, 0) } ?? "-") m)" : " (model terrain)"
            lines.append("\(place)  elevation \(forecast.elevation.flatMap { Self.number($0, 0) } ?? "-") m" + terrain)
            lines.append("\(p.model) cycle \(p.cycle), \(p.domain) (\(String(format: "%g", p.gridSpacingKilometres)) km), grid position i=\(p.gridI) j=\(p.gridJ)")
            let columns = forecast.variables
            let timeHeader = "time" + (timeZone.map { " (\($0.identifier))" } ?? " (UTC)")
            let widths = columns.map { max(($0.spec.shortName ?? $0.rawValue).count, forecast.units.symbol($0).count, 6) }
            let timeWidth = max(timeHeader.count, 22) + 2
            func row(_ first: String, _ cells: [String]) -> String {
                first.padding(toLength: timeWidth, withPad: " ", startingAt: 0)
                    + zip(cells, widths).map { String(repeating: " ", count: max(0, $1 - $0.count)) + $0 }.joined(separator: "  ")
            }
            lines.append(row(timeHeader, columns.map { $0.spec.shortName ?? $0.rawValue }))
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
    package let variables: [ForecastVariable]
    /// Whether the CSV has a name column.
    package let names: Bool

    package init(renderer: ForecastRenderer, format: ForecastRenderer.Format, variables: [ForecastVariable], names: Bool) {
        self.renderer = renderer
        self.format = format
        self.variables = variables
        self.names = names
    }

    /// One answer's text: a JSON object, CSV rows (each after a newline) and daily rows, or
    /// a table block; without the separators between answers, which the writer adds.
    package func render(_ answer: PlaceAnswer) -> RenderedAnswer {
        var bytes: [UInt8] = []
        switch format {
        case .json:
            bytes.reserveCapacity(4096)
            renderer.appendJSONObject(answer, to: &bytes)
            return RenderedAnswer(bytes: bytes, dailyRows: [])
        case .csv:
            bytes.reserveCapacity(4096)
            renderer.appendCSVRows(answer, variables: variables, names: names, to: &bytes)
            let daily = renderer.dailyVariables.isEmpty ? [] : renderer.csvDailyRows(answer, names: names)
            return RenderedAnswer(bytes: bytes, dailyRows: daily)
        case .table:
            return RenderedAnswer(bytes: Array(renderer.tableBlock(answer).utf8), dailyRows: [])
        }
    }
}

/// One answer as text, ready to be written.
package struct RenderedAnswer: Sendable {
    /// The answer's text, UTF-8.
    package var bytes: [UInt8]
    package var body: String { String(decoding: bytes, as: UTF8.self) }
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
    /// Where the text goes, UTF-8, piece by piece.
    let sink: ([UInt8]) -> Void
    private var written = 0
    private var dailyRows: [String] = []

    package init(renderer: ForecastRenderer, format: ForecastRenderer.Format, single: Bool, variables: [ForecastVariable],
                names: Bool, sink: @escaping ([UInt8]) -> Void) {
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
            if !single { emit(written == 0 ? "[\n" : ",\n") }
            sink(rendered.bytes)
        case .csv:
            if written == 0 { emit(layout.renderer.csvHeader(layout.variables, names: layout.names)) }
            sink(rendered.bytes)
            dailyRows += rendered.dailyRows
        case .table:
            if written > 0 { emit("\n\n") }
            sink(rendered.bytes)
        }
    }

    /// Closes the output (no final newline, as `render` returns it).
    package mutating func finish() {
        switch layout.format {
        case .json:
            if !single { emit(written == 0 ? "[\n\n]" : "\n]") }
        case .csv:
            if written == 0 { emit(layout.renderer.csvHeader(layout.variables, names: layout.names)) }
            if !layout.renderer.dailyVariables.isEmpty {
                emit("\n\n" + layout.renderer.csvDailyHeader(names: layout.names))
                for row in dailyRows { emit("\n" + row) }
                dailyRows = []
            }
        case .table:
            break
        }
    }

    private func emit(_ text: String) { sink(Array(text.utf8)) }
}
