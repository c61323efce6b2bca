/// The neighbourhood fraction of Theis et al. (2005) and Schwartz and Sobash (2017): for every
/// cell of a grid, the share of the cells within a radius whose value passes a threshold, so a
/// shower forecast a cell or two away still counts at a place (a deterministic run places a
/// shower to within a few cells at best).
///
/// The neighbourhood is a disk: the cells (di, dj) with di² + dj² ≤ radius². Only cells of the
/// grid count, in both the numerator and the denominator (a cell at the edge has a smaller
/// neighbourhood, never one padded with dry cells), and so does an unknown (NaN) value in
/// neither; a cell none of whose neighbours is known is unknown. That is
/// `scipy.ndimage.convolve` of the exceedance mask and of the known mask with the disk as
/// footprint, `mode='constant'`, one divided by the other (the test's reference does exactly
/// that).
package enum NeighbourhoodFraction {
    /// The fraction in percent (0 to 100) at every cell of a `westEast` x `southNorth` grid
    /// stored row by row (south to north), of the cells whose value is at least `threshold`.
    ///
    /// Each row of the disk is a run of cells, so each cell's counts are a sum of row runs read
    /// from running sums of every row: (2r + 1) reads a cell whatever the radius.
    package static func percent(_ values: [Float], westEast: Int, southNorth: Int, radius: Double, threshold: Float) -> [Float] {
        let count = westEast * southNorth
        guard westEast > 0, southNorth > 0, values.count >= count else { return [Float](repeating: .nan, count: values.count) }
        // Running sums along each row, one longer than the row: sums[row * (westEast + 1) + i]
        // counts the cells before i.
        let stride = westEast + 1
        var wet = [Int32](repeating: 0, count: stride * southNorth)
        var known = [Int32](repeating: 0, count: stride * southNorth)
        for j in 0..<southNorth {
            var w: Int32 = 0, k: Int32 = 0
            for i in 0..<westEast {
                let value = values[j * westEast + i]
                if !value.isNaN {
                    k += 1
                    if value >= threshold { w += 1 }
                }
                wet[j * stride + i + 1] = w
                known[j * stride + i + 1] = k
            }
        }
        let reach = max(Int(radius.rounded(.down)), 0)
        // The half-width of the disk's row at each offset: the largest di with di² + dj² ≤ r².
        let halfWidths = (0...reach).map { dj in
            var di = reach
            while di > 0 && Double(di * di + dj * dj) > radius * radius { di -= 1 }
            return di
        }
        var out = [Float](repeating: .nan, count: count)
        for j in 0..<southNorth {
            for i in 0..<westEast {
                var w: Int32 = 0, k: Int32 = 0
                for dj in -reach...reach {
                    let row = j + dj
                    guard row >= 0 && row < southNorth else { continue }
                    let half = halfWidths[abs(dj)]
                    let from = max(i - half, 0), to = min(i + half, westEast - 1)
                    w += wet[row * stride + to + 1] - wet[row * stride + from]
                    k += known[row * stride + to + 1] - known[row * stride + from]
                }
                if k > 0 { out[j * westEast + i] = 100 * Float(w) / Float(k) }
            }
        }
        return out
    }
}
