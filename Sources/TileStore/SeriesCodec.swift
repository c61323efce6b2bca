import CSeriesDecode

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
        scratch.reserve(cells: cells, steps: steps)
        let tile = TileEncoder(source: source, cells: cells, steps: steps, scratch: scratch)
        tile.computeDeltas()
        let commonWidth = tile.computeCommonDeltas()
        tile.computeResidualWidths()
        let layout = tile.layout(commonWidth: commonWidth)
        return [UInt8](unsafeUninitializedCapacity: layout.size) { block, initialized in
            guard let start = block.baseAddress else { initialized = 0; return }
            var out = BytePacker(start)
            tile.writeHead(layout, to: &out)
            tile.writeCellTable(layout, to: &out)
            tile.writePayloads(layout, to: &out)
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

    /// Decodes one cell of a block into `output`: its first `count` values (all `steps` when
    /// nil), `missing` where a value is missing. A point read that needs the first day of a
    /// three-day run stops there.
    ///
    /// - Returns: false when the block is too short or malformed for this cell.
    static func decode(block: UnsafeRawBufferPointer, cells: Int, steps: Int, cell: Int,
                       into output: UnsafeMutableBufferPointer<Int32>, count: Int? = nil) -> Bool {
        let wanted = min(count ?? steps, steps)
        guard cell >= 0, cell < cells, output.count >= wanted, let head = BlockHead(block, steps: steps),
              let entry = CellEntry(block, head: head, cells: cells, steps: steps, cell: cell) else { return false }
        if wanted > 0 { output[0] = Int32(truncatingIfNeeded: entry.base) }
        // Values are checked against Int32 once, after the deltas are added up (a sum of at
        // most 2^16 deltas of at most 2^33 cannot overflow Int64 on the way).
        let range = addDeltas(block, head: head, entry: entry, wanted: wanted, into: output)
        guard range.lowest >= Int64(Int32.min), range.highest <= Int64(Int32.max), steps < 1 << 16 else { return false }
        if entry.hasMissingValues { markMissing(block, entry: entry, steps: steps, wanted: wanted, in: output) }
        return true
    }

    /// Two or four cells of one block decoded in one pass and scaled (`Float(q) x step`, as
    /// `Quantizer.value` does) into `lanes.outputs`, their first `count` values each. A point
    /// read's four corner cells share a block about three times in four (8 x 8 tiles), and so
    /// share its head and, in common mode, the tile's mean deltas, read here once a step for
    /// all of them instead of once a cell (the decode was a third of a forecast's work).
    ///
    /// Only for the usual case: every cell's packed values inside the block's fast loads, no
    /// missing values, sums that stay in Int32. Otherwise (and for a malformed block) it
    /// returns false having written nothing the caller relies on, and the caller decodes the
    /// cells one by one, which checks and reports everything; the values are the same either way.
    ///
    /// - Parameter vectorized: whether to run the AVX2 loop (`tilecast_decode4`), on CPUs that
    ///   have it; the tests run both loops.
    static func decodeScaled(block: UnsafeRawBufferPointer, cells: Int, steps: Int, lanes: Lanes, step: Float, count: Int,
                             vectorized: Bool = hasVectorDecode) -> Bool {
        let wanted = min(count, steps)
        guard wanted > 1, let memory = block.baseAddress, let head = BlockHead(block, steps: steps),
              2 + ((wanted - 2) * head.commonWidth) >> 3 + 8 <= block.count else { return false }
        guard let table = CellTable(block, head: head, cells: cells) else { return false }
        let entries = (Self.entry(block, head, table, cells, steps, lanes.cells.0, wanted),
                       Self.entry(block, head, table, cells, steps, lanes.cells.1, wanted),
                       lanes.count == 4 ? Self.entry(block, head, table, cells, steps, lanes.cells.2, wanted) : nil,
                       lanes.count == 4 ? Self.entry(block, head, table, cells, steps, lanes.cells.3, wanted) : nil)
        // With two cells the last two lanes repeat the first two (`Lanes`).
        guard let e0 = entries.0, let e1 = entries.1,
              let e2 = lanes.count == 4 ? entries.2 : e0, let e3 = lanes.count == 4 ? entries.3 : e1 else { return false }
        let o = lanes.outputs
        if vectorized && Self.hasVectorDecode {
            // The repeated lanes of two cells write the same values to the same place again.
            var vector = tilecast_decode_lanes(
                bit: (Int64(e0.offset &* 8), Int64(e1.offset &* 8), Int64(e2.offset &* 8), Int64(e3.offset &* 8)),
                width: (Int64(e0.width), Int64(e1.width), Int64(e2.width), Int64(e3.width)),
                mask: (e0.mask, e1.mask, e2.mask, e3.mask),
                base: (e0.base, e1.base, e2.base, e3.base),
                output: (o.0, o.1, o.2, o.3))
            tilecast_decode4(memory.assumingMemoryBound(to: UInt8.self), &vector, Int64(head.commonWidth), step, Int64(wanted))
            return true
        }
        let commonMask = (UInt64(1) &<< UInt64(head.commonWidth)) &- 1, commonWidth = head.commonWidth
        var commonBit = 16, t = 1
        var bit0 = e0.offset &* 8, bit1 = e1.offset &* 8
        var current0 = Int32(truncatingIfNeeded: e0.base), current1 = Int32(truncatingIfNeeded: e1.base)
        o.0[0] = Float(current0) * step
        o.1[0] = Float(current1) * step
        if lanes.count == 4 {
            var bit2 = e2.offset &* 8, bit3 = e3.offset &* 8
            var current2 = Int32(truncatingIfNeeded: e2.base), current3 = Int32(truncatingIfNeeded: e3.base)
            o.2[0] = Float(current2) * step
            o.3[0] = Float(current3) * step
            while t < wanted {
                // A zero width gives a zero mask: nothing added (plain mode, or a flat cell).
                let common = Int32(truncatingIfNeeded: unzigzag(load(memory, commonBit, commonMask)))
                current0 &+= common &+ Int32(truncatingIfNeeded: unzigzag(load(memory, bit0, e0.mask)))
                current1 &+= common &+ Int32(truncatingIfNeeded: unzigzag(load(memory, bit1, e1.mask)))
                current2 &+= common &+ Int32(truncatingIfNeeded: unzigzag(load(memory, bit2, e2.mask)))
                current3 &+= common &+ Int32(truncatingIfNeeded: unzigzag(load(memory, bit3, e3.mask)))
                o.0[t] = Float(current0) * step
                o.1[t] = Float(current1) * step
                o.2[t] = Float(current2) * step
                o.3[t] = Float(current3) * step
                commonBit &+= commonWidth
                bit0 &+= e0.width
                bit1 &+= e1.width
                bit2 &+= e2.width
                bit3 &+= e3.width
                t &+= 1
            }
        } else {
            while t < wanted {
                let common = Int32(truncatingIfNeeded: unzigzag(load(memory, commonBit, commonMask)))
                current0 &+= common &+ Int32(truncatingIfNeeded: unzigzag(load(memory, bit0, e0.mask)))
                current1 &+= common &+ Int32(truncatingIfNeeded: unzigzag(load(memory, bit1, e1.mask)))
                o.0[t] = Float(current0) * step
                o.1[t] = Float(current1) * step
                commonBit &+= commonWidth
                bit0 &+= e0.width
                bit1 &+= e1.width
                t &+= 1
            }
        }
        return true
    }

    /// Whether this CPU runs `decodeScaled`'s AVX2 loop (asked once).
    static let hasVectorDecode = tilecast_decode4_available() != 0

    /// The cells and outputs of `decodeScaled`: `count` (2 or 4) lanes; with 2, the last two
    /// of each tuple repeat the first two (the vector loop runs four lanes).
    struct Lanes {
        let count: Int
        let cells: (Int, Int, Int, Int)
        let outputs: (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>)
    }

    /// A cell's entry for `decodeScaled`: nil unless the cell is present, has no missing
    /// values, its loads stay inside the block and its sums in Int32.
    private struct FastEntry {
        let base: Int64
        let offset: Int
        let width: Int
        let mask: UInt64
    }

    @inline(__always)
    private static func entry(_ block: UnsafeRawBufferPointer, _ head: BlockHead, _ table: CellTable, _ cells: Int, _ steps: Int,
                              _ cell: Int, _ wanted: Int) -> FastEntry? {
        guard cell >= 0, cell < cells, let entry = CellEntry(block, table: table, steps: steps, cell: cell),
              !entry.hasMissingValues, entry.offset + ((wanted - 2) * entry.width) >> 3 + 8 <= block.count,
              // (Also bounds both widths to 32 bits, well inside one load's 56.)
              staysInInt32(entry.base, width: entry.width, commonWidth: head.commonWidth, wanted: wanted) else { return nil }
        return FastEntry(base: entry.base, offset: entry.offset, width: entry.width, mask: (UInt64(1) &<< UInt64(entry.width)) &- 1)
    }

    /// What comes before a block's cell table: the mode, and in common mode the width of the
    /// tile's mean deltas (stored from byte 2), which sets where the table starts.
    private struct BlockHead {
        /// 0 in plain mode.
        let commonWidth: Int
        let tableStart: Int

        /// nil when the block is empty, names an unknown mode or an impossible width.
        @inline(__always)
        init?(_ block: UnsafeRawBufferPointer, steps: Int) {
            guard block.count >= 1 else { return nil }
            switch block[0] {
            case 0:
                commonWidth = 0
                tableStart = 1
            case 1:
                guard block.count >= 2, block[1] <= 64 else { return nil }
                commonWidth = Int(block[1])
                tableStart = 2 + (commonWidth == 0 ? 0 : (max(steps - 1, 0) * commonWidth + 7) / 8)
            default:
                return nil
            }
        }
    }

    /// Where the parts of a block's cell table lie, checked against the block: read once per
    /// block, then each cell's row is three reads at known places.
    private struct CellTable {
        let minimum: Int64
        let baseBytes: Int
        let offsetBytes: Int
        let widthsStart: Int
        let basesStart: Int
        let offsetsStart: Int
        let payloadStart: Int

        /// nil when the table does not fit the block or names impossible sizes.
        @inline(__always)
        init?(_ block: UnsafeRawBufferPointer, head: BlockHead, cells: Int) {
            // Read in place (a point read parses a table per block it decodes or prefetches).
            let start = head.tableStart
            guard block.count >= start + 6 else { return nil }
            let baseBytes = block[start + 4], offsetBytes = block[start + 5]
            guard baseBytes <= 4, baseBytes != 3,   // 0, 1, 2 or 4
                  offsetBytes == 2 || offsetBytes == 4 else { return nil }
            self.minimum = Int64(Int32(littleEndian: block.loadUnaligned(fromByteOffset: start, as: Int32.self)))
            self.baseBytes = Int(baseBytes)
            self.offsetBytes = Int(offsetBytes)
            widthsStart = head.tableStart + 6
            basesStart = widthsStart + cells
            offsetsStart = basesStart + cells * Int(baseBytes)
            payloadStart = offsetsStart + cells * Int(offsetBytes)
            guard block.count >= payloadStart else { return nil }
        }
    }

    /// One cell's row of the cell table, checked against the block: its flags, first value
    /// and where its payload starts.
    private struct CellEntry {
        let flags: UInt8
        let base: Int64
        /// From the block's start.
        let offset: Int
        let width: Int

        var hasMissingValues: Bool { flags & 0x80 != 0 }

        /// nil when the table or the cell's payload does not fit the block, or the first value
        /// does not fit Int32.
        @inline(__always)
        init?(_ block: UnsafeRawBufferPointer, head: BlockHead, cells: Int, steps: Int, cell: Int) {
            guard let table = CellTable(block, head: head, cells: cells) else { return nil }
            self.init(block, table: table, steps: steps, cell: cell)
        }

        /// `cell` must be below the table's cell count.
        @inline(__always)
        init?(_ block: UnsafeRawBufferPointer, table: CellTable, steps: Int, cell: Int) {
            // Invariant for the unchecked reads below: cell < cells and payloadStart <= block.count,
            // so the cell's flags byte (widthsStart + cell), base (basesStart + cell x baseBytes) and
            // payload offset (offsetsStart + cell x offsetBytes) all lie before payloadStart. The
            // payload itself is checked against block.count before it is read, and the bit readers
            // read zeros past the end instead of reading outside the block.
            flags = block[table.widthsStart + cell]
            base = table.minimum + Int64(SeriesCodec.littleEndian(block, at: table.basesStart + cell * table.baseBytes, bytes: table.baseBytes))
            offset = table.payloadStart
                + Int(SeriesCodec.littleEndian(block, at: table.offsetsStart + cell * table.offsetBytes, bytes: table.offsetBytes))
            width = Int(flags & 0x7F)
            guard width <= 64, offset <= block.count, SeriesCodec.payloadLength(flags: flags, steps: steps) <= block.count - offset,
                  base >= Int64(Int32.min), base <= Int64(Int32.max) else { return nil }
        }
    }

    /// Adds the cell's deltas (and the common ones) to its first value into `output[1..<wanted]`.
    ///
    /// - Returns: the lowest and highest value reached, for the caller's Int32 check.
    @inline(__always)
    private static func addDeltas(_ block: UnsafeRawBufferPointer, head: BlockHead, entry: CellEntry, wanted: Int,
                                  into output: UnsafeMutableBufferPointer<Int32>) -> (lowest: Int64, highest: Int64) {
        let width = entry.width, commonWidth = head.commonWidth
        // Fast path, for every cell but those whose payload ends within 8 bytes of the block's
        // end: when every 64-bit load the loop makes lies inside the block, the values are read
        // straight from memory with no per-value bounds test. The last value read starts at bit
        // (wanted - 2) x width of its area (the first value is the base), and a load takes 8 bytes.
        let lastDelta = max(wanted - 2, 0)
        if wanted > 1, width <= 56, commonWidth <= 56, let memory = block.baseAddress,
           entry.offset + (lastDelta * width) >> 3 + 8 <= block.count, 2 + (lastDelta * commonWidth) >> 3 + 8 <= block.count {
            return addDeltas(memory, entry: entry, commonWidth: commonWidth, wanted: wanted, into: output)
        }
        return addDeltasChecked(block, entry: entry, commonWidth: commonWidth, wanted: wanted, into: output)
    }

    /// `addDeltas` reading straight from memory (the caller checked every load lies in the block).
    @inline(__always)
    private static func addDeltas(_ memory: UnsafeRawPointer, entry: CellEntry, commonWidth: Int, wanted: Int,
                                  into output: UnsafeMutableBufferPointer<Int32>) -> (lowest: Int64, highest: Int64) {
        let base = entry.base
        if commonWidth == 0 && entry.width == 0 {
            repeatFirst(base, wanted: wanted, into: output)
        } else if staysInInt32(base, width: entry.width, commonWidth: commonWidth, wanted: wanted),
                  let target = output.baseAddress {
            addDeltasInInt32(memory, entry: entry, commonWidth: commonWidth, wanted: wanted, into: target)
        } else {
            return addDeltasTracked(memory, entry: entry, commonWidth: commonWidth, wanted: wanted, into: output)
        }
        return (base, base)
    }

    /// Whether no sum of the deltas read can leave Int32 (each zigzag value of w bits is at
    /// most 2^(w-1) in size): then the loops need not track the lowest and highest value, the
    /// check after them holds by construction. A 24 h read of a real tile always qualifies;
    /// the tracked loops stay for any other block (and give the same answer).
    @inline(__always)
    private static func staysInInt32(_ base: Int64, width: Int, commonWidth: Int, wanted: Int) -> Bool {
        guard width <= 32, commonWidth <= 32, wanted < 1 << 16 else { return false }
        let largest = (width == 0 ? 0 : Int64(1) << Int64(width - 1))
            + (commonWidth == 0 ? 0 : Int64(1) << Int64(commonWidth - 1))
        let spread = Int64(wanted - 1) * largest   // < 2^16 x 2^32: no overflow
        return base - spread >= Int64(Int32.min) && base + spread <= Int64(Int32.max)
    }

    /// A cell whose deltas are all zero (no payload bits in either mode).
    @inline(__always)
    private static func repeatFirst(_ base: Int64, wanted: Int, into output: UnsafeMutableBufferPointer<Int32>) {
        var t = 1
        while t < wanted { output[t] = Int32(truncatingIfNeeded: base); t &+= 1 }
    }

    /// The unchecked loops: Int32 arithmetic is exact here (see `staysInInt32`); wrapping ops
    /// keep it branch-free. One loop per mode: the point path decodes ~1,400 values per
    /// forecast, so branches per value matter.
    @inline(__always)
    private static func addDeltasInInt32(_ memory: UnsafeRawPointer, entry: CellEntry, commonWidth: Int, wanted: Int,
                                         into target: UnsafeMutablePointer<Int32>) {
        let width = entry.width
        let mask = (UInt64(1) &<< UInt64(width)) &- 1, commonMask = (UInt64(1) &<< UInt64(commonWidth)) &- 1
        var bit = entry.offset &* 8, commonBit = 16
        var current = Int32(truncatingIfNeeded: entry.base)
        var t = 1
        if commonWidth == 0 {
            while t < wanted {
                current &+= Int32(truncatingIfNeeded: unzigzag(load(memory, bit, mask)))
                bit &+= width
                target[t] = current
                t &+= 1
            }
        } else {
            while t < wanted {
                // A zero width gives a zero mask: nothing added.
                current &+= Int32(truncatingIfNeeded: unzigzag(load(memory, commonBit, commonMask)))
                    &+ Int32(truncatingIfNeeded: unzigzag(load(memory, bit, mask)))
                commonBit &+= commonWidth
                bit &+= width
                target[t] = current
                t &+= 1
            }
        }
    }

    /// The loops from memory that track the lowest and highest value, for blocks whose sums
    /// might leave Int32.
    @inline(__always)
    private static func addDeltasTracked(_ memory: UnsafeRawPointer, entry: CellEntry, commonWidth: Int, wanted: Int,
                                         into output: UnsafeMutableBufferPointer<Int32>) -> (lowest: Int64, highest: Int64) {
        let width = entry.width
        let mask = (UInt64(1) &<< UInt64(width)) &- 1, commonMask = (UInt64(1) &<< UInt64(commonWidth)) &- 1
        var bit = entry.offset &* 8, commonBit = 16
        var value = entry.base, lowest = value, highest = value
        var t = 1
        if commonWidth == 0 {
            while t < wanted {
                value &+= unzigzag(load(memory, bit, mask))
                bit &+= width
                lowest = min(lowest, value)
                highest = max(highest, value)
                output[t] = Int32(truncatingIfNeeded: value)
                t &+= 1
            }
        } else {
            while t < wanted {
                value &+= unzigzag(load(memory, commonBit, commonMask))
                commonBit &+= commonWidth
                // A zero width gives a zero mask: nothing added.
                value &+= unzigzag(load(memory, bit, mask))
                bit &+= width
                lowest = min(lowest, value)
                highest = max(highest, value)
                output[t] = Int32(truncatingIfNeeded: value)
                t &+= 1
            }
        }
        return (lowest, highest)
    }

    /// `addDeltas` through bit readers that test every read against the block's end, for a
    /// payload that ends within 8 bytes of it (or values wider than 56 bits).
    private static func addDeltasChecked(_ block: UnsafeRawBufferPointer, entry: CellEntry, commonWidth: Int, wanted: Int,
                                         into output: UnsafeMutableBufferPointer<Int32>) -> (lowest: Int64, highest: Int64) {
        let width = entry.width
        var commonBits = BitReader(block, byteOffset: 2)
        var bits = BitReader(block, byteOffset: entry.offset)
        var value = entry.base, lowest = value, highest = value
        var t = 1
        if commonWidth == 0 && width == 0 {
            repeatFirst(value, wanted: wanted, into: output)
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
        return (lowest, highest)
    }

    /// The bits under `mask` from bit `bit` of `memory` on, with one unaligned 64-bit load.
    @inline(__always)
    private static func load(_ memory: UnsafeRawPointer, _ bit: Int, _ mask: UInt64) -> UInt64 {
        let word = UInt64(littleEndian: memory.loadUnaligned(fromByteOffset: bit &>> 3, as: UInt64.self))
        return (word &>> UInt64(bit & 7)) & mask
    }

    /// Sets `missing` where the cell's bitmap, after its packed values, flags a value.
    private static func markMissing(_ block: UnsafeRawBufferPointer, entry: CellEntry, steps: Int, wanted: Int,
                                    in output: UnsafeMutableBufferPointer<Int32>) {
        let bitmapStart = entry.offset + (entry.width > 0 ? ((steps - 1) * entry.width + 7) / 8 : 0)
        var bitmap = BitReader(block, byteOffset: bitmapStart)
        for t in 0..<wanted where bitmap.read(width: 1) == 1 { output[t] = missing }
    }

    /// Where a cell's packed values start in a block and how many bytes the first `count` of
    /// them take, or nil when the block is too short or malformed for the cell. For prefetch
    /// hints: `decode` checks everything again.
    static func cellPayload(block: UnsafeRawBufferPointer, cells: Int, steps: Int, cell: Int, count: Int) -> (offset: Int, length: Int)? {
        guard cell >= 0, cell < cells, let head = BlockHead(block, steps: steps),
              let table = CellTable(block, head: head, cells: cells) else { return nil }
        let offset = table.payloadStart
            + Int(littleEndian(block, at: table.offsetsStart + cell * table.offsetBytes, bytes: table.offsetBytes))
        let width = Int(block[table.widthsStart + cell] & 0x7F)
        guard offset < block.count else { return nil }
        return (offset, min((max(min(count, steps) - 1, 0) * width + 7) / 8, block.count - offset))
    }

    /// A little-endian unsigned number of 0, 1, 2 or 4 bytes (the caller checked the range).
    @inline(__always)
    private static func littleEndian(_ block: UnsafeRawBufferPointer, at position: Int, bytes: Int) -> UInt32 {
        switch bytes {
        case 0: return 0
        case 1: return UInt32(block[position])
        case 2: return UInt32(UInt16(littleEndian: block.loadUnaligned(fromByteOffset: position, as: UInt16.self)))
        case 4: return UInt32(littleEndian: block.loadUnaligned(fromByteOffset: position, as: UInt32.self))
        default:
            var value: UInt32 = 0
            for k in 0..<bytes { value |= UInt32(block[position + k]) << UInt32(8 * k) }
            return value
        }
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
