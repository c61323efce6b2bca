// The same input read as a Caiyun request (issue 45), as its routes read it
// (`ForecastServer.caiyunParameters`): the input's first line is the path's token, its second
// the place ("lon,lat"), the rest the query; with the `/v1/forecast` parameters it derives.
//
// Contract checked: either a place in range, steps within Caiyun's limits and derived parameters
// that `ForecastParameters` accepts for that one place and whose times `RequestTimes` works out
// (`checkLimits`, `checkTimes`); or Caiyun's 400 or 401, its body
// `{"status": "failed", "error": ..., "api_version": "v2.5"}`. Never a crash, never another status.
import Foundation
import TileCastServer

func checkCaiyun(_ input: String) {
    let lines = input.split(separator: "\n", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
    let token = lines.first ?? "", place = lines.count > 1 ? lines[1] : "", query = lines.count > 2 ? lines[2] : ""
    do {
        let (request, parameters) = try ForecastServer.caiyunParameters(token: token, place: place, query: query, now: 1_795_313_400)
        guard request.latitude.isFinite, abs(request.latitude) <= 90, request.longitude.isFinite, abs(request.longitude) <= 180,
              (1...360).contains(request.hourlySteps), (1...15).contains(request.dailySteps) else {
            fatalError("Caiyun accepted \(request.latitude), \(request.longitude), steps \(request.hourlySteps)/\(request.dailySteps)")
        }
        guard parameters.latitudes == [request.latitude], parameters.longitudes == [request.longitude] else {
            fatalError("Caiyun: derived places \(parameters.latitudes), \(parameters.longitudes)")
        }
        checkLimits(parameters)
        checkTimes(parameters)
    } catch {
        guard [400, 401].contains(error.status.code), !error.message.isEmpty,
              let object = try? JSONSerialization.jsonObject(with: Data(error.body.utf8)) as? [String: Any],
              object["status"] as? String == "failed", object["error"] as? String == error.message else {
            fatalError("Caiyun refused with \(error.status): \(error.body)")
        }
    }
}
