import Catalog
import Foundation
import Meteorology
import ObjectStore
import PointQuery

/// The forecast a Caiyun answer is made from: `/v1/forecast`'s own request, run by the same
/// runner (`ForecastEngine.placeOrNulls`), so each number is the one `/v1/forecast` answers for
/// the same place and hour.
struct CaiyunForecast: Sendable {
    let place: PlaceForecast
    /// The zone the answer's times are written in: the place's own, or `tzshift`'s fixed one.
    let zone: TimeZone
    let zoneName: String

    /// The hourly (and current) variables, by their `/v1/forecast` names.
    static let variables: [ForecastVariable] = [
        .temperature2m, .apparentTemperature, .relativeHumidity2m, .surfacePressure, .cloudCover, .windSpeed10m,
        .windDirection10m, .visibility, .shortwaveRadiation, .precipitation, .weatherCode, .isDay, .precipitationProbability,
    ]

    /// The daily fields: `{max, min, avg}` of each Caiyun daily quantity, the day's code, the sun.
    static let dailyNames: [String] = {
        let spread = ["temperature_2m", "precipitation", "relative_humidity_2m", "cloud_cover", "surface_pressure", "visibility",
                      "shortwave_radiation", "wind_speed_10m"]
        return spread.flatMap { ["\($0)_max", "\($0)_min", "\($0)_mean"] } + ["wind_direction_10m_dominant", "weather_code", "sunrise", "sunset"]
    }()
    static let dailyFields: [String: DailyVariable] = Dictionary(uniqueKeysWithValues: dailyNames.compactMap { name in
        DailyVariable.parse(name).map { (name, $0) }
    })

    /// Quarter hours of `minutely_15` asked for: the 120 minutes after the current minute end
    /// within the tenth quarter hour from the current one.
    static let quarterHours = 10

    /// The `/v1/forecast` query of a Caiyun request: the tests ask `/v1/forecast` the same to compare.
    ///
    /// - Parameter pastDays: days before today the hourly and daily blocks start (`begin` in the past).
    static func query(_ request: CaiyunRequest, pastDays: Int = 0) -> [(name: String, value: String)] {
        let units = request.units.forecastUnits
        let names = variables.map(\.rawValue).joined(separator: ",")
        // A day past the last daily step holds the night (20h-32h) of the last day.
        let days = min(ForecastParameters.maxDays, max(request.dailySteps + 1, (request.hourlySteps + 47) / 24))
        return [("latitude", String(request.latitude)), ("longitude", String(request.longitude)),
                ("temperature_unit", units.temperature.rawValue), ("wind_speed_unit", units.windSpeed.rawValue),
                ("precipitation_unit", units.precipitation.rawValue),
                ("current", names), ("hourly", names), ("daily", dailyNames.joined(separator: ",")),
                ("minutely_15", "precipitation"), ("forecast_minutely_15", String(quarterHours)),
                ("forecast_days", String(days)), ("past_days", String(pastDays)),
                ("timezone", zoneName(request) ?? "auto")]
    }

    /// `tzshift`'s zone as an IANA name (Etc/GMT-8 is UTC+8: POSIX signs); nil: the place's own.
    static func zoneName(_ request: CaiyunRequest) -> String? {
        guard let shift = request.timeShift else { return nil }
        let hours = shift / 3600
        return hours == 0 ? "GMT" : "Etc/GMT" + (hours > 0 ? "-" : "+") + String(abs(hours))
    }

    /// Days before today a `begin` in the past needs: at most two (Caiyun's `begin` is for a
    /// forecast that starts a little earlier, not an archive; the stores keep few past cycles).
    static let maxPastDays = 2

    static func pastDays(_ request: CaiyunRequest, now: Int64) -> Int {
        guard let begin = request.begin, begin < now else { return 0 }
        return min(Self.maxPastDays, Int((now - begin + 86_399) / 86_400))
    }

    /// The offset from UTC at `time` of the answer's zone, in seconds.
    func offset(at time: Int64) -> Int { zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(time))) }

    /// A time as Caiyun writes it: local minutes and the offset, "2021-04-14T19:00+08:00".
    func dateTime(_ time: Int64) -> String {
        let offset = offset(at: time)
        let sign = offset < 0 ? "-" : "+", magnitude = abs(offset)
        let hours = magnitude / 3600, minutes = magnitude % 3600 / 60
        let local = ModelTime.isoMinutes(time + Int64(offset))
        return (local.hasSuffix("Z") ? String(local.dropLast()) : local) + sign + (hours < 10 ? "0" : "") + String(hours) + ":" + (minutes < 10 ? "0" : "") + String(minutes)
    }
}

extension ForecastEngine {
    /// One Caiyun request's forecast: `/v1/forecast`'s parameters built from it and answered
    /// for its one place as `/v1/forecast` answers a place.
    ///
    /// - Throws: `APIError` as `/v1/forecast` refuses (a place outside every domain is marked
    ///   `isOutsideDomains`), 503 for the store.
    func caiyun(_ request: CaiyunRequest, now: Int64) throws(APIError) -> CaiyunForecast {
        // `current`'s amounts are the quarter hour's (`/v1/forecast`'s own): realtime's rate is
        // that amount x 4, the nearest a run comes to a radar's instant, and its skycon the
        // same quarter hour's code.
        let parameters = try ForecastParameters(query: CaiyunForecast.query(request, pastDays: CaiyunForecast.pastDays(request, now: now)))
        // The one engine call of every dialect (`dialectForecast`); the zone is the request's
        // own (`timezone` of the query: `tzshift`'s or the place's), as `place.times` holds it.
        let place = try dialectForecast(parameters, now: now).place
        return CaiyunForecast(place: place, zone: place.times.zone, zoneName: CaiyunForecast.zoneName(request) ?? place.times.zoneName)
    }
}
