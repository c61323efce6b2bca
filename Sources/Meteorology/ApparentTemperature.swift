// Apparent ("feels like") temperature, Steadman (1994) as the Australian Bureau of
// Meteorology publishes it (bom.gov.au/info/thermal_stress, "version including the effects
// of temperature, humidity, wind, and radiation"):
//     AT = Ta + 0.348*e - 0.70*ws + 0.70*Q/(ws + 10) - 4.25
//     e  = rh/100 * 6.105 * exp(17.27*Ta / (237.7 + Ta))      vapour pressure, hPa
// with Ta in °C, ws the wind speed in m/s at 10 m, and Q the net radiation absorbed per
// unit area of body surface, W/m². Steadman R.G. (1994), "Norms of apparent temperature in
// Australia", Aust. Met. Mag. 43, 1-16.
//
// Wind height: the regression is defined for the 10 m wind, which is what WRF's U10/V10
// give, so the wind goes in unchanged (no reduction to 2 m).
//
// Q from SWDOWN (our estimate; the ABoM gives no recipe): Q = a * f * SWDOWN with a = 0.7,
// the shortwave absorptivity of skin and clothing, and f = 0.25, the share of body surface
// a standing person presents to the sun (Fanger's projected-area factor, Fanger 1970,
// "Thermal Comfort", about 0.25 to 0.3 at mid-day solar elevations). WRF's SWDOWN does not
// split direct from diffuse light, so both are treated alike. Full sun of 900 W/m² with a
// 3 m/s wind adds about 8.5 K, the size of the sun-versus-shade difference usually quoted
// for thermal indices; at night (SWDOWN = 0) only the small constant offset between the
// two ABoM forms remains. (open-meteo uses Q = 0.1*(SW - 550) on a 2 m wind, which adds
// under 2 K in the same sun; we prefer a coefficient with a physical reading.)

import Foundation

/// Coefficients of the radiation estimate.
public enum ApparentTemperatureRadiation {
    /// Shortwave absorptivity of skin and clothing.
    @inlinable public static var absorptivity: Float { 0.7 }
    /// Share of the body surface facing the sun (projected-area factor).
    @inlinable public static var projectedAreaFactor: Float { 0.25 }
}

/// Apparent temperature in °C (Steadman 1994 / ABoM, with radiation).
///
/// - Parameters:
///   - temperature: 2 m air temperature, °C.
///   - relativeHumidity: 2 m relative humidity, %.
///   - windSpeed: 10 m wind speed, m/s.
///   - shortwaveRadiation: downward shortwave at the surface (SWDOWN), W/m²; negative
///     values count as 0.
/// - Returns: °C, or NaN when any input is NaN.
@inlinable
public func apparentTemperature(
    temperature: Float, relativeHumidity: Float, windSpeed: Float, shortwaveRadiation: Float
) -> Float {
    let vapourPressure = relativeHumidity / 100 * 6.105 * exp(17.27 * temperature / (237.7 + temperature))
    let r = ApparentTemperatureRadiation.self
    let absorbed = r.absorptivity * r.projectedAreaFactor * max(shortwaveRadiation, 0)
    return temperature + 0.348 * vapourPressure - 0.70 * windSpeed + 0.70 * absorbed / (windSpeed + 10) - 4.25
}

/// Apparent temperature (°C) over whole fields; `output` may be the memory of any input.
public func apparentTemperature(
    temperature: UnsafeBufferPointer<Float>, relativeHumidity: UnsafeBufferPointer<Float>,
    windSpeed: UnsafeBufferPointer<Float>, shortwaveRadiation: UnsafeBufferPointer<Float>,
    into output: UnsafeMutableBufferPointer<Float>
) throws(MeteorologyError) {
    try requireLength(output.count, [
        "temperature": temperature.count, "relativeHumidity": relativeHumidity.count,
        "windSpeed": windSpeed.count, "shortwaveRadiation": shortwaveRadiation.count,
    ])
    for i in 0..<output.count {
        output[i] = apparentTemperature(
            temperature: temperature[i], relativeHumidity: relativeHumidity[i],
            windSpeed: windSpeed[i], shortwaveRadiation: shortwaveRadiation[i])
    }
}
