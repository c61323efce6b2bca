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
            await self.openWeatherMap(request, maxCount: 40, moves: 60, blocks: { _ in .oneCall(days: 8) }) {
                forecast, owm, now throws(OpenWeatherMapError) in
                try OpenWeatherMapAnswers.oneCall(forecast, request: owm, now: now)
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

    /// One OpenWeatherMap request, with `/v1/forecast`'s protections (`forecast(_:formBody:encoding:)`):
    /// refused while slow clients hold the answer budget or `maxInFlight` requests are being
    /// computed, its answer reserved on the budget while made, computed off the cooperative
    /// pool (`compute`), compressed when the client asks. Every refusal is in OpenWeatherMap's
    /// shape (`OpenWeatherMapError`), never Open-Meteo's.
    ///
    /// - Parameter moves: seconds: the answer's times follow the clock in steps of this (the
    ///   current minute, quarter hour or hour); its ETag and max-age follow them
    ///   (`AnswerValidators`; a matching `If-None-Match` is a 304 before anything is computed).
    func openWeatherMap(_ request: Request, maxCount: Int, moves: Int64, blocks: @escaping OpenWeatherMapBlocks,
                        render: @escaping OpenWeatherMapRender) async -> Response {
        let engine = self.engine, ledger = self.ledger, freshness = configuration.freshness
        let key = request.uri.description, asked = request.headers
        let encoding = request.method == .head ? nil : ContentEncoding.accepted(request.headers[.acceptEncoding])
        do throws(OpenWeatherMapError) {
            let owm = try OpenWeatherMapRequest(query: Self.queryPairs(request.uri), maxCount: maxCount)
            do throws(APIError) { try Self.refuseWhileQueued(ledger) } catch { throw OpenWeatherMapError(error) }
            guard inFlight.enter() else {
                throw OpenWeatherMapError(.serviceUnavailable, "too many requests in flight (\(inFlight.limit)); try again shortly")
            }
            defer { inFlight.leave() }
            if let hook = configuration.beforeForecast { await hook() }
            let now = configuration.now()
            let reservation = AnswerReservation(ledger: ledger)
            defer { reservation.release() }
            typealias Made = (body: [UInt8], encoding: ContentEncoding?)
            let result = await Self.compute { () -> (Result<Made, OpenWeatherMapError>?, AnswerValidators) in
                // The store's state before the answer (as `forecast`'s): a tag never newer than its answer.
                let validators = AnswerValidators(request: key, generation: engine.cycles.generation(), clock: .every(moves, now),
                                                  encoding: encoding, now: now, freshness: freshness)
                if validators.clientHasIt(asked) { return (nil, validators) }
                guard reservation.reserve(Self.openWeatherMapAnswerBytes) else {
                    return (.failure(OpenWeatherMapError(
                        .serviceUnavailable, "answers being made or waiting for slow clients fill the server's send budget; try again shortly")), validators)
                }
                return (Self.openWeatherMapAnswer(engine: engine, request: owm, blocks: blocks(owm), render: render, now: now, encoding: encoding), validators)
            }
            var headers: HTTPFields = [:]
            result.1.add(to: &headers)
            guard let made = result.0 else { return Response(status: .notModified, headers: headers) }
            let answer = try made.get()
            headers[.contentType] = "application/json; charset=utf-8"
            if let used = answer.encoding { headers[.contentEncoding] = used.rawValue }
            return Response(status: .ok, headers: headers, body: Self.queuedBody(answer.body, ledger: ledger))
        } catch {
            return error.response
        }
    }

    /// The answer's bytes (compressed when asked and worth it), made on a worker thread.
    static func openWeatherMapAnswer(engine: ForecastEngine, request: OpenWeatherMapRequest, blocks: OpenWeatherMapForecast.Blocks,
                                     render: OpenWeatherMapRender, now: Int64,
                                     encoding: ContentEncoding?) -> Result<(body: [UInt8], encoding: ContentEncoding?), OpenWeatherMapError> {
        do throws(OpenWeatherMapError) {
            let forecast: OpenWeatherMapForecast
            do throws(APIError) { forecast = try engine.openWeatherMap(request, blocks: blocks, now: now) } catch { throw OpenWeatherMapError(error) }
            let body = Array(try render(forecast, request, now).utf8)
            if let encoding, body.count >= ContentEncoding.minimumBytes, let packed = encoding.compress(body) { return .success((packed, encoding)) }
            return .success((body, nil))
        } catch {
            return .failure(error)
        }
    }
}
