import Foundation

/// Wet-bulb temperature at 2 m, °C, from the air temperature (°C) and relative humidity (%),
/// by Stull (2011), "Wet-Bulb Temperature from Relative Humidity and Air Temperature", J. Appl.
/// Meteor. Climatol. 50, 2267-2269, eq. 1: the empirical fit at 101.325 kPa, within about 1 K
/// for relative humidities of 5-99 % and temperatures of -20-50 °C (worse where both are low).
/// It is the formula Open-Meteo applies to its models' 2 m temperature and humidity, so that a
/// client sees the same quantity. Capped at the air temperature (supersaturated input).
@inlinable
package func wetBulbTemperature(temperature t: Float, relativeHumidity rh: Float) -> Float {
    let wetBulb = t * atan(0.151977 * (rh + 8.313659).squareRoot()) + atan(t + rh) - atan(rh - 1.676331)
        + 0.00391838 * pow(rh, 1.5) * atan(0.023101 * rh) - 4.686035
    return min(wetBulb, t)
}
