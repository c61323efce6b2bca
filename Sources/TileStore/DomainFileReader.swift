import Catalog
import CPrefetch
import Foundation
import Synchronization

/// Reads one domain file: checks its frame (magic, version, trailer, index and metadata
/// checksums, bounds, metadata sanity) on open, and each data block's checksum when it is read
/// from the file. Blocks are read with `pread` into a bounded cache (`BlockCache`), never
/// mapped, so a file that shrinks under a reader is an error, never a SIGBUS.
///
/// Thread-safe: the source is read with positional reads; cached blocks are shared without a
/// lock (see `BlockCache`).
package final class DomainFileReader: Sendable {
    /// Bytes of verified blocks a reader keeps by default (a whole store file is a few MB).
    package static let defaultCacheBudget = 64 << 20

    package let path: String
    package let metadata: DomainFileMetadata
    private let source: any ByteSource
    /// Where the bytes come from (a file, memory, an object store's ranged reads).
    package var byteSource: any ByteSource { source }
    private let index: [BlockEntry]
    private let cache: BlockCache
    /// Where the data area starts in the file (the cache keeps blocks at their offset from it).
    private let dataStart: Int
    /// The stored variables by catalog order, for constant-time lookup on the point path.
    private let storedByVariable: [DomainFileMetadata.StoredVariable?]
    /// The same, without the names: a copy holds no references, so the point path takes one
    /// per series read without retaining anything.
    private let layouts: [SeriesLayout?]

    /// Opens and checks a domain file.
    ///
    /// - Throws: `StoreError` `.missing`, `.notAStoreFile`, `.unsupportedVersion`, `.truncated`,
    ///   `.checksumMismatch` (naming the part), `.corrupt` (also: not a regular file, metadata
    ///   no query can use), `.io` (errno kept: permission denied, ...).
    package convenience init(path: String, cacheBudget: Int = DomainFileReader.defaultCacheBudget) throws(StoreError) {
        try self.init(source: try PositionalFile(path: path), path: path, cacheBudget: cacheBudget)
    }

    /// Reads a domain file held in memory (`label` names it in errors).
    package convenience init(bytes: [UInt8], label: String) throws(StoreError) {
        try self.init(source: MemoryBytes(bytes, label: label), path: label, cacheBudget: Self.defaultCacheBudget)
    }

    /// Reads a domain file from any source (object storage: ranged GETs); `path` names it in
    /// errors. Every check of the file-backed reader applies.
    package init(source: any ByteSource, path: String, cacheBudget: Int) throws(StoreError) {
        self.path = path
        self.source = source
        let trailer = try Self.readFrame(source, path: path)
        let indexBytes = try Self.readChecked(source, offset: trailer.indexOffset, count: trailer.indexLength,
                                              crc: trailer.indexCRC, part: "index", path: path)
        let metadataBytes = try Self.readChecked(source, offset: trailer.metadataOffset, count: trailer.metadataLength,
                                                 crc: trailer.metadataCRC, part: "metadata", path: path)
        do {
            metadata = try JSONDecoder().decode(DomainFileMetadata.self, from: Data(metadataBytes))
        } catch {
            throw .corrupt(path: path, detail: "metadata does not decode: \(error)")
        }
        let entries = try Self.readIndex(indexBytes, dataEnd: trailer.indexOffset, path: path)
        index = entries
        try Self.validate(metadata, blocks: entries.count, path: path)
        try Self.checkSanity(metadata, path: path)
        let stored = metadata.variables
        storedByVariable = ForecastVariable.allCases.map { variable in stored.first { $0.name == variable.rawValue } }
        layouts = storedByVariable.map { $0.map { SeriesLayout(firstBlock: $0.firstBlock, steps: $0.steps, step: $0.step) } }
        // The blocks lie between the header and the index (checked above, entry by entry).
        dataStart = DomainFileFormat.headerSize
        cache = BlockCache(path: path, blocks: entries.count, dataSize: Int(trailer.indexOffset) - dataStart, budget: cacheBudget)
    }

    /// The file's trailer, once the header's magic and version and the trailer's own checks
    /// hold, and every offset and length it gives is bounded by the file's size (before
    /// anything is read or allocated with it).
    private static func readFrame(_ source: any ByteSource, path: String) throws(StoreError) -> Trailer {
        let size = source.size
        let version = try readVersion(source, size: size, path: path)
        let trailerStart = size - DomainFileFormat.trailerSize
        try requireKnownVersion(version, source: source, trailerStart: trailerStart, path: path)
        guard trailerStart >= DomainFileFormat.headerSize else {
            throw .truncated(path: path, detail: "\(size) bytes, shorter than header and trailer")
        }
        let trailerBytes = try source.read(offset: trailerStart, count: DomainFileFormat.trailerSize)
        let trailer = try withBytes(trailerBytes) { (bytes) throws(StoreError) in try Self.readTrailer(bytes, at: 0, path: path) }
        guard trailer.version == version else {
            throw .corrupt(path: path, detail: "header says version \(version), trailer \(trailer.version)")
        }
        let indexEnd = trailer.indexOffset.addingReportingOverflow(trailer.indexLength)
        let metadataEnd = trailer.metadataOffset.addingReportingOverflow(trailer.metadataLength)
        guard !indexEnd.overflow, !metadataEnd.overflow, trailer.indexOffset >= UInt64(DomainFileFormat.headerSize),
              indexEnd.partialValue <= trailer.metadataOffset, metadataEnd.partialValue == UInt64(trailerStart),
              trailer.indexLength % UInt64(DomainFileFormat.indexEntrySize) == 0 else {
            throw .corrupt(path: path, detail: "index/metadata offsets do not fit the file")
        }
        return trailer
    }

    /// The format version the header names, after its magic.
    private static func readVersion(_ source: any ByteSource, size: Int, path: String) throws(StoreError) -> UInt32 {
        guard size >= DomainFileFormat.headerSize else {
            let start = try source.read(offset: 0, count: min(size, 8))
            throw start.count >= 8 && start == DomainFileFormat.magic
                ? .truncated(path: path, detail: "\(size) bytes") : .notAStoreFile(path: path)
        }
        let headerBytes = try source.read(offset: 0, count: DomainFileFormat.headerSize)
        return try withBytes(headerBytes) { (bytes) throws(StoreError) -> UInt32 in
            var header = ByteReader(bytes)
            guard let magic = header.readBytes(8), Array(magic) == DomainFileFormat.magic,
                  let version = header.read(UInt32.self) else { throw .notAStoreFile(path: path) }
            return version
        }
    }

    /// Refuses a header version this reader does not know: as a newer format, or as damage
    /// when the trailer says otherwise.
    private static func requireKnownVersion(_ version: UInt32, source: any ByteSource, trailerStart: Int,
                                            path: String) throws(StoreError) {
        if version >= 1 && version <= DomainFileFormat.version { return }
        // A damaged header byte (a flip in transit) must not pass for a newer format: when
        // the trailer reads whole (its own CRC holds) and names a version this reader knows,
        // the header is what is wrong. A newer file's trailer may have another layout, so
        // anything else is still "newer".
        if trailerStart >= DomainFileFormat.headerSize,
           let bytes = try? source.read(offset: trailerStart, count: DomainFileFormat.trailerSize),
           let trailer = try? withBytes(bytes, { (bytes) throws(StoreError) in try Self.readTrailer(bytes, at: 0, path: path) }),
           (1...DomainFileFormat.version).contains(trailer.version) {
            throw .corrupt(path: path, detail: "header says version \(version), trailer \(trailer.version): the header is damaged")
        }
        throw .unsupportedVersion(path: path, found: version, supported: DomainFileFormat.version)
    }

    /// A part of the file the trailer locates (checked against the file's size), after its checksum.
    private static func readChecked(_ source: any ByteSource, offset: UInt64, count: UInt64, crc: UInt32,
                                    part: String, path: String) throws(StoreError) -> [UInt8] {
        let bytes = try source.read(offset: Int(offset), count: Int(count))
        guard checksum(bytes) == crc else { throw .checksumMismatch(path: path, part: part) }
        return bytes
    }

    /// The block index, each block checked to lie in the data area (after the header, before
    /// `dataEnd`, where the index starts).
    private static func readIndex(_ indexBytes: [UInt8], dataEnd: UInt64, path: String) throws(StoreError) -> [BlockEntry] {
        var entries: [BlockEntry] = []
        entries.reserveCapacity(indexBytes.count / DomainFileFormat.indexEntrySize)
        try withBytes(indexBytes) { (bytes) throws(StoreError) in
            var reader = ByteReader(bytes)
            while reader.remaining > 0 {
                guard let offset = reader.read(UInt64.self), let length = reader.read(UInt32.self), let crc = reader.read(UInt32.self) else { break }
                let end = offset.addingReportingOverflow(UInt64(length))
                guard offset >= UInt64(DomainFileFormat.headerSize), !end.overflow, end.partialValue <= dataEnd else {
                    throw .corrupt(path: path, detail: "block \(entries.count) lies outside the data area")
                }
                entries.append(BlockEntry(offset: offset, length: length, crc: crc))
            }
        }
        return entries
    }

    /// How the block cache has done so far.
    package var cacheStatistics: BlockCacheStatistics { cache.statistics }

    /// Whether the cache keeps every block it reads (the file's data fits its budget).
    package var isCacheResident: Bool { cache.isResident }

    /// Refuses metadata no query can use (DX = 0, times that do not increase, a corner off the
    /// globe), at open, so that `inspect --verify` and a query agree on what is damage.
    private static func checkSanity(_ m: DomainFileMetadata, path: String) throws(StoreError) {
        let p = m.projection
        guard p.dx.isFinite, p.dx > 0, p.dy.isFinite, p.dy > 0 else {
            throw .corrupt(path: path, detail: "grid spacing DX \(p.dx), DY \(p.dy) in metadata (must be positive)")
        }
        guard m.southWestCorner.latitude.isFinite, abs(m.southWestCorner.latitude) <= 90,
              m.southWestCorner.longitude.isFinite, abs(m.southWestCorner.longitude) <= 360 else {
            throw .corrupt(path: path, detail: "south-west corner \(m.southWestCorner.latitude), \(m.southWestCorner.longitude) in metadata is off the globe")
        }
        for k in m.times.indices.dropFirst() where m.times[k] <= m.times[k - 1] {
            throw .corrupt(path: path, detail: "frame times in metadata do not increase at frame \(k)")
        }
        guard m.domain >= 1, m.domain < 100 else { throw .corrupt(path: path, detail: "domain number \(m.domain) in metadata") }
        if let motion = m.motion {
            let fits = motion.offsets.count == m.times.count && motion.westEast > 0 && motion.southNorth > 0
                && motion.offsets.allSatisfy { $0.count == 2 && $0[0] >= 0 && $0[1] >= 0
                    && $0[0] + motion.westEast <= m.westEast && $0[1] + motion.southNorth <= m.southNorth }
            guard fits else { throw .corrupt(path: path, detail: "a moving nest's positions in metadata do not fit its grid or frames") }
        }
    }

    private static func readTrailer(_ bytes: UnsafeRawBufferPointer, at start: Int, path: String) throws(StoreError) -> Trailer {
        var reader = ByteReader(bytes, offset: start)
        guard let indexOffset = reader.read(UInt64.self), let indexLength = reader.read(UInt64.self),
              let metadataOffset = reader.read(UInt64.self), let metadataLength = reader.read(UInt64.self),
              let indexCRC = reader.read(UInt32.self), let metadataCRC = reader.read(UInt32.self),
              let version = reader.read(UInt32.self), let trailerCRC = reader.read(UInt32.self),
              let magic = reader.readBytes(8) else { throw .truncated(path: path, detail: "no trailer") }
        guard Array(magic) == DomainFileFormat.magic else {
            throw .truncated(path: path, detail: "the trailer's magic is missing: the file was cut short or not finished")
        }
        guard checksum(UnsafeRawBufferPointer(rebasing: bytes[start..<(start + 44)])) == trailerCRC else {
            throw .checksumMismatch(path: path, part: "trailer")
        }
        if version > DomainFileFormat.version {
            throw .unsupportedVersion(path: path, found: version, supported: DomainFileFormat.version)
        }
        return Trailer(indexOffset: indexOffset, indexLength: indexLength, metadataOffset: metadataOffset,
                       metadataLength: metadataLength, indexCRC: indexCRC, metadataCRC: metadataCRC, version: version)
    }

    /// The metadata must describe exactly the blocks the index holds.
    private static func validate(_ metadata: DomainFileMetadata, blocks: Int, path: String) throws(StoreError) {
        let m = metadata
        // Each bound before any product, so that no size from the file can overflow (a trap).
        guard m.westEast > 0, m.southNorth > 0, m.tileWidth > 0, m.tileHeight > 0, !m.times.isEmpty,
              m.westEast < 1 << 28, m.southNorth < 1 << 28, m.westEast * m.southNorth < 1 << 28,
              m.tileWidth <= 1 << 16, m.tileHeight <= 1 << 16 else {
            throw .corrupt(path: path, detail: "impossible grid or tile size in metadata")
        }
        for (position, variable) in m.variables.enumerated() {
            guard variable.firstBlock == position * m.tileCount, variable.steps == 1 || variable.steps == m.times.count,
                  variable.step > 0, variable.step.isFinite else {
                throw .corrupt(path: path, detail: "metadata of \(variable.name) does not match the index")
            }
        }
        guard blocks == m.variables.count * m.tileCount else {
            throw .corrupt(path: path, detail: "index holds \(blocks) blocks, metadata describes \(m.variables.count * m.tileCount)")
        }
    }

    /// The series of one variable at one cell, dequantized into `output` (its `steps` values:
    /// 1 for static fields, else one per time). Running totals come back as totals.
    ///
    /// - Throws: `StoreError.checksumMismatch` / `.corrupt` for a damaged block,
    ///   `.badRequest` for a variable not stored or a cell outside the grid.
    package func readSeries(_ variable: ForecastVariable, i: Int, j: Int, into output: UnsafeMutableBufferPointer<Float>) throws(StoreError) {
        let steps = stored(variable)?.steps ?? 0
        var scratch = [Int32](repeating: 0, count: max(steps, 1))
        try scratch.withUnsafeMutableBufferPointer { (buffer) throws(StoreError) in
            try readSeries(variable, i: i, j: j, into: output, scratch: buffer)
        }
    }

    /// `readSeries(_:i:j:into:)` with caller-owned scratch space for the quantized values
    /// (at least `steps` long), so a hot loop allocates nothing.
    package func readSeries(_ variable: ForecastVariable, i: Int, j: Int, into output: UnsafeMutableBufferPointer<Float>,
                           scratch: UnsafeMutableBufferPointer<Int32>, count: Int? = nil) throws(StoreError) {
        guard let place = place(i: i, j: j) else {
            throw .badRequest("\(path): cell (\(i), \(j)) is outside the \(metadata.westEast) x \(metadata.southNorth) grid")
        }
        try readSeries(variable, at: place, into: output, scratch: scratch, count: count)
    }

    /// Where cell (i, j) lies in every variable's blocks, or nil outside the grid: worked out
    /// once per cell (three divisions), then used for each variable a forecast reads.
    package func place(i: Int, j: Int) -> CellPlace? {
        guard i >= 0, j >= 0, i < metadata.westEast, j < metadata.southNorth else { return nil }
        let place = metadata.locate(i: i, j: j)
        return CellPlace(tile: place.tile, cell: place.cell, cells: place.cells)
    }

    /// `readSeries(_:i:j:into:scratch:count:)` at a cell already located by `place(i:j:)`.
    package func readSeries(_ variable: ForecastVariable, at place: CellPlace, into output: UnsafeMutableBufferPointer<Float>,
                            scratch: UnsafeMutableBufferPointer<Int32>, count: Int? = nil) throws(StoreError) {
        guard let stored = layouts[variable.ordinal] else {
            throw .badRequest("\(path): \(variable.rawValue) is not stored for d\(metadata.domain)")
        }
        let wanted = min(count ?? stored.steps, stored.steps)
        guard output.count >= wanted, scratch.count >= wanted else {
            throw .badRequest("\(path): a buffer of \(output.count) values for \(wanted)")
        }
        let blockIndex = stored.firstBlock + place.tile
        let decoded = try withBlock(blockIndex) {
            SeriesCodec.decode(block: $0, cells: place.cells, steps: stored.steps, cell: place.cell, into: scratch, count: wanted)
        }
        guard decoded else {
            throw .corrupt(path: path, detail: "block \(blockIndex) (\(variable.rawValue)) does not decode")
        }
        let quantizer = Quantizer(step: stored.step)
        for t in 0..<wanted { output[t] = quantizer.value(scratch[t]) }
    }

    /// Two or four cells of one tile read in one pass (`SeriesCodec.decodeScaled`): the
    /// corners of a point that share a block, `cells` with the same tile, into `outputs`
    /// (`count` values each; with two cells, the last two of each are nil). Returns false
    /// when the pass does not apply (cells of different tiles, a cell with missing values, a
    /// block it cannot vouch for); the caller then reads each cell with
    /// `readSeries(_:at:into:scratch:count:)`, which gives the same values and reports what
    /// is wrong.
    ///
    /// - Throws: what reading the block throws (a damaged block, a failed read).
    package func readSeries(_ variable: ForecastVariable, sharing cells: (CellPlace, CellPlace, CellPlace?, CellPlace?),
                            into outputs: (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>?,
                                           UnsafeMutablePointer<Float>?),
                            count: Int) throws(StoreError) -> Bool {
        let (a, b) = (cells.0, cells.1)
        // (Cells of one tile have its cell count.)
        guard let stored = layouts[variable.ordinal], a.tile == b.tile else { return false }
        let lanes: SeriesCodec.Lanes
        if let c = cells.2, let d = cells.3, let oc = outputs.2, let od = outputs.3 {
            guard c.tile == a.tile, d.tile == a.tile else { return false }
            lanes = SeriesCodec.Lanes(count: 4, cells: (a.cell, b.cell, c.cell, d.cell), outputs: (outputs.0, outputs.1, oc, od))
        } else {
            lanes = SeriesCodec.Lanes(count: 2, cells: (a.cell, b.cell, a.cell, b.cell), outputs: (outputs.0, outputs.1, outputs.0, outputs.1))
        }
        return try withBlock(stored.firstBlock + a.tile) {
            SeriesCodec.decodeScaled(block: $0, cells: a.cells, steps: stored.steps, lanes: lanes, step: stored.step,
                                     count: min(count, stored.steps))
        }
    }

    /// The stored variable's description, or nil when the file does not hold it.
    @inline(__always)
    package func stored(_ variable: ForecastVariable) -> DomainFileMetadata.StoredVariable? {
        storedByVariable[variable.ordinal]
    }

    /// Values per series of a variable: 1 for a static field, the number of times otherwise,
    /// 0 when the file does not hold it. Cheaper than `stored(_:)` on a hot path (no copy of
    /// the names).
    @inline(__always)
    package func steps(_ variable: ForecastVariable) -> Int {
        layouts[variable.ordinal]?.steps ?? 0
    }

    /// Array form of `readSeries(_:i:j:into:)`.
    package func series(_ variable: ForecastVariable, i: Int, j: Int) throws(StoreError) -> [Float] {
        let steps = stored(variable)?.steps ?? 0
        var values = [Float](repeating: .nan, count: steps)
        try values.withUnsafeMutableBufferPointer { (buffer) throws(StoreError) in
            try readSeries(variable, i: i, j: j, into: buffer)
        }
        return values
    }

    /// Checks every block's checksum and that every cell decodes.
    ///
    /// - Returns: the number of blocks checked.
    @discardableResult
    package func verifyAll() throws(StoreError) -> Int {
        for (position, stored) in metadata.variables.enumerated() {
            for tile in 0..<metadata.tileCount {
                let blockIndex = stored.firstBlock + tile
                let tileX = tile % metadata.tilesAcross, tileY = tile / metadata.tilesAcross
                let width = min(metadata.tileWidth, metadata.westEast - tileX * metadata.tileWidth)
                let height = min(metadata.tileHeight, metadata.southNorth - tileY * metadata.tileHeight)
                var scratch = [Int32](repeating: 0, count: stored.steps)
                let ok = try withBlock(blockIndex) { block in
                    scratch.withUnsafeMutableBufferPointer { output in
                        (0..<(width * height)).allSatisfy { cell in
                            SeriesCodec.decode(block: block, cells: width * height, steps: stored.steps, cell: cell, into: output)
                        }
                    }
                }
                if !ok { throw .corrupt(path: path, detail: "block \(blockIndex) (variable \(position)) does not decode") }
            }
        }
        return index.count
    }

    /// Runs `body` on one block's bytes: from the cache, or read from the file and its checksum
    /// verified first.
    @inline(__always)
    private func withBlock<Result>(_ blockIndex: Int, _ body: (UnsafeRawBufferPointer) -> Result) throws(StoreError) -> Result {
        guard blockIndex >= 0, blockIndex < index.count else {
            throw .corrupt(path: path, detail: "block \(blockIndex) is not in the index")
        }
        let entry = index[blockIndex]
        return try cache.withBlock(blockIndex, offset: Int(entry.offset) - dataStart, length: Int(entry.length),
                                   load: { () throws(StoreError) in try load(blockIndex) }, body)
    }

    /// One block read from the file, its checksum verified.
    private func load(_ blockIndex: Int) throws(StoreError) -> [UInt8] {
        let entry = index[blockIndex]
        let bytes = try source.read(offset: Int(entry.offset), count: Int(entry.length))
        guard checksum(bytes) == entry.crc else {
            throw .checksumMismatch(path: path, part: "data block \(blockIndex)")
        }
        return bytes
    }

    /// Hints the cache lines a point read of `variable` will touch, so that the misses of a
    /// forecast's reads overlap instead of coming one after the other (`PointForecaster` asks
    /// for all its blocks, then all its cells, then decodes). Only blocks already resident are
    /// hinted; a hint changes no answer and reads nothing from the file.
    ///
    /// - Parameters:
    ///   - place: the cell to be read; with `payloads` false only its block's head (mode,
    ///     common series, cell table), with true the cell's packed values, found through the
    ///     table (whose lines the first pass asked for).
    ///   - count: frames to be decoded.
    package func prefetch(_ variable: ForecastVariable, at place: CellPlace, count: Int, payloads: Bool) {
        guard let stored = layouts[variable.ordinal] else { return }
        do {
            let blockIndex = stored.firstBlock + place.tile
            guard blockIndex < index.count else { return }
            let entry = index[blockIndex]
            guard let block = cache.residentBytes(blockIndex, offset: Int(entry.offset) - dataStart, length: Int(entry.length)),
                  let base = block.baseAddress, !block.isEmpty else { return }
            if payloads {
                guard let cell = SeriesCodec.cellPayload(block: block, cells: place.cells, steps: stored.steps, cell: place.cell,
                                                         count: count) else { return }
                // Every line from the first packed byte to the last (the decoder loads 8 bytes).
                let end = min(cell.offset + cell.length + 8, block.count)
                var at = cell.offset
                while at < end {
                    tilecast_prefetch(base + at)
                    at += 64
                }
                tilecast_prefetch(base + end - 1)
            } else {
                // The head: mode, common series and cell table lie in the first few hundred bytes.
                var line = 0
                while line < min(block.count, Self.headBytes) {
                    tilecast_prefetch(base + line)
                    line += 64
                }
            }
        }
    }

    /// Bytes of a block's head a prefetch asks for: an 8 x 8 tile's table (64 x (1 + 2 + 2)
    /// bytes) after a 24 h common series.
    private static let headBytes = 448

    /// Bytes of the file when it was opened.
    package var fileSize: Int { source.size }

    /// Where the block holding a variable's series at a cell lies in the file, or nil when the
    /// variable is not stored or the cell is outside the grid: a remote source fetches the
    /// blocks a forecast needs at once, before the reads that check and decode them.
    package func blockRange(_ variable: ForecastVariable, i: Int, j: Int) -> (offset: Int, count: Int)? {
        guard let stored = stored(variable), i >= 0, j >= 0, i < metadata.westEast, j < metadata.southNorth else { return nil }
        let blockIndex = stored.firstBlock + metadata.locate(i: i, j: j).tile
        guard blockIndex >= 0, blockIndex < index.count else { return nil }
        return (Int(index[blockIndex].offset), Int(index[blockIndex].length))
    }
}

/// Where a cell's series lies in any variable's blocks: its tile, its index in the tile and
/// the tile's cell count (edge tiles are smaller).
package struct CellPlace: Sendable, Equatable {
    package let tile: Int
    package let cell: Int
    package let cells: Int
}

/// Where a stored variable's series are and how they are scaled.
private struct SeriesLayout {
    let firstBlock: Int
    let steps: Int
    let step: Float
}

/// `withUnsafeBytes` for a body that throws `StoreError` (the standard one loses the type).
private func withBytes<T>(_ bytes: [UInt8], _ body: (UnsafeRawBufferPointer) throws(StoreError) -> T) throws(StoreError) -> T {
    let result: Result<T, StoreError> = bytes.withUnsafeBytes { buffer in
        do throws(StoreError) { return .success(try body(buffer)) } catch { return .failure(error) }
    }
    return try result.get()
}
