import Foundation

/// QWeather's `/v7/warning/now` (its Weather Warning API): the warnings `serve --warnings`
/// gives at the place (issue 46), in QWeather's fields and the place's local time. Without rules,
/// or with none in force or coming, `warning` is an empty list, as QWeather answers a place
/// without warnings.
enum QWeatherWarnings {
    static func answer(_ answer: WarningAnswer?, request: QWeatherRequest, link: String, now: Int64) -> String {
        let zone = TimeZoneTable.zone(latitude: request.latitude, longitude: request.longitude).zone
        func local(_ time: Int64) -> String {
            QWeatherNumber.localTime(time, offset: zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(time))))
        }
        var out = OpenWeatherMapObject()
        out.add("code", "\"200\"")
        out.add("updateTime", JSONText.quoted(local(now)))
        out.add("fxLink", JSONText.quoted(link))
        let items = (answer?.warnings ?? []).map { warning -> String in
            let rule = warning.rule
            var item = OpenWeatherMapObject()
            item.add("id", JSONText.quoted("tilecast-\(String(format: "%.4f,%.4f", request.latitude, request.longitude))-\(warning.onset)-\(rule.line)"))
            item.add("sender", JSONText.quoted("TileCast"))
            item.add("pubTime", JSONText.quoted(local(now)))
            item.add("title", JSONText.quoted(title(rule, request.language)))
            item.add("startTime", JSONText.quoted(local(warning.onset)))
            item.add("endTime", JSONText.quoted(local(warning.expires)))
            item.add("status", "\"active\"")
            item.add("level", "\"\"")
            item.add("severity", JSONText.quoted(WarningRendering.severity(rule.level)))
            item.add("severityColor", JSONText.quoted(rule.level.rawValue.capitalized))
            // QWeather's warning type codes are its own agencies'; a centre's rule has none.
            item.add("type", "\"\"")
            item.add("typeName", JSONText.quoted(rule.event))
            item.add("urgency", JSONText.quoted(warning.onset <= now ? "Immediate" : "Expected"))
            item.add("certainty", JSONText.quoted(WarningRendering.certainty(warning)))
            item.add("text", JSONText.quoted(WarningRendering.description(warning)))
            item.add("related", "\"\"")
            return item.text
        }
        out.add("warning", "[" + items.joined(separator: ",") + "]")
        var refer = OpenWeatherMapObject()
        refer.add("sources", "[" + JSONText.quoted("TileCast warning rules: \(answer?.source ?? "none")") + "]")
        refer.add("license", "[]")
        out.add("refer", refer)
        return out.text
    }

    /// "Heavy rain orange warning", or in Chinese "Heavy rain橙色预警" (the event is the rule's own text).
    static func title(_ rule: WarningRule, _ language: QWeatherLanguage) -> String {
        guard language == .zh else { return "\(rule.event) \(rule.level.rawValue) warning" }
        let colour = ["yellow": "黄色", "orange": "橙色", "red": "红色"][rule.level.rawValue] ?? ""
        return "\(rule.event)\(colour)预警"
    }
}
