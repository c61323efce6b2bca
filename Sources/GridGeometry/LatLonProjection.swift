// Cylindrical equidistant lat-lon, MAP_PROJ 6, regular or with a rotated pole.
// Sources: WPS geogrid/src/module_map_utils.F (set_cassini, llij_cassini, ijll_cassini,
// rotate_coords; WRF's share/module_llxy.F is the same code) and WRF share/wrf_timeseries.F
// (calc_ts_locations), which shows how WRF itself sets the projection up from a wrfout: the
// increments in degrees are DX * 360 / (2 pi R) and DY * 360 / (2 pi R) with DX, DY in metres,
// and the anchor is XLAT/XLONG(1,1).
//
// Rotated pole conventions, checked against PROJ by Scripts/make_projection_fixtures.py:
// - WRF rotates only when |POLE_LAT| != 90; POLE_LAT is the true North Pole's latitude in the
//   computational grid, whose own pole lies at geographic (POLE_LAT, 180 - STAND_LON).
// - rotate_coords equals `+proj=ob_tran +o_proj=latlon +o_lat_p=POLE_LAT +lon_0=-STAND_LON`
//   up to a constant computational-longitude offset; POLE_LON only adds to that offset.
// - wrf-python's RotatedLatLon proj4 string gives that frame for POLE_LON = 180 (the WPS
//   northern-hemisphere recipe) but the frame turned by 180 degrees for POLE_LON = 0 (southern
//   recipe); WRF's grid is north-up in both, so this code follows rotate_coords.

import Foundation

/// Lat-lon (MAP_PROJ 6): regular when |POLE_LAT| == 90, otherwise WRF's rotated pole.
package struct LatLonProjection: MapProjection {
    /// True when WRF would rotate (|POLE_LAT| != 90).
    package let isRotated: Bool
    private let sinPoleLatitude: Double
    private let cosPoleLatitude: Double
    private let poleLongitude: Double
    private let standardLongitude: Double
    /// Geographic longitude of the computational North Pole, 180 - STAND_LON.
    private let computationalPoleLongitude: Double
    private let cellsPerDegreeX: Double
    private let cellsPerDegreeY: Double

    /// A lat-lon projection from validated WRF parameters (DX, DY in metres).
    /// - Throws: `invalidParameters` for a bad POLE_LAT/POLE_LON/STAND_LON/DX/DY.
    package init(parameters: ProjectionParameters) throws(GridGeometryError) {
        try parameters.validate()
        isRotated = parameters.isRotatedPole
        let poleLatitude = parameters.poleLatitude * degreesToRadians
        sinPoleLatitude = sin(poleLatitude)
        cosPoleLatitude = cos(poleLatitude)
        poleLongitude = parameters.poleLongitude * degreesToRadians
        standardLongitude = parameters.standardLongitude * degreesToRadians
        computationalPoleLongitude = Double.pi - standardLongitude
        cellsPerDegreeX = 1 / parameters.longitudeIncrement
        cellsPerDegreeY = 1 / parameters.latitudeIncrement
    }

    /// One turn of computational longitude in cells.
    package var periodInCells: Double { 360 * cellsPerDegreeX }

    @inline(__always)
    package func project(_ point: GeoPoint) -> PlanePoint {
        guard isRotated else {
            return PlanePoint(x: wrappedDegrees(point.longitude) * cellsPerDegreeX, y: point.latitude * cellsPerDegreeY)
        }
        let c = computational(point)
        return PlanePoint(x: c.longitude * cellsPerDegreeX, y: c.latitude * cellsPerDegreeY)
    }

    package func unproject(_ plane: PlanePoint) -> GeoPoint {
        let latitude = plane.y / cellsPerDegreeY
        let longitude = plane.x / cellsPerDegreeX
        guard isRotated else { return GeoPoint(latitude: latitude, longitude: normalizedLongitude(longitude)) }
        return geographic(GeoPoint(latitude: latitude, longitude: longitude))
    }

    /// Geographic to computational lat/lon in degrees: rotate_coords(direction = -1), then + STAND_LON
    /// as llij_cassini adds it. The computational longitude is not folded; the grid folds it.
    /// Without a rotated pole the computational grid is the geographic one.
    package func computational(_ point: GeoPoint) -> GeoPoint {
        guard isRotated else { return point }
        // dlam = pi - lam_0; olon = atan2(...) - dlam - lam_0 + lam_np; llij_cassini adds lam_0 back.
        let shift = Double.pi - standardLongitude
        let r = rotate(latitude: point.latitude * degreesToRadians, longitude: point.longitude * degreesToRadians - shift)
        let longitude = r.longitude - shift + poleLongitude
        return GeoPoint(latitude: r.latitude * radiansToDegrees, longitude: longitude * radiansToDegrees)
    }

    /// Computational to geographic lat/lon in degrees: - STAND_LON as ijll_cassini subtracts it,
    /// then rotate_coords(direction = +1).
    package func geographic(_ point: GeoPoint) -> GeoPoint {
        guard isRotated else { return GeoPoint(latitude: point.latitude, longitude: normalizedLongitude(point.longitude)) }
        // dlam = lam_np; olon = atan2(...) - dlam - lam_0 + lam_np = atan2(...) - lam_0.
        let input = point.longitude * degreesToRadians - standardLongitude
        let r = rotate(latitude: point.latitude * degreesToRadians, longitude: input - poleLongitude)
        let longitude = r.longitude - standardLongitude
        return GeoPoint(latitude: r.latitude * radiansToDegrees, longitude: normalizedLongitude(longitude * radiansToDegrees))
    }

    /// The common body of rotate_coords on an already shifted longitude (radians in, radians out).
    /// WPS takes asin of the new sine of latitude; atan2 keeps precision near the poles.
    @inline(__always)
    private func rotate(latitude: Double, longitude: Double) -> (latitude: Double, longitude: Double) {
        let cosLatitude = cos(latitude)
        let sinLatitude = sin(latitude)
        let cosLongitude = cos(longitude)
        let sinPhi = cosPoleLatitude * cosLatitude * cosLongitude + sinPoleLatitude * sinLatitude
        let cosLambda = sinPoleLatitude * cosLatitude * cosLongitude - cosPoleLatitude * sinLatitude
        let sinLambda = cosLatitude * sin(longitude)
        let horizontal = (cosLambda * cosLambda + sinLambda * sinLambda).squareRoot()
        return (atan2(sinPhi, horizontal), atan2(sinLambda, cosLambda))
    }

    /// Rotation between computational and geographic north: the angle at the point between the
    /// directions to the computational pole and to the true pole, with WRF's sign (SINALPHA > 0
    /// where the grid's +j axis points west of true north).
    package func windRotation(at point: GeoPoint) -> (cosAlpha: Double, sinAlpha: Double) {
        guard isRotated else { return (1, 0) }
        let phi = point.latitude * degreesToRadians
        let deltaLambda = point.longitude * degreesToRadians - computationalPoleLongitude
        let sinAlpha = cosPoleLatitude * sin(deltaLambda)
        let cosAlpha = sinPoleLatitude * cos(phi) - cosPoleLatitude * sin(phi) * cos(deltaLambda)
        let norm = (sinAlpha * sinAlpha + cosAlpha * cosAlpha).squareRoot()
        guard norm > 0 else { return (1, 0) }
        return (cosAlpha / norm, sinAlpha / norm)
    }
}
