// The same input's query read as an OpenWeatherMap request (issue 45), as its routes read it
// (`ForecastServer.openWeatherMapParameters`), with the `/v1/forecast` parameters each of its
// paths derives.
//
// Contract checked: either a place in OpenWeatherMap's ranges, `cnt` within the path's limit,
// and derived parameters that `ForecastParameters` accepts for that one place and whose times
// `RequestTimes` works out (`checkLimits`, `checkTimes`); or OpenWeatherMap's 400, its body
// `{"cod": "400", "message": ...}` as JSON. Never a crash, never another status (a derived query
// refused is a 500: the server's own fault).
import Foundation
import TileCastServer

func checkOpenWeatherMap(_ query: String) {
    for (path, maxCount) in [("/data/2.5/forecast", 40), ("/data/2.5/forecast/daily", 16)] {
        do {
            let (request, derived) = try ForecastServer.openWeatherMapParameters(target: path + "?" + query, maxCount: maxCount)
            guard request.latitude.isFinite, abs(request.latitude) <= 90, request.longitude.isFinite, abs(request.longitude) <= 180,
                  (request.count ?? 1) >= 1, (request.count ?? 1) <= maxCount else {
                fatalError("\(path) accepted \(request.latitude), \(request.longitude), cnt \(String(describing: request.count))")
            }
            for parameters in derived {
                guard parameters.latitudes == [request.latitude], parameters.longitudes == [request.longitude] else {
                    fatalError("\(path): derived places \(parameters.latitudes), \(parameters.longitudes) for \(request.latitude), \(request.longitude)")
                }
                checkLimits(parameters)
                checkTimes(parameters)
            }
        } catch {
            let body = Data(error.body.utf8)
            guard error.status == .badRequest, !error.message.isEmpty,
                  let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any], object["cod"] as? String == "400",
                  object["message"] as? String == error.message else {
                fatalError("\(path) refused with \(error.status): \(error.body)")
            }
        }
    }
}
