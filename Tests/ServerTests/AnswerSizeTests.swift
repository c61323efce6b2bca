import Foundation
import TestSupport
import TileCastServer
import XCTest

/// Issue 43 item 3: the answer budget reserves, before any place is computed, at least what
/// the answer holds, whatever blocks and models it asks for; an answer past the request limit
/// is refused with Open-Meteo's 400 before it is made.
final class AnswerSizeTests: XCTestCase {
    private static let now: Int64 = 1_795_313_400   // 2026-11-22T02:10Z, inside the sample run

    private func sampleStore(_ directory: TemporaryDirectory) throws -> String {
        let store = directory.path("store")
        let extract = try StoreMaker.run(["extract", Repository.sampleGrids.path, "--store", store, "--quiet"])
        XCTAssertEqual(extract.status, 0, extract.stderr)
        return store
    }

    /// Each request's reservation against the bytes of its answer, uncompressed. Before the
    /// fix the estimate counted hourly and daily columns only: `minutely_15` (4 entries an
    /// hour) and `current` were left out (a 274 MB answer reserved 22 MB).
    func testReservationCoversEveryBlockAndModel() throws {
        let directory = try TemporaryDirectory("tilecast-answer-size")
        let engine = ForecastEngine(cycles: CycleCache(root: try sampleStore(directory)))
        let variables = "temperature_2m,relative_humidity_2m,dew_point_2m,apparent_temperature,precipitation,snowfall,weather_code,"
            + "pressure_msl,surface_pressure,cloud_cover,wind_speed_10m,wind_direction_10m,shortwave_radiation,rain,showers,is_day"
        let places = "latitude=39.3,38.7,39,40.1&longitude=-8,-9.1,-8.5,-7.9"
        let requests = [
            "\(places)&minutely_15=\(variables)&start_date=2026-11-22&end_date=2026-11-22",
            "\(places)&minutely_15=\(variables)&forecast_days=3",
            "\(places)&minutely_15=\(variables)&models=wrf,mm5&start_date=2026-11-22&end_date=2026-11-22",
            "\(places)&minutely_15=\(variables)&hourly=\(variables)&models=wrf,mm5&format=csv&start_date=2026-11-22&end_date=2026-11-22",
            "\(places)&current=\(variables)&current_weather=true",
            "\(places)&hourly=\(variables)&daily=temperature_2m_max,temperature_2m_min,precipitation_sum,sunrise&timezone=auto&past_days=2",
            "latitude=39.3&longitude=-8&hourly=\(variables)&temporal_resolution=native&start_date=2026-11-22&end_date=2026-11-22",
            "bounding_box=39,-8.5,39.2,-8.2&minutely_15=\(variables)&start_date=2026-11-22&end_date=2026-11-22&format=csv",
        ]
        for query in requests {
            let parameters = try ForecastServer.parameters(target: "/v1/forecast?" + query, formBody: nil)
            var reserved = 0
            let answer = try engine.respond(parameters, now: Self.now, admit: { bytes in
                reserved = bytes
                return true
            })
            XCTAssertGreaterThan(answer.body.count, 1000, query)
            XCTAssertGreaterThanOrEqual(reserved, answer.body.count, "\(query): \(answer.body.count) bytes made, \(reserved) reserved")
            // An upper estimate, not a wild one: within 8 times the answer.
            XCTAssertLessThan(reserved, 8 * answer.body.count + 64 << 10, query)
        }
    }

    /// A request whose answer would hold more than `maxAnswerValues` values is a 400 in
    /// Open-Meteo's shape, answered before any place is computed (a box of every variable for
    /// 16 days took 483-826 MB to make); one within it is made.
    func testTooMuchDataIsRefusedBeforeAnyPlaceIsComputed() async throws {
        let directory = try TemporaryDirectory("tilecast-too-much")
        let store = try sampleStore(directory)
        // 59 hourly variables the server answers (most null in the sample run).
        let every = "temperature_2m,relative_humidity_2m,dew_point_2m,apparent_temperature,wind_speed_10m,wind_direction_10m,wind_u_10m,precipitation,snowfall,surface_pressure,pressure_msl,cloud_cover,shortwave_radiation,weather_code,rain,showers,snow_depth,vapour_pressure_deficit,soil_temperature_0_to_10cm,soil_moisture_0_to_10cm,wind_gusts_10m,direct_radiation,cape,cloud_cover_low,visibility,surface_temperature,boundary_layer_height,snow_depth_water_equivalent,albedo,is_day,et0_fao_evapotranspiration,sunshine_duration,wet_bulb_temperature_2m,latent_heat_flux,sensible_heat_flux,evapotranspiration,snowfall_water_equivalent,hail,runoff,potential_evapotranspiration,total_column_integrated_water_vapour,freezing_level_height,updraft,k_index,convective_inhibition,lifted_index,cloud_base,snow_density,direct_normal_irradiance,shortwave_radiation_clear_sky,lightning_potential,roughness_length,air_density_2m,soil_moisture_index_0_to_10cm,shortwave_radiation_instant,terrestrial_radiation,global_tilted_irradiance,temperature_80m,wind_speed_80m"
        let variables = every.split(separator: ",").prefix(24).joined(separator: ",")
        func places(_ count: Int) -> String {
            "latitude=" + Array(repeating: "39.3", count: count).joined(separator: ",") + "&longitude=" + Array(repeating: "-8", count: count).joined(separator: ",")
        }
        try await LiveServer.with(configuration(store)) { server in
            // Within the 386,000 location-hours of before, past the values: 200 places x 16 days
            // of hourly and 15-minute steps x 24 variables (9.2 M values); 100 places x 2 models x
            // 16 days of 15-minute steps x 24 variables (7.4 M).
            for body in ["\(places(200))&hourly=\(variables)&minutely_15=\(variables)&forecast_days=16",
                         "\(places(100))&minutely_15=\(variables)&forecast_days=16&models=wrf,mm5"] {
                let reply = try await server.send(.POST, "/v1/forecast", headers: [("Content-Type", "application/x-www-form-urlencoded")], body: body).reply
                XCTAssertEqual(reply.status, 400, String(reply.body.prefix(300)))
                XCTAssertEqual(reply.object?["error"] as? Bool, true, reply.body)
                let reason = reply.object?["reason"] as? String ?? ""
                XCTAssertTrue(reason.hasPrefix("Too much data requested") && reason.contains("\(ForecastEngine.maxAnswerValues)"), reason)
            }
            // A box of every variable for 16 days (460 cells, 10.4 M values).
            let box = try await server.get("/v1/forecast?bounding_box=35,-12,43,-4&hourly=\(every)&forecast_days=16&format=csv")
            XCTAssertEqual(box.status, 400, String(box.body.prefix(300)))
            XCTAssertTrue(box.body.contains("Too much data requested"), box.body)
            // Within the limit: answered.
            let within = try await server.send(.POST, "/v1/forecast", headers: [("Content-Type", "application/x-www-form-urlencoded")],
                                               body: places(700) + "&minutely_15=temperature_2m,precipitation&forecast_days=2").reply
            XCTAssertEqual(within.status, 200, String(within.body.prefix(300)))
        }
    }
}
