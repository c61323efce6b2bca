// The same input's query read as a QWeather request (issue 45), as its routes read it
// (`ForecastServer.qWeatherParameters`), with the `/v1/forecast` parameters each of its paths
// derives.
//
// Contract checked: either a place in range and derived parameters that `ForecastParameters`
// accepts for that one place and whose times `RequestTimes` works out (`checkLimits`,
// `checkTimes`); or QWeather's 400, its body `{"error": {"status": 400, "title": ..., "detail": ...}}`
// as JSON. Never a crash, never another status (a derived query refused is a 500: the server's
// own fault).
import Foundation
import TileCastServer

func checkQWeather(_ query: String) {
    do {
        let (request, derived) = try ForecastServer.qWeatherParameters(target: "/v7/weather/24h?" + query)
        guard request.latitude.isFinite, abs(request.latitude) <= 90, request.longitude.isFinite, abs(request.longitude) <= 180 else {
            fatalError("/v7 accepted \(request.latitude), \(request.longitude)")
        }
        for parameters in derived {
            guard parameters.latitudes == [request.latitude], parameters.longitudes == [request.longitude] else {
                fatalError("/v7: derived places \(parameters.latitudes), \(parameters.longitudes) for \(request.latitude), \(request.longitude)")
            }
            checkLimits(parameters)
            checkTimes(parameters)
        }
    } catch {
        guard error.status == .badRequest, !error.detail.isEmpty,
              let object = try? JSONSerialization.jsonObject(with: Data(error.body.utf8)) as? [String: Any],
              let problem = object["error"] as? [String: Any], problem["status"] as? Int == 400, problem["detail"] as? String == error.detail else {
            fatalError("/v7 refused with \(error.status): \(error.body)")
        }
    }
}
