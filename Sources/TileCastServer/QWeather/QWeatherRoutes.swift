import Hummingbird
import HummingbirdCore

extension ForecastServer {
    /// QWeather's v7 paths (issue 45), registered beside `/v1/forecast`: each a renderer over
    /// the one forecast runner (`ForecastEngine.qWeather`) on the shared protected path (`dialect`).
    func addQWeatherRoutes(_ router: Router<BasicRequestContext>) {
        let paths: [(String, QWeatherPath, Int64)] = [
            ("/v7/weather/now", .now, 900),
            ("/v7/weather/24h", .hours(24), 3600), ("/v7/weather/72h", .hours(72), 3600), ("/v7/weather/168h", .hours(168), 3600),
            ("/v7/weather/3d", .days(3), 3600), ("/v7/weather/7d", .days(7), 3600),
            ("/v7/weather/10d", .days(10), 3600), ("/v7/weather/15d", .days(15), 3600),
            ("/v7/minutely/5m", .minutely, 300),
        ]
        for (route, path, moves) in paths {
            router.get(RouterPath(route)) { request, _ -> Response in
                await self.qWeather(request, path: path, moves: moves)
            }
        }
        router.get("/v7/warning/now") { request, _ -> Response in
            await self.qWeatherWarnings(request)
        }
    }

    /// `/v7/warning/now`: the warnings of `serve --warnings` at the place (`QWeatherWarnings`).
    func qWeatherWarnings(_ request: Request) async -> Response {
        let host = request.head.authority.map { String($0.prefix(200)) } ?? "localhost"
        let rules = configuration.warningRules
        return await dialect(request, moves: 900, answerBytes: Self.qWeatherAnswerBytes) { query throws(QWeatherError) in
            try QWeatherRequest(query: query)
        } make: { parsed, engine, now throws(QWeatherError) in
            var answer: WarningAnswer?
            if let rules {
                do throws(APIError) {
                    answer = try engine.warnings(rules, latitude: String(parsed.latitude), longitude: String(parsed.longitude), now: now)
                } catch { throw QWeatherError(error) }
            }
            return QWeatherWarnings.answer(answer, request: parsed, link: "http://\(host)/?lat=\(parsed.latitude)&lon=\(parsed.longitude)", now: now)
        }
    }

    /// A QWeather request target read as its routes read it, and the `/v1/forecast` parameters
    /// each of its paths derives from it (`QWeatherPath.query`): the fuzz target's entry
    /// (fuzz/Sources/FuzzForecastParameters). A derived query that `ForecastParameters` refuses
    /// would be this server's fault, not the client's: a 500 here, for the fuzzer to find.
    ///
    /// - Throws: `QWeatherError` 400 for parameters QWeather's paths refuse.
    package static func qWeatherParameters(target: String) throws(QWeatherError) -> (request: QWeatherRequest, derived: [ForecastParameters]) {
        let request = try QWeatherRequest(query: queryPairs(URI(target)))
        var derived: [ForecastParameters] = []
        for path in [QWeatherPath.now, .hours(168), .days(15), .minutely] {
            do throws(APIError) {
                derived.append(try ForecastParameters(query: path.query(request)))
            } catch {
                throw QWeatherError(.unknownError, "the derived /v1/forecast query was refused: \(error.reason)")
            }
        }
        return (request, derived)
    }

    /// Bytes reserved on the answer budget while a QWeather answer is made: more than its
    /// largest (168 hours of about 330 bytes).
    static let qWeatherAnswerBytes = 128 << 10

    func qWeather(_ request: Request, path: QWeatherPath, moves: Int64) async -> Response {
        // `fxLink`: the page of this server for the place, by the Host the client used.
        let host = request.head.authority.map { String($0.prefix(200)) } ?? "localhost"
        return await dialect(request, moves: moves, answerBytes: Self.qWeatherAnswerBytes) { query throws(QWeatherError) in
            let parsed = try QWeatherRequest(query: query)
            return QWeatherCall(request: parsed, path: path, link: "http://\(host)/?lat=\(parsed.latitude)&lon=\(parsed.longitude)")
        } make: { call, engine, now throws(QWeatherError) in
            let forecast: DialectForecast
            do throws(APIError) { forecast = try engine.qWeather(call.request, path: call.path, now: now) } catch { throw QWeatherError(error) }
            return try QWeatherAnswers.answer(forecast, call: call, now: now)
        }
    }
}
