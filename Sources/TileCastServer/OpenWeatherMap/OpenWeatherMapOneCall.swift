import Catalog
import PointQuery

/// One Call 3.0 (`/data/3.0/onecall`) and the daily forecast (`/data/2.5/forecast/daily`), in
/// the field names of OpenWeatherMap's documentation. `uvi` is null (the runs hold no UV index)
/// and `pop` (hourly and daily, issue 46) is the lagged members' chance of precipitation; `alerts` are the
/// warnings of `serve --warnings` (an empty list without rules); `summary` (a written text of the day) is left out.
extension OpenWeatherMapAnswers {
    /// One Call: `current`, `minutely` (60 one-minute steps of precipitation, mm/h), `hourly`
    /// (48 hours from the current one), `daily` (8 local days), `alerts`, less what `exclude`
    /// names; each list ends where the runs end.
    ///
    /// - Throws: `OpenWeatherMapError` 404 when `current` is asked and no cycle covers now.
    static func oneCall(_ forecast: OpenWeatherMapForecast, request: OpenWeatherMapRequest, now: Int64,
                        warnings: WarningAnswer? = nil) throws(OpenWeatherMapError) -> String {
        let place = forecast.place
        var out = OpenWeatherMapObject()
        out.add("lat", JSONText.short(place.forecast.latitude))
        out.add("lon", JSONText.short(place.forecast.longitude))
        out.add("timezone", JSONText.quoted(forecast.zone.identifier))
        out.add("timezone_offset", String(forecast.offset))
        let days = OpenWeatherMapDays(forecast, units: request.units)
        if !request.exclude.contains(.current) {
            let row = OpenWeatherMapRow(time: place.times.current, values: place.current, units: request.units,
                                        latitude: place.forecast.latitude, longitude: place.forecast.longitude)
            guard row.value(.temperature2m).isFinite else {
                throw OpenWeatherMapError(.notFound, "no forecast cycle of this server covers the current time at this place")
            }
            var current = flatRow(row, amountKey: "1h")
            addSun(forecast.sun(on: row.time), to: &current)
            out.add("current", current)
        }
        if !request.exclude.contains(.minutely) { out.add("minutely", minutely(place, now: now)) }
        if !request.exclude.contains(.hourly) {
            let first = now / 3600 * 3600
            var hours: [String] = []
            for k in 0..<48 {
                guard let row = days.row(at: first + Int64(k) * 3600), row.value(.temperature2m).isFinite else { break }
                hours.append(flatRow(row, amountKey: "1h", withPop: true).text)
            }
            out.add("hourly", "[" + hours.joined(separator: ",") + "]")
        }
        if !request.exclude.contains(.daily) {
            let list = (0..<min(8, days.count)).prefix { days.isAnswered(day: $0) }.compactMap { oneCallDay(days, day: $0) }
            out.add("daily", "[" + list.joined(separator: ",") + "]")
        }
        if !request.exclude.contains(.alerts) { out.add("alerts", alerts(warnings)) }
        out.add("tilecast", provenance(place))
        return out.text
    }

    /// One Call's `alerts`: each warning in force or coming at the place, in its fields
    /// (`sender_name`, `event`, `start`, `end` in seconds since 1970, `description`, `tags`).
    static func alerts(_ answer: WarningAnswer?) -> String {
        guard let answer else { return "[]" }
        let items = answer.warnings.map { warning -> String in
            var item = OpenWeatherMapObject()
            item.add("sender_name", JSONText.quoted("TileCast (\(answer.source))"))
            item.add("event", JSONText.quoted("\(warning.rule.level.rawValue.capitalized) warning: \(warning.rule.event)"))
            item.add("start", String(warning.onset))
            item.add("end", String(warning.expires))
            item.add("description", JSONText.quoted(WarningRendering.description(warning)))
            item.add("tags", "[" + JSONText.quoted(warning.rule.event) + "]")
            return item.text
        }
        return "[" + items.joined(separator: ",") + "]"
    }

    /// A One Call row (`current`, `hourly`): the fields at the top level, wind as `wind_*`.
    static func flatRow(_ row: OpenWeatherMapRow, amountKey: String, withPop: Bool = false) -> OpenWeatherMapObject {
        var out = OpenWeatherMapObject()
        out.add("dt", String(row.time))
        out.always("temp", row.temperature(.temperature2m))
        out.always("feels_like", row.temperature(.apparentTemperature))
        out.always("pressure", row.whole(.pressureMSL))
        out.always("humidity", row.whole(.relativeHumidity2m))
        out.always("dew_point", row.temperature(.dewPoint2m))
        out.always("uvi", nil)
        out.always("clouds", row.whole(.cloudCover))
        out.add("visibility", row.visibility)
        out.always("wind_speed", row.printed(.windSpeed10m))
        out.always("wind_deg", row.whole(.windDirection10m))
        out.add("wind_gust", row.printed(.windGusts10m))
        out.add("weather", row.weather)
        // An hour's chance of precipitation (issue 46); One Call's `current` has none.
        if withPop { out.add("pop", row.pop) }
        out.add("rain", amount(amountKey, row.rain))
        out.add("snow", amount(amountKey, row.snow))
        return out
    }

    /// 60 one-minute steps from the current minute: each minute's precipitation rate (mm/h) is
    /// that of the `/v1/forecast` `minutely_15` quarter hour holding it (its amount x 4).
    static func minutely(_ place: PlaceForecast, now: Int64) -> String {
        guard let quarters = place.minutely15, let amounts = quarters.values[.precipitation] else { return "[]" }
        var byEnd: [Int64: Float] = [:]
        for (k, time) in quarters.times.enumerated() where k < amounts.count { byEnd[time] = amounts[k] }
        let first = now / 60 * 60
        var steps: [String] = []
        for k in 0..<60 {
            let minute = first + Int64(k) * 60
            // The quarter hour ending at or after the minute's end holds it.
            let end = (minute + 60 + 899) / 900 * 900
            guard let amount = byEnd[end], let text = ForecastRenderer.formatted(amount, .precipitation, OutputUnits()),
                  let value = Double(text) else { break }
            steps.append("{\"dt\":\(minute),\"precipitation\":\(OpenWeatherMapRow.hundredths(Int64((value * 400).rounded())))}")
        }
        return "[" + steps.joined(separator: ",") + "]"
    }

    /// One Call's day.
    static func oneCallDay(_ days: OpenWeatherMapDays, day d: Int) -> String? {
        guard let noon = days.noon(day: d) else { return nil }
        var out = OpenWeatherMapObject()
        out.add("dt", String(noon))
        addSun(days.forecast.sun(on: noon), to: &out)
        out.add("moonrise", days.time("moonrise", day: d) ?? "0")
        out.add("moonset", days.time("moonset", day: d) ?? "0")
        out.always("moon_phase", days.printed("moon_phase", day: d))
        out.add("temp", days.parts(day: d, variable: .temperature2m, withExtremes: true))
        out.add("feels_like", days.parts(day: d, variable: .apparentTemperature, withExtremes: false))
        out.always("pressure", days.whole("pressure_msl_mean", day: d))
        out.always("humidity", days.whole("relative_humidity_2m_mean", day: d))
        out.always("dew_point", days.temperature("dew_point_2m_mean", day: d))
        out.always("wind_speed", days.printed("wind_speed_10m_max", day: d))
        out.always("wind_deg", days.whole("wind_direction_10m_dominant", day: d))
        out.add("wind_gust", days.printed("wind_gusts_10m_max", day: d))
        out.add("weather", days.weather(day: d))
        out.always("clouds", days.whole("cloud_cover_mean", day: d))
        out.add("pop", days.pop(day: d))
        out.add("rain", days.rain(day: d))
        out.add("snow", days.snow(day: d))
        out.always("uvi", nil)
        return out.text
    }

    /// `/data/2.5/forecast/daily`: up to `count` (7 by default, 16 at most) local days from today
    /// that the runs answer whole.
    static func daily(_ forecast: OpenWeatherMapForecast, units: OpenWeatherMapUnits, count: Int?) -> String {
        let days = OpenWeatherMapDays(forecast, units: units)
        var list: [String] = []
        for d in 0..<min(count ?? 7, days.count) {
            guard days.isAnswered(day: d), let noon = days.noon(day: d) else { break }
            var item = OpenWeatherMapObject()
            item.add("dt", String(noon))
            addSun(forecast.sun(on: noon), to: &item)
            item.add("temp", days.parts(day: d, variable: .temperature2m, withExtremes: true))
            item.add("feels_like", days.parts(day: d, variable: .apparentTemperature, withExtremes: false))
            item.always("pressure", days.whole("pressure_msl_mean", day: d))
            item.always("humidity", days.whole("relative_humidity_2m_mean", day: d))
            item.add("weather", days.weather(day: d))
            item.always("speed", days.printed("wind_speed_10m_max", day: d))
            item.always("deg", days.whole("wind_direction_10m_dominant", day: d))
            item.add("gust", days.printed("wind_gusts_10m_max", day: d))
            item.always("clouds", days.whole("cloud_cover_mean", day: d))
            item.add("pop", days.pop(day: d))
            item.add("rain", days.rain(day: d))
            item.add("snow", days.snow(day: d))
            list.append(item.text)
        }
        var city = OpenWeatherMapObject()
        city.add("id", "0")
        city.add("name", "\"\"")
        city.add("coord", coordinates(forecast.place))
        city.add("country", "\"\"")
        city.add("population", "0")
        city.add("timezone", String(forecast.offset))
        var out = OpenWeatherMapObject()
        out.add("city", city)
        out.add("cod", "\"200\"")
        out.add("message", "0")
        out.add("cnt", String(list.count))
        out.add("list", "[" + list.joined(separator: ",") + "]")
        out.add("tilecast", provenance(forecast.place))
        return out.text
    }
}
