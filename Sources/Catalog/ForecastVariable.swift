/// The variables TileCast serves (SPEC section 3), named as the common open weather APIs
/// name them. Ingest produces them, the store keeps them at `precision`, queries return them.
public enum ForecastVariable: String, CaseIterable, Sendable, Codable, Comparable {
    case temperature2m = "temperature_2m"
    case relativeHumidity2m = "relative_humidity_2m"
    case dewPoint2m = "dew_point_2m"
    case apparentTemperature = "apparent_temperature"
    /// Earth-relative wind components: stored, so speed and direction are computed from
    /// interpolated u and v, never by interpolating a direction.
    case windU10m = "wind_u_10m"
    case windV10m = "wind_v_10m"
    case precipitation = "precipitation"
    case snowfall = "snowfall"
    case surfacePressure = "surface_pressure"
    case pressureMSL = "pressure_msl"
    case cloudCover = "cloud_cover"
    case shortwaveRadiation = "shortwave_radiation"
    case weatherCode = "weather_code"
    case elevation = "elevation"
    // Issue 11. Appended, so the catalog indices above keep their values.
    /// Grid-scale liquid precipitation (Open-Meteo's `rain`).
    case rain = "rain"
    /// Convective precipitation (Open-Meteo's `showers`).
    case showers = "showers"
    case snowDepth = "snow_depth"
    case vapourPressureDeficit = "vapour_pressure_deficit"
    /// The four Noah land-surface layers (WRF's default: centres ZS 5, 25, 70, 150 cm).
    case soilTemperature0to10cm = "soil_temperature_0_to_10cm"
    case soilTemperature10to40cm = "soil_temperature_10_to_40cm"
    case soilTemperature40to100cm = "soil_temperature_40_to_100cm"
    case soilTemperature100to200cm = "soil_temperature_100_to_200cm"
    case soilMoisture0to10cm = "soil_moisture_0_to_10cm"
    case soilMoisture10to40cm = "soil_moisture_10_to_40cm"
    case soilMoisture40to100cm = "soil_moisture_40_to_100cm"
    case soilMoisture100to200cm = "soil_moisture_100_to_200cm"
    /// Written by WRF only with some radiation options (SWDDIR, SWDDIF) or diagnostics (CAPE).
    case directRadiation = "direct_radiation"
    case diffuseRadiation = "diffuse_radiation"
    case cape = "cape"
    case windGusts10m = "wind_gusts_10m"
    /// CLDFRA's maximum by height above ground: below 2 km (fog included), 2-6 km, above 6 km.
    case cloudCoverLow = "cloud_cover_low"
    case cloudCoverMid = "cloud_cover_mid"
    case cloudCoverHigh = "cloud_cover_high"
    /// Horizontal visibility from the lowest model level (UPP CALVIS_GSD), capped at 24.135 km.
    case visibility = "visibility"
    /// Fields a WRF run writes at the surface, stored as they are: the skin temperature (TSK),
    /// the PBL scheme's boundary-layer height (PBLH) and the snow's water equivalent (SNOW).
    case surfaceTemperature = "surface_temperature"
    case boundaryLayerHeight = "boundary_layer_height"
    case snowWaterEquivalent = "snow_depth_water_equivalent"

    /// The soil temperature variables, top layer first (index = Noah layer).
    public static let soilTemperatures: [ForecastVariable] = [.soilTemperature0to10cm, .soilTemperature10to40cm, .soilTemperature40to100cm, .soilTemperature100to200cm]
    /// The soil moisture variables, top layer first (index = Noah layer).
    public static let soilMoistures: [ForecastVariable] = [.soilMoisture0to10cm, .soilMoisture10to40cm, .soilMoisture40to100cm, .soilMoisture100to200cm]

    /// The unit values are stored and computed in (query output converts from these).
    public var unit: String {
        switch self {
        case .temperature2m, .dewPoint2m, .apparentTemperature: return "°C"
        case .relativeHumidity2m, .cloudCover: return "%"
        case .windU10m, .windV10m: return "m/s"
        case .precipitation: return "mm"
        case .snowfall: return "cm"
        case .surfacePressure, .pressureMSL: return "hPa"
        case .shortwaveRadiation: return "W/m²"
        case .weatherCode: return "wmo code"
        case .elevation: return "m"
        case .rain, .showers: return "mm"
        case .snowDepth: return "m"
        case .vapourPressureDeficit: return "kPa"
        case .soilTemperature0to10cm, .soilTemperature10to40cm, .soilTemperature40to100cm, .soilTemperature100to200cm: return "°C"
        case .soilMoisture0to10cm, .soilMoisture10to40cm, .soilMoisture40to100cm, .soilMoisture100to200cm: return "m³/m³"
        case .directRadiation, .diffuseRadiation: return "W/m²"
        case .cape: return "J/kg"
        case .windGusts10m: return "m/s"
        case .cloudCoverLow, .cloudCoverMid, .cloudCoverHigh: return "%"
        case .visibility: return "m"
        case .surfaceTemperature: return "°C"
        case .boundaryLayerHeight: return "m"
        case .snowWaterEquivalent: return "mm"
        }
    }

    /// The precision kept in the store (SPEC section 3), in `unit`. Quantisation may use a
    /// step up to twice this (rounding error at most half a step).
    public var precision: Double {
        switch self {
        case .temperature2m, .dewPoint2m: return 0.05
        case .apparentTemperature: return 0.1
        case .relativeHumidity2m: return 0.5
        case .windU10m, .windV10m: return 0.05
        case .precipitation: return 0.01
        case .snowfall: return 0.01
        case .surfacePressure, .pressureMSL: return 0.1
        case .cloudCover: return 1
        case .shortwaveRadiation: return 1
        case .weatherCode: return 1
        case .elevation: return 1
        case .rain, .showers: return 0.01
        case .snowDepth: return 0.005
        case .vapourPressureDeficit: return 0.005
        case .soilTemperature0to10cm, .soilTemperature10to40cm, .soilTemperature40to100cm, .soilTemperature100to200cm: return 0.05
        case .soilMoisture0to10cm, .soilMoisture10to40cm, .soilMoisture40to100cm, .soilMoisture100to200cm: return 0.001
        case .directRadiation, .diffuseRadiation: return 1
        case .cape: return 1
        case .windGusts10m: return 0.05
        case .cloudCoverLow, .cloudCoverMid, .cloudCoverHigh: return 1
        // 5 m: the 24 135 m cap is a whole number of steps (a 10 m step would store it as
        // 24 140), and fog's 1000 m threshold is far coarser.
        case .visibility: return 5
        case .surfaceTemperature: return 0.05
        case .boundaryLayerHeight: return 1
        case .snowWaterEquivalent: return 0.05
        }
    }

    /// True for the one variable that does not change with time.
    public var isStatic: Bool { self == .elevation }

    /// True for variables made from fields many runs do not write (snow and soil fields of
    /// the land-surface model, SWDDIR/SWDDIF, CAPE, UST, the ice species of visibility): extraction does not warn when they
    /// are absent (every plain wrfout would), `inspect` still lists them as missing.
    public var isOptional: Bool {
        switch self {
        case .snowDepth, .directRadiation, .diffuseRadiation, .cape, .windGusts10m, .cloudCoverLow, .cloudCoverMid, .cloudCoverHigh,
             .visibility, .surfaceTemperature, .boundaryLayerHeight, .snowWaterEquivalent: return true
        default: return Self.soilTemperatures.contains(self) || Self.soilMoistures.contains(self)
        }
    }

    /// True for amounts over an output interval (summed, not averaged, over a window).
    public var isAccumulation: Bool { self == .precipitation || self == .snowfall || self == .rain || self == .showers }

    /// A one-line description for `--help` and `inspect`.
    public var summary: String {
        switch self {
        case .temperature2m: return "air temperature at 2 m"
        case .relativeHumidity2m: return "relative humidity at 2 m (wrf-python rh2 formula)"
        case .dewPoint2m: return "dew point at 2 m"
        case .apparentTemperature: return "apparent (feels-like) temperature"
        case .windU10m: return "earth-relative eastward wind at 10 m"
        case .windV10m: return "earth-relative northward wind at 10 m"
        case .precipitation: return "precipitation over the output interval ending at the time"
        case .snowfall: return "snowfall over the output interval ending at the time"
        case .surfacePressure: return "surface pressure"
        case .pressureMSL: return "pressure reduced to mean sea level"
        case .cloudCover: return "cloud cover (column maximum of cloud fraction)"
        case .shortwaveRadiation: return "downward shortwave radiation at the surface"
        case .weatherCode: return "WMO weather code"
        case .elevation: return "model terrain height"
        case .rain: return "grid-scale liquid precipitation over the output interval (RAINNC less SNOWNC, GRAUPELNC, HAILNC)"
        case .showers: return "convective precipitation over the output interval (RAINC + RAINSH)"
        case .snowDepth: return "snow depth (SNOWH)"
        case .vapourPressureDeficit: return "vapour pressure deficit at 2 m (FAO-56 eq. 11 and 19 form)"
        case .soilTemperature0to10cm: return "soil temperature, Noah layer 0-10 cm (TSLB)"
        case .soilTemperature10to40cm: return "soil temperature, Noah layer 10-40 cm (TSLB)"
        case .soilTemperature40to100cm: return "soil temperature, Noah layer 40-100 cm (TSLB)"
        case .soilTemperature100to200cm: return "soil temperature, Noah layer 100-200 cm (TSLB)"
        case .soilMoisture0to10cm: return "volumetric soil moisture, Noah layer 0-10 cm (SMOIS)"
        case .soilMoisture10to40cm: return "volumetric soil moisture, Noah layer 10-40 cm (SMOIS)"
        case .soilMoisture40to100cm: return "volumetric soil moisture, Noah layer 40-100 cm (SMOIS)"
        case .soilMoisture100to200cm: return "volumetric soil moisture, Noah layer 100-200 cm (SMOIS)"
        case .directRadiation: return "direct shortwave radiation on the horizontal at the surface (SWDDIR)"
        case .diffuseRadiation: return "diffuse shortwave radiation at the surface (SWDDIF)"
        case .cape: return "convective available potential energy (the file's CAPE diagnostic)"
        case .windGusts10m: return "10 m wind gust: |V10| + 7.2 UST (ECMWF IFS surface-layer gust, neutral form)"
        case .cloudCoverLow: return "cloud cover below 2 km above ground (CLDFRA maximum, heights from PH + PHB)"
        case .cloudCoverMid: return "cloud cover 2-6 km above ground (CLDFRA maximum)"
        case .cloudCoverHigh: return "cloud cover above 6 km above ground (CLDFRA maximum)"
        case .visibility: return "visibility from the lowest model level's hydrometeors and humidity (UPP CALVIS_GSD), at most 24.135 km"
        case .surfaceTemperature: return "surface (skin) temperature of the ground, sea or snow (TSK)"
        case .boundaryLayerHeight: return "height of the planetary boundary layer above ground (PBLH, from the PBL scheme)"
        case .snowWaterEquivalent: return "water equivalent of the snow on the ground (SNOW)"
        }
    }

    /// The position in `allCases`, for tables indexed by variable.
    public var catalogIndex: Int {
        switch self {
        case .temperature2m: return 0
        case .relativeHumidity2m: return 1
        case .dewPoint2m: return 2
        case .apparentTemperature: return 3
        case .windU10m: return 4
        case .windV10m: return 5
        case .precipitation: return 6
        case .snowfall: return 7
        case .surfacePressure: return 8
        case .pressureMSL: return 9
        case .cloudCover: return 10
        case .shortwaveRadiation: return 11
        case .weatherCode: return 12
        case .elevation: return 13
        case .rain: return 14
        case .showers: return 15
        case .snowDepth: return 16
        case .vapourPressureDeficit: return 17
        case .soilTemperature0to10cm: return 18
        case .soilTemperature10to40cm: return 19
        case .soilTemperature40to100cm: return 20
        case .soilTemperature100to200cm: return 21
        case .soilMoisture0to10cm: return 22
        case .soilMoisture10to40cm: return 23
        case .soilMoisture40to100cm: return 24
        case .soilMoisture100to200cm: return 25
        case .directRadiation: return 26
        case .diffuseRadiation: return 27
        case .cape: return 28
        case .windGusts10m: return 29
        case .cloudCoverLow: return 30
        case .cloudCoverMid: return 31
        case .cloudCoverHigh: return 32
        case .visibility: return 33
        case .surfaceTemperature: return 34
        case .boundaryLayerHeight: return 35
        case .snowWaterEquivalent: return 36
        }
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.catalogIndex < rhs.catalogIndex }
}
