// The error type and the shared elementwise loops behind the field versions of the formulas.
//
// Rule for this module: scalar formulas never fail; they return NaN for missing input.
// Field versions throw `MeteorologyError` when the buffers they are given disagree in
// length, because those lengths come from file dimensions, and a file can lie; a
// precondition would turn a bad file into a crash.

/// A field operation was handed fields that do not fit together.
public enum MeteorologyError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `argument` holds `actual` values where `expected` were needed.
    case fieldLengthMismatch(argument: String, expected: Int, actual: Int)
    /// A de-accumulation step was given no accumulated field at all.
    case noAccumulatedParts

    public var description: String {
        switch self {
        case let .fieldLengthMismatch(argument, expected, actual):
            return "field '\(argument)' has \(actual) values, expected \(expected)"
        case .noAccumulatedParts:
            return "no accumulated precipitation field (RAINC, RAINNC, RAINSH, ...) was given"
        }
    }
}

/// Throws unless every named count equals `expected`.
@usableFromInline
func requireLength(
    _ expected: Int, _ fields: KeyValuePairs<String, Int>
) throws(MeteorologyError) {
    for (name, count) in fields where count != expected {
        throw .fieldLengthMismatch(argument: name, expected: expected, actual: count)
    }
}

// The loops below read element i of every input before writing element i of the output,
// so the output may be the very memory of one of the inputs (in-place use).

@inlinable
func mapFields(
    _ a: UnsafeBufferPointer<Float>, into out: UnsafeMutableBufferPointer<Float>,
    _ f: (Float) -> Float
) {
    for i in 0..<out.count { out[i] = f(a[i]) }
}

@inlinable
func mapFields(
    _ a: UnsafeBufferPointer<Float>, _ b: UnsafeBufferPointer<Float>,
    into out: UnsafeMutableBufferPointer<Float>, _ f: (Float, Float) -> Float
) {
    for i in 0..<out.count { out[i] = f(a[i], b[i]) }
}

@inlinable
func mapFields(
    _ a: UnsafeBufferPointer<Float>, _ b: UnsafeBufferPointer<Float>, _ c: UnsafeBufferPointer<Float>,
    into out: UnsafeMutableBufferPointer<Float>, _ f: (Float, Float, Float) -> Float
) {
    for i in 0..<out.count { out[i] = f(a[i], b[i], c[i]) }
}

@inlinable
func mapArrays(_ a: [Float], _ f: (Float) -> Float) -> [Float] {
    var out = [Float](repeating: .nan, count: a.count)
    a.withUnsafeBufferPointer { a in
        out.withUnsafeMutableBufferPointer { o in mapFields(a, into: o, f) }
    }
    return out
}

@inlinable
func mapArrays(_ a: [Float], _ b: [Float], _ f: (Float, Float) -> Float) -> [Float] {
    var out = [Float](repeating: .nan, count: a.count)
    a.withUnsafeBufferPointer { a in
        b.withUnsafeBufferPointer { b in
            out.withUnsafeMutableBufferPointer { o in mapFields(a, b, into: o, f) }
        }
    }
    return out
}

@inlinable
func mapArrays(_ a: [Float], _ b: [Float], _ c: [Float], _ f: (Float, Float, Float) -> Float) -> [Float] {
    var out = [Float](repeating: .nan, count: a.count)
    a.withUnsafeBufferPointer { a in
        b.withUnsafeBufferPointer { b in
            c.withUnsafeBufferPointer { c in
                out.withUnsafeMutableBufferPointer { o in mapFields(a, b, c, into: o, f) }
            }
        }
    }
    return out
}
