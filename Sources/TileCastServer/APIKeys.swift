import Foundation
import Hummingbird
import Synchronization

/// `serve --api-keys FILE` (issue 45): the keys a client must send, one a line, read at start
/// and again on SIGHUP (`reload`). With it every API refuses a missing or unknown key in its own
/// error shape (`APIKeyMiddleware`); without it keys are accepted and ignored. A key is never
/// logged or counted in a metric: the access log prints targets through `redacted`.
package final class APIKeys: Sendable {
    package let path: String
    private let keys: Mutex<Set<String>>

    /// The keys of `path`.
    ///
    /// - Throws: `APIKeysError` for a file that cannot be read or a line that is no key.
    package init(path: String) throws(APIKeysError) {
        self.path = path
        keys = Mutex(try Self.read(path))
    }

    /// Reads the file again; on an error the keys held stay as they were.
    ///
    /// - Returns: how many keys are held now.
    /// - Throws: `APIKeysError` as `init` does.
    @discardableResult
    package func reload() throws(APIKeysError) -> Int {
        let fresh = try Self.read(path)
        keys.withLock { $0 = fresh }
        return fresh.count
    }

    package var count: Int { keys.withLock { $0.count } }

    /// Whether `key` is one of the file's.
    package func accepts(_ key: String?) -> Bool {
        guard let key, !key.isEmpty else { return false }
        return keys.withLock { $0.contains(key) }
    }

    /// One key a line; blank lines and lines starting with `#` are skipped; spaces and tabs
    /// around a key are not part of it. A line with a space or tab inside is refused (two keys
    /// on one line, or a key a client could not send in a URL as written).
    static func read(_ path: String) throws(APIKeysError) -> Set<String> {
        guard let data = FileManager.default.contents(atPath: path) else { throw .unreadable(path: path) }
        guard let text = String(data: data, encoding: .utf8) else { throw .notText(path: path) }
        var keys: Set<String> = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let key = ForecastParameters.trimmed(line.hasSuffix("\r") ? line.dropLast() : line)
            if key.isEmpty || key.hasPrefix("#") { continue }
            guard !key.contains(where: { $0 == " " || $0 == "\t" }) else { throw .badLine(path: path, line: number + 1) }
            keys.insert(key)
        }
        return keys
    }

    /// A request target as logs print it: the values of `apikey`, `appid`, `key` and `token`
    /// as `***`, and the token segment of Caiyun's paths (`/v2.5/TOKEN/...`).
    package static func redacted(_ target: Substring) -> Substring {
        let hasQueryKey = target.contains("key=") || target.contains("appid=") || target.contains("token=")
        guard hasQueryKey || target.hasPrefix("/v2.5/") else { return target }
        var path = target, query: Substring?
        if let mark = target.firstIndex(of: "?") {
            path = target[..<mark]
            query = target[target.index(after: mark)...]
        }
        var out = String(path)
        if path.hasPrefix("/v2.5/") {
            let segments = path.split(separator: "/", omittingEmptySubsequences: false)
            out = segments.enumerated().map { $0.offset == 2 ? "***" : String($0.element) }.joined(separator: "/")
        }
        if let query {
            let secret: Set<Substring> = ["apikey", "appid", "key", "token"]
            out += "?" + query.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
                guard let equals = pair.firstIndex(of: "="), secret.contains(pair[..<equals]) else { return String(pair) }
                return pair[...equals] + "***"
            }.joined(separator: "&")
        }
        return Substring(out)
    }
}

/// Why `--api-keys FILE` cannot be used, naming the file (and line).
package enum APIKeysError: Error, CustomStringConvertible, Equatable {
    case unreadable(path: String)
    case notText(path: String)
    case badLine(path: String, line: Int)

    package var description: String {
        switch self {
        case .unreadable(let path): return "\(path): cannot read the API keys file"
        case .notText(let path): return "\(path): the API keys file is not UTF-8 text"
        case .badLine(let path, let line): return "\(path):\(line): expected one key a line, without spaces"
        }
    }
}

/// With `--api-keys`, each API's requests without a known key are refused in that API's own
/// shape: Open-Meteo's paths (`apikey`) with its `{"error": true, "reason": ...}` and 401;
/// OpenWeatherMap's (`appid`) with its 401 body; QWeather's (`key`) with its error v2 body;
/// Caiyun's (the path's token) with its `{"status": "failed", ...}` and 401. The page,
/// `/health` and `/metrics` need none.
struct APIKeyMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext
    let keys: APIKeys

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        if path.hasPrefix("/v1/") {
            guard keys.accepts(request.uri.queryParameters.get("apikey")) else {
                throw APIError(.unauthorized, "API key missing or not known to this server: send apikey=YOUR_KEY")
            }
        } else if path.hasPrefix("/data/") {
            guard keys.accepts(request.uri.queryParameters.get("appid")) else {
                // OpenWeatherMap's own words and number (its "401 error" FAQ entry).
                return OpenWeatherMapError(.unauthorized, "Invalid API key. Please see https://openweathermap.org/faq#error401 for more info.").response
            }
        } else if path.hasPrefix("/v7/") {
            guard keys.accepts(request.uri.queryParameters.get("key")) else {
                // QWeather gives no reason for a refused key (its error code v2 page).
                return QWeatherError(.unauthorized, "Authentication failed: send key=YOUR_KEY known to this server").response
            }
        } else if path.hasPrefix("/v2.5/") {
            // Caiyun's token is the path's segment after /v2.5/ (`/v2.5/TOKEN/lon,lat/realtime`).
            let token = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst(2).first.map(String.init)
            guard keys.accepts(token) else { return CaiyunError(.unauthorized, "token is invalid").response }
        }
        return try await next(request, context)
    }
}
