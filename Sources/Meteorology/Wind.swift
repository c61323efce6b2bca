// 10 m wind: grid-relative to earth-relative rotation, speed and direction.
//
// Rotation follows the convention of WRF's COSALPHA/SINALPHA fields (local cosine and sine
// of the angle between grid north and true north):
//   u_earth = u*cos(alpha) - v*sin(alpha),  v_earth = v*cos(alpha) + u*sin(alpha).
// Speed and direction must be taken from (interpolated) earth-relative u and v, never by
// interpolating a direction, so they are separate functions here.
//
// Direction is where the wind blows FROM, clockwise from north, as in wrf-python's
// DCOMPUTEWDIR (`fortran/wrf_wind.f90`: 270 - atan2(v, u) in degrees). We differ in one
// place, on purpose: WMO reporting (FM 12 SYNOP code table 0877, METAR) writes a north
// wind as 360 and calm as 0, so a reader can tell them apart. Hence directions lie in
// (0, 360] and exactly calm air (u == 0 and v == 0) gives 0.

import Foundation

/// Grid-relative (u, v) -> earth-relative (u, v), WRF convention.
///
/// - Parameters:
///   - u: grid-relative x component (U10), m/s.
///   - v: grid-relative y component (V10), m/s.
///   - cosAlpha: COSALPHA at the point.
///   - sinAlpha: SINALPHA at the point.
@inlinable
package func earthRelativeWind(u: Float, v: Float, cosAlpha: Float, sinAlpha: Float) -> (u: Float, v: Float) {
    (u: u * cosAlpha - v * sinAlpha, v: v * cosAlpha + u * sinAlpha)
}

/// Wind speed, same unit as the components.
@inlinable
package func windSpeed(u: Float, v: Float) -> Float {
    (u * u + v * v).squareRoot()
}

/// Direction the wind blows from, degrees in (0, 360]; 0 means calm; NaN if u or v is NaN.
@inlinable
package func windDirection(u: Float, v: Float) -> Float {
    if u.isNaN || v.isNaN { return .nan }
    if u == 0 && v == 0 { return 0 }
    // atan2 lies in [-180, 180], so 270 - atan2 lies in [90, 450]; fold (360, 450] back.
    let direction = 270 - atan2(v, u) * (180 / Float.pi)
    return direction > 360 ? direction - 360 : direction
}

/// Rotates whole U10/V10 fields to earth-relative, in place.
package func rotateToEarthRelative(
    u: UnsafeMutableBufferPointer<Float>, v: UnsafeMutableBufferPointer<Float>,
    cosAlpha: UnsafeBufferPointer<Float>, sinAlpha: UnsafeBufferPointer<Float>
) throws(MeteorologyError) {
    try requireLength(u.count, ["v": v.count, "cosAlpha": cosAlpha.count, "sinAlpha": sinAlpha.count])
    for i in 0..<u.count {
        let rotated = earthRelativeWind(u: u[i], v: v[i], cosAlpha: cosAlpha[i], sinAlpha: sinAlpha[i])
        u[i] = rotated.u
        v[i] = rotated.v
    }
}

/// Rotates whole U10/V10 fields held in arrays to earth-relative, in place.
package func rotateToEarthRelative(
    u: inout [Float], v: inout [Float], cosAlpha: [Float], sinAlpha: [Float]
) throws(MeteorologyError) {
    try requireLength(u.count, ["v": v.count, "cosAlpha": cosAlpha.count, "sinAlpha": sinAlpha.count])
    for i in u.indices {
        let rotated = earthRelativeWind(u: u[i], v: v[i], cosAlpha: cosAlpha[i], sinAlpha: sinAlpha[i])
        u[i] = rotated.u
        v[i] = rotated.v
    }
}

/// Wind speed over whole fields; `output` may be the memory of `u` or `v`.
package func windSpeed(
    u: UnsafeBufferPointer<Float>, v: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>
) throws(MeteorologyError) {
    try requireLength(output.count, ["u": u.count, "v": v.count])
    mapFields(u, v, into: output) { windSpeed(u: $0, v: $1) }
}

/// Wind speed over whole fields held in arrays.
package func windSpeed(u: [Float], v: [Float]) throws(MeteorologyError) -> [Float] {
    try requireLength(u.count, ["v": v.count])
    return mapArrays(u, v) { windSpeed(u: $0, v: $1) }
}

/// Wind direction over whole fields; `output` may be the memory of `u` or `v`.
package func windDirection(
    u: UnsafeBufferPointer<Float>, v: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>
) throws(MeteorologyError) {
    try requireLength(output.count, ["u": u.count, "v": v.count])
    mapFields(u, v, into: output) { windDirection(u: $0, v: $1) }
}

/// Wind direction over whole fields held in arrays.
package func windDirection(u: [Float], v: [Float]) throws(MeteorologyError) -> [Float] {
    try requireLength(u.count, ["v": v.count])
    return mapArrays(u, v) { windDirection(u: $0, v: $1) }
}

/// 10 m wind gust from the mean 10 m wind and the friction velocity, m/s: ECMWF's IFS
/// surface-layer gust (`SPPGUST`, A. Beljaars; Beljaars 1987, J. Atmos. Oceanic Technol. 4,
/// 613-626, with the turbulence intensity of Panofsky et al. 1977), gust = |V10| + C u*
/// with C = 7.2 (IFS Cy48r1: a 3 s gust, median exceedance). This is the neutral and stable
/// form; the IFS raises C in unstable air by (1 + (0.5/12) z_i/|L|)^(1/3), which needs the
/// buoyancy flux and boundary-layer height, so convective gusts come out low.
///
/// - Parameters:
///   - u, v: 10 m wind components (any orientation), m/s.
///   - frictionVelocity: UST, m/s.
@inlinable
package func windGust(u: Float, v: Float, frictionVelocity: Float) -> Float {
    (u * u + v * v).squareRoot() + 7.2 * frictionVelocity
}
