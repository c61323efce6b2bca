import Catalog
import Foundation
import Synchronization

/// Reads one domain file: checks its frame (magic, version, trailer, index and metadata
/// checksums, bounds) on open, and each data block's checksum before first use.
///
/// Thread-safe: the map is read-only and the record of verified blocks is behind a mutex.
public final class DomainFileReader: Sendable {
    public let path: String
    public let metadata: DomainFileMetadata
    private let file: any ByteStorage
    private let index: [BlockEntry]
    /// One bit per block: checksum already verified (blocks are immutable once published).
    private let verified: Mutex<[UInt64]>
    /// The stored variables by catalog order, for constant-time lookup on the point path.
    private let storedByVariable: [DomainFileMetadata.StoredVariable?]

    /// Opens and checks a domain file.
    ///
    /// - Throws: `StoreError` `.missing`, `.notAStoreFile`, `.unsupportedVersion`, `.truncated`,
    ///   `.checksumMismatch` (naming the part) or `.corrupt`.
    public convenience init(path: String) throws(StoreError) {
        try self.init(storage: try MappedFile(path: path), path: path)
    }

    /// Reads a domain file held in memory (`label` names it in errors).
    public convenience init(bytes: [UInt8], label: String) throws(StoreError) {
        try self.init(storage: OwnedBytes(bytes), path: label)
    }

    private init(storage: any ByteStorage, path: String) throws(StoreError) {
        self.path = path
        file = storage
        let bytes = file.bytes
        guard bytes.count >= DomainFileFormat.headerSize else {
            throw bytes.count >= 8 && Array(bytes.prefix(8)) == DomainFileFormat.magic
                ? .truncated(path: path, detail: "\(bytes.count) bytes") : .notAStoreFile(path: path)
        }
        var header = ByteReader(bytes)
        guard let magic = header.readBytes(8), Array(magic) == DomainFileFormat.magic,
              let version = header.read(UInt32.self) else { throw .notAStoreFile(path: path) }
        guard version <= DomainFileFormat.version, version >= 1 else {
            throw .unsupportedVersion(path: path, found: version, supported: DomainFileFormat.version)
        }
        let trailerStart = bytes.count - DomainFileFormat.trailerSize
        guard trailerStart >= DomainFileFormat.headerSize else {
            throw .truncated(path: path, detail: "\(bytes.count) bytes, shorter than header and trailer")
        }
        let trailer = try Self.readTrailer(bytes, at: trailerStart, path: path)
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
        let indexBytes = UnsafeRawBufferPointer(rebasing: bytes[Int(trailer.indexOffset)..<Int(indexEnd.partialValue)])
        guard checksum(indexBytes) == trailer.indexCRC else { throw .checksumMismatch(path: path, part: "index") }
        let metadataBytes = UnsafeRawBufferPointer(rebasing: bytes[Int(trailer.metadataOffset)..<Int(metadataEnd.partialValue)])
        guard checksum(metadataBytes) == trailer.metadataCRC else { throw .checksumMismatch(path: path, part: "metadata") }
        do {
            metadata = try JSONDecoder().decode(DomainFileMetadata.self, from: Data(metadataBytes))
        } catch {
            throw .corrupt(path: path, detail: "metadata does not decode: \(error)")
        }
        var entries: [BlockEntry] = []
        var reader = ByteReader(indexBytes)
        while reader.remaining > 0 {
            guard let offset = reader.read(UInt64.self), let length = reader.read(UInt32.self), let crc = reader.read(UInt32.self) else { break }
            let end = offset.addingReportingOverflow(UInt64(length))
            guard offset >= UInt64(DomainFileFormat.headerSize), !end.overflow, end.partialValue <= trailer.indexOffset else {
                throw .corrupt(path: path, detail: "block \(entries.count) lies outside the data area")
            }
            entries.append(BlockEntry(offset: offset, length: length, crc: crc))
        }
        index = entries
        try Self.validate(metadata, blocks: entries.count, path: path)
        let stored = metadata.variables
        storedByVariable = ForecastVariable.allCases.map { variable in stored.first { $0.name == variable.rawValue } }
        verified = Mutex([UInt64](repeating: 0, count: (entries.count + 63) / 64))
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
    public func readSeries(_ variable: ForecastVariable, i: Int, j: Int, into output: UnsafeMutableBufferPointer<Float>) throws(StoreError) {
        let steps = stored(variable)?.steps ?? 0
        var scratch = [Int32](repeating: 0, count: max(steps, 1))
        try scratch.withUnsafeMutableBufferPointer { (buffer) throws(StoreError) in
            try readSeries(variable, i: i, j: j, into: output, scratch: buffer)
        }
    }

    /// `readSeries(_:i:j:into:)` with caller-owned scratch space for the quantized values
    /// (at least `steps` long), so a hot loop allocates nothing.
    public func readSeries(_ variable: ForecastVariable, i: Int, j: Int, into output: UnsafeMutableBufferPointer<Float>,
                           scratch: UnsafeMutableBufferPointer<Int32>, count: Int? = nil) throws(StoreError) {
        guard let stored = stored(variable) else {
            throw .badRequest("\(path): \(variable.rawValue) is not stored for d\(metadata.domain)")
        }
        let wanted = min(count ?? stored.steps, stored.steps)
        guard i >= 0, j >= 0, i < metadata.westEast, j < metadata.southNorth, output.count >= wanted,
              scratch.count >= wanted else {
            throw .badRequest("\(path): cell (\(i), \(j)) is outside the \(metadata.westEast) x \(metadata.southNorth) grid")
        }
        let place = metadata.locate(i: i, j: j)
        let blockIndex = stored.firstBlock + place.tile
        let block = try block(blockIndex)
        guard SeriesCodec.decode(block: block, cells: place.cells, steps: stored.steps, cell: place.cell, into: scratch,
                                 count: wanted) else {
            throw .corrupt(path: path, detail: "block \(blockIndex) (\(variable.rawValue)) does not decode")
        }
        let quantizer = Quantizer(step: stored.step)
        for t in 0..<wanted { output[t] = quantizer.value(scratch[t]) }
    }

    /// The stored variable's description, or nil when the file does not hold it.
    @inline(__always)
    public func stored(_ variable: ForecastVariable) -> DomainFileMetadata.StoredVariable? {
        storedByVariable[variable.catalogIndex]
    }

    /// Array form of `readSeries(_:i:j:into:)`.
    public func series(_ variable: ForecastVariable, i: Int, j: Int) throws(StoreError) -> [Float] {
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
    public func verifyAll() throws(StoreError) -> Int {
        for (position, stored) in metadata.variables.enumerated() {
            for tile in 0..<metadata.tileCount {
                let blockIndex = stored.firstBlock + tile
                let block = try block(blockIndex)
                let tileX = tile % metadata.tilesAcross, tileY = tile / metadata.tilesAcross
                let width = min(metadata.tileWidth, metadata.westEast - tileX * metadata.tileWidth)
                let height = min(metadata.tileHeight, metadata.southNorth - tileY * metadata.tileHeight)
                var scratch = [Int32](repeating: 0, count: stored.steps)
                for cell in 0..<(width * height) {
                    let ok = scratch.withUnsafeMutableBufferPointer {
                        SeriesCodec.decode(block: block, cells: width * height, steps: stored.steps, cell: cell, into: $0)
                    }
                    if !ok { throw .corrupt(path: path, detail: "block \(blockIndex) (variable \(position)) does not decode") }
                }
            }
        }
        return index.count
    }

    /// The bytes of one block, its checksum verified on first use.
    private func block(_ blockIndex: Int) throws(StoreError) -> UnsafeRawBufferPointer {
        guard blockIndex >= 0, blockIndex < index.count else {
            throw .corrupt(path: path, detail: "block \(blockIndex) is not in the index")
        }
        let entry = index[blockIndex]
        let bytes = UnsafeRawBufferPointer(rebasing: file.bytes[Int(entry.offset)..<(Int(entry.offset) + Int(entry.length))])
        let word = blockIndex >> 6, bit = UInt64(1) << UInt64(blockIndex & 63)
        if verified.withLock({ $0[word] & bit }) != 0 { return bytes }
        guard checksum(bytes) == entry.crc else {
            throw .checksumMismatch(path: path, part: "data block \(blockIndex)")
        }
        verified.withLock { $0[word] |= bit }
        return bytes
    }

    /// Bytes of the file.
    public var fileSize: Int { file.bytes.count }
}
