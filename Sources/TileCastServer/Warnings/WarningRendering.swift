import Catalog
import PointQuery
import Foundation

/// `/v1/warnings`' answers: TileCast's JSON, or CAP 1.2 (OASIS Common Alerting Protocol,
/// `format=cap`), the format alerting services and Meteoalarm exchange.
enum WarningRendering {
    /// The JSON answer: the place, where the thresholds come from, and each warning.
    static func json(_ answer: WarningAnswer) -> String {
        var out = "{\"latitude\":" + JSONText.number(answer.latitude) + ",\"longitude\":" + JSONText.number(answer.longitude)
        out += ",\"generated\":" + JSONText.quoted(ModelTime.isoMinutes(answer.now)) + ",\"source\":" + JSONText.quoted(answer.source)
        out += ",\"warnings\":["
        for (k, warning) in answer.warnings.enumerated() {
            let rule = warning.rule
            if k > 0 { out += "," }
            out += "{\"event\":" + JSONText.quoted(rule.event) + ",\"level\":" + JSONText.quoted(rule.level.rawValue)
            out += ",\"onset\":" + JSONText.quoted(ModelTime.isoMinutes(warning.onset))
            out += ",\"expires\":" + JSONText.quoted(ModelTime.isoMinutes(warning.expires))
            out += ",\"in_force\":" + (warning.onset <= answer.now ? "true" : "false")
            out += ",\"rule\":{\"quantity\":" + JSONText.quoted(rule.quantity.rawValue) + ",\"statistic\":" + JSONText.quoted(rule.statistic.rawValue)
            out += ",\"hours\":" + String(rule.hours) + ",\"threshold\":" + JSONText.number(rule.threshold)
            out += ",\"unit\":" + JSONText.quoted(OutputUnits().symbol(rule.quantity))
            out += ",\"probability\":" + (rule.probability.map(JSONText.number) ?? "null") + ",\"line\":" + String(rule.line) + "}"
            out += ",\"peak\":{\"value\":" + JSONText.number((warning.peak * 100).rounded() / 100)
            out += ",\"unit\":" + JSONText.quoted(rule.probability == nil ? OutputUnits().symbol(rule.quantity) : "%")
            out += ",\"window_end\":" + JSONText.quoted(ModelTime.isoMinutes(warning.peakTime)) + "}"
            if let members = warning.members {
                out += ",\"members\":{\"passing\":" + String(members.passing) + ",\"answered\":" + String(members.answered) + "}"
            }
            out += ",\"cycles\":[" + warning.cycles.map(JSONText.quoted).joined(separator: ",") + "]}"
        }
        return out + "]}"
    }

    /// One CAP 1.2 alert holding an `info` block per warning (none when nothing is in force
    /// or coming). CAP's times carry an explicit offset ("+00:00", never "Z").
    static func cap(_ answer: WarningAnswer, host: String) -> String {
        let sent = capTime(answer.now)
        let place = String(format: "%.4f,%.4f", answer.latitude, answer.longitude)
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<alert xmlns=\"urn:oasis:names:tc:emergency:cap:1.2\">\n"
        xml += "  <identifier>\(Meteogram.escape("tilecast-\(place)-\(answer.now)"))</identifier>\n"
        xml += "  <sender>\(Meteogram.escape("tilecast@\(host)"))</sender>\n  <sent>\(sent)</sent>\n"
        xml += "  <status>Actual</status>\n  <msgType>Alert</msgType>\n  <scope>Public</scope>\n"
        for warning in answer.warnings {
            let rule = warning.rule
            xml += "  <info>\n    <language>en</language>\n    <category>Met</category>\n"
            xml += "    <event>\(Meteogram.escape(rule.event))</event>\n"
            xml += "    <urgency>\(warning.onset <= answer.now ? "Immediate" : "Expected")</urgency>\n"
            xml += "    <severity>\(severity(rule.level))</severity>\n"
            xml += "    <certainty>\(certainty(warning))</certainty>\n"
            xml += "    <onset>\(capTime(warning.onset))</onset>\n    <expires>\(capTime(warning.expires))</expires>\n"
            xml += "    <senderName>TileCast</senderName>\n"
            xml += "    <headline>\(Meteogram.escape("\(rule.level.rawValue.capitalized) warning: \(rule.event)"))</headline>\n"
            xml += "    <description>\(Meteogram.escape(description(warning)))</description>\n"
            // Meteoalarm's awareness level (its CAP profile): "2; yellow; Moderate" and so on.
            xml += "    <parameter>\n      <valueName>awareness_level</valueName>\n"
            xml += "      <value>\(awarenessNumber(rule.level)); \(rule.level.rawValue); \(severity(rule.level))</value>\n    </parameter>\n"
            xml += "    <area>\n      <areaDesc>\(Meteogram.escape("the place \(place)"))</areaDesc>\n"
            xml += "      <circle>\(place) 0</circle>\n    </area>\n  </info>\n"
        }
        return xml + "</alert>\n"
    }

    static func description(_ warning: IssuedWarning) -> String {
        let rule = warning.rule
        let unit = OutputUnits().symbol(rule.quantity)
        let condition = "\(rule.quantity.rawValue) \(rule.statistic.rawValue) over \(rule.hours) h \(rule.statistic == .min ? "at or below" : "at or above") \(JSONText.number(rule.threshold)) \(unit)"
        let cycles = "cycles " + warning.cycles.joined(separator: ", ")
        if let members = warning.members, let probability = rule.probability {
            return "\(condition) in \(members.passing) of \(members.answered) lagged members (at least \(JSONText.number(probability)) % needed), \(cycles)"
        }
        return "\(condition): forecast \(JSONText.number((warning.peak * 100).rounded() / 100)) \(unit) in the window ending \(ModelTime.isoMinutes(warning.peakTime)), \(cycles)"
    }

    /// CAP's severity of Meteoalarm's levels (its CAP profile).
    static func severity(_ level: WarningRule.Level) -> String {
        switch level {
        case .yellow: return "Moderate"
        case .orange: return "Severe"
        case .red: return "Extreme"
        }
    }

    static func awarenessNumber(_ level: WarningRule.Level) -> Int {
        switch level {
        case .yellow: return 2
        case .orange: return 3
        case .red: return 4
        }
    }

    /// A deterministic forecast's warning is "Likely"; a probabilistic one by its share.
    static func certainty(_ warning: IssuedWarning) -> String {
        guard warning.members != nil else { return "Likely" }
        return warning.peak > 50 ? "Likely" : "Possible"
    }

    /// "2026-11-22T03:00:00+00:00".
    static func capTime(_ seconds: Int64) -> String {
        let text = ModelTime.iso(seconds)
        return (text.hasSuffix("Z") ? String(text.dropLast()) : text) + "+00:00"
    }
}
