import Catalog
import PointQuery

/// One QWeather call: the parsed request, its path and the page's link for the place (`fxLink`).
struct QWeatherCall: Sendable {
    let request: QWeatherRequest
    let path: QWeatherPath
    let link: String
}

/// The JSON of each QWeather v7 path, from the runner's forecast (`DialectForecast`). Field
/// names, order and types follow QWeather's documentation (every value a string); what the
/// run cannot give is QWeather's own "may be empty" (""): `pop` (no ensemble yet, issue 46),
/// `uvIndex` (WRF has no ultraviolet band). `updateTime` is the answering cycle's start.
enum QWeatherAnswers {
    static func answer(_ forecast: DialectForecast, call: QWeatherCall, now: Int64) throws(QWeatherError) -> String {
        var out = OpenWeatherMapObject()
        out.add("code", "\"200\"")
        out.add("updateTime", JSONText.quoted(updateTime(forecast)))
        out.add("fxLink", JSONText.quoted(call.link))
        switch call.path {
        case .now: out.add("now", try current(forecast, request: call.request))
        case .hours(let count): out.add("hourly", hours(forecast, request: call.request, now: now, count: count))
        case .days(let count): out.add("daily", QWeatherDays(forecast, request: call.request).list(count: count))
        case .minutely:
            let minutely = QWeatherMinutely(forecast, request: call.request, now: now)
            out.add("summary", JSONText.quoted(minutely.summary))
            out.add("minutely", minutely.list)
        }
        out.add("refer", refer(forecast.place))
        out.add("tilecast", OpenWeatherMapAnswers.provenance(forecast.place))
        return out.text
    }

    /// `now`: the current quarter hour's values, `precip` over the last hour.
    ///
    /// - Throws: `QWeatherError` "Data Not Available" when no cycle covers now at the place.
    static func current(_ forecast: DialectForecast, request: QWeatherRequest) throws(QWeatherError) -> OpenWeatherMapObject {
        let place = forecast.place
        let row = QWeatherRow(time: place.times.current, values: place.current, request: request,
                              latitude: place.forecast.latitude, longitude: place.forecast.longitude)
        guard row.value(.temperature2m).isFinite else {
            throw QWeatherError(.dataNotAvailable, "no forecast cycle of this server covers the current time at this place")
        }
        var now = OpenWeatherMapObject()
        now.add("obsTime", JSONText.quoted(QWeatherNumber.localTime(row.time, offset: place.times.offset(at: row.time))))
        now.add("temp", JSONText.quoted(row.whole(.temperature2m)))
        now.add("feelsLike", JSONText.quoted(row.whole(.apparentTemperature)))
        addWeather(row, to: &now, withVisibility: true)
        return now
    }

    /// The hours after now (`24h`, `72h`, `168h`), at most `count`; the list ends where the runs end.
    static func hours(_ forecast: DialectForecast, request: QWeatherRequest, now: Int64, count: Int) -> String {
        let place = forecast.place, hourly = place.hourly
        var items: [String] = []
        for (k, time) in hourly.times.enumerated() where time > now && items.count < count {
            let row = QWeatherRow(time: time, series: hourly.values, index: k, request: request,
                                  latitude: place.forecast.latitude, longitude: place.forecast.longitude)
            guard row.value(.temperature2m).isFinite else { break }
            var item = OpenWeatherMapObject()
            item.add("fxTime", JSONText.quoted(QWeatherNumber.localTime(time, offset: place.times.offset(at: time))))
            item.add("temp", JSONText.quoted(row.whole(.temperature2m)))
            addWeather(row, to: &item, withVisibility: false)
            items.append(item.text)
        }
        return "[" + items.joined(separator: ",") + "]"
    }

    /// The fields a now and an hour share, in QWeather's order (`pop` only in hours, `vis` only now).
    static func addWeather(_ row: QWeatherRow, to object: inout OpenWeatherMapObject, withVisibility: Bool) {
        let condition = row.iconAndText
        object.add("icon", JSONText.quoted(condition.icon))
        object.add("text", JSONText.quoted(condition.text))
        object.add("wind360", JSONText.quoted(row.whole(.windDirection10m)))
        object.add("windDir", JSONText.quoted(row.windDirection))
        object.add("windScale", JSONText.quoted(row.windScale))
        object.add("windSpeed", JSONText.quoted(row.whole(.windSpeed10m)))
        object.add("humidity", JSONText.quoted(row.whole(.relativeHumidity2m)))
        // The hour's chance of precipitation in whole percent (issue 46's lagged members), "" unknown.
        if !withVisibility { object.add("pop", JSONText.quoted(row.whole(.precipitationProbability))) }
        object.add("precip", JSONText.quoted(row.precip))
        object.add("pressure", JSONText.quoted(row.whole(.pressureMSL)))
        if withVisibility { object.add("vis", JSONText.quoted(row.visibility)) }
        object.add("cloud", JSONText.quoted(row.whole(.cloudCover)))
        object.add("dew", JSONText.quoted(row.whole(.dewPoint2m)))
    }

    /// The answering cycle's start in the place's zone.
    static func updateTime(_ forecast: DialectForecast) -> String {
        let cycle = forecast.place.forecast.provenance.cycle
        guard let start = cycleStart(cycle) else { return "" }
        return QWeatherNumber.localTime(start, offset: forecast.place.times.offset(at: start))
    }

    /// "2026-11-22T00:00Z" as seconds since 1970.
    static func cycleStart(_ text: String) -> Int64? {
        let digits = text.split(whereSeparator: { "-T:Z".contains($0) }).compactMap { Int($0) }
        guard digits.count >= 5 else { return nil }
        return ModelTime.seconds(year: digits[0], month: digits[1], day: digits[2], hour: digits[3], minute: digits[4])
    }

    /// `refer`: where the numbers come from (the model, its cycle and domain); the licence is the centre's.
    static func refer(_ place: PlaceForecast) -> OpenWeatherMapObject {
        let source = place.forecast.provenance
        var refer = OpenWeatherMapObject()
        refer.add("sources", "[" + JSONText.quoted("\(source.model) \(source.cycle) \(source.domain)") + "]")
        refer.add("license", "[]")
        return refer
    }
}
