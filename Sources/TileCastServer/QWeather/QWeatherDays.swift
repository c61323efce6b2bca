import Catalog
import Meteorology
import PointQuery

/// The local days of a QWeather daily answer (`3d` ... `15d`), each from `/v1/forecast`'s
/// daily values and, for its day and night halves, from the hours of the same local day: the
/// day is 06:00-18:00 (the rows at 07 ... 18, each row its hour before), the night the rest of
/// the date, 00:00-06:00 and 18:00-24:00 (so a day is listed exactly when the runs cover its
/// date, as `/v1/forecast`'s daily values need; QWeather's night runs into the next morning,
/// which the last day of a run has not). A half's icon is its most severe weather code (a dry half by its mean
/// cloud cover); its wind is the hour of its strongest wind.
struct QWeatherDays {
    let forecast: DialectForecast
    let request: QWeatherRequest
    private let hourIndex: [Int64: Int]
    private let daily: [String: [Float]]

    init(_ forecast: DialectForecast, request: QWeatherRequest) {
        self.forecast = forecast
        self.request = request
        var index: [Int64: Int] = [:]
        for (k, time) in forecast.place.hourly.times.enumerated() { index[time] = k }
        hourIndex = index
        var daily: [String: [Float]] = [:]
        for name in QWeatherPath.dailyNames {
            if let field = DailyVariable.parse(name), let series = forecast.place.daily[field] { daily[name] = series }
        }
        self.daily = daily
    }

    func value(_ name: String, day d: Int) -> Float {
        guard let series = daily[name], d < series.count else { return .nan }
        return series[d]
    }

    /// A daily value as `/v1/forecast` prints it, rounded to QWeather's decimals; "" when unknown.
    func printed(_ name: String, day d: Int, decimals: Int = 0) -> String {
        guard let field = DailyVariable.parse(name),
              let text = ForecastRenderer.formatted(value(name, day: d), field.variable, request.units.forecastUnits) else { return "" }
        return QWeatherNumber.rounded(text, to: decimals)
    }

    /// A time of day (sunrise, moonset) as local "HH:mm"; "" when there is none that day.
    func timeOfDay(_ name: String, day d: Int) -> String {
        let seconds = value(name, day: d)
        let starts = forecast.place.times.dayStarts
        guard seconds.isFinite, d < starts.count else { return "" }
        let time = starts[d] + Int64((Double(seconds) / 60).rounded()) * 60
        return String(QWeatherNumber.localTime(time, offset: forecast.place.times.offset(at: time)).dropFirst(11).prefix(5))
    }

    /// The row at local hour `hour` of day `d` (hour 24 is the next midnight).
    func row(day d: Int, hour: Int) -> QWeatherRow? {
        let times = forecast.place.times
        guard d < times.dayStarts.count else { return nil }
        let start = times.dayStarts[d]
        var time = start + Int64(hour) * 3600
        time += Int64(times.offset(at: start) - times.offset(at: time))
        let hourly = forecast.place.hourly
        guard let k = hourIndex[time] else { return nil }
        return QWeatherRow(time: time, series: hourly.values, index: k, request: request, latitude: hourly.latitude, longitude: hourly.longitude)
    }

    /// The rows of a half: the day's rows at 07...18, or the night's at 01...06 and 19...24.
    func half(day d: Int, night: Bool) -> [QWeatherRow]? {
        let hours = night ? Array(1...6) + Array(19...24) : Array(7...18)
        let rows = hours.compactMap { row(day: d, hour: $0) }
        guard rows.count == hours.count, rows.allSatisfy({ $0.value(.temperature2m).isFinite }) else { return nil }
        return rows
    }

    /// The half's condition: its most severe code, a dry half's cloud class by its mean cloud cover.
    func condition(_ rows: [QWeatherRow]) -> QWeatherCondition? {
        let code = WeatherCode.mostSevere(rows.map { $0.value(.weatherCode) })
        let clouds = rows.compactMap { Double($0.whole(.cloudCover)) }
        let mean = clouds.count == rows.count ? Float((clouds.reduce(0, +) / Double(clouds.count)).rounded()) : .nan
        return SkyCondition.of(weatherCode: code, cloudCover: mean).flatMap { WeatherConditions.qWeather[$0] }
    }

    /// Up to `count` days from today, ending at the first day the runs do not cover whole.
    func list(count: Int) -> String {
        var items: [String] = []
        for d in 0..<min(count, forecast.place.times.dayStarts.count) {
            guard value("temperature_2m_max", day: d).isFinite, let day = half(day: d, night: false), let night = half(day: d, night: true),
                  let date = forecast.place.times.days[safe: d] else { break }
            items.append(item(day: d, date: date, dayRows: day, nightRows: night).text)
        }
        return "[" + items.joined(separator: ",") + "]"
    }

    func item(day d: Int, date: String, dayRows: [QWeatherRow], nightRows: [QWeatherRow]) -> OpenWeatherMapObject {
        let language = request.language
        var out = OpenWeatherMapObject()
        out.add("fxDate", JSONText.quoted(date))
        for name in ["sunrise", "sunset", "moonrise", "moonset"] { out.add(name, JSONText.quoted(timeOfDay(name, day: d))) }
        let moon = QWeatherNumber.moonPhase(value("moon_phase", day: d), language: language)
        out.add("moonPhase", JSONText.quoted(moon.name))
        out.add("moonPhaseIcon", JSONText.quoted(moon.icon))
        out.add("tempMax", JSONText.quoted(printed("temperature_2m_max", day: d)))
        out.add("tempMin", JSONText.quoted(printed("temperature_2m_min", day: d)))
        let dayCondition = condition(dayRows), nightCondition = condition(nightRows)
        out.add("iconDay", JSONText.quoted(dayCondition.map { String($0.day) } ?? "999"))
        out.add("textDay", JSONText.quoted(dayCondition?.text(language, isDay: true) ?? QWeatherNumber.unknown(language)))
        out.add("iconNight", JSONText.quoted(nightCondition.map { String($0.night) } ?? "999"))
        out.add("textNight", JSONText.quoted(nightCondition?.text(language, isDay: false) ?? QWeatherNumber.unknown(language)))
        for (suffix, rows) in [("Day", dayRows), ("Night", nightRows)] {
            // The half's strongest wind (its first hour when two are as strong).
            let windiest = rows.max { ($0.value(.windSpeed10m).isFinite ? $0.value(.windSpeed10m) : -1) < ($1.value(.windSpeed10m).isFinite ? $1.value(.windSpeed10m) : -1) }
            out.add("wind360" + suffix, JSONText.quoted(windiest?.whole(.windDirection10m) ?? ""))
            out.add("windDir" + suffix, JSONText.quoted(windiest?.windDirection ?? ""))
            out.add("windScale" + suffix, JSONText.quoted(windiest?.windScale ?? ""))
            out.add("windSpeed" + suffix, JSONText.quoted(windiest?.whole(.windSpeed10m) ?? ""))
        }
        out.add("humidity", JSONText.quoted(printed("relative_humidity_2m_mean", day: d)))
        out.add("precip", JSONText.quoted(printed("precipitation_sum", day: d, decimals: 1)))
        out.add("pressure", JSONText.quoted(printed("pressure_msl_mean", day: d)))
        let visibility = DailyVariable.parse("visibility_mean").flatMap {
            ForecastRenderer.formatted(value("visibility_mean", day: d), $0.variable, request.units.forecastUnits)
        }
        out.add("vis", JSONText.quoted(QWeatherNumber.visibility(visibility, units: request.units)))
        out.add("cloud", JSONText.quoted(printed("cloud_cover_mean", day: d)))
        // WRF has no ultraviolet band: QWeather's empty value, never an invented index.
        out.add("uvIndex", "\"\"")
        return out
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
