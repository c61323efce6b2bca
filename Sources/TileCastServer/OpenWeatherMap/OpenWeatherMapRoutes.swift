import Hummingbird
import HummingbirdCore

/// Which `/v1/forecast` blocks a path's answer is made from, given its request.
typealias OpenWeatherMapBlocks = @Sendable (OpenWeatherMapRequest) -> OpenWeatherMapForecast.Blocks
/// A path's JSON from the forecast, its request and the server's clock.
typealias OpenWeatherMapRender = @Sendable (OpenWeatherMapForecast, OpenWeatherMapRequest, Int64) throws(OpenWeatherMapError) -> String

extension ForecastServer {
    /// OpenWeatherMap's paths (issue 45): registered here, beside `/v1/forecast`. Each is a
    /// renderer over the one forecast runner (`ForecastEngine.openWeatherMap`), answered with
    /// the protections of `/v1/forecast` (`openWeatherMap(_:maxCount:blocks:render:)`).
    func addOpenWeatherMapRoutes(_ router: Router<BasicRequestContext>) {
        router.get("/data/2.5/weather") { request, _ -> Response in
            // The current quarter hour's conditions.
            await self.openWeatherMap(request, maxCount: 1, moves: 900, blocks: { _ in .current }) { forecast, owm, _ throws(OpenWeatherMapError) in
                try OpenWeatherMapAnswers.current(forecast, units: owm.units)
            }
        }
        router.get("/data/2.5/forecast") { request, _ -> Response in
            // Six UTC days of 3-hour steps hold the 40 steps after any time of today.
            await self.openWeatherMap(request, maxCount: 40, moves: 3600, blocks: { _ in .threeHourly(days: 6) }) {
                forecast, owm, now throws(OpenWeatherMapError) in
                OpenWeatherMapAnswers.threeHourly(forecast, units: owm.units, now: now, count: owm.count)
            }
        }
        router.get("/data/2.5/forecast/daily") { request, _ -> Response in
            await self.openWeatherMap(request, maxCount: 16, moves: 3600, blocks: { .daily(days: $0.count ?? 7) }) {
                forecast, owm, _ throws(OpenWeatherMapError) in
                OpenWeatherMapAnswers.daily(forecast, units: owm.units, count: owm.count)
            }
        }
        router.get("/data/3.0/onecall") { request, _ -> Response in
            // `minutely` starts at the current minute.
            let engine = self.engine, rules = self.configuration.warningRules
            return await self.openWeatherMap(request, maxCount: 40, moves: 60, blocks: { _ in .oneCall(days: 8) }) {
                forecast, owm, now throws(OpenWeatherMapError) in
                // `alerts`: the warnings `serve --warnings` gives at the place (issue 46); none without rules.
                var warnings: WarningAnswer?
                if let rules, !owm.exclude.contains(.alerts) {
                    do throws(APIError) {
                        warnings = try engine.warnings(rules, latitude: String(owm.latitude), longitude: String(owm.longitude), now: now)
                    } catch { throw OpenWeatherMapError(error) }
                }
                return try OpenWeatherMapAnswers.oneCall(forecast, request: owm, now: now, warnings: warnings)
            }
        }
    }

    /// An OpenWeatherMap request target read as its routes read it, and the `/v1/forecast`
    /// parameters each path derives from it (`OpenWeatherMapForecast.query`): the fuzz target's
    /// entry (fuzz/Sources/FuzzForecastParameters). A derived query that `ForecastParameters`
    /// refuses would be this server's fault, not the client's: a 500 here, for the fuzzer to find.
    ///
    /// - Throws: `OpenWeatherMapError` 400 for parameters OpenWeatherMap's paths refuse.
    package static func openWeatherMapParameters(target: String,
                                                 maxCount: Int) throws(OpenWeatherMapError) -> (request: OpenWeatherMapRequest,
                                                                                                derived: [ForecastParameters]) {
        let request = try OpenWeatherMapRequest(query: queryPairs(URI(target)), maxCount: maxCount)
        var derived: [ForecastParameters] = []
        for blocks in [OpenWeatherMapForecast.Blocks.current, .threeHourly(days: 6), .daily(days: request.count ?? 7), .oneCall(days: 8)] {
            do throws(APIError) {
                derived.append(try ForecastParameters(query: OpenWeatherMapForecast.query(request, blocks: blocks)))
            } catch {
                throw OpenWeatherMapError(.internalServerError, "the derived /v1/forecast query was refused: \(error.reason)")
            }
        }
        return (request, derived)
    }

    /// Bytes reserved on the answer budget while an OpenWeatherMap answer is made: more than
    /// its largest (40 steps of about 700 bytes, or a One Call answer of 48 hours and 8 days).
    static let openWeatherMapAnswerBytes = 128 << 10

    /// One OpenWeatherMap request over the shared path (`dialect`): its refusals in
    /// OpenWeatherMap's shape (`OpenWeatherMapError`).
    func openWeatherMap(_ request: Request, maxCount: Int, moves: Int64, blocks: @escaping OpenWeatherMapBlocks,
                        render: @escaping OpenWeatherMapRender) async -> Response {
        await dialect(request, moves: moves, answerBytes: Self.openWeatherMapAnswerBytes) { query throws(OpenWeatherMapError) in
            try OpenWeatherMapRequest(query: query, maxCount: maxCount)
        } make: { owm, engine, now throws(OpenWeatherMapError) in
            let forecast: OpenWeatherMapForecast
            do throws(APIError) { forecast = try engine.openWeatherMap(owm, blocks: blocks(owm), now: now) } catch { throw OpenWeatherMapError(error) }
            return try render(forecast, owm, now)
        }
    }
}
