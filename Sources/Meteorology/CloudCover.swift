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
package func cloudCover(columnCloudFractions fractions: some Sequence<Float>) -> Float {
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
package func cloudCover(
    cloudFraction: UnsafeBufferPointer<Float>, levelCount: Int, into output: UnsafeMutableBufferPointer<Float>
) throws(MeteorologyError) {
    try validateColumns(count: cloudFraction.count, levelCount: levelCount, cellCount: output.count)
    columnMaximum(cloudFraction, levelCount: levelCount, into: output)
}

/// Column-maximum cloud cover (%) of a 3-D CLDFRA field held in an array.
package func cloudCover(
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
///   - geopotential: PH + PHB per staggered level, m²/s²: `heightLevels + 1` of them at least.
///   - levelCount: the number of mass levels.
///   - heightLevels: the mass levels whose height is computed; every level from this one up
///     counts as high without its height. nil (all levels) unless `lowestHighLevel` found
///     this level high in every cell: geopotential grows upwards in WRF's coordinate, so the
///     levels above it are high too, and their PH and PHB need not be read.
///   - terrainHeight: HGT per cell, m.
/// - Returns: low, mid and high cover in % (0-100); NaN where an input is NaN.
///
/// The fields are flat, as the extraction reads them, level slowest.
///
/// - Throws: `MeteorologyError.fieldLengthMismatch` when the fields do not hold that many levels.
package func cloudCoverLayers(cloudFraction: [Float], geopotential: [Float], levelCount levels: Int, heightLevels: Int? = nil,
                             terrainHeight: [Float]) throws(MeteorologyError)
    -> (low: [Float], mid: [Float], high: [Float]) {
    let cells = terrainHeight.count
    try validateColumns(count: cloudFraction.count, levelCount: levels, cellCount: cells)
    let withHeight = min(max(heightLevels ?? levels, 0), levels)
    if geopotential.count < (withHeight + 1) * cells || (heightLevels == nil && geopotential.count != (levels + 1) * cells) {
        throw .fieldLengthMismatch(argument: "geopotential", expected: (withHeight + 1) * cells, actual: geopotential.count)
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
                        let level = f + k * cells
                        // Levels from `withHeight` up have no geopotential read: high, without a height.
                        let withHeightHere = k < withHeight
                        let below = g + min(k, withHeight) * cells, above = below + cells
                        // Eight cells at a time in explicit SIMD: the scalar loop stayed scalar
                        // (its NaN tests became branches) and was a tenth of an extraction. The
                        // same operations per lane as the scalar tail, so the same bits.
                        var cell = 0
                        while cell + 8 <= cells {
                            let height = withHeightHere
                                ? (load(below + cell) + load(above + cell)) / 2 / 9.81 - load(z + cell) : SIMD8(repeating: 6000)
                            let (value, unknown) = percent(load(level + cell), height: height)
                            let isLow = height .< 2000, below6km = height .< 6000
                            var l = load(low + cell), m = load(mid + cell), h = load(high + cell)
                            l.replace(with: raised(l, value, unknown), where: isLow)
                            m.replace(with: raised(m, value, unknown), where: .!isLow .& below6km)
                            h.replace(with: raised(h, value, unknown), where: .!below6km)
                            store(l, low + cell)
                            store(m, mid + cell)
                            store(h, high + cell)
                            cell += 8
                        }
                        while cell < cells {
                            // A NaN height counts as high (`!(h < 6000)`).
                            let height = withHeightHere ? massLevelHeight(below[cell], above[cell], terrain: z[cell]) : 6000
                            let value = percent(level[cell], height: height)
                            if height < 2000 { low[cell] = raise(low[cell], value) } else if height < 6000 { mid[cell] = raise(mid[cell], value) } else { high[cell] = raise(high[cell], value) }
                            cell += 1
                        }
                    }
                }
            }
        }
    }
    return (Array(layers[0..<cells]), Array(layers[cells..<(2 * cells)]), Array(layers[(2 * cells)...]))
}

/// The lowest mass level whose height above ground (as `cloudCoverLayers` computes it) is at
/// least 6 km in every cell, among the levels `staggeredLevels` of geopotential give heights
/// to (one fewer); nil when no such level is among them or a height is NaN on the way.
package func lowestHighLevel(geopotential: [Float], staggeredLevels: Int, terrainHeight: [Float]) -> Int? {
    let cells = terrainHeight.count
    guard cells > 0, staggeredLevels >= 2, geopotential.count >= staggeredLevels * cells else { return nil }
    for k in 0..<(staggeredLevels - 1) {
        var allHigh = true
        for cell in 0..<cells {
            let height = massLevelHeight(geopotential[k * cells + cell], geopotential[(k + 1) * cells + cell], terrain: terrainHeight[cell])
            if !(height >= 6000) { allHigh = false; break }
        }
        if allHigh { return k }
    }
    return nil
}

// The per-value steps of `cloudCoverLayers`, in scalar and SIMD form with the same
// operations: Swift's `max(x, y)` is `y >= x ? y : x` and `min(x, y)` is `y < x ? y : x`, and
// the SIMD forms spell those selects out with vector operands only (the scalar-operand
// `replacing` was not vectorized). `x != x` is the NaN test.

/// A mass level's height above ground (m) from PH + PHB below and above it (m²/s²): their
/// mean over g, less the terrain. The SIMD loop spells the same operations per lane.
@inline(__always) private func massLevelHeight(_ below: Float, _ above: Float, terrain: Float) -> Float {
    (below + above) / 2 / 9.81 - terrain
}

/// CLDFRA in %, clamped to 0-100; NaN when it or the level's height is NaN.
@inline(__always) private func percent(_ raw: Float, height: Float) -> Float {
    raw != raw || height != height ? .nan : min(max(raw, 0), 1) * 100
}

/// `percent` of eight cells, and the lanes where it is NaN.
@inline(__always) private func percent(_ raw: SIMD8<Float>, height: SIMD8<Float>) -> (SIMD8<Float>, SIMDMask<SIMD8<Int32>>) {
    let zero = SIMD8<Float>(repeating: 0), one = SIMD8<Float>(repeating: 1)
    var value = raw.replacing(with: zero, where: zero .>= raw)
    value.replace(with: one, where: one .< value)
    value *= 100
    let unknown = (raw .!= raw) .| (height .!= height)
    value.replace(with: SIMD8(repeating: .nan), where: unknown)
    return (value, unknown)
}

/// A layer's cover raised to a level's value; NaN wins (an unknown level makes its layer unknown).
@inline(__always) private func raise(_ layer: Float, _ value: Float) -> Float {
    layer != layer || value != value ? .nan : max(layer, value)
}

/// `raise` of eight cells; `unknown`: the lanes where `value` is NaN. (Written with
/// `replace` on vector operands: helpers built from selects of selects were not inlined.)
@inline(__always) private func raised(_ layer: SIMD8<Float>, _ value: SIMD8<Float>, _ unknown: SIMDMask<SIMD8<Int32>>) -> SIMD8<Float> {
    var result = layer.replacing(with: value, where: value .>= layer)
    result.replace(with: SIMD8(repeating: .nan), where: (layer .!= layer) .| unknown)
    return result
}

@inline(__always) private func load(_ pointer: UnsafePointer<Float>) -> SIMD8<Float> {
    UnsafeRawPointer(pointer).loadUnaligned(as: SIMD8<Float>.self)
}

@inline(__always) private func load(_ pointer: UnsafeMutablePointer<Float>) -> SIMD8<Float> {
    UnsafeRawPointer(pointer).loadUnaligned(as: SIMD8<Float>.self)
}

@inline(__always) private func store(_ value: SIMD8<Float>, _ pointer: UnsafeMutablePointer<Float>) {
    UnsafeMutableRawPointer(pointer).storeBytes(of: value, as: SIMD8<Float>.self)
}
