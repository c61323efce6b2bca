// Mean sea-level pressure from surface fields only.
//
// Why not wrf-python's slp (DCOMPUTESEAPRS in `fortran/wrf_user.f90`): it needs 3-D P, PB,
// PH, PHB, T and QVAPOR to find the temperature 100 hPa above the ground, and the store
// deliberately never reads 3-D fields (speed and memory budget, SPEC section 7, B5).
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
public enum SeaLevelReduction {
    /// Standard gravity, m/s² (WMO).
    @inlinable public static var gravity: Float { 9.80665 }
    /// Gas constant of dry air, J/(kg K) (WMO).
    @inlinable public static var dryAirGasConstant: Float { 287.05 }
    /// Standard-atmosphere lapse rate assumed for the fictitious column, K/m.
    @inlinable public static var lapseRate: Float { 0.0065 }
    /// Humidity coefficient Ch of the WMO formula, K/hPa.
    @inlinable public static var humidityCoefficient: Float { 0.12 }
}

/// Sea-level pressure in Pa from surface pressure, terrain height and 2 m temperature.
///
/// - Parameters:
///   - surfacePressure: PSFC, Pa.
///   - elevation: HGT, m (negative below sea level works too).
///   - temperature2m: T2, K.
/// - Returns: Pa; equals `surfacePressure` at elevation 0; NaN if any input is NaN.
@inlinable
public func seaLevelPressure(surfacePressure: Float, elevation: Float, temperature2m: Float) -> Float {
    seaLevelPressure(surfacePressure: surfacePressure, elevation: elevation,
                     meanColumnTemperature: temperature2m + SeaLevelReduction.lapseRate * elevation / 2)
}

/// Sea-level pressure in Pa with the WMO humidity term, from Q2 as well.
///
/// - Parameter mixingRatio2m: Q2, kg/kg; negative values count as 0.
@inlinable
public func seaLevelPressure(
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
public func seaLevelPressure(
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
public func seaLevelPressure(
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
public func seaLevelPressure(
    surfacePressure: [Float], elevation: [Float], temperature2m: [Float]
) throws(MeteorologyError) -> [Float] {
    try requireLength(surfacePressure.count, ["elevation": elevation.count, "temperature2m": temperature2m.count])
    return mapArrays(surfacePressure, elevation, temperature2m) {
        seaLevelPressure(surfacePressure: $0, elevation: $1, temperature2m: $2)
    }
}
