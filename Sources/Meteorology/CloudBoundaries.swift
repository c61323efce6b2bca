// Cloud base and cloud top of one model column (issue 28), by ECMWF's rule for its cloud base
// height (IFS parameter cbh): a level is cloudy where its cloud fraction exceeds 1 % and its
// cloud condensate (liquid + ice) exceeds 1e-6 kg/kg. docs/VARIABLES.md gives the reasons for
// each choice (heights above ground, mass levels, QSNOW left out).

/// ECMWF's thresholds for a cloudy level: cloud fraction above 0.01, condensate above 1e-6 kg/kg.
package enum CloudLevelThreshold {
    package static let fraction = 0.01
    package static let condensate = 1e-6
}

/// The heights (m above ground) of the lowest and the highest cloudy mass level of one column.
/// NaN (served as null) when no level is cloudy: clear sky has no cloud base, and a height of 0
/// would say fog at the ground. The levels are the model's own, not interpolated between: the
/// thresholds mark a whole level as cloudy, not a point inside it.
///
/// - Parameters:
///   - fraction: CLDFRA on the mass levels (0-1), lowest first.
///   - condensate: QCLOUD + QICE on the mass levels, kg/kg.
///   - heights: the mass levels' heights above the terrain, m.
/// - Returns: (base, top); both NaN for a clear column, or when a value met is NaN or the counts differ.
package func cloudBaseAndTop(fraction: [Double], condensate: [Double], heights: [Double]) -> (base: Double, top: Double) {
    guard fraction.count == condensate.count, fraction.count == heights.count else { return (.nan, .nan) }
    var base = Double.nan, top = Double.nan
    for k in fraction.indices {
        let f = fraction[k], q = condensate[k]
        // A NaN level makes the answer unknown rather than clear.
        if f.isNaN || q.isNaN || heights[k].isNaN { return (.nan, .nan) }
        if f > CloudLevelThreshold.fraction && q > CloudLevelThreshold.condensate {
            if base.isNaN { base = heights[k] }
            top = heights[k]
        }
    }
    return (base, top)
}
