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

    /// Encodes a tile. `series(cell)` gives the quantized values of one cell, `steps` long.
    ///
    /// Flat arrays, cell-major, one of each per tile (per-cell arrays cost the extraction's
    /// encoding much of its time in malloc and copies). The bytes are fixed by the layout
    /// above: FormatTests holds golden blocks and a committed file that today's writer must
    /// reproduce.
    static func encode(cells: Int, steps: Int, series: (Int) -> UnsafeBufferPointer<Int32>) -> [UInt8] {
        let intervals = max(steps - 1, 0)
        // Missing values take the previous valid value (delta 0) and are flagged in a bitmap.
        var filled = [Int32](repeating: 0, count: cells * steps)
        var missingFlags = [Bool](repeating: false, count: cells)
        // deltas[cell * intervals + t] = filled[t + 1] - filled[t] of the cell.
        var deltas = [Int64](repeating: 0, count: cells * intervals)
        filled.withUnsafeMutableBufferPointer { filled in
            deltas.withUnsafeMutableBufferPointer { deltas in
                for cell in 0..<cells {
                    let values = series(cell)
                    var last: Int32 = values.first { $0 != missing } ?? 0
                    let row = cell * steps
                    for t in 0..<steps {
                        if values[t] == missing { missingFlags[cell] = true } else { last = values[t] }
                        filled[row + t] = last
                    }
                    let out = cell * intervals
                    for t in 0..<intervals { deltas[out + t] = Int64(filled[row + t + 1]) - Int64(filled[row + t]) }
                }
            }
        }
        // The tile's mean delta per step (rounded), from the cells' own deltas, summed in cell order.
        var sums = [Int64](repeating: 0, count: intervals)
        for cell in 0..<cells {
            let row = cell * intervals
            for t in 0..<intervals { sums[t] = sums[t] &+ deltas[row + t] }
        }
        let common: [Int64] = sums.map { sum in cells > 0 ? Int64((Double(sum) / Double(cells)).rounded()) : 0 }
        var residuals = deltas
        for cell in 0..<cells {
            let row = cell * intervals
            for t in 0..<intervals { residuals[row + t] = residuals[row + t] &- common[t] }
        }
        // Choose the mode by its size, computed from the widths alone; pack only that one.
        let plainWidths = widths(of: deltas, cells: cells, intervals: intervals)
        let residualWidths = widths(of: residuals, cells: cells, intervals: intervals)
        let commonWidth = width(of: common[...])
        let packed = { (widths: [Int]) in widths.reduce(0) { $0 + ($1 == 0 ? 0 : (intervals * $1 + 7) / 8) } }
        let commonBytes = 1 + (commonWidth == 0 ? 0 : (intervals * commonWidth + 7) / 8)
        if commonBytes + packed(residualWidths) < packed(plainWidths) {
            var block: [UInt8] = [1, UInt8(commonWidth)]
            if commonWidth > 0 {
                var commonBits = BitWriter(capacity: commonBytes)
                for value in common { commonBits.append(zigzag(value), width: commonWidth) }
                commonBits.alignToByte()
                block += commonBits.bytes
            }
            return body(after: block, cells: cells, steps: steps, deltas: residuals, widths: residualWidths, filled: filled,
                        missingFlags: missingFlags, series: series)
        }
        return body(after: [0], cells: cells, steps: steps, deltas: deltas, widths: plainWidths, filled: filled,
                    missingFlags: missingFlags, series: series)
    }

    /// `head` followed by the cell table (bases, widths, offsets) and payload of a tile whose
    /// per-cell values to pack are `deltas` (flat, `steps - 1` per cell).
    private static func body(after head: [UInt8], cells: Int, steps: Int, deltas: [Int64], widths cellWidths: [Int], filled: [Int32],
                             missingFlags: [Bool], series: (Int) -> UnsafeBufferPointer<Int32>) -> [UInt8] {
        let intervals = max(steps - 1, 0)
        var size = 0
        for cell in 0..<cells {
            size += payloadLength(flags: UInt8(cellWidths[cell]) | (missingFlags[cell] ? 0x80 : 0), steps: steps)
        }
        var payload = BitWriter(capacity: size)
        var offsets: [Int] = []
        offsets.reserveCapacity(cells)
        for cell in 0..<cells {
            offsets.append(payload.bytes.count)
            let cellWidth = cellWidths[cell]
            if cellWidth > 0 {
                let row = cell * intervals
                for t in 0..<intervals { payload.append(zigzag(deltas[row + t]), width: cellWidth) }
                payload.alignToByte()
            }
            if missingFlags[cell] {
                let values = series(cell)
                for t in 0..<steps { payload.append(values[t] == missing ? 1 : 0, width: 1) }
                payload.alignToByte()
            }
        }
        let bases = (0..<cells).map { steps > 0 ? Int64(filled[$0 * steps]) : 0 }
        let minimum = bases.min() ?? 0
        let span = (bases.max() ?? 0) - minimum
        let baseBytes = span == 0 ? 0 : span <= 0xFF ? 1 : span <= 0xFFFF ? 2 : 4
        let offsetBytes = payload.bytes.count <= 0xFFFF ? 2 : 4
        var table = ByteWriter(capacity: head.count + 6 + cells * (1 + baseBytes + offsetBytes) + payload.bytes.count)
        table.append(head)
        table.append(Int32(truncatingIfNeeded: minimum))
        table.append(UInt8(baseBytes))
        table.append(UInt8(offsetBytes))
        for cell in 0..<cells { table.append(UInt8(cellWidths[cell]) | (missingFlags[cell] ? 0x80 : 0)) }
        for base in bases { table.appendLittleEndian(UInt64(base - minimum), bytes: baseBytes) }
        for offset in offsets { table.appendLittleEndian(UInt64(offset), bytes: offsetBytes) }
        table.append(payload.bytes)
        return table.bytes
    }

    /// The smallest width that holds every zigzag-encoded value.
    private static func width(of values: ArraySlice<Int64>) -> Int {
        let widest = values.reduce(UInt64(0)) { $0 | zigzag($1) }
        return widest == 0 ? 0 : 64 - widest.leadingZeroBitCount
    }

    /// `width(of:)` of each cell's `intervals` values in a flat cell-major array.
    private static func widths(of values: [Int64], cells: Int, intervals: Int) -> [Int] {
        (0..<cells).map { cell in width(of: values[(cell * intervals)..<((cell + 1) * intervals)]) }
    }

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

/// Packs values of a given bit width, least significant bit first.
struct BitWriter {
    private(set) var bytes: [UInt8] = []
    private var accumulator: UInt64 = 0
    private var filled = 0

    init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    @inline(__always)
    mutating func append(_ value: UInt64, width: Int) {
        guard width > 0 else { return }
        let masked = width == 64 ? value : value & ((1 << UInt64(width)) &- 1)
        accumulator |= masked << UInt64(filled)   // filled < 64 always holds here
        let total = filled + width
        if total < 64 {
            filled = total
            return
        }
        flushWord()
        // The bits of `masked` that did not fit in the word just written.
        filled = total - 64
        accumulator = filled == 0 ? 0 : masked >> UInt64(width - filled)
    }

    mutating func alignToByte() {
        while filled > 0 {
            bytes.append(UInt8(truncatingIfNeeded: accumulator))
            accumulator >>= 8
            filled = max(filled - 8, 0)
        }
        accumulator = 0
    }

    @inline(__always)
    private mutating func flushWord() {
        // Eight bytes in one append (a byte at a time was a tenth of the extraction's encoding).
        withUnsafeBytes(of: accumulator.littleEndian) { bytes.append(contentsOf: $0) }
        accumulator = 0
    }
}

/// Reads values packed by `BitWriter`. The caller has checked that the packed range lies
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
