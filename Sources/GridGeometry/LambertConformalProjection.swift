// Lambert conformal conic on a sphere, MAP_PROJ 1.
// Source: WPS geogrid/src/module_map_utils.F (set_lc, lc_cone, llij_lc, ijll_lc); wrf-python's
// equivalent is `+proj=lcc +lat_1=TRUELAT1 +lat_2=TRUELAT2 +lon_0=STAND_LON +a=R +b=R`.
// WPS flips i and j for the southern hemisphere so (1,1) stays south-west; here that is the
// `hemisphere` factor on y, giving the same north-up plane without the flip.

import Foundation

/// Lambert conformal conic (MAP_PROJ 1), tangent or secant, either hemisphere.
package struct LambertConformalProjection: MapProjection {
    /// +1 north, -1 south: the sign of TRUELAT1, as WPS map_set sets `hemi`.
    package let hemisphere: Double
    /// The cone factor n, computed as WPS lc_cone does.
    package let cone: Double
    package let standardLongitude: Double
    /// rho = scale * t^n in metres, t = tan((90 - hemisphere * lat) / 2).
    private let scale: Double
    private let dx: Double
    private let dy: Double

    /// A Lambert projection from validated WRF parameters.
    /// - Throws: `invalidParameters` for a bad TRUELAT1/TRUELAT2/STAND_LON/DX/DY.
    package init(parameters: ProjectionParameters) throws(GridGeometryError) {
        try parameters.validate()
        let truelat1 = parameters.trueLatitude1
        let truelat2 = parameters.effectiveTrueLatitude2
        hemisphere = truelat1 < 0 ? -1 : 1
        cone = Self.coneFactor(truelat1, truelat2)
        guard cone.isFinite, cone > 0, cone <= 1 else {
            throw GridGeometryError.invalidParameters(
                "TRUELAT1 \(truelat1) and TRUELAT2 \(truelat2) give no usable Lambert cone (factor \(cone))")
        }
        standardLongitude = parameters.standardLongitude
        let t1 = tan((90 - hemisphere * truelat1) * 0.5 * degreesToRadians)
        scale = parameters.earthRadius * cos(truelat1 * degreesToRadians) / (cone * pow(t1, cone))
        dx = parameters.dx
        dy = parameters.dy
    }

    /// WPS lc_cone: secant formula when the true latitudes differ by more than 0.1 degree,
    /// otherwise the tangent cone sin(|TRUELAT1|).
    static func coneFactor(_ truelat1: Double, _ truelat2: Double) -> Double {
        guard abs(truelat1 - truelat2) > 0.1 else { return sin(abs(truelat1) * degreesToRadians) }
        let numerator = log10(cos(truelat1 * degreesToRadians)) - log10(cos(truelat2 * degreesToRadians))
        let denominator = log10(tan((45 - abs(truelat1) / 2) * degreesToRadians))
            - log10(tan((45 - abs(truelat2) / 2) * degreesToRadians))
        return numerator / denominator
    }

    package var periodInCells: Double { 0 }

    @inline(__always)
    package func project(_ point: GeoPoint) -> PlanePoint {
        // The cut (WPS "forbidden cut zone") sits opposite STAND_LON, so a domain across the
        // dateline stays continuous whatever convention its longitudes use.
        let theta = cone * wrappedDegrees(point.longitude - standardLongitude) * degreesToRadians
        // The opposite pole is the cone's open end: no finite position.
        let colatitude = 90 - hemisphere * point.latitude
        let rho = colatitude >= 180 ? .infinity : scale * pow(tan(colatitude * 0.5 * degreesToRadians), cone)
        return PlanePoint(x: rho * sin(theta) / dx, y: -hemisphere * rho * cos(theta) / dy)
    }

    package func unproject(_ plane: PlanePoint) -> GeoPoint {
        let x = plane.x * dx
        let y = plane.y * dy
        let rho = (x * x + y * y).squareRoot()
        guard rho > 0 else { return GeoPoint(latitude: hemisphere * 90, longitude: normalizedLongitude(standardLongitude)) }
        let theta = atan2(x, -hemisphere * y)
        let t = pow(rho / scale, 1 / cone)
        let latitude = hemisphere * (90 - 2 * atan(t) * radiansToDegrees)
        let longitude = standardLongitude + theta / cone * radiansToDegrees
        return GeoPoint(latitude: latitude, longitude: normalizedLongitude(longitude))
    }

    package func windRotation(at point: GeoPoint) -> (cosAlpha: Double, sinAlpha: Double) {
        coneRotation(longitude: point.longitude, standardLongitude: standardLongitude, cone: cone,
                     hemisphere: hemisphere)
    }
}
