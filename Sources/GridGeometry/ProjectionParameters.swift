// The projection as WRF describes it in its global attributes (MAP_PROJ, TRUELAT1, TRUELAT2,
// STAND_LON, POLE_LAT, POLE_LON, DX, DY), plus a constructor for MM5's archiver scalars.

import Foundation

/// A WRF map projection, in WRF's own terms; validated when a grid or projection is built.
package struct ProjectionParameters: Sendable, Equatable, Codable {
    package var kind: ProjectionKind
    /// TRUELAT1 in degrees; its sign picks the hemisphere for Lambert and polar stereographic.
    package var trueLatitude1: Double
    /// TRUELAT2 in degrees (Lambert only); outside -90...90 it means "same as TRUELAT1", as WPS reads it.
    package var trueLatitude2: Double
    /// STAND_LON in degrees: the meridian parallel to the grid's y axis (rotation longitude for MAP_PROJ 6).
    package var standardLongitude: Double
    /// POLE_LAT in degrees (MAP_PROJ 6): the true North Pole's latitude in the computational grid.
    package var poleLatitude: Double
    /// POLE_LON in degrees (MAP_PROJ 6); it only relabels computational longitudes.
    package var poleLongitude: Double
    /// DX in metres, also for MAP_PROJ 6 (WRF stores metres there and converts to degrees itself).
    package var dx: Double
    /// DY in metres.
    package var dy: Double
    /// Sphere radius in metres; WRF and MM5 use 6,370,000.
    package var earthRadius: Double

    /// WRF's sphere radius (module_model_constants EARTH_RADIUS_M).
    package static let wrfEarthRadius = 6_370_000.0

    /// Parameters from WRF-style values; `trueLatitude2` defaults to TRUELAT1 and `dy` to `dx`.
    package init(
        kind: ProjectionKind,
        trueLatitude1: Double = 0,
        trueLatitude2: Double? = nil,
        standardLongitude: Double = 0,
        poleLatitude: Double = 90,
        poleLongitude: Double = 0,
        dx: Double,
        dy: Double? = nil,
        earthRadius: Double = ProjectionParameters.wrfEarthRadius
    ) {
        self.kind = kind
        self.trueLatitude1 = trueLatitude1
        self.trueLatitude2 = trueLatitude2 ?? trueLatitude1
        self.standardLongitude = standardLongitude
        self.poleLatitude = poleLatitude
        self.poleLongitude = poleLongitude
        self.dx = dx
        self.dy = dy ?? dx
        self.earthRadius = earthRadius
    }

    /// Parameters from a WRF file's MAP_PROJ code and attributes.
    /// - Throws: `unsupportedProjection` for MAP_PROJ other than 1, 2, 3, 6 (0 idealised, 203 NMM, ...).
    package init(
        wrfMapProjection code: Int,
        trueLatitude1: Double,
        trueLatitude2: Double,
        standardLongitude: Double,
        poleLatitude: Double = 90,
        poleLongitude: Double = 0,
        dx: Double,
        dy: Double
    ) throws(GridGeometryError) {
        guard let kind = ProjectionKind(rawValue: code) else {
            throw GridGeometryError.unsupportedProjection(code)
        }
        self.init(kind: kind, trueLatitude1: trueLatitude1, trueLatitude2: trueLatitude2,
                  standardLongitude: standardLongitude, poleLatitude: poleLatitude,
                  poleLongitude: poleLongitude, dx: dx, dy: dy)
    }

    /// Parameters from MM5 archiver scalars: `map_proj_code` (1 Lambert, 2 polar stereographic,
    /// 3 Mercator), `stdlat_1`, `stdlat_2`, `stdlon` in degrees and `grid_ds` in kilometres.
    /// MM5 uses the same 6370 km sphere and the same hemisphere rule (the sign of stdlat_1).
    /// - Throws: `unsupportedProjection` for other codes; `invalidParameters` for a bad `grid_ds`.
    package static func mm5(
        mapProjCode: Int,
        standardLatitude1: Double,
        standardLatitude2: Double,
        standardLongitude: Double,
        gridSpacingKilometres: Double
    ) throws(GridGeometryError) -> ProjectionParameters {
        let kind: ProjectionKind
        switch mapProjCode {
        case 1: kind = .lambertConformal
        case 2: kind = .polarStereographic
        case 3: kind = .mercator
        default: throw GridGeometryError.unsupportedProjection(mapProjCode)
        }
        guard gridSpacingKilometres.isFinite, gridSpacingKilometres > 0 else {
            throw GridGeometryError.invalidParameters(
                "grid_ds must be a positive grid spacing in kilometres, got \(gridSpacingKilometres)")
        }
        let metres = gridSpacingKilometres * 1000
        return ProjectionParameters(kind: kind, trueLatitude1: standardLatitude1,
                                    trueLatitude2: standardLatitude2, standardLongitude: standardLongitude,
                                    dx: metres, dy: metres)
    }

    /// True for MAP_PROJ 6 with a rotated pole; WRF rotates only when |POLE_LAT| != 90 (set_cassini).
    package var isRotatedPole: Bool {
        kind == .latLon && abs(poleLatitude) != 90
    }

    /// Degrees of computational longitude per cell for MAP_PROJ 6: DX * 360 / (2 pi R), as WRF
    /// converts it (share/wrf_timeseries.F, calc_ts_locations, PROJ_CASSINI branch).
    package var longitudeIncrement: Double { dx * 360 / (2 * Double.pi * earthRadius) }

    /// Degrees of computational latitude per cell for MAP_PROJ 6: DY * 360 / (2 pi R).
    package var latitudeIncrement: Double { dy * 360 / (2 * Double.pi * earthRadius) }

    /// TRUELAT2 as WPS map_set uses it for Lambert: beyond +-90 it stands for TRUELAT1 (tangent cone).
    var effectiveTrueLatitude2: Double {
        abs(trueLatitude2) > 90 ? trueLatitude1 : trueLatitude2
    }

    /// Checks every value this kind of projection reads.
    /// - Throws: `invalidParameters` naming the first WRF attribute at fault.
    package func validate() throws(GridGeometryError) {
        try requireFinite(dx, "DX")
        try requireFinite(dy, "DY")
        guard dx > 0 else { throw GridGeometryError.invalidParameters("DX must be positive metres, got \(dx)") }
        guard dy > 0 else { throw GridGeometryError.invalidParameters("DY must be positive metres, got \(dy)") }
        try requireFinite(earthRadius, "earthRadius")
        guard earthRadius > 0 else {
            throw GridGeometryError.invalidParameters("earthRadius must be positive metres, got \(earthRadius)")
        }
        switch kind {
        case .lambertConformal:
            try requireLatitude(trueLatitude1, "TRUELAT1")
            guard trueLatitude1 != 0, abs(trueLatitude1) < 90 else {
                throw GridGeometryError.invalidParameters(
                    "TRUELAT1 must be non-zero and strictly between -90 and 90 for Lambert conformal "
                        + "(MAP_PROJ 1), got \(trueLatitude1)")
            }
            try requireFinite(trueLatitude2, "TRUELAT2")
            let second = effectiveTrueLatitude2
            guard abs(second) < 90, second != 0, (second > 0) == (trueLatitude1 > 0) else {
                throw GridGeometryError.invalidParameters(
                    "TRUELAT2 must be non-zero, strictly between -90 and 90 and in the same hemisphere as "
                        + "TRUELAT1 (\(trueLatitude1)) for Lambert conformal (MAP_PROJ 1), got \(trueLatitude2)")
            }
            try requireFinite(standardLongitude, "STAND_LON")
        case .polarStereographic:
            try requireLatitude(trueLatitude1, "TRUELAT1")
            try requireFinite(standardLongitude, "STAND_LON")
        case .mercator:
            try requireLatitude(trueLatitude1, "TRUELAT1")
            guard abs(trueLatitude1) < 90 else {
                throw GridGeometryError.invalidParameters(
                    "TRUELAT1 must lie strictly between -90 and 90 for Mercator (MAP_PROJ 3), got \(trueLatitude1)")
            }
        case .latLon:
            try requireLatitude(poleLatitude, "POLE_LAT")
            try requireFinite(poleLongitude, "POLE_LON")
            try requireFinite(standardLongitude, "STAND_LON")
        }
    }
}

extension ProjectionParameters {
    /// Pinned: these names are part of store format version 1 (docs/STORE-FORMAT.md), so a
    /// renamed property can never change what files say.
    enum CodingKeys: String, CodingKey {
        case kind, trueLatitude1, trueLatitude2, standardLongitude, poleLatitude, poleLongitude, dx, dy, earthRadius
    }
}
