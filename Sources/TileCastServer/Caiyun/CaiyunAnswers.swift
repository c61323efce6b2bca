import Catalog
import PointQuery

/// Caiyun's answer: its envelope (`status`, `api_version`, `lang`, `unit`, `tzshift`,
/// `timezone`, `server_time`, `location` as asked, lat first) around `result`, whose blocks
/// follow the path (`/weather`: all of them, and `alert` with `alert=true`). `primary` is 0
/// (Caiyun's "the main forecast"); `forecast_keypoint` is the next two hours' text.
/// `alert.content` holds the warnings of `serve --warnings` (`CaiyunAlert`; empty without rules).
enum CaiyunAnswers {
    static func answer(_ forecast: CaiyunForecast, request: CaiyunRequest, now: Int64,
                       warnings: WarningAnswer? = nil) throws(CaiyunError) -> String {
        let place = forecast.place
        var result = CaiyunObject()
        let part = request.part
        if part == .weather, request.alert { result.add("alert", CaiyunAlert.block(warnings, request: request, now: now)) }
        if part == .realtime || part == .weather { result.add("realtime", try CaiyunNow.realtime(forecast, units: request.units)) }
        let rates = CaiyunNow.minuteRates(place, now: now)
        if part == .minutely || part == .weather { result.add("minutely", CaiyunNow.minutely(forecast, request: request, rates: rates)) }
        let hourly = CaiyunHourly(forecast, units: request.units)
        if part == .hourly || part == .weather { result.add("hourly", hourly.block(request, now: now)) }
        if part == .daily || part == .weather { result.add("daily", CaiyunDaily(hourly: hourly).block(request, now: now)) }
        result.add("primary", "0")
        if part != .realtime && part != .daily {
            result.add("forecast_keypoint", JSONText.quoted(CaiyunTexts.nextTwoHours(rates, request.language)))
        }
        var out = CaiyunObject()
        out.add("status", "\"ok\"")
        out.add("api_version", "\"v2.5\"")
        out.add("api_status", "\"active\"")
        out.add("lang", JSONText.quoted(request.language.rawValue))
        out.add("unit", JSONText.quoted(request.units.rawValue))
        out.add("tzshift", String(forecast.offset(at: now)))
        out.add("timezone", JSONText.quoted(forecast.zoneName))
        out.add("server_time", String(now))
        out.add("location", "[" + JSONText.short(request.latitude) + "," + JSONText.short(request.longitude) + "]")
        out.add("result", result)
        out.add("tilecast", provenance(place))
        return out.text
    }

    /// Where the numbers came from, as `/v1/forecast`'s `tilecast` key says it.
    static func provenance(_ place: PlaceForecast) -> CaiyunObject {
        let source = place.forecast.provenance
        var out = CaiyunObject()
        out.add("model", JSONText.quoted(source.model))
        out.add("cycle", JSONText.quoted(source.cycle))
        out.add("domain", JSONText.quoted(source.domain))
        out.add("grid_spacing_km", JSONText.short(source.gridSpacingKilometres))
        return out
    }
}
