import Foundation
import NIOHTTP1
import TestSupport
import TileCastServer
import XCTest

/// Issue 26 (and 27 items 7-8): what an app written for Open-Meteo sends, answered as Open-Meteo's
/// server answers it. Each rule cites the Open-Meteo source file it comes from (open-meteo/open-meteo
/// at commit ba13de1c, and Vapor, the framework it runs on).
final class OpenMeteoDropInTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var store: String!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory("tilecast-dropin")
        store = try StoreMaker.extractBaseline(into: directory)
    }

    private let place = "latitude=39.3&longitude=-8"
    private let day = "start_date=2026-11-22&end_date=2026-11-22"

    // MARK: 1. CORS, HEAD, OPTIONS, 405

    /// Open-Meteo: Sources/App/configure.swift installs Vapor's CORSMiddleware with
    /// `allowedOrigin: .all`, methods GET, POST, OPTIONS, before its ErrorMiddleware, so errors
    /// carry the header too; Vapor (Sources/Vapor/Middleware/CORSMiddleware.swift) answers a
    /// preflight (OPTIONS naming Access-Control-Request-Method) itself, with 200 and no body.
    func testCORSOnEveryAnswerAndPreflight() async throws {
        try await LiveServer.with(configuration(store)) { server in
            let origin = [("Origin", "https://app.example")]
            for path in ["/v1/forecast?\(place)&hourly=temperature_2m&\(day)", "/v1/forecast?\(place)&hourly=nope&\(day)",
                         "/v2/nothing", "/health", "/metrics", "/"] {
                let (reply, headers) = try await server.send(.GET, path, headers: origin)
                XCTAssertEqual(headers["access-control-allow-origin"], "*", "\(path): \(reply.status)")
            }
            let (error, _) = try await server.send(.GET, "/v1/forecast?\(place)&hourly=nope&\(day)", headers: origin)
            XCTAssertEqual(error.status, 400)
            XCTAssertTrue(error.body.hasPrefix("{\"error\": true, \"reason\": "), error.body)

            let (preflight, headers) = try await server.send(.OPTIONS, "/v1/forecast?\(place)", headers: origin + [
                ("Access-Control-Request-Method", "GET"), ("Access-Control-Request-Headers", "x-client-version, content-type")])
            XCTAssertEqual(preflight.status, 200, preflight.body)
            XCTAssertEqual(preflight.body, "")
            XCTAssertEqual(headers["access-control-allow-origin"], "*")
            XCTAssertEqual(headers["access-control-allow-methods"], "GET, POST, OPTIONS")
            XCTAssertEqual(headers["access-control-allow-headers"], "x-client-version, content-type", "the headers the page asked for")
            XCTAssertEqual(headers["access-control-max-age"], "600")
            // A plain OPTIONS on a route: what it answers.
            let (plain, plainHeaders) = try await server.send(.OPTIONS, "/health")
            XCTAssertEqual(plain.status, 200)
            XCTAssertEqual(plainHeaders["allow"], "GET, HEAD, OPTIONS")
            // The forecast also takes POST: its OPTIONS says so, as its 405 does (schemathesis's
            // ST205 "Allow header mismatch" in .ci/run; before the fix POST was left out here).
            let (forecast, forecastHeaders) = try await server.send(.OPTIONS, "/v1/forecast")
            XCTAssertEqual(forecast.status, 200)
            XCTAssertEqual(forecastHeaders["allow"], "GET, HEAD, OPTIONS, POST")
        }
    }

    /// HEAD is GET without the body on every route; another method on a route is
    /// 405 with Allow in Open-Meteo's error shape (its AbortError body,
    /// Sources/App/Helper/ForecastapiQuery.swift `ForecastApiError`), not 404 (issue 27 item 8).
    func testHeadOnEveryRouteAndOtherMethods405() async throws {
        try await LiveServer.with(configuration(store)) { server in
            for path in ["/v1/forecast?\(place)&hourly=temperature_2m&\(day)", "/v1/meteogram.svg?\(place)&hourly=temperature_2m&\(day)",
                         "/health", "/metrics", "/", "/v1/forecast?\(place)&hourly=nope"] {
                let get = try await server.send(.GET, path)
                let head = try await server.send(.HEAD, path)
                XCTAssertEqual(head.reply.status, get.reply.status, path)
                XCTAssertEqual(head.reply.body, "", path)
                XCTAssertEqual(head.headers["content-type"], get.headers["content-type"], path)
            }
            // The same length as the GET's body (the health answer does not change between calls).
            let get = try await server.send(.GET, "/health"), head = try await server.send(.HEAD, "/health")
            XCTAssertEqual(head.headers["content-length"], String(get.reply.body.utf8.count))

            // POST is a forecast's other way in (a form body); elsewhere it is one more method.
            for (method, path, allow) in [(HTTPMethod.DELETE, "/v1/forecast?\(place)", "GET, HEAD, OPTIONS, POST"),
                                          (.PUT, "/v1/forecast?\(place)", "GET, HEAD, OPTIONS, POST"),
                                          (.PATCH, "/v1/forecast?\(place)", "GET, HEAD, OPTIONS, POST"),
                                          (.TRACE, "/v1/forecast?\(place)", "GET, HEAD, OPTIONS, POST"),
                                          (.POST, "/health", "GET, HEAD, OPTIONS")] {
                let (reply, headers) = try await server.send(method, path)
                XCTAssertEqual(reply.status, 405, "\(method): \(reply.body)")
                XCTAssertEqual(headers["allow"], allow, "\(method)")
                XCTAssertEqual(headers["access-control-allow-origin"], "*", "\(method)")
                let object = try XCTUnwrap(reply.object, "\(method)")
                XCTAssertEqual(Set(object.keys), ["error", "reason"])
                XCTAssertTrue((object["reason"] as? String)?.contains(method.rawValue) == true, reply.body)
            }
            let missing = try await server.send(.DELETE, "/v2/nothing")
            XCTAssertEqual(missing.reply.status, 404, "an unknown path stays 404 whatever the method")
        }
    }

    /// POST takes the same parameters as a form body (Open-Meteo takes both on every route):
    /// the answer is the GET's, byte for byte; 1,000 places, far past the URL limit, are answered.
    func testPostWithAFormBodyAnswersAsGet() async throws {
        try await LiveServer.with(configuration(store)) { server in
            let query = "\(place)&hourly=temperature_2m,precipitation&\(day)"
            let get = try await server.send(.GET, "/v1/forecast?" + query)
            let form = [("Content-Type", "application/x-www-form-urlencoded")]
            let post = try await server.send(.POST, "/v1/forecast", headers: form, body: query)
            XCTAssertEqual(post.reply.status, 200, post.reply.body)
            XCTAssertEqual(Self.withoutTiming(post.reply.body), Self.withoutTiming(get.reply.body))
            // Encoded as a browser's form encodes it: commas as %2C, spaces as +.
            let encoded = try await server.send(.POST, "/v1/forecast?hourly=temperature_2m&\(day)", headers: form,
                                                body: "latitude=39.3%2C39.4&longitude=-8.3%2C-8.2&timezone=Europe%2FLisbon")
            XCTAssertEqual(encoded.reply.status, 200, encoded.reply.body)
            XCTAssertEqual((encoded.reply.json as? [Any])?.count, 2, "two places")

            let count = 1000
            var generator = SeededGenerator(seed: 20261122)
            let latitudes = (0..<count).map { _ in String(format: "%.4f", Double.random(in: 39.1...39.5, using: &generator)) }
            let longitudes = (0..<count).map { _ in String(format: "%.4f", Double.random(in: -8.6 ... -8.0, using: &generator)) }
            let many = "latitude=\(latitudes.joined(separator: ","))&longitude=\(longitudes.joined(separator: ","))&hourly=temperature_2m&\(day)"
            XCTAssertGreaterThan(many.utf8.count, 8192, "past the URL limit")
            let big = try await server.send(.POST, "/v1/forecast", headers: form, body: many)
            XCTAssertEqual(big.reply.status, 200, String(big.reply.body.prefix(300)))
            XCTAssertEqual((big.reply.json as? [Any])?.count, count)

            // A JSON body, as Open-Meteo's Vapor server decodes one (issue 47): arrays are comma
            // lists, numbers and strings values; the answer is the GET's.
            let jsonHeaders = [("Content-Type", "application/json")]
            let jsonBody = #"{"latitude": [39.3, 39.4], "longitude": [-8.3, -8.2], "hourly": ["temperature_2m", "precipitation"], "#
                + #""start_date": "2026-11-22", "end_date": "2026-11-22", "timezone": "Europe/Lisbon", "models": null}"#
            let json = try await server.send(.POST, "/v1/forecast", headers: jsonHeaders, body: jsonBody)
            XCTAssertEqual(json.reply.status, 200, json.reply.body)
            let sameAsGet = try await server.send(.GET, "/v1/forecast?latitude=39.3,39.4&longitude=-8.3,-8.2&hourly=temperature_2m,precipitation"
                                                  + "&start_date=2026-11-22&end_date=2026-11-22&timezone=Europe/Lisbon")
            XCTAssertEqual(Self.withoutTiming(json.reply.body), Self.withoutTiming(sameAsGet.reply.body))
            let daysJSON = try await server.send(.POST, "/v1/forecast", headers: jsonHeaders,
                                                 body: #"{"latitude": 39.3, "longitude": -8.3, "daily": "temperature_2m_max", "forecast_days": 3}"#)
            XCTAssertEqual(((daysJSON.reply.object?["daily"] as? [String: Any])?["time"] as? [Any])?.count, 3, daysJSON.reply.body)
            for bad in ["[1, 2]", #"{"latitude": {"a": 1}}"#, "{not json"] {
                let refused = try await server.send(.POST, "/v1/forecast", headers: jsonHeaders, body: bad)
                XCTAssertEqual(refused.reply.status, 400, bad)
                XCTAssertEqual(refused.reply.object?["error"] as? Bool, true, bad)
            }
            let xml = try await server.send(.POST, "/v1/forecast", headers: [("Content-Type", "application/xml")], body: "<a/>")
            XCTAssertEqual(xml.reply.status, 415, xml.reply.body)
            XCTAssertEqual(xml.reply.object?["error"] as? Bool, true)
            let huge = try await server.send(.POST, "/v1/forecast", headers: form, body: String(repeating: "a", count: (1 << 20) + 1))
            XCTAssertEqual(huge.reply.status, 413, huge.reply.body)
        }
    }

    /// gzip and deflate when the client asks (`Accept-Encoding`), with `Vary`; the bytes
    /// decompress (gzip(1), Python's zlib) to the plain answer. Fetched with curl, which hands
    /// over the bytes as sent.
    func testGzipAndDeflateWhenAsked() async throws {
        try await LiveServer.with(configuration(store)) { server in
            let path = "/v1/forecast?\(place)&hourly=temperature_2m,relative_humidity_2m,dew_point_2m,precipitation,wind_speed_10m,wind_direction_10m,cloud_cover,pressure_msl&\(day)"
            let plain = try await server.send(.GET, path)
            XCTAssertEqual(plain.headers["vary"], "Accept-Encoding")
            XCTAssertNil(plain.headers["content-encoding"])
            let directory = try TemporaryDirectory("tilecast-gzip")
            for (accept, encoding, decoder) in [("gzip, deflate, br", "gzip", ["gzip", "-dc"]),
                                                ("deflate", "deflate", ["python3", "-c", "import sys, zlib; sys.stdout.buffer.write(zlib.decompress(open(sys.argv[1], 'rb').read()))"]),
                                                ("gzip;q=0, identity", "", [])] {
                let body = directory.path("body"), headers = directory.path("headers")
                let fetched = try runTool("curl", ["-s", "-H", "Accept-Encoding: \(accept)", "-D", headers, "-o", body, server.base + path])
                XCTAssertEqual(fetched.status, 0, fetched.stderr)
                let head = try String(contentsOfFile: headers, encoding: .utf8).lowercased()
                if encoding.isEmpty {
                    XCTAssertFalse(head.contains("content-encoding"), head)
                    continue
                }
                XCTAssertTrue(head.contains("content-encoding: \(encoding)"), head)
                let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: body)[.size] as? Int)
                XCTAssertLessThan(size, plain.reply.body.utf8.count / 2, "\(encoding): \(size) bytes for \(plain.reply.body.utf8.count)")
                let decoded = try runTool(decoder[0], Array(decoder.dropFirst()) + [body])
                XCTAssertEqual(decoded.status, 0, decoded.stderr)
                XCTAssertEqual(Self.withoutTiming(decoded.stdout), Self.withoutTiming(plain.reply.body), encoding)
            }
        }
    }

    /// `location_id` as Open-Meteo writes it (Sources/App/Helper/Writer/JsonWriter.swift: the key
    /// unless 0; Sources/App/Helper/ForecastapiQuery.swift: the given ids, else the positions).
    func testLocationIDsAsOpenMeteoWritesThem() async throws {
        try await LiveServer.with(configuration(store)) { server in
            let places = "latitude=39.3,39.35,39.4&longitude=-8.3,-8.25,-8.2&hourly=temperature_2m&\(day)"
            let numbered = try await server.get("/v1/forecast?" + places)
            let objects = try XCTUnwrap(numbered.json as? [[String: Any]], numbered.body)
            XCTAssertEqual(objects.map { $0["location_id"] as? Int }, [nil, 1, 2])
            let given = try await server.get("/v1/forecast?" + places + "&location_id=7,0,12")
            XCTAssertEqual((given.json as? [[String: Any]])?.map { $0["location_id"] as? Int }, [7, nil, 12])
            let csv = try await server.get("/v1/forecast?" + places + "&location_id=7,0,12&format=csv")
            XCTAssertTrue(csv.body.contains("\n7,") && csv.body.contains("\n12,"), csv.body)
            let mismatch = try await server.get("/v1/forecast?" + places + "&location_id=1,2")
            XCTAssertEqual(mismatch.status, 400)
            XCTAssertEqual(mismatch.object?["reason"] as? String, "Parameter 'location_id' and coordinates must have the same number of elements")
        }
    }

    private static func withoutTiming(_ body: String) -> String {
        body.replacingOccurrences(of: #""generationtime_ms":[0-9.eE-]+"#, with: "", options: .regularExpression)
    }

    // MARK: 2. Booleans

    /// Open-Meteo decodes `current_weather` as a Bool through Vapor's URL decoder:
    /// Sources/Vapor/URLEncodedForm/URLQueryFragmentConvertible.swift reads "1", "true", "on" and
    /// "0", "false" in any case; URLEncodedFormDecoder.swift reads a bare `current_weather` as true.
    func testBooleansAsOpenMeteosFrameworkReadsThem() async throws {
        try await LiveServer.with(configuration(store)) { server in
            for (text, expected) in [("False", false), ("false", false), ("FALSE", false), ("0", false), ("True", true), ("true", true),
                                     ("TRUE", true), ("1", true), ("on", true)] {
                let reply = try await server.get("/v1/forecast?\(place)&hourly=temperature_2m&\(day)&current_weather=\(text)")
                XCTAssertEqual(reply.status, 200, "\(text): \(reply.body)")
                XCTAssertEqual(reply.object?["current_weather"] != nil, expected, text)
            }
            let bare = try await server.get("/v1/forecast?\(place)&current_weather")
            XCTAssertEqual(bare.status, 200, bare.body)
            XCTAssertNotNil(bare.object?["current_weather"])
            let wrong = try await server.get("/v1/forecast?\(place)&current_weather=yes")
            XCTAssertEqual(wrong.status, 400)
            XCTAssertTrue(wrong.body.contains("current_weather"), wrong.body)
        }
    }

    // MARK: 3. Requested names echoed

    /// Open-Meteo writes each column under the name requested (Sources/App/Helper/Writer/JsonWriter.swift
    /// and CsvWriter.swift write `e.variable`, the parsed request name), and accepts the old spellings of
    /// `ForecastSurfaceVariable` (Sources/App/Controllers/VariableHourly.swift: `temperature`,
    /// `windspeed`, `winddirection`, `weathercode`, `surface_air_pressure`, `snow_height` via `remapped`;
    /// `windspeed_10m`, `cloudcover`, `vapor_pressure_deficit`, ... in its deriver) and of
    /// `ForecastVariableDaily` (Sources/App/Controllers/VariableDaily.swift).
    func testRequestedNamesAreEchoedWithTheSameValues() async throws {
        try await LiveServer.with(configuration(store)) { server in
            let pairs = [("weathercode", "weather_code"), ("windspeed_10m", "wind_speed_10m"), ("temperature", "temperature_2m"),
                         ("windspeed", "wind_speed_10m"), ("winddirection", "wind_direction_10m"), ("cloudcover", "cloud_cover"),
                         ("vapor_pressure_deficit", "vapour_pressure_deficit"), ("surface_air_pressure", "surface_pressure"),
                         ("dewpoint_2m", "dew_point_2m"), ("relativehumidity_2m", "relative_humidity_2m"),
                         // Open-Meteo's height form (ForecastHeightVariableType wind_u_component at 10 m).
                         ("wind_u_component_10m", "wind_u_10m"), ("wind_v_component_10m", "wind_v_10m")]
            let dailyPairs = [("weathercode", "weather_code"), ("windspeed_10m_max", "wind_speed_10m_max"), ("cloudcover_mean", "cloud_cover_mean"),
                              ("et0_fao_evapotranspiration_sum", "et0_fao_evapotranspiration"), ("winddirection_10m_dominant", "wind_direction_10m_dominant")]
            let old = try await server.get("/v1/forecast?\(place)&\(day)&hourly=\(pairs.map(\.0).joined(separator: ","))&daily=\(dailyPairs.map(\.0).joined(separator: ","))&current=windspeed_10m")
            let new = try await server.get("/v1/forecast?\(place)&\(day)&hourly=\(Set(pairs.map(\.1)).sorted().joined(separator: ","))&daily=\(dailyPairs.map(\.1).joined(separator: ","))&current=wind_speed_10m")
            XCTAssertEqual(old.status, 200, old.body)
            XCTAssertEqual(new.status, 200, new.body)
            for (block, list) in [("hourly", pairs), ("daily", dailyPairs)] {
                let a = try XCTUnwrap(old.object?[block] as? [String: Any]), b = try XCTUnwrap(new.object?[block] as? [String: Any])
                let aUnits = try XCTUnwrap(old.object?["\(block)_units"] as? [String: String])
                let bUnits = try XCTUnwrap(new.object?["\(block)_units"] as? [String: String])
                XCTAssertEqual(Set(a.keys), Set(["time"] + list.map(\.0)), "only the names asked for")
                for (asked, modern) in list {
                    XCTAssertEqual("\(a[asked] ?? "missing")", "\(b[modern] ?? "b")", asked)
                    XCTAssertEqual(aUnits[asked], bUnits[modern], asked)
                }
            }
            XCTAssertNotNil((old.object?["current"] as? [String: Any])?["windspeed_10m"])
            XCTAssertTrue(old.body.contains("\"hourly\":{\"time\":[") && old.body.contains("],\"weathercode\":["), "in the order asked")

            let csv = try await server.get("/v1/forecast?\(place)&\(day)&hourly=weathercode,windspeed_10m,temperature&format=csv")
            XCTAssertEqual(csv.status, 200, csv.body)
            XCTAssertTrue(csv.body.contains("\ntime,weathercode (wmo code),windspeed_10m (km/h),temperature (°C)\n"), csv.body)
        }
    }

    /// Open-Meteo's legacy block: `defaultCurrentWeather` in Sources/App/Controllers/ForecastapiController.swift
    /// is temperature, windspeed, winddirection, is_day, weathercode, in that order.
    func testCurrentWeatherHasIsDayInOpenMeteosOrder() async throws {
        try await LiveServer.with(configuration(store)) { server in
            let reply = try await server.get("/v1/forecast?\(place)&current_weather=true")
            XCTAssertEqual(reply.status, 200, reply.body)
            let block = try XCTUnwrap(reply.body.range(of: "\"current_weather\":{").map { String(reply.body[$0.upperBound...]) })
            let keys = ["time", "interval", "temperature", "windspeed", "winddirection", "is_day", "weathercode"]
            let positions = keys.map { block.range(of: "\"\($0)\":")?.lowerBound }
            XCTAssertFalse(positions.contains(nil), block)
            XCTAssertEqual(positions.compactMap { $0 }, positions.compactMap { $0 }.sorted(), block)
            let weather = try XCTUnwrap(reply.object?["current_weather"] as? [String: Any])
            XCTAssertEqual(weather["is_day"] as? Int, 0, "02:10Z in November at 8 W is night")
            XCTAssertEqual((reply.object?["current_weather_units"] as? [String: String])?["is_day"], "")
        }
    }

    // MARK: 4. Known but unavailable: a column of nulls

    /// Open-Meteo answers a variable it knows but the model lacks with a column of NaN (null in
    /// JSON) and `unit: .undefined` ("undefined", Sources/App/Helper/Writer/ApiUrl.swift)
    /// (Sources/App/Controllers/ForecastapiController.swift, `hourly(variables:)`, `daily(variables:)`,
    /// `current(variables:)`); a name not in its enums (VariableHourly.swift, VariableDaily.swift)
    /// fails decoding: 400.
    func testKnownButUnavailableVariablesAreNullColumns() async throws {
        try await LiveServer.with(configuration(store)) { server in
            let hourly = "temperature_2m,ice_pellets_probability,uv_index,snow_depth,visibility,convective_cloud_base,temperature_850hPa,wind_speed_80m"
            let daily = "temperature_2m_max,uv_index_max,snow_depth_max,leaf_wetness_probability_mean"
            let reply = try await server.get("/v1/forecast?\(place)&\(day)&hourly=\(hourly)&daily=\(daily)&current=uv_index,temperature_2m")
            XCTAssertEqual(reply.status, 200, reply.body)
            let object = try XCTUnwrap(reply.object)
            let values = try XCTUnwrap(object["hourly"] as? [String: Any]), units = try XCTUnwrap(object["hourly_units"] as? [String: String])
            XCTAssertEqual((values["temperature_2m"] as? [Any])?.prefix(4).allSatisfy { $0 is Double }, true, "what the run has is served")
            XCTAssertEqual(units["temperature_2m"], "°C")
            for name in hourly.split(separator: ",").map(String.init).dropFirst() {
                let series = try XCTUnwrap(values[name] as? [Any], name)
                XCTAssertEqual(series.count, 24, name)
                XCTAssertTrue(series.allSatisfy { $0 is NSNull }, name)
                XCTAssertEqual(units[name], "undefined", name)
            }
            let days = try XCTUnwrap(object["daily"] as? [String: Any]), dayUnits = try XCTUnwrap(object["daily_units"] as? [String: String])
            for name in ["uv_index_max", "snow_depth_max", "leaf_wetness_probability_mean"] {
                XCTAssertEqual((days[name] as? [Any])?.count, 1, name)
                XCTAssertTrue((days[name] as? [Any])?.allSatisfy { $0 is NSNull } == true, name)
                XCTAssertEqual(dayUnits[name], "undefined", name)
            }
            XCTAssertEqual(dayUnits["temperature_2m_max"], "°C")
            let current = try XCTUnwrap(object["current"] as? [String: Any])
            XCTAssertTrue(current["uv_index"] is NSNull)
            XCTAssertTrue(current["temperature_2m"] is Double)
            // Why each is null, in the extra key.
            let why = try XCTUnwrap((object["tilecast"] as? [String: Any])?["unavailable"] as? [String: String])
            XCTAssertTrue(why["ice_pellets_probability"]?.contains("does not compute") == true, "\(why)")
            XCTAssertTrue(why["uv_index_max"]?.contains("ultraviolet") == true, "\(why)")
            XCTAssertTrue(why["snow_depth"]?.contains("SNOWH") == true, "\(why)")
            XCTAssertTrue(why["snow_depth_max"]?.contains("SNOWH") == true, "\(why)")
            XCTAssertTrue(why["visibility"]?.contains("QCLOUD") == true, "\(why)")
            XCTAssertTrue(why["convective_cloud_base"]?.contains("does not compute") == true, "\(why)")
            XCTAssertNil(why["temperature_2m"])

            // CSV: the same columns, unit "undefined", NaN cells (Open-Meteo's CsvWriter.swift).
            let csv = try await server.get("/v1/forecast?\(place)&start_hour=2026-11-22T00:00&end_hour=2026-11-22T01:00&hourly=temperature_2m,ice_pellets_probability,snow_depth&format=csv")
            XCTAssertEqual(csv.status, 200, csv.body)
            let lines = csv.body.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            XCTAssertEqual(lines[3], "time,temperature_2m (°C),ice_pellets_probability (undefined),snow_depth (undefined)")
            XCTAssertTrue(lines[4].hasPrefix("2026-11-22T00:00,") && lines[4].hasSuffix(",NaN,NaN"), lines[4])

            // Only names Open-Meteo does not know are refused.
            for name in ["temprature_2m", "temperature_850", "uv_indexx"] {
                let refused = try await server.get("/v1/forecast?\(place)&\(day)&hourly=\(name)")
                XCTAssertEqual(refused.status, 400, name)
                XCTAssertTrue(refused.body.contains(name), refused.body)
            }
            let refused = try await server.get("/v1/forecast?\(place)&\(day)&daily=temperature_2m_median")
            XCTAssertEqual(refused.status, 400, refused.body)
        }
    }

    /// A request of nothing but unavailable names still answers the block's times.
    func testOnlyUnavailableNamesStillAnswerTheBlock() async throws {
        try await LiveServer.with(configuration(store)) { server in
            let reply = try await server.get("/v1/forecast?\(place)&\(day)&hourly=precipitation_probability&daily=uv_index_max")
            XCTAssertEqual(reply.status, 200, reply.body)
            XCTAssertEqual(((reply.object?["hourly"] as? [String: Any])?["time"] as? [String])?.count, 24)
            XCTAssertEqual(((reply.object?["hourly"] as? [String: Any])?["precipitation_probability"] as? [Any])?.count, 24)
            XCTAssertEqual(((reply.object?["daily"] as? [String: Any])?["uv_index_max"] as? [Any])?.count, 1)
            let flat = try await server.get("/v1/forecast?\(place)&\(day)&hourly=temperature_2m,precipitation_probability&format=flatbuffers")
            XCTAssertEqual(flat.status, 200)
        }
    }

    // MARK: 5. Impossible dates

    /// Open-Meteo's IsoDate (Sources/App/Helper/Time/IsoDate.swift) checks only day <= 31 and lets
    /// the calendar roll 2026-11-31 over to December 1st; refusing it is the documented improvement
    /// issue 27 item 7 asks for: a 400 naming the parameter.
    func testImpossibleDatesAreRefusedNamingTheParameter() async throws {
        try await LiveServer.with(configuration(store)) { server in
            for (query, parameter) in [("start_date=2026-11-22&end_date=2026-11-31", "end_date"), ("start_date=2026-02-31&end_date=2026-03-04", "start_date"),
                                       ("start_date=2026-02-29&end_date=2026-03-01", "start_date"), ("start_hour=2026-04-31T00:00&end_hour=2026-05-01T00:00", "start_hour")] {
                let reply = try await server.get("/v1/forecast?\(place)&hourly=temperature_2m&\(query)")
                XCTAssertEqual(reply.status, 400, "\(query): \(reply.body)")
                XCTAssertTrue((reply.object?["reason"] as? String)?.contains("'\(parameter)'") == true, "\(query): \(reply.body)")
            }
            let leap = try await server.get("/v1/forecast?\(place)&hourly=temperature_2m&start_date=2028-02-29&end_date=2028-02-29")
            XCTAssertEqual(leap.status, 200, leap.body)
        }
    }

    // MARK: 6. past_days and times outside the cycle

    /// Open-Meteo limits past_days and forecast_days each on its own (Sources/App/Helper/ForecastapiQuery.swift,
    /// `forecastTimeRange2`: past steps against pastStepsMax, forecast steps against forecastStepsMax);
    /// openapi/forecast.yml publishes past_days 0...92, forecast_days 0...16.
    func testPastDaysUpTo92IndependentOfForecastDays() async throws {
        try await LiveServer.with(configuration(store)) { server in
            let most = try await server.get("/v1/forecast?\(place)&hourly=temperature_2m&past_days=92&forecast_days=16")
            XCTAssertEqual(most.status, 200, String(most.body.prefix(300)))
            let times = try XCTUnwrap((most.object?["hourly"] as? [String: Any])?["time"] as? [String])
            XCTAssertEqual(times.count, (92 + 16) * 24)
            XCTAssertEqual(times.first, "2026-08-22T00:00", "92 days before 2026-11-22")
            let some = try await server.get("/v1/forecast?\(place)&hourly=temperature_2m&past_days=10&forecast_days=7&past_hours=48")
            XCTAssertEqual(some.status, 200, String(some.body.prefix(300)))
            for query in ["past_days=93", "forecast_days=17", "past_hours=2209", "forecast_hours=385"] {
                let reply = try await server.get("/v1/forecast?\(place)&hourly=temperature_2m&\(query)")
                XCTAssertEqual(reply.status, 400, query)
            }
            // One request's size stays what 1000 places x 16 days were: 200 places x 108 days (518,400 location-hours) are refused.
            let places = "latitude=" + Array(repeating: "39.3", count: 200).joined(separator: ",") + "&longitude=" + Array(repeating: "-8", count: 200).joined(separator: ",")
            let big = try await server.get("/v1/forecast?\(places)&hourly=temperature_2m&past_days=92&forecast_days=16")
            XCTAssertEqual(big.status, 400, String(big.body.prefix(300)))
            XCTAssertTrue(big.body.contains("location-hours"), String(big.body.prefix(300)))
            let fine = try await server.get("/v1/forecast?\(places)&hourly=temperature_2m&past_days=2&forecast_days=1")
            XCTAssertEqual(fine.status, 200, String(fine.body.prefix(300)))
        }
    }

    /// Hours no cycle covers are nulls (SPEC 4 and 8; Open-Meteo answers NaN beyond a model's
    /// range, Sources/App/Controllers/ForecastapiController.swift), also when no hour of the
    /// request is covered: 200 with the place's header, never 400 "outside the run".
    func testTimesWhollyOutsideTheCycleAreNulls() async throws {
        try await LiveServer.with(configuration(store)) { server in
            let reply = try await server.get("/v1/forecast?\(place)&hourly=temperature_2m,snow_depth&daily=temperature_2m_max&start_date=2026-12-01&end_date=2026-12-02")
            XCTAssertEqual(reply.status, 200, reply.body)
            let object = try XCTUnwrap(reply.object)
            let hourly = try XCTUnwrap(object["hourly"] as? [String: Any])
            XCTAssertEqual((hourly["time"] as? [String])?.count, 48)
            XCTAssertEqual((hourly["temperature_2m"] as? [Any])?.count, 48)
            XCTAssertTrue((hourly["temperature_2m"] as? [Any])?.allSatisfy { $0 is NSNull } == true)
            XCTAssertEqual((object["hourly_units"] as? [String: String])?["temperature_2m"], "°C", "null for want of time, not of data")
            XCTAssertEqual((object["hourly_units"] as? [String: String])?["snow_depth"], "undefined")
            XCTAssertEqual(((object["daily"] as? [String: Any])?["temperature_2m_max"] as? [Any])?.count, 2)
            let provenance = try XCTUnwrap(object["tilecast"] as? [String: Any])
            XCTAssertEqual(provenance["model"] as? String, "wrf")
            XCTAssertNotNil((provenance["unavailable"] as? [String: String])?["snow_depth"])
            // The other formats too.
            for format in ["csv", "flatbuffers"] {
                let other = try await server.get("/v1/forecast?\(place)&hourly=temperature_2m&start_date=2026-12-01&end_date=2026-12-02&format=\(format)")
                XCTAssertEqual(other.status, 200, format)
            }
            // A place outside every domain is still the client's error.
            let outside = try await server.get("/v1/forecast?latitude=60&longitude=20&hourly=temperature_2m&start_date=2026-12-01&end_date=2026-12-02")
            XCTAssertEqual(outside.status, 400, outside.body)
        }
    }
}
