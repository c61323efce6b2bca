import Foundation

// Horizontal visibility at the ground from the lowest model level, after NCEP's Unified Post
// Processor: routine CALVIS_GSD (NOAA-EMC/UPP, sorc/ncep_post.fd/CALVIS_GSD.f, commit
// 54123f9, Oct 2024), the RUC/RAP/HRRR ("GSD") visibility of Benjamin, Brown and Smirnova:
// the Stoelinga-Warner hydrometeor extinction, with graupel, plus a relative-humidity
// (haze) term for clear air. Facts read from the Fortran; the arithmetic is our own.
//
//   T      = (T' + 300) (p / 10^5)^0.28589641          UPP INITPOST (CAPA), p = P + PB
//   q      = w / (1 + w)                                specific humidity from QVAPOR (INITPOST)
//   rho    = p / (287.04 T (1 + 0.608 q))               kg/m3 (UPP's RD, D608)
//   V/m    = (1 + q)/rho + (qc + qr)/1000 + (qi + qs + qg)/917     m3 per kg of dry air
//   C_x    = 1000 q_x / (V/m)                           g/m3, each species x
//   f      = clamp(T - 271.15, 0, 1);  c_snow = 10 (1 - f) + 6 f    dry / wet snow
//   beta   = 144.7 C_c^0.88 + 2.24 C_r^0.75 + 327.8 C_i + c_snow C_s + 4.0 C_g^0.75 + 1e-10   /km
//   vis_h  = min(90, 3.0 / beta)                        km (CALVIS_GSD's CONST1 = 3.0)
//   es     = 6.1078 / pol(T - 273.15)^8                 hPa, UPP's 9th-degree polynomial
//   e      = (p / 100) q / (0.62197 + 0.37803 q)        hPa
//   RH     = min(1, e / es)
//   vis_rh = 90 exp(-2.5 clamp(RH - 0.15, 0, 0.8))      km
//   vis    = min(vis_h, vis_rh, 24.135) km, in metres
//
// Where we part from CALVIS_GSD (each also in docs/VARIABLES.md):
// * The lowest model level only: CALVIS_GSD takes the largest mixing ratio of each species
//   over the lowest 3 levels and the larger RH of the lowest 2. One level is one hyperslab
//   per field; the lowest level is where the air meets the observer.
// * Pressure is P + PB, not P_HYD (UPP's choice since 2013): P_HYD is not in every wrfout,
//   and near the ground the two differ by the non-hydrostatic part, a few Pa.
// * No low-level wind-shear raise of vis_rh (needs U, V four levels up on staggered grids),
//   no day/night factor (Rasmussen's 1.69 (vis/1.609)^0.86 1.609 at low sun), no aerosol or
//   blowing-snow extinction (AEXTC55 and UPP's BLSN method have no wrfout counterpart).
// * Capped at 24.135 km, UPP's CALVIS cap ("consistent with visibility ceiling in obs"),
//   not CALVIS_GSD's 90 km: observations (and the GFS field Open-Meteo serves) stop there.
// * Negative mixing ratios (advection round-off in WRF) count as zero, as CALVIS_GSD's
//   running maximum from 0 does for the hydrometeors.

/// The constants of UPP's CALVIS_GSD (and CALVIS's cap), named.
package enum VisibilityConstants {
    /// Extinction coefficients (/km per (g/m3)^exponent): cloud water (Kunkel 1984), rain
    /// (Marshall-Palmer), cloud ice (Rutledge-Hobbs plates), graupel (Rasmussen et al. 2003).
    package static let cloudWater = (coefficient: 144.7, exponent: 0.88)
    package static let rain = (coefficient: 2.24, exponent: 0.75)
    package static let cloudIce = (coefficient: 327.8, exponent: 1.0)
    package static let graupel = (coefficient: 4.0, exponent: 0.75)
    /// Snow (exponent 1): dry below 271.15 K, wet above 272.15 K, linear between.
    package static let drySnow = 10.0, wetSnow = 6.0, snowExponent = 1.0
    /// CALVIS_GSD's -ln(contrast threshold) (3.0, not Koschmieder's 3.912).
    package static let contrast = 3.0
    /// The largest visibility either term gives (km).
    package static let hydrometeorCeiling = 90.0
    /// The served ceiling (m): UPP CALVIS's 24.135 km.
    package static let ceilingMetres = 24_135.0
}

/// Visibility (m) at the ground from the lowest model level's state, by the table at the top
/// of this file; NaN when any input is NaN.
///
/// - Parameters:
///   - pressure: P + PB, Pa.
///   - potentialTemperature: T + 300, K.
///   - vapour, cloudWater, rain, cloudIce, snow, graupel: mixing ratios, kg/kg
///     (QVAPOR, QCLOUD, QRAIN, QICE, QSNOW, QGRAUP; 0 for a species the scheme lacks).
package func visibility(pressure: Float, potentialTemperature: Float, vapour: Float, cloudWater: Float,
                       rain: Float, cloudIce: Float, snow: Float, graupel: Float) -> Float {
    if pressure.isNaN || potentialTemperature.isNaN || vapour.isNaN || cloudWater.isNaN || rain.isNaN
        || cloudIce.isNaN || snow.isNaN || graupel.isNaN { return .nan }
    let c = VisibilityConstants.self
    let p = Double(pressure)
    let temperature = Double(potentialTemperature) * pow(p * 1e-5, 0.28589641)
    let w = max(Double(vapour), 0)
    let q = w / (1 + w)
    let density = p / (287.04 * temperature * (1 + 0.608 * q))
    let qc = max(Double(cloudWater), 0), qr = max(Double(rain), 0), qi = max(Double(cloudIce), 0)
    let qs = max(Double(snow), 0), qg = max(Double(graupel), 0)
    let volumePerMass = (1 + q) / density + (qc + qr) / 1000 + (qi + qs + qg) / 917
    func concentration(_ mixing: Double) -> Double { 1000 * mixing / volumePerMass }
    let wet = min(1, max(temperature - 271.15, 0))
    let snowCoefficient = c.drySnow * (1 - wet) + c.wetSnow * wet
    let extinction = c.cloudWater.coefficient * pow(concentration(qc), c.cloudWater.exponent)
        + c.rain.coefficient * pow(concentration(qr), c.rain.exponent)
        + c.cloudIce.coefficient * pow(concentration(qi), c.cloudIce.exponent)
        + snowCoefficient * pow(concentration(qs), c.snowExponent)
        + c.graupel.coefficient * pow(concentration(qg), c.graupel.exponent)
        + 1e-10
    let hydrometeors = min(c.hydrometeorCeiling, c.contrast / extinction)
    let humidity = uppRelativeHumidity(pressure: p, temperature: temperature, specificHumidity: q)
    let haze = c.hydrometeorCeiling * exp(-2.5 * min(0.8, max(0, humidity - 0.15)))
    return Float(min(min(hydrometeors, haze) * 1000, c.ceilingMetres))
}

/// UPP's saturation polynomial in °C (CALVIS_GSD), highest degree first.
private let saturationPolynomial: [Double] = [
    -0.30994571e-19, 0.11112018e-16, -0.17892321e-14, 0.21874425e-12, -0.29883885e-10,
    0.43884187e-08, -0.61117958e-06, 0.78736169e-04, -0.90826951e-02, 0.99999683,
]

/// Relative humidity (0...1) as CALVIS_GSD computes it: saturation vapour pressure over
/// water from UPP's polynomial in °C, es = 6.1078 / pol^8 hPa (Lowe 1977 form).
func uppRelativeHumidity(pressure: Double, temperature: Double, specificHumidity q: Double) -> Double {
    let t = temperature - 273.15
    // Horner's rule, highest degree first.
    var pol = 0.0
    for coefficient in saturationPolynomial { pol = pol * t + coefficient }
    guard abs(pol) > 0 else { return 0 }
    let saturation = 6.1078 / pow(pol, 8)
    let vapourPressure = pressure / 100 * q / (0.62197 + 0.37803 * q)
    return min(1, vapourPressure / saturation)
}
