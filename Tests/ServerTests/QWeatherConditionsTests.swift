import Foundation
import TestSupport
import TileCastServer
import XCTest

/// QWeather's answers over many seeded places (issue 45): each hour's icon agrees with its own
/// numbers (no precipitation icon without precipitation at that hour by `/v1/forecast`, the
/// cloud icons from its own `cloud`, night icons between sunset and sunrise), `windScale` is the
/// Beaufort force of the hour's wind, its numbers are `/v1/forecast`'s, and refusals are
/// QWeather's error shape (error code v2) with its status, never a 5xx.
final class QWeatherConditionsTests: XCTestCase {
    private var store = ""
    private var directory: TemporaryDirectory?

    override func setUpWithError() throws {
        let directory = try TemporaryDirectory("tilecast-qweather-conditions")
        self.directory = directory
        store = directory.path("store")
        // The WRF pair: every answered place has cloud cover, so every hour an icon.
        let runs = ["wrfout_d01_2026-11-22_00:00:00", "wrfout_d02_2026-11-22_00:00:00"].map { Repository.sampleGrids.appendingPathComponent($0).path }
        let extract = try StoreMaker.run(["extract"] + runs + ["--store", store, "--quiet"])
        XCTAssertEqual(extract.status, 0, extract.stderr)
    }

    /// QWeather's icons of precipitation (3xx rain, 4xx snow) and the night-only icons.
    static let nightIcons: Set<String> = ["150", "151", "152", "153", "350", "351", "456", "457"]
    static let dayOnlyIcons: Set<String> = ["100", "101", "102", "103", "300", "301", "406", "407"]

    /// 200 places (seed 7) over and around the WRF d01 domain (36.8-42.2 N, 10.3-5.9 W).
    func testIconsAgreeWithTheirOwnNumbersAtSeededPlaces() async throws {
        var generator = SeededGenerator(seed: 7)
        var answered = 0, outside = 0, hours = 0, wet = 0, nights = 0
        try await LiveServer.with(configuration(store)) { server in
            for _ in 0..<200 {
                let lat = (Double.random(in: 36.5...42.5, using: &generator) * 1e4).rounded() / 1e4
                let lon = (Double.random(in: -10.6 ... -5.6, using: &generator) * 1e4).rounded() / 1e4
                let reply = try await server.get("/v7/weather/24h?location=\(lon),\(lat)&key=x")
                if reply.status == 400, (reply.object?["error"] as? [String: Any])?["title"] as? String == "Data Not Available" {
                    outside += 1
                    try checkError(reply, status: 400, title: "Data Not Available", "\(lat),\(lon)")
                    let v1 = try await server.get("/v1/forecast?latitude=\(lat)&longitude=\(lon)&hourly=temperature_2m")
                    XCTAssertEqual(v1.status, 400, "/v1/forecast refuses \(lat),\(lon) too: \(v1.body)")
                    continue
                }
                XCTAssertEqual(reply.status, 200, reply.body)
                answered += 1
                let reference = try await server.get("/v1/forecast?latitude=\(lat)&longitude=\(lon)&hourly=temperature_2m,precipitation,wind_speed_10m"
                                                     + "&forecast_hours=25&timezone=auto&timeformat=unixtime&daily=sunrise,sunset&wind_speed_unit=ms")
                let object = try XCTUnwrap(reference.object, reference.body)
                let offset = try XCTUnwrap(object["utc_offset_seconds"] as? Int)
                let hourly = try XCTUnwrap(object["hourly"] as? [String: Any])
                let times = try XCTUnwrap(hourly["time"] as? [Int])
                let daily = try XCTUnwrap(object["daily"] as? [String: Any])
                XCTAssertEqual(reply.object?["code"] as? String, "200")
                let list = try XCTUnwrap(reply.object?["hourly"] as? [[String: Any]], reply.body)
                XCTAssertFalse(list.isEmpty, "\(lat),\(lon): the run covers hours after now")
                for item in list {
                    let label = "\(lat),\(lon) at \(item["fxTime"] ?? "?")"
                    let time = try XCTUnwrap(Self.seconds(try XCTUnwrap(item["fxTime"] as? String), offset: offset), label)
                    let k = try XCTUnwrap(times.firstIndex(of: time), label)
                    hours += 1
                    let icon = try XCTUnwrap(item["icon"] as? String), cloud = try XCTUnwrap(Int(item["cloud"] as? String ?? ""), label)
                    let fallen = (hourly["precipitation"] as? [Any])?[k] as? Double ?? -1
                    let isWet = ["3", "4"].contains(icon.first)
                    wet += isWet ? 1 : 0
                    if isWet { XCTAssertGreaterThan(fallen, 0, "\(label): icon \(icon) without precipitation") }
                    let band = cloud <= 10 ? "0" : cloud <= 25 ? "2" : cloud <= 50 ? "3" : cloud <= 84 ? "1" : "4"
                    if icon.hasPrefix("10") || icon.hasPrefix("15") {
                        XCTAssertEqual(String(icon.last ?? "?"), icon == "104" || icon == "154" ? "4" : band, "\(label): icon \(icon), cloud \(cloud) %")
                    }
                    // Night icons between sunset and sunrise, by /v1/forecast's daily values.
                    let days = try XCTUnwrap(daily["time"] as? [Int])
                    let d = try XCTUnwrap(days.lastIndex { $0 <= time }, label)
                    let sunrise = try XCTUnwrap((daily["sunrise"] as? [Any])?[d] as? Int), sunset = try XCTUnwrap((daily["sunset"] as? [Any])?[d] as? Int)
                    let isNight = time < sunrise || time >= sunset
                    nights += isNight ? 1 : 0
                    if abs(time - sunrise) > 120 && abs(time - sunset) > 120 {
                        if Self.nightIcons.contains(icon) { XCTAssertTrue(isNight, "\(label): night icon \(icon) by day") }
                        if Self.dayOnlyIcons.contains(icon) { XCTAssertFalse(isNight, "\(label): day icon \(icon) at night") }
                    }
                    // Beaufort from the hour's wind as shown (whole km/h; WMO's bands: force 3 is 12-19 km/h),
                    // and that wind /v1/forecast's (m/s x 3.6, rounded).
                    let shown = try XCTUnwrap(Int(item["windSpeed"] as? String ?? ""), label)
                    let force = [1, 6, 12, 20, 29, 39, 50, 62, 75, 89, 103, 118].filter { shown >= $0 }.count
                    XCTAssertEqual(item["windScale"] as? String, String(force), "\(label): \(shown) km/h")
                    let speed = try XCTUnwrap((hourly["wind_speed_10m"] as? [Any])?[k] as? Double, label)
                    XCTAssertEqual(Double(shown), (speed * 3.6).rounded(), accuracy: 1, "\(label): \(speed) m/s")
                    let temperature = try XCTUnwrap((hourly["temperature_2m"] as? [Any])?[k] as? Double, label)
                    XCTAssertEqual(Double(item["temp"] as? String ?? ""), (temperature.sign == .minus ? -1 : 1) * (abs(temperature) + 1e-9).rounded(),
                                   "\(label): temp is /v1/forecast's rounded")
                }
            }
        }
        print("QWeather seeded places: \(answered) answered, \(outside) outside, \(hours) hours, \(wet) wet, \(nights) at night")
        XCTAssertGreaterThan(answered, 100)
        XCTAssertGreaterThan(outside, 5)
        XCTAssertGreaterThan(wet, 10)
        XCTAssertGreaterThan(nights, 100)
        XCTAssertGreaterThan(hours - nights, 100)
    }

    /// "2026-11-22T03:00+00:00" as seconds since 1970.
    static func seconds(_ text: String, offset: Int) -> Int? {
        let digits = text.prefix(16).split(whereSeparator: { "-T:".contains($0) }).compactMap { Int($0) }
        guard digits.count == 5 else { return nil }
        var parts = DateComponents()
        (parts.year, parts.month, parts.day, parts.hour, parts.minute) = (digits[0], digits[1], digits[2], digits[3], digits[4])
        parts.timeZone = TimeZone(identifier: "UTC")
        guard let date = Calendar(identifier: .gregorian).date(from: parts) else { return nil }
        return Int(date.timeIntervalSince1970) - offset
    }

    /// "2026-11-22T01:10-01:00" as seconds since 1970 (its own offset).
    static func instant(_ text: String?) -> Int? {
        guard let text, text.count == 22, let hours = Int(text.suffix(5).prefix(2)), let minutes = Int(text.suffix(2)) else { return nil }
        let offset = (hours * 3600 + minutes * 60) * (text.dropFirst(16).first == "-" ? -1 : 1)
        return seconds(text, offset: offset)
    }

    /// A QWeather refusal: its status, `{"error": {"status", "type", "title", "detail"}}`.
    private func checkError(_ reply: LiveServer.Reply, status: Int, title: String, _ label: String) throws {
        XCTAssertEqual(reply.status, status, "\(label): \(reply.body)")
        XCTAssertEqual(reply.contentType, "application/problem+json", label)
        let error = try XCTUnwrap(reply.object?["error"] as? [String: Any], "\(label): \(reply.body)")
        XCTAssertEqual(error["status"] as? Int, status, label)
        XCTAssertEqual(error["title"] as? String, title, "\(label): \(reply.body)")
        XCTAssertTrue((error["type"] as? String ?? "").hasPrefix("https://dev.qweather.com/docs/resource/error-code/#"), label)
        XCTAssertFalse((error["detail"] as? String ?? "").isEmpty, label)
    }

    /// Bad parameters and an outside place on every path: QWeather's shape and status.
    func testRefusalsAreQWeatherErrors() async throws {
        let cases: [(String, Int, String)] = [
            ("location=-9.14,60", 400, "Data Not Available"), ("", 400, "Missing Parameter"), ("location=", 400, "Missing Parameter"),
            ("location=101010100", 400, "Not Found"), ("location=abc,def", 400, "Invalid Parameter"),
            ("location=181,38.72", 400, "Invalid Parameter"), ("location=-9.14,91", 400, "Invalid Parameter"),
            ("location=nan,38.72", 400, "Invalid Parameter"), ("location=-9.14,38.72&unit=x", 400, "Invalid Parameter"),
            ("location=-9.14,38.72&lang=%3Cscript%3E", 400, "Invalid Parameter"), ("location=-9.14,38.72,5", 400, "Not Found"),
        ]
        try await LiveServer.with(configuration(store)) { server in
            let paths = ["/v7/weather/now", "/v7/weather/24h", "/v7/weather/72h", "/v7/weather/168h", "/v7/weather/3d", "/v7/weather/7d",
                         "/v7/weather/10d", "/v7/weather/15d", "/v7/minutely/5m"]
            for path in paths {
                for (query, status, title) in cases {
                    try checkError(try await server.get("\(path)?\(query)"), status: status, title: title, "\(path)?\(query)")
                }
                let answered = try await server.get("\(path)?location=-9.1393,38.7223&lang=en&unit=i&key=any")
                XCTAssertEqual(answered.status, 200, "\(path): \(answered.body)")
                XCTAssertEqual(answered.object?["code"] as? String, "200", path)
                XCTAssertEqual(answered.object?["updateTime"] as? String, "2026-11-22T00:00+00:00", path)
                XCTAssertEqual(answered.object?["fxLink"] as? String, "\(server.base)/?lat=38.7223&lon=-9.1393", path)
            }
            // Metrics by the route's own path (a bounded label set), never "other".
            let metrics = try await server.get("/metrics")
            for path in paths { XCTAssertTrue(metrics.body.contains("route=\"\(path)\""), "\(path) in /metrics") }
            let now = try await server.get("/v7/weather/now?location=-9.1393,38.7223")
            let fields = try XCTUnwrap(now.object?["now"] as? [String: Any], now.body)
            XCTAssertEqual(Set(fields.keys), ["obsTime", "temp", "feelsLike", "icon", "text", "wind360", "windDir", "windScale", "windSpeed",
                                              "humidity", "precip", "pressure", "vis", "cloud", "dew"])
            XCTAssertTrue(fields.values.allSatisfy { $0 is String }, "every value a string, as QWeather's: \(fields)")
            XCTAssertEqual(fields["obsTime"] as? String, "2026-11-22T02:00+00:00", "the current quarter hour, Lisbon's zone")
            // Two hours in 5-minute steps from the run's quarter hours; a summary in the language asked.
            var wetSteps = 0
            for (lon, lat) in [(-9.1393, 38.7223), (-8.7415, 41.4638), (-10.1838, 37.3823)] {
                let minutely = try await server.get("/v7/minutely/5m?location=\(lon),\(lat)&lang=en")
                let steps = try XCTUnwrap(minutely.object?["minutely"] as? [[String: Any]], minutely.body)
                XCTAssertEqual(steps.count, 24)
                // From the current five minutes (02:10Z) to 04:05Z, in the place's zone (Etc/GMT+1 at sea).
                XCTAssertEqual(steps.first.flatMap { Self.instant($0["fxTime"] as? String) }, 1_795_313_400)
                XCTAssertEqual(steps.last.flatMap { Self.instant($0["fxTime"] as? String) }, 1_795_313_400 + 23 * 300)
                XCTAssertFalse((minutely.object?["summary"] as? String ?? "").isEmpty)
                // Each step a third of its quarter hour (/v1/forecast's minutely_15, 0.01 mm).
                let quarters = try await server.get("/v1/forecast?latitude=\(lat)&longitude=\(lon)&minutely_15=precipitation"
                                                    + "&forecast_minutely_15=11&timezone=auto&timeformat=unixtime")
                let quarterObject = try XCTUnwrap(quarters.object?["minutely_15"] as? [String: Any])
                let ends = try XCTUnwrap(quarterObject["time"] as? [Int]), amounts = try XCTUnwrap(quarterObject["precipitation"] as? [Any])
                for (k, step) in steps.enumerated() {
                    let start = 1_795_313_400 + k * 300
                    let end = (start + 300 + 899) / 900 * 900
                    let q = try XCTUnwrap(ends.firstIndex(of: end))
                    let hundredths = Int(((amounts[q] as? Double ?? -1) * 100).rounded())
                    XCTAssertEqual(step["precip"] as? String, String(format: "%.2f", Double((hundredths + 1) / 3) / 100), "\(lat),\(lon) step \(k)")
                    wetSteps += hundredths > 0 ? 1 : 0
                }
            }
            XCTAssertGreaterThan(wetSteps, 0, "the sample rains at one of these places in these two hours")
        }
    }

    /// The fuzz target's contract (fuzz/Sources/FuzzForecastParameters/QWeatherParameters.swift)
    /// over 2,000 seeded queries: a place in range and derived `/v1/forecast` parameters for it on
    /// every path, or a 400 in QWeather's shape; never another status.
    func testSeededQueriesAreAcceptedForOnePlaceOrRefusedWith400() throws {
        var generator = SeededGenerator(seed: 4_546)
        let pieces: [[String]] = [
            ["location=-9.14,38.72", "location=180,-90", "location=-180.5,1", "location=1,90.0001", "location=x,y", "location=",
             "location=101010100", "location=1,2,3", "location=nan,1", "location=-0,0", "LOCATION=1,2", ""],
            ["unit=m", "unit=i", "unit=M", "unit=", ""],
            ["lang=zh", "lang=en", "lang=zh-hant", "lang=fr", "lang=%00", "lang=abcdefghijk", ""],
            ["key=abc", "key=", ""],
        ]
        var accepted = 0, refused = 0
        for _ in 0..<2_000 {
            let query = pieces.map { $0.randomElement(using: &generator) ?? "" }.filter { !$0.isEmpty }.joined(separator: "&")
            do {
                let (request, derived) = try ForecastServer.qWeatherParameters(target: "/v7/weather/24h?" + query)
                accepted += 1
                XCTAssertTrue(abs(request.latitude) <= 90 && abs(request.longitude) <= 180, query)
                XCTAssertEqual(derived.count, 4, query)
                for parameters in derived { XCTAssertEqual(parameters.latitudes, [request.latitude], query) }
            } catch {
                refused += 1
                XCTAssertEqual(error.status.code, 400, "\(query): \(error.body)")
            }
        }
        XCTAssertGreaterThan(accepted, 100)
        XCTAssertGreaterThan(refused, 100)
    }
}
