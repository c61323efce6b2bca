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
    guard cells > 0, let first = cloudFraction.baseAddress, let out = output.baseAddress else { return }
    // Level by level, so each pass reads one contiguous 2-D slice. Starting from level 0
    // rather than from zeros lets `output` be the memory of that first slice. Row pointers
    // and selects keep index arithmetic and branches out of the loop, so it vectorizes.
    for i in 0..<cells { out[i] = first[i] }
    for level in 1..<max(levelCount, 1) {
        let row = first + level * cells
        for i in 0..<cells {
            let fraction = row[i], current = out[i]
            out[i] = fraction != fraction || current != current ? .nan : (fraction > current ? fraction : current)
        }
    }
    for i in 0..<cells {
        let highest = output[i]
        output[i] = highest > 1 ? 100 : (highest < 0 ? 0 : highest * 100)
    }
}

/// Cloud cover in three layers by height above ground, %, as Open-Meteo defines them: low
/// below 2 km (fog included), mid 2-6 km, high above 6 km; each the maximum cloud fraction of
/// the mass levels whose height lies in it (maximum overlap within a layer, as wrf-python's
/// `cloudfrac` takes it). A mass level's height is the mean of its two staggered geopotential
/// levels over g = 9.81 m/s² (wrf-python's destaggering of PH + PHB), less the terrain height.
///
/// - Parameters:
///   - cloudFraction: CLDFRA per mass level (0-1), bottom first, each a field of cells.
///   - geopotential: PH + PHB per staggered level (one more than the mass levels), m²/s².
///   - levelCount: the number of mass levels.
///   - terrainHeight: HGT per cell, m.
/// - Returns: low, mid and high cover in % (0-100); NaN where an input is NaN.
///
/// The fields are flat, as the extraction reads them: `levelCount` mass levels of CLDFRA and
/// `levelCount + 1` staggered levels of PH + PHB, level slowest.
///
/// - Throws: `MeteorologyError.fieldLengthMismatch` when the fields do not hold that many levels.
public func cloudCoverLayers(cloudFraction: [Float], geopotential: [Float], levelCount levels: Int, terrainHeight: [Float]) throws(MeteorologyError)
    -> (low: [Float], mid: [Float], high: [Float]) {
    let cells = terrainHeight.count
    try validateColumns(count: cloudFraction.count, levelCount: levels, cellCount: cells)
    if geopotential.count != (levels + 1) * cells {
        throw .fieldLengthMismatch(argument: "geopotential", expected: (levels + 1) * cells, actual: geopotential.count)
    }
    // low, mid and high side by side in one buffer, so one pointer serves all three.
    var layers = [Float](repeating: 0, count: 3 * cells)
    layers.withUnsafeMutableBufferPointer { layers in
        cloudFraction.withUnsafeBufferPointer { fraction in
            geopotential.withUnsafeBufferPointer { geopotential in
                terrainHeight.withUnsafeBufferPointer { terrain in
                    guard cells > 0, let low = layers.baseAddress, let f = fraction.baseAddress,
                          let g = geopotential.baseAddress, let z = terrain.baseAddress else { return }
                    let mid = low + cells, high = mid + cells
                    for k in 0..<levels {
                        // Row pointers and selects, no index arithmetic or branches in the
                        // loop, so it vectorizes (it was a tenth of an extraction).
                        let below = g + k * cells, above = below + cells, level = f + k * cells
                        for cell in 0..<cells {
                            let height = (below[cell] + above[cell]) / 2 / 9.81 - z[cell]
                            let raw = level[cell]
                            let value = raw != raw || height != height ? Float.nan : min(max(raw, 0), 1) * 100
                            // NaN wins: an unknown level makes its layer unknown (a NaN height
                            // counts as high). `x != x` is the NaN test: `isNaN` compiles to
                            // bit tests and branches that keep the loop scalar.
                            let isLow = height < 2000, isMid = !isLow && height < 6000, isHigh = !(height < 6000)
                            let l = low[cell], m = mid[cell], h = high[cell]
                            low[cell] = isLow ? (l != l || value != value ? .nan : max(l, value)) : l
                            mid[cell] = isMid ? (m != m || value != value ? .nan : max(m, value)) : m
                            high[cell] = isHigh ? (h != h || value != value ? .nan : max(h, value)) : h
                        }
                    }
                }
            }
        }
    }
    return (Array(layers[0..<cells]), Array(layers[cells..<(2 * cells)]), Array(layers[(2 * cells)...]))
}
