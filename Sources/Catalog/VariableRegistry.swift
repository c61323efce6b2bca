import Meteorology

/// Everything about one variable, declared once in `ForecastVariable.declaration`.
///
/// A class, not a struct: `ForecastVariable.spec` is read on hot paths (every value a CSV
/// answer prints, every series read), and returning a struct of this size copied every field
/// and retained each string and array in it (callgrind: +59 % instructions for a 400-place
/// query); a reference costs one retain.
package final class VariableSpec: Sendable {
    /// How a stored variable's values change with time, which decides how the store keeps them.
    package enum Kind: Sendable, Equatable {
        /// A value at the time (temperature, cloud cover, ...).
        case instant
        /// An amount over the output interval ending at the time, kept as running totals.
        case amount
        /// One value for the whole run (the terrain).
        case constant
    }

    /// What the store keeps of a variable; nil for variables a query computes.
    package struct Stored: Sendable {
        /// Its number in the store's catalog (the file format's order): never reused or moved.
        package let index: Int
        /// The precision kept, in `unit`.
        package let precision: Double
        package let kind: Kind
        /// Made from fields many runs do not write: not warned about when absent.
        package let isOptional: Bool
        /// What it can physically be, in `unit` (records, rounding): extraction refuses a run
        /// whose values mostly lie outside (a mislabelled unit) and warns for any (PhysicalLimits).
        package let limits: ClosedRange<Float>?
    }

    /// Which of the query's unit choices converts it (`OutputUnits`).
    package enum Quantity: Sendable, Equatable {
        case temperature, windSpeed, precipitation, snowfall, distance
        /// Answered in `unit` whatever the units asked for.
        case fixed
    }

    /// Open-Meteo's SDK (flatbuffers/weather_api.fbs): the Variable enum's code, the altitude
    /// in metres, and a soil layer's depth range in cm.
    package struct SDKCode: Sendable {
        package let code: UInt8
        package let altitude: Int16
        package let depth: (from: Int16, to: Int16)?
        /// VariableWithValues' pressure_level, hPa (0: not a pressure-level variable).
        package let pressureLevel: Int16

        /// VariableWithValues' aggregation (0: none; 11: spread, the `_spread` variables).
        package let aggregation: UInt8

        package init(code: UInt8, altitude: Int16, depth: (from: Int16, to: Int16)?, pressureLevel: Int16 = 0, aggregation: UInt8 = 0) {
            self.code = code
            self.altitude = altitude
            self.depth = depth
            self.pressureLevel = pressureLevel
            self.aggregation = aggregation
        }
    }

    /// A one-line description for `--help`, `inspect` and docs/VARIABLES.md.
    package let summary: String
    /// The one field of the model's files a stored variable is copied from, when it is made
    /// no other way (nil: `Derivations.table` says what it is made from).
    package let field: DirectField?
    /// The unit values are stored and computed in, and the answer's unit for `.fixed`.
    package let unit: String
    package let quantity: Quantity
    /// Decimals an answer prints (about the stored precision), and with inches when they differ
    /// (inch hundredths are a quarter millimetre: 0.06 mm would print as 0.00).
    package let decimals: Int
    package let inchDecimals: Int?
    package let stored: Stored?
    /// The stored variables a query computes it from (empty for a stored variable: itself).
    package let sources: [ForecastVariable]
    /// Stored variables the query also uses when the store holds them (weather code's showers,
    /// visibility, CAPE, ...); their absence never makes the variable unavailable.
    package let optionalSources: [ForecastVariable]
    /// For a variable a query computes value by value from its `sources` (in their store units,
    /// moved to a requested elevation as they are when answered alone): the formula.
    package let pointwise: (@Sendable ([Float]) -> Float)?
    /// Whether a query may return it (the terrain is the answer's `elevation` field instead).
    package let isOutput: Bool
    /// Part of the answer when no variables are asked for.
    package let isDefault: Bool
    /// The smallest extraction set (`tilecast extract --set`) that stores it, or for a variable
    /// the query computes, that stores its sources.
    package let set: ExtractionSet
    /// Moved to a requested elevation by the standard lapse rate (Open-Meteo's rule: 2 m air,
    /// dew point, apparent and soil temperatures; not relative humidity).
    package let movedByElevation: Bool
    package let sdk: SDKCode?
    /// Older Open-Meteo spellings a request may use ("windspeed_10m").
    package let openMeteoAliases: [String]
    /// Raw WRF names the command line accepts for it, lower case ("t2").
    package let wrfNames: [String]
    /// The command line's table heading, when shorter than the name.
    package let shortName: String?

    init(_ summary: String, unit: String, quantity: Quantity = .fixed, decimals: Int, inchDecimals: Int? = nil,
         stored: Stored?, field: DirectField? = nil, sources: [ForecastVariable] = [], optionalSources: [ForecastVariable] = [], pointwise: (@Sendable ([Float]) -> Float)? = nil, isOutput: Bool = true, isDefault: Bool = false,
         set: ExtractionSet = .surface, movedByElevation: Bool = false, sdk: SDKCode?, openMeteoAliases: [String] = [], wrfNames: [String] = [],
         shortName: String? = nil) {
        self.summary = summary
        self.field = field
        self.unit = unit
        self.quantity = quantity
        self.decimals = decimals
        self.inchDecimals = inchDecimals
        self.stored = stored
        self.sources = sources
        self.optionalSources = optionalSources
        self.pointwise = pointwise
        self.isOutput = isOutput
        self.isDefault = isDefault
        self.set = set
        self.movedByElevation = movedByElevation
        self.sdk = sdk
        self.openMeteoAliases = openMeteoAliases
        self.wrfNames = wrfNames
        self.shortName = shortName
    }
}

/// A stored variable copied from one field of the model's files: the profile's key that names
/// the field (the built-in WRF profile lists WRF's name), the unit ingest reads it in (a file's
/// `units` attribute is converted to it), and the change to the variable's own unit.
package struct DirectField: Sendable {
    /// `negated`: WRF's upward-positive surface fluxes (LH, HFX) served with Open-Meteo's sign,
    /// positive towards the surface (docs/VARIABLES.md).
    package enum Conversion: Sendable, Equatable { case none, kelvinToCelsius, negated }
    package let key: String
    package let unit: String
    package let conversion: Conversion

    package init(key: String, unit: String, conversion: Conversion = .none) {
        self.key = key
        self.unit = unit
        self.conversion = conversion
    }
}

// Shorthands for the declarations below.
private func instant(_ index: Int, _ precision: Double, optional: Bool = false, limits: ClosedRange<Float>? = nil) -> VariableSpec.Stored {
    VariableSpec.Stored(index: index, precision: precision, kind: .instant, isOptional: optional, limits: limits)
}
private func amount(_ index: Int, _ precision: Double, optional: Bool = false, limits: ClosedRange<Float>) -> VariableSpec.Stored {
    VariableSpec.Stored(index: index, precision: precision, kind: .amount, isOptional: optional, limits: limits)
}
private func sdk(_ code: UInt8, altitude: Int16 = 0, depth: (Int16, Int16)? = nil) -> VariableSpec.SDKCode {
    VariableSpec.SDKCode(code: code, altitude: altitude, depth: depth.map { (from: $0.0, to: $0.1) })
}

// Physical limits shared by families (records: the coldest and hottest 2 m temperatures
// measured are about -90 and 57 °C; the strongest surface gust 113 m/s; the wettest hours about
// 300 mm; the solar constant 1361 W/m², which cloud edges raise the surface value a little above).
private let soilTemperatureLimits: ClosedRange<Float> = -80...90
private let soilMoistureLimits: ClosedRange<Float> = -0.01...1.01
private let percentLimits: ClosedRange<Float> = -1...101
private let amountLimits: ClosedRange<Float> = -1...1000
private let radiationLimits: ClosedRange<Float> = -10...1600
// Turbulent surface fluxes: the strongest measured (hot dry land, cold air over warm water) are
// below about 1000 W/m²; a model's can overshoot at the coast.
private let surfaceFluxLimits: ClosedRange<Float> = -2000...2000

extension ForecastVariable {
    /// The registry: one entry per variable (a table, so long by design: each entry is
    /// independent of the others). Codes in `sdk` are openmeteo-sdk's Variable enum
    /// (flatbuffers/weather_api.fbs); formulas and citations are in docs/VARIABLES.md.
    var declaration: VariableSpec {
        switch self {
        case .temperature2m:
            return VariableSpec("air temperature at 2 m", unit: "°C", quantity: .temperature, decimals: 2,
                                stored: instant(0, 0.05, limits: -100...70), isDefault: true, movedByElevation: true,
                                sdk: sdk(47, altitude: 2), openMeteoAliases: ["temperature"], wrfNames: ["t2"], shortName: "temp")
        case .relativeHumidity2m:
            return VariableSpec("relative humidity at 2 m (wrf-python rh2 formula)", unit: "%", decimals: 1,
                                stored: instant(1, 0.5, limits: -1...110), isDefault: true,
                                sdk: sdk(29, altitude: 2), openMeteoAliases: ["relativehumidity_2m"], wrfNames: ["q2", "rh2"], shortName: "rh")
        case .dewPoint2m:
            return VariableSpec("dew point at 2 m", unit: "°C", quantity: .temperature, decimals: 2,
                                stored: instant(2, 0.05, limits: -110...60), isDefault: true, movedByElevation: true,
                                sdk: sdk(8, altitude: 2), openMeteoAliases: ["dewpoint_2m"], wrfNames: ["td2"], shortName: "dew")
        case .apparentTemperature:
            return VariableSpec("apparent (feels-like) temperature", unit: "°C", quantity: .temperature, decimals: 2,
                                stored: instant(3, 0.1, limits: -130...90), isDefault: true, movedByElevation: true,
                                sdk: sdk(1), shortName: "feels")
        case .windU10m:
            // Earth-relative components are stored, so that speed and direction are computed
            // from interpolated u and v, never by interpolating a direction.
            return VariableSpec("earth-relative eastward wind at 10 m", unit: "m/s", quantity: .windSpeed, decimals: 2,
                                stored: instant(4, 0.05, limits: -150...150), sources: [.windU10m, .windV10m],
                                // Open-Meteo's height form of it (`ForecastHeightVariableType`
                                // wind_u_component at 10 m), served from its stored u.
                                sdk: sdk(149, altitude: 10), openMeteoAliases: ["wind_u_component_10m"], shortName: "u10")
        case .windV10m:
            return VariableSpec("earth-relative northward wind at 10 m", unit: "m/s", quantity: .windSpeed, decimals: 2,
                                stored: instant(5, 0.05, limits: -150...150), sources: [.windU10m, .windV10m],
                                sdk: sdk(150, altitude: 10), openMeteoAliases: ["wind_v_component_10m"], shortName: "v10")
        case .precipitation:
            return VariableSpec("precipitation over the output interval ending at the time", unit: "mm", quantity: .precipitation,
                                decimals: 2, inchDecimals: 3, stored: amount(6, 0.01, limits: amountLimits), isDefault: true,
                                sdk: sdk(24), wrfNames: ["rainc", "rainnc"], shortName: "precip")
        case .snowfall:
            return VariableSpec("snowfall over the output interval ending at the time", unit: "cm", quantity: .snowfall,
                                decimals: 2, inchDecimals: 3, stored: amount(7, 0.01, limits: amountLimits), isDefault: true,
                                sdk: sdk(37), wrfNames: ["snownc"], shortName: "snow")
        case .surfacePressure:
            return VariableSpec("surface pressure", unit: "hPa", decimals: 1,
                                // Everest's summit is about 330 hPa.
                                stored: instant(8, 0.1, limits: 250...1100), isDefault: true,
                                sdk: sdk(45), openMeteoAliases: ["surface_air_pressure"], wrfNames: ["psfc"], shortName: "psfc")
        case .pressureMSL:
            return VariableSpec("pressure reduced to mean sea level", unit: "hPa", decimals: 1,
                                // The highest sea-level pressure measured is about 1084 hPa.
                                stored: instant(9, 0.1, limits: 800...1100), isDefault: true,
                                sdk: sdk(27), wrfNames: ["slp"], shortName: "msl")
        case .cloudCover:
            return VariableSpec("cloud cover (column maximum of cloud fraction)", unit: "%", decimals: 0,
                                stored: instant(10, 1, limits: percentLimits), isDefault: true,
                                sdk: sdk(3), openMeteoAliases: ["cloudcover"], wrfNames: ["cldfra"], shortName: "cloud")
        case .shortwaveRadiation:
            return VariableSpec("downward shortwave radiation at the surface", unit: "W/m²", decimals: 0,
                                stored: instant(11, 1, limits: radiationLimits), isDefault: true,
                                sdk: sdk(32), wrfNames: ["swdown"], shortName: "sw")
        case .weatherCode:
            // Computed from the row's interpolated quantities (WeatherCode.swift, Open-Meteo's
            // rule). Stores before this kept it per cell under catalog index 12, which stays
            // retired; such a store without cloud cover and precipitation still answers its
            // stored codes (PointForecaster).
            return VariableSpec("WMO weather code, from the row's cloud cover, precipitation, snowfall, showers, visibility and CAPE",
                                unit: "wmo code", decimals: 0, stored: nil, sources: [.cloudCover, .precipitation],
                                optionalSources: [.snowfall, .showers, .visibility, .cape, .windGusts10m, .boundaryLayerHeight, .rain, .temperature2m],
                                isDefault: true, sdk: sdk(56), openMeteoAliases: ["weathercode"], shortName: "code")
        case .albedo:
            return VariableSpec("surface albedo, the share of the shortwave radiation the ground reflects (ALBEDO)", unit: "%",
                                decimals: 0, stored: instant(37, 1, optional: true, limits: percentLimits),
                                field: DirectField(key: "albedo", unit: "%"), sdk: sdk(136))
        case .elevation:
            return VariableSpec("model terrain height", unit: "m", decimals: 0,
                                stored: VariableSpec.Stored(index: 13, precision: 1, kind: .constant, isOptional: false, limits: -500...9000),
                                isOutput: false, sdk: nil)
        case .rain:
            return VariableSpec("grid-scale liquid precipitation over the output interval (RAINNC less SNOWNC, GRAUPELNC, HAILNC)",
                                unit: "mm", quantity: .precipitation, decimals: 2, inchDecimals: 3,
                                stored: amount(14, 0.01, limits: amountLimits), sdk: sdk(28))
        case .showers:
            return VariableSpec("convective precipitation over the output interval (RAINC + RAINSH)",
                                unit: "mm", quantity: .precipitation, decimals: 2, inchDecimals: 3,
                                stored: amount(15, 0.01, limits: amountLimits), sdk: sdk(34))
        case .snowDepth:
            return VariableSpec("snow depth (SNOWH)", unit: "m", quantity: .distance, decimals: 2,
                                stored: instant(16, 0.005, optional: true, limits: -0.01...100), field: DirectField(key: "snow_depth", unit: "m"),
                                sdk: sdk(35), openMeteoAliases: ["snow_height"], wrfNames: ["snowh"])
        case .vapourPressureDeficit:
            return VariableSpec("vapour pressure deficit at 2 m (FAO-56 eq. 11 and 19 form)", unit: "kPa", decimals: 2,
                                stored: instant(17, 0.005, limits: -1...15), sdk: sdk(54), openMeteoAliases: ["vapor_pressure_deficit"])
        case .soilTemperature0to10cm:
            return Self.soilTemperature("0-10", index: 18, depth: (0, 10), wrfNames: ["tslb"])
        case .soilTemperature10to40cm:
            return Self.soilTemperature("10-40", index: 19, depth: (10, 40))
        case .soilTemperature40to100cm:
            return Self.soilTemperature("40-100", index: 20, depth: (40, 100))
        case .soilTemperature100to200cm:
            return Self.soilTemperature("100-200", index: 21, depth: (100, 200))
        case .soilMoisture0to10cm:
            return Self.soilMoisture("0-10", index: 22, depth: (0, 10), wrfNames: ["smois"])
        case .soilMoisture10to40cm:
            return Self.soilMoisture("10-40", index: 23, depth: (10, 40))
        case .soilMoisture40to100cm:
            return Self.soilMoisture("40-100", index: 24, depth: (40, 100))
        case .soilMoisture100to200cm:
            return Self.soilMoisture("100-200", index: 25, depth: (100, 200))
        case .directRadiation:
            // Written by WRF only with some radiation options (SWDDIR, SWDDIF) or diagnostics (CAPE).
            return VariableSpec("direct shortwave radiation on the horizontal at the surface (SWDDIR)", unit: "W/m²", decimals: 0,
                                stored: instant(26, 1, optional: true, limits: radiationLimits),
                                field: DirectField(key: "shortwave_direct", unit: "W/m2"), sdk: sdk(13))
        case .diffuseRadiation:
            return VariableSpec("diffuse shortwave radiation at the surface (SWDDIF)", unit: "W/m²", decimals: 0,
                                stored: instant(27, 1, optional: true, limits: radiationLimits),
                                field: DirectField(key: "shortwave_diffuse", unit: "W/m2"), sdk: sdk(9))
        case .cape:
            // The file's CAPE field when it has one (copied, `field`); otherwise, from the 3-D
            // fields, the surface-based parcel's (ColumnFields, Derivations' orAllOf).
            return VariableSpec("convective available potential energy: the file's CAPE field, else the surface-based parcel's (MetPy surface_based_cape_cin)",
                                unit: "J/kg", decimals: 0, stored: instant(28, 1, optional: true, limits: -1...25000),
                                field: DirectField(key: "cape", unit: "J/kg"), sdk: sdk(2))
        case .windGusts10m:
            return VariableSpec("10 m wind gust: |V10| + 7.2 UST (ECMWF IFS surface-layer gust, neutral form)", unit: "m/s",
                                quantity: .windSpeed, decimals: 2, stored: instant(29, 0.05, optional: true, limits: 0...150),
                                sdk: sdk(58, altitude: 10), openMeteoAliases: ["windgusts_10m"])
        case .cloudCoverLow:
            // CLDFRA's maximum by height above ground: below 2 km (fog included), 2-6 km, above 6 km.
            return VariableSpec("cloud cover below 2 km above ground (CLDFRA maximum, heights from PH + PHB)", unit: "%", decimals: 0,
                                stored: instant(30, 1, optional: true, limits: percentLimits), sdk: sdk(5), openMeteoAliases: ["cloudcover_low"])
        case .cloudCoverMid:
            return VariableSpec("cloud cover 2-6 km above ground (CLDFRA maximum)", unit: "%", decimals: 0,
                                stored: instant(31, 1, optional: true, limits: percentLimits), sdk: sdk(6), openMeteoAliases: ["cloudcover_mid"])
        case .cloudCoverHigh:
            return VariableSpec("cloud cover above 6 km above ground (CLDFRA maximum)", unit: "%", decimals: 0,
                                stored: instant(32, 1, optional: true, limits: percentLimits), sdk: sdk(4), openMeteoAliases: ["cloudcover_high"])
        case .visibility:
            // 5 m: the 24 135 m cap is a whole number of steps (a 10 m step would store it as
            // 24 140), and fog's 1000 m threshold is far coarser.
            return VariableSpec("visibility from the lowest model level's hydrometeors and humidity (UPP CALVIS_GSD), at most 24.135 km",
                                unit: "m", quantity: .distance, decimals: 0, stored: instant(33, 5, optional: true), sdk: sdk(55))
        case .surfaceTemperature:
            return VariableSpec("surface (skin) temperature of the ground, sea or snow (TSK)", unit: "°C", quantity: .temperature,
                                decimals: 2, stored: instant(34, 0.05, optional: true),
                                field: DirectField(key: "skin_temperature", unit: "K", conversion: .kelvinToCelsius), sdk: sdk(46), openMeteoAliases: ["skin_temperature"])
        case .boundaryLayerHeight:
            return VariableSpec("height of the planetary boundary layer above ground (PBLH, from the PBL scheme)", unit: "m",
                                decimals: 0, stored: instant(35, 1, optional: true), field: DirectField(key: "boundary_layer_height", unit: "m"),
                                sdk: sdk(113))
        case .snowWaterEquivalent:
            return VariableSpec("water equivalent of the snow on the ground (SNOW)", unit: "mm", quantity: .precipitation,
                                decimals: 2, stored: instant(36, 0.05, optional: true), field: DirectField(key: "snow_water_equivalent", unit: "mm"),
                                sdk: sdk(140))
        case .latentHeatFlux:
            return VariableSpec("latent heat flux at the surface, positive towards the surface (-LH)", unit: "W/m²", decimals: 0,
                                stored: instant(38, 1, optional: true, limits: surfaceFluxLimits),
                                field: DirectField(key: "latent_heat_flux", unit: "W/m2", conversion: .negated), sdk: sdk(20),
                                openMeteoAliases: ["latent_heatflux"], wrfNames: ["lh"])
        case .sensibleHeatFlux:
            return VariableSpec("sensible heat flux at the surface, positive towards the surface (-HFX)", unit: "W/m²", decimals: 0,
                                stored: instant(39, 1, optional: true, limits: surfaceFluxLimits),
                                field: DirectField(key: "sensible_heat_flux", unit: "W/m2", conversion: .negated), sdk: sdk(31),
                                openMeteoAliases: ["sensible_heatflux"], wrfNames: ["hfx"])
        case .runoff:
            return VariableSpec("surface and underground runoff over the output interval (SFROFF + UDROFF)", unit: "mm",
                                quantity: .precipitation, decimals: 2, inchDecimals: 3,
                                stored: amount(40, 0.01, optional: true, limits: amountLimits), sdk: sdk(30))
        case .hail:
            return VariableSpec("grid-scale hail over the output interval, water equivalent (HAILNC)", unit: "mm",
                                quantity: .precipitation, decimals: 2, inchDecimals: 3,
                                stored: amount(41, 0.01, optional: true, limits: amountLimits), sdk: sdk(135))
        case .potentialEvapotranspiration:
            // Noah's POTEVP: ETP (W/m², Penman potential evaporation) x DT / (XLV rho_w) summed
            // since the start, in metres of water whatever the file's units attribute says.
            return VariableSpec("potential evaporation over the output interval (Noah's POTEVP, de-accumulated)", unit: "mm",
                                quantity: .precipitation, decimals: 2, inchDecimals: 3,
                                stored: amount(46, 0.01, optional: true, limits: amountLimits), sdk: sdk(159))
        // Issue 28's column quantities, from the 3-D fields (ColumnFields in ModelIngest); store
        // indices 200 and up (the catalog is found by name, so the gap after 46 costs nothing).
        case .totalColumnIntegratedWaterVapour:
            return VariableSpec("precipitable water: sum of p/(Rd Tv) QVAPOR dz over the column (wrf-python pw)", unit: "kg/m²",
                                decimals: 1, stored: instant(200, 0.1, optional: true, limits: -1...150), set: .all, sdk: sdk(50))
        case .freezingLevelHeight:
            return VariableSpec("height above sea level of the uppermost 0 °C crossing (below ground: terrain - 70 m/K |T2|, Open-Meteo's rule)",
                                unit: "m", decimals: 0, stored: instant(201, 5, optional: true, limits: -6000...12000), set: .all, sdk: sdk(17),
                                openMeteoAliases: ["freezinglevel_height"])
        case .updraft:
            return VariableSpec("strongest vertical velocity W on the w-levels up to 10 km above ground", unit: "m/s", decimals: 2,
                                stored: instant(202, 0.01, optional: true, limits: -100...100), set: .all, sdk: sdk(51))
        case .kIndex:
            // In °C, but unitless ("") as Open-Meteo serves it (its Unit dimensionless), never converted.
            return VariableSpec("K index: T850 - T500 + Td850 - (T700 - Td700), linear in pressure (MetPy k_index); null where 850 hPa is below ground",
                                unit: "", decimals: 1, stored: instant(203, 0.1, optional: true, limits: -150...100), set: .all, sdk: sdk(157))
        case .convectiveInhibition:
            // MetPy's sign (at most 0), as GFS's ":CIN:surface:" field that Open-Meteo serves.
            return VariableSpec("convective inhibition of the surface-based parcel, at most 0 (MetPy surface_based_cape_cin)", unit: "J/kg",
                                decimals: 0, stored: instant(204, 1, optional: true, limits: -10000...1), set: .all, sdk: sdk(104))
        case .liftedIndex:
            // Unitless ("") as Open-Meteo serves it (its Unit dimensionless); a difference in K.
            return VariableSpec("lifted index: T500 - T of the surface-based parcel at 500 hPa, linear in pressure (MetPy lifted_index); null where 500 hPa is below ground",
                                unit: "", decimals: 1, stored: instant(205, 0.1, optional: true, limits: -60...80), set: .all, sdk: sdk(22))
        // Cloud boundaries by ECMWF's cloud base height rule (CloudBoundaries in Meteorology):
        // whole columns of CLDFRA, QCLOUD, QICE and PH + PHB, so in the `all` set.
        case .cloudBase:
            return VariableSpec("height above ground of the lowest mass level with cloud fraction > 1 % and QCLOUD + QICE > 1e-6 kg/kg (ECMWF's cloud base height rule); null without cloud",
                                unit: "m", quantity: .distance, decimals: 0, stored: instant(206, 10, optional: true, limits: -1...30000),
                                set: .all, sdk: sdk(110))
        case .cloudTop:
            return VariableSpec("height above ground of the highest mass level with cloud fraction > 1 % and QCLOUD + QICE > 1e-6 kg/kg; null without cloud",
                                unit: "m", quantity: .distance, decimals: 0, stored: instant(207, 10, optional: true, limits: -1...30000),
                                set: .all, sdk: sdk(111))
        case .snowDensity:
            // From the raw SNOW and SNOWH of each cell, not from the stored (rounded) depth.
            return VariableSpec("density of the snow pack: SNOW / SNOWH where both are above 0; null without snow", unit: "kg/m³",
                                decimals: 0, stored: instant(208, 1, optional: true, limits: 0...1000), sdk: sdk(154))
        case .directNormalIrradiance:
            // WRF's radiation is instantaneous at the output time: the plain name carries the
            // value at the time, as shortwave_radiation does (docs/VARIABLES.md).
            return VariableSpec("direct shortwave irradiance on a plane normal to the sun at the surface (SWDDNI)", unit: "W/m²",
                                decimals: 0, stored: instant(209, 1, optional: true, limits: radiationLimits),
                                field: DirectField(key: "shortwave_direct_normal", unit: "W/m2"), sdk: sdk(11), wrfNames: ["swddni"])
        case .shortwaveRadiationClearSky:
            return VariableSpec("downward shortwave radiation at the surface as it would be without clouds (SWDNBC)", unit: "W/m²",
                                decimals: 0, stored: instant(210, 1, optional: true, limits: radiationLimits),
                                field: DirectField(key: "shortwave_down_clear_sky", unit: "W/m2"), sdk: sdk(105), wrfNames: ["swdnbc"])
        case .lightningPotential:
            return VariableSpec("lightning potential index (LPI, Yair et al. 2010), as WRF's lightning diagnostics write it", unit: "J/kg",
                                decimals: 1, stored: instant(211, 0.1, optional: true, limits: -1...10000),
                                field: DirectField(key: "lightning_potential", unit: "J/kg"), sdk: sdk(23), wrfNames: ["lpi"])
        case .roughnessLength:
            // SDK code 158: roughness_length in openmeteo-sdk 1.28.0's Variable enum (the version
            // open-meteo/open-meteo pins; added after k_index), as its FlatBuffers+WeatherApi.swift maps it.
            return VariableSpec("surface roughness length of the land-surface model (ZNT)", unit: "m", quantity: .distance,
                                decimals: 4, stored: instant(212, 0.0001, optional: true, limits: 0...10),
                                field: DirectField(key: "roughness_length", unit: "m"), sdk: sdk(158), wrfNames: ["znt"])
        case .precipitationNeighbourhood:
            // Issue 46 (docs/VARIABLES.md, "Chance of rain"): the neighbourhood fraction of
            // Theis et al. (2005), made per frame at extraction, where the whole grid is at hand.
            // Read by the query as the value of the interval holding each time.
            return VariableSpec("share of the cells within the neighbourhood (3 cells, or extract --neighbourhood-km) whose precipitation over the output interval ending at the time is at least 0.1 mm an hour",
                                unit: "%", decimals: 0, stored: instant(213, 1, limits: percentLimits), isOutput: false, sdk: nil)
        case .precipitationProbability:
            // The mean over the lagged members (the newest cycles covering the hour) of each
            // member's neighbourhood fraction at the place (`LaggedMembers`).
            return VariableSpec("chance of at least 0.1 mm of precipitation in the hour: the mean, over the newest cycles covering the hour (a lagged ensemble), of the share of nearby cells with that much",
                                unit: "%", decimals: 0, stored: nil, sources: [.precipitationNeighbourhood], sdk: sdk(26))
        case .snowfallNeighbourhood:
            return VariableSpec("share of the cells within the neighbourhood (3 cells, or extract --neighbourhood-km) whose snowfall over the output interval ending at the time is at least 0.1 cm an hour",
                                unit: "%", decimals: 0, stored: instant(214, 1, limits: percentLimits), isOutput: false, sdk: nil)
        case .snowfallProbability:
            return VariableSpec("chance of at least 0.1 cm of snowfall in the hour: the mean, over the newest cycles covering the hour (a lagged ensemble), of the share of nearby cells with that much",
                                unit: "%", decimals: 0, stored: nil, sources: [.snowfallNeighbourhood], sdk: sdk(129))
        case .rainNeighbourhood:
            // Liquid: the grid-scale rain (RAINNC less its frozen parts) and the showers (RAINC + RAINSH).
            return VariableSpec("share of the cells within the neighbourhood whose liquid precipitation (rain + showers) over the output interval ending at the time is at least 0.1 mm an hour",
                                unit: "%", decimals: 0, stored: instant(215, 1, limits: percentLimits), isOutput: false, sdk: nil)
        case .rainProbability:
            return VariableSpec("chance of at least 0.1 mm of liquid precipitation (rain + showers) in the hour, from the lagged members and the neighbourhood",
                                unit: "%", decimals: 0, stored: nil, sources: [.rainNeighbourhood], sdk: sdk(126))
        case .freezingRainNeighbourhood:
            // The weather code's freezing category (WeatherCodeInputs.freezes): grid-scale rain at a 2 m temperature at or below 0 °C.
            return VariableSpec("share of the cells within the neighbourhood with at least 0.1 mm an hour of grid-scale rain at a 2 m temperature at or below 0 °C over the output interval ending at the time",
                                unit: "%", decimals: 0, stored: instant(216, 1, limits: percentLimits), isOutput: false, sdk: nil)
        case .freezingRainProbability:
            return VariableSpec("chance of at least 0.1 mm of freezing rain (liquid at or below 0 °C at 2 m) in the hour, from the lagged members and the neighbourhood",
                                unit: "%", decimals: 0, stored: nil, sources: [.freezingRainNeighbourhood], sdk: sdk(127))
        case .soilMoistureIndex0to10cm:
            return Self.soilMoistureIndex("0-10", index: 42, depth: (0, 10), wrfNames: ["smcrel"])
        case .soilMoistureIndex10to40cm:
            return Self.soilMoistureIndex("10-40", index: 43, depth: (10, 40))
        case .soilMoistureIndex40to100cm:
            return Self.soilMoistureIndex("40-100", index: 44, depth: (40, 100))
        case .soilMoistureIndex100to200cm:
            return Self.soilMoistureIndex("100-200", index: 45, depth: (100, 200))
        // The spreads over the lagged members: one rule for all (SpreadVariables.swift).
        case .temperature2mSpread, .relativeHumidity2mSpread, .dewPoint2mSpread, .apparentTemperatureSpread, .wetBulbTemperature2mSpread,
             .surfaceTemperatureSpread, .precipitationSpread, .rainSpread, .showersSpread, .snowfallSpread, .snowfallWaterEquivalentSpread,
             .snowDepthSpread, .snowWaterEquivalentSpread, .pressureMSLSpread, .surfacePressureSpread, .cloudCoverSpread, .cloudCoverLowSpread,
             .cloudCoverMidSpread, .cloudCoverHighSpread, .windSpeed10mSpread, .windGusts10mSpread, .shortwaveRadiationSpread,
             .directRadiationSpread, .diffuseRadiationSpread, .shortwaveRadiationInstantSpread, .directRadiationInstantSpread,
             .diffuseRadiationInstantSpread, .directNormalIrradianceSpread, .directNormalIrradianceInstantSpread, .sunshineDurationSpread,
             .et0FaoEvapotranspirationSpread, .vapourPressureDeficitSpread, .visibilitySpread, .capeSpread, .convectiveInhibitionSpread,
             .freezingLevelHeightSpread, .boundaryLayerHeightSpread, .soilTemperature0to10cmSpread, .soilTemperature10to40cmSpread,
             .soilTemperature40to100cmSpread, .soilTemperature100to200cmSpread, .soilMoisture0to10cmSpread, .soilMoisture10to40cmSpread,
             .soilMoisture40to100cmSpread, .soilMoisture100to200cmSpread:
            return spreadDeclaration
        // Height and pressure levels: one rule for all (LevelVariables.swift).
        case .temperature80m, .windSpeed80m, .windDirection80m, .windUComponent80m, .windVComponent80m,
             .temperature100m, .windSpeed100m, .windDirection100m, .windUComponent100m, .windVComponent100m,
             .temperature120m, .windSpeed120m, .windDirection120m, .windUComponent120m, .windVComponent120m,
             .temperature180m, .windSpeed180m, .windDirection180m, .windUComponent180m, .windVComponent180m,
             .temperature1000hPa, .relativeHumidity1000hPa, .dewPoint1000hPa, .windSpeed1000hPa, .windDirection1000hPa,
             .windUComponent1000hPa, .windVComponent1000hPa, .geopotentialHeight1000hPa, .cloudCover1000hPa, .verticalVelocity1000hPa,
             .temperature925hPa, .relativeHumidity925hPa, .dewPoint925hPa, .windSpeed925hPa, .windDirection925hPa,
             .windUComponent925hPa, .windVComponent925hPa, .geopotentialHeight925hPa, .cloudCover925hPa, .verticalVelocity925hPa,
             .temperature850hPa, .relativeHumidity850hPa, .dewPoint850hPa, .windSpeed850hPa, .windDirection850hPa,
             .windUComponent850hPa, .windVComponent850hPa, .geopotentialHeight850hPa, .cloudCover850hPa, .verticalVelocity850hPa,
             .temperature700hPa, .relativeHumidity700hPa, .dewPoint700hPa, .windSpeed700hPa, .windDirection700hPa,
             .windUComponent700hPa, .windVComponent700hPa, .geopotentialHeight700hPa, .cloudCover700hPa, .verticalVelocity700hPa,
             .temperature500hPa, .relativeHumidity500hPa, .dewPoint500hPa, .windSpeed500hPa, .windDirection500hPa,
             .windUComponent500hPa, .windVComponent500hPa, .geopotentialHeight500hPa, .cloudCover500hPa, .verticalVelocity500hPa,
             .temperature300hPa, .relativeHumidity300hPa, .dewPoint300hPa, .windSpeed300hPa, .windDirection300hPa,
             .windUComponent300hPa, .windVComponent300hPa, .geopotentialHeight300hPa, .cloudCover300hPa, .verticalVelocity300hPa,
             .temperature250hPa, .relativeHumidity250hPa, .dewPoint250hPa, .windSpeed250hPa, .windDirection250hPa,
             .windUComponent250hPa, .windVComponent250hPa, .geopotentialHeight250hPa, .cloudCover250hPa, .verticalVelocity250hPa,
             .temperature200hPa, .relativeHumidity200hPa, .dewPoint200hPa, .windSpeed200hPa, .windDirection200hPa,
             .windUComponent200hPa, .windVComponent200hPa, .geopotentialHeight200hPa, .cloudCover200hPa, .verticalVelocity200hPa:
            return levelDeclaration
        // Computed by the query from stored variables (or from the place and time alone).
        case .evapotranspiration:
            // Open-Meteo's own formula (Meteorology.evapotranspiration) on the served latent heat
            // flux; WRF's LH is Lv x QFX with Lv = 2.5e6 J/kg, so this is QFX x 3600 s (floored at 0).
            return VariableSpec("evapotranspiration in the hour at the time's rate: max(0, -latent_heat_flux x 3600 s / 2.5e6 J/kg)",
                                unit: "mm", quantity: .precipitation, decimals: 3, inchDecimals: 4, stored: nil,
                                sources: [.latentHeatFlux], pointwise: { max(0, $0[0] * -3600 / 2.5e6) }, sdk: sdk(16))
        case .snowfallWaterEquivalent:
            // The stored snowfall's amounts (SNOWNC x 0.7 cm/mm) back in mm of water: one running
            // total on disk for both.
            return VariableSpec("water equivalent of the grid-scale snow and ice fallen over the output interval (SNOWNC)", unit: "mm",
                                quantity: .precipitation, decimals: 2, inchDecimals: 3, stored: nil, sources: [.snowfall], sdk: sdk(39))
        case .airDensity2m:
            return VariableSpec("density of the moist air at 2 m: (p - e)/(Rd T) + e/(Rv T)", unit: "kg/m³", decimals: 3, stored: nil,
                                sources: [.temperature2m, .dewPoint2m, .surfacePressure],
                                pointwise: { moistAirDensity(temperature: $0[0], dewPoint: $0[1], pressure: $0[2]) },
                                sdk: sdk(168, altitude: 2))
        case .terrestrialRadiation:
            // From the place and time alone, as is_day.
            return VariableSpec("solar radiation on a horizontal surface at the top of the atmosphere, mean over the hour ending at the time",
                                unit: "W/m²", decimals: 0, stored: nil, sdk: sdk(48))
        case .terrestrialRadiationInstant:
            return VariableSpec("solar radiation on a horizontal surface at the top of the atmosphere at the time", unit: "W/m²",
                                decimals: 0, stored: nil, sdk: sdk(49))
        case .shortwaveRadiationInstant:
            // WRF's radiation fields are instantaneous at the output time: the stored values as they are.
            return VariableSpec("downward shortwave radiation at the surface at the time (SWDOWN, instantaneous)", unit: "W/m²", decimals: 0,
                                stored: nil, sources: [.shortwaveRadiation], pointwise: { $0[0] }, sdk: sdk(33))
        case .directRadiationInstant:
            return VariableSpec("direct shortwave radiation on the horizontal at the time (SWDDIR, instantaneous)", unit: "W/m²", decimals: 0,
                                stored: nil, sources: [.directRadiation], pointwise: { $0[0] }, sdk: sdk(14))
        case .diffuseRadiationInstant:
            return VariableSpec("diffuse shortwave radiation at the time (SWDDIF, instantaneous)", unit: "W/m²", decimals: 0,
                                stored: nil, sources: [.diffuseRadiation], pointwise: { $0[0] }, sdk: sdk(10))
        case .globalTiltedIrradiance:
            // Computed by the query for the request's tilt and azimuth (TiltedIrradiance): from
            // SWDDIR and SWDDIF when stored, else SWDOWN split by Erbs. Instantaneous, as the
            // plain radiation names here (docs/VARIABLES.md).
            return VariableSpec("shortwave radiation on a plane of the request's tilt and azimuth at the time (isotropic sky, albedo 0.2)",
                                unit: "W/m²", decimals: 0, stored: nil, sources: [.shortwaveRadiation],
                                optionalSources: [.directRadiation, .diffuseRadiation], sdk: sdk(106), shortName: "gti")
        case .globalTiltedIrradianceInstant:
            return VariableSpec("shortwave radiation on a plane of the request's tilt and azimuth at the time (the same values)",
                                unit: "W/m²", decimals: 0, stored: nil, sources: [.shortwaveRadiation],
                                optionalSources: [.directRadiation, .diffuseRadiation], sdk: sdk(107))
        case .directNormalIrradianceInstant:
            return VariableSpec("direct shortwave irradiance normal to the sun at the time (SWDDNI, instantaneous)", unit: "W/m²", decimals: 0,
                                stored: nil, sources: [.directNormalIrradiance], pointwise: { $0[0] }, sdk: sdk(12))
        case .windSpeed10m:
            return VariableSpec("wind speed at 10 m, from the interpolated earth-relative components", unit: "m/s",
                                quantity: .windSpeed, decimals: 2, stored: nil, sources: [.windU10m, .windV10m], isDefault: true,
                                sdk: sdk(59, altitude: 10), openMeteoAliases: ["windspeed", "windspeed_10m"], wrfNames: ["u10", "v10"], shortName: "wind")
        case .windDirection10m:
            return VariableSpec("direction the 10 m wind blows from, from the interpolated earth-relative components", unit: "°",
                                decimals: 0, stored: nil, sources: [.windU10m, .windV10m], isDefault: true,
                                sdk: sdk(57, altitude: 10), openMeteoAliases: ["winddirection", "winddirection_10m"], wrfNames: ["u10", "v10"],
                                shortName: "dir")
        case .isDay:
            // From the place and time alone (NOAA solar position), so every cycle can answer it.
            return VariableSpec("1 while the sun is above the horizon, else 0", unit: "", decimals: 0, stored: nil, sdk: sdk(19))
        case .et0FaoEvapotranspiration:
            return VariableSpec("FAO-56 hourly Penman-Monteith reference evapotranspiration", unit: "mm", quantity: .precipitation,
                                decimals: 3, inchDecimals: 4, stored: nil,
                                sources: [.temperature2m, .dewPoint2m, .windU10m, .windV10m, .shortwaveRadiation, .surfacePressure], sdk: sdk(15))
        case .wetBulbTemperature2m:
            return VariableSpec("wet-bulb temperature at 2 m (Stull 2011, from temperature and relative humidity)", unit: "°C",
                                quantity: .temperature, decimals: 2, stored: nil, sources: [.temperature2m, .relativeHumidity2m],
                                pointwise: { wetBulbTemperature(temperature: $0[0], relativeHumidity: $0[1]) }, sdk: sdk(62, altitude: 2))
        case .sunshineDuration:
            // SWDDIR (direct_radiation) is used when stored, but the global radiation suffices.
            return VariableSpec("seconds of sunshine (direct normal irradiance above WMO's 120 W/m²) in the hour ending at the time",
                                unit: "s", decimals: 0, stored: nil, sources: [.shortwaveRadiation], sdk: sdk(103))
        }
    }

    /// Noah's soil temperature layers (WRF's default: centres ZS 5, 25, 70, 150 cm).
    private static func soilTemperature(_ layer: String, index: Int, depth: (Int16, Int16), wrfNames: [String] = []) -> VariableSpec {
        VariableSpec("soil temperature, Noah layer \(layer) cm (TSLB)", unit: "°C", quantity: .temperature, decimals: 2,
                     stored: instant(index, 0.05, optional: true, limits: soilTemperatureLimits), movedByElevation: true,
                     sdk: sdk(44, depth: depth), wrfNames: wrfNames)
    }

    private static func soilMoistureIndex(_ layer: String, index: Int, depth: (Int16, Int16), wrfNames: [String] = []) -> VariableSpec {
        // SMCREL = (SMOIS - wilting point) / (reference (field capacity) - wilting point): 1 over water.
        VariableSpec("soil moisture index, Noah layer \(layer) cm: 0 at wilting point, 1 at field capacity (SMCREL)", unit: "fraction",
                     decimals: 3, stored: instant(index, 0.001, optional: true, limits: -0.5...1.5), sdk: sdk(43, depth: depth), wrfNames: wrfNames)
    }

    private static func soilMoisture(_ layer: String, index: Int, depth: (Int16, Int16), wrfNames: [String] = []) -> VariableSpec {
        VariableSpec("volumetric soil moisture, Noah layer \(layer) cm (SMOIS)", unit: "m³/m³", decimals: 3,
                     stored: instant(index, 0.001, optional: true, limits: soilMoistureLimits), sdk: sdk(42, depth: depth), wrfNames: wrfNames)
    }
}
