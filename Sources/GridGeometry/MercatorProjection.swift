// Mercator on a sphere, MAP_PROJ 3.
// Source: WPS geogrid/src/module_map_utils.F (set_merc, llij_merc, ijll_merc): true at TRUELAT1,
// dlon = DX / (R cos TRUELAT1) radians per cell, y = ln tan(pi/4 + lat/2) / dlon. WRF ignores
// STAND_LON for Mercator. wrf-python's equivalent is `+proj=merc +lat_ts=TRUELAT1 +lon_0=STAND_LON`.

import Foundation

/// Mercator (MAP_PROJ 3); grid axes point east and north everywhere.
package struct MercatorProjection: MapProjection {
    /// R cos(TRUELAT1) / DX: cells per radian of longitude.
    private let cellsPerRadianX: Double
    /// R cos(TRUELAT1) / DY.
    private let cellsPerRadianY: Double

    /// A Mercator projection from validated WRF parameters.
    /// - Throws: `invalidParameters` for a bad TRUELAT1/DX/DY.
    package init(parameters: ProjectionParameters) throws(GridGeometryError) {
        try parameters.validate()
        let metresPerRadian = parameters.earthRadius * cos(parameters.trueLatitude1 * degreesToRadians)
        cellsPerRadianX = metresPerRadian / parameters.dx
        cellsPerRadianY = metresPerRadian / parameters.dy
    }

    /// One turn of longitude in cells; the grid folds positions into the turn around its centre.
    package var periodInCells: Double { 2 * Double.pi * cellsPerRadianX }

    @inline(__always)
    package func project(_ point: GeoPoint) -> PlanePoint {
        // asinh(tan(lat)) == ln tan(pi/4 + lat/2), accurate near the equator; the poles lie at infinity.
        let phi = point.latitude * degreesToRadians
        let y = abs(point.latitude) < 90
            ? asinh(tan(phi)) * cellsPerRadianY
            : Double(signOf: point.latitude, magnitudeOf: .infinity)
        return PlanePoint(x: wrappedDegrees(point.longitude) * degreesToRadians * cellsPerRadianX, y: y)
    }

    package func unproject(_ plane: PlanePoint) -> GeoPoint {
        let latitude = atan(sinh(plane.y / cellsPerRadianY)) * radiansToDegrees
        let longitude = plane.x / cellsPerRadianX * radiansToDegrees
        return GeoPoint(latitude: latitude, longitude: normalizedLongitude(longitude))
    }

    package func windRotation(at point: GeoPoint) -> (cosAlpha: Double, sinAlpha: Double) {
        (1, 0)
    }
}
