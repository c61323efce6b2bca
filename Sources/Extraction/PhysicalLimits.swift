import Catalog

/// What each stored variable can physically be, in the store's units (`ForecastVariable.unit`):
/// the one table extraction checks every value against (a T2 in kelvin whose file says "degC"
/// would otherwise be published as 283.84 °C). Limits are wide on purpose (records, mountains,
/// rounding): a value beyond them is not weather but a mislabelled unit, a wrong scale factor
/// or a broken field. Variables without limits are not checked. The limits are the registry's
/// (`VariableSpec.Stored.limits`).
///
/// Extraction refuses a run when more than `refusedFraction` of a variable's values in a domain
/// lie outside (a unit error moves them all), and warns, with the count and the extreme,
/// when any do.
package enum PhysicalLimits {
    /// A stored variable's limits, from the registry (`VariableSpec.Stored.limits`).
    package static func limits(of variable: ForecastVariable) -> ClosedRange<Float>? { variable.spec.stored?.limits }

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
        let limits = PhysicalLimits.limits(of: variable).map { "\($0.lowerBound)...\($0.upperBound) \(variable.unit)" } ?? ""
        let share = checked > 0 ? Double(outside) * 100 / Double(checked) : 0
        var text = "\(domain): \(variable.rawValue) has \(outside) of \(checked) values (\(Int(share.rounded())) %) outside its physical limits \(limits) (found \(lowest)...\(highest) \(variable.unit))"
        if variable.unit == "°C", lowest > 150 { text += ": kelvin labelled as °C? check the variable's units attribute or the profile's unit" }
        return text
    }
}
