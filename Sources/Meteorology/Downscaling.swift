import Foundation

/// Moving a model's near-surface values from its terrain height to a requested elevation, as
/// Open-Meteo does (its `GenericReader.scale` and `Meteorology.surfacePressure`): temperatures
/// by the standard lapse rate, surface pressure by the barometric formula of a layer with that
/// lapse rate. The lapse rate and exponent are the ICAO / U.S. Standard Atmosphere 1976
/// troposphere's (L = 0.0065 K/m, g0 M / (R* L) = 5.25588).
package enum Downscaling {
    /// The standard atmosphere's temperature lapse rate in the troposphere, K/m.
    package static let lapseRate = 0.0065
    /// g0 M / (R* L) = 9.80665 · 0.0289644 / (8.31447 · 0.0065), Open-Meteo's value.
    package static let barometricExponent = 5.25578129287
    /// Elevations a request may ask for, metres: the Dead Sea shore (-430 m) to above Everest.
    package static let validElevations: ClosedRange<Double> = -500...9000

    /// Kelvin to add to a temperature at `model` metres to have it at `target` metres: the
    /// air cools by `lapseRate` per metre of ascent (0.65 K per 100 m).
    package static func temperatureShift(model: Double, target: Double) -> Double {
        lapseRate * (model - target)
    }

    /// The factor taking a surface pressure at `model` metres to `target` metres, for 2 m air
    /// at `temperature` °C at the model terrain: p(z) = p(zm) · (T(z) / T(zm))^(g0 M / (R* L))
    /// with T(z) = T(zm) − L (z − zm), the hypsometric equation for a layer of constant lapse
    /// rate (the standard atmosphere's barometric formula). Open-Meteo's surface pressure is
    /// the same formula taken from mean sea level to the target with the moved temperature.
    package static func surfacePressureFactor(temperature: Double, model: Double, target: Double) -> Double {
        let kelvin = temperature + 273.15
        return pow((kelvin + temperatureShift(model: model, target: target)) / kelvin, barometricExponent)
    }
}
