import Foundation

/// FAO-56 hourly reference evapotranspiration (Allen, Pereira, Raes, Smith 1998, *Crop
/// evapotranspiration*, FAO Irrigation and Drainage Paper 56), eq. 53, for the short grass
/// reference (Cn = 37, Cd = 0.34):
///
///     ET0 = [0.408 Δ (Rn − G) + γ 37/(T + 273) u2 (e°(T) − ea)] / [Δ + γ (1 + 0.34 u2)]   mm/h
///
/// with e°(T) eq. 11, Δ eq. 13, γ = 0.000665 P eq. 8 (P the model's surface pressure in kPa,
/// not eq. 7's estimate from elevation), ea = e°(Td) eq. 14 from the dew point, u2 from the
/// 10 m wind by eq. 47 (u2 = u10 · 4.87 / ln(67.8 · 10 − 5.42)).
///
/// Net radiation is **FAO-56's estimate from the global radiation** (not WRF's longwave, GLW,
/// which the store does not keep): Rns = (1 − 0.23) Rs (eq. 38) with Rs = SWDOWN · 0.0036
/// MJ m⁻² h⁻¹ (the instantaneous flux held for the hour); Rnl = σ T⁴ (0.34 − 0.14 √ea)
/// (1.35 Rs/Rso − 0.35) (eq. 39, σ = 2.043e-10 MJ m⁻² h⁻¹ K⁻⁴), Rs/Rso capped at 1, Rso =
/// (0.75 + 2e-5 z) Ra (eq. 37) and Ra = 12 · 60/π · Gsc dr cos θz · π/12 = 60 Gsc dr cos θz (eq. 28
/// in the limit of a short period: the instantaneous extraterrestrial flux for an hour, Gsc =
/// 0.0820 MJ m⁻² min⁻¹, dr = 1 + 0.033 cos(2π J/365) eq. 23). When the sun is below 17.2°
/// (β < 0.3 rad, where Rs/Rso is unreliable; ASCE-EWRI 2005 standardized equation, appendix D)
/// the ratio of the last earlier hour with the sun higher is used, as FAO-56 says for night
/// ("the Rs/Rso ratio of 2-3 hours before sunset"); 0.7 before any such hour. G = 0.1 Rn in
/// daytime (Rs > 0) and 0.5 Rn at night (eqs. 45, 46). Negative results are 0.
package enum Evapotranspiration {
    /// One hour's ET0 in mm, or NaN when an input is missing.
    ///
    /// - Parameters: temperature and dew point in °C, wind at 10 m in m/s, shortwave in W/m²,
    ///   pressure in hPa, elevation in m; `cosZenith` of the sun at the time; `dayOfYear` 1...366;
    ///   `ratio`: Rs/Rso to use when the sun is low (updated when it is high enough).
    package static func hourly(temperature: Double, dewPoint: Double, wind10m: Double, shortwave: Double, pressure: Double,
                              elevation: Double, cosZenith: Double, dayOfYear: Int, ratio: inout Double) -> Double {
        guard [temperature, dewPoint, wind10m, shortwave, pressure, elevation, cosZenith].allSatisfy(\.isFinite) else { return .nan }
        func saturation(_ t: Double) -> Double { 0.6108 * exp(17.27 * t / (t + 237.3)) }
        let es = saturation(temperature), ea = saturation(min(dewPoint, temperature))
        let delta = 4098 * es / pow(temperature + 237.3, 2)
        let gamma = 0.000665 * pressure / 10
        let u2 = max(wind10m, 0) * 4.87 / log(67.8 * 10 - 5.42)
        let rs = max(shortwave, 0) * 0.0036
        let dr = 1 + 0.033 * cos(2 * Double.pi * Double(dayOfYear) / 365)
        let ra = 60 * 0.0820 * dr * max(cosZenith, 0)
        let rso = (0.75 + 2e-5 * elevation) * ra
        if cosZenith > sin(0.3), rso > 0 { ratio = min(max(rs / rso, 0.25), 1) }
        let rns = (1 - 0.23) * rs
        let rnl = 2.043e-10 * pow(temperature + 273.16, 4) * (0.34 - 0.14 * sqrt(ea)) * (1.35 * ratio - 0.35)
        let rn = rns - rnl
        let g = rs > 0 ? 0.1 * rn : 0.5 * rn
        let et0 = (0.408 * delta * (rn - g) + gamma * 37 / (temperature + 273) * u2 * (es - ea)) / (delta + gamma * (1 + 0.34 * u2))
        return max(et0, 0)
    }
}
