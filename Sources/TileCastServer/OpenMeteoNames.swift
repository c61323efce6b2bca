import Catalog
import PointQuery

/// Open-Meteo's variable names, as its `/v1/forecast` parses them, mapped onto what TileCast
/// serves: the one place that says which names are old spellings of a served variable, which
/// are known to Open-Meteo but never served here (answered as a column of nulls), and, by
/// omission, which are unknown (400, as Open-Meteo answers them).
///
/// Taken from open-meteo/open-meteo at commit ba13de1c: `ForecastSurfaceVariable` and its
/// `remapped` (Sources/App/Controllers/VariableHourly.swift), `ForecastVariableDaily`
/// (Sources/App/Controllers/VariableDaily.swift), the pressure-level, height and previous-day
/// forms (Sources/App/Helper/PressureVariableRespresentable.swift,
/// Sources/App/Helper/Reader/VariableAndMember.swift). Open-Meteo answers a name it knows but
/// the chosen model lacks with a column of NaN and unit `.undefined`
/// (Sources/App/Controllers/ForecastapiController.swift, `hourly(variables:)`).
enum OpenMeteoNames {
    /// Open-Meteo's older daily spellings, as the daily names TileCast parses (`DailyVariable.parse`).
    static let dailyAliases: [String: String] = [
        "weathercode": "weather_code", "et0_fao_evapotranspiration_sum": "et0_fao_evapotranspiration",
        "cloudcover_max": "cloud_cover_max", "cloudcover_mean": "cloud_cover_mean", "cloudcover_min": "cloud_cover_min",
        "dewpoint_2m_max": "dew_point_2m_max", "dewpoint_2m_mean": "dew_point_2m_mean", "dewpoint_2m_min": "dew_point_2m_min",
        "windgusts_10m_max": "wind_gusts_10m_max", "windgusts_10m_mean": "wind_gusts_10m_mean", "windgusts_10m_min": "wind_gusts_10m_min",
        "windspeed_10m_max": "wind_speed_10m_max", "windspeed_10m_mean": "wind_speed_10m_mean", "windspeed_10m_min": "wind_speed_10m_min",
        "winddirection_10m_dominant": "wind_direction_10m_dominant", "vapor_pressure_deficit_max": "vapour_pressure_deficit_max",
    ]

    /// `ForecastSurfaceVariable` names TileCast never serves (none of its variables, nor an alias).
    static let unservedHourly: Set<String> = Set("""
        aerosol_optical_depth   alder_pollen ammonia apparent_temperature_spread birch_pollen
         boundary_layer_height_spread cape_spread carbon_dioxide carbon_monoxide 
        cloud_cover_2m cloud_cover_high_spread cloud_cover_low_spread cloud_cover_mid_spread cloud_cover_spread
         convective_cloud_base convective_cloud_top  convective_inhibition_spread
        dew_point_2m_spread  diffuse_radiation_instant_spread diffuse_radiation_spread
          direct_normal_irradiance_instant_spread
        direct_normal_irradiance_spread  direct_radiation_instant_spread direct_radiation_spread
        dust et0_fao_evapotranspiration_spread european_aqi european_aqi_nitrogen_dioxide european_aqi_no2
        european_aqi_o3 european_aqi_ozone european_aqi_pm10 european_aqi_pm2_5 european_aqi_so2
        european_aqi_sulphur_dioxide  formaldehyde  freezing_level_height_spread
          global_tilted_irradiance global_tilted_irradiance_instant
        global_tilted_irradiance_instant_spread global_tilted_irradiance_spread glyoxal grass_pollen
        growing_degree_days_base_0_limit_50  ice_pellets_probability invert_barometer_height 
          leaf_wetness_probability  lightning_density 
        mass_density_8m methane mugwort_pollen nitrogen_dioxide nitrogen_monoxide non_methane_volatile_organic_compounds
        ocean_current_direction ocean_current_velocity olive_pollen ozone peroxyacyl_nitrates pm10 pm10_wildfires pm2_5
        pm2_5_total_organic_matter   precipitation_spread
        precipitation_type pressure_msl_spread ragweed_pollen  rain_spread relative_humidity_2m_spread
        residential_elementary_carbon   sea_ice_thickness sea_level_height_msl sea_salt_aerosol
        sea_surface_temperature sea_surface_temperature_spread sea_water_salinity secondary_inorganic_aerosol
        secondary_swell_wave_direction secondary_swell_wave_height secondary_swell_wave_period 
          shortwave_radiation_clear_sky_instant
         shortwave_radiation_instant_spread shortwave_radiation_spread showers_spread
          snow_depth_spread  snow_depth_water_equivalent_spread
        snowfall_height snowfall_height_spread  snowfall_spread 
        snowfall_water_equivalent_spread soil_moisture_0_1cm soil_moisture_0_to_100cm soil_moisture_0_to_10cm_spread
        soil_moisture_0_to_1cm soil_moisture_0_to_7cm soil_moisture_0_to_7cm_spread soil_moisture_100_to_200cm_spread
        soil_moisture_100_to_255cm soil_moisture_100_to_255cm_spread soil_moisture_100_to_300cm soil_moisture_10_to_35cm
        soil_moisture_10_to_40cm_spread soil_moisture_1_3cm soil_moisture_1_to_3cm soil_moisture_243_to_729cm
        soil_moisture_27_81cm soil_moisture_27_to_81cm soil_moisture_28_to_100cm soil_moisture_28_to_100cm_spread
        soil_moisture_35_to_100cm soil_moisture_3_9cm soil_moisture_3_to_9cm soil_moisture_40_to_100cm_spread
        soil_moisture_729_to_2187cm soil_moisture_7_to_28cm soil_moisture_7_to_28cm_spread soil_moisture_81_to_243cm
        soil_moisture_9_27cm soil_moisture_9_to_27cm soil_moisture_index_0_to_100cm soil_moisture_index_0_to_7cm
        soil_moisture_index_100_to_255cm soil_moisture_index_28_to_100cm soil_moisture_index_7_to_28cm
        soil_temperature_0_to_100cm soil_temperature_0_to_10cm_spread soil_temperature_0_to_7cm
        soil_temperature_0_to_7cm_spread soil_temperature_0cm soil_temperature_100_to_200cm_spread
        soil_temperature_100_to_255cm soil_temperature_100_to_255cm_spread soil_temperature_100_to_300cm
        soil_temperature_10_to_35cm soil_temperature_10_to_40cm_spread soil_temperature_1458cm soil_temperature_162cm
        soil_temperature_18cm soil_temperature_28_to_100cm soil_temperature_28_to_100cm_spread
        soil_temperature_35_to_100cm soil_temperature_40_to_100cm_spread soil_temperature_486cm soil_temperature_54cm
        soil_temperature_6cm soil_temperature_7_to_28cm soil_temperature_7_to_28cm_spread sulphur_dioxide
        sunshine_duration_spread surface_pressure_spread  surface_temperature_spread
        swell_wave_direction swell_wave_height swell_wave_peak_period swell_wave_period temperature_100m
        temperature_120m temperature_120m_spread temperature_150m temperature_180m temperature_200m temperature_20m
        temperature_2m_max temperature_2m_max_spread temperature_2m_min temperature_2m_min_spread temperature_2m_spread
        temperature_40m temperature_50m temperature_80m temperature_80m_spread 
         tertiary_swell_wave_direction tertiary_swell_wave_height
        tertiary_swell_wave_period thunderstorm_probability  total_column_water
        total_elementary_carbon  us_aqi us_aqi_carbon_monoxide us_aqi_co us_aqi_nitrogen_dioxide us_aqi_no2
        us_aqi_o3 us_aqi_ozone us_aqi_pm10 us_aqi_pm2_5 us_aqi_so2 us_aqi_sulphur_dioxide uv_index uv_index_clear_sky
        uv_index_clear_sky_spread uv_index_spread vapour_pressure_deficit_spread visibility_spread wave_direction
        wave_direction_spread wave_height wave_height_spread wave_peak_period wave_peak_period_spread wave_period
        wave_period_spread  wet_bulb_temperature_2m_spread wind_direction_100m
        wind_direction_100m_spread wind_direction_10m_spread wind_direction_120m wind_direction_120m_spread
        wind_direction_140m wind_direction_150m wind_direction_160m wind_direction_180m wind_direction_200m
        wind_direction_200m_spread wind_direction_20m wind_direction_250m wind_direction_300m wind_direction_30m
        wind_direction_350m wind_direction_40m wind_direction_40m_spread wind_direction_450m wind_direction_50m
        wind_direction_70m wind_direction_80m wind_direction_80m_spread wind_gusts_10m_spread wind_speed_100m
        wind_speed_100m_spread wind_speed_10m_spread wind_speed_120m wind_speed_120m_spread wind_speed_140m
        wind_speed_150m wind_speed_160m wind_speed_180m wind_speed_200m wind_speed_200m_spread wind_speed_20m
        wind_speed_250m wind_speed_300m wind_speed_30m wind_speed_350m wind_speed_40m wind_speed_40m_spread
        wind_speed_450m wind_speed_50m wind_speed_70m wind_speed_80m wind_speed_80m_spread wind_u_component_100m
        wind_u_component_100m_spread wind_u_component_10m_spread wind_u_component_170m wind_u_component_200m
        wind_u_component_200m_spread wind_u_component_70m wind_v_component_100m wind_v_component_100m_spread
         wind_v_component_10m_spread wind_v_component_200m wind_v_component_200m_spread
        wind_v_component_70m wind_wave_direction wind_wave_height wind_wave_peak_period wind_wave_period
        winddirection_100m winddirection_120m winddirection_150m winddirection_180m winddirection_200m winddirection_20m
        winddirection_40m winddirection_50m winddirection_80m windspeed_100m windspeed_120m windspeed_150m
        windspeed_180m windspeed_200m windspeed_20m windspeed_40m windspeed_50m windspeed_80m
        """.split(whereSeparator: \.isWhitespace).map(String.init))

    /// `ForecastVariableDaily` names TileCast never serves.
    static let unservedDaily: Set<String> = Set("""
        growing_degree_days_base_0_limit_50 leaf_wetness_probability_mean   
           river_discharge
        river_discharge_max river_discharge_mean river_discharge_median river_discharge_min river_discharge_p25
        river_discharge_p75 sea_surface_temperature_max sea_surface_temperature_mean sea_surface_temperature_min
        soil_moisture_0_to_100cm_mean soil_moisture_0_to_7cm_mean
        soil_moisture_100_to_255cm_mean soil_moisture_28_to_100cm_mean soil_moisture_7_to_28cm_mean
        soil_moisture_index_0_to_100cm_mean soil_moisture_index_0_to_7cm_mean soil_moisture_index_100_to_255cm_mean
        soil_moisture_index_28_to_100cm_mean soil_moisture_index_7_to_28cm_mean soil_temperature_0_to_100cm_mean
        soil_temperature_0_to_7cm_mean soil_temperature_100_to_255cm_mean soil_temperature_28_to_100cm_mean
        soil_temperature_7_to_28cm_mean swell_wave_direction_dominant swell_wave_height_max swell_wave_peak_period_max
        swell_wave_period_max  uv_index_clear_sky_max uv_index_max wave_direction_dominant wave_height_max
        wave_period_max wet_bulb_temperature_2m_max wet_bulb_temperature_2m_mean wet_bulb_temperature_2m_min
        wind_direction_100m_dominant wind_direction_200m_dominant wind_speed_100m_max wind_speed_100m_mean
        wind_speed_100m_min wind_speed_200m_max wind_speed_200m_mean wind_speed_200m_min wind_wave_direction_dominant
        wind_wave_height_max wind_wave_peak_period_max wind_wave_period_max
        """.split(whereSeparator: \.isWhitespace).map(String.init))

    /// `ForecastPressureVariableType` and `ForecastHeightVariableType`: the quantities of
    /// `<quantity>_<level>hPa` and `<quantity>_<height>m` (any integer level or height).
    static let levelQuantities: Set<String> = [
        "temperature", "geopotential_height", "relativehumidity", "relative_humidity", "windspeed", "wind_speed",
        "winddirection", "wind_direction", "wind_u_component", "wind_v_component", "dewpoint", "dew_point",
        "cloudcover", "cloud_cover", "vertical_velocity",
    ]

    /// Why a name Open-Meteo knows gets nulls here, or nil when Open-Meteo does not know it
    /// (for names that are neither served nor an alias).
    static func unservedReason(hourly name: String) -> String? {
        if let refusal = ForecastVariable.refusal(name) { return refusal }
        if unservedHourly.contains(name) || isLevelName(name) { return notComputed(name) }
        // "<surface name>_previous_day<N>": a value from an older run, which Open-Meteo keeps
        // per day of lead time; TileCast answers from one cycle per hour.
        if let range = name.range(of: "_previous_day"), Int(name[range.upperBound...]) != nil {
            let base = String(name[..<range.lowerBound])
            if ForecastVariable.output(named: base) != nil || ForecastVariable.openMeteoAlias(base) != nil || unservedHourly.contains(base) {
                return "\(name) cannot be served: TileCast answers each hour from one cycle and keeps no previous-day series"
            }
        }
        return nil
    }

    static func unservedReason(daily name: String) -> String? {
        if let refusal = ForecastVariable.refusal(name) { return refusal }
        return unservedDaily.contains(name) ? notComputed(name) : nil
    }

    private static func notComputed(_ name: String) -> String {
        "\(name) cannot be served: TileCast does not compute it from WRF/MM5 output"
    }

    /// `temperature_850hPa`, `wind_speed_80m` (Open-Meteo's pressure-level and height forms).
    private static func isLevelName(_ name: String) -> Bool {
        guard let underscore = name.lastIndex(of: "_") else { return false }
        let quantity = String(name[..<underscore]), level = name[name.index(after: underscore)...]
        guard levelQuantities.contains(quantity) else { return false }
        if level.hasSuffix("hPa") { return Int(level.dropLast(3)) != nil }
        if level.hasSuffix("m") { return Int(level.dropLast(1)) != nil }
        return false
    }
}
