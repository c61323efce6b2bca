import Catalog
import Foundation
import Synchronization

/// Writes one domain file: takes frames one at a time (quantizing as they come, so it never
/// holds raw fields), then encodes tiles on all cores and writes the file in one pass.
///
/// The quantized values (one Int32 per cell, time and variable) are kept in memory while they
/// fit `memoryLimit` (a 150 x 130 domain with 73 frames and 14 variables takes about 80 MB);
/// beyond it each variable's frames go to a scratch file beside the output, so that peak memory
/// does not grow with the number of frames (a 1000 x 1000 domain of 181 frames would need 10 GB).
/// Encoding then reads one band of tiles at a time, whichever way the values were kept.
///
/// Bands of disjoint cells may be added from several threads at once (`add(frame:time:cells:)`),
/// hence `@unchecked Sendable`: they write disjoint parts of owned memory, and the one count
/// they share is behind a mutex. Everything else is called from one thread.
package final class DomainFileWriter: @unchecked Sendable {
    /// Quantized values a writer keeps in memory before it spills them to scratch files.
    package static let defaultMemoryLimit = 256 << 20

    package let path: String
    private var metadata: DomainFileMetadata
    private let variables: [ForecastVariable]
    private let quantizers: [Quantizer]
    /// Per variable, quantized values laid out [time][cell].
    private let rows: [QuantizedRows]
    /// Per running-total variable, the total so far per cell (Double: exact sums), for values
    /// that spill (in memory, `finish` adds them up); empty for the others.
    private let totals: [UnsafeMutableBufferPointer<Double>]
    /// Frames added through `add(frame:)`, and cells added per time (bands included).
    private var framesAdded = 0
    private let cellsAdded: Mutex<[Int]>
    private let cells: Int

    /// Prepares a writer for `variables` of the domain `metadata` describes.
    ///
    /// - Parameter memoryLimit: bytes of quantized values kept in memory; above it they are
    ///   spilled to scratch files named after `path` (removed when the file is finished).
    /// - Throws: `StoreError.io` when a scratch file cannot be created.
    package init(path: String, metadata: DomainFileMetadata, variables: [ForecastVariable],
                memoryLimit: Int = DomainFileWriter.defaultMemoryLimit) throws(StoreError) {
        self.path = path
        self.metadata = metadata
        self.variables = variables.sorted()
        quantizers = self.variables.map(Quantizer.init)
        let cells = metadata.westEast * metadata.southNorth
        self.cells = cells
        let steps = metadata.times.count
        cellsAdded = Mutex([Int](repeating: 0, count: steps))
        let timeVarying = self.variables.filter { !$0.isStatic }.count
        let (bytes, overflow) = cells.multipliedReportingOverflow(by: steps * timeVarying * 4)
        let spill = overflow || bytes > memoryLimit
        var rows: [QuantizedRows] = []
        for variable in self.variables {
            if spill && !variable.isStatic {
                rows.append(try ScratchRows(path: path + "." + variable.rawValue + ".scratch", rowLength: cells))
            } else {
                rows.append(MemoryRows(rowLength: cells, rowCount: variable.isStatic ? 1 : steps))
            }
        }
        self.rows = rows
        totals = self.variables.map { variable in
            guard variable.isAccumulation else { return UnsafeMutableBufferPointer(start: nil, count: 0) }
            let total = UnsafeMutableBufferPointer<Double>.allocate(capacity: cells)
            total.initialize(repeating: 0)
            return total
        }
    }

    /// The stored variables' names, in the file's order.
    package var variableNames: [String] { variables.map(\.rawValue) }

    /// Whether values go to scratch files (for tests and the summary).
    package var spills: Bool { rows.contains { $0 is ScratchRows } }

    /// Adds the next frame (frames must come in the order of `metadata.times`).
    ///
    /// - Throws: `StoreError.badRequest` for a frame beyond the times, or a field of the wrong size.
    package func add(frame: [ForecastVariable: [Float]]) throws(StoreError) {
        try add(frame: frame, time: framesAdded, cells: 0..<cells)
        framesAdded += 1
    }

    /// Adds time `t`'s values of the cells `band` (a band of whole rows: fields hold
    /// `band.count` values). Bands of disjoint cells may be added from several threads at
    /// once; each band's frames must come in time order (running totals add up in it). Only a
    /// writer whose values stay in memory takes bands (`spills` is false).
    ///
    /// - Throws: `StoreError.badRequest` for a time beyond the times, cells outside the
    ///   domain, or a field of the wrong size.
    package func add(frame: [ForecastVariable: [Float]], time t: Int, cells band: Range<Int>) throws(StoreError) {
        guard t >= 0, t < metadata.times.count else {
            throw StoreError.badRequest("\(path): more frames than the \(metadata.times.count) times declared")
        }
        guard band.lowerBound >= 0, band.upperBound <= cells, band.count == cells || !spills else {
            throw StoreError.badRequest("\(path): cells \(band) of \(cells) (bands only while values stay in memory)")
        }
        let cells = band.count
        for (index, variable) in variables.enumerated() {
            if variable.isStatic && t > 0 { continue }
            // A declared variable must come with every frame: a gap here would be stored as an
            // all-missing series, silently.
            guard let field = frame[variable] else {
                throw StoreError.badRequest("\(path): frame \(t) lacks \(variable.rawValue), which the file declares")
            }
            guard field.count == cells else {
                throw StoreError.badRequest("\(path): \(variable.rawValue) has \(field.count) values for \(cells) cells")
            }
            let quantizer = quantizers[index]
            let inMemory = rows[index] is MemoryRows
            // Quantized straight into the row's storage; unsafe buffers: one bounds check per
            // field, not per value, on the extraction's hot path.
            let fill = { (stored: UnsafeMutableBufferPointer<Int32>) in
                field.withUnsafeBufferPointer { input in
                    if variable.isAccumulation {
                        // The amount itself, its bits. In memory `finish` adds the running totals
                        // up in time order, so frames may come in any order (parts of a run's
                        // frames are read side by side); spilled frames come in order and are
                        // added up here, by the same loop.
                        for cell in 0..<cells { stored[cell] = Int32(bitPattern: input[cell].bitPattern) }
                        if !inMemory, let row = stored.baseAddress,
                           let total = UnsafeMutableBufferPointer(rebasing: self.totals[index][band]).baseAddress {
                            quantizer.addToRunningTotals(row, totals: total, count: cells)
                        }
                    } else {
                        quantizer.quantize(UnsafeBufferPointer(rebasing: input[0..<cells]), into: stored)
                    }
                }
            }
            if band.count == self.cells && t == rows[index].rowsWritten {
                try rows[index].appendRow(fill)
            } else {
                try rows[index].write(row: variable.isStatic ? 0 : t, cells: band, fill)
            }
        }
        cellsAdded.withLock { $0[t] += cells }
    }

    /// Encodes and writes the file, then flushes it to disk (fsync).
    ///
    /// - Returns: the number of bytes written.
    /// - Throws: `StoreError.io` naming the file, errno kept (disk full, permissions, ...).
    @discardableResult
    package func finish() throws(StoreError) -> Int {
        defer { for rows in rows { rows.discard() } }
        let steps = metadata.times.count
        let added = cellsAdded.withLock { $0 }
        guard added.allSatisfy({ $0 == cells }) else {
            throw StoreError.badRequest("\(path): \(added.filter { $0 == cells }.count) frames added for \(steps) times")
        }
        let file = try OutputFile(path: path)
        var offset = UInt64(DomainFileFormat.headerSize)
        var header = ByteWriter()
        header.append(DomainFileFormat.magic)
        header.append(DomainFileFormat.version)
        header.append(UInt32(0))
        try file.write(header.bytes)

        let tileCount = metadata.tileCount
        let stored = variables.enumerated().map { variableIndex, variable in
            DomainFileMetadata.StoredVariable(name: variable.rawValue, unit: variable.unit, step: quantizers[variableIndex].step,
                                              runningTotal: variable.isAccumulation, steps: variable.isStatic ? 1 : steps,
                                              firstBlock: variableIndex * tileCount)
        }
        // The index lists blocks by (variable, tile), as `firstBlock` says; the blocks themselves
        // lie tile by tile, each tile's blocks side by side (issue 30): first those of the
        // variables a default forecast reads (`ForecastVariable.readByDefault`), then the others,
        // each part in metadata order. A point forecast reads one tile's blocks of many
        // variables: adjacent, they are one range of the file, so a remote reader fetches them
        // in one request and a local one touches neighbouring pages. Entries are filled as
        // blocks are written, then the index is written after the blocks.
        let tileOrder = Self.tileOrder(variables)
        var entries = [BlockEntry](repeating: BlockEntry(offset: 0, length: 0, crc: 0), count: variables.count * tileCount)
        // Bands of tiles (one variable, one row of tiles) encoded side by side on the cores,
        // each worker gathering the values, encoding and checksumming the tiles; then each row of
        // tiles is written, tile after tile, in one write. While values stay in memory, every
        // band of every variable in one pass (a pass per variable left cores idle at each
        // variable's end, and a write per tile made the end of an extraction a stream of small
        // system calls); when they spill, one row of tiles (every variable's band) at a time, so
        // that what is held stays a row's encoded blocks (the values each worker gathers are
        // freed once its band is encoded).
        let bandsDown = metadata.tilesDown
        let jobs = (0..<bandsDown).flatMap { band in variables.indices.map { (variableIndex: $0, band: band) } }
        let group = spills ? max(variables.count, 1) : max(jobs.count, 1)
        var first = 0
        while first < jobs.count {
            let slice = first..<min(first + group, jobs.count)
            let encoded: [Result<EncodedBand, StoreError>] = concurrentMap(slice.count) { k in
                let job = jobs[slice.lowerBound + k]
                do throws(StoreError) {
                    return .success(try self.encodeBand(job.band, variableIndex: job.variableIndex))
                } catch { return .failure(error) }
            }
            var bands: [EncodedBand] = []
            bands.reserveCapacity(encoded.count)
            for band in encoded { bands.append(try band.get()) }
            // A group holds whole rows of tiles (jobs come row by row, every variable's band of
            // a row together, and a group is a multiple of the variables).
            var rowStart = 0
            while rowStart < bands.count {
                let job = jobs[slice.lowerBound + rowStart]
                let row = bands[rowStart..<(rowStart + variables.count)]
                var bytes: [UInt8] = []
                bytes.reserveCapacity(row.reduce(0) { $0 + $1.bytes.count })
                for tileX in 0..<metadata.tilesAcross {
                    for variableIndex in tileOrder {
                        let band = row[row.startIndex + variableIndex]
                        let block = band.blocks[tileX]
                        entries[variableIndex * tileCount + job.band * metadata.tilesAcross + tileX] =
                            BlockEntry(offset: offset, length: UInt32(block.length), crc: block.crc)
                        bytes.append(contentsOf: band.bytes[block.start..<(block.start + block.length)])
                        offset += UInt64(block.length)
                    }
                }
                try file.write(bytes)
                rowStart += variables.count
            }
            first = slice.upperBound
        }
        var index = ByteWriter(capacity: entries.count * DomainFileFormat.indexEntrySize)
        for entry in entries {
            index.append(entry.offset)
            index.append(entry.length)
            index.append(entry.crc)
        }
        metadata.variables = stored
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let metadataBytes: [UInt8]
        do { metadataBytes = Array(try encoder.encode(metadata)) } catch {
            throw StoreError.writeFailed(path: path, detail: "metadata: \(error)")
        }
        let trailer = Trailer(indexOffset: offset, indexLength: UInt64(index.bytes.count),
                              metadataOffset: offset + UInt64(index.bytes.count), metadataLength: UInt64(metadataBytes.count),
                              indexCRC: checksum(index.bytes), metadataCRC: checksum(metadataBytes),
                              version: DomainFileFormat.version)
        try file.write(index.bytes)
        try file.write(metadataBytes)
        try file.write(trailer.bytes)
        try file.syncAndClose()
        return Int(trailer.metadataOffset + trailer.metadataLength) + DomainFileFormat.trailerSize
    }

    /// The order of a tile's blocks, as positions in `variables` (metadata order): the
    /// variables a default forecast reads first, then the rest (docs/STORE-FORMAT.md, "Block
    /// order").
    package static func tileOrder(_ variables: [ForecastVariable]) -> [Int] {
        let first = Set(ForecastVariable.readByDefault)
        return variables.indices.filter { first.contains(variables[$0]) } + variables.indices.filter { !first.contains(variables[$0]) }
    }

    /// Encodes the tiles of one band (a row of tiles) of one variable (`finish` runs bands side
    /// by side). A running total kept in memory as amounts is added up here first, for the
    /// band's own cells (a cell's total depends on its own amounts only).
    private func encodeBand(_ band: Int, variableIndex: Int) throws(StoreError) -> EncodedBand {
        let meta = metadata
        let variable = variables[variableIndex]
        let steps = variable.isStatic ? 1 : meta.times.count
        let y0 = band * meta.tileHeight
        let height = min(meta.tileHeight, meta.southNorth - y0)
        let bandCells = (y0 * meta.westEast)..<((y0 + height) * meta.westEast)
        if variable.isAccumulation, let memory = rows[variableIndex] as? MemoryRows {
            try memory.addRunningTotals(rows: steps, cells: bandCells, quantizer: quantizers[variableIndex])
        }
        let scratch = TileScratch()
        // One tile's series, cell after cell (reused).
        let series = UnsafeMutablePointer<Int32>.allocate(capacity: max(meta.tileWidth * height * steps, 1))
        defer { series.deallocate() }
        var encoded = EncodedBand()
        // [time][cell of the band], read in place where the values are in memory.
        try rows[variableIndex].withRows(start: bandCells.lowerBound, count: bandCells.count, rows: steps) { source, stride in
            for tileX in 0..<meta.tilesAcross {
                let x0 = tileX * meta.tileWidth
                let width = min(meta.tileWidth, meta.westEast - x0)
                // Gather each cell's series contiguously.
                for y in 0..<height {
                    for x in 0..<width {
                        let from = source + (y * meta.westEast + x0 + x)
                        let to = series + (y * width + x) * steps
                        for t in 0..<steps { to[t] = from[t * stride] }
                    }
                }
                let block = SeriesCodec.encode(cells: width * height, steps: steps,
                                               values: UnsafeBufferPointer(start: series, count: width * height * steps), scratch: scratch)
                encoded.blocks.append((encoded.bytes.count, block.count, checksum(block)))
                encoded.bytes.append(contentsOf: block)
            }
        }
        return encoded
    }

    deinit {
        for rows in rows { rows.discard() }
        for total in totals { total.deallocate() }
    }
}

/// Where a writer keeps quantized frames: rows of `rowLength` values, appended in time order.
protocol QuantizedRows: AnyObject {
    /// Appends the next row, written by `fill` into the row's `rowLength` values.
    func appendRow(_ fill: (UnsafeMutableBufferPointer<Int32>) -> Void) throws(StoreError)
    /// Writes the values `cells` of row `row` (any row, from any thread for disjoint cells),
    /// by `fill` into that many values. Memory rows only.
    func write(row: Int, cells: Range<Int>, _ fill: (UnsafeMutableBufferPointer<Int32>) -> Void) throws(StoreError)
    /// Rows appended so far.
    var rowsWritten: Int { get }
    /// Calls `body` with values `start..<start+count` of rows `0..<rows`: row r's first value
    /// at `values + r * stride` (in place in memory; read back from a scratch file).
    func withRows<R>(start: Int, count: Int, rows: Int, _ body: (_ values: UnsafePointer<Int32>, _ stride: Int) -> R) throws(StoreError) -> R
    /// Frees what the rows hold (scratch files are removed).
    func discard()
}

/// Rows in memory: one allocation, owned, so that bands of cells can be written from several
/// threads (a Swift array written from two threads would be two accesses to one variable).
final class MemoryRows: QuantizedRows {
    private var values: UnsafeMutableBufferPointer<Int32>
    private let rowLength: Int
    private(set) var rowsWritten = 0

    init(rowLength: Int, rowCount: Int) {
        self.rowLength = rowLength
        // Not filled here: every value is written before it is read (`finish` refuses a file
        // unless each time had every cell added once), and filling tens of MB would cost the extraction's start, on
        // one core, what the bands' first writes take on all of them.
        values = .allocate(capacity: rowLength * rowCount)
    }

    func appendRow(_ fill: (UnsafeMutableBufferPointer<Int32>) -> Void) throws(StoreError) {
        try write(row: rowsWritten, cells: 0..<rowLength, fill)
        rowsWritten += 1
    }

    func write(row: Int, cells: Range<Int>, _ fill: (UnsafeMutableBufferPointer<Int32>) -> Void) throws(StoreError) {
        let start = row * rowLength + cells.lowerBound
        guard row >= 0, cells.lowerBound >= 0, cells.upperBound <= rowLength, start + cells.count <= values.count else {
            throw .badRequest("row \(row) cells \(cells) outside the rows declared")
        }
        fill(UnsafeMutableBufferPointer(rebasing: values[start..<(start + cells.count)]))
    }

    /// Turns the values `cells` of rows of amounts (each value a Float's bits, as
    /// `DomainFileWriter.add` keeps a running-total variable) into running totals quantized by
    /// `quantizer`, added in row (time) order (`Quantizer.addToRunningTotals`, as the spilled
    /// values are). Disjoint cells may be turned from several threads at once, each cell once.
    func addRunningTotals(rows: Int, cells: Range<Int>, quantizer: Quantizer) throws(StoreError) {
        guard let base = values.baseAddress, cells.lowerBound >= 0, cells.upperBound <= rowLength, rows * rowLength <= values.count else {
            throw .badRequest("running totals of cells \(cells) outside the rows kept")
        }
        let totals = UnsafeMutableBufferPointer<Double>.allocate(capacity: cells.count)
        defer { totals.deallocate() }
        totals.initialize(repeating: 0)
        guard let totalsBase = totals.baseAddress else { return }
        for r in 0..<rows {
            quantizer.addToRunningTotals(base + r * rowLength + cells.lowerBound, totals: totalsBase, count: cells.count)
        }
    }

    func withRows<R>(start: Int, count: Int, rows: Int, _ body: (UnsafePointer<Int32>, Int) -> R) throws(StoreError) -> R {
        guard start >= 0, count >= 0, rows >= 0, let base = values.baseAddress,
              rows == 0 || (rows - 1) * rowLength + start + count <= values.count else {
            throw .badRequest("values \(start)..<\(start + count) of \(rows) rows outside the rows kept")
        }
        return body(base + start, rowLength)
    }

    func discard() {
        values.deallocate()
        values = UnsafeMutableBufferPointer(start: nil, count: 0)
    }

    deinit { values.deallocate() }
}

/// Rows in a scratch file beside the output (in the cycle's staging folder, so a killed
/// extraction's scratch goes with the folder).
final class ScratchRows: QuantizedRows {
    private let output: OutputFile
    private let path: String
    private let rowLength: Int
    private var discarded = false
    /// One row, filled and then written (reused).
    private var row: [Int32]

    init(path: String, rowLength: Int) throws(StoreError) {
        self.path = path
        self.rowLength = rowLength
        row = [Int32](repeating: SeriesCodec.missing, count: rowLength)
        output = try OutputFile(path: path, readable: true)
    }

    private(set) var rowsWritten = 0

    func write(row: Int, cells: Range<Int>, _ fill: (UnsafeMutableBufferPointer<Int32>) -> Void) throws(StoreError) {
        throw .badRequest("\(path): scratch rows are appended whole, in order")
    }

    func appendRow(_ fill: (UnsafeMutableBufferPointer<Int32>) -> Void) throws(StoreError) {
        rowsWritten += 1
        row.withUnsafeMutableBufferPointer { fill($0) }
        let failure: StoreError? = row.withUnsafeBytes { bytes in
            do throws(StoreError) { try output.write(bytes); return nil } catch { return error }
        }
        if let failure { throw failure }
    }

    func withRows<R>(start: Int, count: Int, rows: Int, _ body: (UnsafePointer<Int32>, Int) -> R) throws(StoreError) -> R {
        let values = UnsafeMutablePointer<Int32>.allocate(capacity: max(count * rows, 1))
        defer { values.deallocate() }
        let size = MemoryLayout<Int32>.size
        for r in 0..<rows {
            let got = output.read(into: values + r * count, count: count * size, at: (r * rowLength + start) * size)
            if got != count * size { throw .io(path, "read back", got < 0 ? errno : EIO) }
        }
        return body(values, count)
    }

    func discard() {
        guard !discarded else { return }
        discarded = true
        unlink(path)
    }
}


/// One band's tiles, encoded: their bytes back to back, and each block's place in them, length
/// and CRC-32.
private struct EncodedBand {
    var bytes: [UInt8] = []
    var blocks: [(start: Int, length: Int, crc: UInt32)] = []
}
