/// The `_spread` variables (issue 46): the standard deviation of a surface variable over the
/// lagged members, the newest cycles covering the hour (`LaggedMembers`), at the place.
///
/// Which ones: the surface variables Open-Meteo publishes a `_spread` of in its ensemble APIs
/// (open-meteo/open-meteo, `Sources/App/Controllers/VariableHourly.swift`) that TileCast
/// serves. Not wind direction: an angle, whose linear standard deviation is wrong (350° and 10°
/// are 20° apart, not 240°).
///
/// The sample standard deviation (divided by n - 1), as Open-Meteo computes its ensemble
/// spread (`EnsembleMeanCalculator.swift`, Welford's sample variance): the members are a
/// sample of the forecasts that could have been made. One member has none (null). A spread of
/// a temperature is a difference, so in kelvin whatever `temperature_unit` says (Open-Meteo's
/// rule: its spread of a °C variable has the unit kelvin); the other units convert as the base's.
extension ForecastVariable {
    var spreadDeclaration: VariableSpec {
        guard let base = spreadBase else {
            // Unreachable: `declaration` sends only spread cases here. A plain entry rather than a trap.
            return VariableSpec(rawValue, unit: "", decimals: 0, stored: nil, isOutput: false, sdk: nil)
        }
        // The base's entry, not `base.spec`: this runs while the table `spec` reads is built.
        let of = base.declaration
        let isTemperature = of.quantity == .temperature
        // What a member needs to answer the base: the cycle holds the spread where it holds that.
        let sources = of.sources.isEmpty && of.stored != nil ? [base] : of.sources
        let sdk = of.sdk.map {
            VariableSpec.SDKCode(code: $0.code, altitude: $0.altitude, depth: $0.depth, pressureLevel: $0.pressureLevel, aggregation: 11)
        }
        return VariableSpec("spread of \(base.rawValue): the standard deviation (sample, n - 1) over the lagged members (the newest cycles covering the hour) at the place"
                            + (isTemperature ? ", in kelvin" : ""),
                            unit: isTemperature ? "K" : of.unit, quantity: isTemperature ? .fixed : of.quantity, decimals: of.decimals,
                            inchDecimals: of.inchDecimals, stored: nil, sources: sources, set: of.set, sdk: sdk)
    }
}
