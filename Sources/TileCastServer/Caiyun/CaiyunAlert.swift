import Catalog
import Foundation

/// Caiyun's `result.alert` (`/weather?alert=true`): the warnings `serve --warnings` gives at the
/// place (issue 46), in the fields of Caiyun's own alert items (its answer in
/// Tests/ServerTests/Fixtures/caiyun, and its "天气预警信息" page): `code` is Caiyun's type
/// (two digits) and level (two digits), `pubtimestamp` the time the answer was made. Caiyun's
/// items name a Chinese administrative area (`province`, `city`, `county`, `adcode`) and have
/// no onset or expiry: the first are empty here, and the warning's onset and expiry are said
/// in `description` and given in seconds in the item's `tilecast` key. Without rules, or with
/// none in force or coming, `content` is an empty list, as Caiyun answers a quiet place.
enum CaiyunAlert {
    static func block(_ answer: WarningAnswer?, request: CaiyunRequest, now: Int64) -> String {
        let place = String(format: "%.4f,%.4f", request.latitude, request.longitude)
        let chinese = request.language == .zhCN || request.language == .zhTW
        let items = (answer?.warnings ?? []).map { warning -> String in
            let rule = warning.rule
            var item = CaiyunObject()
            item.add("province", "\"\"")
            item.add("status", chinese ? "\"预警中\"" : "\"Warning\"")
            item.add("code", JSONText.quoted(code(rule)))
            item.add("description", JSONText.quoted(WarningRendering.description(warning)
                                                    + " (from \(ModelTime.isoMinutes(warning.onset)) to \(ModelTime.isoMinutes(warning.expires)))"))
            item.add("alertId", JSONText.quoted("tilecast-\(place)-\(warning.onset)-\(rule.line)"))
            item.add("city", "\"\"")
            item.add("adcode", "\"\"")
            item.add("pubtimestamp", String(now))
            item.add("latlon", "[" + JSONText.short(request.latitude) + "," + JSONText.short(request.longitude) + "]")
            item.add("county", "\"\"")
            item.add("source", JSONText.quoted("TileCast (\(answer?.source ?? ""))"))
            item.add("request_status", "\"ok\"")
            item.add("location", JSONText.quoted(place))
            item.add("title", JSONText.quoted(title(rule, chinese: chinese)))
            item.add("regionId", "\"\"")
            var own = CaiyunObject()
            own.add("event", JSONText.quoted(rule.event))
            own.add("level", JSONText.quoted(rule.level.rawValue))
            own.add("onset", String(warning.onset))
            own.add("expires", String(warning.expires))
            own.add("in_force", warning.onset <= now ? "true" : "false")
            item.add("tilecast", own)
            return item.text
        }
        return "{\"status\":\"ok\",\"content\":[" + items.joined(separator: ",") + "]}"
    }

    /// Caiyun's code: its warning type (01 typhoon, 02 rainstorm, 03 blizzard, 05 gale, 07 heat,
    /// 11 frost, 12 fog, ...) from the rule's quantity, "00" where none fits, then its level (01
    /// blue, 02 yellow, 03 orange, 04 red).
    static func code(_ rule: WarningRule) -> String {
        let type: String
        switch rule.quantity {
        case .precipitation, .rain, .showers: type = "02"
        case .snowfall, .snowfallWaterEquivalent: type = "03"
        case .windGusts10m, .windSpeed10m: type = "05"
        case .temperature2m, .apparentTemperature: type = rule.statistic == .min ? "11" : rule.statistic == .max ? "07" : "00"
        case .visibility: type = rule.statistic == .min ? "12" : "00"
        default: type = "00"
        }
        let level: String
        switch rule.level {
        case .yellow: level = "02"
        case .orange: level = "03"
        case .red: level = "04"
        }
        return type + level
    }

    /// "Orange alert for Heavy rain issued by TileCast", or "TileCast发布Heavy rain橙色预警".
    static func title(_ rule: WarningRule, chinese: Bool) -> String {
        guard chinese else { return "\(rule.level.rawValue.capitalized) alert for \(rule.event) issued by TileCast" }
        let colour = ["yellow": "黄色", "orange": "橙色", "red": "红色"][rule.level.rawValue] ?? ""
        return "TileCast发布\(rule.event)\(colour)预警"
    }
}
