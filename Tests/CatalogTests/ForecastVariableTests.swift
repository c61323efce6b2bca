import Catalog
import XCTest

/// The order the store writes variables in (`VariableSpec.Stored.index`): each keeps its number.
/// Tables indexed by `ordinal` rely on it being the position in `allCases`.
final class CatalogIndexTests: XCTestCase {
    func testOrdinalIsThePositionInAllCases() {
        for (position, variable) in ForecastVariable.allCases.enumerated() { XCTAssertEqual(variable.ordinal, position) }
    }

    /// Past 256 cases (two bytes of storage) the index still reads right: the catalog's limit
    /// is gone (issue 44 item 5; reading one byte gave 300 cases' index modulo 256).
    func testCaseIndexHoldsPastTwoHundredFiftySixCases() {
        XCTAssertEqual(ThreeHundredCases.allCases.count, 300)
        XCTAssertEqual(MemoryLayout<ThreeHundredCases>.size, 2)
        for (position, value) in ThreeHundredCases.allCases.enumerated() { XCTAssertEqual(CaseIndex.of(value), position) }
        XCTAssertLessThan(ForecastVariable.allCases.count, 65_536)
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
            roughness_length precipitation_neighbourhood snowfall_neighbourhood rain_neighbourhood freezing_rain_neighbourhood
            """.split(whereSeparator: \.isWhitespace).map(String.init)
        XCTAssertEqual(ForecastVariable.stored.map(\.rawValue), catalog)
        // 12 was weather_code's, stored by cycles before the query computed it: never reused.
        // The levels (LevelVariables.swift) take 100-175 and the column quantities 200-205 (two
        // branches numbered them at the same time); the cloud boundaries, snow density and the
        // optional pass-through fields 206-212; the neighbourhood fractions (issue 46) from 213. A gap is only an unused number: the store
        // keeps variables by name, the index orders them.
        XCTAssertEqual(ForecastVariable.stored.map { $0.spec.stored?.index },
                       Array(0..<12) + Array(13...46) + Array(100...175) + Array(200...216))
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

/// 300 cases: more than one byte of storage.
private enum ThreeHundredCases: CaseIterable {
    case c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12, c13, c14, c15, c16, c17, c18, c19, c20, c21, c22, c23, c24, c25, c26, c27, c28, c29, c30, c31, c32, c33, c34, c35, c36, c37, c38, c39, c40, c41, c42, c43, c44, c45, c46, c47, c48, c49, c50, c51, c52, c53, c54, c55, c56, c57, c58, c59, c60, c61, c62, c63, c64, c65, c66, c67, c68, c69, c70, c71, c72, c73, c74, c75, c76, c77, c78, c79, c80, c81, c82, c83, c84, c85, c86, c87, c88, c89, c90, c91, c92, c93, c94, c95, c96, c97, c98, c99, c100, c101, c102, c103, c104, c105, c106, c107, c108, c109, c110, c111, c112, c113, c114, c115, c116, c117, c118, c119, c120, c121, c122, c123, c124, c125, c126, c127, c128, c129, c130, c131, c132, c133, c134, c135, c136, c137, c138, c139, c140, c141, c142, c143, c144, c145, c146, c147, c148, c149, c150, c151, c152, c153, c154, c155, c156, c157, c158, c159, c160, c161, c162, c163, c164, c165, c166, c167, c168, c169, c170, c171, c172, c173, c174, c175, c176, c177, c178, c179, c180, c181, c182, c183, c184, c185, c186, c187, c188, c189, c190, c191, c192, c193, c194, c195, c196, c197, c198, c199, c200, c201, c202, c203, c204, c205, c206, c207, c208, c209, c210, c211, c212, c213, c214, c215, c216, c217, c218, c219, c220, c221, c222, c223, c224, c225, c226, c227, c228, c229, c230, c231, c232, c233, c234, c235, c236, c237, c238, c239, c240, c241, c242, c243, c244, c245, c246, c247, c248, c249, c250, c251, c252, c253, c254, c255, c256, c257, c258, c259, c260, c261, c262, c263, c264, c265, c266, c267, c268, c269, c270, c271, c272, c273, c274, c275, c276, c277, c278, c279, c280, c281, c282, c283, c284, c285, c286, c287, c288, c289, c290, c291, c292, c293, c294, c295, c296, c297, c298, c299
}
