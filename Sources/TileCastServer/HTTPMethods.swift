import HTTPTypes
import Hummingbird

/// What the server answers for methods other than GET, and the CORS headers every answer
/// carries, applied by `FrontMiddleware` around every route.
///
/// CORS follows Open-Meteo's server (Sources/App/configure.swift: Vapor's `CORSMiddleware` with
/// `allowedOrigin: .all`, methods GET, POST and OPTIONS, ahead of its error middleware), so a
/// page on any origin can read forecasts and errors alike. Two deliberate differences, both
/// supersets: `Access-Control-Allow-Origin: *` is sent whether or not the request names an
/// `Origin` (Vapor adds it only when it does; a cache in front then cannot hand a browser an
/// answer stored without it), and a preflight is allowed the headers it asks for (Vapor allows
/// a fixed list; a browser asking for another header would otherwise be refused).
enum HTTPMethods {
    /// The routes the server has; all answer GET, HEAD and OPTIONS.
    static var routes: Set<String> { ServerMetrics.routes }

    /// Routes that also take their parameters as a POST form body, as Open-Meteo's do.
    static let postRoutes: Set<String> = ["/v1/forecast"]

    /// The methods a route answers: the `Allow` header of a 405 and of OPTIONS alike (OPTIONS
    /// on /v1/forecast left POST out, which schemathesis's ST205 check found).
    static func allowed(_ path: String) -> String {
        postRoutes.contains(path) ? "GET, HEAD, OPTIONS, POST" : "GET, HEAD, OPTIONS"
    }

    /// What a preflight is told (Open-Meteo's Sources/App/configure.swift: GET, POST, OPTIONS).
    static let corsMethods = "GET, POST, OPTIONS"
    /// Open-Meteo's allowed headers (Sources/App/configure.swift), for a preflight that names none.
    static let corsHeaders = "accept, authorization, content-type, origin, x-requested-with, user-agent, access-control-allow-origin"
    /// Vapor's `CORSMiddleware` default `cacheExpiration` (Sources/Vapor/Middleware/CORSMiddleware.swift).
    static let corsMaxAge = "600"

    /// An answer given without routing, or nil to route the request (HEAD is routed to the GET
    /// handler by the router itself: `Router(options: .autoGenerateHeadEndpoints)`).
    ///
    /// - OPTIONS: a CORS preflight (it names `Access-Control-Request-Method`) is answered on any
    ///   path, as Vapor's middleware answers it before routing; a plain OPTIONS on a route is
    ///   answered with `Allow`; on an unknown path it is routed (and found missing, 404).
    /// - A method other than GET, HEAD or OPTIONS on a route is 405 with `Allow`, in Open-Meteo's
    ///   error shape, so a client learns the route exists; on an unknown path it is routed (404).
    static func early(_ request: Request) -> Response? {
        let known = routes.contains(request.uri.path)
        switch request.method {
        case .get, .head:
            return nil
        case .post where postRoutes.contains(request.uri.path):
            return nil
        case .options:
            let preflight = request.headers[.accessControlRequestMethod] != nil
            guard preflight || known else { return nil }
            var headers: HTTPFields = [.allow: allowed(request.uri.path), .accessControlAllowMethods: corsMethods, .accessControlMaxAge: corsMaxAge,
                                       .contentLength: "0"]
            let asked = request.headers[.accessControlRequestHeaders].map(ForecastParameters.trimmed) ?? ""
            headers[.accessControlAllowHeaders] = asked.isEmpty ? corsHeaders : asked
            return Response(status: .ok, headers: headers)
        default:
            guard known else { return nil }
            var response = APIError(.methodNotAllowed, "Method \(request.method.rawValue) is not allowed on \(request.uri.path): use \(postRoutes.contains(request.uri.path) ? "GET or POST" : "GET") (HEAD and OPTIONS are answered too)").response
            response.headers[.allow] = allowed(request.uri.path)
            return response
        }
    }

    /// The answer as sent: CORS on every answer; a HEAD's without its body but with the
    /// GET's headers (its Content-Length included), also for answers given
    /// before routing (414, 405) or for a path the router does not know.
    static func finished(_ response: Response, for request: Request) -> Response {
        var response = request.method == .head ? response.createHeadResponse() : response
        response.headers[.accessControlAllowOrigin] = "*"
        return response
    }
}
