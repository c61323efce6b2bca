/// Every variable TileCast knows, named as the common open weather APIs name them: the ones
/// extraction stores and the ones a query computes from them (wind speed and direction from
/// the stored components, is_day from the sun, ...). docs/VARIABLES.md describes each.
///
/// This is the variable registry: each variable is one `case` here plus one entry in
/// `declaration` (VariableRegistry.swift) holding everything about it. Every other list (the
/// store's catalog, units, precision, decimals, FlatBuffers codes, aliases, physical limits)
/// is read from that entry. What a stored variable is made from is `Derivations.table`
/// (ModelIngest), beside the arithmetic.
///
/// Cases are in the order answers list them; the store's order is `storeIndex`, a file-format
/// number that never changes once given.
public enum ForecastVariable: String, CaseIterable, Sendable, Codable, Comparable {
    case temperature2m = "temperature_2m"
    case relativeHumidity2m = "relative_humidity_2m"
    case dewPoint2m = "dew_point_2m"
    case apparentTemperature = "apparent_temperature"
    case precipitation = "precipitation"
    case snowfall = "snowfall"
    case weatherCode = "weather_code"
    case pressureMSL = "pressure_msl"
    case surfacePressure = "surface_pressure"
    case cloudCover = "cloud_cover"
    case windSpeed10m = "wind_speed_10m"
    case windDirection10m = "wind_direction_10m"
    case shortwaveRadiation = "shortwave_radiation"
    case windU10m = "wind_u_10m"
    case windV10m = "wind_v_10m"
    case rain = "rain"
    case showers = "showers"
    case snowDepth = "snow_depth"
    case vapourPressureDeficit = "vapour_pressure_deficit"
    case soilTemperature0to10cm = "soil_temperature_0_to_10cm"
    case soilTemperature10to40cm = "soil_temperature_10_to_40cm"
    case soilTemperature40to100cm = "soil_temperature_40_to_100cm"
    case soilTemperature100to200cm = "soil_temperature_100_to_200cm"
    case soilMoisture0to10cm = "soil_moisture_0_to_10cm"
    case soilMoisture10to40cm = "soil_moisture_10_to_40cm"
    case soilMoisture40to100cm = "soil_moisture_40_to_100cm"
    case soilMoisture100to200cm = "soil_moisture_100_to_200cm"
    case directRadiation = "direct_radiation"
    case diffuseRadiation = "diffuse_radiation"
    case cape = "cape"
    case windGusts10m = "wind_gusts_10m"
    case cloudCoverLow = "cloud_cover_low"
    case cloudCoverMid = "cloud_cover_mid"
    case cloudCoverHigh = "cloud_cover_high"
    case isDay = "is_day"
    case et0FaoEvapotranspiration = "et0_fao_evapotranspiration"
    case visibility = "visibility"
    case sunshineDuration = "sunshine_duration"
    case surfaceTemperature = "surface_temperature"
    case boundaryLayerHeight = "boundary_layer_height"
    case snowWaterEquivalent = "snow_depth_water_equivalent"
    case elevation = "elevation"
    case albedo = "albedo"
    case wetBulbTemperature2m = "wet_bulb_temperature_2m"
    case latentHeatFlux = "latent_heat_flux"
    case sensibleHeatFlux = "sensible_heat_flux"
    case evapotranspiration = "evapotranspiration"
    case snowfallWaterEquivalent = "snowfall_water_equivalent"
    case runoff = "runoff"
    case hail = "hail"
    case airDensity2m = "air_density_2m"
    case terrestrialRadiation = "terrestrial_radiation"
    case terrestrialRadiationInstant = "terrestrial_radiation_instant"
    case shortwaveRadiationInstant = "shortwave_radiation_instant"
    case directRadiationInstant = "direct_radiation_instant"
    case diffuseRadiationInstant = "diffuse_radiation_instant"
    case globalTiltedIrradiance = "global_tilted_irradiance"
    case globalTiltedIrradianceInstant = "global_tilted_irradiance_instant"
    case soilMoistureIndex0to10cm = "soil_moisture_index_0_to_10cm"
    case soilMoistureIndex10to40cm = "soil_moisture_index_10_to_40cm"
    case soilMoistureIndex40to100cm = "soil_moisture_index_40_to_100cm"
    case soilMoistureIndex100to200cm = "soil_moisture_index_100_to_200cm"
    case potentialEvapotranspiration = "potential_evapotranspiration"
    // Height and pressure levels (LevelVariables.swift): Open-Meteo's `<quantity>_<h>m` and
    // `<quantity>_<p>hPa` names, in the `all` extraction set.
    case temperature80m = "temperature_80m"
    case windSpeed80m = "wind_speed_80m"
    case windDirection80m = "wind_direction_80m"
    case windUComponent80m = "wind_u_component_80m"
    case windVComponent80m = "wind_v_component_80m"
    case temperature100m = "temperature_100m"
    case windSpeed100m = "wind_speed_100m"
    case windDirection100m = "wind_direction_100m"
    case windUComponent100m = "wind_u_component_100m"
    case windVComponent100m = "wind_v_component_100m"
    case temperature120m = "temperature_120m"
    case windSpeed120m = "wind_speed_120m"
    case windDirection120m = "wind_direction_120m"
    case windUComponent120m = "wind_u_component_120m"
    case windVComponent120m = "wind_v_component_120m"
    case temperature180m = "temperature_180m"
    case windSpeed180m = "wind_speed_180m"
    case windDirection180m = "wind_direction_180m"
    case windUComponent180m = "wind_u_component_180m"
    case windVComponent180m = "wind_v_component_180m"
    case temperature1000hPa = "temperature_1000hPa"
    case relativeHumidity1000hPa = "relative_humidity_1000hPa"
    case dewPoint1000hPa = "dew_point_1000hPa"
    case windSpeed1000hPa = "wind_speed_1000hPa"
    case windDirection1000hPa = "wind_direction_1000hPa"
    case windUComponent1000hPa = "wind_u_component_1000hPa"
    case windVComponent1000hPa = "wind_v_component_1000hPa"
    case geopotentialHeight1000hPa = "geopotential_height_1000hPa"
    case cloudCover1000hPa = "cloud_cover_1000hPa"
    case verticalVelocity1000hPa = "vertical_velocity_1000hPa"
    case temperature925hPa = "temperature_925hPa"
    case relativeHumidity925hPa = "relative_humidity_925hPa"
    case dewPoint925hPa = "dew_point_925hPa"
    case windSpeed925hPa = "wind_speed_925hPa"
    case windDirection925hPa = "wind_direction_925hPa"
    case windUComponent925hPa = "wind_u_component_925hPa"
    case windVComponent925hPa = "wind_v_component_925hPa"
    case geopotentialHeight925hPa = "geopotential_height_925hPa"
    case cloudCover925hPa = "cloud_cover_925hPa"
    case verticalVelocity925hPa = "vertical_velocity_925hPa"
    case temperature850hPa = "temperature_850hPa"
    case relativeHumidity850hPa = "relative_humidity_850hPa"
    case dewPoint850hPa = "dew_point_850hPa"
    case windSpeed850hPa = "wind_speed_850hPa"
    case windDirection850hPa = "wind_direction_850hPa"
    case windUComponent850hPa = "wind_u_component_850hPa"
    case windVComponent850hPa = "wind_v_component_850hPa"
    case geopotentialHeight850hPa = "geopotential_height_850hPa"
    case cloudCover850hPa = "cloud_cover_850hPa"
    case verticalVelocity850hPa = "vertical_velocity_850hPa"
    case temperature700hPa = "temperature_700hPa"
    case relativeHumidity700hPa = "relative_humidity_700hPa"
    case dewPoint700hPa = "dew_point_700hPa"
    case windSpeed700hPa = "wind_speed_700hPa"
    case windDirection700hPa = "wind_direction_700hPa"
    case windUComponent700hPa = "wind_u_component_700hPa"
    case windVComponent700hPa = "wind_v_component_700hPa"
    case geopotentialHeight700hPa = "geopotential_height_700hPa"
    case cloudCover700hPa = "cloud_cover_700hPa"
    case verticalVelocity700hPa = "vertical_velocity_700hPa"
    case temperature500hPa = "temperature_500hPa"
    case relativeHumidity500hPa = "relative_humidity_500hPa"
    case dewPoint500hPa = "dew_point_500hPa"
    case windSpeed500hPa = "wind_speed_500hPa"
    case windDirection500hPa = "wind_direction_500hPa"
    case windUComponent500hPa = "wind_u_component_500hPa"
    case windVComponent500hPa = "wind_v_component_500hPa"
    case geopotentialHeight500hPa = "geopotential_height_500hPa"
    case cloudCover500hPa = "cloud_cover_500hPa"
    case verticalVelocity500hPa = "vertical_velocity_500hPa"
    case temperature300hPa = "temperature_300hPa"
    case relativeHumidity300hPa = "relative_humidity_300hPa"
    case dewPoint300hPa = "dew_point_300hPa"
    case windSpeed300hPa = "wind_speed_300hPa"
    case windDirection300hPa = "wind_direction_300hPa"
    case windUComponent300hPa = "wind_u_component_300hPa"
    case windVComponent300hPa = "wind_v_component_300hPa"
    case geopotentialHeight300hPa = "geopotential_height_300hPa"
    case cloudCover300hPa = "cloud_cover_300hPa"
    case verticalVelocity300hPa = "vertical_velocity_300hPa"
    case temperature250hPa = "temperature_250hPa"
    case relativeHumidity250hPa = "relative_humidity_250hPa"
    case dewPoint250hPa = "dew_point_250hPa"
    case windSpeed250hPa = "wind_speed_250hPa"
    case windDirection250hPa = "wind_direction_250hPa"
    case windUComponent250hPa = "wind_u_component_250hPa"
    case windVComponent250hPa = "wind_v_component_250hPa"
    case geopotentialHeight250hPa = "geopotential_height_250hPa"
    case cloudCover250hPa = "cloud_cover_250hPa"
    case verticalVelocity250hPa = "vertical_velocity_250hPa"
    case temperature200hPa = "temperature_200hPa"
    case relativeHumidity200hPa = "relative_humidity_200hPa"
    case dewPoint200hPa = "dew_point_200hPa"
    case windSpeed200hPa = "wind_speed_200hPa"
    case windDirection200hPa = "wind_direction_200hPa"
    case windUComponent200hPa = "wind_u_component_200hPa"
    case windVComponent200hPa = "wind_v_component_200hPa"
    case geopotentialHeight200hPa = "geopotential_height_200hPa"
    case cloudCover200hPa = "cloud_cover_200hPa"
    case verticalVelocity200hPa = "vertical_velocity_200hPa"
    // Issue 28's column quantities (store indices from 200).
    case totalColumnIntegratedWaterVapour = "total_column_integrated_water_vapour"
    case freezingLevelHeight = "freezing_level_height"
    case updraft = "updraft"
    case kIndex = "k_index"
    case convectiveInhibition = "convective_inhibition"
    case liftedIndex = "lifted_index"
    // More of issue 28 (store indices from 206): cloud boundaries, snow density, and fields
    // WRF writes only with some options (SWDDNI, SWDNBC, LPI) or that no sample carries (ZNT).
    case cloudBase = "cloud_base"
    case cloudTop = "cloud_top"
    case snowDensity = "snow_density"
    case directNormalIrradiance = "direct_normal_irradiance"
    case directNormalIrradianceInstant = "direct_normal_irradiance_instant"
    case shortwaveRadiationClearSky = "shortwave_radiation_clear_sky"
    case lightningPotential = "lightning_potential"
    case roughnessLength = "roughness_length"
    // Issue 46: chances from the centre's own runs (store indices from 213).
    case precipitationNeighbourhood = "precipitation_neighbourhood"
    case precipitationProbability = "precipitation_probability"
    case snowfallNeighbourhood = "snowfall_neighbourhood"
    case snowfallProbability = "snowfall_probability"
    case rainNeighbourhood = "rain_neighbourhood"
    case rainProbability = "rain_probability"
    case freezingRainNeighbourhood = "freezing_rain_neighbourhood"
    case freezingRainProbability = "freezing_rain_probability"
    // Issue 46: the spread of the same lagged members, for the surface variables Open-Meteo
    // publishes a `_spread` of (its ensemble APIs); declared by one rule (`spreadDeclaration`).
    // Not wind direction (an angle: a linear standard deviation of 350° and 10° is wrong).
    case temperature2mSpread = "temperature_2m_spread"
    case relativeHumidity2mSpread = "relative_humidity_2m_spread"
    case dewPoint2mSpread = "dew_point_2m_spread"
    case apparentTemperatureSpread = "apparent_temperature_spread"
    case wetBulbTemperature2mSpread = "wet_bulb_temperature_2m_spread"
    case surfaceTemperatureSpread = "surface_temperature_spread"
    case precipitationSpread = "precipitation_spread"
    case rainSpread = "rain_spread"
    case showersSpread = "showers_spread"
    case snowfallSpread = "snowfall_spread"
    case snowfallWaterEquivalentSpread = "snowfall_water_equivalent_spread"
    case snowDepthSpread = "snow_depth_spread"
    case snowWaterEquivalentSpread = "snow_depth_water_equivalent_spread"
    case pressureMSLSpread = "pressure_msl_spread"
    case surfacePressureSpread = "surface_pressure_spread"
    case cloudCoverSpread = "cloud_cover_spread"
    case cloudCoverLowSpread = "cloud_cover_low_spread"
    case cloudCoverMidSpread = "cloud_cover_mid_spread"
    case cloudCoverHighSpread = "cloud_cover_high_spread"
    case windSpeed10mSpread = "wind_speed_10m_spread"
    case windGusts10mSpread = "wind_gusts_10m_spread"
    case shortwaveRadiationSpread = "shortwave_radiation_spread"
    case directRadiationSpread = "direct_radiation_spread"
    case diffuseRadiationSpread = "diffuse_radiation_spread"
    case shortwaveRadiationInstantSpread = "shortwave_radiation_instant_spread"
    case directRadiationInstantSpread = "direct_radiation_instant_spread"
    case diffuseRadiationInstantSpread = "diffuse_radiation_instant_spread"
    case directNormalIrradianceSpread = "direct_normal_irradiance_spread"
    case directNormalIrradianceInstantSpread = "direct_normal_irradiance_instant_spread"
    case sunshineDurationSpread = "sunshine_duration_spread"
    case et0FaoEvapotranspirationSpread = "et0_fao_evapotranspiration_spread"
    case vapourPressureDeficitSpread = "vapour_pressure_deficit_spread"
    case visibilitySpread = "visibility_spread"
    case capeSpread = "cape_spread"
    case convectiveInhibitionSpread = "convective_inhibition_spread"
    case freezingLevelHeightSpread = "freezing_level_height_spread"
    case boundaryLayerHeightSpread = "boundary_layer_height_spread"
    case soilTemperature0to10cmSpread = "soil_temperature_0_to_10cm_spread"
    case soilTemperature10to40cmSpread = "soil_temperature_10_to_40cm_spread"
    case soilTemperature40to100cmSpread = "soil_temperature_40_to_100cm_spread"
    case soilTemperature100to200cmSpread = "soil_temperature_100_to_200cm_spread"
    case soilMoisture0to10cmSpread = "soil_moisture_0_to_10cm_spread"
    case soilMoisture10to40cmSpread = "soil_moisture_10_to_40cm_spread"
    case soilMoisture40to100cmSpread = "soil_moisture_40_to_100cm_spread"
    case soilMoisture100to200cmSpread = "soil_moisture_100_to_200cm_spread"

    /// Everything about the variable (its entry in `declaration`).
    @inline(__always)
    package var spec: VariableSpec { Self.specs[ordinal] }

    /// The position in `allCases` (declaration order). A case without payload is stored as its
    /// declaration index, so this reads it without a switch per variable (`CaseIndex`, which
    /// holds past 256 cases too); `CatalogIndexTests` holds it equal to the position in
    /// `allCases` for every case.
    @inline(__always)
    package var ordinal: Int { CaseIndex.of(self) }

    private static let specs: [VariableSpec] = allCases.map(\.declaration)

    /// Which unit choice converts it (`VariableSpec.quantity`), and the decimals an answer prints
    /// (`decimals`, `inchDecimals`): read for every value a query converts or prints, so kept in
    /// plain tables derived from the registry (reading `spec` retains a `VariableSpec`).
    @inline(__always)
    package var quantity: VariableSpec.Quantity { Self.quantities[ordinal] }
    @inline(__always)
    package func decimals(inches: Bool) -> Int { inches ? Self.inchDecimals[ordinal] : Self.decimals[ordinal] }

    private static let quantities = specs.map(\.quantity)
    private static let decimals = specs.map(\.decimals)
    private static let inchDecimals = specs.map { $0.inchDecimals ?? $0.decimals }

    /// Hashed by position, not by name: a forecast's values are a dictionary keyed by
    /// variable, and hashing the raw string cost a few per cent of a point forecast.
    public func hash(into hasher: inout Hasher) { hasher.combine(ordinal) }

    /// Store order: stored variables by `storeIndex`, then the query's own, in declaration order.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.sortKey < rhs.sortKey }
    private var sortKey: Int { spec.stored?.index ?? (1_000 + ordinal) }

    // MARK: Lists read from the registry

    /// The variables extraction can store, in store order.
    package static let stored: [ForecastVariable] = allCases.filter { $0.spec.stored != nil }.sorted()
    /// The variables a query can return, in answer order.
    public static let outputs: [ForecastVariable] = allCases.filter(\.spec.isOutput)
    /// Returned when no variables are asked for (the list from before the wind components and
    /// later additions, so that a default answer keeps its size, and benchmarks B3 and B4 in
    /// benchmarks/RESULTS.md their workload).
    public static let defaults: [ForecastVariable] = outputs.filter(\.spec.isDefault)
    /// The stored variables a forecast of `defaults` reads, in store order: their sources, the
    /// weather code's optional sources (read when a store holds them) and elevation (every
    /// forecast reads the model terrain). The writer lays these first in each tile's run of
    /// blocks (docs/STORE-FORMAT.md, "Block order"), so that a default forecast's blocks are
    /// one range of the file: one request from a bucket.
    package static let readByDefault: [ForecastVariable] = {
        var read: Set<ForecastVariable> = [.elevation]
        for variable in defaults {
            read.formUnion(variable.sources)
            read.formUnion(variable.spec.optionalSources)
        }
        return stored.filter(read.contains)
    }()
    /// The neighbourhood fractions extraction makes from whole frames (issue 46).
    package static let neighbourhoods: [ForecastVariable] = [.precipitationNeighbourhood, .snowfallNeighbourhood, .rainNeighbourhood,
                                                             .freezingRainNeighbourhood]
    /// The spreads over the lagged members (issue 46), in answer order.
    package static let spreads: [ForecastVariable] = allCases.filter { $0.spreadBase != nil }
    /// For a `_spread` variable, the variable whose standard deviation over the lagged members
    /// it is (`temperature_2m` for `temperature_2m_spread`); nil for every other.
    @inline(__always)
    package var spreadBase: ForecastVariable? { Self.spreadBases[ordinal] }
    /// Read from the names alone (not from `spec`: the registry's entries of the spreads are
    /// made from their bases' entries, while `specs` is being built).
    private static let spreadBases: [ForecastVariable?] = allCases.map { variable in
        variable.rawValue.hasSuffix("_spread") ? ForecastVariable(rawValue: String(variable.rawValue.dropLast("_spread".count))) : nil
    }
    /// The soil temperature variables, top layer first (index = Noah layer).
    package static let soilTemperatures: [ForecastVariable] = [.soilTemperature0to10cm, .soilTemperature10to40cm, .soilTemperature40to100cm, .soilTemperature100to200cm]
    /// The soil moisture variables, top layer first (index = Noah layer).
    package static let soilMoistures: [ForecastVariable] = [.soilMoisture0to10cm, .soilMoisture10to40cm, .soilMoisture40to100cm, .soilMoisture100to200cm]
    /// The soil moisture index variables (SMCREL), top layer first (index = Noah layer).
    package static let soilMoistureIndices: [ForecastVariable] = [.soilMoistureIndex0to10cm, .soilMoistureIndex10to40cm,
                                                                   .soilMoistureIndex40to100cm, .soilMoistureIndex100to200cm]

    /// A stored variable by its name (nil for the query's own and unknown names).
    package static func stored(named name: String) -> ForecastVariable? {
        ForecastVariable(rawValue: name).flatMap { $0.spec.stored == nil ? nil : $0 }
    }

    /// A variable a query can return, by its name (nil for elevation and unknown names).
    public static func output(named name: String) -> ForecastVariable? { outputsByName[name] }
    /// A hash lookup: the enum's synthesized `init(rawValue:)` compares the name with every
    /// case in turn (~2,800 instructions a name, a visible share of a request's parsing, S1).
    private static let outputsByName: [String: ForecastVariable] = Dictionary(
        outputs.map { ($0.rawValue, $0) }, uniquingKeysWith: { first, _ in first })

    /// The variables a query name stands for: a canonical name, or a raw WRF name (T2, U10,
    /// ...; case-insensitive), which may stand for several (U10: wind speed and direction).
    public static func parse(_ name: String) -> [ForecastVariable]? {
        if let variable = output(named: name) { return [variable] }
        let lowered = name.lowercased()
        let matches = outputs.filter { $0.spec.wrfNames.contains(lowered) }
        return matches.isEmpty ? nil : matches
    }

    /// The variable an older Open-Meteo spelling ("windspeed_10m", "cloudcover") stands for.
    package static func openMeteoAlias(_ name: String) -> ForecastVariable? { aliases[name] }
    private static let aliases: [String: ForecastVariable] = Dictionary(
        outputs.flatMap { variable in variable.spec.openMeteoAliases.map { ($0, variable) } }, uniquingKeysWith: { first, _ in first })

    // MARK: Facts most code asks for (read from `spec`)

    /// The unit values are stored and computed in (query output converts from these).
    public var unit: String { spec.unit }
    /// The precision kept in the store, in `unit` (0 for the query's own). Quantisation may use
    /// a step up to twice this (rounding error at most half a step). The weather code keeps the
    /// whole-code step older stores wrote it at, so files of their shape can still be written
    /// (the tests of how such stores are answered do).
    package var precision: Double { spec.stored?.precision ?? (self == .weatherCode ? 1 : 0) }
    /// True for the one variable that does not change with time.
    package var isStatic: Bool { spec.stored?.kind == .constant }
    /// True for amounts over an output interval (summed, not averaged, over a window).
    public var isAccumulation: Bool { Self.accumulations[ordinal] }
    /// Stored amounts, and the query's own made from amounts alone with no formula of
    /// instants (snowfall_water_equivalent from snowfall's amounts).
    private static let accumulations: [Bool] = allCases.map { variable in
        // A spread of amounts is no amount: never summed over a window.
        guard variable.spreadBase == nil else { return false }
        let spec = variable.spec
        if let stored = spec.stored { return stored.kind == .amount }
        return spec.pointwise == nil && !spec.sources.isEmpty && spec.sources.allSatisfy { $0.spec.stored?.kind == .amount }
    }
    /// True for variables made from fields many runs do not write: extraction does not warn
    /// when they are absent (every plain wrfout would), `inspect` still lists them as missing.
    package var isOptional: Bool { spec.stored?.isOptional ?? false }
    /// A one-line description for `--help` and `inspect`.
    public var summary: String { spec.summary }
    /// The stored variables this one is computed from (itself, for a stored variable).
    @inline(__always)
    package var sources: [ForecastVariable] { Self.sourceLists[ordinal] }
    private static let sourceLists: [[ForecastVariable]] = allCases.map { variable in
        variable.spec.sources.isEmpty && variable.spec.stored != nil ? [variable] : variable.spec.sources
    }
    /// The first of `sources`: the stored variable read for everything but wind (which reads
    /// both components); the query's own that need several name the first.
    @inline(__always)
    package var primarySource: ForecastVariable { Self.primarySources[ordinal] }
    private static let primarySources: [ForecastVariable] = allCases.map { $0.sources.first ?? .temperature2m }

    /// Why a quantity the common weather APIs offer cannot come from a WRF or MM5 run, for
    /// names a request may use; nil for any other name. Refused by name rather than invented.
    package static func refusal(_ name: String) -> String? {
        let ensemble = "a probability needs an ensemble of runs; one WRF/MM5 run gives one amount per place, not a probability"
        let ultraviolet = "WRF/MM5 output has no ultraviolet band or ozone column to compute a UV index from"
        let reasons: [String: String] = [
            "uv_index": ultraviolet, "uv_index_clear_sky": ultraviolet, "uv_index_max": ultraviolet, "uv_index_clear_sky_max": ultraviolet,
        ]
        guard let reason = reasons[name] else { return nil }
        return "\(name) cannot be served: \(reason)"
    }
}
