// 2 m relative humidity and dew point from WRF's Q2, T2 and PSFC.
//
// Both reproduce wrf-python so that our numbers match what WRF users already see:
//   rh2: NCAR/wrf-python `fortran/wrf_user.f90` DCOMPUTERH, called by `g_rh.py` get_rh_2m
//   td2: NCAR/wrf-python `fortran/wrf_user.f90` DCOMPUTETD, called by `g_dewpoint.py` get_dp_2m
// with the constants of `fortran/wrf_constants.f90` (EZERO, ESLCON1, ESLCON2, EPS).
//
// The two wrf-python formulas are not exact inverses of each other: DCOMPUTERH writes the
// saturation value as EPS*es/(p - (1-EPS)*es) (the specific-humidity form), while
// DCOMPUTETD inverts the mixing-ratio form e = q*p/(EPS + q). So RH reaches 100 % at a Q2
// smaller by the factor 1 - EPS*es/p than the Q2 at which Td equals T (1.4 % at 20 °C and
// 1000 hPa, about 0.2 K of dew point). We keep the quirk: parity with wrf-python matters
// more to users comparing plots than those 0.2 K.

import Foundation

/// Constants of wrf-python's `wrf_constants.f90` used by the humidity formulas.
@usableFromInline package enum HumidityConstants {
    /// Saturation vapour pressure at 0 °C, hPa (EZERO).
    @inlinable package static var saturationVapourPressureAtZero: Float { 6.112 }
    /// Bolton (1980) Magnus coefficient (ESLCON1).
    @inlinable package static var magnusA: Float { 17.67 }
    /// Kelvin offset of the Magnus denominator: T - 29.65 K == T_C + 243.5 (ESLCON2).
    @inlinable package static var magnusOffsetKelvin: Float { 29.65 }
    /// Rd / Rv (EPS).
    @inlinable package static var epsilon: Float { 0.622 }
    /// DCOMPUTETD's floor on vapour pressure, hPa: keeps the logarithm defined for Q2 <= 0.
    @inlinable package static var minimumVapourPressure: Float { 0.001 }
}

/// 2 m relative humidity in % (0...100), wrf-python's rh2.
///
/// - Parameters:
///   - mixingRatio: Q2, kg/kg. Negative values (WRF's advection undershoots) count as 0.
///   - temperature: T2, K.
///   - pressure: PSFC, Pa.
/// - Returns: %, or NaN when any input is NaN.
@inlinable
package func relativeHumidity(mixingRatio: Float, temperature: Float, pressure: Float) -> Float {
    let c = HumidityConstants.self
    let es = c.saturationVapourPressureAtZero
        * exp(c.magnusA * (temperature - 273.15) / (temperature - c.magnusOffsetKelvin))
    let qvs = c.epsilon * es / (0.01 * pressure - (1 - c.epsilon) * es)
    let ratio = max(mixingRatio, 0) / qvs
    // Written out rather than min/max so that NaN stays NaN whatever the argument order.
    if ratio.isNaN { return .nan }
    if ratio >= 1 { return 100 }
    if ratio <= 0 { return 0 }
    return 100 * ratio
}

/// 2 m dew point in kelvin, wrf-python's td2 (which returns °C; we add 273.15).
///
/// Kelvin keeps every thermodynamic function in this module in the units WRF writes.
/// - Parameters:
///   - mixingRatio: Q2, kg/kg. Negative values count as 0; the vapour pressure floor of
///     0.001 hPa then gives a finite dew point of about 192.7 K.
///   - pressure: PSFC, Pa.
/// - Returns: K, or NaN when any input is NaN.
@inlinable
package func dewPoint(mixingRatio: Float, pressure: Float) -> Float {
    let c = HumidityConstants.self
    if mixingRatio.isNaN || pressure.isNaN { return .nan }
    let q = max(mixingRatio, 0)
    let e = max(q * (0.01 * pressure) / (c.epsilon + q), c.minimumVapourPressure)
    let lnE = log(e)
    // DCOMPUTETD's constants: 440.8 = 243.5*ln(6.112), 19.48 = 17.67 + ln(6.112), rounded
    // as wrf-python rounds them.
    let celsius = (243.5 * lnE - 440.8) / (19.48 - lnE)
    return celsius + 273.15
}

/// Relative humidity over whole fields; `output` may be the memory of any input.
package func relativeHumidity(
    mixingRatio: UnsafeBufferPointer<Float>, temperature: UnsafeBufferPointer<Float>,
    pressure: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>
) throws(MeteorologyError) {
    try requireLength(output.count, [
        "mixingRatio": mixingRatio.count, "temperature": temperature.count, "pressure": pressure.count,
    ])
    mapFields(mixingRatio, temperature, pressure, into: output) {
        relativeHumidity(mixingRatio: $0, temperature: $1, pressure: $2)
    }
}

/// Relative humidity over whole fields held in arrays.
package func relativeHumidity(
    mixingRatio: [Float], temperature: [Float], pressure: [Float]
) throws(MeteorologyError) -> [Float] {
    try requireLength(mixingRatio.count, ["temperature": temperature.count, "pressure": pressure.count])
    return mapArrays(mixingRatio, temperature, pressure) {
        relativeHumidity(mixingRatio: $0, temperature: $1, pressure: $2)
    }
}

/// Dew point (K) over whole fields; `output` may be the memory of any input.
package func dewPoint(
    mixingRatio: UnsafeBufferPointer<Float>, pressure: UnsafeBufferPointer<Float>,
    into output: UnsafeMutableBufferPointer<Float>
) throws(MeteorologyError) {
    try requireLength(output.count, ["mixingRatio": mixingRatio.count, "pressure": pressure.count])
    mapFields(mixingRatio, pressure, into: output) { dewPoint(mixingRatio: $0, pressure: $1) }
}

/// Dew point (K) over whole fields held in arrays.
package func dewPoint(mixingRatio: [Float], pressure: [Float]) throws(MeteorologyError) -> [Float] {
    try requireLength(mixingRatio.count, ["pressure": pressure.count])
    return mapArrays(mixingRatio, pressure) { dewPoint(mixingRatio: $0, pressure: $1) }
}

/// Vapour pressure deficit in kPa: the saturation vapour pressure of FAO-56 (Allen et al.
/// 1998, eq. 11, e°(T) = 0.6108 exp(17.27 T / (T + 237.3)), T in °C) less the actual vapour
/// pressure e°(T) RH/100 (eq. 19's form with one humidity). This is the quantity Open-Meteo
/// serves as `vapour_pressure_deficit` (kPa, from temperature and relative humidity).
///
/// - Parameters:
///   - temperature: °C.
///   - relativeHumidity: %, 0...100.
/// - Returns: kPa (0 at saturation); NaN when an input is NaN.
@inlinable
package func vapourPressureDeficit(temperature: Float, relativeHumidity: Float) -> Float {
    let saturation = 0.6108 * exp(17.27 * temperature / (temperature + 237.3))
    return saturation * (1 - relativeHumidity / 100)
}
