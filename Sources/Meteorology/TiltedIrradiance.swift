import Foundation

/// A fixed plane (a solar panel) as Open-Meteo's `tilt` and `azimuth` request parameters give
/// it (its Sources/App/Helper/Reader/GenericReaderDerived.swift, `GenericReaderOptions`): the
/// tilt from the horizontal, 0° flat to 90° vertical, and the azimuth of the direction the
/// plane faces, **0° south, −90° east, 90° west**, ±180° north. Both default to 0 (a flat
/// plane). NaN is Open-Meteo's tracking: a NaN tilt follows the sun's zenith (the plane turns
/// up and down to face it), a NaN azimuth the sun's azimuth.
package struct PanelOrientation: Sendable, Equatable {
    /// Degrees from the horizontal, `validTilts` or NaN.
    package var tilt: Double
    /// Degrees, 0 south, -90 east, 90 west; `validAzimuths` or NaN.
    package var azimuth: Double

    package init(tilt: Double = 0, azimuth: Double = 0) {
        self.tilt = tilt
        self.azimuth = azimuth
    }

    /// A flat plane: the global tilted irradiance is then the global horizontal one.
    package static let flat = PanelOrientation()
    /// Open-Meteo's accepted ranges (it answers anything else with a 400).
    package static let validTilts: ClosedRange<Double> = 0...90
    package static let validAzimuths: ClosedRange<Double> = -180...180

    /// Open-Meteo's messages for a tilt or azimuth out of range, word for word.
    package static let tiltRangeMessage = "Parameter `&tilt=` must be within 0° and 90°"
    package static let azimuthRangeMessage = "Parameter `&azimuth=` must be within -180° and 180°"

    /// A tilt or azimuth as text: degrees in range, or "nan" (tracking); otherwise the reason,
    /// Open-Meteo's message word for word for a number out of range, and the text given for
    /// anything that is not a number. The one place the rule is written (command line and API).
    package static func parse(_ text: String, tilt isTilt: Bool) -> Result<Double, PanelError> {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let message = isTilt ? tiltRangeMessage : azimuthRangeMessage
        if trimmed.lowercased() == "nan" { return .success(.nan) }
        guard let value = Double(trimmed), value.isFinite else {
            return .failure(PanelError(message: "\(message), in degrees (or nan to follow the sun). Given: \(text)"))
        }
        guard (isTilt ? validTilts : validAzimuths).contains(value) else { return .failure(PanelError(message: message)) }
        return .success(value)
    }
}

/// Why a tilt or azimuth was refused (Open-Meteo's words and the value given).
package struct PanelError: Error, Sendable, Equatable {
    package let message: String
}

/// Global tilted irradiance (Open-Meteo's `global_tilted_irradiance`): the shortwave radiation
/// a plane receives, by the **isotropic sky model** (Liu and Jordan 1963) with a ground albedo
/// of 0.2, the transposition Open-Meteo uses (`Zensun.calculateTiltedIrradiance`) and pvlib's
/// `get_total_irradiance(model="isotropic", albedo=0.2)`:
///
///     GTI = DNI max(cos θ, 0) + DHI (1 + cos β)/2 + GHI ρ (1 − cos β)/2,
///     cos θ = cos θz cos β + sin θz sin β cos(γs − γp),
///
/// θz the sun's zenith, γs its azimuth, β the plane's tilt and γp the direction it faces (both
/// azimuths from north). WRF's radiation is instantaneous at the output time, so DNI is
/// the direct radiation on the horizontal over the sun's cos θz at that time (not
/// Open-Meteo's division of an hour's mean by the hour's mean cos θz); beyond 87° zenith no
/// DNI is estimated (0), as for `sunshine_duration` (`Sunshine.maxZenith`).
package enum TiltedIrradiance {
    /// Ground reflectance, Open-Meteo's constant.
    package static let albedo = 0.2

    /// W/m² on the plane from GHI, DNI and DHI (W/m²) and the sun's zenith and azimuth (degrees,
    /// azimuth from north). NaN when an input is; 0 when no radiation reaches the ground.
    package static func global(global ghi: Double, directNormal dni: Double, diffuse dhi: Double,
                               zenith: Double, solarAzimuth: Double, panel: PanelOrientation) -> Double {
        guard ghi.isFinite, dni.isFinite, dhi.isFinite, zenith.isFinite, solarAzimuth.isFinite else { return .nan }
        guard ghi > 0 || dhi > 0 || dni > 0 else { return 0 }
        let rad = Double.pi / 180
        // Tracking (NaN): face the sun in that angle. Open-Meteo's azimuth is from the south.
        let tilt = panel.tilt.isNaN ? min(max(zenith, 0), 90) : panel.tilt
        let facing = panel.azimuth.isNaN ? solarAzimuth : panel.azimuth + 180
        let beta = tilt * rad, z = zenith * rad
        let cosIncidence = cos(z) * cos(beta) + sin(z) * sin(beta) * cos((solarAzimuth - facing) * rad)
        let sky = (1 + cos(beta)) / 2
        return max(dni, 0) * max(cosIncidence, 0) + max(dhi, 0) * sky + max(ghi, 0) * albedo * (1 - sky)
    }

    /// The same from the direct and diffuse radiation on the horizontal (WRF's SWDDIR, SWDDIF):
    /// GHI = direct + diffuse, DNI = direct / cos θz (`Sunshine.directNormal(direct:zenith:)`).
    package static func fromDirect(direct: Double, diffuse: Double, zenith: Double, solarAzimuth: Double,
                                   panel: PanelOrientation) -> Double {
        let dni = Sunshine.directNormal(direct: direct, zenith: zenith)
        return global(global: direct + diffuse, directNormal: dni, diffuse: diffuse, zenith: zenith,
                      solarAzimuth: solarAzimuth, panel: panel)
    }

    /// The same from the global radiation alone (WRF's SWDOWN, when the run wrote no SWDDIR and
    /// SWDDIF), split by Erbs et al. (1982) as `sunshine_duration` splits it
    /// (`Sunshine.directNormal(global:zenith:dayOfYear:)`, pvlib's `erbs`): DHI = GHI − DNI cos θz.
    package static func fromGlobal(global ghi: Double, zenith: Double, solarAzimuth: Double, dayOfYear: Int,
                                   panel: PanelOrientation) -> Double {
        let dni = Sunshine.directNormal(global: ghi, zenith: zenith, dayOfYear: dayOfYear)
        let dhi = ghi - dni * cos(zenith * Double.pi / 180)
        return global(global: ghi, directNormal: dni, diffuse: dhi, zenith: zenith, solarAzimuth: solarAzimuth, panel: panel)
    }
}
