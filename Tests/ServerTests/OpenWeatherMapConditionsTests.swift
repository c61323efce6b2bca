import Foundation
import TestSupport
import TileCastServer
import XCTest

/// OpenWeatherMap's answers over many seeded places (issue 45): each step's condition agrees with
/// its own numbers (no precipitation id without precipitation, the cloud id from its own
/// `clouds.all`, night icons between sunset and sunrise by `/v1/forecast`'s daily sunrise and
/// sunset), its numbers are `/v1/forecast`'s, and refusals are OpenWeatherMap's error shape
/// with its status, never a 5xx.
final class OpenWeatherMapConditionsTests: XCTestCase {
    private var store = ""
    private var directory: TemporaryDirectory?

    override func setUpWithError() throws {
        let directory = try TemporaryDirectory("tilecast-openweathermap-conditions")
        self.directory = directory
        store = directory.path("store")
        // The WRF pair only: every answered place has cloud cover, so every step a condition
        // (the MM5 run over Iberia has none to derive one from).
        let runs = ["wrfout_d01_2026-11-22_00:00:00", "wrfout_d02_2026-11-22_00:00:00"].map { Repository.sampleGrids.appendingPathComponent($0).path }
        let extract = try StoreMaker.run(["extract"] + runs + ["--store", store, "--quiet"])
        XCTAssertEqual(extract.status, 0, extract.stderr)
    }

    /// 200 places (seed 45) over and around the WRF d01 domain (36.8-42.2 N, 10.3-5.9 W).
    func testConditionsAgreeWithTheirOwnNumbersAtSeededPlaces() async throws {
        var generator = SeededGenerator(seed: 45)
        var answered = 0, outside = 0, steps = 0, hours = 0, wet = 0, nights = 0
        try await LiveServer.with(configuration(store)) { server in
            for _ in 0..<200 {
                let lat = (Double.random(in: 36.5...42.5, using: &generator) * 1e4).rounded() / 1e4
                let lon = (Double.random(in: -10.6 ... -5.6, using: &generator) * 1e4).rounded() / 1e4
                let reply = try await server.get("/data/2.5/forecast?lat=\(lat)&lon=\(lon)&units=metric&appid=x")
                if reply.status == 404 {
                    outside += 1
                    try checkError(reply, status: 404, "\(lat),\(lon)")
                    let v1 = try await server.get("/v1/forecast?latitude=\(lat)&longitude=\(lon)&hourly=temperature_2m")
                    XCTAssertEqual(v1.status, 400, "/v1/forecast refuses \(lat),\(lon) too: \(v1.body)")
                    continue
                }
                XCTAssertEqual(reply.status, 200, reply.body)
                answered += 1
                let reference = try await server.get("/v1/forecast?latitude=\(lat)&longitude=\(lon)&hourly=temperature_2m,precipitation,cloud_cover"
                                                     + "&temporal_resolution=hourly_3&forecast_days=6&timezone=GMT&timeformat=unixtime"
                                                     + "&daily=sunrise,sunset&wind_speed_unit=ms")
                let list = try XCTUnwrap(reply.object?["list"] as? [[String: Any]], reply.body)
                steps += list.count
                for item in list {
                    let (isWet, isNight) = try checkStep(item, reference: try XCTUnwrap(reference.object), place: "\(lat),\(lon)")
                    wet += isWet ? 1 : 0
                    nights += isNight ? 1 : 0
                }
                // One Call's current and hourly rows by the same rules.
                let daily = try XCTUnwrap(reference.object?["daily"] as? [String: Any])
                let oneCall = try await server.get("/data/3.0/onecall?lat=\(lat)&lon=\(lon)&exclude=minutely,daily,alerts")
                XCTAssertEqual(oneCall.status, 200, oneCall.body)
                let current = try XCTUnwrap(oneCall.object?["current"] as? [String: Any], oneCall.body)
                for item in [current] + (oneCall.object?["hourly"] as? [[String: Any]] ?? []) {
                    let (isWet, isNight) = try checkFlatRow(item, daily: daily, place: "\(lat),\(lon)")
                    hours += 1
                    wet += isWet ? 1 : 0
                    nights += isNight ? 1 : 0
                }
            }
        }
        print("OpenWeatherMap seeded places: \(answered) answered, \(outside) outside (404), \(steps) steps, \(hours) One Call rows, \(wet) wet, \(nights) at night")
        // The seed reaches both sides: places answered and refused, wet and dry, day and night steps.
        XCTAssertGreaterThan(answered, 100)
        XCTAssertGreaterThan(outside, 5)
        XCTAssertGreaterThan(wet, 10)
        XCTAssertGreaterThan(nights, 100)
        XCTAssertGreaterThan(steps + hours - nights, 100)
        XCTAssertGreaterThan(hours, answered * 20, "One Call's current and 22 hours a place")
    }

    /// One 3-hour step against its own numbers and `/v1/forecast`'s; whether it has a
    /// precipitation id and whether its icon is a night one.
    private func checkStep(_ item: [String: Any], reference: [String: Any], place: String) throws -> (Bool, Bool) {
        let dt = try XCTUnwrap(item["dt"] as? Int)
        let label = "\(place) at \(dt)"
        let weather = try XCTUnwrap((item["weather"] as? [[String: Any]])?.first, label)
        let id = try XCTUnwrap(weather["id"] as? Int), icon = try XCTUnwrap(weather["icon"] as? String)
        let clouds = try XCTUnwrap((item["clouds"] as? [String: Any])?["all"] as? Int, label)
        let rain = ((item["rain"] as? [String: Any])?["3h"] as? Double) ?? 0
        let snow = ((item["snow"] as? [String: Any])?["3h"] as? Double) ?? 0
        let hourly = try XCTUnwrap(reference["hourly"] as? [String: Any])
        let times = try XCTUnwrap(hourly["time"] as? [Int])
        let k = try XCTUnwrap(times.firstIndex(of: dt), label)
        let temperature = (hourly["temperature_2m"] as? [Any])?[k] as? Double
        let main = try XCTUnwrap(item["main"] as? [String: Any])
        XCTAssertEqual(main["temp"] as? Double, temperature, "\(label): temp is /v1/forecast's")
        let precipitation = ((hourly["precipitation"] as? [Any])?[k] as? Double) ?? -1
        XCTAssertEqual(rain + snow, precipitation, accuracy: 0.011, "\(label): rain.3h + snow.3h is the 3 hours' precipitation")
        let daily = try XCTUnwrap(reference["daily"] as? [String: Any])
        let (isWet, isNight) = try checkCondition(id: id, icon: icon, clouds: clouds, fallen: rain + snow, dt: dt, daily: daily, label)
        XCTAssertEqual((item["sys"] as? [String: Any])?["pod"] as? String, isNight ? "n" : "d", label)
        return (isWet, isNight)
    }

    /// A One Call row (`current`, `hourly`): its condition against its own `clouds`, `rain.1h`
    /// and `snow.1h` and the sun.
    private func checkFlatRow(_ item: [String: Any], daily: [String: Any], place: String) throws -> (Bool, Bool) {
        let dt = try XCTUnwrap(item["dt"] as? Int)
        let label = "\(place) at \(dt) (One Call)"
        let weather = try XCTUnwrap((item["weather"] as? [[String: Any]])?.first, label)
        let rain = ((item["rain"] as? [String: Any])?["1h"] as? Double) ?? 0
        let snow = ((item["snow"] as? [String: Any])?["1h"] as? Double) ?? 0
        return try checkCondition(id: try XCTUnwrap(weather["id"] as? Int), icon: try XCTUnwrap(weather["icon"] as? String),
                                  clouds: try XCTUnwrap(item["clouds"] as? Int, label), fallen: rain + snow, dt: dt, daily: daily, label)
    }

    /// A condition against its row: a precipitation id (2xx, 3xx, 5xx, 6xx) only with rain or
    /// snow, a cloud id (80x) in OpenWeatherMap's band of `clouds`, a night icon between sunset
    /// and sunrise by `/v1/forecast`'s daily values (UTC days), away from the minutes around them.
    private func checkCondition(id: Int, icon: String, clouds: Int, fallen: Double, dt: Int, daily: [String: Any],
                                _ label: String) throws -> (Bool, Bool) {
        let isWet = [2, 3, 5, 6].contains(id / 100)
        if isWet { XCTAssertGreaterThan(fallen, 0, "\(label): id \(id) without precipitation") }
        if id >= 800 {
            let band = clouds <= 10 ? 800 : clouds <= 25 ? 801 : clouds <= 50 ? 802 : clouds <= 84 ? 803 : 804
            XCTAssertEqual(id, band, "\(label): id \(id) with clouds \(clouds) %")
        }
        let days = try XCTUnwrap(daily["time"] as? [Int])
        let d = try XCTUnwrap(days.lastIndex { $0 <= dt }, label)
        let sunrise = try XCTUnwrap((daily["sunrise"] as? [Any])?[d] as? Int, "\(label): \(daily)")
        let sunset = try XCTUnwrap((daily["sunset"] as? [Any])?[d] as? Int, label)
        let isNight = icon.hasSuffix("n")
        if abs(dt - sunrise) > 120 && abs(dt - sunset) > 120 {
            XCTAssertEqual(isNight, dt < sunrise || dt >= sunset, "\(label): icon \(icon), sunrise \(sunrise), sunset \(sunset)")
        }
        return (isWet, isNight)
    }

    /// An OpenWeatherMap refusal: its status, `{"cod": "<status>", "message": "..."}`.
    private func checkError(_ reply: LiveServer.Reply, status: Int, _ label: String) throws {
        XCTAssertEqual(reply.status, status, "\(label): \(reply.body)")
        XCTAssertTrue(reply.contentType?.hasPrefix("application/json") ?? false, label)
        let object = try XCTUnwrap(reply.object, "\(label): \(reply.body)")
        XCTAssertEqual(object["cod"] as? String, String(status), "\(label): cod is a string: \(reply.body)")
        XCTAssertFalse((object["message"] as? String ?? "").isEmpty, label)
        XCTAssertEqual(object.count, 2, "\(label): only cod and message: \(reply.body)")
    }

    /// Bad parameters and an outside place on every path: OpenWeatherMap's shape and status.
    func testRefusalsAreOpenWeatherMapErrors() async throws {
        let cases: [(String, Int)] = [
            ("lat=60&lon=-9.14", 404), ("lat=38.72", 400), ("lon=-9.14", 400), ("lat=abc&lon=-9.14", 400), ("lat=91&lon=-9.14", 400),
            ("lat=38.72&lon=181", 400), ("lat=38.72&lon=-9.14&units=kelvin", 400), ("lat=38.72&lon=-9.14&mode=xml", 400),
            ("lat=38.72&lon=-9.14&mode=html", 400), ("lat=38.72&lon=-9.14&lang=%3Cscript%3E", 400), ("lat=nan&lon=-9.14", 400),
        ]
        try await LiveServer.with(configuration(store)) { server in
            for path in ["/data/2.5/weather", "/data/2.5/forecast", "/data/2.5/forecast/daily", "/data/3.0/onecall"] {
                for (query, status) in cases {
                    try checkError(try await server.get("\(path)?\(query)"), status: status, "\(path)?\(query)")
                }
            }
            for query in ["cnt=0", "cnt=41", "cnt=x"] {
                try checkError(try await server.get("/data/2.5/forecast?lat=38.72&lon=-9.14&\(query)"), status: 400, query)
            }
            try checkError(try await server.get("/data/2.5/forecast/daily?lat=38.72&lon=-9.14&cnt=17"), status: 400, "daily cnt=17")
            for query in ["exclude=weekly", "exclude=current,,bogus"] {
                try checkError(try await server.get("/data/3.0/onecall?lat=38.72&lon=-9.14&\(query)"), status: 400, query)
            }
            let trimmed = try await server.get("/data/3.0/onecall?lat=38.72&lon=-9.14&exclude=minutely,hourly,daily,alerts")
            XCTAssertEqual(trimmed.status, 200, trimmed.body)
            XCTAssertEqual(Set(trimmed.object?.keys.map { $0 } ?? []), ["lat", "lon", "timezone", "timezone_offset", "current", "tilecast"])
            let counted = try await server.get("/data/2.5/forecast?lat=38.72&lon=-9.14&cnt=3")
            XCTAssertEqual((counted.object?["list"] as? [Any])?.count, 3, counted.body)
            XCTAssertEqual(counted.object?["cnt"] as? Int, 3)
            XCTAssertEqual(counted.object?["cod"] as? String, "200")
            let current = try await server.get("/data/2.5/weather?lat=38.72&lon=-9.14&APPID=x&lang=pt_br")
            XCTAssertEqual(current.status, 200, current.body)
            XCTAssertEqual(current.object?["cod"] as? Int, 200, "the current weather's cod is a number, as OpenWeatherMap's")
            XCTAssertNil(current.object?["pop"], "no probability without an ensemble (issue 46): left out")
            // Metrics by the route's own path (a bounded label set), never "other".
            let metrics = try await server.get("/metrics")
            for path in ["/data/2.5/weather", "/data/2.5/forecast", "/data/2.5/forecast/daily", "/data/3.0/onecall"] {
                XCTAssertTrue(metrics.body.contains("route=\"\(path)\""), "\(path) in /metrics")
            }
        }
    }

    /// The fuzz target's contract (fuzz/Sources/FuzzForecastParameters/OpenWeatherMapParameters.swift)
    /// over 2,000 seeded queries: a place in range and derived `/v1/forecast` parameters for it on
    /// every path, or a 400 in OpenWeatherMap's shape; never another status.
    func testSeededQueriesAreAcceptedForOnePlaceOrRefusedWith400() throws {
        var generator = SeededGenerator(seed: 4_545)
        let pieces: [[String]] = [
            ["lat=38.72", "lat=-90", "lat=90.0001", "lat=abc", "lat=", "lat=1e1", "lat=nan", "LAT=39", ""],
            ["lon=-9.14", "lon=180", "lon=-180.5", "lon=x", "lon=359", "lon=-0", ""],
            ["units=metric", "units=imperial", "units=standard", "units=Kelvin", "units=", ""],
            ["cnt=1", "cnt=16", "cnt=17", "cnt=40", "cnt=41", "cnt=-1", "cnt=1.5", ""],
            ["exclude=current,minutely", "exclude=hourly,,daily", "exclude=weekly", "mode=json", "mode=xml", "lang=zh_cn", "lang=%00", ""],
        ]
        var accepted = 0, refused = 0
        for _ in 0..<2_000 {
            let query = pieces.map { $0.randomElement(using: &generator) ?? "" }.filter { !$0.isEmpty }.joined(separator: "&")
            for (path, maxCount) in [("/data/2.5/forecast", 40), ("/data/2.5/forecast/daily", 16)] {
                do {
                    let (request, derived) = try ForecastServer.openWeatherMapParameters(target: path + "?" + query, maxCount: maxCount)
                    accepted += 1
                    XCTAssertTrue(abs(request.latitude) <= 90 && abs(request.longitude) <= 180, query)
                    XCTAssertTrue((1...maxCount).contains(request.count ?? 1), query)
                    XCTAssertEqual(derived.count, 4, query)
                    for parameters in derived { XCTAssertEqual(parameters.latitudes, [request.latitude], query) }
                } catch {
                    refused += 1
                    XCTAssertEqual(error.status.code, 400, "\(path)?\(query): \(error.body)")
                }
            }
        }
        XCTAssertGreaterThan(accepted, 100)
        XCTAssertGreaterThan(refused, 100)
    }
}
