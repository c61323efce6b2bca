import Catalog
import Foundation
import Meteorology
import ObjectStore
import PointQuery

/// The forecast an OpenWeatherMap answer is made from: `/v1/forecast`'s own request, run by the
/// same runner (`ForecastEngine.placeOrNulls`: best match, kept cycles, units, time windows),
/// so each number is the one `/v1/forecast` answers for the same place and time.
struct OpenWeatherMapForecast: Sendable {
    let place: PlaceForecast
    /// The place's IANA zone (`TimeZoneTable`) and its offset from UTC now, in seconds.
    let zone: TimeZone
    let offset: Int

    /// The variables every OpenWeatherMap row is made from, by their `/v1/forecast` names.
    static let variables: [ForecastVariable] = [
        .temperature2m, .apparentTemperature, .relativeHumidity2m, .dewPoint2m, .pressureMSL, .surfacePressure, .cloudCover,
        .windSpeed10m, .windDirection10m, .windGusts10m, .visibility, .precipitation, .snowfallWaterEquivalent,
        .weatherCode, .isDay, .precipitationProbability,
    ]

    /// The blocks of `/v1/forecast` each OpenWeatherMap path asks for (besides place and units).
    enum Blocks {
        /// `current`: the values now (the current quarter hour), in the place's zone.
        case current
        /// `hourly` on `temporal_resolution=hourly_3` from today's UTC midnight: steps at 00, 03,
        /// ... 21 UTC, each amount over the 3 hours before it, as OpenWeatherMap's 3-hour list.
        case threeHourly(days: Int)
        /// One Call's: `current`, `minutely_15` precipitation for the next 90 minutes, and
        /// `hourly` and `daily` (`OpenWeatherMapDays.names`) over `days` local days.
        case oneCall(days: Int)
        /// `daily` (`OpenWeatherMapDays.names`) and `hourly` over `days` local days.
        case daily(days: Int)

        var query: [(name: String, value: String)] {
            let names = OpenWeatherMapForecast.variables.map(\.rawValue).joined(separator: ",")
            switch self {
            case .current: return [("current", names), ("timezone", "auto")]
            case .threeHourly(let days):
                return [("hourly", names), ("temporal_resolution", "hourly_3"), ("forecast_days", String(days)), ("timezone", "GMT")]
            case .oneCall(let days):
                return [("current", names), ("hourly", names), ("daily", OpenWeatherMapDays.names.joined(separator: ",")),
                        ("minutely_15", "precipitation"), ("forecast_minutely_15", "7"), ("forecast_days", String(days)), ("timezone", "auto")]
            case .daily(let days):
                // At most `/v1/forecast`'s 16 days (the daily path's `cnt` is at most 16 already).
                return [("hourly", names), ("daily", OpenWeatherMapDays.names.joined(separator: ",")),
                        ("forecast_days", String(min(days, ForecastParameters.maxDays))),
                        ("timezone", "auto")]
            }
        }
    }

    /// The `/v1/forecast` query of an OpenWeatherMap request: the tests ask `/v1/forecast` the
    /// same to compare.
    static func query(_ request: OpenWeatherMapRequest, blocks: Blocks) -> [(name: String, value: String)] {
        let units = request.units.forecastUnits
        return [("latitude", String(request.latitude)), ("longitude", String(request.longitude)),
                ("temperature_unit", units.temperature.rawValue), ("wind_speed_unit", units.windSpeed.rawValue),
                ("precipitation_unit", units.precipitation.rawValue)] + blocks.query
    }

    init(_ base: DialectForecast) {
        place = base.place
        zone = base.zone
        offset = base.offset
    }

    /// Sunrise and sunset on the local day holding `time` (`DialectForecast.sun`).
    func sun(on time: Int64) -> (sunrise: Int64, sunset: Int64)? { DialectForecast(place: place, zone: zone, offset: offset).sun(on: time) }
}

extension ForecastEngine {
    /// One OpenWeatherMap request's forecast: `/v1/forecast`'s parameters built from it and
    /// answered for its one place as `/v1/forecast` answers a place.
    ///
    /// - Throws: `APIError` as `/v1/forecast` refuses (a place outside every domain is marked
    ///   `isOutsideDomains`), 503 for the store.
    func openWeatherMap(_ request: OpenWeatherMapRequest, blocks: OpenWeatherMapForecast.Blocks, now: Int64) throws(APIError) -> OpenWeatherMapForecast {
        var parameters = try ForecastParameters(query: OpenWeatherMapForecast.query(request, blocks: blocks))
        // `rain.1h` and `snow.1h` of `current` are OpenWeatherMap's "last 1 hour" (its current
        // weather page), not `/v1/forecast`'s quarter hour; the condition follows the same hour.
        parameters.currentAmountsOverTheHour = true
        return OpenWeatherMapForecast(try dialectForecast(parameters, now: now))
    }
}
