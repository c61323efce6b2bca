/// The codec of one stored block: one variable over one tile of cells, every time step.
///
/// Built for point reads: any one cell's series decodes without decoding its neighbours.
/// Values are quantized integers (see `Quantizer`); each cell's series is stored as its first
/// value plus zigzag-encoded time deltas bit-packed at the smallest width that holds them
/// (frame-of-reference packing). Neighbouring cells share most of their change from hour to
/// hour (the diurnal cycle, a passing front), so in "common" mode the tile's mean delta series
/// is stored once and each cell keeps only its residual from it; the encoder keeps whichever
/// mode is smaller. A dry cell's precipitation packs to zero bits either way.
///
/// Block layout (all little-endian, see docs/STORE-FORMAT.md):
///
///     mode         UInt8             0: plain deltas; 1: common mode
///     common       (mode 1 only)     UInt8 width, then (steps-1) zigzag mean deltas x width bits, padded
///     baseMinimum  Int32             the smallest first value of the tile's cells
///     baseBytes    UInt8             0, 1, 2 or 4: bytes per cell for (first value - baseMinimum)
///     offsetBytes  UInt8             2 or 4: bytes per cell offset
///     widths       cells x UInt8     bits 0-6: width (0...64) of the cell's deltas (or residuals);
///                                    bit 7: the cell has missing values
///     bases        cells x baseBytes first value - baseMinimum
///     offsets      cells x offsetBytes where each cell's payload starts, from the payload's start
///     payload      per cell: (steps-1) values x width bits, LSB first, padded to a byte; then, if
///                  flagged, a missing-value bitmap of `steps` bits padded to a byte
///
/// Every field of a cell sits at a fixed place, so a point read decodes its cell in O(steps)
/// whatever the cell's position in the tile.
enum SeriesCodec {
    /// The quantized value that marks a missing (NaN) value.
    static let missing = Int32.min

    /// Encodes a tile: `values` holds each cell's `steps` quantized values, cell after cell.
    ///
    /// The bytes are fixed by the layout above: FormatTests holds golden blocks, a committed
    /// file that today's writer must reproduce, and a plain reference encoder this one must
    /// match on random tiles.
    static func encode(cells: Int, steps: Int, values: UnsafeBufferPointer<Int32>) -> [UInt8] {
        let scratch = TileScratch()
        return encode(cells: cells, steps: steps, values: values, scratch: scratch)
    }

    /// `encode(cells:steps:values:)` with working arrays reused from tile to tile: a domain
    /// has thousands of 8 x 8 tiles per variable, and a dozen allocations per tile were a
    /// good part of the extraction's encoding (one scratch per worker).
    static func encode(cells: Int, steps: Int, values: UnsafeBufferPointer<Int32>, scratch: TileScratch) -> [UInt8] {
        precondition(values.count >= cells * steps, "a tile's values: cells x steps")
        guard cells > 0, steps > 0, let source = values.baseAddress else {
            return encodeEmpty(cells: max(cells, 0), steps: steps)
        }
        let intervals = steps - 1
        scratch.reserve(cells: cells, steps: steps)
        let deltas = scratch.deltas, bases = scratch.bases, missingFlags = scratch.missingFlags
        let plainWidths = scratch.plainWidths, residualWidths = scratch.residualWidths
        let sums = scratch.sums, common = scratch.common, filled = scratch.filled
        // Deltas per cell; a missing value takes the previous valid value (delta 0) and is
        // flagged in a bitmap. Wrapping arithmetic throughout: values are Int32, so deltas
        // and the tile's sums of them fit Int64 with room to spare, and the loops vectorize.
        for cell in 0..<cells {
            let series = source + cell * steps
            let row = deltas + cell * intervals
            // The missing value is Int32.min: a cell has one when its lowest value is that
            // (a min reduction vectorizes; a count of matches did not).
            var lowest = Int32.max
            var t = 0
            while t < steps {
                lowest = min(lowest, series[t])
                t &+= 1
            }
            missingFlags[cell] = lowest == missing
            if missingFlags[cell] {
                var last: Int32 = 0
                for t in 0..<steps where series[t] != missing { last = series[t]; break }
                for t in 0..<steps {
                    if series[t] != missing { last = series[t] }
                    filled[t] = last
                }
            }
            let values = missingFlags[cell] ? UnsafePointer(filled) : series
            bases[cell] = Int64(values[0])
            var widest: UInt64 = 0
            for t in 0..<intervals {
                let delta = Int64(values[t &+ 1]) &- Int64(values[t])
                row[t] = delta
                widest |= zigzag(delta)
            }
            plainWidths[cell] = bitWidth(widest)
        }
        // The tile's mean delta per step (rounded half away from zero), summed in cell order.
        for t in 0..<intervals { sums[t] = 0 }
        for cell in 0..<cells {
            let row = deltas + cell * intervals
            for t in 0..<intervals { sums[t] &+= row[t] }
        }
        var commonWidest: UInt64 = 0
        for t in 0..<intervals {
            common[t] = roundedMean(sums[t], cells: cells)
            commonWidest |= zigzag(common[t])
        }
        let commonWidth = Int(bitWidth(commonWidest))
        for cell in 0..<cells {
            let row = deltas + cell * intervals
            var widest: UInt64 = 0
            for t in 0..<intervals { widest |= zigzag(row[t] &- common[t]) }
            residualWidths[cell] = bitWidth(widest)
        }
        // Choose the mode by its size, computed from the widths alone; pack only that one.
        var plainBytes = 0, residualBytes = 0
        for cell in 0..<cells {
            plainBytes += (intervals * Int(plainWidths[cell]) + 7) / 8
            residualBytes += (intervals * Int(residualWidths[cell]) + 7) / 8
        }
        let commonBytes = 1 + (intervals * commonWidth + 7) / 8
        let commonMode = commonBytes + residualBytes < plainBytes
        let widths = commonMode ? residualWidths : plainWidths

        // The cell table and the payload's size, then the block in one allocation.
        var payloadSize = 0
        var lowestBase = Int64.max, highestBase = Int64.min
        for cell in 0..<cells {
            payloadSize += payloadLength(flags: widths[cell] | (missingFlags[cell] ? 0x80 : 0), steps: steps)
            lowestBase = min(lowestBase, bases[cell])
            highestBase = max(highestBase, bases[cell])
        }
        let span = highestBase - lowestBase
        let baseBytes = span == 0 ? 0 : span <= 0xFF ? 1 : span <= 0xFFFF ? 2 : 4
        let offsetBytes = payloadSize <= 0xFFFF ? 2 : 4
        let headBytes = commonMode ? 1 + commonBytes : 1
        let size = headBytes + 6 + cells * (1 + baseBytes + offsetBytes) + payloadSize
        return [UInt8](unsafeUninitializedCapacity: size) { block, initialized in
            guard let start = block.baseAddress else { initialized = 0; return }
            var out = BytePacker(start)
            out.byte(commonMode ? 1 : 0)
            if commonMode {
                out.byte(UInt8(commonWidth))
                if commonWidth > 0 {
                    for t in 0..<intervals { out.bits(zigzag(common[t]), width: commonWidth) }
                    out.alignToByte()
                }
            }
            out.littleEndian(UInt64(UInt32(bitPattern: Int32(truncatingIfNeeded: lowestBase))), bytes: 4)
            out.byte(UInt8(baseBytes))
            out.byte(UInt8(offsetBytes))
            for cell in 0..<cells { out.byte(widths[cell] | (missingFlags[cell] ? 0x80 : 0)) }
            for cell in 0..<cells { out.littleEndian(UInt64(bases[cell] - lowestBase), bytes: baseBytes) }
            var offset = 0
            for cell in 0..<cells {
                out.littleEndian(UInt64(offset), bytes: offsetBytes)
                offset += payloadLength(flags: widths[cell] | (missingFlags[cell] ? 0x80 : 0), steps: steps)
            }
            for cell in 0..<cells {
                let width = Int(widths[cell])
                let row = deltas + cell * intervals
                if width > 0 {
                    if commonMode {
                        out.values(intervals, width: width) { zigzag(row[$0] &- common[$0]) }
                    } else {
                        out.values(intervals, width: width) { zigzag(row[$0]) }
                    }
                    out.alignToByte()
                }
                if missingFlags[cell] {
                    let series = source + cell * steps
                    for t in 0..<steps { out.bits(series[t] == missing ? 1 : 0, width: 1) }
                    out.alignToByte()
                }
            }
            initialized = out.written(since: start)
        }
    }

    /// A tile with no time steps (or no cells): the plain mode's empty table.
    private static func encodeEmpty(cells: Int, steps: Int) -> [UInt8] {
        var table = ByteWriter(capacity: 7 + cells * 3)
        table.append(UInt8(0))
        table.append(Int32(0))
        table.append(UInt8(0))
        table.append(UInt8(2))
        for _ in 0..<cells { table.append(UInt8(0)) }
        for _ in 0..<cells { table.append(UInt16(0)) }
        return table.bytes
    }

    /// The mean of `cells` deltas whose sum is `sum`, rounded half away from zero: the exact
    /// rational, in integers. (The format was defined with `(Double(sum) / Double(cells))
    /// .rounded()`, which is the same number while cells < 2^18: a sum of Int32 deltas is
    /// below 2^50, so the quotient's rounding error stays far below the 1 / (2 cells) that
    /// separates a quotient from the nearest half; the Double path stays for larger tiles.)
    @inline(__always)
    static func roundedMean(_ sum: Int64, cells: Int) -> Int64 {
        guard cells < 1 << 18, sum.magnitude < 1 << 50 else { return Int64((Double(sum) / Double(cells)).rounded()) }
        let count = Int64(cells)
        let quotient = sum / count, remainder = sum % count
        guard remainder.magnitude * 2 >= count.magnitude else { return quotient }
        return sum < 0 ? quotient - 1 : quotient + 1
    }

    /// The bits a value of OR-ed zigzag numbers needs (0 for none).
    @inline(__always)
    private static func bitWidth(_ widest: UInt64) -> UInt8 { UInt8(64 - widest.leadingZeroBitCount) }

    /// Decodes one cell of a block into `output`: its first `count` values (all `steps` when
    /// nil), `missing` where a value is missing. A point read that needs the first day of a
    /// three-day run stops there.
    ///
    /// - Returns: false when the block is too short or malformed for this cell.
    static func decode(block: UnsafeRawBufferPointer, cells: Int, steps: Int, cell: Int,
                       into output: UnsafeMutableBufferPointer<Int32>, count: Int? = nil) -> Bool {
        let wanted = min(count ?? steps, steps)
        guard cell >= 0, cell < cells, output.count >= wanted, block.count >= 1 else { return false }
        let mode = block[0]
        var start = 1
        var commonWidth = 0
        if mode == 1 {
            guard block.count >= 2 else { return false }
            commonWidth = Int(block[1])
            guard commonWidth <= 64 else { return false }
            start = 2 + (commonWidth == 0 ? 0 : (max(steps - 1, 0) * commonWidth + 7) / 8)
        } else if mode != 0 {
            return false
        }
        // The cell table: minimum base, byte widths, then per-cell widths, bases and offsets.
        guard block.count >= start + 6 else { return false }
        var header = ByteReader(block, offset: start)
        guard let minimum = header.read(Int32.self), let baseBytes = header.read(UInt8.self),
              let offsetBytes = header.read(UInt8.self), [0, 1, 2, 4].contains(baseBytes),
              offsetBytes == 2 || offsetBytes == 4 else { return false }
        let widthsStart = start + 6
        let basesStart = widthsStart + cells
        let offsetsStart = basesStart + cells * Int(baseBytes)
        let payloadStart = offsetsStart + cells * Int(offsetBytes)
        guard block.count >= payloadStart else { return false }
        // Invariant for the unchecked reads below: cell < cells and payloadStart <= block.count,
        // so the cell's flags byte (widthsStart + cell), base (basesStart + cell x baseBytes) and
        // payload offset (offsetsStart + cell x offsetBytes) all lie before payloadStart. The
        // payload itself is checked against block.count before it is read, and the bit readers
        // read zeros past the end instead of reading outside the block.
        let flags = block[widthsStart + cell]
        let base = Int64(minimum) + Int64(littleEndian(block, at: basesStart + cell * Int(baseBytes), bytes: Int(baseBytes)))
        let offset = payloadStart + Int(littleEndian(block, at: offsetsStart + cell * Int(offsetBytes), bytes: Int(offsetBytes)))
        let width = Int(flags & 0x7F)
        guard width <= 64, offset <= block.count, payloadLength(flags: flags, steps: steps) <= block.count - offset,
              base >= Int64(Int32.min), base <= Int64(Int32.max) else { return false }
        var value = base
        if wanted > 0 { output[0] = Int32(truncatingIfNeeded: value) }
        var commonBits = BitReader(block, byteOffset: 2)
        var bits = BitReader(block, byteOffset: offset)
        // One loop per mode: the point path decodes ~1,400 values per forecast, so branches
        // per value matter. Values are checked against Int32 once, after the loop (a sum of
        // at most 2^16 deltas of at most 2^33 cannot overflow Int64 on the way).
        var lowest = value, highest = value
        var t = 1
        // Fast path, for every cell but those whose payload ends within 8 bytes of the block's
        // end: when every 64-bit load the loop makes lies inside the block, the values are read
        // straight from memory with no per-value bounds test. The last value read starts at bit
        // (wanted - 2) x width of its area (the first value is the base), and a load takes 8 bytes.
        let lastDelta = max(wanted - 2, 0)
        if wanted > 1, width <= 56, commonWidth <= 56, let memory = block.baseAddress,
           offset + (lastDelta * width) >> 3 + 8 <= block.count, 2 + (lastDelta * commonWidth) >> 3 + 8 <= block.count {
            let mask = (UInt64(1) &<< UInt64(width)) &- 1, commonMask = (UInt64(1) &<< UInt64(commonWidth)) &- 1
            var bit = offset &* 8, commonBit = 16
            @inline(__always) func load(_ bit: Int, _ mask: UInt64) -> UInt64 {
                let word = UInt64(littleEndian: memory.loadUnaligned(fromByteOffset: bit &>> 3, as: UInt64.self))
                return (word &>> UInt64(bit & 7)) & mask
            }
            // When no sum of the deltas read can leave Int32 (each zigzag value of w bits is at
            // most 2^(w-1) in size), the loops need not track the lowest and highest value: the
            // check after the loop holds by construction. A 24 h read of a real tile always
            // qualifies; the tracked loops stay for any other block (and give the same answer).
            var bounded = false
            if width <= 32, commonWidth <= 32, wanted < 1 << 16 {
                let largest = (width == 0 ? 0 : Int64(1) << Int64(width - 1))
                    + (commonWidth == 0 ? 0 : Int64(1) << Int64(commonWidth - 1))
                let spread = Int64(wanted - 1) * largest   // < 2^16 x 2^32: no overflow
                bounded = value - spread >= Int64(Int32.min) && value + spread <= Int64(Int32.max)
            }
            if commonWidth == 0 && width == 0 {
                while t < wanted { output[t] = Int32(truncatingIfNeeded: value); t &+= 1 }
            } else if bounded, let target = output.baseAddress {
                // Int32 arithmetic is exact here (see `bounded`); wrapping ops keep it branch-free.
                var current = Int32(truncatingIfNeeded: value)
                if commonWidth == 0 {
                    while t < wanted {
                        current &+= Int32(truncatingIfNeeded: unzigzag(load(bit, mask)))
                        bit &+= width
                        target[t] = current
                        t &+= 1
                    }
                } else {
                    while t < wanted {
                        // A zero width gives a zero mask: nothing added.
                        current &+= Int32(truncatingIfNeeded: unzigzag(load(commonBit, commonMask)))
                            &+ Int32(truncatingIfNeeded: unzigzag(load(bit, mask)))
                        commonBit &+= commonWidth
                        bit &+= width
                        target[t] = current
                        t &+= 1
                    }
                }
            } else if commonWidth == 0 {
                while t < wanted {
                    value &+= unzigzag(load(bit, mask))
                    bit &+= width
                    lowest = min(lowest, value)
                    highest = max(highest, value)
                    output[t] = Int32(truncatingIfNeeded: value)
                    t &+= 1
                }
            } else {
                while t < wanted {
                    value &+= unzigzag(load(commonBit, commonMask))
                    commonBit &+= commonWidth
                    // A zero width gives a zero mask: nothing added.
                    value &+= unzigzag(load(bit, mask))
                    bit &+= width
                    lowest = min(lowest, value)
                    highest = max(highest, value)
                    output[t] = Int32(truncatingIfNeeded: value)
                    t &+= 1
                }
            }
        } else if commonWidth == 0 && width == 0 {
            while t < wanted { output[t] = Int32(truncatingIfNeeded: value); t &+= 1 }
        } else if commonWidth == 0 {
            while t < wanted {
                value &+= unzigzag(bits.read(width: width))
                lowest = min(lowest, value)
                highest = max(highest, value)
                output[t] = Int32(truncatingIfNeeded: value)
                t &+= 1
            }
        } else {
            while t < wanted {
                value &+= unzigzag(commonBits.read(width: commonWidth))
                if width > 0 { value &+= unzigzag(bits.read(width: width)) }
                lowest = min(lowest, value)
                highest = max(highest, value)
                output[t] = Int32(truncatingIfNeeded: value)
                t &+= 1
            }
        }
        guard lowest >= Int64(Int32.min), highest <= Int64(Int32.max), steps < 1 << 16 else { return false }
        if flags & 0x80 != 0 {
            let bitmapStart = offset + (width > 0 ? ((steps - 1) * width + 7) / 8 : 0)
            var bitmap = BitReader(block, byteOffset: bitmapStart)
            for t in 0..<wanted where bitmap.read(width: 1) == 1 { output[t] = missing }
        }
        return true
    }

    /// Where a cell's packed values start in a block and how many bytes the first `count` of
    /// them take, or nil when the block is too short or malformed for the cell. For prefetch
    /// hints: `decode` checks everything again.
    static func cellPayload(block: UnsafeRawBufferPointer, cells: Int, steps: Int, cell: Int, count: Int) -> (offset: Int, length: Int)? {
        guard cell >= 0, cell < cells, block.count >= 2 else { return nil }
        var start = 1
        if block[0] == 1 {
            let commonWidth = Int(block[1])
            guard commonWidth <= 64 else { return nil }
            start = 2 + (commonWidth == 0 ? 0 : (max(steps - 1, 0) * commonWidth + 7) / 8)
        } else if block[0] != 0 {
            return nil
        }
        guard block.count >= start + 6 else { return nil }
        let baseBytes = Int(block[start + 4]), offsetBytes = Int(block[start + 5])
        guard baseBytes <= 4, offsetBytes == 2 || offsetBytes == 4 else { return nil }
        let widthsStart = start + 6
        let offsetsStart = widthsStart + cells * (1 + baseBytes)
        let payloadStart = offsetsStart + cells * offsetBytes
        guard block.count >= payloadStart else { return nil }
        let offset = payloadStart + Int(littleEndian(block, at: offsetsStart + cell * offsetBytes, bytes: offsetBytes))
        let width = Int(block[widthsStart + cell] & 0x7F)
        guard offset < block.count else { return nil }
        return (offset, min((max(min(count, steps) - 1, 0) * width + 7) / 8, block.count - offset))
    }

    /// A little-endian unsigned number of 0, 1, 2 or 4 bytes (the caller checked the range).
    @inline(__always)
    private static func littleEndian(_ block: UnsafeRawBufferPointer, at position: Int, bytes: Int) -> UInt32 {
        var value: UInt32 = 0
        for k in 0..<bytes { value |= UInt32(block[position + k]) << UInt32(8 * k) }
        return value
    }

    /// The bytes a cell's payload takes, from its flags byte.
    @inline(__always)
    static func payloadLength(flags: UInt8, steps: Int) -> Int {
        let width = Int(flags & 0x7F)
        let deltas = width == 0 ? 0 : (max(steps - 1, 0) * width + 7) / 8
        return deltas + (flags & 0x80 != 0 ? (steps + 7) / 8 : 0)
    }

    @inline(__always) static func zigzag(_ value: Int64) -> UInt64 { UInt64(bitPattern: (value << 1) ^ (value >> 63)) }
    @inline(__always) static func unzigzag(_ value: UInt64) -> Int64 { Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1) }
}

/// Working arrays of `SeriesCodec.encode`, reused from tile to tile by one worker (not
/// shared between threads).
final class TileScratch {
    private(set) var deltas = UnsafeMutablePointer<Int64>.allocate(capacity: 1)
    private(set) var bases = UnsafeMutablePointer<Int64>.allocate(capacity: 1)
    private(set) var missingFlags = UnsafeMutablePointer<Bool>.allocate(capacity: 1)
    private(set) var plainWidths = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
    private(set) var residualWidths = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
    private(set) var sums = UnsafeMutablePointer<Int64>.allocate(capacity: 1)
    private(set) var common = UnsafeMutablePointer<Int64>.allocate(capacity: 1)
    private(set) var filled = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
    private var cells = 1, steps = 1

    /// Room for a tile of `cells` cells and `steps` steps (every array is written before it
    /// is read, so none is initialised here).
    func reserve(cells: Int, steps: Int) {
        if cells > self.cells || steps > self.steps {
            release()
            self.cells = max(cells, self.cells)
            self.steps = max(steps, self.steps)
            deltas = .allocate(capacity: self.cells * self.steps)
            bases = .allocate(capacity: self.cells)
            missingFlags = .allocate(capacity: self.cells)
            plainWidths = .allocate(capacity: self.cells)
            residualWidths = .allocate(capacity: self.cells)
            sums = .allocate(capacity: self.steps)
            common = .allocate(capacity: self.steps)
            filled = .allocate(capacity: self.steps)
        }
    }

    private func release() {
        deltas.deallocate(); bases.deallocate(); missingFlags.deallocate(); plainWidths.deallocate()
        residualWidths.deallocate(); sums.deallocate(); common.deallocate(); filled.deallocate()
    }

    deinit { release() }
}

/// Writes a block front to back into memory its caller sized: bytes, little-endian numbers,
/// and values of a given bit width packed least significant bit first (whole 64-bit words at
/// a time), padded to a byte by `alignToByte`.
struct BytePacker {
    private var next: UnsafeMutablePointer<UInt8>
    private var accumulator: UInt64 = 0
    private var filled = 0

    init(_ start: UnsafeMutablePointer<UInt8>) { next = start }

    @inline(__always)
    mutating func byte(_ value: UInt8) {
        next.pointee = value
        next += 1
    }

    /// The low `count` bytes of a number, least significant first.
    @inline(__always)
    mutating func littleEndian(_ value: UInt64, bytes count: Int) {
        for k in 0..<count { byte(UInt8(truncatingIfNeeded: value >> UInt64(8 * k))) }
    }

    @inline(__always)
    mutating func bits(_ value: UInt64, width: Int) {
        guard width > 0 else { return }
        let masked = width >= 64 ? value : value & ((1 << UInt64(width)) &- 1)
        accumulator |= masked << UInt64(filled)   // filled < 64 always holds here
        let total = filled + width
        if total < 64 {
            filled = total
            return
        }
        UnsafeMutableRawPointer(next).storeBytes(of: accumulator.littleEndian, as: UInt64.self)
        next += 8
        // The bits of `masked` that did not fit in the word just written.
        filled = total - 64
        accumulator = filled == 0 ? 0 : masked >> UInt64(width - filled)
    }

    /// `bits(value(t), width:)` for t in 0..<count, values that fit `width` bits: four or two
    /// narrow values are joined into one before they are appended (the same bits, LSB first),
    /// so the accumulator's steps, which depend on each other, are fewer.
    @inline(__always)
    mutating func values(_ count: Int, width: Int, _ value: (Int) -> UInt64) {
        var t = 0
        if width <= 14 {
            while t &+ 3 < count {
                bits(value(t) | value(t &+ 1) << UInt64(width) | value(t &+ 2) << UInt64(2 &* width) | value(t &+ 3) << UInt64(3 &* width),
                     width: 4 &* width)
                t &+= 4
            }
        } else if width <= 28 {
            while t &+ 1 < count {
                bits(value(t) | value(t &+ 1) << UInt64(width), width: 2 &* width)
                t &+= 2
            }
        }
        while t < count {
            bits(value(t), width: width)
            t &+= 1
        }
    }

    mutating func alignToByte() {
        while filled > 0 {
            byte(UInt8(truncatingIfNeeded: accumulator))
            accumulator >>= 8
            filled = max(filled - 8, 0)
        }
        accumulator = 0
    }

    func written(since start: UnsafeMutablePointer<UInt8>) -> Int { next - start }
}

/// Reads values packed by `BytePacker`. The caller has checked that the packed range lies
/// inside the buffer; reads past its end yield zero bits rather than touching memory outside.
struct BitReader {
    let bytes: UnsafeRawBufferPointer
    var bitOffset: Int

    init(_ bytes: UnsafeRawBufferPointer, byteOffset: Int) {
        self.bytes = bytes
        self.bitOffset = byteOffset * 8
    }

    @inline(__always)
    mutating func read(width: Int) -> UInt64 {
        let byteIndex = bitOffset &>> 3
        let shift = bitOffset & 7
        // Fast path: one unaligned 64-bit load holds the whole value (widths up to 56 bits,
        // which is every width a 32-bit series produces).
        if width <= 56 && byteIndex &+ 8 <= bytes.count {
            let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: byteIndex, as: UInt64.self))
            bitOffset &+= width
            return (word &>> UInt64(shift)) & ((1 &<< UInt64(width)) &- 1)
        }
        return readSlowly(width: width)
    }

    /// Byte by byte, for wide values and the last bytes of the buffer.
    private mutating func readSlowly(width: Int) -> UInt64 {
        var result: UInt64 = 0
        var got = 0
        while got < width {
            let byteIndex = bitOffset >> 3
            let shift = bitOffset & 7
            let byte = byteIndex < bytes.count ? UInt64(bytes[byteIndex]) : 0
            let take = min(width - got, 8 - shift)
            result |= ((byte >> UInt64(shift)) & ((1 << UInt64(take)) - 1)) << UInt64(got)
            got += take
            bitOffset += take
        }
        return result
    }
}
