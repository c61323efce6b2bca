import Foundation

/// Density of moist air (kg/m³) by the ideal gas law for its two parts, ρ = (p − e)/(Rd T) +
/// e/(Rv T), with Open-Meteo's constants (Rd = 287.058, Rv = 461.495 J kg⁻¹ K⁻¹;
/// `Meteorology.airDensity` in open-meteo/open-meteo).
///
/// The vapour pressure e is the one the served dew point was made from: the dew point is
/// wrf-python's from Q2 and PSFC, e = q p / (0.622 + q) hPa, Td = (243.5 ln e − 440.8) /
/// (19.48 − ln e) °C (`dewPoint`), so ln e = (440.8 + 19.48 Td) / (243.5 + Td) gives Q2's e back.
///
/// - Parameters:
///   - temperature: air temperature, °C.
///   - dewPoint: dew point, °C.
///   - pressure: air pressure, hPa.
package func moistAirDensity(temperature: Float, dewPoint: Float, pressure: Float) -> Float {
    let t = Double(temperature) + 273.15
    let td = Double(dewPoint)
    let e = 100 * exp((440.8 + 19.48 * td) / (243.5 + td))
    let p = 100 * Double(pressure)
    return Float((p - e) / (287.058 * t) + e / (461.495 * t))
}
