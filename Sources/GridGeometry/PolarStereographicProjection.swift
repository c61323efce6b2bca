// Polar stereographic on a sphere, MAP_PROJ 2.
// Source: WPS geogrid/src/module_map_utils.F (set_ps, llij_ps, ijll_ps): the hemisphere is the
// sign of TRUELAT1 (map_set: hemi = -1 when truelat1 < 0), the scale is true at TRUELAT1, and
// STAND_LON is the meridian parallel to the grid's y axis. wrf-python's equivalent is
// `+proj=stere +lat_0=+-90 +lat_ts=TRUELAT1 +lon_0=STAND_LON +a=R +b=R`.

import Foundation

/// Polar stereographic (MAP_PROJ 2), north or south by the sign of TRUELAT1.
package struct PolarStereographicProjection: MapProjection {
    /// +1 north, -1 south.
    package let hemisphere: Double
    package let standardLongitude: Double
    /// R (1 + hemisphere sin TRUELAT1): WPS's rebydx * scale_top, in metres.
    private let scale: Double
    private let dx: Double
    private let dy: Double

    /// A polar stereographic projection from validated WRF parameters.
    /// - Throws: `invalidParameters` for a bad TRUELAT1/STAND_LON/DX/DY.
    package init(parameters: ProjectionParameters) throws(GridGeometryError) {
        try parameters.validate()
        hemisphere = parameters.trueLatitude1 < 0 ? -1 : 1
        standardLongitude = parameters.standardLongitude
        scale = parameters.earthRadius * (1 + hemisphere * sin(parameters.trueLatitude1 * degreesToRadians))
        dx = parameters.dx
        dy = parameters.dy
    }

    package var periodInCells: Double { 0 }

    @inline(__always)
    package func project(_ point: GeoPoint) -> PlanePoint {
        // WPS writes rho = R cos(lat) scale_top / (1 + hemi sin(lat)); tan((90 - hemi lat) / 2) is
        // the same value without the cancellation near the opposite pole, which itself maps to infinity.
        let colatitude = 90 - hemisphere * point.latitude
        let rho = colatitude >= 180 ? .infinity : scale * tan(colatitude * 0.5 * degreesToRadians)
        let lambda = wrappedDegrees(point.longitude - standardLongitude) * degreesToRadians
        return PlanePoint(x: rho * sin(lambda) / dx, y: -hemisphere * rho * cos(lambda) / dy)
    }

    package func unproject(_ plane: PlanePoint) -> GeoPoint {
        let x = plane.x * dx
        let y = plane.y * dy
        let rho = (x * x + y * y).squareRoot()
        guard rho > 0 else { return GeoPoint(latitude: hemisphere * 90, longitude: normalizedLongitude(standardLongitude)) }
        // WPS takes asin((gi2 - r2) / (gi2 + r2)); the atan form keeps full precision near the pole.
        let latitude = hemisphere * (90 - 2 * atan(rho / scale) * radiansToDegrees)
        let longitude = standardLongitude + atan2(x, -hemisphere * y) * radiansToDegrees
        return GeoPoint(latitude: latitude, longitude: normalizedLongitude(longitude))
    }

    package func windRotation(at point: GeoPoint) -> (cosAlpha: Double, sinAlpha: Double) {
        coneRotation(longitude: point.longitude, standardLongitude: standardLongitude, cone: 1,
                     hemisphere: hemisphere)
    }
}
