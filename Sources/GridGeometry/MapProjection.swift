// The projection seam: each WRF MAP_PROJ maps lat/lon to a plane measured in grid cells. The
// grid only subtracts its anchor, so a projection's origin is arbitrary; formulas follow WPS
// geogrid/src/module_map_utils.F (the same module is WRF's share/module_llxy.F), evaluated in
// Double where WRF uses single precision.

import Foundation

/// A map projection measured in grid cells, following WRF's formulas.
package protocol MapProjection: Sendable {
    /// The plane position of a valid point (|latitude| <= 90, finite), in cells from the projection origin.
    func project(_ point: GeoPoint) -> PlanePoint
    /// The point at a plane position; longitude in -180...180.
    func unproject(_ plane: PlanePoint) -> GeoPoint
    /// WRF's COSALPHA/SINALPHA at a point: earth u = u cos - v sin, earth v = v cos + u sin.
    func windRotation(at point: GeoPoint) -> (cosAlpha: Double, sinAlpha: Double)
    /// Cells per full turn of longitude for cylindrical projections, 0 for conics and azimuthals.
    var periodInCells: Double { get }
}

/// Every supported projection behind one value, so the hot path switches instead of going
/// through an existential.
enum AnyMapProjection: Sendable {
    case lambert(LambertConformalProjection)
    case polar(PolarStereographicProjection)
    case mercator(MercatorProjection)
    case latLon(LatLonProjection)

    init(_ parameters: ProjectionParameters) throws(GridGeometryError) {
        switch parameters.kind {
        case .lambertConformal: self = .lambert(try LambertConformalProjection(parameters: parameters))
        case .polarStereographic: self = .polar(try PolarStereographicProjection(parameters: parameters))
        case .mercator: self = .mercator(try MercatorProjection(parameters: parameters))
        case .latLon: self = .latLon(try LatLonProjection(parameters: parameters))
        }
    }

    @inline(__always) func project(_ point: GeoPoint) -> PlanePoint {
        switch self {
        case .lambert(let p): return p.project(point)
        case .polar(let p): return p.project(point)
        case .mercator(let p): return p.project(point)
        case .latLon(let p): return p.project(point)
        }
    }

    @inline(__always) func unproject(_ plane: PlanePoint) -> GeoPoint {
        switch self {
        case .lambert(let p): return p.unproject(plane)
        case .polar(let p): return p.unproject(plane)
        case .mercator(let p): return p.unproject(plane)
        case .latLon(let p): return p.unproject(plane)
        }
    }

    func windRotation(at point: GeoPoint) -> (cosAlpha: Double, sinAlpha: Double) {
        switch self {
        case .lambert(let p): return p.windRotation(at: point)
        case .polar(let p): return p.windRotation(at: point)
        case .mercator(let p): return p.windRotation(at: point)
        case .latLon(let p): return p.windRotation(at: point)
        }
    }

    var periodInCells: Double {
        switch self {
        case .lambert(let p): return p.periodInCells
        case .polar(let p): return p.periodInCells
        case .mercator(let p): return p.periodInCells
        case .latLon(let p): return p.periodInCells
        }
    }
}

/// The cone-factor rotation WRF uses for Lambert (cone < 1) and polar stereographic (cone 1):
/// alpha = cone * (lon - STAND_LON), SINALPHA = -hemisphere * sin(alpha) (wrf-python's uvmet
/// computes earth u = v sin(alpha) + u cos(alpha), i.e. WRF's u cos - v sin with sin = -sin(alpha)).
@inline(__always)
func coneRotation(longitude: Double, standardLongitude: Double, cone: Double, hemisphere: Double)
    -> (cosAlpha: Double, sinAlpha: Double)
{
    let alpha = cone * wrappedDegrees(longitude - standardLongitude) * degreesToRadians
    return (cos(alpha), -hemisphere * sin(alpha))
}
