/// The snow pack's bulk density (kg/m³): its water equivalent (SNOW, kg/m² = mm of water) over
/// its depth (SNOWH, m), as Open-Meteo's `snow_density`. NaN (served as null) where either is not
/// above 0: without snow there is no pack to have a density, and 0 would be a nonsense density.
@inlinable
package func snowDensity(waterEquivalent: Float, depth: Float) -> Float {
    guard waterEquivalent > 0, depth > 0 else { return .nan }
    return waterEquivalent / depth
}
