// A WRF mass grid: a projection plus the grid's own south-west mass point. Anchoring at
// XLAT/XLONG[0,0] (as wrf-python's WrfProj and WRF's calc_ts_locations do, with knowni =
// knownj = 1 there) rather than at CEN_LAT/CEN_LON keeps cropped files and nests working.
// The sampler downstream only sees fractional positions; it knows nothing of projections.

import Foundation

/// A projected WRF mass grid: lat/lon <-> fractional grid position.
package struct ProjectedGrid: Sendable {
    package let parameters: ProjectionParameters
    /// Mass points along west_east (i).
    package let westEast: Int
    /// Mass points along south_north (j).
    package let southNorth: Int
    /// The anchor: the mass point at (i, j) = (0, 0).
    package let southWestCorner: GeoPoint

    private let projection: AnyMapProjection
    /// The anchor's plane position; positions are plane differences from it.
    private let origin: PlanePoint
    /// Cells per turn of longitude (cylindrical projections) or 0.
    private let period: Double
    /// Centre column: a cylindrical position is folded into the turn around it, so longitudes
    /// are continuous across the dateline (or any meridian) inside the grid.
    private let centreI: Double

    /// Anchored at the grid's own south-west mass point (XLAT/XLONG at [0,0]), as wrf-python does, so cropped files work.
    /// - Throws: `invalidParameters` naming the parameter at fault (DX, TRUELAT1, POLE_LAT, westEast,
    ///   southWestCorner, ...).
    package init(parameters: ProjectionParameters, westEast: Int, southNorth: Int, southWestCorner: GeoPoint) throws(GridGeometryError) {
        guard westEast >= 1 else {
            throw GridGeometryError.invalidParameters("westEast (west_east mass points) must be at least 1, got \(westEast)")
        }
        guard southNorth >= 1 else {
            throw GridGeometryError.invalidParameters("southNorth (south_north mass points) must be at least 1, got \(southNorth)")
        }
        try requireLatitude(southWestCorner.latitude, "southWestCorner.latitude (XLAT[0,0])")
        try requireFinite(southWestCorner.longitude, "southWestCorner.longitude (XLONG[0,0])")
        let projection = try AnyMapProjection(parameters)
        let origin = projection.project(southWestCorner)
        guard origin.x.isFinite, origin.y.isFinite else {
            throw GridGeometryError.invalidParameters(
                "southWestCorner (\(southWestCorner.latitude), \(southWestCorner.longitude)) cannot be placed "
                    + "on a MAP_PROJ \(parameters.kind.rawValue) grid with TRUELAT1 \(parameters.trueLatitude1)")
        }
        self.parameters = parameters
        self.westEast = westEast
        self.southNorth = southNorth
        self.southWestCorner = southWestCorner
        self.projection = projection
        self.origin = origin
        self.period = projection.periodInCells
        self.centreI = Double(westEast - 1) / 2
    }

    /// The fractional grid position of a point; it may lie outside the grid. A point that cannot
    /// be placed (non-finite, |latitude| > 90, a pole the projection cannot show) gives NaN.
    package func position(of point: GeoPoint) -> GridPosition {
        guard point.isValid else { return .invalid }
        let plane = projection.project(point)
        var i = plane.x - origin.x
        if period > 0 {
            i = centreI + (i - centreI).remainder(dividingBy: period)
        }
        let j = plane.y - origin.y
        guard i.isFinite, j.isFinite else { return .invalid }
        return GridPosition(i: i, j: j)
    }

    /// The fractional grid position of a user-supplied point.
    /// - Throws: `invalidParameters` naming `latitude` or `longitude` when it is not finite or
    ///   |latitude| > 90, or saying the projection cannot place the point.
    package func validatedPosition(of point: GeoPoint) throws(GridGeometryError) -> GridPosition {
        try requireLatitude(point.latitude, "latitude")
        try requireFinite(point.longitude, "longitude")
        let position = position(of: point)
        guard position.i.isFinite, position.j.isFinite else {
            throw GridGeometryError.invalidParameters(
                "latitude \(point.latitude), longitude \(point.longitude) cannot be placed on a "
                    + "MAP_PROJ \(parameters.kind.rawValue) grid")
        }
        return position
    }

    /// The point at a fractional grid position; longitude in -180...180. NaN for a non-finite position.
    package func point(at position: GridPosition) -> GeoPoint {
        guard position.i.isFinite, position.j.isFinite else { return GeoPoint(latitude: .nan, longitude: .nan) }
        return projection.unproject(PlanePoint(x: origin.x + position.i, y: origin.y + position.j))
    }

    /// WRF's COSALPHA/SINALPHA at a point (earth-relative u = u*cos - v*sin, v = v*cos + u*sin), computed from the projection (cone-factor method for Lambert/polar, 0 for Mercator, the rotated-pole formula for MAP_PROJ 6 with a rotated pole).
    /// NaN for a point that is not valid.
    package func windRotation(at point: GeoPoint) -> (cosAlpha: Double, sinAlpha: Double) {
        guard point.isValid else { return (.nan, .nan) }
        return projection.windRotation(at: point)
    }

    /// True when the position lies inside [margin, n-1-margin] in both axes (the last row/column are valid).
    @inlinable
    package func contains(_ position: GridPosition, margin: Double = 0) -> Bool {
        position.i >= margin && position.i <= Double(westEast - 1) - margin
            && position.j >= margin && position.j <= Double(southNorth - 1) - margin
    }

    /// The four corner mass points, south-west, south-east, north-east, north-west (for error
    /// messages that list a domain's extent).
    package var corners: [GeoPoint] {
        let east = Double(westEast - 1)
        let north = Double(southNorth - 1)
        return [GridPosition(i: 0, j: 0), GridPosition(i: east, j: 0),
                GridPosition(i: east, j: north), GridPosition(i: 0, j: north)].map { point(at: $0) }
    }
}
