import Foundation
import Catalog
import Meteorology

/// Issue 28's column quantities from a WRF frame's 3-D fields: precipitable water, the freezing
/// level, the updraft and the K index (formulas in `ColumnQuantities`, docs/VARIABLES.md).
///
/// Each field is read once per frame, whole columns (the uppermost 0 °C crossing and the
/// column sums need every level), and only when a wanted variable needs it: these reads are
/// the expensive part of an extraction that asks for them.
enum ColumnFields {
    static let variables: Set<ForecastVariable> = [.totalColumnIntegratedWaterVapour, .freezingLevelHeight, .updraft, .kIndex,
                                                   .cape, .convectiveInhibition, .liftedIndex]
    /// The surface-based parcel's (`surfaceBasedConvection`).
    static let parcelVariables: Set<ForecastVariable> = [.cape, .convectiveInhibition, .liftedIndex]

    /// Derives the wanted column quantities into `out`; nothing when none is wanted or a source
    /// is absent (the derivation table decided availability; the frame reader then reports a
    /// listed variable that was not made).
    ///
    /// - Parameters:
    ///   - temperature2m: T2 (K) for the freezing level's lowest point and below-ground estimate,
    ///     and with `mixingRatio2m` (Q2, kg/kg) and `surfacePressure` (Pa) the parcel's start.
    ///   - terrain: the cells' terrain height (m), the frame's own for a moving nest.
    ///   CAPE already in `out` (the file's own field) is kept.
    static func derive(_ raw: RawFrame, temperature2m: [Float]?, mixingRatio2m: [Float]?, surfacePressure: [Float]?, terrain: [Float]?,
                       wants: Set<ForecastVariable>, into out: inout [ForecastVariable: [Float]]) throws(IngestError) {
        var wanted = variables.intersection(wants)
        if out[.cape] != nil { wanted.remove(.cape) }
        guard !wanted.isEmpty else { return }
        let cells = raw.cells
        let needsState = !wanted.subtracting([.updraft]).isEmpty
        let needsHeights = !wanted.subtracting(parcelVariables.union([.kIndex])).isEmpty

        var pressure: [Float]?, theta: [Float]?, vapour: [Float]?, levels = 0
        if needsState, let p = try raw.column(.pressurePerturbation), let pb = try raw.column(.pressureBase),
           let t = try raw.column(.potentialTemperaturePerturbation) {
            guard pb.levels == p.levels, t.levels == p.levels else { throw shapeError(raw) }
            levels = p.levels
            pressure = zip(p.values, pb.values).map { $0 + $1 }
            theta = t.values
            if wanted.contains(.totalColumnIntegratedWaterVapour) || wanted.contains(.kIndex) || !wanted.isDisjoint(with: parcelVariables) {
                guard let q = try raw.column(.vapourMixingRatio) else { return }
                guard q.levels == levels else { throw shapeError(raw) }
                vapour = q.values
            }
        }
        var geopotential: [Float]?, staggered = 0
        if needsHeights, let sum = try raw.geopotential(lowest: raw.levelCount(.geopotentialPerturbation) ?? 1) {
            staggered = sum.count / max(cells, 1)
            guard staggered * cells == sum.count, levels == 0 || staggered == levels + 1 else { throw shapeError(raw) }
            geopotential = sum
        }
        var w: (values: [Float], levels: Int)?
        if wanted.contains(.updraft), geopotential != nil, terrain != nil {
            w = try raw.column(.windW)
            guard w == nil || w?.levels == staggered else { throw shapeError(raw) }
        }
        let parcel = !wanted.isDisjoint(with: parcelVariables) && temperature2m != nil && mixingRatio2m != nil && surfacePressure != nil

        // One pass over the cells, each column gathered once (a temperature column is a pow per
        // level), in chunks on every core: the parcel is most of an `--set all` extraction's
        // time, and a domain too large for the writer's memory is read as one unit, on one core.
        // No level-major copy of a whole field is made.
        let g = WRFColumnConstants.gravity
        let read = (pressure: pressure, theta: theta, vapour: vapour, geopotential: geopotential, w: w, levels: levels,
                    staggered: staggered, wanted: wanted)
        let chunks = min(cells, 4 * max(1, ProcessInfo.processInfo.activeProcessorCount))
        let parts = concurrentMap(chunks) { chunk -> [ForecastVariable: [Float]] in
            let (pressure, theta, vapour, geopotential, w, levels, staggered, wanted) = read
            let range = chunk * cells / chunks..<(chunk + 1) * cells / chunks
            var results: [ForecastVariable: [Float]] = [:]
            for variable in wanted { results[variable] = [Float](repeating: .nan, count: range.count) }
            var p = [Double](repeating: 0, count: levels), t = p, q = p, z = [Double](repeating: 0, count: staggered)
            for (slot, cell) in range.enumerated() {
                if let pressure, let theta {
                    for k in 0..<levels {
                        p[k] = Double(pressure[k * cells + cell])
                        t[k] = wrfTemperature(potentialTemperaturePerturbation: Double(theta[k * cells + cell]), pressure: p[k])
                    }
                }
                if let vapour { for k in 0..<levels { q[k] = Double(vapour[k * cells + cell]) } }
                if let geopotential { for k in 0..<staggered { z[k] = Double(geopotential[k * cells + cell]) / g } }

                if pressure != nil, vapour != nil, geopotential != nil, results[.totalColumnIntegratedWaterVapour] != nil {
                    results[.totalColumnIntegratedWaterVapour]?[slot] = Float(precipitableWater(pressure: p, temperature: t, mixingRatio: q,
                                                                                                interfaceHeights: z))
                }
                if pressure != nil, geopotential != nil, let terrain, let temperature2m, results[.freezingLevelHeight] != nil {
                    // Mass-level heights: the mean of the staggered levels around them (wrf-python's z).
                    let heights = (0..<levels).map { (z[$0] + z[$0 + 1]) / 2 }
                    results[.freezingLevelHeight]?[slot] = Float(freezingLevelHeight(heights: heights, temperatures: t.map { $0 - 273.15 },
                                                                                     terrain: Double(terrain[cell]),
                                                                                     temperature2m: Double(temperature2m[cell]) - 273.15))
                }
                if let w, let terrain, geopotential != nil {
                    let ground = Double(terrain[cell])
                    results[.updraft]?[slot] = Float(updraft(verticalVelocity: (0..<staggered).map { Double(w.values[$0 * cells + cell]) },
                                                             heightsAboveGround: z.map { $0 - ground }))
                }
                if let pressure, let vapour, results[.kIndex] != nil {
                    // wrf-python's dew point (DCOMPUTETD) from QVAPOR and P + PB, as the 2 m dew point.
                    let td = (0..<levels).map { Double(dewPoint(mixingRatio: vapour[$0 * cells + cell], pressure: pressure[$0 * cells + cell])) }
                    results[.kIndex]?[slot] = Float(kIndex(pressure: p, temperature: t, dewPoint: td))
                }
                if parcel, pressure != nil, vapour != nil, let temperature2m, let mixingRatio2m, let surfacePressure {
                    // The 2 m point (PSFC, T2, the dew point of Q2) below the mass levels, dew points
                    // as MetPy's (`metpyDewPoint`), pressure in hPa.
                    let surface = Double(surfacePressure[cell])
                    let column = surfaceBasedConvection(
                        pressure: [surface / 100] + p.map { $0 / 100 }, temperature: [Double(temperature2m[cell])] + t,
                        dewPoint: [metpyDewPoint(pressure: surface, mixingRatio: Double(mixingRatio2m[cell]))]
                            + (0..<levels).map { metpyDewPoint(pressure: p[$0], mixingRatio: q[$0]) })
                    results[.cape]?[slot] = Float(column.cape)
                    results[.convectiveInhibition]?[slot] = Float(column.cin)
                    results[.liftedIndex]?[slot] = Float(column.liftedIndex)
                }
            }
            return results
        }
        var results: [ForecastVariable: [Float]] = [:]
        for variable in wanted { results[variable] = parts.flatMap { $0[variable] ?? [] } }
        // Only what could be made: a variable whose sources were absent stays out (the reader
        // then names it), never an all-missing field.
        let made: [ForecastVariable: Bool] = [
            .totalColumnIntegratedWaterVapour: pressure != nil && vapour != nil && geopotential != nil,
            .freezingLevelHeight: pressure != nil && geopotential != nil && terrain != nil && temperature2m != nil,
            .updraft: w != nil, .kIndex: pressure != nil && vapour != nil,
            .cape: parcel && pressure != nil && vapour != nil, .convectiveInhibition: parcel && pressure != nil && vapour != nil,
            .liftedIndex: parcel && pressure != nil && vapour != nil,
        ]
        for (variable, values) in results where made[variable] == true { out[variable] = values }
    }

    private static func shapeError(_ raw: RawFrame) -> IngestError {
        .missingMetadata(path: raw.file.path, what: "P, PB, T, QVAPOR on one set of mass levels with PH, PHB and W on the staggered levels around them")
    }
}
