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
            total_column_integrated_water_vapour freezing_level_height updraft k_index convective_inhibition lifted_index
            """.split(whereSeparator: \.isWhitespace).map(String.init)
        XCTAssertEqual(ForecastVariable.stored.map(\.rawValue), catalog)
        // 12 was weather_code's, stored by cycles before the query computed it: never reused.
        // Issue 28's column quantities take 200 and up (another branch numbers from 47 at the same
        // time); the store finds variables by name, so the gap costs nothing.
        XCTAssertEqual(ForecastVariable.stored.map { $0.spec.stored?.index }, Array(0..<12) + Array(13...46) + Array(200...205))
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
