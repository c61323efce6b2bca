import Catalog
import PointQuery

/// What a QWeather path answers, and the `/v1/forecast` query it is made from.
package enum QWeatherPath: Sendable, Equatable {
    /// `/v7/weather/now`: the current conditions (amounts over the last hour, as QWeather's `precip`).
    case now
    /// `/v7/weather/24h`, `72h`, `168h`: the hours after the current one.
    case hours(Int)
    /// `/v7/weather/3d` ... `15d`: local days from today.
    case days(Int)
    /// `/v7/minutely/5m`: two hours of precipitation in 5-minute steps.
    case minutely

    /// The variables every QWeather row is made from, by their `/v1/forecast` names.
    static let variables: [ForecastVariable] = [
        .temperature2m, .apparentTemperature, .relativeHumidity2m, .dewPoint2m, .pressureMSL, .cloudCover,
        .windSpeed10m, .windDirection10m, .visibility, .precipitation, .weatherCode, .isDay, .precipitationProbability,
    ]

    /// The `/v1/forecast` daily names the days are made from (the day and night halves come
    /// from the hours: `QWeatherDays`).
    static let dailyNames = ["temperature_2m_max", "temperature_2m_min", "relative_humidity_2m_mean", "precipitation_sum",
                             "pressure_msl_mean", "visibility_mean", "cloud_cover_mean", "sunrise", "sunset",
                             "moonrise", "moonset", "moon_phase"]

    /// The `/v1/forecast` query of a QWeather request on this path: the tests ask
    /// `/v1/forecast` the same to compare.
    package func query(_ request: QWeatherRequest) -> [(name: String, value: String)] {
        let units = request.units.forecastUnits
        let names = Self.variables.map(\.rawValue).joined(separator: ",")
        var query: [(name: String, value: String)] = [
            ("latitude", String(request.latitude)), ("longitude", String(request.longitude)),
            ("temperature_unit", units.temperature.rawValue), ("wind_speed_unit", units.windSpeed.rawValue),
            ("precipitation_unit", units.precipitation.rawValue), ("timezone", "auto"),
        ]
        switch self {
        case .now: query.append(("current", names))
        case .hours(let count):
            // From the current hour: the first hour after now is the list's first.
            query += [("hourly", names), ("forecast_hours", String(count + 1))]
        case .days(let count):
            // One day more than listed: the hourly block then holds the last day's midnight.
            query += [("hourly", names), ("daily", Self.dailyNames.joined(separator: ",")),
                      ("forecast_days", String(min(count + 1, ForecastParameters.maxDays)))]
        case .minutely:
            // From the current quarter hour: eleven hold the two hours from the current five minutes.
            query += [("minutely_15", "precipitation,snowfall_water_equivalent"), ("forecast_minutely_15", "11")]
        }
        return query
    }
}

extension ForecastEngine {
    /// One QWeather request's forecast, answered as `/v1/forecast` answers its query.
    ///
    /// - Throws: `APIError` as `/v1/forecast` refuses.
    func qWeather(_ request: QWeatherRequest, path: QWeatherPath, now: Int64) throws(APIError) -> DialectForecast {
        var parameters = try ForecastParameters(query: path.query(request))
        // `now.precip` is QWeather's "precipitation of the past hour", not a quarter hour's;
        // the icon follows the same hour.
        parameters.currentAmountsOverTheHour = true
        return try dialectForecast(parameters, now: now)
    }
}
