import Catalog
import XCTest

/// The order the store writes variables in (`VariableSpec.Stored.index`): each keeps its number.
/// Tables indexed by `ordinal` rely on it being the position in `allCases`.
final class CatalogIndexTests: XCTestCase {
    func testOrdinalIsThePositionInAllCases() {
        for (position, variable) in ForecastVariable.allCases.enumerated() { XCTAssertEqual(variable.ordinal, position) }
    }

    /// The numbers as stores written so far have them: a new variable takes the next number, none
    /// moves. Written out here, not read from the registry.
    func testStoreIndicesAreTheFormatsCatalog() {
        let catalog = """
            temperature_2m relative_humidity_2m dew_point_2m apparent_temperature wind_u_10m wind_v_10m precipitation
            snowfall surface_pressure pressure_msl cloud_cover shortwave_radiation elevation rain showers
            snow_depth vapour_pressure_deficit soil_temperature_0_to_10cm soil_temperature_10_to_40cm
            soil_temperature_40_to_100cm soil_temperature_100_to_200cm soil_moisture_0_to_10cm soil_moisture_10_to_40cm
            soil_moisture_40_to_100cm soil_moisture_100_to_200cm direct_radiation diffuse_radiation cape wind_gusts_10m
            cloud_cover_low cloud_cover_mid cloud_cover_high visibility surface_temperature boundary_layer_height
            snow_depth_water_equivalent albedo latent_heat_flux sensible_heat_flux runoff hail
            soil_moisture_index_0_to_10cm soil_moisture_index_10_to_40cm soil_moisture_index_40_to_100cm
            soil_moisture_index_100_to_200cm potential_evapotranspiration
            temperature_80m wind_u_component_80m wind_v_component_80m temperature_100m wind_u_component_100m
            wind_v_component_100m temperature_120m wind_u_component_120m wind_v_component_120m temperature_180m
            wind_u_component_180m wind_v_component_180m temperature_1000hPa relative_humidity_1000hPa
            dew_point_1000hPa wind_u_component_1000hPa wind_v_component_1000hPa geopotential_height_1000hPa
            cloud_cover_1000hPa vertical_velocity_1000hPa temperature_925hPa relative_humidity_925hPa dew_point_925hPa
            wind_u_component_925hPa wind_v_component_925hPa geopotential_height_925hPa cloud_cover_925hPa
            vertical_velocity_925hPa temperature_850hPa relative_humidity_850hPa dew_point_850hPa
            wind_u_component_850hPa wind_v_component_850hPa geopotential_height_850hPa cloud_cover_850hPa
            vertical_velocity_850hPa temperature_700hPa relative_humidity_700hPa dew_point_700hPa
            wind_u_component_700hPa wind_v_component_700hPa geopotential_height_700hPa cloud_cover_700hPa
            vertical_velocity_700hPa temperature_500hPa relative_humidity_500hPa dew_point_500hPa
            wind_u_component_500hPa wind_v_component_500hPa geopotential_height_500hPa cloud_cover_500hPa
            vertical_velocity_500hPa temperature_300hPa relative_humidity_300hPa dew_point_300hPa
            wind_u_component_300hPa wind_v_component_300hPa geopotential_height_300hPa cloud_cover_300hPa
            vertical_velocity_300hPa temperature_250hPa relative_humidity_250hPa dew_point_250hPa
            wind_u_component_250hPa wind_v_component_250hPa geopotential_height_250hPa cloud_cover_250hPa
            vertical_velocity_250hPa temperature_200hPa relative_humidity_200hPa dew_point_200hPa
            wind_u_component_200hPa wind_v_component_200hPa geopotential_height_200hPa cloud_cover_200hPa
            vertical_velocity_200hPa
            total_column_integrated_water_vapour freezing_level_height updraft k_index convective_inhibition lifted_index
            cloud_base cloud_top snow_density direct_normal_irradiance shortwave_radiation_clear_sky lightning_potential
            roughness_length
            """.split(whereSeparator: \.isWhitespace).map(String.init)
        XCTAssertEqual(ForecastVariable.stored.map(\.rawValue), catalog)
        // 12 was weather_code's, stored by cycles before the query computed it: never reused.
        // The levels (LevelVariables.swift) take 100-175 and the column quantities 200-205 (two
        // branches numbered them at the same time); the cloud boundaries, snow density and the
        // optional pass-through fields 206-212. A gap is only an unused number: the store
        // keeps variables by name, the index orders them.
        XCTAssertEqual(ForecastVariable.stored.map { $0.spec.stored?.index },
                       Array(0..<12) + Array(13...46) + Array(100...175) + Array(200...212))
    }

    /// Variables are hashed by their place in the registry and ordered by the store's catalog,
    /// the query's own after the stored ones.
    func testVariablesOrderAndHashByCatalogPosition() {
        let all = ForecastVariable.stored + ForecastVariable.allCases.filter { $0.spec.stored == nil }
        for (k, variable) in all.enumerated() {
            XCTAssertEqual(all.firstIndex { !($0 < variable) && !(variable < $0) }, k, "\(variable)")
            if k > 0 { XCTAssertTrue(all[k - 1] < variable) }
        }
        XCTAssertEqual(Set(all.map(\.hashValue)).count, all.count)
        let table = Dictionary(uniqueKeysWithValues: all.map { ($0, $0.rawValue) })
        for variable in all { XCTAssertEqual(table[variable], variable.rawValue) }
    }
}
