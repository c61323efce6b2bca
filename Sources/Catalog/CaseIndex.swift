/// The declaration index of a case of an enum without payloads, read from its storage.
///
/// Swift stores such a case as its index in the smallest unsigned integer that holds them all:
/// one byte up to 256 cases, two past that (the catalog has 177 and grows with levels,
/// probabilities and spreads). Reading the byte alone, as `ForecastVariable.ordinal` did with
/// `unsafeBitCast(_:to: UInt8.self)`, stops working at the 257th case; this reads whichever
/// width the type has (the size is a constant, so the branch folds away).
package enum CaseIndex {
    @inline(__always)
    package static func of<T: CaseIterable>(_ value: T) -> Int {
        switch MemoryLayout<T>.size {
        case 1: return Int(unsafeBitCast(value, to: UInt8.self))
        case 2: return Int(unsafeBitCast(value, to: UInt16.self))
        default: return Int(unsafeBitCast(value, to: UInt32.self))
        }
    }
}
