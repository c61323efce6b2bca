import Catalog

/// What each stored variable is made from: the one table that a domain's availability (what
/// `inspect` lists and extraction declares) and the frame reader (which checks every declared
/// variable was made) both read. Two lists could disagree, and then the store would silently
/// hold an all-missing variable. The arithmetic is in `FrameReader`, one case per entry;
/// docs/VARIABLES.md gives each formula and its citation.
package struct Derivation: Sendable {
    package let variable: ForecastVariable
    /// Sources that must all be present.
    package let allOf: [SourceRole]
    /// Sources of which one must be present (none when empty).
    package let oneOf: [SourceRole]
    /// Stored variables it is derived from (weather code from cloud cover and precipitation;
    /// it also uses visibility for fog where the domain has visibility, and is made without).
    package let from: [ForecastVariable]
    /// A source that alone suffices (MM5's stored sea-level pressure).
    package let orDirectly: SourceRole?
    /// Another complete set of sources that suffices instead (wrf-python's sea-level pressure
    /// from the model levels, which needs neither HGT nor T2); empty when there is none.
    package var orAllOf: [SourceRole] = []
    /// The least extraction set that takes the `orAllOf` route: cape worked out from the model
    /// levels (a parcel lifted through every column, tens of seconds a run) is for `--set all`;
    /// the surface set stores cape only where the file has its own CAPE field.
    package var orAllOfSet: ExtractionSet = .surface
}

package enum Derivations {
    private static let pressure: [SourceRole] = [.surfacePressure, .pstar]
    /// Cloud layers by height: CLDFRA on mass levels, PH + PHB on the staggered levels around them.
    private static let layered: [SourceRole] = [.cloudFraction, .geopotentialPerturbation, .geopotentialBase, .terrainHeight]

    /// The lowest model levels wrf-python's slp reads (SeaLevelColumns).
    private static let modelLevels: [SourceRole] = [.pressurePerturbation, .pressureBase, .potentialTemperaturePerturbation,
                                                    .vapourMixingRatio, .geopotentialPerturbation, .geopotentialBase]

    /// The mass levels' state: full pressure, potential temperature and vapour (P, PB, T, QVAPOR).
    private static let state: [SourceRole] = [.pressurePerturbation, .pressureBase, .potentialTemperaturePerturbation, .vapourMixingRatio]

    /// The surface-based parcel's sources: the 2 m air (and PSFC, `parcelPressure`), then the mass levels.
    private static let parcel: [SourceRole] = [.temperature2m, .mixingRatio2m] + state
    /// The parcel's starting pressure, PSFC; as a one-of like the 2 m humidity's `pressure`.
    private static let parcelPressure: [SourceRole] = [.surfacePressure]
    /// The file's own CAPE (the registry's `field` of cape).
    private static let capeField = SourceRole(field: DirectField(key: "cape", unit: "J/kg"))

    /// The cloud boundaries' columns (CloudBoundaryFields).
    private static let cloudColumns: [SourceRole] = [.cloudFraction, .cloudWaterMixingRatio, .iceMixingRatio,
                                                     .geopotentialPerturbation, .geopotentialBase, .terrainHeight]
    /// SNOW and SNOWH, the fields snow_depth_water_equivalent and snow_depth are copied from.
    package static let snowWaterField = SourceRole(field: DirectField(key: "snow_water_equivalent", unit: "mm"))
    package static let snowDepthField = SourceRole(field: DirectField(key: "snow_depth", unit: "m"))

    /// One entry per catalog variable, in catalog order.
    package static let table: [Derivation] = ([
        Derivation(variable: .temperature2m, allOf: [.temperature2m], oneOf: [], from: [], orDirectly: nil),
        Derivation(variable: .relativeHumidity2m, allOf: [.temperature2m, .mixingRatio2m], oneOf: pressure, from: [], orDirectly: nil),
        Derivation(variable: .dewPoint2m, allOf: [.mixingRatio2m], oneOf: pressure, from: [], orDirectly: nil),
        Derivation(variable: .apparentTemperature, allOf: [.temperature2m, .mixingRatio2m, .u10m, .v10m], oneOf: pressure, from: [], orDirectly: nil),
        Derivation(variable: .windU10m, allOf: [.u10m, .v10m], oneOf: [], from: [], orDirectly: nil),
        Derivation(variable: .windV10m, allOf: [.u10m, .v10m], oneOf: [], from: [], orDirectly: nil),
        Derivation(variable: .precipitation, allOf: [], oneOf: [.rainConvective, .rainNonConvective, .rainShallow], from: [], orDirectly: nil),
        Derivation(variable: .snowfall, allOf: [.snowWater], oneOf: [], from: [], orDirectly: nil),
        // The precipitation's sources; made from its amounts over whole frames (FrameReader).
        Derivation(variable: .precipitationNeighbourhood, allOf: [], oneOf: [.rainConvective, .rainNonConvective, .rainShallow], from: [],
                   orDirectly: nil),
        Derivation(variable: .snowfallNeighbourhood, allOf: [.snowWater], oneOf: [], from: [], orDirectly: nil),
        // The rain's sources (its liquid part needs SNOWNC); the showers are added where the run has them.
        Derivation(variable: .rainNeighbourhood, allOf: [.rainNonConvective, .snowWater], oneOf: [], from: [], orDirectly: nil),
        Derivation(variable: .freezingRainNeighbourhood, allOf: [.rainNonConvective, .snowWater, .temperature2m], oneOf: [], from: [], orDirectly: nil),
        Derivation(variable: .surfacePressure, allOf: [], oneOf: pressure, from: [], orDirectly: nil),
        Derivation(variable: .pressureMSL, allOf: [.temperature2m, .terrainHeight], oneOf: pressure, from: [], orDirectly: .seaLevelPressure,
                   orAllOf: modelLevels),
        Derivation(variable: .cloudCover, allOf: [.cloudFraction], oneOf: [], from: [], orDirectly: nil),
        Derivation(variable: .shortwaveRadiation, allOf: [.shortwaveDown], oneOf: [], from: [], orDirectly: nil),
        Derivation(variable: .elevation, allOf: [.terrainHeight], oneOf: [], from: [], orDirectly: nil),
        // Grid-scale liquid: RAINNC less its frozen parts; without SNOWNC the split is unknown.
        Derivation(variable: .rain, allOf: [.rainNonConvective, .snowWater], oneOf: [], from: [], orDirectly: nil),
        Derivation(variable: .showers, allOf: [], oneOf: [.rainConvective, .rainShallow], from: [], orDirectly: nil),
        Derivation(variable: .vapourPressureDeficit, allOf: [.temperature2m, .mixingRatio2m], oneOf: pressure, from: [], orDirectly: nil),
        Derivation(variable: .windGusts10m, allOf: [.u10m, .v10m, .frictionVelocity], oneOf: [], from: [], orDirectly: nil),
        Derivation(variable: .cloudCoverLow, allOf: layered, oneOf: [], from: [], orDirectly: nil),
        Derivation(variable: .cloudCoverMid, allOf: layered, oneOf: [], from: [], orDirectly: nil),
        Derivation(variable: .cloudCoverHigh, allOf: layered, oneOf: [], from: [], orDirectly: nil),
        // The lowest level's state and the four species every ice scheme writes; QGRAUP only
        // when present (schemes without graupel do not write it), as UPP counts a species it
        // lacks as zero.
        Derivation(variable: .visibility, allOf: [.pressurePerturbation, .pressureBase, .potentialTemperaturePerturbation,
                                                  .vapourMixingRatio, .cloudWaterMixingRatio, .rainMixingRatio,
                                                  .iceMixingRatio, .snowMixingRatio], oneOf: [], from: [], orDirectly: nil),
        Derivation(variable: .hail, allOf: [.hail], oneOf: [], from: [], orDirectly: nil),
        // Noah writes both; one alone would be a part of the runoff under the whole's name.
        Derivation(variable: .runoff, allOf: [.surfaceRunoff, .undergroundRunoff], oneOf: [], from: [], orDirectly: nil),
        Derivation(variable: .potentialEvapotranspiration, allOf: [.potentialEvaporation], oneOf: [], from: [], orDirectly: nil),
        // Issue 28's column quantities (ColumnFields): whole columns of the 3-D state.
        Derivation(variable: .totalColumnIntegratedWaterVapour, allOf: state + [.geopotentialPerturbation, .geopotentialBase],
                   oneOf: [], from: [], orDirectly: nil),
        Derivation(variable: .freezingLevelHeight, allOf: [.pressurePerturbation, .pressureBase, .potentialTemperaturePerturbation,
                                                           .geopotentialPerturbation, .geopotentialBase, .terrainHeight, .temperature2m],
                   oneOf: [], from: [], orDirectly: nil),
        Derivation(variable: .updraft, allOf: [.windW, .geopotentialPerturbation, .geopotentialBase, .terrainHeight],
                   oneOf: [], from: [], orDirectly: nil),
        Derivation(variable: .kIndex, allOf: state, oneOf: [], from: [], orDirectly: nil),
        // The file's CAPE, else the surface-based parcel from the 2 m air and the mass levels.
        Derivation(variable: .cape, allOf: [capeField], oneOf: [], from: [], orDirectly: nil, orAllOf: parcel + parcelPressure,
                   orAllOfSet: .all),
        Derivation(variable: .convectiveInhibition, allOf: parcel, oneOf: parcelPressure, from: [], orDirectly: nil),
        Derivation(variable: .liftedIndex, allOf: parcel, oneOf: parcelPressure, from: [], orDirectly: nil),
        // Cloud boundaries (CloudBoundaryFields): CLDFRA and the cloud condensate QCLOUD + QICE
        // on the mass levels, their heights from PH + PHB above HGT.
        Derivation(variable: .cloudBase, allOf: cloudColumns, oneOf: [], from: [], orDirectly: nil),
        Derivation(variable: .cloudTop, allOf: cloudColumns, oneOf: [], from: [], orDirectly: nil),
        // SNOW / SNOWH from the raw fields of each cell.
        Derivation(variable: .snowDensity, allOf: [snowWaterField, snowDepthField], oneOf: [], from: [], orDirectly: nil),
    ] + ForecastVariable.soilTemperatures.map {
        Derivation(variable: $0, allOf: [.soilTemperature, .soilDepths], oneOf: [], from: [], orDirectly: nil)
    } + ForecastVariable.soilMoistures.map {
        Derivation(variable: $0, allOf: [.soilMoisture, .soilDepths], oneOf: [], from: [], orDirectly: nil)
    } + ForecastVariable.soilMoistureIndices.map {
        Derivation(variable: $0, allOf: [.relativeSoilMoisture, .soilDepths], oneOf: [], from: [], orDirectly: nil)
    } + ForecastVariable.levelVariables.compactMap { variable in
        levelSources(variable).map { Derivation(variable: variable, allOf: $0, oneOf: [], from: [], orDirectly: nil) }
    } + ForecastVariable.stored.filter { $0 != .cape }.compactMap { variable in
        // Copied from the one field the registry names (`VariableSpec.field`); cape above.
        variable.spec.field.map { Derivation(variable: variable, allOf: [SourceRole(field: $0)], oneOf: [], from: [], orDirectly: nil) }
    }).sorted { $0.variable < $1.variable }

    /// The fields a stored level variable is made from (`LevelDeriver`); nil for those the
    /// query computes (wind speed and direction).
    private static func levelSources(_ variable: ForecastVariable) -> [SourceRole]? {
        guard variable.spec.stored != nil, let (quantity, level) = variable.level else { return nil }
        let wind: [SourceRole] = [.windU, .windV]
        switch level {
        case .height:
            // Heights above ground from PH + PHB and HGT; the wind's rotation falls back on the projection.
            let heights: [SourceRole] = [.geopotentialPerturbation, .geopotentialBase, .terrainHeight]
            let temperature: [SourceRole] = [.potentialTemperaturePerturbation, .pressurePerturbation, .pressureBase]
            return heights + (quantity == .temperature ? temperature : wind)
        case .pressure:
            let pressure: [SourceRole] = [.pressurePerturbation, .pressureBase]
            switch quantity {
            case .temperature: return pressure + [.potentialTemperaturePerturbation]
            case .relativeHumidity: return pressure + [.potentialTemperaturePerturbation, .vapourMixingRatio]
            case .dewPoint: return pressure + [.vapourMixingRatio]
            case .windU, .windV: return pressure + wind
            case .geopotentialHeight: return pressure + [.geopotentialPerturbation, .geopotentialBase]
            case .cloudCover: return pressure + [.cloudFraction]
            case .verticalVelocity: return pressure + [.windW]
            case .windSpeed, .windDirection: return nil
            }
        }
    }

    /// The entry of a variable; every catalog variable has one (a test holds this).
    package static func of(_ variable: ForecastVariable) -> Derivation? { table.first { $0.variable == variable } }
}
