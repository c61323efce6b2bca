import Catalog
import Foundation
import PointQuery

/// A centre's warning rules (`serve --warnings FILE`, docs/WARNINGS.md): each names a quantity,
/// a window and a threshold, and the level of the warning it gives when the forecast passes it.
package struct WarningRule: Sendable, Equatable {
    /// How a window's hourly values are combined.
    package enum Statistic: String, Sendable, CaseIterable {
        /// The total of an amount over the window (precipitation, snowfall): passes at or above.
        case sum
        /// The largest value in the window: passes at or above the threshold.
        case max
        /// The smallest value in the window: passes at or below the threshold (frost, cold).
        case min
    }

    /// Meteoalarm's awareness levels, in order of severity.
    package enum Level: String, Sendable, CaseIterable, Comparable {
        case yellow, orange, red

        package static func < (a: Level, b: Level) -> Bool {
            allCases.firstIndex(of: a) ?? 0 < allCases.firstIndex(of: b) ?? 0
        }
    }

    /// What the warning is called ("Heavy rain").
    package let event: String
    package let level: Level
    /// An hourly variable of `/v1/forecast`, in its default units (°C, km/h, mm, cm, %).
    package let quantity: ForecastVariable
    package let statistic: Statistic
    /// The window's length: 1, 3, 6, 12 or 24 hours.
    package let hours: Int
    package let threshold: Double
    /// When set (percent): the rule fires where at least this share of the lagged members
    /// (`LaggedMembers`) each pass the threshold, rather than where the forecast does.
    package let probability: Double?
    /// The line of the file the rule starts on, for messages.
    package let line: Int

    /// Whether a window's value passes the threshold.
    package func passes(_ value: Double) -> Bool {
        guard value.isFinite else { return false }
        return statistic == .min ? value <= threshold : value >= threshold
    }

    package static let windows: Set<Int> = [1, 3, 6, 12, 24]
}

/// Why a rules file cannot be used: its path, the line at fault and what is wrong there.
package struct WarningRulesError: Error, CustomStringConvertible, Sendable {
    package let path: String
    package let line: Int?
    package let reason: String

    package var description: String { "\(path)\(line.map { ", line \($0)" } ?? ""): \(reason)" }
}

/// A rules file, read and checked whole: one bad rule refuses the file, since a warning
/// silently left out is worse than a server that says at start what to fix.
package struct WarningRules: Sendable {
    package let rules: [WarningRule]
    /// Where the thresholds come from, as the file says (`"source"`): shown with each warning.
    package let source: String
    package let path: String

    /// The keys a rule may have; any other is refused (a misspelt `probabilty` would
    /// otherwise make a probabilistic rule fire deterministically).
    static let ruleKeys: Set<String> = ["event", "level", "quantity", "statistic", "hours", "threshold", "probability"]

    package static func read(path: String) throws(WarningRulesError) -> WarningRules {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw WarningRulesError(path: path, line: nil, reason: "cannot be read (no such file, or not readable)")
        }
        return try parse(data, path: path)
    }

    package static func parse(_ data: Data, path: String) throws(WarningRulesError) -> WarningRules {
        let text = String(decoding: data, as: UTF8.self)
        let object: Any
        do { object = try JSONSerialization.jsonObject(with: data) } catch {
            throw WarningRulesError(path: path, line: Self.syntaxErrorLine(error, text: text), reason: "not valid JSON: \(Self.brief(error))")
        }
        guard let top = object as? [String: Any] else {
            throw WarningRulesError(path: path, line: 1, reason: "expected an object with \"source\" and \"rules\"")
        }
        if let unknown = top.keys.first(where: { !["source", "rules"].contains($0) }) {
            throw WarningRulesError(path: path, line: Self.line(of: "\"\(unknown)\"", in: text), reason: "unknown key \"\(unknown)\" (known: source, rules)")
        }
        guard let source = top["source"] as? String, !source.isEmpty else {
            throw WarningRulesError(path: path, line: 1, reason: "\"source\" must name where the thresholds come from")
        }
        guard let list = top["rules"] as? [Any], !list.isEmpty else {
            throw WarningRulesError(path: path, line: Self.line(of: "\"rules\"", in: text), reason: "\"rules\" must be a list of at least one rule")
        }
        let lines = Self.ruleLines(text)
        var rules: [WarningRule] = []
        for (k, entry) in list.enumerated() {
            let line = k < lines.count ? lines[k] : nil
            rules.append(try rule(entry, line: line, path: path))
        }
        return WarningRules(rules: rules, source: source, path: path)
    }

    private static func rule(_ entry: Any, line: Int?, path: String) throws(WarningRulesError) -> WarningRule {
        func fail(_ reason: String) -> WarningRulesError { WarningRulesError(path: path, line: line, reason: reason) }
        guard let fields = entry as? [String: Any] else { throw fail("a rule must be an object") }
        if let unknown = fields.keys.sorted().first(where: { !ruleKeys.contains($0) }) {
            throw fail("unknown key \"\(unknown)\" (known: \(ruleKeys.sorted().joined(separator: ", ")))")
        }
        guard let event = fields["event"] as? String, !event.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw fail("\"event\" must name the warning, e.g. \"Heavy rain\"")
        }
        guard let levelName = fields["level"] as? String, let level = WarningRule.Level(rawValue: levelName) else {
            throw fail("\"level\" must be yellow, orange or red")
        }
        guard let name = fields["quantity"] as? String, let quantity = ForecastVariable.output(named: name), quantity != .weatherCode else {
            throw fail("\"quantity\" must be an hourly variable of /v1/forecast, e.g. precipitation, wind_gusts_10m, temperature_2m (got \(fields["quantity"].map { "\($0)" } ?? "nothing"))")
        }
        guard let statisticName = fields["statistic"] as? String, let statistic = WarningRule.Statistic(rawValue: statisticName) else {
            throw fail("\"statistic\" must be sum, max or min")
        }
        if statistic == .sum && !quantity.isAccumulation {
            throw fail("\"sum\" is for amounts (precipitation, rain, showers, snowfall, ...); \(name) is a value at a time: use max or min")
        }
        guard let hours = number(fields["hours"]).flatMap({ Int(exactly: $0) }), WarningRule.windows.contains(hours) else {
            throw fail("\"hours\" must be one of \(WarningRule.windows.sorted().map(String.init).joined(separator: ", "))")
        }
        guard let threshold = number(fields["threshold"]), threshold.isFinite else {
            throw fail("\"threshold\" must be a number, in /v1/forecast's default unit of \(name) (\(quantity.unit))")
        }
        var probability: Double?
        if let value = fields["probability"] {
            guard let percent = number(value), percent > 0, percent <= 100 else {
                throw fail("\"probability\" must be a percentage, more than 0 and at most 100")
            }
            probability = percent
        }
        return WarningRule(event: event, level: level, quantity: quantity, statistic: statistic, hours: hours, threshold: threshold,
                           probability: probability, line: line ?? 0)
    }

    /// A JSON number's value; nil for anything else, `true` and `false` included (Foundation
    /// gives them as NSNumber too, and on Linux `1 is Bool` holds, so the type is told by the
    /// number's own encoding: "c" for a boolean).
    private static func number(_ value: Any?) -> Double? {
        guard let number = value as? NSNumber, String(cString: number.objCType) != "c" else { return nil }
        return number.doubleValue
    }

    /// The line each rule object starts on: the objects opened inside the top object's array
    /// (depth 2), in order, strings skipped.
    static func ruleLines(_ text: String) -> [Int] {
        var lines: [Int] = [], line = 1, depth = 0, inString = false, escaped = false
        for character in text.utf8 {
            if character == UInt8(ascii: "\n") { line += 1 }
            if inString {
                if escaped { escaped = false } else if character == UInt8(ascii: "\\") { escaped = true } else if character == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch character {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                if character == UInt8(ascii: "{") && depth == 2 { lines.append(line) }
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
            default: break
            }
        }
        return lines
    }

    /// The line of the first occurrence of `needle`.
    private static func line(of needle: String, in text: String) -> Int? {
        guard let range = text.range(of: needle) else { return nil }
        return text[..<range.lowerBound].reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
    }

    /// The line of a JSON syntax error: from the error's character index when Foundation gives
    /// one, else from "line N" in its message.
    private static func syntaxErrorLine(_ error: Error, text: String) -> Int? {
        let info = (error as NSError).userInfo
        if let index = info["NSJSONSerializationErrorIndex"] as? Int {
            return text.utf8.prefix(index).reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
        }
        // Foundation on Linux says "around character 155" (an offset from the start).
        let message = "\(info[NSDebugDescriptionErrorKey] ?? "") \(error)"
        if let range = message.range(of: "character "), let offset = Int(message[range.upperBound...].prefix { $0.isNumber }) {
            return text.utf8.prefix(offset).reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
        }
        guard let range = message.range(of: "line ") else { return nil }
        return Int(message[range.upperBound...].prefix { $0.isNumber })
    }

    private static func brief(_ error: Error) -> String {
        ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String) ?? "\(error)"
    }
}
