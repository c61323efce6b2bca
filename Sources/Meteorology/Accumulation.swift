// De-accumulation of WRF/MM5 precipitation: run totals per frame -> amount per output interval.
//
// WRF writes precipitation accumulated since the simulation start in several parts:
// RAINC (cumulus scheme), RAINNC (microphysics), RAINSH (shallow cumulus, some schemes
// only). With `bucket_mm` > 0 it keeps RAINC/RAINNC below BUCKET_MM by subtracting the
// bucket and counting the tips in I_RAINC/I_RAINNC, so the true total is
//     total = RAINC + RAINNC + RAINSH + (I_RAINC + I_RAINNC) * BUCKET_MM.
// MM5's archiver writes rain_con/rain_non in cm. SNOWNC (grid-scale snow and ice, mm of
// water, already contained in RAINNC) goes through the same machinery with no bucket.
//
// Choices, all visible to the caller through `AccumulationSettings` and the report:
// * Sums are done in Double, so a total is exact to the Float parts it is made of (a
//   Float total of a few thousand mm would be rounded to 2.4e-4 mm at every frame); only
//   the interval amount is rounded to Float, once.
// * A drop no larger than `resetTolerance` is rounding: the interval is 0 and the drop is
//   remembered (the reference stays at the old, higher total), so the next rise pays it
//   back and every window sum stays within one tolerance of the raw accumulated difference.
// * A larger drop is a reset (a restarted accumulation, or a bucket tip the file did not
//   count). It is counted in the report. The interval then becomes the new total, which is
//   exactly what fell since the restart, when that is plausible: the new total is not
//   negative, and no bucket could have tipped unseen (BUCKET_MM <= 0, or the file carries
//   the counts for every bucketed part). Otherwise it is NaN: an uncounted tip and a
//   restart look the same, and either guess could be wrong by up to BUCKET_MM.
// * The first frame has no predecessor: 0 when it is the simulation start (nothing has
//   fallen yet), NaN (unknown) for restart output whose first frame is later.
// * NaN in any part gives NaN for that interval and for the next one (no predecessor).
// * With BUCKET_MM > 0 and a bucketed part without its I_ count, resets are also looked for
//   per part (RAINC, RAINNC, RAINSH separately, each with its own count when it has one): an
//   uncounted tip in RAINNC hidden by rain in RAINC leaves the summed total rising, and
//   would otherwise be reported about BUCKET_MM too low. Such an interval is a reset like
//   any other and, the counts being incomplete, unknown.

/// Unit of the accumulated fields in the file.
package enum AccumulationUnit: Sendable, Equatable {
    /// WRF: mm (kg/m²).
    case millimetres
    /// MM5 archiver convention: cm.
    case centimetres

    /// Millimetres in one of this unit.
    package var millimetresPerUnit: Double {
        switch self {
        case .millimetres: return 1
        case .centimetres: return 10
        }
    }
}

/// How to read one run's accumulated precipitation.
package struct AccumulationSettings: Sendable, Equatable {
    /// BUCKET_MM from the file's global attributes; <= 0 means no bucket.
    package var bucketMillimetres: Double
    /// False when BUCKET_MM > 0 but some bucketed part (RAINC, RAINNC) has no I_ count.
    package var bucketCountsComplete: Bool
    /// Unit of the accumulated parts in the file.
    package var unit: AccumulationUnit
    /// True when the first frame given is the simulation start (START_DATE equals
    /// SIMULATION_START_DATE and the frame is at 0 h); false for restart output.
    package var firstFrameIsSimulationStart: Bool
    /// Largest drop, in mm, treated as float rounding rather than as a reset.
    package var resetTolerance: Double

    package init(
        bucketMillimetres: Double = 0, bucketCountsComplete: Bool = true,
        unit: AccumulationUnit = .millimetres, firstFrameIsSimulationStart: Bool,
        resetTolerance: Double = 0.02
    ) {
        self.bucketMillimetres = bucketMillimetres
        self.bucketCountsComplete = bucketCountsComplete
        self.unit = unit
        self.firstFrameIsSimulationStart = firstFrameIsSimulationStart
        self.resetTolerance = resetTolerance
    }
}

/// What one de-accumulation step met, for the caller's warnings.
package struct DeaccumulationReport: Sendable, Equatable {
    /// Cells whose total dropped by more than the tolerance (restart or uncounted tip).
    package var resetCells: Int = 0
    /// Cells whose interval value is NaN.
    package var unknownCells: Int = 0

    package init(resetCells: Int = 0, unknownCells: Int = 0) {
        self.resetCells = resetCells
        self.unknownCells = unknownCells
    }
}

/// Turns one accumulated field per frame into the amount per output interval, frame by
/// frame, keeping only one Double per cell between frames.
package struct Deaccumulator: Sendable {
    /// Number of grid cells in every field given to `next`.
    package let cellCount: Int
    package let settings: AccumulationSettings
    /// Frames consumed so far.
    package private(set) var framesSeen = 0
    /// Per cell, the total the next interval is measured from (mm); NaN when unknown.
    private var reference: [Double]
    /// Per part, per cell, that part's total (with its own bucket count) at the previous
    /// frame: kept only when resets must be found per part (uncounted buckets), else empty.
    private var partPrevious: [[Double]] = []

    package init(cellCount: Int, settings: AccumulationSettings) {
        self.cellCount = max(cellCount, 0)
        self.settings = settings
        self.reference = [Double](repeating: .nan, count: max(cellCount, 0))
    }

    /// Follows a grid that moved by whole cells (a moving nest, whose model shifts its arrays
    /// with the move): cell (i, j) now holds the place cell (i + columns, j + rows) held before,
    /// so its totals carry over; cells new to the grid have no previous total (their next
    /// interval is unknown).
    ///
    /// - Parameter westEast: cells per row (`cellCount` is whole rows of it).
    package mutating func shift(columns: Int, rows: Int, westEast: Int) {
        guard columns != 0 || rows != 0, westEast > 0, cellCount % westEast == 0 else { return }
        let southNorth = cellCount / westEast
        func moved(_ values: [Double]) -> [Double] {
            var result = [Double](repeating: .nan, count: cellCount)
            for j in 0..<southNorth where (0..<southNorth).contains(j + rows) {
                for i in 0..<westEast where (0..<westEast).contains(i + columns) {
                    result[j * westEast + i] = values[(j + rows) * westEast + i + columns]
                }
            }
            return result
        }
        reference = moved(reference)
        partPrevious = partPrevious.map(moved)
    }

    /// Consumes the next frame and writes the amount (mm) fallen since the previous frame.
    ///
    /// - Parameters:
    ///   - parts: the accumulated parts present in this frame; at least one.
    ///   - bucketCounts: the I_RAIN* counts (may be empty); `bucketCounts[k]` belongs to
    ///     `parts[k]` (pass zeros for a part without a count when a later part has one).
    ///   - output: receives mm per interval; may be the memory of one of the inputs.
    /// - Throws: `MeteorologyError.fieldLengthMismatch` naming the first field whose size
    ///   is not `cellCount`, or `.noAccumulatedParts`; the state is unchanged then.
    package mutating func next(
        parts: [UnsafeBufferPointer<Float>], bucketCounts: [UnsafeBufferPointer<Float>],
        into output: UnsafeMutableBufferPointer<Float>
    ) throws(MeteorologyError) -> DeaccumulationReport {
        try validate(partCounts: parts.map(\.count), bucketCountCounts: bucketCounts.map(\.count),
                     outputCount: output.count)
        return step(parts: parts, bucketCounts: bucketCounts, into: output)
    }

    /// Array form of `next(parts:bucketCounts:into:)`.
    package mutating func next(
        parts: [[Float]], bucketCounts: [[Float]] = []
    ) throws(MeteorologyError) -> (values: [Float], report: DeaccumulationReport) {
        try validate(partCounts: parts.map(\.count), bucketCountCounts: bucketCounts.map(\.count),
                     outputCount: cellCount)
        var values = [Float](repeating: .nan, count: cellCount)
        let report = withBuffers(parts + bucketCounts) { buffers in
            values.withUnsafeMutableBufferPointer { out in
                step(parts: Array(buffers[..<parts.count]), bucketCounts: Array(buffers[parts.count...]), into: out)
            }
        }
        return (values, report)
    }

    private func validate(partCounts: [Int], bucketCountCounts: [Int], outputCount: Int) throws(MeteorologyError) {
        if partCounts.isEmpty { throw .noAccumulatedParts }
        if bucketCountCounts.count > partCounts.count {
            try requireLength(partCounts.count, ["bucketCounts (one per part at most)": bucketCountCounts.count])
        }
        try requireLength(cellCount, ["output": outputCount])
        for (k, count) in partCounts.enumerated() { try requireLength(cellCount, ["parts[\(k)]": count]) }
        for (k, count) in bucketCountCounts.enumerated() {
            try requireLength(cellCount, ["bucketCounts[\(k)]": count])
        }
    }

    /// The de-accumulation proper; every buffer holds `cellCount` values (validated).
    private mutating func step(
        parts: [UnsafeBufferPointer<Float>], bucketCounts: [UnsafeBufferPointer<Float>],
        into output: UnsafeMutableBufferPointer<Float>
    ) -> DeaccumulationReport {
        let isFirst = framesSeen == 0
        framesSeen += 1
        let s = settings
        let bucket = s.bucketMillimetres > 0 ? s.bucketMillimetres : 0
        let restartValueTrusted = bucket == 0 || s.bucketCountsComplete
        let scale = s.unit.millimetresPerUnit
        let perPart = bucket > 0 && !s.bucketCountsComplete
        if perPart && partPrevious.count != parts.count {
            partPrevious = Array(repeating: [Double](repeating: .nan, count: cellCount), count: parts.count)
        }
        var report = DeaccumulationReport()
        let cells = cellCount
        let sums = UnsafeMutableBufferPointer<Double>.allocate(capacity: perPart ? 0 : cells)
        defer { sums.deallocate() }
        if !perPart { Self.sumParts(parts, bucketCounts: bucketCounts, bucket: bucket, scale: scale, into: sums) }
        reference.withUnsafeMutableBufferPointer { reference in
            for i in 0..<cells {
                var total = 0.0
                var partReset = false
                if perPart {
                    (total, partReset) = Self.sumPartsOfCell(i, parts, bucketCounts: bucketCounts, bucket: bucket, scale: scale,
                                                             tolerance: s.resetTolerance, previous: &partPrevious)
                } else {
                    total = sums[i]
                }
                let value = Self.interval(total: total, reference: &reference[i], isFirst: isFirst, partReset: partReset,
                                          restartValueTrusted: restartValueTrusted, settings: s, report: &report)
                if value.isNaN { report.unknownCells += 1 }
                output[i] = Float(value)
            }
        }
        return report
    }

    /// Every cell's total, part by part over all cells (a loop per part vectorizes; a loop over
    /// the parts inside the loop over cells was as costly as reading the fields). Each cell
    /// adds its parts in the same order either way, so the sums are the same.
    @inline(__always)
    private static func sumParts(_ parts: [UnsafeBufferPointer<Float>], bucketCounts: [UnsafeBufferPointer<Float>],
                                 bucket: Double, scale: Double, into sums: UnsafeMutableBufferPointer<Double>) {
        sums.initialize(repeating: 0)
        for (k, part) in parts.enumerated() {
            if k < bucketCounts.count {
                let counts = bucketCounts[k]
                for i in 0..<sums.count { sums[i] += (Double(part[i]) + Double(counts[i]) * bucket) * scale }
            } else {
                for i in 0..<sums.count { sums[i] += (Double(part[i]) + 0) * scale }
            }
        }
    }

    /// One cell's total, when resets are looked for part by part (a bucket's count missing),
    /// and whether some part dropped by more than `tolerance` since the previous frame;
    /// `previous` keeps each part's total for the next frame.
    @inline(__always)
    private static func sumPartsOfCell(_ i: Int, _ parts: [UnsafeBufferPointer<Float>], bucketCounts: [UnsafeBufferPointer<Float>],
                                       bucket: Double, scale: Double, tolerance: Double,
                                       previous: inout [[Double]]) -> (total: Double, partReset: Bool) {
        var total = 0.0
        var partReset = false
        for (k, part) in parts.enumerated() {
            let count = k < bucketCounts.count ? Double(bucketCounts[k][i]) * bucket : 0
            let partTotal = (Double(part[i]) + count) * scale
            total += partTotal
            if partTotal < previous[k][i] - tolerance { partReset = true }
            previous[k][i] = partTotal
        }
        return (total, partReset)
    }

    /// The amount fallen in one cell's interval (NaN: unknown), by the rules at the top;
    /// moves the cell's `reference` on and counts a reset in `report`.
    @inline(__always)
    private static func interval(total: Double, reference: inout Double, isFirst: Bool, partReset: Bool,
                                 restartValueTrusted: Bool, settings s: AccumulationSettings,
                                 report: inout DeaccumulationReport) -> Double {
        let previous = reference
        if total.isNaN {
            reference = .nan
            return .nan
        } else if isFirst {
            reference = total
            return s.firstFrameIsSimulationStart ? 0 : .nan
        } else if previous.isNaN {
            reference = total
            return .nan
        } else if partReset {
            // One part restarted or tipped unseen while the others rose (only looked for
            // when a bucket's count is missing): unknown, see the top.
            report.resetCells += 1
            reference = total
            return .nan
        } else if total >= previous {
            reference = total
            return total - previous
        } else if previous - total <= s.resetTolerance {
            // Rounding: the reference stays at the higher total, so the next rise pays it back.
            return 0
        } else {
            report.resetCells += 1
            reference = total
            return restartValueTrusted && total >= 0 ? total : .nan
        }
    }
}

/// Calls `body` with buffer pointers to every array, valid for the duration of the call.
private func withBuffers<R>(_ arrays: [[Float]], _ body: ([UnsafeBufferPointer<Float>]) -> R) -> R {
    func recurse(_ index: Int, _ collected: [UnsafeBufferPointer<Float>]) -> R {
        if index == arrays.count { return body(collected) }
        return arrays[index].withUnsafeBufferPointer { recurse(index + 1, collected + [$0]) }
    }
    return recurse(0, [])
}

/// Snow depth per mm of water equivalent: 0.7 cm, the ratio the open-meteo API documents
/// for its `snowfall` ("for the water equivalent in millimeter, divide by 7"), so that our
/// snowfall matches what users of the open weather APIs compare it with. (The classic
/// 10:1 rule would give 1 cm per mm.)
@inlinable package var snowCentimetresPerWaterMillimetre: Float { 0.7 }

/// Snowfall in cm from its water equivalent in mm (e.g. de-accumulated SNOWNC).
@inlinable
package func snowfallCentimetres(waterEquivalentMillimetres: Float) -> Float {
    waterEquivalentMillimetres * snowCentimetresPerWaterMillimetre
}

/// Water equivalent in mm of a snowfall in cm.
@inlinable
package func snowWaterEquivalentMillimetres(snowfallCentimetres: Float) -> Float {
    snowfallCentimetres / snowCentimetresPerWaterMillimetre
}
