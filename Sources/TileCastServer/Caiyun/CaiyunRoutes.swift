import Hummingbird
import HummingbirdCore

extension ForecastServer {
    /// Caiyun's v2.5 paths (issue 45): `/v2.5/{token}/{lon},{lat}/{part}` and `{part}.json` for
    /// `realtime`, `minutely`, `hourly`, `daily` and `weather`, each a renderer over the one
    /// forecast runner (`ForecastEngine.caiyun`) with the protections of `/v1/forecast` (`dialect`).
    func addCaiyunRoutes(_ router: Router<BasicRequestContext>) {
        for part in CaiyunPart.allCases {
            for name in [part.rawValue, part.rawValue + ".json"] {
                router.get("/v2.5/:token/:place/\(name)") { request, context -> Response in
                    await self.caiyun(request, token: context.parameters.get("token") ?? "", place: context.parameters.get("place") ?? "",
                                      part: part)
                }
            }
        }
    }

    /// A Caiyun request (its path's token and place, and its query) read as its routes read it,
    /// and the `/v1/forecast` parameters it derives (`CaiyunForecast.query`, with the days
    /// `begin` reaches back at `now`): the fuzz target's entry (fuzz/Sources/FuzzForecastParameters).
    /// A derived query that `ForecastParameters` refuses would be this server's fault: a 500.
    ///
    /// - Throws: `CaiyunError` 400 (401 for a malformed token) for what Caiyun's paths refuse.
    package static func caiyunParameters(token: String, place: String, query: String,
                                         now: Int64) throws(CaiyunError) -> (request: CaiyunRequest, derived: ForecastParameters) {
        let request = try CaiyunRequest(token: token, place: place, part: .weather, query: queryPairs(URI("/?" + query)))
        do throws(APIError) {
            return (request, try ForecastParameters(query: CaiyunForecast.query(request, pastDays: CaiyunForecast.pastDays(request, now: now))))
        } catch {
            throw CaiyunError(.internalServerError, "the derived /v1/forecast query was refused: \(error.reason)")
        }
    }

    /// Bytes reserved on the answer budget while a Caiyun answer is made: more than its largest
    /// (`/weather` with 360 hours of about 900 bytes and 15 days of about 3 kB).
    static let caiyunAnswerBytes = 512 << 10

    /// One Caiyun request over the shared path (`dialect`): its refusals in Caiyun's shape
    /// (`CaiyunError`). The answer's times follow the clock minute by minute (`minutely`).
    func caiyun(_ request: Request, token: String, place: String, part: CaiyunPart) async -> Response {
        let rules = configuration.warningRules
        return await dialect(request, moves: 60, answerBytes: Self.caiyunAnswerBytes) { query throws(CaiyunError) in
            try CaiyunRequest(token: token, place: place, part: part, query: query)
        } make: { caiyun, engine, now throws(CaiyunError) in
            let forecast: CaiyunForecast
            do throws(APIError) { forecast = try engine.caiyun(caiyun, now: now) } catch { throw CaiyunError(error) }
            // `alert=true` on `/weather`: the warnings `serve --warnings` gives at the place (issue 46); none without rules.
            var warnings: WarningAnswer?
            if let rules, caiyun.part == .weather, caiyun.alert {
                do throws(APIError) {
                    warnings = try engine.warnings(rules, latitude: String(caiyun.latitude), longitude: String(caiyun.longitude), now: now)
                } catch { throw CaiyunError(error) }
            }
            return try CaiyunAnswers.answer(forecast, request: caiyun, now: now, warnings: warnings)
        }
    }
}
