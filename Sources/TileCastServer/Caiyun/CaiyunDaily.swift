import Catalog
import PointQuery

/// Caiyun's `daily` block: `dailysteps` local days from today (or `begin`'s day), each
/// quantity's `{date, max, min, avg}` from `/v1/forecast`'s daily `_max`, `_min` and `_mean`
/// (precipitation as rates: mm over an hour). The list holds the days the runs give whole (a
/// mean temperature and precipitation), from the first; a quantity the run lacks is an empty list. `air_quality`'s lists and `life_index`'s lists are empty
/// (no chemistry in the runs; Caiyun's life indices are its own scales).
struct CaiyunDaily {
    let hourly: CaiyunHourly
    var forecast: CaiyunForecast { hourly.forecast }
    var units: CaiyunUnits { hourly.units }

    /// The value of a daily field on day `d` (NaN when unknown).
    func value(_ name: String, day d: Int) -> Float {
        guard let field = CaiyunForecast.dailyFields[name], let series = forecast.place.daily[field], d < series.count else { return .nan }
        return series[d]
    }

    /// The daily field as `/v1/forecast` prints it (its hourly variable's decimals).
    func printed(_ name: String, day d: Int) -> String? {
        guard let field = CaiyunForecast.dailyFields[name] else { return nil }
        return ForecastRenderer.formatted(value(name, day: d), field.variable, units.forecastUnits)
    }

    /// Up to `count` days from the day of `time` that the runs give whole, one after another.
    /// A first day they do not (a cycle that began after local midnight with no older cycle
    /// kept for its early hours) is left out rather than answered from part of its hours: a
    /// day's list starts at the first whole day, each dated.
    func days(from time: Int64, count: Int) -> [Int] {
        let starts = forecast.place.times.dayStarts
        guard let first = starts.lastIndex(where: { $0 <= time }) else { return [] }
        // A day's instants (00-23 h) and amounts (the hours ending 01-24 h) both whole.
        let isWhole = { (d: Int) in
            ["temperature_2m_max", "temperature_2m_min", "temperature_2m_mean", "precipitation_mean"].allSatisfy { self.value($0, day: d).isFinite }
        }
        return Array((first..<starts.count).drop { !isWhole($0) }.prefix(while: isWhole).prefix(count))
    }

    /// The time of local hour `hour` (0-47) of day `d`, corrected for an offset change (DST).
    func time(day d: Int, hour: Int) -> Int64 {
        let start = forecast.place.times.dayStarts[d]
        let time = start + Int64(hour) * 3600
        return time + Int64(forecast.place.times.offset(at: start) - forecast.place.times.offset(at: time))
    }

    /// `{date, max, min, avg}` of a quantity, each converted by `convert`.
    func spread(_ variable: String, day d: Int, _ convert: (String?) -> String?) -> String {
        var item = CaiyunObject()
        item.add("date", JSONText.quoted(forecast.dateTime(forecast.place.times.dayStarts[d])))
        item.add("max", convert(printed(variable + "_max", day: d)))
        item.add("min", convert(printed(variable + "_min", day: d)))
        item.add("avg", convert(printed(variable + "_mean", day: d)))
        return item.text
    }

    /// The wind's `{date, max, min, avg}`, each `{speed, direction}`: the direction of the
    /// strongest and weakest hours, and the day's dominant one with the mean speed.
    func wind(day d: Int) -> String {
        let rows = (0..<24).compactMap { hourly.row(at: time(day: d, hour: $0)) }.filter(\.isKnown)
        func at(_ speed: String?) -> CaiyunObject {
            var out = CaiyunObject()
            out.add("speed", speed)
            out.add("direction", rows.first { $0.windSpeed == speed && speed != nil }?.windDirection)
            return out
        }
        var item = CaiyunObject()
        item.add("date", JSONText.quoted(forecast.dateTime(forecast.place.times.dayStarts[d])))
        item.add("max", at(printed("wind_speed_10m_max", day: d)))
        item.add("min", at(printed("wind_speed_10m_min", day: d)))
        var mean = CaiyunObject()
        mean.add("speed", printed("wind_speed_10m_mean", day: d))
        mean.add("direction", printed("wind_direction_10m_dominant", day: d))
        item.add("avg", mean)
        return item.text
    }

    /// The sky of local hours `hours` of day `d`: the most severe code among them, a dry sky
    /// by their mean cloud cover; the day's own code when the runs hold none of those hours.
    func sky(day d: Int, hours: Range<Int>, isDay: Bool) -> String? {
        let rows = hours.compactMap { hourly.row(at: time(day: d, hour: $0)) }.filter { $0.value(.weatherCode).isFinite }
        let clouds = rows.map { $0.value(.cloudCover) }.filter(\.isFinite)
        let code = rows.map { $0.value(.weatherCode) }.max() ?? value("weather_code", day: d)
        let cover = clouds.isEmpty ? value("cloud_cover_mean", day: d) : (clouds.reduce(0, +) / Float(clouds.count)).rounded()
        return SkyCondition.of(weatherCode: code, cloudCover: cover).map { CaiyunSky.name($0, isDay: isDay) }
    }

    /// "05:57": a time of day held as seconds after local midnight.
    func clock(_ name: String, day d: Int) -> String {
        let seconds = value(name, day: d)
        guard seconds.isFinite else { return "" }
        let minutes = Int((Double(seconds) / 60).rounded())
        let h = minutes / 60 % 24, m = minutes % 60
        return (h < 10 ? "0" : "") + String(h) + ":" + (m < 10 ? "0" : "") + String(m)
    }

    /// A quantity's days; an empty list when the run lacks it (no maximum any day).
    func spreads(_ variable: String, days: [Int], _ convert: (String?) -> String?) -> String {
        guard days.contains(where: { printed(variable + "_max", day: $0) != nil }) else { return "[]" }
        return CaiyunObject.list(days.map { spread(variable, day: $0, convert) })
    }

    func block(_ request: CaiyunRequest, now: Int64) -> CaiyunObject {
        let days = days(from: request.begin ?? now, count: request.dailySteps)
        func dated(_ d: Int, _ fill: (inout CaiyunObject) -> Void) -> String {
            var item = CaiyunObject()
            item.add("date", JSONText.quoted(forecast.dateTime(forecast.place.times.dayStarts[d])))
            fill(&item)
            return item.text
        }
        var out = CaiyunObject()
        out.add("status", "\"ok\"")
        out.add("astro", CaiyunObject.list(days.map { d in
            dated(d) { item in
                item.add("sunrise", "{\"time\":" + JSONText.quoted(clock("sunrise", day: d)) + "}")
                item.add("sunset", "{\"time\":" + JSONText.quoted(clock("sunset", day: d)) + "}")
            }
        }))
        let rate = { (text: String?) in text.flatMap(Double.init).map { CaiyunNumbers.precipitation($0, units: request.units, block: .hourly) } }
        out.add("precipitation", spreads("precipitation", days: days, rate))
        out.add("temperature", spreads("temperature_2m", days: days) { CaiyunNumbers.temperature($0, units: request.units) })
        out.add("wind", CaiyunObject.list(days.map(wind)))
        out.add("humidity", spreads("relative_humidity_2m", days: days, CaiyunNumbers.fraction))
        out.add("cloudrate", spreads("cloud_cover", days: days, CaiyunNumbers.fraction))
        out.add("pressure", spreads("surface_pressure", days: days, CaiyunNumbers.pascals))
        out.add("visibility", spreads("visibility", days: days) { CaiyunNumbers.visibility($0, units: request.units) })
        out.add("dswrf", spreads("shortwave_radiation", days: days) { $0 })
        var air = CaiyunObject()
        air.add("aqi", "[]")
        air.add("pm25", "[]")
        out.add("air_quality", air)
        for (key, hours, isDay) in [("skycon", 0..<24, true), ("skycon_08h_20h", 8..<20, true), ("skycon_20h_32h", 20..<32, false)] {
            out.add(key, CaiyunObject.list(days.map { d in dated(d) { $0.add("value", sky(day: d, hours: hours, isDay: isDay).map(JSONText.quoted)) } }))
        }
        var life = CaiyunObject()
        for name in ["ultraviolet", "carWashing", "dressing", "comfort", "coldRisk"] { life.add(name, "[]") }
        out.add("life_index", life)
        return out
    }
}
