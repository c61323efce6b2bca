import Catalog

/// What each stored variable can physically be, in the store's units (`ForecastVariable.unit`):
/// the one table extraction checks every value against (issue 27 item 7: T2 in kelvin whose
/// file said "degC" was published as 283.84 °C). Limits are wide on purpose (records, mountains,
/// rounding): a value beyond them is not weather but a mislabelled unit, a wrong scale factor
/// or a broken field. Variables not listed are not checked.
///
/// Extraction refuses a run when more than `refusedFraction` of a variable's values in a domain
/// lie outside (a unit error moves them all), and warns, with the count and the extreme,
/// when any do.
package enum PhysicalLimits {
    package static let ranges: [ForecastVariable: ClosedRange<Float>] = [
        // Air: the coldest and hottest 2 m temperatures measured are about -90 and 57 °C.
        .temperature2m: -100...70, .dewPoint2m: -110...60, .apparentTemperature: -130...90,
        .soilTemperature0to10cm: -80...90, .soilTemperature10to40cm: -80...90,
        .soilTemperature40to100cm: -80...90, .soilTemperature100to200cm: -80...90,
        .relativeHumidity2m: -1...110,
        .cloudCover: -1...101, .cloudCoverLow: -1...101, .cloudCoverMid: -1...101, .cloudCoverHigh: -1...101,
        // Wind: the strongest surface gust measured is 113 m/s.
        .windU10m: -150...150, .windV10m: -150...150, .windGusts10m: 0...150,
        // hPa: Everest's summit is about 330, the highest sea-level pressure about 1084.
        .surfacePressure: 250...1100, .pressureMSL: 800...1100,
        // Per output interval (an hour or a few): the wettest hours measured are about 300 mm.
        .precipitation: -1...1000, .rain: -1...1000, .showers: -1...1000, .snowfall: -1...1000,
        // W/m²: the solar constant is 1361; cloud edges raise the surface value a little above it.
        .shortwaveRadiation: -10...1600, .directRadiation: -10...1600, .diffuseRadiation: -10...1600,
        .elevation: -500...9000, .snowDepth: -0.01...100,
        .soilMoisture0to10cm: -0.01...1.01, .soilMoisture10to40cm: -0.01...1.01,
        .soilMoisture40to100cm: -0.01...1.01, .soilMoisture100to200cm: -0.01...1.01,
        .vapourPressureDeficit: -1...15, .cape: -1...25000, .weatherCode: 0...99,
    ]

    /// Beyond this share of a variable's values outside its limits, the run is refused.
    package static let refusedFraction = 0.5
}

/// Values of one variable checked against its limits: how many, how many outside, the extremes.
struct LimitCount: Sendable {
    var checked = 0
    var outside = 0
    var lowest = Float.infinity
    var highest = -Float.infinity

    mutating func add(_ values: [Float], within limits: ClosedRange<Float>) {
        for value in values where !value.isNaN {
            checked += 1
            lowest = min(lowest, value)
            highest = max(highest, value)
            if !limits.contains(value) { outside += 1 }
        }
    }

    mutating func merge(_ other: LimitCount) {
        checked += other.checked
        outside += other.outside
        lowest = min(lowest, other.lowest)
        highest = max(highest, other.highest)
    }

    /// The sentence naming the variable, its limits and what was found.
    func describe(_ variable: ForecastVariable, domain: String) -> String {
        let limits = PhysicalLimits.ranges[variable].map { "\($0.lowerBound)...\($0.upperBound) \(variable.unit)" } ?? ""
        let share = checked > 0 ? Double(outside) * 100 / Double(checked) : 0
        var text = "\(domain): \(variable.rawValue) has \(outside) of \(checked) values (\(Int(share.rounded())) %) outside its physical limits \(limits) (found \(lowest)...\(highest) \(variable.unit))"
        if variable.unit == "°C", lowest > 150 { text += ": kelvin labelled as °C? check the variable's units attribute or the profile's unit" }
        return text
    }
}
