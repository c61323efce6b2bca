/// `SeriesCodec.encode`'s steps for one tile, each a pass over the tile's cells.
///
/// The scratch arrays are read out of the `TileScratch` once, into `let` pointers: a step
/// then works on plain pointers, and its loops vectorize as they would in one function
/// (every step is inlined into `encode`).
struct TileEncoder {
    let source: UnsafePointer<Int32>
    let cells: Int
    let steps: Int
    let intervals: Int
    private let deltas: UnsafeMutablePointer<Int64>
    private let bases: UnsafeMutablePointer<Int64>
    private let missingFlags: UnsafeMutablePointer<Bool>
    private let plainWidths: UnsafeMutablePointer<UInt8>
    private let residualWidths: UnsafeMutablePointer<UInt8>
    private let sums: UnsafeMutablePointer<Int64>
    private let common: UnsafeMutablePointer<Int64>
    private let filled: UnsafeMutablePointer<Int32>

    /// - Precondition: `scratch` has room for `cells` x `steps` (`TileScratch.reserve`).
    @inline(__always)
    init(source: UnsafePointer<Int32>, cells: Int, steps: Int, scratch: TileScratch) {
        self.source = source
        self.cells = cells
        self.steps = steps
        intervals = steps - 1
        deltas = scratch.deltas
        bases = scratch.bases
        missingFlags = scratch.missingFlags
        plainWidths = scratch.plainWidths
        residualWidths = scratch.residualWidths
        sums = scratch.sums
        common = scratch.common
        filled = scratch.filled
    }

    /// What the block will hold, decided from the widths before a byte is written, so the
    /// block is written in one allocation of its exact size.
    struct Layout {
        let commonMode: Bool
        let commonWidth: Int
        /// Deltas (or residuals) per cell: `commonMode`'s choice of the two width arrays.
        let widths: UnsafeMutablePointer<UInt8>
        let lowestBase: Int64
        let baseBytes: Int
        let offsetBytes: Int
        let size: Int
    }

    // MARK: Deltas and widths

    /// Every cell's deltas, first value and plain width. Wrapping arithmetic throughout:
    /// values are Int32, so deltas and the tile's sums of them fit Int64 with room to spare,
    /// and the loops vectorize.
    @inline(__always)
    func computeDeltas() {
        for cell in 0..<cells { computeDeltas(ofCell: cell) }
    }

    /// A missing value takes the previous valid value (delta 0) and is flagged in a bitmap.
    @inline(__always)
    private func computeDeltas(ofCell cell: Int) {
        let series = source + cell * steps
        let row = deltas + cell * intervals
        missingFlags[cell] = hasMissingValue(series)
        let values = missingFlags[cell] ? fillMissing(series) : series
        bases[cell] = Int64(values[0])
        var widest: UInt64 = 0
        for t in 0..<intervals {
            let delta = Int64(values[t &+ 1]) &- Int64(values[t])
            row[t] = delta
            widest |= SeriesCodec.zigzag(delta)
        }
        plainWidths[cell] = Self.bitWidth(widest)
    }

    /// The missing value is Int32.min: a cell has one when its lowest value is that (a min
    /// reduction vectorizes; a count of matches did not).
    @inline(__always)
    private func hasMissingValue(_ series: UnsafePointer<Int32>) -> Bool {
        var lowest = Int32.max
        var t = 0
        while t < steps {
            lowest = min(lowest, series[t])
            t &+= 1
        }
        return lowest == SeriesCodec.missing
    }

    /// The series with each missing value replaced by the valid value before it (the first
    /// valid value before the first one), in the scratch's `filled`.
    @inline(__always)
    private func fillMissing(_ series: UnsafePointer<Int32>) -> UnsafePointer<Int32> {
        let missing = SeriesCodec.missing
        var last: Int32 = 0
        for t in 0..<steps where series[t] != missing { last = series[t]; break }
        for t in 0..<steps {
            if series[t] != missing { last = series[t] }
            filled[t] = last
        }
        return UnsafePointer(filled)
    }

    /// The tile's mean delta per step (rounded half away from zero, summed in cell order, as
    /// the format defines it), and the width its zigzag values need.
    @inline(__always)
    func computeCommonDeltas() -> Int {
        for t in 0..<intervals { sums[t] = 0 }
        for cell in 0..<cells {
            let row = deltas + cell * intervals
            for t in 0..<intervals { sums[t] &+= row[t] }
        }
        var commonWidest: UInt64 = 0
        for t in 0..<intervals {
            common[t] = SeriesCodec.roundedMean(sums[t], cells: cells)
            commonWidest |= SeriesCodec.zigzag(common[t])
        }
        return Int(Self.bitWidth(commonWidest))
    }

    /// Each cell's width of its residuals from the common deltas.
    @inline(__always)
    func computeResidualWidths() {
        for cell in 0..<cells {
            let row = deltas + cell * intervals
            var widest: UInt64 = 0
            for t in 0..<intervals { widest |= SeriesCodec.zigzag(row[t] &- common[t]) }
            residualWidths[cell] = Self.bitWidth(widest)
        }
    }

    // MARK: Layout

    /// Chooses the mode by its size, computed from the widths alone (only that mode is
    /// packed), then sizes the cell table and the payload.
    @inline(__always)
    func layout(commonWidth: Int) -> Layout {
        let commonMode = commonModeIsSmaller(commonWidth: commonWidth)
        let widths = commonMode ? residualWidths : plainWidths
        var payloadSize = 0
        var lowestBase = Int64.max, highestBase = Int64.min
        for cell in 0..<cells {
            payloadSize += SeriesCodec.payloadLength(flags: flags(cell, widths), steps: steps)
            lowestBase = min(lowestBase, bases[cell])
            highestBase = max(highestBase, bases[cell])
        }
        let span = highestBase - lowestBase
        let baseBytes = span == 0 ? 0 : span <= 0xFF ? 1 : span <= 0xFFFF ? 2 : 4
        let offsetBytes = payloadSize <= 0xFFFF ? 2 : 4
        let headBytes = commonMode ? 1 + commonBytes(commonWidth: commonWidth) : 1
        let size = headBytes + 6 + cells * (1 + baseBytes + offsetBytes) + payloadSize
        return Layout(commonMode: commonMode, commonWidth: commonWidth, widths: widths, lowestBase: lowestBase,
                      baseBytes: baseBytes, offsetBytes: offsetBytes, size: size)
    }

    @inline(__always)
    private func commonModeIsSmaller(commonWidth: Int) -> Bool {
        var plainBytes = 0, residualBytes = 0
        for cell in 0..<cells {
            plainBytes += (intervals * Int(plainWidths[cell]) + 7) / 8
            residualBytes += (intervals * Int(residualWidths[cell]) + 7) / 8
        }
        return commonBytes(commonWidth: commonWidth) + residualBytes < plainBytes
    }

    /// The common deltas' bytes: their width byte and the packed values.
    @inline(__always)
    private func commonBytes(commonWidth: Int) -> Int { 1 + (intervals * commonWidth + 7) / 8 }

    /// A cell's byte in the widths table: its width, and bit 7 when it has missing values.
    @inline(__always)
    private func flags(_ cell: Int, _ widths: UnsafeMutablePointer<UInt8>) -> UInt8 {
        widths[cell] | (missingFlags[cell] ? 0x80 : 0)
    }

    // MARK: Writing

    /// The mode byte and, in common mode, the common deltas.
    @inline(__always)
    func writeHead(_ layout: Layout, to out: inout BytePacker) {
        out.byte(layout.commonMode ? 1 : 0)
        guard layout.commonMode else { return }
        out.byte(UInt8(layout.commonWidth))
        if layout.commonWidth > 0 {
            for t in 0..<intervals { out.bits(SeriesCodec.zigzag(common[t]), width: layout.commonWidth) }
            out.alignToByte()
        }
    }

    /// The smallest base, the byte sizes, then every cell's flags, base and payload offset.
    @inline(__always)
    func writeCellTable(_ layout: Layout, to out: inout BytePacker) {
        out.littleEndian(UInt64(UInt32(bitPattern: Int32(truncatingIfNeeded: layout.lowestBase))), bytes: 4)
        out.byte(UInt8(layout.baseBytes))
        out.byte(UInt8(layout.offsetBytes))
        for cell in 0..<cells { out.byte(flags(cell, layout.widths)) }
        for cell in 0..<cells { out.littleEndian(UInt64(bases[cell] - layout.lowestBase), bytes: layout.baseBytes) }
        var offset = 0
        for cell in 0..<cells {
            out.littleEndian(UInt64(offset), bytes: layout.offsetBytes)
            offset += SeriesCodec.payloadLength(flags: flags(cell, layout.widths), steps: steps)
        }
    }

    /// Each cell's packed deltas (or residuals), then its missing-value bitmap if it has one.
    @inline(__always)
    func writePayloads(_ layout: Layout, to out: inout BytePacker) {
        let common = self.common
        for cell in 0..<cells {
            let width = Int(layout.widths[cell])
            let row = deltas + cell * intervals
            if width > 0 {
                if layout.commonMode {
                    out.values(intervals, width: width) { SeriesCodec.zigzag(row[$0] &- common[$0]) }
                } else {
                    out.values(intervals, width: width) { SeriesCodec.zigzag(row[$0]) }
                }
                out.alignToByte()
            }
            if missingFlags[cell] {
                let series = source + cell * steps
                for t in 0..<steps { out.bits(series[t] == SeriesCodec.missing ? 1 : 0, width: 1) }
                out.alignToByte()
            }
        }
    }

    /// The bits a value of OR-ed zigzag numbers needs (0 for none).
    @inline(__always)
    private static func bitWidth(_ widest: UInt64) -> UInt8 { UInt8(64 - widest.leadingZeroBitCount) }
}
