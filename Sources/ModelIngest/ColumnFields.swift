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
                       wants: Set<ForecastVariable>, into out: inout [ForecastVariable: [Float]]) throws {
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
        let g = WRFColumnConstants.gravity
        func at(_ field: [Float], _ k: Int, _ cell: Int) -> Double { Double(field[k * cells + cell]) }
        func temperatures(_ cell: Int) -> [Double] {
            guard let pressure, let theta else { return [] }
            return (0..<levels).map { wrfTemperature(potentialTemperaturePerturbation: at(theta, $0, cell), pressure: at(pressure, $0, cell)) }
        }

        if wanted.contains(.totalColumnIntegratedWaterVapour), let pressure, let vapour, let geopotential {
            out[.totalColumnIntegratedWaterVapour] = (0..<cells).map { cell in
                Float(precipitableWater(pressure: (0..<levels).map { at(pressure, $0, cell) }, temperature: temperatures(cell),
                                        mixingRatio: (0..<levels).map { at(vapour, $0, cell) },
                                        interfaceHeights: (0...levels).map { at(geopotential, $0, cell) / g }))
            }
        }
        if wanted.contains(.freezingLevelHeight), pressure != nil, let geopotential, let terrain, let temperature2m {
            out[.freezingLevelHeight] = (0..<cells).map { cell in
                // Mass-level heights: the mean of the staggered levels around them (wrf-python's z).
                let heights = (0..<levels).map { (at(geopotential, $0, cell) + at(geopotential, $0 + 1, cell)) / 2 / g }
                return Float(freezingLevelHeight(heights: heights, temperatures: temperatures(cell).map { $0 - 273.15 },
                                                 terrain: Double(terrain[cell]), temperature2m: Double(temperature2m[cell]) - 273.15))
            }
        }
        if wanted.contains(.updraft), let geopotential, let terrain, let w = try raw.column(.windW) {
            guard w.levels == staggered else { throw shapeError(raw) }
            out[.updraft] = (0..<cells).map { cell in
                Float(updraft(verticalVelocity: (0..<staggered).map { at(w.values, $0, cell) },
                              heightsAboveGround: (0..<staggered).map { at(geopotential, $0, cell) / g - Double(terrain[cell]) }))
            }
        }
        if !wanted.isDisjoint(with: parcelVariables), let pressure, let vapour, let temperature2m, let mixingRatio2m, let surfacePressure {
            let result = parcels(cells: cells, levels: levels, pressure: pressure, temperature: temperatures, vapour: vapour,
                                 t2: temperature2m, q2: mixingRatio2m, psfc: surfacePressure)
            if wanted.contains(.cape) { out[.cape] = result.cape }
            if wanted.contains(.convectiveInhibition) { out[.convectiveInhibition] = result.cin }
            if wanted.contains(.liftedIndex) { out[.liftedIndex] = result.lifted }
        }
        if wanted.contains(.kIndex), let pressure, let vapour {
            out[.kIndex] = (0..<cells).map { cell in
                let p = (0..<levels).map { at(pressure, $0, cell) }
                // wrf-python's dew point (DCOMPUTETD) from QVAPOR and P + PB, as the 2 m dew point.
                let td = (0..<levels).map { Double(dewPoint(mixingRatio: vapour[$0 * cells + cell], pressure: pressure[$0 * cells + cell])) }
                return Float(kIndex(pressure: p, temperature: temperatures(cell), dewPoint: td))
            }
        }
    }

    /// CAPE, CIN and the lifted index of each cell's surface-based parcel: the 2 m point (PSFC,
    /// T2, the dew point of Q2) below the mass levels, dew points as MetPy's (`metpyDewPoint`).
    private static func parcels(cells: Int, levels: Int, pressure: [Float], temperature: (Int) -> [Double], vapour: [Float],
                                t2: [Float], q2: [Float], psfc: [Float]) -> (cape: [Float], cin: [Float], lifted: [Float]) {
        var cape = [Float](repeating: .nan, count: cells), cin = cape, lifted = cape
        for cell in 0..<cells {
            let surface = Double(psfc[cell])
            var p = [surface / 100], t = [Double(t2[cell])], td = [metpyDewPoint(pressure: surface, mixingRatio: Double(q2[cell]))]
            let column = temperature(cell)
            for k in 0..<levels {
                let level = Double(pressure[k * cells + cell])
                p.append(level / 100)
                t.append(column[k])
                td.append(metpyDewPoint(pressure: level, mixingRatio: Double(vapour[k * cells + cell])))
            }
            let result = surfaceBasedConvection(pressure: p, temperature: t, dewPoint: td)
            (cape[cell], cin[cell], lifted[cell]) = (Float(result.cape), Float(result.cin), Float(result.liftedIndex))
        }
        return (cape, cin, lifted)
    }

    private static func shapeError(_ raw: RawFrame) -> IngestError {
        .missingMetadata(path: raw.file.path, what: "P, PB, T, QVAPOR on one set of mass levels with PH, PHB and W on the staggered levels around them")
    }
}
