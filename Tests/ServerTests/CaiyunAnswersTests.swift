import Foundation
import TestSupport
import TileCastServer
import XCTest

/// Caiyun's API v2.5 (issue 45): `/weather` has every key path of a real Caiyun answer (the
/// CaiyunWeather client's Weather.json) with the same JSON types, its numbers are
/// `/v1/forecast`'s for the same place and hour, its skycons agree with their rows, and its
/// refusals are Caiyun's `{"status": "failed", ...}` with the status that says whose fault.
final class CaiyunAnswersTests: XCTestCase {
    private var store = ""
    private var directory: TemporaryDirectory?

    override func setUpWithError() throws {
        let directory = try TemporaryDirectory("tilecast-caiyun")
        self.directory = directory
        store = directory.path("store")
        // The WRF pair: every answered place has cloud cover, so every hour a skycon.
        let runs = ["wrfout_d01_2026-11-22_00:00:00", "wrfout_d02_2026-11-22_00:00:00"].map { Repository.sampleGrids.appendingPathComponent($0).path }
        let extract = try StoreMaker.run(["extract"] + runs + ["--store", store, "--quiet"])
        XCTAssertEqual(extract.status, 0, extract.stderr)
    }

    // MARK: - Shape

    /// Where this server writes Caiyun's own "nothing" instead of the fixture's data: an empty
    /// list (no warning rules; no ensemble for `probability`, issue 46; no chemistry for air
    /// quality; no life-index scales) or null (the radar's nearest echo; realtime air quality
    /// and life indices), each a type the CaiyunWeather client decodes (its fields there are
    /// optionals or arrays). README "Caiyun" lists the same.
    static let emptyLists: Set<String> = [
        ".result.alert.content", ".result.minutely.probability",
        ".result.hourly.air_quality.aqi", ".result.hourly.air_quality.pm25",
        ".result.daily.air_quality.aqi", ".result.daily.air_quality.pm25",
        ".result.daily.life_index.ultraviolet", ".result.daily.life_index.carWashing", ".result.daily.life_index.dressing",
        ".result.daily.life_index.comfort", ".result.daily.life_index.coldRisk",
    ]
    static let nulls: Set<String> = [
        ".result.realtime.precipitation.nearest",
        ".result.realtime.air_quality.pm25", ".result.realtime.air_quality.pm10", ".result.realtime.air_quality.o3",
        ".result.realtime.air_quality.so2", ".result.realtime.air_quality.no2", ".result.realtime.air_quality.co",
        ".result.realtime.air_quality.aqi", ".result.realtime.air_quality.description",
        ".result.realtime.life_index.ultraviolet", ".result.realtime.life_index.comfort",
    ]

    func testWeatherHasEveryKeyPathOfCaiyunsOwnAnswerWithItsTypes() async throws {
        let fixture = Repository.root.appendingPathComponent("Tests/ServerTests/Fixtures/caiyun/Weather.json")
        let theirs = try Self.paths(Data(contentsOf: fixture))
        XCTAssertGreaterThan(theirs.count, 150, "the fixture's paths")
        for path in Self.emptyLists { XCTAssertEqual(theirs[path], "array", "\(path) is a list in Caiyun's answer") }
        for path in Self.nulls { XCTAssertNotNil(theirs[path], "\(path) is in Caiyun's answer") }
        try await LiveServer.with(configuration(store)) { server in
            // A quantity the run lacks (the sample WRF runs have no fog fields: no visibility)
            // is an empty list, and -1 in `realtime` (a number the client decodes; no visibility).
            let v1 = try await server.get("/v1/forecast?latitude=39.3&longitude=-8&hourly=visibility,shortwave_radiation&forecast_days=1")
            let v1Hourly = try XCTUnwrap(v1.object?["hourly"] as? [String: Any], v1.body)
            var lacking: [String: String] = [:]
            for (name, caiyun) in [("visibility", "visibility"), ("shortwave_radiation", "dswrf")]
            where (v1Hourly[name] as? [Any])?.allSatisfy({ $0 is NSNull }) ?? false {
                lacking[".result.hourly." + caiyun] = "empty"
                lacking[".result.daily." + caiyun] = "empty"
                lacking[".result.realtime." + caiyun] = "-1"
            }
            for suffix in ["weather", "weather.json"] {
                let reply = try await server.get("/v2.5/TOKEN/-8,39.3/\(suffix)?alert=true&unit=imperial&lang=en_US")
                XCTAssertEqual(reply.status, 200, reply.body)
                let ours = try Self.paths(Data(reply.body.utf8))
                let realtime = try XCTUnwrap((reply.object?["result"] as? [String: Any])?["realtime"] as? [String: Any])
                var checked = 0
                for (path, type) in theirs.sorted(by: { $0.key < $1.key }) {
                    if let lack = lacking.keys.first(where: { path == $0 || path.hasPrefix($0 + "[") }) {
                        if lacking[lack] == "-1" {
                            XCTAssertEqual(realtime[String(lack.split(separator: ".").last ?? "")] as? Double, -1, "\(lack): the run lacks it")
                        } else {
                            XCTAssertEqual(ours[lack], "empty", "\(lack): the run lacks it")
                        }
                        continue
                    }
                    if let exempt = (Self.emptyLists.union(Self.nulls)).first(where: { path == $0 || path.hasPrefix($0 + ".") || path.hasPrefix($0 + "[") }) {
                        let expected = Self.emptyLists.contains(exempt) ? "empty" : "null"
                        XCTAssertEqual(ours[exempt], expected, "\(exempt): Caiyun's \"nothing\" (\(expected))")
                        continue
                    }
                    guard let mine = ours[path] else {
                        XCTFail("\(path) (\(type)) is missing from our answer")
                        continue
                    }
                    XCTAssertEqual(mine, type, "\(path): Caiyun's type and ours")
                    checked += 1
                }
                print("Caiyun key paths: \(checked) checked for type, \(lacking.count) the run lacks")
                XCTAssertGreaterThan(checked, 110)
                // The numbers Caiyun writes as integers, which clients decode as Int (`tzshift`).
                for key in ["\"tzshift\":", "\"server_time\":", "\"primary\":"] {
                    let after = try XCTUnwrap(reply.body.range(of: key), key).upperBound
                    XCTAssertTrue(reply.body[after...].prefix { $0 != "," && $0 != "}" }.allSatisfy { $0.isNumber || $0 == "-" }, "\(key) an integer")
                }
                let object = try XCTUnwrap(reply.object)
                XCTAssertEqual(object["unit"] as? String, "imperial")
                XCTAssertEqual(object["lang"] as? String, "en_US")
                XCTAssertEqual(object["server_time"] as? Int, Int(baselineNow))
                let hourly = try XCTUnwrap((object["result"] as? [String: Any])?["hourly"] as? [String: Any])
                XCTAssertGreaterThan((hourly["temperature"] as? [Any])?.count ?? 0, 12, "the run's hours after now")
            }
        }
    }

    /// Each key path (".result.hourly.temperature[0].value") and its JSON type; an array by its
    /// first element ("empty" when it has none).
    static func paths(_ data: Data) throws -> [String: String] {
        let json = try JSONDecoder().decode(JSONValue.self, from: data)
        var out: [String: String] = [:]
        func walk(_ value: JSONValue, _ path: String) {
            switch value {
            case .object(let fields):
                out[path] = "object"
                for (key, field) in fields { walk(field, path + "." + key) }
            case .array(let items):
                out[path] = items.isEmpty ? "empty" : "array"
                if let first = items.first { walk(first, path + "[0]") }
            case .null: out[path] = "null"
            case .bool: out[path] = "bool"
            case .number: out[path] = "number"
            case .string: out[path] = "string"
            }
        }
        walk(json, "")
        return out
    }

    // MARK: - Numbers

    /// 200 places (seed 25) over and around the WRF d01 domain, metric:v2 and imperial in turn:
    /// a place outside every domain is Caiyun's 404 (and `/v1/forecast`'s 400); each hour's numbers
    /// are `/v1/forecast`'s for the same place and hour in the matching units, each day's
    /// temperature extremes its daily ones, the realtime values its `current`; each skycon
    /// agrees with its row (no rain or snow without precipitation, the cloud band of its
    /// cloud cover, `_NIGHT` while `is_day` is 0).
    func testNumbersAreThoseOfV1ForecastAtSeededPlaces() async throws {
        var generator = SeededGenerator(seed: 25)
        var hours = 0, days = 0, wet = 0, nights = 0, places = 0, outside = 0
        try await LiveServer.with(configuration(store)) { server in
            for k in 0..<200 {
                let lat = (Double.random(in: 36.5...42.5, using: &generator) * 1e4).rounded() / 1e4
                let lon = (Double.random(in: -10.6 ... -5.6, using: &generator) * 1e4).rounded() / 1e4
                for unit in [k % 2 == 0 ? "metric:v2" : "imperial"] {
                    let imperial = unit == "imperial"
                    let reply = try await server.get("/v2.5/T/\(lon),\(lat)/weather?unit=\(unit)&hourlysteps=48&dailysteps=5")
                    if reply.status == 404 {
                        outside += 1
                        XCTAssertEqual(reply.object?["status"] as? String, "failed", reply.body)
                        XCTAssertEqual(reply.object?["api_version"] as? String, "v2.5", reply.body)
                        let v1 = try await server.get("/v1/forecast?latitude=\(lat)&longitude=\(lon)&hourly=temperature_2m")
                        XCTAssertEqual(v1.status, 400, "/v1/forecast refuses \(lat),\(lon) too: \(v1.body)")
                        continue
                    }
                    XCTAssertEqual(reply.status, 200, "\(lat),\(lon): \(reply.body)")
                    let result = try XCTUnwrap(reply.object?["result"] as? [String: Any])
                    let units = imperial ? "&temperature_unit=fahrenheit&wind_speed_unit=mph&precipitation_unit=inch" : "&wind_speed_unit=kmh"
                    let reference = try await server.get("/v1/forecast?latitude=\(lat)&longitude=\(lon)&timezone=auto&timeformat=unixtime\(units)"
                                                         + "&hourly=temperature_2m,wind_speed_10m,relative_humidity_2m,cloud_cover,surface_pressure,"
                                                         + "precipitation,weather_code,is_day&daily=temperature_2m_max,temperature_2m_min&forecast_days=3"
                                                         + "&current=temperature_2m,relative_humidity_2m,wind_speed_10m,precipitation")
                    XCTAssertEqual(reference.status, 200, reference.body)
                    let v1 = try XCTUnwrap(reference.object)
                    let offset = try XCTUnwrap(v1["utc_offset_seconds"] as? Int)
                    let label = "\(lat),\(lon) \(unit)"
                    let (h, w, n) = try checkHours(try XCTUnwrap(result["hourly"] as? [String: Any]), v1: v1, offset: offset,
                                                   precisionInch: imperial, label)
                    hours += h
                    wet += w
                    nights += n
                    days += try checkDays(try XCTUnwrap(result["daily"] as? [String: Any]), v1: v1, offset: offset, label)
                    let realtime = try XCTUnwrap(result["realtime"] as? [String: Any])
                    let current = try XCTUnwrap(v1["current"] as? [String: Any])
                    XCTAssertEqual(realtime["temperature"] as? Double, current["temperature_2m"] as? Double, "\(label): realtime temperature")
                    XCTAssertEqual(realtime["wind"].flatMap { ($0 as? [String: Any])?["speed"] as? Double }, current["wind_speed_10m"] as? Double, label)
                    if !imperial {
                        // metric:v2: the rate in mm/h, the current quarter hour's amount x 4.
                        let local = (realtime["precipitation"] as? [String: Any])?["local"] as? [String: Any]
                        XCTAssertEqual(try XCTUnwrap(local?["intensity"] as? Double, label),
                                       try XCTUnwrap(current["precipitation"] as? Double, label) * 4, accuracy: 1e-9, "\(label): realtime rate")
                    }
                    XCTAssertEqual(try XCTUnwrap(realtime["humidity"] as? Double, label),
                                   try XCTUnwrap(current["relative_humidity_2m"] as? Double, label) / 100, accuracy: 1e-9, label)
                }
                places += 1
            }
        }
        print("Caiyun seeded places: \(places), \(places - outside) answered, \(outside) outside, \(hours) hours, \(days) days, \(wet) wet hours, \(nights) night hours")
        XCTAssertGreaterThan(outside, 5, "the seed reaches beyond the domains")
        XCTAssertGreaterThan(hours, (places - outside) * 12, "at least 12 hours a place")
        XCTAssertGreaterThan(days, 0, "some day the runs give whole")
        XCTAssertGreaterThan(nights, 50)
        XCTAssertGreaterThan(hours - nights, 50)
    }

    /// The hourly lists against `/v1/forecast`'s hourly values: (hours, wet hours, night hours).
    private func checkHours(_ hourly: [String: Any], v1: [String: Any], offset: Int, precisionInch: Bool,
                            _ label: String) throws -> (Int, Int, Int) {
        let reference = try XCTUnwrap(v1["hourly"] as? [String: Any])
        let times = try XCTUnwrap(reference["time"] as? [Int])
        func column(_ name: String) -> [Double?] { (reference[name] as? [Any] ?? []).map { $0 as? Double } }
        func series(_ name: String) throws -> [[String: Any]] { try XCTUnwrap(hourly[name] as? [[String: Any]], "\(label): \(name)") }
        let temperature = try series("temperature"), wind = try series("wind"), humidity = try series("humidity")
        let cloudrate = try series("cloudrate"), pressure = try series("pressure"), precipitation = try series("precipitation")
        let skycon = try series("skycon")
        for (list, name) in [(wind, "wind"), (humidity, "humidity"), (cloudrate, "cloudrate"), (pressure, "pressure"),
                             (precipitation, "precipitation"), (skycon, "skycon")] where list.count != temperature.count {
            XCTFail("\(label): \(name) has \(list.count) hours, temperature \(temperature.count)")
            return (0, 0, 0)
        }
        var wet = 0, nights = 0
        for (k, item) in temperature.enumerated() {
            let datetime = try XCTUnwrap(item["datetime"] as? String)
            let r = try XCTUnwrap(times.firstIndex { Self.dateTime($0, offset: offset) == datetime }, "\(label): \(datetime) in /v1/forecast")
            let at = "\(label) \(datetime)"
            for (list, name) in [(wind, "wind"), (humidity, "humidity"), (skycon, "skycon")] {
                XCTAssertEqual(list[k]["datetime"] as? String, datetime, "\(at): \(name) on the same hours")
            }
            XCTAssertEqual(item["value"] as? Double, column("temperature_2m")[r], "\(at): temperature")
            XCTAssertEqual(wind[k]["speed"] as? Double, column("wind_speed_10m")[r], "\(at): wind speed")
            let rh = try XCTUnwrap(column("relative_humidity_2m")[r], at), cc = try XCTUnwrap(column("cloud_cover")[r], at)
            XCTAssertEqual(try XCTUnwrap(humidity[k]["value"] as? Double, at), rh / 100, accuracy: 1e-9, "\(at): humidity")
            XCTAssertEqual(try XCTUnwrap(cloudrate[k]["value"] as? Double, at), cc / 100, accuracy: 1e-9, "\(at): cloudrate")
            XCTAssertEqual(try XCTUnwrap(pressure[k]["value"] as? Double, at), try XCTUnwrap(column("surface_pressure")[r], at) * 100,
                           accuracy: 0.01, "\(at): pressure in Pa")
            let fallen = try XCTUnwrap(column("precipitation")[r], at)
            let ours = try XCTUnwrap(precipitation[k]["value"] as? Double, at)
            // Inches: ours to 4 decimals from mm, /v1/forecast's to 2.
            XCTAssertEqual(ours, fallen, accuracy: precisionInch ? 0.0051 : 1e-9, "\(at): precipitation")
            let sky = try XCTUnwrap(skycon[k]["value"] as? String, at)
            let isDay = try XCTUnwrap(column("is_day")[r], at) > 0.5
            if sky.hasSuffix("_RAIN") || sky.hasSuffix("_SNOW") {
                // Our own number: /v1/forecast's inches (2 decimals) round a drizzle to 0.00.
                XCTAssertGreaterThan(ours, 0, "\(at): \(sky) without precipitation")
                wet += 1
            }
            if sky.hasPrefix("CLEAR") || sky.hasPrefix("PARTLY_CLOUDY") {
                XCTAssertEqual(sky.hasSuffix("_NIGHT"), !isDay, "\(at): \(sky) with is_day \(isDay)")
                XCTAssertEqual(sky.hasPrefix("CLEAR"), cc <= 25, "\(at): \(sky) with cloud cover \(cc) %")
            }
            if sky == "CLOUDY" { XCTAssertGreaterThan(cc, 84, "\(at): CLOUDY with cloud cover \(cc) %") }
            nights += isDay ? 0 : 1
        }
        return (temperature.count, wet, nights)
    }

    /// The daily temperatures against `/v1/forecast`'s daily extremes; how many days.
    private func checkDays(_ daily: [String: Any], v1: [String: Any], offset: Int, _ label: String) throws -> Int {
        let reference = try XCTUnwrap(v1["daily"] as? [String: Any])
        let times = try XCTUnwrap(reference["time"] as? [Int])
        let temperature = try XCTUnwrap(daily["temperature"] as? [[String: Any]], label)
        for item in temperature {
            let date = try XCTUnwrap(item["date"] as? String)
            let d = try XCTUnwrap(times.firstIndex { Self.dateTime($0, offset: offset) == date }, "\(label): \(date)")
            XCTAssertEqual(item["max"] as? Double, (reference["temperature_2m_max"] as? [Any])?[d] as? Double, "\(label) \(date): max")
            XCTAssertEqual(item["min"] as? Double, (reference["temperature_2m_min"] as? [Any])?[d] as? Double, "\(label) \(date): min")
        }
        for key in ["astro", "skycon", "skycon_08h_20h", "skycon_20h_32h", "precipitation", "wind", "humidity"] {
            XCTAssertEqual((daily[key] as? [Any])?.count, temperature.count, "\(label): daily \(key) on the same days")
        }
        return temperature.count
    }

    /// Cycles starting at 12Z and 24Z on the 22nd (Lisbon, UTC+0): the 22nd has no hours before
    /// noon, so `daily` starts whole on the 23rd, its numbers `/v1/forecast`'s daily ones.
    func testDailyLeavesOutAFirstDayTheRunsDoNotGiveWhole() async throws {
        let shifted = try TemporaryDirectory("tilecast-caiyun-shifted")
        let cycles = try StoreMaker.shiftedCycles(starts: [12, 24], into: shifted)
        try await LiveServer.with(configuration(cycles)) { server in
            let reply = try await server.get("/v2.5/T/-9.14,38.72/daily?dailysteps=3&unit=metric:v2")
            XCTAssertEqual(reply.status, 200, reply.body)
            let daily = try XCTUnwrap((reply.object?["result"] as? [String: Any])?["daily"] as? [String: Any], reply.body)
            let temperature = try XCTUnwrap(daily["temperature"] as? [[String: Any]])
            XCTAssertEqual(temperature.first?["date"] as? String, "2026-11-23T00:00+00:00", reply.body)
            let v1 = try await server.get("/v1/forecast?latitude=38.72&longitude=-9.14&timezone=auto&timeformat=unixtime"
                                          + "&daily=temperature_2m_max,temperature_2m_min,temperature_2m_mean&forecast_days=3")
            let reference = try XCTUnwrap(v1.object?["daily"] as? [String: Any], v1.body)
            XCTAssertTrue((reference["temperature_2m_mean"] as? [Any])?.first is NSNull, "the 22nd is not whole: \(v1.body)")
            XCTAssertEqual(try checkDays(daily, v1: try XCTUnwrap(v1.object), offset: 0, "shifted cycles"), temperature.count)
            XCTAssertGreaterThan(temperature.count, 0)
        }
    }

    /// Caiyun's datetime of a time: local minutes and the offset, "2026-11-22T02:00+00:00".
    static func dateTime(_ time: Int, offset: Int) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm"
        let sign = offset < 0 ? "-" : "+"
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(time + offset)))
            + sign + String(format: "%02d:%02d", abs(offset) / 3600, abs(offset) % 3600 / 60)
    }

    // MARK: - Refusals

    /// Bad coordinates, units, languages and steps (400), a place outside every domain (404):
    /// Caiyun's `{"status": "failed", "error": ..., "api_version": "v2.5"}`, never a 5xx.
    func testRefusalsAreCaiyunErrors() async throws {
        let cases: [(String, Int)] = [
            ("/v2.5/T/20,60/weather", 404), ("/v2.5/T/20,60/realtime.json", 404),
            ("/v2.5/T/-8,39.3/weather?unit=kelvin", 400), ("/v2.5/T/-8,39.3/hourly?lang=fr", 400),
            ("/v2.5/T/-8,39.3/hourly?hourlysteps=0", 400), ("/v2.5/T/-8,39.3/hourly?hourlysteps=361", 400),
            ("/v2.5/T/-8,39.3/hourly?hourlysteps=x", 400), ("/v2.5/T/-8,39.3/daily?dailysteps=16", 400),
            ("/v2.5/T/-8,39.3/daily?dailysteps=0", 400), ("/v2.5/T/abc,39.3/realtime", 400), ("/v2.5/T/-8/realtime", 400),
            ("/v2.5/T/181,39.3/realtime", 400), ("/v2.5/T/-8,91/realtime", 400), ("/v2.5/T/nan,39.3/realtime", 400),
            ("/v2.5/T/-8,39.3,1/realtime", 400), ("/v2.5/T/-8,39.3/weather?tzshift=1800", 400),
            ("/v2.5/T/-8,39.3/weather?begin=yesterday", 400), ("/v2.5/T/-8,39.3/weather?alert=yes", 400),
        ]
        try await LiveServer.with(configuration(store)) { server in
            for (target, status) in cases {
                let reply = try await server.get(target)
                try Self.checkError(reply, status: status, target)
            }
            for part in ["realtime", "minutely", "hourly", "daily", "weather"] {
                for suffix in ["", ".json"] {
                    let reply = try await server.get("/v2.5/T/-8,39.3/\(part)\(suffix)")
                    XCTAssertEqual(reply.status, 200, "\(part)\(suffix): \(reply.body)")
                    let object = try XCTUnwrap(reply.object, part)
                    XCTAssertEqual(object["status"] as? String, "ok")
                    XCTAssertEqual(object["lang"] as? String, "zh_CN", "Caiyun's default language")
                    XCTAssertEqual(object["unit"] as? String, "metric")
                    let result = try XCTUnwrap(object["result"] as? [String: Any], part)
                    let blocks = Set(result.keys).intersection(["realtime", "minutely", "hourly", "daily", "alert"])
                    XCTAssertEqual(blocks, part == "weather" ? ["realtime", "minutely", "hourly", "daily"] : [part], "\(part): its blocks")
                }
            }
            // Metrics by the part, never by the token or place (a bounded label set).
            let metrics = try await server.get("/metrics")
            for part in ["realtime", "minutely", "hourly", "daily", "weather"] {
                XCTAssertTrue(metrics.body.contains("route=\"/v2.5/{token}/{place}/\(part)\""), "\(part) in /metrics")
            }
            XCTAssertFalse(metrics.body.contains("-8,39.3"), "no place in a label")
            // metric: realtime and minutely precipitation are Caiyun's radar intensity, 0-1.
            let metric = try await server.get("/v2.5/T/-8,39.3/weather?hourlysteps=2&dailysteps=1&tzshift=28800")
            let result = try XCTUnwrap(metric.object?["result"] as? [String: Any], metric.body)
            let minutely = try XCTUnwrap((result["minutely"] as? [String: Any])?["precipitation_2h"] as? [Double])
            XCTAssertEqual(minutely.count, 120, "the run covers the next two hours")
            XCTAssertTrue(minutely.allSatisfy { (0...1).contains($0) })
            XCTAssertEqual(metric.object?["tzshift"] as? Int, 28_800)
            let hourly = try XCTUnwrap((result["hourly"] as? [String: Any])?["temperature"] as? [[String: Any]])
            XCTAssertEqual(hourly.count, 2)
            XCTAssertEqual(hourly.first?["datetime"] as? String, "2026-11-22T10:00+08:00", "02:00Z in UTC+8")
            // begin: the hourly list starts at its hour (an hour before now here).
            let begun = try await server.get("/v2.5/T/-8,39.3/hourly?hourlysteps=3&begin=\(baselineNow - 3600)")
            let first = ((begun.object?["result"] as? [String: Any])?["hourly"] as? [String: Any])?["temperature"] as? [[String: Any]]
            XCTAssertEqual(first?.first?["datetime"] as? String, "2026-11-22T01:00+00:00", begun.body)
        }
    }

    /// With `--api-keys`, a token not in the file is Caiyun's 401; a known one is answered.
    func testUnknownTokenIsRefusedWith401() async throws {
        let file = try XCTUnwrap(directory).path("keys")
        try "alpha-1\n".write(toFile: file, atomically: true, encoding: .utf8)
        var settings = configuration(store)
        settings.apiKeys = try APIKeys(path: file)
        try await LiveServer.with(settings) { server in
            for token in ["beta", "alpha", "alpha-10"] {
                let reply = try await server.get("/v2.5/\(token)/-8,39.3/realtime")
                try Self.checkError(reply, status: 401, token)
                XCTAssertFalse(reply.body.contains("alpha-1"), "the answer names no key")
            }
            let answered = try await server.get("/v2.5/alpha-1/-8,39.3/realtime.json")
            XCTAssertEqual(answered.status, 200, answered.body)
        }
    }

    /// A Caiyun refusal: its status and exactly `status`, `error` and `api_version`.
    static func checkError(_ reply: LiveServer.Reply, status: Int, _ label: String) throws {
        XCTAssertEqual(reply.status, status, "\(label): \(reply.body)")
        XCTAssertLessThan(reply.status, 500, label)
        XCTAssertTrue(reply.contentType?.hasPrefix("application/json") ?? false, label)
        let object = try XCTUnwrap(reply.object, "\(label): \(reply.body)")
        XCTAssertEqual(object["status"] as? String, "failed", label)
        XCTAssertFalse((object["error"] as? String ?? "").isEmpty, label)
        XCTAssertEqual(object["api_version"] as? String, "v2.5", label)
        XCTAssertEqual(object.count, 3, "\(label): \(reply.body)")
    }
}

/// A JSON value, for its key paths and types.
enum JSONValue: Decodable {
    case null, bool(Bool), number(Double), string(String), array([JSONValue]), object([String: JSONValue])

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([JSONValue].self) { self = .array(value) }
        else { self = .object(try container.decode([String: JSONValue].self)) }
    }
}
