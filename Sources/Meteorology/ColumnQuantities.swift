import Foundation

// Quantities of a whole model column (issue 28): precipitable water, the freezing level, the
// strongest updraft and the K index. Each takes one cell's column, lowest level first, in
// Double (a column sum of 50 terms in Float loses the stored precision's last digit).
// docs/VARIABLES.md gives each formula and its reference.

/// wrf-python's constants (fortran/wrf_constants.f90): RD, CP = 7/2 RD, G, EPS.
package enum WRFColumnConstants {
    package static let dryAirGasConstant = 287.0
    package static let kappa = 2.0 / 7.0
    package static let gravity = 9.81
    package static let epsilon = 0.622
    package static let referencePressure = 100_000.0
}

/// Temperature (K) from WRF's perturbation potential temperature (T, theta - 300 K) and full
/// pressure (P + PB, Pa): wrf-python's DCOMPUTETK, theta (p / 1000 hPa)^(RD/CP).

package func wrfTemperature(potentialTemperaturePerturbation theta: Double, pressure: Double) -> Double {
    (theta + 300) * pow(pressure / WRFColumnConstants.referencePressure, WRFColumnConstants.kappa)
}

/// Precipitable water (kg/m²) of one column, as wrf-python's `pw` (DCOMPUTEPW): the sum over
/// the mass levels of p / (RD Tv) x QVAPOR x dz, with Tv = T (EPS + q) / (EPS (1 + q))
/// (DCOMPUTETV) and dz the thickness between the staggered levels around the mass level,
/// heights (PH + PHB) / G.
///
/// - Parameters:
///   - pressure: P + PB on the mass levels, Pa.
///   - temperature: K on the mass levels.
///   - mixingRatio: QVAPOR on the mass levels, kg/kg.
///   - interfaceHeights: heights of the staggered levels, m (one more than the mass levels).
/// - Returns: kg/m², NaN when any input is NaN or the counts do not fit.
package func precipitableWater(pressure: [Double], temperature: [Double], mixingRatio: [Double], interfaceHeights: [Double]) -> Double {
    let levels = pressure.count
    guard temperature.count == levels, mixingRatio.count == levels, interfaceHeights.count == levels + 1 else { return .nan }
    let c = WRFColumnConstants.self
    var sum = 0.0
    for k in 0..<levels {
        let q = mixingRatio[k]
        let virtual = temperature[k] * (c.epsilon + q) / (c.epsilon * (1 + q))
        sum += pressure[k] / (c.dryAirGasConstant * virtual) * q * (interfaceHeights[k + 1] - interfaceHeights[k])
    }
    return sum
}

/// The height of the 0 °C level above sea level (m), as Open-Meteo defines freezing_level_height
/// (ICON's HZEROCL, GFS's "HGT:0C isotherm"): the uppermost crossing when there are several,
/// linear in height between the two points around it. The profile is the 2 m temperature at
/// the terrain plus 2 m, then the mass levels.
///
/// When no point of the column is at or above 0 °C (the freezing level is below the ground),
/// Open-Meteo's estimate for models that give none there (open-meteo issue 518, "consistent with
/// GFS"; VariablePerMemberStorage.correctIconSnowfallHeight): max(0, terrain) - 70 m per K of
/// |T2|, never above the terrain. NaN when the top of the column is not below 0 °C (no model
/// top is that warm) or any value is NaN.
///
/// - Parameters:
///   - heights: heights above sea level of the mass levels, m, lowest first.
///   - temperatures: °C on the mass levels.
///   - terrain: m above sea level; `temperature2m`: °C.
package func freezingLevelHeight(heights: [Double], temperatures: [Double], terrain: Double, temperature2m: Double) -> Double {
    guard heights.count == temperatures.count, !heights.isEmpty, !terrain.isNaN, !temperature2m.isNaN,
          !heights.contains(where: \.isNaN), !temperatures.contains(where: \.isNaN) else { return .nan }
    let z = [terrain + 2] + heights, t = [temperature2m] + temperatures
    let top = t.count - 1
    guard t[top] < 0 else { return .nan }
    // From the top down, the first point at or above 0 °C: the one above it is below 0 °C.
    for k in stride(from: top - 1, through: 0, by: -1) where t[k] >= 0 {
        return z[k] + (0 - t[k]) * (z[k + 1] - z[k]) / (t[k + 1] - t[k])
    }
    let estimate = max(0, terrain) - 70 * abs(temperature2m)
    return min(estimate, terrain)
}

/// The strongest upward vertical velocity of one column (m/s): the maximum of W on its own
/// (staggered, w) levels from the ground up to `ceiling` metres above it, as Open-Meteo's
/// `updraft` (ICON's W_CTMAX, "maximum updraft within 10 km"), at the output time. W at the
/// ground (level 0, zero over flat terrain) is one of the levels. NaN when any used value is NaN.
///
/// - Parameters:
///   - verticalVelocity: W on the staggered levels, m/s, lowest first.
///   - heightsAboveGround: those levels' heights above the terrain, m.
package func updraft(verticalVelocity: [Double], heightsAboveGround: [Double], ceiling: Double = 10_000) -> Double {
    guard verticalVelocity.count == heightsAboveGround.count, !verticalVelocity.isEmpty else { return .nan }
    var strongest = -Double.infinity
    for (w, height) in zip(verticalVelocity, heightsAboveGround) where height <= ceiling {
        if w.isNaN || height.isNaN { return .nan }
        strongest = max(strongest, w)
    }
    return strongest.isFinite ? strongest : .nan
}

/// The K index (°C): (T850 - T500) + Td850 - (T700 - Td700) (George 1960), Td850 in °C, each value
/// interpolated linearly in pressure between the mass levels around it, as MetPy's `k_index`
/// (its `interpolate_1d`). NaN when 850 hPa lies below the lowest mass level (high ground: no
/// extrapolation, as MetPy gives none) or 500 hPa above the highest, or a value is NaN.
///
/// - Parameters:
///   - pressure: Pa on the mass levels, lowest (highest pressure) first.
///   - temperature, dewPoint: K on the mass levels.
package func kIndex(pressure: [Double], temperature: [Double], dewPoint: [Double]) -> Double {
    guard pressure.count == temperature.count, pressure.count == dewPoint.count, pressure.count >= 2 else { return .nan }
    /// Linear in p between the two levels around `target` (levels decrease in pressure upward).
    func at(_ target: Double, _ values: [Double]) -> Double {
        for k in 0..<(pressure.count - 1) where pressure[k] >= target && pressure[k + 1] <= target {
            let weight = (target - pressure[k]) / (pressure[k + 1] - pressure[k])
            return values[k] + weight * (values[k + 1] - values[k])
        }
        return .nan
    }
    let t850 = at(85_000, temperature), t700 = at(70_000, temperature), t500 = at(50_000, temperature)
    let td850 = at(85_000, dewPoint), td700 = at(70_000, dewPoint)
    // Td850 enters as a temperature in °C (MetPy's `.to(degC)` of the sum).
    return (t850 - t500) + (td850 - 273.15) - (t700 - td700)
}
