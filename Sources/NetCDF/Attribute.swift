/// The value of a netCDF attribute, in the few shapes TileCast needs.
package enum AttributeValue: Sendable, Equatable, CustomStringConvertible {
    case text(String)
    case integers([Int64])
    case reals([Double])

    /// The text, for character attributes.
    package var string: String? {
        if case .text(let value) = self { return value }
        return nil
    }

    /// The first number, whether stored as an integer or a real.
    package var double: Double? {
        switch self {
        case .text: return nil
        case .integers(let values): return values.first.map(Double.init)
        case .reals(let values): return values.first
        }
    }

    /// The first number as an integer, when it is integral.
    package var int: Int? {
        guard let value = double, value.isFinite, value == value.rounded(),
              abs(value) < 9.0e15 else { return nil }
        return Int(value)
    }

    package var description: String {
        switch self {
        case .text(let value): return "\"\(value)\""
        case .integers(let values): return values.map(String.init).joined(separator: ", ")
        case .reals(let values): return values.map { String($0) }.joined(separator: ", ")
        }
    }
}
