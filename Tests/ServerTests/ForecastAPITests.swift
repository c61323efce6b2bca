import Foundation
import TestSupport
import TileCastServer
import XCTest

/// `/v1/forecast` driven over HTTP: Open-Meteo's keys and shapes, several places, errors.
final class ForecastAPITests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var store: String!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory("tilecast-server")
        store = try StoreMaker.extractBaseline(into: directory)
    }

    private let day = "start_date=2026-11-22&end_date=2026-11-22"

    func testOpenMeteoKeysInOrderNullsBeyondTheCycleAndProvenance() async throws {
        try await LiveServer.with(configuration(store)) { server in
            let reply = try await server.get("/v1/forecast?latitude=39.3&longitude=-8&hourly=temperature_2m,precipitation&daily=temperature_2m_max&current=temperature_2m,wind_speed_10m&\(day)")
            XCTAssertEqual(reply.status, 200, reply.body)
            XCTAssertEqual(reply.contentType, "application/json; charset=utf-8")
            // Key order as Open-Meteo writes it, provenance under one extra key.
            let keys = ["latitude", "longitude", "generationtime_ms", "utc_offset_seconds", "timezone", "timezone_abbreviation",
                        "elevation", "tilecast", "current_units", "current", "hourly_units", "hourly", "daily_units", "daily"]
            let positions = keys.map { reply.body.range(of: "\"\($0)\":")?.lowerBound }
            XCTAssertFalse(positions.contains(nil), reply.body)
            XCTAssertEqual(positions.compactMap { $0 }, positions.compactMap { $0 }.sorted(), "keys in Open-Meteo's order")
            XCTAssertTrue(reply.body.contains("\"hourly\":{\"time\":["), "time first in hourly")
            let object = try XCTUnwrap(reply.object)
            XCTAssertEqual(object["timezone"] as? String, "GMT")
            XCTAssertEqual(object["utc_offset_seconds"] as? Int, 0)
            let hourly = try XCTUnwrap(object["hourly"] as? [String: Any])
            let times = try XCTUnwrap(hourly["time"] as? [String])
            XCTAssertEqual(times.count, 24)
            XCTAssertEqual(times.first, "2026-11-22T00:00")
            XCTAssertEqual(times.last, "2026-11-22T23:00")
            let temperature = try XCTUnwrap(hourly["temperature_2m"] as? [Any])
            // The run holds 00..03Z: four numbers, then nulls (as Open-Meteo beyond a model's range).
            XCTAssertTrue(temperature.prefix(4).allSatisfy { $0 is Double }, "\(temperature)")
            XCTAssertTrue(temperature.dropFirst(4).allSatisfy { $0 is NSNull }, "\(temperature)")
            let units = try XCTUnwrap(object["hourly_units"] as? [String: String])
            XCTAssertEqual(units, ["time": "iso8601", "temperature_2m": "°C", "precipitation": "mm"])
            let current = try XCTUnwrap(object["current"] as? [String: Any])
            XCTAssertEqual(current["time"] as? String, "2026-11-22T02:00", "02:10 to the quarter hour below")
            XCTAssertEqual(current["interval"] as? Int, 900)
            XCTAssertTrue(current["temperature_2m"] is Double, "\(current)")
            // Current at 02:00 is the hourly value at 02:00.
            XCTAssertEqual(current["temperature_2m"] as? Double, temperature[2] as? Double)
            let provenance = try XCTUnwrap(object["tilecast"] as? [String: Any])
            XCTAssertEqual(provenance["model"] as? String, "wrf")
            XCTAssertEqual(provenance["cycle"] as? String, "2026-11-22T00:00Z")
            XCTAssertEqual(provenance["domain"] as? String, "d01")
            XCTAssertEqual(provenance["grid_spacing_km"] as? Double, 15)
            XCTAssertNotNil(provenance["grid_position"] as? [String: Double])
            let daily = try XCTUnwrap(object["daily"] as? [String: Any])
            XCTAssertEqual(daily["time"] as? [String], ["2026-11-22"])
        }
    }

    func testSeveralPlacesGiveAnArrayInOrderAndUnixTimes() async throws {
        try await LiveServer.with(configuration(store)) { server in
            let reply = try await server.get("/v1/forecast?latitude=39.3,39.4,39.2&longitude=-8,-8.2,-7.9&hourly=temperature_2m&timeformat=unixtime&start_hour=2026-11-22T00:00&end_hour=2026-11-22T03:00")
            XCTAssertEqual(reply.status, 200, reply.body)
            let places = try XCTUnwrap(reply.json as? [[String: Any]])
            XCTAssertEqual(places.map { $0["latitude"] as? Double }, [39.3, 39.4, 39.2])
            XCTAssertEqual(places.map { $0["longitude"] as? Double }, [-8, -8.2, -7.9])
            let times = try XCTUnwrap((places[0]["hourly"] as? [String: Any])?["time"] as? [Int])
            // 2026-11-22T00:00Z = 1795305600, by independent arithmetic (20414 days * 86400).
            XCTAssertEqual(times, [1_795_305_600, 1_795_309_200, 1_795_312_800, 1_795_316_400])
            XCTAssertEqual((places[0]["hourly_units"] as? [String: String])?["time"], "unixtime")
            // Different places, different numbers.
            let first = (places[0]["hourly"] as? [String: Any])?["temperature_2m"] as? [Double]
            let second = (places[1]["hourly"] as? [String: Any])?["temperature_2m"] as? [Double]
            XCTAssertNotNil(first)
            XCTAssertNotEqual(first, second)
        }
    }

    func testOldSpellingsAnswerTheSameQuantities() async throws {
        try await LiveServer.with(configuration(store)) { server in
            let new = try await server.get("/v1/forecast?latitude=39.3&longitude=-8&hourly=temperature_2m,weather_code,wind_speed_10m,relative_humidity_2m&\(day)")
            let old = try await server.get("/v1/forecast?latitude=39.3&longitude=-8&hourly=temperature,weathercode,windspeed_10m,relativehumidity_2m&\(day)")
            XCTAssertEqual(new.status, 200, new.body)
            XCTAssertEqual(old.status, 200, old.body)
            let a = try XCTUnwrap(new.object?["hourly"] as? [String: Any]), b = try XCTUnwrap(old.object?["hourly"] as? [String: Any])
            // Answered under the names asked for, as Open-Meteo echoes them (OpenMeteoDropInTests).
            for (key, asked) in [("temperature_2m", "temperature"), ("weather_code", "weathercode"), ("wind_speed_10m", "windspeed_10m"),
                                 ("relative_humidity_2m", "relativehumidity_2m")] {
                XCTAssertEqual("\(a[key] ?? "a")", "\(b[asked] ?? "b")", key)
            }
            let legacy = try await server.get("/v1/forecast?latitude=39.3&longitude=-8&current_weather=true")
            XCTAssertEqual(legacy.status, 200, legacy.body)
            let weather = try XCTUnwrap(legacy.object?["current_weather"] as? [String: Any])
            XCTAssertEqual(weather["temperature"] as? Double, (a["temperature_2m"] as? [Any])?[2] as? Double)
        }
    }

    func testTimeZoneShiftsLabelsAndOffset() async throws {
        try await LiveServer.with(configuration(store)) { server in
            let reply = try await server.get("/v1/forecast?latitude=39.3&longitude=-8&hourly=temperature_2m&timezone=America/New_York&start_date=2026-11-21&end_date=2026-11-21")
            XCTAssertEqual(reply.status, 200, reply.body)
            let object = try XCTUnwrap(reply.object)
            XCTAssertEqual(object["utc_offset_seconds"] as? Int, -18000)
            XCTAssertEqual(object["timezone"] as? String, "America/New_York")
            // Open-Meteo now writes offsets as abbreviations ("GMT+1" for Europe/Berlin).
            XCTAssertEqual(object["timezone_abbreviation"] as? String, "GMT-5")
            let hourly = try XCTUnwrap(object["hourly"] as? [String: Any])
            let times = try XCTUnwrap(hourly["time"] as? [String])
            let values = try XCTUnwrap(hourly["temperature_2m"] as? [Any])
            // Local 19:00..22:00 on the 21st are 00..03Z on the 22nd: the run.
            let covered = zip(times, values).filter { $0.1 is Double }.map(\.0)
            XCTAssertEqual(covered, ["2026-11-21T19:00", "2026-11-21T20:00", "2026-11-21T21:00", "2026-11-21T22:00"])
        }
    }

    /// Without dates: forecast_days (7) from today's local midnight ("now" is 2026-11-22T02:10Z);
    /// forecast_hours and past_hours count from the current hour; timezone=auto is the place's
    /// zone (Europe/Lisbon: UTC+0 in November, so the same labels).
    func testDefaultDaysForecastHoursAndAutoZone() async throws {
        try await LiveServer.with(configuration(store)) { server in
            let week = try await server.get("/v1/forecast?latitude=39.3&longitude=-8&hourly=temperature_2m&daily=temperature_2m_max")
            XCTAssertEqual(week.status, 200, week.body)
            let hourly = try XCTUnwrap(week.object?["hourly"] as? [String: Any])
            XCTAssertEqual((hourly["time"] as? [String])?.count, 7 * 24)
            XCTAssertEqual((hourly["time"] as? [String])?.first, "2026-11-22T00:00")
            XCTAssertEqual((week.object?["daily"] as? [String: Any])?["time"] as? [String],
                           ["2026-11-22", "2026-11-23", "2026-11-24", "2026-11-25", "2026-11-26", "2026-11-27", "2026-11-28"])
            let hours = try await server.get("/v1/forecast?latitude=39.3&longitude=-8&hourly=temperature_2m&past_hours=1&forecast_hours=2&timezone=auto")
            XCTAssertEqual(hours.status, 200, hours.body)
            XCTAssertEqual((hours.object?["hourly"] as? [String: Any])?["time"] as? [String], ["2026-11-22T01:00", "2026-11-22T02:00", "2026-11-22T03:00"])
            XCTAssertEqual(hours.object?["timezone"] as? String, "Europe/Lisbon")
            XCTAssertEqual(hours.object?["utc_offset_seconds"] as? Int, 0)
        }
    }

    /// forecast_hours in zones off UTC by half or three quarters of an hour (issue 47): the hours
    /// count from the current local hour, as Open-Meteo's `forecastTimeRange2` aligns them
    /// (Sources/App/Helper/ForecastapiQuery.swift: `(now + utcOffset) / 3600 * 3600`), so the
    /// labels are whole local hours. Now is 02:10Z: 07:40 in Kolkata (+5:30), 07:55 in
    /// Kathmandu (+5:45), 22:40 the day before in St John's (-3:30), 05:40 in Tehran (+3:30).
    /// Each label's value is that instant's: the same as asked by start_hour..end_hour.
    func testForecastHoursInHalfHourZonesAreWholeLocalHours() async throws {
        let cases = [("Asia/Kolkata", ["2026-11-22T06:00", "2026-11-22T07:00", "2026-11-22T08:00", "2026-11-22T09:00"]),
                     ("Asia/Kathmandu", ["2026-11-22T06:00", "2026-11-22T07:00", "2026-11-22T08:00", "2026-11-22T09:00"]),
                     ("America/St_Johns", ["2026-11-21T21:00", "2026-11-21T22:00", "2026-11-21T23:00", "2026-11-22T00:00"]),
                     ("Asia/Tehran", ["2026-11-22T04:00", "2026-11-22T05:00", "2026-11-22T06:00", "2026-11-22T07:00"])]
        try await LiveServer.with(configuration(store)) { server in
            for (zone, labels) in cases {
                let base = "/v1/forecast?latitude=39.3&longitude=-8&hourly=temperature_2m&timezone=\(zone)"
                let hours = try await server.get(base + "&past_hours=1&forecast_hours=3")
                XCTAssertEqual(hours.status, 200, hours.body)
                let block = try XCTUnwrap(hours.object?["hourly"] as? [String: Any], hours.body)
                XCTAssertEqual(block["time"] as? [String], labels, zone)
                let byDates = try await server.get(base + "&start_hour=\(labels[0])&end_hour=\(labels[3])")
                let dated = try XCTUnwrap(byDates.object?["hourly"] as? [String: Any], byDates.body)
                XCTAssertEqual(dated["time"] as? [String], labels, zone)
                XCTAssertEqual((block["temperature_2m"] as? [Any])?.map { "\($0)" }, (dated["temperature_2m"] as? [Any])?.map { "\($0)" }, zone)
            }
        }
    }

    func testCSVAsOpenMeteoWritesIt() async throws {
        try await LiveServer.with(configuration(store)) { server in
            let reply = try await server.get("/v1/forecast?latitude=39.3&longitude=-8&hourly=temperature_2m,precipitation&format=csv&start_hour=2026-11-22T00:00&end_hour=2026-11-22T01:00")
            XCTAssertEqual(reply.status, 200, reply.body)
            XCTAssertEqual(reply.contentType, "text/csv; charset=utf-8")
            let lines = reply.body.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            XCTAssertEqual(lines[0], "latitude,longitude,elevation,utc_offset_seconds,timezone,timezone_abbreviation")
            XCTAssertTrue(lines[1].hasPrefix("39.3,-8.0,"), lines[1])
            XCTAssertEqual(lines[2], "")
            XCTAssertEqual(lines[3], "time,temperature_2m (°C),precipitation (mm)")
            XCTAssertTrue(lines[4].hasPrefix("2026-11-22T00:00,"), lines[4])
            XCTAssertTrue(lines[5].hasPrefix("2026-11-22T01:00,"), lines[5])
            // location_information=omit (Open-Meteo's CsvWriter.swift, `withLocationHeader`):
            // the tables alone, the first without a blank line before it.
            let omitted = try await server.get("/v1/forecast?latitude=39.3&longitude=-8&hourly=temperature_2m,precipitation&format=csv"
                                               + "&start_hour=2026-11-22T00:00&end_hour=2026-11-22T01:00&location_information=omit")
            XCTAssertEqual(omitted.status, 200, omitted.body)
            XCTAssertEqual(omitted.body, lines[3...].joined(separator: "\n"))
            let bad = try await server.get("/v1/forecast?latitude=39.3&longitude=-8&hourly=temperature_2m&format=csv&location_information=none")
            XCTAssertEqual(bad.status, 400, bad.body)
            XCTAssertTrue(bad.body.contains("location_information"), bad.body)
        }
    }

    /// Issue 11's variables by their Open-Meteo names, hourly and daily, with their units.
    func testIssue11VariablesAnswerByOpenMeteoNames() async throws {
        try await LiveServer.with(configuration(store)) { server in
            let reply = try await server.get("/v1/forecast?latitude=39.3&longitude=-8&hourly=rain,showers,is_day,vapour_pressure_deficit,et0_fao_evapotranspiration&daily=precipitation_hours,daylight_duration,rain_sum,et0_fao_evapotranspiration&\(day)")
            XCTAssertEqual(reply.status, 200, reply.body)
            let object = try XCTUnwrap(reply.object)
            let hourly = try XCTUnwrap(object["hourly"] as? [String: Any])
            for name in ["rain", "showers", "is_day", "vapour_pressure_deficit", "et0_fao_evapotranspiration"] {
                let series = try XCTUnwrap(hourly[name] as? [Any], name)
                XCTAssertTrue(series.prefix(4).allSatisfy { $0 is NSNumber }, "\(name): \(series)")
            }
            XCTAssertEqual((hourly["is_day"] as? [Any])?.prefix(4).compactMap { $0 as? Int }, [0, 0, 0, 0], "00-03Z in November at 8 W is night")
            let units = try XCTUnwrap(object["hourly_units"] as? [String: String])
            XCTAssertEqual(units["vapour_pressure_deficit"], "kPa")
            let daily = try XCTUnwrap(object["daily"] as? [String: Any])
            XCTAssertNotNil(daily["daylight_duration"], "\(daily)")
            XCTAssertNotNil(daily["et0_fao_evapotranspiration"], "Open-Meteo's daily name, without _sum: \(daily)")
            XCTAssertEqual(units["et0_fao_evapotranspiration"], "mm")
        }
    }

    /// sunrise and sunset as Open-Meteo gives them: local times without offset ("iso8601")
    /// or unix seconds with timeformat=unixtime, the same instants, against astral
    /// (Scripts/solar_reference.py); shortwave_radiation_sum in MJ/m², the command line's path.
    func testSunriseSunsetTimeFormatsAndRadiationSum() async throws {
        let check = try runTool("python3", ["-c", "import astral"])
        try XCTSkipIf(check.status != 0, "python3 with astral is needed: \(check.stderr)")
        let reference = try runTool("python3", [Repository.root.appendingPathComponent("Scripts/solar_reference.py").path, "39.3,-8,2026-11-22,0"])
        XCTAssertEqual(reference.status, 0, reference.stderr)
        let fields = reference.stdout.split(separator: "\n")[1].split(separator: ",").map(String.init)
        let rise = try XCTUnwrap(Double(fields[3])), set = try XCTUnwrap(Double(fields[4]))
        try await LiveServer.with(configuration(store)) { server in
            let query = "/v1/forecast?latitude=39.3&longitude=-8&daily=sunrise,sunset,shortwave_radiation_sum&\(day)"
            let unix = try await server.get(query + "&timeformat=unixtime")
            XCTAssertEqual(unix.status, 200, unix.body)
            let daily = try XCTUnwrap(unix.object?["daily"] as? [String: Any])
            let sunrise = try XCTUnwrap((daily["sunrise"] as? [Int])?.first), sunset = try XCTUnwrap((daily["sunset"] as? [Int])?.first)
            XCTAssertLessThanOrEqual(abs(Double(sunrise) - rise), 35)
            XCTAssertLessThanOrEqual(abs(Double(sunset) - set), 35)
            XCTAssertEqual((unix.object?["daily_units"] as? [String: String])?["sunrise"], "unixtime")
            let iso = try await server.get(query + "&timezone=Europe/Lisbon")
            XCTAssertEqual(iso.status, 200, iso.body)
            let isoDaily = try XCTUnwrap(iso.object?["daily"] as? [String: Any])
            let text = try XCTUnwrap((isoDaily["sunrise"] as? [String])?.first)
            XCTAssertEqual(text + ":00Z", ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: TimeInterval(sunrise))), "Lisbon is UTC+0 in November")
            XCTAssertEqual((iso.object?["daily_units"] as? [String: String])?["shortwave_radiation_sum"], "MJ/m²")
            // SampleGrids does not cover the whole day: the sum is null, never a partial total.
            XCTAssertEqual((isoDaily["shortwave_radiation_sum"] as? [Any])?.count, 1)
        }
    }

    /// Every refusal is HTTP 400 with exactly {"error": true, "reason": ...}; never a 500.
    func testErrorsInOpenMeteoShape() async throws {
        try await LiveServer.with(configuration(store)) { server in
            let cases: [(String, String)] = [
                ("latitude=39.3&longitude=-8&hourly=temprature_2m&\(day)", "temprature_2m"),
                ("latitude=91&longitude=-8&hourly=temperature_2m&\(day)", "Latitude must be in range"),
                ("latitude=abc&longitude=-8&\(day)", "latitude"),
                ("latitude=39.3,39.4&longitude=-8&\(day)", "same number"),
                ("longitude=-8", "required"),
                ("latitude=60&longitude=20&hourly=temperature_2m&\(day)", "d01 15 km: lat 38.96..39.64"),
                ("latitude=39.3&longitude=-8&hourly=temperature_2m&timezone=Mars/Olympus", "timezone"),
                ("latitude=39.3&longitude=-8&hourly=temperature_2m&temperature_unit=kelvin&\(day)", "temperature_unit"),
                ("latitude=39.3&longitude=-8&daily=temperature_2m_median&\(day)", "temperature_2m_median"),
                ("latitude=39.3&longitude=-8&hourly=temperature_2m&start_date=2026-11-22", "end_date"),
                ("latitude=39.3&longitude=-8&hourly=temperature_2m&start_date=2026-11-23&end_date=2026-11-22", "before"),
                ("latitude=39.3&longitude=-8&forecast_days=x", "forecast_days"),
                ("latitude=39.3&longitude=-8&hourly=temperature_2m&models=gfs&\(day)", "this server holds wrf"),
                ("latitude=39.3&longitude=-8&hourly=temperature_2m&models=../../etc&\(day)", "this server holds wrf"),
                ("latitude=39.3&longitude=-8&hourly=temperature_2m&start_date=2026-11-22&end_date=2026-11-31", "end_date"),
                // Names Open-Meteo knows but the run lacks, and times outside the run, are nulls
                // (OpenMeteoDropInTests), not refusals.
            ]
            for (query, expected) in cases {
                let reply = try await server.get("/v1/forecast?" + query)
                XCTAssertEqual(reply.status, 400, "\(query): \(reply.body)")
                let object = try XCTUnwrap(reply.object, query)
                XCTAssertEqual(Set(object.keys), ["error", "reason"], query)
                XCTAssertEqual(object["error"] as? Bool, true, query)
                let reason = try XCTUnwrap(object["reason"] as? String, query)
                XCTAssertTrue(reason.contains(expected), "\(query): \(reason)")
                XCTAssertTrue(reply.body.hasPrefix("{\"error\": true, \"reason\": "), reply.body)
            }
            let missing = try await server.get("/v2/nothing")
            XCTAssertEqual(missing.status, 404)
            XCTAssertEqual(missing.object?["error"] as? Bool, true)
        }
    }
}
