import Foundation
import TestSupport
import TileCastServer
import XCTest

/// Issue 26: the request shapes Open-Meteo's API takes besides one place and one model —
/// several models, another time step, per-place lists, a bounding box — answered as Open-Meteo's
/// server answers them. Each rule cites its Open-Meteo source file (open-meteo/open-meteo at
/// commit ba13de1c).
final class OpenMeteoRequestShapesTests: XCTestCase {
    private let lisbon = "latitude=38.7223&longitude=-9.1393"
    private let day = "start_date=2026-11-22&end_date=2026-11-22"

    /// SampleGrids extracted: models `wrf` (d01 9 km, d02 3 km, hourly) and `mm5` (27 km).
    private func sampleStore(_ directory: TemporaryDirectory) throws -> String {
        let store = directory.path("store")
        let result = try StoreMaker.run(["extract", Repository.sampleGrids.path, "--store", store])
        XCTAssertEqual(result.status, 0, result.stderr)
        return store
    }

    private func sampleConfiguration(_ store: String) -> ServerConfiguration {
        var settings = ServerConfiguration(storeRoot: store)
        settings.now = { 1_795_305_600 + 6 * 3600 + 600 }  // 2026-11-22T06:10Z
        return settings
    }

    // MARK: models=a,b

    /// Sources/App/Helper/Writer/ForecastApiResult.swift (`PerLocation.hourly`/`daily`, `toApiSectionString`):
    /// with more than one model answering a location, every column is `<name>_<model>`, all of
    /// the first model's columns, then the next model's; the header is the first model's
    /// (JsonWriter.swift, `results.first`). A model that does not hold the place is left out
    /// (ForecastapiController.swift, `domains.asyncCompactMap`), and with one model left no
    /// column is suffixed. FlatBuffers: one message per model (FlatBuffersWriter.swift).
    func testSeveralModelsAnswerSuffixedColumns() async throws {
        let directory = try TemporaryDirectory("tilecast-shapes-models")
        let store = try sampleStore(directory)
        try await LiveServer.with(sampleConfiguration(store)) { server in
            let ask = "hourly=temperature_2m,cloud_cover&daily=temperature_2m_max&\(day)"
            let both = try await server.get("/v1/forecast?\(lisbon)&\(ask)&models=wrf,mm5")
            XCTAssertEqual(both.status, 200, both.body)
            let wrf = try await server.get("/v1/forecast?\(lisbon)&\(ask)&models=wrf")
            let mm5 = try await server.get("/v1/forecast?\(lisbon)&\(ask)&models=mm5")
            let hourly = try XCTUnwrap(both.object?["hourly"] as? [String: Any])
            XCTAssertEqual(Set(hourly.keys), ["time", "temperature_2m_wrf", "cloud_cover_wrf", "temperature_2m_mm5", "cloud_cover_mm5"])
            let order = ["\"time\":", "\"temperature_2m_wrf\":", "\"cloud_cover_wrf\":", "\"temperature_2m_mm5\":", "\"cloud_cover_mm5\":"]
            let block = try XCTUnwrap(both.body.range(of: "\"hourly\":{").map { String(both.body[$0.upperBound...]) })
            let positions = order.compactMap { block.range(of: $0)?.lowerBound }
            XCTAssertEqual(positions.count, order.count)
            XCTAssertEqual(positions, positions.sorted(), "the first model's columns, then the second's")
            for (single, model) in [(wrf, "wrf"), (mm5, "mm5")] {
                let own = try XCTUnwrap(single.object?["hourly"] as? [String: Any])
                XCTAssertEqual("\(hourly["temperature_2m_\(model)"] ?? "")", "\(own["temperature_2m"] ?? "-")", model)
                let days = try XCTUnwrap(both.object?["daily"] as? [String: Any]), ownDays = try XCTUnwrap(single.object?["daily"] as? [String: Any])
                XCTAssertEqual("\(days["temperature_2m_max_\(model)"] ?? "")", "\(ownDays["temperature_2m_max"] ?? "-")", model)
            }
            // MM5 has no cloud cover: its column is null with the unit "undefined", and the reason is named.
            let units = try XCTUnwrap(both.object?["hourly_units"] as? [String: String])
            XCTAssertEqual(units["cloud_cover_mm5"], "undefined")
            XCTAssertEqual(units["cloud_cover_wrf"], "%")
            XCTAssertTrue((hourly["cloud_cover_mm5"] as? [Any])?.allSatisfy { $0 is NSNull } ?? false)
            let tilecast = try XCTUnwrap(both.object?["tilecast"] as? [String: Any])
            XCTAssertNotNil((tilecast["unavailable"] as? [String: String])?["cloud_cover_mm5"])
            XCTAssertEqual((tilecast["models"] as? [[String: Any]])?.compactMap { $0["model"] as? String }, ["wrf", "mm5"])
            // The header is the first model's: its elevation.
            XCTAssertEqual(both.object?["elevation"] as? Double, wrf.object?["elevation"] as? Double)

            // Madrid: only MM5 holds it, so its columns are not suffixed.
            let madrid = try await server.get("/v1/forecast?latitude=40.4&longitude=-3.7&\(ask)&models=wrf,mm5")
            XCTAssertEqual(madrid.status, 200, madrid.body)
            XCTAssertNotNil((madrid.object?["hourly"] as? [String: Any])?["temperature_2m"], madrid.body)

            // CSV: the same suffixed columns in the header row.
            let csv = try await server.get("/v1/forecast?\(lisbon)&hourly=temperature_2m&\(day)&models=wrf,mm5&format=csv")
            XCTAssertTrue(csv.body.contains("\ntime,temperature_2m_wrf (°C),temperature_2m_mm5 (°C)\n"), csv.body)

            // A model the store does not hold is still refused by name.
            let unknown = try await server.get("/v1/forecast?\(lisbon)&\(ask)&models=wrf,gfs")
            XCTAssertEqual(unknown.status, 400)
            XCTAssertTrue(unknown.body.contains("gfs"), unknown.body)

            // The official SDK reads one FlatBuffers message per model, equal to the JSON's columns.
            let python = try ClientLibraryPins.sdkPython()
            let script = Repository.root.appendingPathComponent("Tests/ServerTests/openmeteo_sdk_models.py").path
            let result = try runTool(python, [script, server.base, "hourly_3"])
            XCTAssertEqual(result.status, 0, result.stderr)
            let read = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], result.stdout)
            XCTAssertEqual(read["messages"] as? Int, 2)
            for answer in try XCTUnwrap(read["answers"] as? [[String: Any]]) {
                XCTAssertEqual(answer["same"] as? Bool, true, "\(answer)")
                XCTAssertEqual(answer["interval"] as? Int, 10800, "hourly_3: \(answer)")
                XCTAssertEqual(answer["n"] as? Int, 8, "\(answer)")
            }
        }
    }

    // MARK: temporal_resolution

    /// ForecastapiQuery.swift (`ApiTemporalResolution`) and ForecastapiController.swift
    /// (`hourly(variables:)`: `time.hourlyRead.with(dtSeconds:)`): the block keeps its range and
    /// takes one time every step from its start; an amount is the sum over the step before each
    /// time; `native` is the model's own step. Checked against the hourly answer by arithmetic:
    /// an instant value is the hourly value at the same time, a 3-hour amount the sum of the
    /// three hourly amounts ending then.
    func testTemporalResolutionSteps() async throws {
        let directory = try TemporaryDirectory("tilecast-shapes-resolution")
        let store = try sampleStore(directory)
        try await LiveServer.with(sampleConfiguration(store)) { server in
            let ask = "\(lisbon)&hourly=temperature_2m,precipitation&models=wrf&\(day)"
            let hourly = try await server.get("/v1/forecast?\(ask)")
            let hourlyBlock = try XCTUnwrap(hourly.object?["hourly"] as? [String: Any])
            let hours = try XCTUnwrap(hourlyBlock["time"] as? [String])
            let temperature = try XCTUnwrap(hourlyBlock["temperature_2m"] as? [Double])
            let precipitation = try XCTUnwrap(hourlyBlock["precipitation"] as? [Any]).map { $0 as? Double ?? .nan }
            XCTAssertGreaterThan(precipitation.filter { $0 > 0 }.count, 2, "the sample rains on the day")

            for (resolution, step) in [("hourly_3", 3), ("hourly_6", 6)] {
                let reply = try await server.get("/v1/forecast?\(ask)&temporal_resolution=\(resolution)")
                XCTAssertEqual(reply.status, 200, reply.body)
                let block = try XCTUnwrap(reply.object?["hourly"] as? [String: Any])
                let times = try XCTUnwrap(block["time"] as? [String])
                XCTAssertEqual(times, stride(from: 0, to: 24, by: step).map { hours[$0] }, resolution)
                let values = try XCTUnwrap(block["temperature_2m"] as? [Double])
                let amounts = try XCTUnwrap(block["precipitation"] as? [Any])
                for (k, hour) in stride(from: 0, to: 24, by: step).enumerated() {
                    XCTAssertEqual(values[k], temperature[hour], accuracy: 1e-9, "\(resolution) \(times[k])")
                    // The run starts at 00Z: the first step's amount reaches before it (unknown).
                    guard hour >= step else { continue }
                    let sum = (hour - step + 1...hour).map { precipitation[$0] }.reduce(0, +)
                    // Each hourly amount is printed to 0.1 mm: the sum of printed steps differs by at most half a step each.
                    XCTAssertEqual(amounts[k] as? Double ?? .nan, sum, accuracy: 0.05 * Double(step) + 0.051, "\(resolution) \(times[k])")
                }
            }
            // native: WRF's output interval here is an hour, so the answer is the hourly one.
            let native = try await server.get("/v1/forecast?\(ask)&temporal_resolution=native")
            XCTAssertEqual((native.object?["hourly"] as? [String: Any])?["time"] as? [String], hours)
            // minutely_15 as the hourly block's step: the same values as the minutely_15 block.
            let quarters = try await server.get("/v1/forecast?\(ask)&temporal_resolution=minutely_15")
            let quarterBlock = try await server.get("/v1/forecast?\(lisbon)&minutely_15=temperature_2m,precipitation&models=wrf&\(day)")
            let a = try XCTUnwrap(quarters.object?["hourly"] as? [String: Any]), b = try XCTUnwrap(quarterBlock.object?["minutely_15"] as? [String: Any])
            XCTAssertEqual((a["time"] as? [String])?.count, 96)
            for key in ["time", "temperature_2m", "precipitation"] { XCTAssertEqual("\(a[key] ?? "a")", "\(b[key] ?? "b")", key) }
            // Daily values still come from every hour.
            let daily = try await server.get("/v1/forecast?\(ask)&daily=precipitation_sum&temporal_resolution=hourly_6")
            let plain = try await server.get("/v1/forecast?\(ask)&daily=precipitation_sum")
            let sums = (daily.object?["daily"] as? [String: Any])?["precipitation_sum"] as? [Double]
            XCTAssertNotNil(sums, daily.body)
            XCTAssertEqual(sums, (plain.object?["daily"] as? [String: Any])?["precipitation_sum"] as? [Double])

            let wrong = try await server.get("/v1/forecast?\(ask)&temporal_resolution=hourly_2")
            XCTAssertEqual(wrong.status, 400)
            XCTAssertTrue(wrong.body.contains("temporal_resolution"), wrong.body)
            // The MM5 sample writes every 3 hours (its `time` variable: 0, 180, ... minutes), so
            // `native` answers it every 3 hours, the hourly answer's values at those hours.
            let mm5 = "\(lisbon)&hourly=temperature_2m&models=mm5&\(day)"
            let mm5HourlyReply = try await server.get("/v1/forecast?\(mm5)")
            let mm5NativeReply = try await server.get("/v1/forecast?\(mm5)&temporal_resolution=native")
            let mm5Hourly = try XCTUnwrap(mm5HourlyReply.object?["hourly"] as? [String: Any])
            let mm5Native = try XCTUnwrap(mm5NativeReply.object?["hourly"] as? [String: Any])
            XCTAssertEqual(mm5Native["time"] as? [String], stride(from: 0, to: 24, by: 3).map { hours[$0] })
            XCTAssertEqual("\(mm5Native["temperature_2m"] ?? "a")",
                           "\(stride(from: 0, to: 24, by: 3).map { (mm5Hourly["temperature_2m"] as? [Any])?[$0] ?? "b" })")
            // WRF (hourly) and MM5 (3-hourly) at `native`: Open-Meteo's refusal of models with
            // different steps (ForecastApiResult.swift, `merge`).
            let mixed = try await server.get("/v1/forecast?\(lisbon)&hourly=temperature_2m&models=wrf,mm5&\(day)&temporal_resolution=native")
            XCTAssertEqual(mixed.status, 400, mixed.body)
            XCTAssertEqual(mixed.object?["reason"] as? String, "Cannot return models with different time-intervals")
        }
    }

    // MARK: per-place lists, ranges and their 400s

    /// ForecastapiQuery.swift: `getCoordinatesWithTimezone` (one zone for all, or one per place,
    /// else "Parameter 'timezone' and coordinates must have the same number of elements"),
    /// `prepareCoordinates` (one range for all places; one place answered once per range; else
    /// one range per place) and `getStartEndDates` (any range with a non-zero past_/forecast_
    /// count is "mutually exclusive"; IsoDate.swift: as many starts as ends).
    func testPerPlaceZonesAndRanges() async throws {
        let directory = try TemporaryDirectory("tilecast-shapes-lists")
        let store = try StoreMaker.extractBaseline(into: directory)
        try await LiveServer.with(configuration(store)) { server in
            let two = "latitude=39.3,39.35&longitude=-8.3,-8.25&hourly=temperature_2m"
            let zones = try await server.get("/v1/forecast?\(two)&\(day)&timezone=Europe/Lisbon,America/New_York")
            XCTAssertEqual(zones.status, 200, zones.body)
            let objects = try XCTUnwrap(zones.json as? [[String: Any]])
            XCTAssertEqual(objects.map { $0["timezone"] as? String }, ["Europe/Lisbon", "America/New_York"])
            XCTAssertEqual(objects.map { $0["utc_offset_seconds"] as? Int }, [0, -18000])
            let auto = try await server.get("/v1/forecast?\(two)&\(day)&timezone=auto,GMT")
            XCTAssertEqual((auto.json as? [[String: Any]])?.map { $0["timezone"] as? String }, ["Europe/Lisbon", "GMT"])
            let miscounted = try await server.get("/v1/forecast?\(two)&\(day)&timezone=GMT,GMT,GMT")
            XCTAssertEqual(miscounted.status, 400)
            XCTAssertEqual(miscounted.object?["reason"] as? String, "Parameter 'timezone' and coordinates must have the same number of elements")

            // One place, two ranges: two answers.
            let ranges = try await server.get("/v1/forecast?latitude=39.3&longitude=-8.3&hourly=temperature_2m"
                                              + "&start_hour=2026-11-22T00:00,2026-11-22T02:00&end_hour=2026-11-22T01:00,2026-11-22T03:00")
            XCTAssertEqual(ranges.status, 200, ranges.body)
            let answers = try XCTUnwrap(ranges.json as? [[String: Any]], ranges.body)
            XCTAssertEqual(answers.map { ($0["hourly"] as? [String: Any])?["time"] as? [String] ?? [] },
                           [["2026-11-22T00:00", "2026-11-22T01:00"], ["2026-11-22T02:00", "2026-11-22T03:00"]])
            // Two places, two ranges: one each.
            let paired = try await server.get("/v1/forecast?\(two)&start_hour=2026-11-22T00:00,2026-11-22T02:00&end_hour=2026-11-22T00:00,2026-11-22T02:00")
            XCTAssertEqual((paired.json as? [[String: Any]])?.map { ($0["hourly"] as? [String: Any])?["time"] as? [String] ?? [] },
                           [["2026-11-22T00:00"], ["2026-11-22T02:00"]])
            let unequal = try await server.get("/v1/forecast?\(two)&start_date=2026-11-22,2026-11-22&end_date=2026-11-22")
            XCTAssertEqual(unequal.status, 400)
            XCTAssertEqual(unequal.object?["reason"] as? String, "Parameter 'start_date' and 'end_date' must have the same number of elements")
            let three = try await server.get("/v1/forecast?\(two)&start_date=2026-11-22,2026-11-22,2026-11-22&end_date=2026-11-22,2026-11-22,2026-11-22")
            XCTAssertEqual(three.status, 400, three.body)

            for name in ["past_days", "forecast_days", "past_hours", "forecast_hours", "past_minutely_15", "forecast_minutely_15"] {
                let reply = try await server.get("/v1/forecast?\(two)&\(day)&\(name)=1")
                XCTAssertEqual(reply.status, 400, name)
                XCTAssertEqual(reply.object?["reason"] as? String, "Parameter '\(name)' is mutually exclusive with 'start_date' and 'end_date'")
                let zero = try await server.get("/v1/forecast?\(two)&\(day)&\(name)=0")
                XCTAssertEqual(zero.status, 200, "\(name)=0 is allowed: \(zero.body)")
            }

            // initial_minutely_15: the steps start that many quarter hours after local midnight.
            let initial = try await server.get("/v1/forecast?latitude=39.3&longitude=-8.3&minutely_15=temperature_2m&forecast_minutely_15=3&initial_minutely_15=6")
            XCTAssertEqual((initial.object?["minutely_15"] as? [String: Any])?["time"] as? [String],
                           ["2026-11-22T01:30", "2026-11-22T01:45", "2026-11-22T02:00"], initial.body)
        }
    }

    /// openmeteo-sdk's swift/Sources/OpenMeteoSdk/Unit.swift (`abbreviation`), which Open-Meteo's
    /// writers print: miles per hour is "mp/h" in JSON and CSV (and unit 31 in FlatBuffers).
    func testMilesPerHourIsSpelledAsOpenMeteoSpellsIt() async throws {
        let directory = try TemporaryDirectory("tilecast-shapes-mph")
        let store = try StoreMaker.extractBaseline(into: directory)
        try await LiveServer.with(configuration(store)) { server in
            let ask = "latitude=39.3&longitude=-8.3&\(day)&wind_speed_unit=mph"
            let json = try await server.get("/v1/forecast?\(ask)&hourly=wind_speed_10m&daily=wind_speed_10m_max&current_weather=true")
            XCTAssertEqual((json.object?["hourly_units"] as? [String: String])?["wind_speed_10m"], "mp/h")
            XCTAssertEqual((json.object?["daily_units"] as? [String: String])?["wind_speed_10m_max"], "mp/h")
            XCTAssertEqual((json.object?["current_weather_units"] as? [String: String])?["windspeed"], "mp/h")
            let csv = try await server.get("/v1/forecast?\(ask)&hourly=wind_speed_10m&format=csv")
            XCTAssertTrue(csv.body.contains("time,wind_speed_10m (mp/h)"), csv.body)
        }
    }

    // MARK: bounding_box

    /// ForecastapiQuery.swift (`getBoundingBox`: four numbers, its messages) and
    /// ForecastapiController.swift (`.boundingBox`: every grid point of the box is a location,
    /// numbered from 0, at the grid point's own coordinates; one time zone, not `auto`). The
    /// cells and their values are checked against the file's own XLAT/XLONG and T2, read with
    /// netCDF4-python (box_cells_reference.py).
    func testBoundingBoxAnswersEveryCellInIt() async throws {
        let directory = try TemporaryDirectory("tilecast-shapes-box")
        let store = try StoreMaker.extractBaseline(into: directory)
        let box = (south: 39.1, west: -8.6, north: 39.45, east: -7.95)
        let script = Repository.root.appendingPathComponent("Tests/ServerTests/box_cells_reference.py").path
        let output = try runTool("python3", [script, StoreMaker.baseline, "\(box.south)", "\(box.west)", "\(box.north)", "\(box.east)", "2"])
        XCTAssertEqual(output.status, 0, output.stderr)
        let cells = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [[String: Double]])
        XCTAssertGreaterThan(cells.count, 4, "the box holds several cells and not the whole grid")
        try await LiveServer.with(configuration(store)) { server in
            let reply = try await server.get("/v1/forecast?bounding_box=\(box.south),\(box.west),\(box.north),\(box.east)"
                                             + "&hourly=temperature_2m&start_hour=2026-11-22T02:00&end_hour=2026-11-22T02:00")
            XCTAssertEqual(reply.status, 200, reply.body)
            let answers = try XCTUnwrap(reply.json as? [[String: Any]], reply.body)
            XCTAssertEqual(answers.count, cells.count)
            for (k, (answer, cell)) in zip(answers, cells).enumerated() {
                XCTAssertEqual(answer["location_id"] as? Int ?? 0, k)
                XCTAssertEqual(answer["latitude"] as? Double ?? .nan, cell["latitude"] ?? 0, accuracy: 1e-3, "cell \(k)")
                XCTAssertEqual(answer["longitude"] as? Double ?? .nan, cell["longitude"] ?? 0, accuracy: 1e-3, "cell \(k)")
                let value = ((answer["hourly"] as? [String: Any])?["temperature_2m"] as? [Double])?.first ?? .nan
                // Stored to 0.05 K, printed to 0.1.
                XCTAssertEqual(value, cell["t2"] ?? 0, accuracy: 0.08, "cell \(k)")
            }
            for (query, reason) in [("bounding_box=39,-8.6,39.4", "Parameter bounding_box must have 4 values"),
                                    ("bounding_box=39.4,-8.6,39,-8", "The first latitude must be smaller than the second latitude"),
                                    ("bounding_box=39,-8,39.4,-8.6", "The first longitude must be smaller than the second longitude"),
                                    ("bounding_box=39,-8.6,39.4,-8&timezone=auto", "Timezone 'auto' not supported with bounding box queries")] {
                let refused = try await server.get("/v1/forecast?\(query)&hourly=temperature_2m")
                XCTAssertEqual(refused.status, 400, query)
                XCTAssertEqual(refused.object?["reason"] as? String, reason, query)
            }
            let outside = try await server.get("/v1/forecast?bounding_box=10,10,11,11&hourly=temperature_2m")
            XCTAssertEqual(outside.status, 400, outside.body)
        }
    }

    /// ForecastapiController.swift: more grid cells than the locations one request may have is
    /// Open-Meteo's "Only up to ... locations can be requested at once". The sample's WRF d01 has
    /// 43 x 68 = 2,924 cells; a box around all of it holds more than 1,000.
    func testBoundingBoxOfMoreThanAThousandCellsIsRefused() async throws {
        let directory = try TemporaryDirectory("tilecast-shapes-bigbox")
        let store = try sampleStore(directory)
        try await LiveServer.with(sampleConfiguration(store)) { server in
            let reply = try await server.get("/v1/forecast?bounding_box=30,-20,50,0&models=wrf&hourly=temperature_2m")
            XCTAssertEqual(reply.status, 400, reply.body)
            XCTAssertTrue((reply.object?["reason"] as? String ?? "").hasPrefix("Only up to 1000 locations can be requested at once"), reply.body)
        }
    }
}
