import Catalog
import PointQuery

/// The local days of an OpenWeatherMap answer (One Call's `daily`, `/data/2.5/forecast/daily`),
/// each from `/v1/forecast`'s daily values and the hours of the day. A day's temperatures of
/// the morning, day, evening and night are the hours 06, 12, 18 and 00 local (OpenWeatherMap
/// names the parts of the day, not their hours); its `dt` is its local noon.
struct OpenWeatherMapDays {
    /// The `/v1/forecast` daily names the days are made from (each a `DailyVariable`).
    static let names = ["temperature_2m_min", "temperature_2m_max", "weather_code", "cloud_cover_mean", "relative_humidity_2m_mean",
                        "pressure_msl_mean", "dew_point_2m_mean", "wind_speed_10m_max", "wind_direction_10m_dominant", "wind_gusts_10m_max",
                        "precipitation_sum", "snowfall_water_equivalent_sum", "moonrise", "moonset", "moon_phase",
                        "precipitation_probability_max"]
    static let fields: [String: DailyVariable] = Dictionary(uniqueKeysWithValues: names.compactMap { name in DailyVariable.parse(name).map { (name, $0) } })

    let forecast: OpenWeatherMapForecast
    let units: OpenWeatherMapUnits
    /// Each hourly time's index.
    private let hourIndex: [Int64: Int]

    init(_ forecast: OpenWeatherMapForecast, units: OpenWeatherMapUnits) {
        self.forecast = forecast
        self.units = units
        var index: [Int64: Int] = [:]
        for (k, time) in forecast.place.hourly.times.enumerated() { index[time] = k }
        hourIndex = index
    }

    var count: Int { forecast.place.times.days.count }

    /// The value of a daily field on day `d` (NaN when unknown).
    func value(_ name: String, day d: Int) -> Float {
        guard let field = Self.fields[name], let series = forecast.place.daily[field], d < series.count else { return .nan }
        return series[d]
    }

    /// The daily field as `/v1/forecast` prints it (its hourly variable's decimals).
    func printed(_ name: String, day d: Int) -> String? {
        guard let field = Self.fields[name] else { return nil }
        if field.statistic == .moonPhase { return ForecastRenderer.number(value(name, day: d), 3) }
        return ForecastRenderer.formatted(value(name, day: d), field.variable, units.forecastUnits)
    }

    func number(_ name: String, day d: Int) -> Double? { printed(name, day: d).flatMap(Double.init) }

    /// The day's `pop` (0-1): its largest hourly chance of precipitation, as printed, over 100.
    func pop(day d: Int) -> String? { number("precipitation_probability_max", day: d).map { OpenWeatherMapRow.hundredths(Int64($0.rounded())) } }

    /// A time of day (moonrise, moonset) as seconds since 1970, to the minute; nil when none.
    func time(_ name: String, day d: Int) -> String? {
        let seconds = value(name, day: d)
        guard seconds.isFinite, d < forecast.place.times.dayStarts.count else { return nil }
        return String(forecast.place.times.dayStarts[d] + Int64((Double(seconds) / 60).rounded()) * 60)
    }

    /// The day's local hour `hour` (0-23) as a row; nil when the hourly block has not that time.
    func row(day d: Int, hour: Int) -> OpenWeatherMapRow? {
        let times = forecast.place.times
        guard d < times.dayStarts.count else { return nil }
        // The local hour's time: from the day's midnight, corrected by the offset change (DST).
        let start = times.dayStarts[d]
        var time = start + Int64(hour) * 3600
        time += Int64(times.offset(at: start) - times.offset(at: time))
        return row(at: time)
    }

    func row(at time: Int64) -> OpenWeatherMapRow? {
        let hourly = forecast.place.hourly
        guard let k = hourIndex[time] else { return nil }
        return OpenWeatherMapRow(time: time, values: hourly.values.compactMapValues { k < $0.count ? $0[k] : nil }, units: units,
                                 latitude: hourly.latitude, longitude: hourly.longitude)
    }

    /// A temperature of the day (min, max) in the request's units, as `OpenWeatherMapRow.temperature`.
    func temperature(_ name: String, day d: Int) -> String? {
        guard let text = printed(name, day: d) else { return nil }
        guard units == .standard, let celsius = Double(text) else { return text }
        return OpenWeatherMapRow.hundredths(Int64((celsius * 100).rounded()) + 27_315)
    }

    /// `temp`: the parts of the day and the day's minimum and maximum (`withExtremes`), or
    /// `feels_like`'s parts (apparent temperature).
    func parts(day d: Int, variable: ForecastVariable, withExtremes: Bool) -> OpenWeatherMapObject {
        var out = OpenWeatherMapObject()
        out.always("day", row(day: d, hour: 12)?.temperature(variable))
        if withExtremes {
            out.always("min", temperature("temperature_2m_min", day: d))
            out.always("max", temperature("temperature_2m_max", day: d))
        }
        out.always("night", row(day: d, hour: 0)?.temperature(variable))
        out.always("eve", row(day: d, hour: 18)?.temperature(variable))
        out.always("morn", row(day: d, hour: 6)?.temperature(variable))
        return out
    }

    /// The day's condition from its most severe `weather_code` (a dry day by its WMO sky code).
    func weather(day d: Int) -> String {
        let noon = row(day: d, hour: 12)
        let condition = SkyCondition.of(weatherCode: value("weather_code", day: d), cloudCover: .nan)
        guard let condition, let owm = WeatherConditions.openWeatherMap[condition] else { return "[]" }
        var item = OpenWeatherMapObject()
        item.add("id", String(owm.code))
        item.add("main", JSONText.quoted(owm.group))
        item.add("description", JSONText.quoted(owm.text))
        // A day's icon is a day icon, as OpenWeatherMap's daily icons are.
        item.add("icon", JSONText.quoted(owm.icon + (noon?.isDay ?? true ? "d" : "n")))
        return "[" + item.text + "]"
    }

    /// The day's liquid precipitation (`precipitation_sum` less the snow's water, as
    /// `OpenWeatherMapRow.rain`), mm; nil when none fell.
    func rain(day d: Int) -> String? {
        guard let all = number("precipitation_sum", day: d) else { return nil }
        let amount = Int64((all * 100).rounded()) - Int64(((number("snowfall_water_equivalent_sum", day: d) ?? 0) * 100).rounded())
        return amount > 0 ? OpenWeatherMapRow.hundredths(amount) : nil
    }

    func snow(day d: Int) -> String? {
        guard let amount = number("snowfall_water_equivalent_sum", day: d), amount > 0 else { return nil }
        return OpenWeatherMapRow.hundredths(Int64((amount * 100).rounded()))
    }

    func whole(_ name: String, day d: Int) -> String? { number(name, day: d).map { String(Int64($0.rounded())) } }

    /// Local noon of day `d` (OpenWeatherMap's daily `dt`).
    func noon(day d: Int) -> Int64? {
        let times = forecast.place.times
        guard d < times.dayStarts.count else { return nil }
        let start = times.dayStarts[d]
        return start + 43_200 + Int64(times.offset(at: start) - times.offset(at: start + 43_200))
    }

    /// Whether the runs answer day `d`: its extremes, its code and the four hours of its parts
    /// are known (a day the runs reach only part of is left out, not half answered).
    func isAnswered(day d: Int) -> Bool {
        guard value("temperature_2m_max", day: d).isFinite, value("weather_code", day: d).isFinite else { return false }
        return [0, 6, 12, 18].allSatisfy { row(day: d, hour: $0)?.value(.temperature2m).isFinite ?? false }
    }
}
