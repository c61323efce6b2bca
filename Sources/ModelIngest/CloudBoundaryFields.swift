import Catalog
import Meteorology

/// cloud_base and cloud_top from a WRF frame's CLDFRA, QCLOUD and QICE columns and the mass
/// levels' heights above the ground (rule: `cloudBaseAndTop` in Meteorology, docs/VARIABLES.md).
///
/// QSNOW is left out of the condensate: snow, like rain, is precipitation that falls below the
/// cloud's base, and counting it would put the base at the ground in every snowfall. ECMWF's
/// rule counts cloud liquid and cloud ice, which QCLOUD and QICE are.
enum CloudBoundaryFields {
    static let variables: Set<ForecastVariable> = [.cloudBase, .cloudTop]

    /// Derives the wanted boundaries into `out`; nothing when none is wanted or a source is
    /// absent (the derivation table decided availability; the frame reader then reports a listed
    /// variable that was not made).
    ///
    /// - Parameter terrain: the cells' terrain height (m), the frame's own for a moving nest.
    static func derive(_ raw: RawFrame, terrain: [Float]?, wants: Set<ForecastVariable>, into out: inout [ForecastVariable: [Float]]) throws(IngestError) {
        guard !variables.isDisjoint(with: wants), let terrain,
              let fraction = try raw.column(.cloudFraction), let water = try raw.column(.cloudWaterMixingRatio),
              let ice = try raw.column(.iceMixingRatio),
              let geopotential = try raw.geopotential(lowest: raw.levelCount(.geopotentialPerturbation) ?? 1) else { return }
        let cells = raw.cells, levels = fraction.levels
        guard water.levels == levels, ice.levels == levels, geopotential.count == (levels + 1) * cells, terrain.count == cells else {
            throw IngestError.missingMetadata(path: raw.file.path, what: "CLDFRA, QCLOUD and QICE on one set of mass levels with PH and PHB on the staggered levels around them")
        }
        let g = WRFColumnConstants.gravity
        var base = [Float](repeating: .nan, count: cells), top = base
        var f = [Double](repeating: 0, count: levels), q = f, heights = f
        for cell in 0..<cells {
            let ground = Double(terrain[cell])
            for k in 0..<levels {
                let index = k * cells + cell
                f[k] = Double(fraction.values[index])
                q[k] = Double(water.values[index]) + Double(ice.values[index])
                // The mass level's height: the mean of the staggered levels around it (wrf-python's z).
                heights[k] = (Double(geopotential[index]) + Double(geopotential[index + cells])) / 2 / g - ground
            }
            let boundaries = cloudBaseAndTop(fraction: f, condensate: q, heights: heights)
            base[cell] = Float(boundaries.base)
            top[cell] = Float(boundaries.top)
        }
        if wants.contains(.cloudBase) { out[.cloudBase] = base }
        if wants.contains(.cloudTop) { out[.cloudTop] = top }
    }
}
