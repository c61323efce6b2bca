// Total cloud cover from WRF's CLDFRA (cloud fraction 0...1 on every model level).
//
// The column maximum is the maximum-overlap assumption: the sky is as covered as its most
// covered level. It is the least cover consistent with the level fractions; random overlap,
// 1 - prod(1 - f), would count the many thin adjacent model levels of one cloud layer as
// independent clouds and inflate the cover. It needs no level thicknesses either, which
// the store does not read.
//
// A NaN on any level makes the column NaN: its maximum is unknown, and missing must stay
// missing. Values are capped at 100 % because the schemes can leave CLDFRA a rounding step
// above 1.

/// Cloud cover in % from a column of cloud fractions (0...1).
@inlinable
public func cloudCover(columnCloudFractions fractions: some Sequence<Float>) -> Float {
    var highest: Float = 0
    var any = false
    for fraction in fractions {
        if fraction.isNaN { return .nan }
        if fraction > highest { highest = fraction }
        any = true
    }
    return any ? min(highest, 1) * 100 : .nan  // highest starts at 0, so never negative
}

/// Column-maximum cloud cover (%) of a 3-D CLDFRA field laid out [level][j][i].
///
/// - Parameters:
///   - cloudFraction: `levelCount * output.count` values, level slowest.
///   - levelCount: number of model levels (bottom_top); at least 1.
///   - output: the 2-D result, one value per horizontal cell; it may be the memory of the
///     first level's slice, but must not overlap the other levels.
/// - Throws: `MeteorologyError.fieldLengthMismatch` if `cloudFraction` does not hold
///   `levelCount` slices of `output.count` values.
public func cloudCover(
    cloudFraction: UnsafeBufferPointer<Float>, levelCount: Int, into output: UnsafeMutableBufferPointer<Float>
) throws(MeteorologyError) {
    try validateColumns(count: cloudFraction.count, levelCount: levelCount, cellCount: output.count)
    columnMaximum(cloudFraction, levelCount: levelCount, into: output)
}

/// Column-maximum cloud cover (%) of a 3-D CLDFRA field held in an array.
public func cloudCover(
    cloudFraction: [Float], levelCount: Int, cellCount: Int
) throws(MeteorologyError) -> [Float] {
    try validateColumns(count: cloudFraction.count, levelCount: levelCount, cellCount: cellCount)
    var output = [Float](repeating: .nan, count: cellCount)
    cloudFraction.withUnsafeBufferPointer { input in
        output.withUnsafeMutableBufferPointer { out in columnMaximum(input, levelCount: levelCount, into: out) }
    }
    return output
}

private func validateColumns(count: Int, levelCount: Int, cellCount: Int) throws(MeteorologyError) {
    let (expected, overflow) = max(levelCount, 0).multipliedReportingOverflow(by: max(cellCount, 0))
    if levelCount < 1 || cellCount < 0 || overflow || count != expected {
        throw .fieldLengthMismatch(argument: "cloudFraction", expected: overflow ? Int.max : expected, actual: count)
    }
}

private func columnMaximum(
    _ cloudFraction: UnsafeBufferPointer<Float>, levelCount: Int, into output: UnsafeMutableBufferPointer<Float>
) {
    let cells = output.count
    // Level by level, so each pass reads one contiguous 2-D slice. Starting from level 0
    // rather than from zeros lets `output` be the memory of that first slice.
    for i in 0..<cells { output[i] = cloudFraction[i] }
    for level in 1..<max(levelCount, 1) {
        let slice = level * cells
        for i in 0..<cells {
            let fraction = cloudFraction[slice + i]
            let current = output[i]
            if fraction.isNaN || current.isNaN {
                output[i] = .nan
            } else if fraction > current {
                output[i] = fraction
            }
        }
    }
    for i in 0..<cells {
        let highest = output[i]
        output[i] = highest > 1 ? 100 : (highest < 0 ? 0 : highest * 100)
    }
}
