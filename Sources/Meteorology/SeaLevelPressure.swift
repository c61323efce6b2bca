// Mean sea-level pressure: from surface fields (the fallback for files without 3-D fields),
// and at the end of this file from the lowest model levels as wrf-python does.
//
// Why a surface reduction at all: wrf-python's slp (DCOMPUTESEAPRS) needs 3-D P, PB, PH,
// PHB, T and QVAPOR to find the temperature 100 hPa above the ground, and many archived
// files (MM5 conversions, surface-only WRF output) do not carry them.
//
// Method: the international reduction of station pressure to sea level, WMO-No. 8 (CIMO
// Guide), Part I, Chapter 3, after WMO Technical Note No. 61 (1964):
//     p0 = ps * exp( (g / R) * h / Tmv ),   Tmv = Ts + a*h/2 + Ch*e
// where the fictitious column below the ground has the standard lapse rate a = 0.0065 K/m,
// so its mean temperature is the 2 m temperature plus half the lapse over the height, and
// Ch*e (Ch = 0.12 K/hPa, e the 2 m vapour pressure) stands in for the virtual-temperature
// excess. This is also the shape of wrf-python's final step, p*exp(2gz/(R(Tsl + Ts))) with
// Tsl = Ts + a*z, except that Ts is T2 here. We do not apply MM5's "traditional" hot-column
// correction that wrf-python keeps: its constants were tuned for the 100 hPa-above-ground
// temperature, and its else-branch also rewrites the sea-level temperature of cool
// columns. Known limitation, shared with every T2-based reduction: over high ground on hot
// afternoons T2 is warmer than a free-air column, so the reduced pressure runs low there.

import Foundation

/// Constants of the WMO reduction.
@usableFromInline package enum SeaLevelReduction {
    /// Standard gravity, m/s² (WMO).
    @inlinable package static var gravity: Float { 9.80665 }
    /// Gas constant of dry air, J/(kg K) (WMO).
    @inlinable package static var dryAirGasConstant: Float { 287.05 }
    /// Standard-atmosphere lapse rate assumed for the fictitious column, K/m.
    @inlinable package static var lapseRate: Float { 0.0065 }
    /// Humidity coefficient Ch of the WMO formula, K/hPa.
    @inlinable package static var humidityCoefficient: Float { 0.12 }
}

/// Sea-level pressure in Pa from surface pressure, terrain height and 2 m temperature.
///
/// - Parameters:
///   - surfacePressure: PSFC, Pa.
///   - elevation: HGT, m (negative below sea level works too).
///   - temperature2m: T2, K.
/// - Returns: Pa; equals `surfacePressure` at elevation 0; NaN if any input is NaN.
@inlinable
package func seaLevelPressure(surfacePressure: Float, elevation: Float, temperature2m: Float) -> Float {
    seaLevelPressure(surfacePressure: surfacePressure, elevation: elevation,
                     meanColumnTemperature: temperature2m + SeaLevelReduction.lapseRate * elevation / 2)
}

/// Sea-level pressure in Pa with the WMO humidity term, from Q2 as well.
///
/// - Parameter mixingRatio2m: Q2, kg/kg; negative values count as 0.
@inlinable
package func seaLevelPressure(
    surfacePressure: Float, elevation: Float, temperature2m: Float, mixingRatio2m: Float
) -> Float {
    let q = max(mixingRatio2m, 0)
    let vapourPressureHPa = q * (0.01 * surfacePressure) / (HumidityConstants.epsilon + q)
    let mean = temperature2m + SeaLevelReduction.lapseRate * elevation / 2
        + SeaLevelReduction.humidityCoefficient * vapourPressureHPa
    return seaLevelPressure(surfacePressure: surfacePressure, elevation: elevation, meanColumnTemperature: mean)
}

@inlinable
func seaLevelPressure(surfacePressure: Float, elevation: Float, meanColumnTemperature: Float) -> Float {
    let r = SeaLevelReduction.self
    return surfacePressure * exp(r.gravity * elevation / (r.dryAirGasConstant * meanColumnTemperature))
}

/// Sea-level pressure (Pa) over whole fields; `output` may be the memory of any input.
package func seaLevelPressure(
    surfacePressure: UnsafeBufferPointer<Float>, elevation: UnsafeBufferPointer<Float>,
    temperature2m: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>
) throws(MeteorologyError) {
    try requireLength(output.count, [
        "surfacePressure": surfacePressure.count, "elevation": elevation.count,
        "temperature2m": temperature2m.count,
    ])
    mapFields(surfacePressure, elevation, temperature2m, into: output) {
        seaLevelPressure(surfacePressure: $0, elevation: $1, temperature2m: $2)
    }
}

/// Sea-level pressure (Pa) with the humidity term over whole fields; `output` may be the
/// memory of any input.
package func seaLevelPressure(
    surfacePressure: UnsafeBufferPointer<Float>, elevation: UnsafeBufferPointer<Float>,
    temperature2m: UnsafeBufferPointer<Float>, mixingRatio2m: UnsafeBufferPointer<Float>,
    into output: UnsafeMutableBufferPointer<Float>
) throws(MeteorologyError) {
    try requireLength(output.count, [
        "surfacePressure": surfacePressure.count, "elevation": elevation.count,
        "temperature2m": temperature2m.count, "mixingRatio2m": mixingRatio2m.count,
    ])
    for i in 0..<output.count {
        output[i] = seaLevelPressure(surfacePressure: surfacePressure[i], elevation: elevation[i],
                                     temperature2m: temperature2m[i], mixingRatio2m: mixingRatio2m[i])
    }
}

/// Sea-level pressure (Pa) over whole fields held in arrays.
package func seaLevelPressure(
    surfacePressure: [Float], elevation: [Float], temperature2m: [Float]
) throws(MeteorologyError) -> [Float] {
    try requireLength(surfacePressure.count, ["elevation": elevation.count, "temperature2m": temperature2m.count])
    return mapArrays(surfacePressure, elevation, temperature2m) {
        seaLevelPressure(surfacePressure: $0, elevation: $1, temperature2m: $2)
    }
}

// MARK: - From the lowest model levels, as wrf-python's `slp`
//
// The T2 reduction above runs 2-6 hPa off at 1,500-2,000 m and tens of hPa on high
// plateaus, and swings with the afternoon T2. When a WRF file has the 3-D fields, pressure_msl
// is computed as wrf-python/NCL do: `get_slp` (src/wrf/g_slp.py: P + PB, T + 300, QVAPOR
// clipped at 0, (PH + PHB) / G destaggered to mass levels, TK from theta as DCOMPUTETK) and
// DCOMPUTESEAPRS (fortran/wrf_user.f90), with wrf-python's constants (wrf_constants.f90:
// RD = 287, CP = 1004.5, G = 9.81, USSALR = 0.0065):
//   1. the lowest level whose pressure is below p(surface level) - 100 hPa;
//   2. the virtual temperature and height at p1 - 100 hPa from the level below it and that
//      level, weighted by log(p_at/p_hi) * log(p_lo/p_hi) (a product where a quotient was
//      meant: kept, because it is what wrf-python computes and what users compare with);
//   3. T_surf = T_at * (p1 / p_at)^(USSALR * RD / G), T_sl = T_at + USSALR * z_at;
//   4. the "ridiculous MM5 test" (TC = 273.16 + 17.5): T_sl = TC when T_surf <= TC and
//      T_sl >= TC, else T_sl = TC - 0.005 * (T_surf - TC)^2;
//   5. slp = p1 * exp(2 G z1 / (RD (T_sl + T_surf))), with p1, z1 on the lowest mass level.
// Only the levels up to the one found in step 1 are needed; the caller reads those alone.

/// Constants of wrf-python's sea-level pressure (wrf_constants.f90, DCOMPUTESEAPRS).
package enum WRFSeaLevelConstants {
    package static let dryAirGasConstant = 287.0
    package static let specificHeat = 1004.5
    package static let gravity = 9.81
    package static let lapseRate = 0.0065
    /// Reference pressure of potential temperature, Pa.
    package static let referencePressure = 100_000.0
    /// Height above the surface, as a pressure difference, of the level used (Pa).
    package static let pressureAboveSurface = 10_000.0
    /// Temperature limit of the "ridiculous MM5 test", K.
    package static let hotColumnLimit = 273.16 + 17.5
}

/// Per cell, the index of the lowest level whose pressure is more than 100 hPa below the
/// lowest level's (step 1), or -1 when none of the `levels` given is.
///
/// - Parameter pressure: full pressure (P + PB), Pa, level-major: level k of cell c at
///   `k * cells + c`, lowest level first.
package func wrfSeaLevelSearchLevels(pressure: [Float], levels: Int, cells: Int) -> [Int] {
    (0..<cells).map { cell in
        let limit = Double(pressure[cell]) - WRFSeaLevelConstants.pressureAboveSurface
        for k in 0..<levels where Double(pressure[k * cells + cell]) < limit { return k }
        return -1
    }
}

/// The highest level index step 2 reads for a cell whose search level is `level`, in a
/// column of `totalLevels` mass levels: max(level - 1, 0) + 1, but at most totalLevels - 2.
package func wrfSeaLevelUpperLevel(searchLevel level: Int, totalLevels: Int) -> Int {
    min(max(level - 1, 0) + 1, totalLevels - 2)
}

/// Sea-level pressure in Pa, as wrf-python's `slp`, for every cell; NaN where `searchLevels`
/// has -1 or an input is NaN.
///
/// Fields are level-major (level k of cell c at `k * cells + c`), lowest level first:
/// - pressure: P + PB, Pa, at least up to every cell's upper level;
/// - potentialTemperature: T + 300, K, and mixingRatio: QVAPOR, kg/kg, `levels` levels;
/// - geopotential: PH + PHB, m²/s², on the staggered levels, `levels + 1` of them.
/// - totalLevels: the number of mass levels in the file (bottom_top).
package func wrfSeaLevelPressure(
    pressure: [Float], potentialTemperature: [Float], mixingRatio: [Float], geopotential: [Float],
    levels: Int, totalLevels: Int, cells: Int, searchLevels: [Int]
) -> [Float] {
    let c = WRFSeaLevelConstants.self
    func at(_ field: [Float], _ k: Int, _ cell: Int) -> Double { Double(field[k * cells + cell]) }
    func virtualTemperature(_ k: Int, _ cell: Int) -> Double {
        let p = at(pressure, k, cell)
        let t = at(potentialTemperature, k, cell) * pow(p / c.referencePressure, c.dryAirGasConstant / c.specificHeat)
        return t * (1 + 0.608 * max(at(mixingRatio, k, cell), 0))
    }
    func height(_ k: Int, _ cell: Int) -> Double {
        0.5 * (at(geopotential, k, cell) + at(geopotential, k + 1, cell)) / c.gravity
    }
    return (0..<cells).map { cell in
        let level = searchLevels[cell]
        guard level >= 0 else { return .nan }
        let lo = max(level - 1, 0)
        let hi = wrfSeaLevelUpperLevel(searchLevel: level, totalLevels: totalLevels)
        guard hi < levels, lo < hi else { return .nan }
        let p1 = at(pressure, 0, cell), pLo = at(pressure, lo, cell), pHi = at(pressure, hi, cell)
        let pAt = p1 - c.pressureAboveSurface
        let weight = log(pAt / pHi) * log(pLo / pHi)
        let tLo = virtualTemperature(lo, cell), tHi = virtualTemperature(hi, cell)
        let tAt = tHi - (tHi - tLo) * weight
        let zAt = height(hi, cell) - (height(hi, cell) - height(lo, cell)) * weight
        let tSurface = tAt * pow(p1 / pAt, c.lapseRate * c.dryAirGasConstant / c.gravity)
        var tSea = tAt + c.lapseRate * zAt
        let limit = c.hotColumnLimit
        tSea = tSurface <= limit && !(tSea < limit) ? limit : limit - 0.005 * (tSurface - limit) * (tSurface - limit)
        return Float(p1 * exp(2 * c.gravity * height(0, cell) / (c.dryAirGasConstant * (tSea + tSurface))))
    }
}
