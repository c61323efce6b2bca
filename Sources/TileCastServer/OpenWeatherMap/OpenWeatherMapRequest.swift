import Hummingbird
import Meteorology
import PointQuery

/// OpenWeatherMap's `units`: standard (K, m/s), metric (°C, m/s), imperial (°F, mph).
/// Precipitation is in mm, visibility in metres and pressure in hPa in all three, as
/// OpenWeatherMap answers them ("Units of measurement" in its API documentation).
package enum OpenWeatherMapUnits: String, Sendable, CaseIterable {
    case standard, metric, imperial

    /// The units the forecast runner answers in: Kelvin is made from Celsius by the renderer
    /// (`OpenWeatherMapNumbers.kelvin`), so the numbers are `/v1/forecast`'s to the digit.
    var forecastUnits: OutputUnits {
        OutputUnits(temperature: self == .imperial ? .fahrenheit : .celsius, windSpeed: self == .imperial ? .mph : .ms, precipitation: .mm)
    }
}

/// The parts of a One Call answer `exclude=` can leave out.
package enum OneCallPart: String, Sendable, CaseIterable {
    case current, minutely, hourly, daily, alerts
}

/// One OpenWeatherMap request (`/data/2.5/weather`, `/data/2.5/forecast`,
/// `/data/2.5/forecast/daily`, `/data/3.0/onecall`), parsed and checked. The place is given by
/// `lat` and `lon` only (city names, ids and zip codes need a geocoder this server has not).
package struct OpenWeatherMapRequest: Sendable {
    package var latitude: Double
    package var longitude: Double
    package var units = OpenWeatherMapUnits.standard
    /// Accepted for every language; descriptions are answered in English (the only texts the
    /// conditions table holds yet).
    package var language = "en"
    /// `cnt`: how many steps a forecast lists at most; nil: all it has.
    package var count: Int?
    package var exclude: Set<OneCallPart> = []

    /// Parses the query's pairs: `lat`, `lon`, `units`, `lang`, `mode`, `cnt`, `exclude`;
    /// `appid` (any case) is accepted and not checked (no keys configured). Unknown parameters
    /// are ignored, as OpenWeatherMap ignores them.
    ///
    /// - Parameter maxCount: the largest `cnt` the path takes (40 steps of 3 hours, 16 days).
    /// - Throws: `OpenWeatherMapError` 400 with OpenWeatherMap's messages where it has them
    ///   ("Nothing to geocode", "wrong latitude", "wrong longitude").
    package init(query: [(name: String, value: String)], maxCount: Int = 40) throws(OpenWeatherMapError) {
        var values: [String: String] = [:]
        for (name, value) in query { values[name.lowercased()] = ForecastParameters.trimmed(value) }
        guard let latText = values["lat"], let lonText = values["lon"], !latText.isEmpty, !lonText.isEmpty else {
            throw OpenWeatherMapError(.badRequest, "Nothing to geocode")
        }
        guard let latitude = Double(latText), latitude.isFinite, (-90...90).contains(latitude) else {
            throw OpenWeatherMapError(.badRequest, "wrong latitude")
        }
        guard let longitude = Double(lonText), longitude.isFinite, (-180...180).contains(longitude) else {
            throw OpenWeatherMapError(.badRequest, "wrong longitude")
        }
        self.latitude = latitude
        self.longitude = longitude
        if let text = values["units"], !text.isEmpty {
            guard let units = OpenWeatherMapUnits(rawValue: text) else {
                throw OpenWeatherMapError(.badRequest, "units must be standard, metric or imperial. Given: \(APIError.echo(text))")
            }
            self.units = units
        }
        if let text = values["mode"], !text.isEmpty, text != "json" {
            // XML and HTML are OpenWeatherMap's older formats; apps read JSON.
            throw OpenWeatherMapError(.badRequest, "mode=\(APIError.echo(text)) is not served here: only mode=json")
        }
        if let text = values["lang"], !text.isEmpty {
            guard text.utf8.count <= 8, text.utf8.allSatisfy({ $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") || (65...122).contains($0) }) else {
                throw OpenWeatherMapError(.badRequest, "lang must be a language code such as en. Given: \(APIError.echo(text))")
            }
            language = text
        }
        if let text = values["cnt"], !text.isEmpty {
            guard let count = Int(text), (1...maxCount).contains(count) else {
                throw OpenWeatherMapError(.badRequest, "cnt must be an integer in 1...\(maxCount). Given: \(APIError.echo(text))")
            }
            self.count = count
        }
        if let text = values["exclude"] {
            for name in text.split(separator: ",") {
                guard let part = OneCallPart(rawValue: ForecastParameters.trimmed(name)) else {
                    throw OpenWeatherMapError(.badRequest, "exclude takes current, minutely, hourly, daily and alerts. Given: \(APIError.echo(name))")
                }
                exclude.insert(part)
            }
        }
    }
}

/// OpenWeatherMap's error answer: `{"cod": "400", "message": "..."}`, the code a string as its
/// API writes it in errors (and pyowm's parsers compare it as one).
package struct OpenWeatherMapError: DialectError, Equatable {
    package let status: HTTPResponse.Status
    package let message: String

    package init(_ status: HTTPResponse.Status, _ message: String) {
        self.status = status
        self.message = message
    }

    /// The forecast runner's refusal in OpenWeatherMap's terms: a place outside every domain is
    /// its 404 ("city not found"), as it answers a place it does not know; the rest keep their
    /// status (400 the request's fault, 503 the store's or the load's).
    init(_ error: APIError) {
        if error.isOutsideDomains {
            self.init(.notFound, "city not found: \(error.reason)")
        } else {
            self.init(error.status, error.reason)
        }
    }

    static func unavailable(_ message: String) -> Self { Self(.serviceUnavailable, message) }

    /// The answer's JSON text (the message may quote what a client sent).
    package var body: String {
        "{\"cod\":\"\(status.code)\",\"message\":" + JSONText.quoted(message) + "}"
    }

    var response: Response {
        Response(status: status, headers: [.contentType: "application/json; charset=utf-8"],
                 body: .init(byteBuffer: ByteBuffer(string: body)))
    }
}
