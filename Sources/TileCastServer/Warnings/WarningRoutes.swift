import Foundation
import Hummingbird

extension ForecastServer {
    /// `/v1/warnings?latitude=&longitude=[&format=cap]`: the warnings in force and coming at a
    /// place, by the rules `serve --warnings` read (docs/WARNINGS.md). Without rules it is a
    /// 404 saying how to give them.
    func addWarningRoutes(_ router: Router<BasicRequestContext>) {
        let engine = self.engine, inFlight = self.inFlight, configuration = self.configuration
        router.get("/v1/warnings") { request, _ -> Response in
            guard let rules = configuration.warningRules else {
                throw APIError(.notFound, "this server has no warning rules: start it with --warnings FILE (docs/warnings/mid-latitude.json is a start, docs/WARNINGS.md the format)")
            }
            let query = Self.queryPairs(request.uri)
            func value(_ name: String) -> String? { query.last { $0.name == name }?.value }
            guard let latitude = value("latitude"), let longitude = value("longitude") else {
                throw APIError("Parameter 'latitude' and 'longitude' must be given: the place to warn for")
            }
            let format = value("format") ?? "json"
            guard format == "json" || format == "cap" else {
                throw APIError("Parameter 'format' must be json or cap (CAP 1.2 XML), not '\(APIError.echo(format))'")
            }
            guard inFlight.enter() else {
                throw APIError(.serviceUnavailable, "too many requests in flight (\(inFlight.limit)); try again shortly")
            }
            defer { inFlight.leave() }
            let now = configuration.now()
            let result: Result<WarningAnswer, APIError> = await Self.compute {
                do throws(APIError) { return .success(try engine.warnings(rules, latitude: latitude, longitude: longitude, now: now)) } catch {
                    return .failure(error)
                }
            }
            let answer = try result.get()
            var headers: HTTPFields = [:]
            // Warnings move with the clock (what is in force) and with each cycle: never stored.
            headers[.cacheControl] = "no-store"
            if format == "cap" {
                headers[.contentType] = "application/cap+xml; charset=utf-8"
                let host = request.head.authority ?? configuration.host
                return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: WarningRendering.cap(answer, host: host))))
            }
            headers[.contentType] = "application/json; charset=utf-8"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: WarningRendering.json(answer))))
        }
    }
}
