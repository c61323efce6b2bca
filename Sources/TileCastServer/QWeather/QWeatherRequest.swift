import Hummingbird
import PointQuery

/// QWeather's `unit`: `m` (°C, km/h, km) or `i` (°F, mph, miles). Pressure stays in hPa and
/// precipitation in mm in both, as its "Unit" page lists them.
package enum QWeatherUnits: String, Sendable, CaseIterable {
    case metric = "m", imperial = "i"

    /// The units the forecast runner answers in (visibility is converted by the renderer).
    var forecastUnits: OutputUnits {
        OutputUnits(temperature: self == .imperial ? .fahrenheit : .celsius, windSpeed: self == .imperial ? .mph : .kmh, precipitation: .mm)
    }
}

/// The languages QWeather's texts are written in here: Chinese (its default) and English.
/// QWeather answers a language it has no text for in English; so does this server.
package enum QWeatherLanguage: String, Sendable {
    case zh, en

    /// A `lang` value: zh, zh-hans, zh-cn (any case) are Chinese; every other language code English.
    init(code: String) {
        self = ["zh", "zh-hans", "zh-cn", "zh_cn", "cn"].contains(code.lowercased()) ? .zh : .en
    }
}

/// One QWeather v7 request (`/v7/weather/now`, `24h`, `72h`, `168h`, `3d`, `7d`, `10d`, `15d`,
/// `/v7/minutely/5m`), parsed and checked. The place is `location=lon,lat` (longitude first, as
/// QWeather writes it); LocationIDs need QWeather's own city list, which this server has not.
package struct QWeatherRequest: Sendable {
    package var latitude: Double
    package var longitude: Double
    package var units = QWeatherUnits.metric
    package var language = QWeatherLanguage.zh

    /// Parses `location`, `unit` and `lang`; `key` is checked by `APIKeyMiddleware` when keys
    /// are configured and ignored otherwise. Unknown parameters are ignored.
    ///
    /// - Throws: `QWeatherError` 400 in QWeather's v2 error shape, naming the parameter.
    package init(query: [(name: String, value: String)]) throws(QWeatherError) {
        var values: [String: String] = [:]
        for (name, value) in query { values[name] = ForecastParameters.trimmed(value) }
        guard let location = values["location"], !location.isEmpty else {
            throw QWeatherError(.missingParameter, "location is required: location=LONGITUDE,LATITUDE", parameters: ["location"])
        }
        let parts = location.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            // A LocationID (digits) names a city in QWeather's own list.
            throw QWeatherError(.notFound, "this server knows places by coordinates only: location=LONGITUDE,LATITUDE. Given: \(APIError.echo(location))")
        }
        guard let longitude = Double(ForecastParameters.trimmed(parts[0])), longitude.isFinite, (-180...180).contains(longitude),
              let latitude = Double(ForecastParameters.trimmed(parts[1])), latitude.isFinite, (-90...90).contains(latitude) else {
            throw QWeatherError(.invalidParameter, "location must be LONGITUDE,LATITUDE in decimal degrees (-180..180, -90..90). Given: \(APIError.echo(location))",
                                parameters: ["location"])
        }
        self.latitude = latitude
        self.longitude = longitude
        if let text = values["unit"], !text.isEmpty {
            guard let units = QWeatherUnits(rawValue: text) else {
                throw QWeatherError(.invalidParameter, "unit must be m or i. Given: \(APIError.echo(text))", parameters: ["unit"])
            }
            self.units = units
        }
        if let text = values["lang"], !text.isEmpty {
            guard text.utf8.count <= 10, text.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || (65...122).contains($0) }) else {
                throw QWeatherError(.invalidParameter, "lang must be a language code such as zh or en. Given: \(APIError.echo(text))", parameters: ["lang"])
            }
            language = QWeatherLanguage(code: text)
        }
    }
}

/// QWeather's error answer, its "error code v2": the HTTP status and a problem object,
/// `{"error": {"status": 400, "type": ..., "title": ..., "detail": ..., "invalidParams": [...]}}`.
package struct QWeatherError: DialectError, Equatable {
    /// The kinds of QWeather's error code v2 page that this server can give.
    package enum Kind: String, Sendable {
        case invalidParameter = "invalid-parameter", missingParameter = "missing-parameter", notFound = "not-found"
        case dataNotAvailable = "data-not-available", unauthorized, tooManyRequests = "too-many-requests"
        case unknownError = "unknown-error"

        var status: HTTPResponse.Status {
            switch self {
            case .invalidParameter, .missingParameter, .notFound, .dataNotAvailable: return .badRequest
            case .unauthorized: return .unauthorized
            case .tooManyRequests: return .tooManyRequests
            case .unknownError: return .internalServerError
            }
        }

        var title: String {
            switch self {
            case .invalidParameter: return "Invalid Parameter"
            case .missingParameter: return "Missing Parameter"
            case .notFound: return "Not Found"
            case .dataNotAvailable: return "Data Not Available"
            case .unauthorized: return "Unauthorized"
            case .tooManyRequests: return "Too Many Requests"
            case .unknownError: return "Unknown Error"
            }
        }
    }

    package let status: HTTPResponse.Status
    package let kind: Kind
    package let detail: String
    package let parameters: [String]

    package init(_ kind: Kind, _ detail: String, parameters: [String] = [], status: HTTPResponse.Status? = nil) {
        self.kind = kind
        self.status = status ?? kind.status
        self.detail = detail
        self.parameters = parameters
    }

    /// The forecast runner's refusal in QWeather's terms: a place outside every domain is its
    /// "Data Not Available" (data for the place is not served); a refusal for load or the
    /// store keeps its 503.
    init(_ error: APIError) {
        if error.isOutsideDomains {
            self.init(.dataNotAvailable, error.reason)
        } else if error.status == .badRequest {
            self.init(.invalidParameter, error.reason)
        } else {
            self.init(.unknownError, error.reason, status: error.status)
        }
    }

    static func unavailable(_ message: String) -> Self { Self(.unknownError, message, status: .serviceUnavailable) }

    package var body: String {
        var error = "{\"status\":\(status.code),\"type\":" + JSONText.quoted("https://dev.qweather.com/docs/resource/error-code/#\(kind.rawValue)")
        error += ",\"title\":" + JSONText.quoted(kind.title) + ",\"detail\":" + JSONText.quoted(detail)
        if !parameters.isEmpty { error += ",\"invalidParams\":[" + parameters.map(JSONText.quoted).joined(separator: ",") + "]" }
        return "{\"error\":" + error + "}}"
    }

    var response: Response {
        Response(status: status, headers: [.contentType: "application/problem+json"], body: .init(byteBuffer: ByteBuffer(string: body)))
    }
}
