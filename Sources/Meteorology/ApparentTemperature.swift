// Apparent ("feels like") temperature as Open-Meteo defines its `apparent_temperature`, the
// name TileCast serves it under, so a user comparing the two sees the same quantity.
//
// Open-Meteo (open-meteo/open-meteo, `Sources/App/Helper/Meteorology.swift`,
// `apparentTemperature`; their issue #13) uses Steadman's (1994) regression as the
// Australian Bureau of Meteorology publishes it (bom.gov.au/info/thermal_stress, "version
// including the effects of temperature, humidity, wind, and radiation"):
//     AT  = Ta + 0.348*e - 0.70*ws + 0.70*Q/(ws + 10) - 4.25
//     e   = rh/100 * 6.105 * exp(17.27*Ta / (237.7 + Ta))      vapour pressure, hPa
// with Open-Meteo's inputs:
//     ws  = 0.75 * wind speed at 10 m (m/s)        their reduction to about 2 m
//     Q   = max(0, 0.1 * (SW - 550))               SW the downward shortwave, W/m²
// Ta in °C, rh in %. Q is 0 below 550 W/m² and without a shortwave field, so the sun adds
// at most about 3 K (1000 W/m², calm). Steadman R.G. (1994), "Norms of apparent
// temperature in Australia", Aust. Met. Mag. 43, 1-16.
//
// One input differs in kind, not in formula: Open-Meteo's shortwave_radiation is the mean
// of the preceding hour, WRF's SWDOWN is the value at the output time; for hourly output
// the two agree within the hour's change of sun.
//
// (ABoM's formula with the 10 m wind unreduced and a radiation estimate Q = 0.7 * 0.25 * SW
// instead adds up to +11.6 K in full sun: a different quantity under Open-Meteo's name.)

import Foundation

/// Open-Meteo's inputs to the ABoM formula.
@usableFromInline package enum ApparentTemperatureInputs {
    /// Factor from the 10 m wind to the wind the formula uses (about 2 m).
    @inlinable package static var windReduction: Float { 0.75 }
    /// Shortwave (W/m²) below which the sun adds nothing.
    @inlinable package static var radiationThreshold: Float { 550 }
    /// Absorbed radiation per W/m² of shortwave above the threshold.
    @inlinable package static var radiationFactor: Float { 0.1 }
}

/// Apparent temperature in °C, as Open-Meteo's `apparent_temperature` (see the top).
///
/// - Parameters:
///   - temperature: 2 m air temperature, °C.
///   - relativeHumidity: 2 m relative humidity, %.
///   - windSpeed: 10 m wind speed, m/s (reduced to 0.75 of it inside).
///   - shortwaveRadiation: downward shortwave at the surface (SWDOWN), W/m²; 0 when the
///     model has none.
/// - Returns: °C, or NaN when any input is NaN.
@inlinable
package func apparentTemperature(
    temperature: Float, relativeHumidity: Float, windSpeed: Float, shortwaveRadiation: Float
) -> Float {
    let inputs = ApparentTemperatureInputs.self
    if shortwaveRadiation.isNaN { return .nan }
    let wind = inputs.windReduction * windSpeed
    let vapourPressure = relativeHumidity / 100 * 6.105 * exp(17.27 * temperature / (237.7 + temperature))
    let absorbed = max(0, inputs.radiationFactor * (shortwaveRadiation - inputs.radiationThreshold))
    return temperature + 0.348 * vapourPressure - 0.70 * wind + 0.70 * absorbed / (wind + 10) - 4.25
}

/// Apparent temperature (°C) over whole fields; `output` may be the memory of any input.
package func apparentTemperature(
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
