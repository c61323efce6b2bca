// Value types shared by every projection and grid. No I/O anywhere in this target: readers
// hand in attribute values, the grid hands back positions.
//
// Rule for failures (nil vs throw vs NaN):
// - building a projection or grid from parameters throws `GridGeometryError` naming the
//   parameter at fault;
// - the per-point functions (`position(of:)`, `point(at:)`) never throw: they sit on the query
//   hot path, and a point that cannot be placed (non-finite, |latitude| > 90, a pole a conic
//   cannot show) yields NaN coordinates, which `contains` rejects. `validatedPosition(of:)`
//   is the throwing variant for input straight from a user.

import Foundation

/// WRF's MAP_PROJ codes that TileCast supports.
package enum ProjectionKind: Int, Sendable, Codable, CaseIterable {
    case lambertConformal = 1, polarStereographic = 2, mercator = 3, latLon = 6
}

/// A geographic position in degrees; longitudes may be given as -180..180 or 0..360.
package struct GeoPoint: Sendable, Equatable, Codable {
    package var latitude: Double
    package var longitude: Double

    /// A point from latitude and longitude in degrees.
    package init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// True when both values are finite and |latitude| <= 90.
    package var isValid: Bool {
        latitude.isFinite && longitude.isFinite && abs(latitude) <= 90
    }
}

/// A fractional position on the mass grid: i along west_east, j along south_north, 0-based,
/// (0, 0) the south-west mass point (XLAT/XLONG at [0, 0]).
package struct GridPosition: Sendable, Equatable, Codable {
    package var i: Double
    package var j: Double

    /// A position from fractional indices.
    package init(i: Double, j: Double) {
        self.i = i
        self.j = j
    }

    /// The position of a point that cannot be placed on the grid.
    package static let invalid = GridPosition(i: .nan, j: .nan)
}

/// Why a projection or grid could not be built, or a point could not be placed.
public enum GridGeometryError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A MAP_PROJ (or MM5 map_proj_code) that TileCast does not handle.
    case unsupportedProjection(Int)
    /// A parameter out of range; the message names it and says what was expected.
    case invalidParameters(String)

    public var description: String {
        switch self {
        case .unsupportedProjection(let code):
            return "unsupported map projection code \(code) (expected MAP_PROJ 1 Lambert conformal, "
                + "2 polar stereographic, 3 Mercator or 6 lat-lon)"
        case .invalidParameters(let message):
            return message
        }
    }
}

/// Projected coordinates in grid-cell units (metres / DX, or degrees / cell for lat-lon),
/// relative to the projection's own origin; only differences between them matter.
package struct PlanePoint: Sendable, Equatable {
    package var x: Double
    package var y: Double

    /// A point of the projection plane.
    package init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

let degreesToRadians = Double.pi / 180
let radiansToDegrees = 180 / Double.pi

/// A longitude difference folded into [-180, 180]; the cut sits opposite the reference.
func wrappedDegrees(_ degrees: Double) -> Double {
    degrees.remainder(dividingBy: 360)
}

/// A longitude in -180...180, WRF's output convention.
func normalizedLongitude(_ degrees: Double) -> Double {
    let wrapped = degrees.remainder(dividingBy: 360)
    return wrapped == -180 ? 180 : wrapped
}

/// Throws `invalidParameters` naming `name` unless `value` is finite.
func requireFinite(_ value: Double, _ name: String) throws(GridGeometryError) {
    guard value.isFinite else {
        throw GridGeometryError.invalidParameters("\(name) must be a finite number, got \(value)")
    }
}

/// Throws `invalidParameters` naming `name` unless `value` is a latitude in [-90, 90].
func requireLatitude(_ value: Double, _ name: String) throws(GridGeometryError) {
    try requireFinite(value, name)
    guard abs(value) <= 90 else {
        throw GridGeometryError.invalidParameters("\(name) must lie in -90...90 degrees, got \(value)")
    }
}

extension GeoPoint {
    /// Pinned: part of store format version 1.
    enum CodingKeys: String, CodingKey { case latitude, longitude }
}
