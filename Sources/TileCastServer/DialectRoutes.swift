import Hummingbird
import HummingbirdCore

/// An API's own error answer (OpenWeatherMap's, QWeather's, Caiyun's): how each refusal of the
/// shared path (`ForecastServer.dialect`) is said in that API's shape and status.
protocol DialectError: Error, Sendable {
    /// The forecast runner's refusal (`APIError`) in this API's terms: a place outside every
    /// domain as the API answers a place it does not know; load and store refusals keep 503.
    init(_ error: APIError)
    /// A refusal for load (the answer budget, requests in flight): a 503 in this API's shape.
    static func unavailable(_ message: String) -> Self
    var response: Response { get }
}

extension ForecastServer {
    /// One request of another service's API (issue 45), with `/v1/forecast`'s protections
    /// (`forecast(_:formBody:encoding:)`): refused while slow clients hold the answer budget or
    /// `maxInFlight` requests are being computed, its answer reserved on the budget while made,
    /// computed off the cooperative pool (`compute`), compressed when the client asks. Every
    /// refusal is in the API's own shape (`Failure`), never Open-Meteo's. Each API's routes give
    /// only what differs: how its request is read and how its answer is made.
    ///
    /// - Parameters:
    ///   - moves: seconds: the answer's times follow the clock in steps of this (the current
    ///     minute, quarter hour or hour); its ETag and max-age follow them (`AnswerValidators`;
    ///     a matching `If-None-Match` is a 304 before anything is computed).
    ///   - answerBytes: reserved on the answer budget while the answer is made: more than its largest.
    ///   - parse: the request's query pairs read and checked (on the event loop: cheap).
    ///   - make: the answer's JSON from the parsed request and the server's clock, on a worker thread.
    func dialect<Parsed: Sendable, Failure: DialectError>(
        _ request: Request, moves: Int64, answerBytes: Int,
        parse: (_ query: [(name: String, value: String)]) throws(Failure) -> Parsed,
        make: @escaping @Sendable (_ parsed: Parsed, _ engine: ForecastEngine, _ now: Int64) throws(Failure) -> String
    ) async -> Response {
        let engine = self.engine, ledger = self.ledger, freshness = configuration.freshness
        let key = request.uri.description, asked = request.headers
        let encoding = request.method == .head ? nil : ContentEncoding.accepted(request.headers[.acceptEncoding])
        do throws(Failure) {
            let parsed = try parse(Self.queryPairs(request.uri))
            do throws(APIError) { try Self.refuseWhileQueued(ledger) } catch { throw Failure(error) }
            guard inFlight.enter() else {
                throw Failure.unavailable("too many requests in flight (\(inFlight.limit)); try again shortly")
            }
            defer { inFlight.leave() }
            if let hook = configuration.beforeForecast { await hook() }
            let now = configuration.now()
            let reservation = AnswerReservation(ledger: ledger)
            defer { reservation.release() }
            typealias Made = (body: [UInt8], encoding: ContentEncoding?)
            let result = await Self.compute { () -> (Result<Made, Failure>?, AnswerValidators) in
                // The store's state before the answer (as `forecast`'s): a tag never newer than its answer.
                let validators = AnswerValidators(request: key, generation: engine.cycles.generation(), clock: .every(moves, now),
                                                  encoding: encoding, now: now, freshness: freshness)
                if validators.clientHasIt(asked) { return (nil, validators) }
                guard reservation.reserve(answerBytes) else {
                    return (.failure(Failure.unavailable(
                        "answers being made or waiting for slow clients fill the server's send budget; try again shortly")), validators)
                }
                do throws(Failure) {
                    let body = Array(try make(parsed, engine, now).utf8)
                    if let encoding, body.count >= ContentEncoding.minimumBytes, let packed = encoding.compress(body) {
                        return (.success((packed, encoding)), validators)
                    }
                    return (.success((body, nil)), validators)
                } catch {
                    return (.failure(error), validators)
                }
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
}
