import Foundation
import Meteorology
import ObjectStore
import PointQuery

/// The forecast another service's answer (OpenWeatherMap's, QWeather's, Caiyun's) is made
/// from: `/v1/forecast`'s own request, run by the same runner (`ForecastEngine.placeOrNulls`:
/// best match, kept cycles, units, time windows), so each number is the one `/v1/forecast`
/// answers for the same place and time; and the place's zone, which each API writes times in.
struct DialectForecast: Sendable {
    let place: PlaceForecast
    /// The place's IANA zone (`TimeZoneTable`) and its offset from UTC now, in seconds.
    let zone: TimeZone
    let offset: Int

    /// Sunrise and sunset (seconds since 1970, to the minute as `/v1/forecast`'s daily values)
    /// on the local day holding `time`; nil when the sun stays up or down all day.
    func sun(on time: Int64) -> (sunrise: Int64, sunset: Int64)? {
        let offset = Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(time))))
        let localMidnight = Int64((Double(time + offset) / 86_400).rounded(.down)) * 86_400 - offset
        let latitude = place.forecast.latitude, longitude = place.forecast.longitude
        guard case .risesAndSets(let sunrise, let sunset) = SolarPosition.day(latitude: latitude, longitude: longitude,
                                                                            noonGuess: Double(localMidnight + 43_200)) else { return nil }
        func minute(_ time: Double) -> Int64 { Int64((time / 60).rounded()) * 60 }
        return (minute(sunrise), minute(sunset))
    }
}

extension ForecastEngine {
    /// The forecast of one place that `parameters` (a `/v1/forecast` query built by a
    /// dialect's request) asks for, answered as `/v1/forecast` answers a place.
    ///
    /// - Throws: `APIError` as `/v1/forecast` refuses (a place outside every domain is marked
    ///   `isOutsideDomains`), 503 for the store.
    func dialectForecast(_ parameters: ForecastParameters, now: Int64) throws(APIError) -> DialectForecast {
        let stores = try stores(for: nil)
        guard let job = try Self.jobs(parameters, now: now).first else { throw APIError("Nothing to geocode") }
        // A remote store's reads end by the request's deadline, as in `respond`.
        let placed: Result<PlaceForecast, APIError> = ObjectClient.within(cycles.requestDeadline()) {
            do throws(APIError) {
                return .success(try self.placeOrNulls(latitude: job.latitude, longitude: job.longitude, elevation: nil,
                                                      parameters: parameters, times: job.times, stores: stores))
            } catch { return .failure(error) }
        }
        let place = try placed.get()
        let zone = TimeZoneTable.zone(latitude: job.latitude, longitude: job.longitude).zone
        return DialectForecast(place: place, zone: zone, offset: zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(now))))
    }
}
