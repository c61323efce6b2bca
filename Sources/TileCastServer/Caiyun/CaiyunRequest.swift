import Hummingbird
import Meteorology
import PointQuery

/// Caiyun's `unit=` (its "API 单位制转换" page): what each block's numbers are in.
/// `metric` (the default): °C, km/h, km, Pa, and the realtime and minutely precipitation as a
/// radar intensity 0-1 (hourly and daily in mm/h); `metric:v2`: mm/h everywhere; `metric:v1`:
/// the radar intensity everywhere; `si`: K, m/s, m, precipitation in m/s; `imperial`: °F, mph,
/// miles, in/h. Pressure is in Pa and humidity and cloud cover are fractions in all of them.
package enum CaiyunUnits: String, Sendable, CaseIterable {
    case metric
    case metricV2 = "metric:v2"
    case metricV1 = "metric:v1"
    case si
    case imperial

    /// The units `/v1/forecast` is asked in: its temperature and wind speed are printed as
    /// Caiyun's (Kelvin is made from Celsius); precipitation and visibility are asked in mm and
    /// metres and converted here, so an inch keeps more than `/v1/forecast`'s two decimals.
    var forecastUnits: OutputUnits {
        switch self {
        case .imperial: return OutputUnits(temperature: .fahrenheit, windSpeed: .mph, precipitation: .mm)
        case .si: return OutputUnits(temperature: .celsius, windSpeed: .ms, precipitation: .mm)
        default: return OutputUnits(temperature: .celsius, windSpeed: .kmh, precipitation: .mm)
        }
    }
}

/// Caiyun's `lang=`: the languages of its texts (descriptions, keypoint, skycon names).
package enum CaiyunLanguage: String, Sendable, CaseIterable {
    case zhCN = "zh_CN", zhTW = "zh_TW", enUS = "en_US", enGB = "en_GB", ja
}

/// The blocks of Caiyun's paths: `/weather` is all of them.
package enum CaiyunPart: String, Sendable, CaseIterable {
    case realtime, minutely, hourly, daily, weather
}

/// One Caiyun v2.5 request (`/v2.5/{token}/{lon},{lat}/{part}`), parsed and checked. The token
/// is checked by `APIKeyMiddleware` (with `--api-keys`) and otherwise ignored.
package struct CaiyunRequest: Sendable {
    package var latitude: Double
    package var longitude: Double
    package var part: CaiyunPart
    package var units = CaiyunUnits.metric
    package var language = CaiyunLanguage.zhCN
    /// `hourlysteps` (1-360, default 48) and `dailysteps` (1-15, default 5).
    package var hourlySteps = 48
    package var dailySteps = 5
    /// `alert=true`: `/weather` adds `result.alert`.
    package var alert = false
    /// `tzshift`: a fixed offset from UTC for the answer's times, in seconds; nil: the place's own zone.
    package var timeShift: Int?
    /// `begin`: seconds since 1970 where the hourly and daily lists start; nil: now.
    package var begin: Int64?

    static let maxHourlySteps = 360
    static let maxDailySteps = 15

    /// Parses the place segment ("lon,lat", Caiyun's order) and the query's pairs. Unknown
    /// parameters are ignored, as Caiyun ignores them.
    ///
    /// - Throws: `CaiyunError` 400 for coordinates, units, languages, steps, `tzshift` or
    ///   `begin` Caiyun's API does not take.
    package init(token: String, place: String, part: CaiyunPart, query: [(name: String, value: String)]) throws(CaiyunError) {
        // Caiyun's tokens are letters and digits: anything else is no token of any server's.
        guard (1...64).contains(token.utf8.count), token.utf8.allSatisfy({ Self.isTokenByte($0) }) else {
            throw CaiyunError(.unauthorized, "token is invalid")
        }
        let parts = place.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, let longitude = Self.decimal(parts[0]), let latitude = Self.decimal(parts[1]) else {
            throw CaiyunError(.badRequest, "invalid location: expected longitude,latitude such as 116.3883,39.9289. Given: \(APIError.echo(place))")
        }
        guard (-180...180).contains(longitude), (-90...90).contains(latitude) else {
            throw CaiyunError(.badRequest, "invalid location: longitude must be in -180...180 and latitude in -90...90. Given: \(APIError.echo(place))")
        }
        self.latitude = latitude
        self.longitude = longitude
        self.part = part
        var values: [String: String] = [:]
        for (name, value) in query { values[name.lowercased()] = ForecastParameters.trimmed(value) }
        if let text = values["unit"], !text.isEmpty {
            guard let units = CaiyunUnits(rawValue: text) else {
                throw CaiyunError(.badRequest, "unit must be metric, metric:v2, metric:v1, si or imperial. Given: \(APIError.echo(text))")
            }
            self.units = units
        }
        if let text = values["lang"], !text.isEmpty {
            guard let language = CaiyunLanguage(rawValue: text) else {
                throw CaiyunError(.badRequest, "lang must be zh_CN, zh_TW, en_US, en_GB or ja. Given: \(APIError.echo(text))")
            }
            self.language = language
        }
        hourlySteps = try Self.integer(values["hourlysteps"], "hourlysteps", 1...Self.maxHourlySteps) ?? hourlySteps
        dailySteps = try Self.integer(values["dailysteps"], "dailysteps", 1...Self.maxDailySteps) ?? dailySteps
        if let text = values["alert"], !text.isEmpty {
            guard text == "true" || text == "false" else { throw CaiyunError(.badRequest, "alert must be true or false. Given: \(APIError.echo(text))") }
            alert = text == "true"
        }
        // Whole hours only: the answer's times are made in a fixed zone of whole hours (Etc/GMT±N).
        if let shift = try Self.integer(values["tzshift"], "tzshift", -43_200...50_400) {
            guard shift % 3600 == 0 else { throw CaiyunError(.badRequest, "tzshift must be whole hours in seconds, such as 28800. Given: \(shift)") }
            timeShift = shift
        }
        if let text = values["begin"], !text.isEmpty {
            guard let begin = Int64(text), begin >= 0 else {
                throw CaiyunError(.badRequest, "begin must be seconds since 1970. Given: \(APIError.echo(text))")
            }
            self.begin = begin
        }
    }

    static func isTokenByte(_ byte: UInt8) -> Bool {
        (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
    }

    /// A coordinate as Caiyun's paths write it: an optional minus, digits, optional decimals
    /// ("116.3883", "-8"); no exponents, signs or spaces (docs/openapi.yaml's pattern).
    static func decimal(_ text: Substring) -> Double? {
        var rest = text.utf8[...]
        if rest.first == UInt8(ascii: "-") { rest = rest.dropFirst() }
        let whole = rest.prefix { (48...57).contains($0) }
        rest = rest.dropFirst(whole.count)
        guard !whole.isEmpty, whole.count <= 3 else { return nil }
        if rest.first == UInt8(ascii: ".") {
            let fraction = rest.dropFirst().prefix { (48...57).contains($0) }
            guard !fraction.isEmpty, fraction.count <= 12 else { return nil }
            rest = rest.dropFirst(fraction.count + 1)
        }
        guard rest.isEmpty else { return nil }
        return Double(String(text))
    }

    private static func integer(_ text: String?, _ name: String, _ range: ClosedRange<Int>) throws(CaiyunError) -> Int? {
        guard let text, !text.isEmpty else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw CaiyunError(.badRequest, "\(name) must be an integer in \(range.lowerBound)...\(range.upperBound). Given: \(APIError.echo(text))")
        }
        return value
    }
}

/// Caiyun's error answer: `{"status": "failed", "error": "...", "api_version": "v2.5"}` with
/// the HTTP status that says whose fault it is (400 the request, 401 the token, 404 a place
/// no domain covers, 503 the load or the store).
package struct CaiyunError: DialectError, Equatable {
    package let status: HTTPResponse.Status
    package let message: String

    package init(_ status: HTTPResponse.Status, _ message: String) {
        self.status = status
        self.message = message
    }

    /// The forecast runner's refusal in Caiyun's terms: a place outside every domain is a 404,
    /// the rest keep their status (400 the request's fault, 503 the store's or the load's).
    init(_ error: APIError) {
        if error.isOutsideDomains {
            self.init(.notFound, "location not covered by this server's forecasts: \(error.reason)")
        } else {
            self.init(error.status, error.reason)
        }
    }

    static func unavailable(_ message: String) -> Self { Self(.serviceUnavailable, message) }

    /// The answer's JSON text (the message may quote what a client sent).
    package var body: String {
        "{\"status\":\"failed\",\"error\":" + JSONText.quoted(message) + ",\"api_version\":\"v2.5\"}"
    }

    var response: Response {
        Response(status: status, headers: [.contentType: "application/json; charset=utf-8"],
                 body: .init(byteBuffer: ByteBuffer(string: body)))
    }
}
