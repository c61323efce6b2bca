import Catalog
import Foundation

/// Writes one domain file: takes frames one at a time (quantizing as they come, so it never
/// holds raw fields), then encodes tiles on all cores and writes the file in one pass.
///
/// Memory is one Int32 per value kept (cells x times x variables); for a 150 x 130 domain
/// with 73 frames and 14 variables that is about 80 MB.
public final class DomainFileWriter {
    public let path: String
    private var metadata: DomainFileMetadata
    private let variables: [ForecastVariable]
    private let quantizers: [Quantizer]
    /// Per variable, quantized values laid out [time][cell].
    private var values: [[Int32]]
    /// Per running-total variable, the total so far per cell (Double: exact sums).
    private var totals: [[Double]]
    private var framesAdded = 0
    private let cells: Int

    /// Prepares a writer for `variables` of the domain `metadata` describes.
    public init(path: String, metadata: DomainFileMetadata, variables: [ForecastVariable]) {
        self.path = path
        self.metadata = metadata
        self.variables = variables.sorted()
        quantizers = self.variables.map(Quantizer.init)
        cells = metadata.westEast * metadata.southNorth
        let steps = metadata.times.count
        values = self.variables.map { [Int32](repeating: SeriesCodec.missing, count: $0.isStatic ? cellsOf(metadata) : cellsOf(metadata) * steps) }
        totals = self.variables.map { $0.isAccumulation ? [Double](repeating: 0, count: cellsOf(metadata)) : [] }
    }

    /// Adds the next frame (frames must come in the order of `metadata.times`).
    ///
    /// - Throws: `StoreError.badRequest` for a frame beyond the times, or a field of the wrong size.
    public func add(frame: [ForecastVariable: [Float]]) throws {
        let t = framesAdded
        guard t < metadata.times.count else {
            throw StoreError.badRequest("\(path): more frames than the \(metadata.times.count) times declared")
        }
        for (index, variable) in variables.enumerated() {
            guard let field = frame[variable] else { continue }
            guard field.count == cells else {
                throw StoreError.badRequest("\(path): \(variable.rawValue) has \(field.count) values for \(cells) cells")
            }
            let quantizer = quantizers[index]
            if variable.isStatic && t > 0 { continue }
            let row = variable.isStatic ? 0 : t * cells
            let cells = self.cells
            // Unsafe buffers: one bounds check per field, not per value, on the extraction's hot path.
            values[index].withUnsafeMutableBufferPointer { stored in
                field.withUnsafeBufferPointer { input in
                    if variable.isAccumulation {
                        totals[index].withUnsafeMutableBufferPointer { total in
                            for cell in 0..<cells {
                                let amount = input[cell]
                                if amount.isNaN {
                                    stored[row + cell] = SeriesCodec.missing
                                } else {
                                    total[cell] += Double(amount)
                                    stored[row + cell] = quantizer.quantize(total[cell])
                                }
                            }
                        }
                    } else {
                        for cell in 0..<cells { stored[row + cell] = quantizer.quantize(input[cell]) }
                    }
                }
            }
        }
        framesAdded += 1
    }

    /// Encodes and writes the file, then flushes it to disk (fsync).
    ///
    /// - Returns: the number of bytes written.
    /// - Throws: `StoreError.writeFailed` naming the file (disk full, permissions, ...).
    @discardableResult
    public func finish() throws -> Int {
        let steps = metadata.times.count
        guard framesAdded == steps else {
            throw StoreError.badRequest("\(path): \(framesAdded) frames added for \(steps) times")
        }
        let file = try OutputFile(path: path)
        var offset = UInt64(DomainFileFormat.headerSize)
        var header = ByteWriter()
        header.append(DomainFileFormat.magic)
        header.append(DomainFileFormat.version)
        header.append(UInt32(0))
        try file.write(header.bytes)

        var index = ByteWriter()
        var stored: [DomainFileMetadata.StoredVariable] = []
        let tileCount = metadata.tileCount
        for (variableIndex, variable) in variables.enumerated() {
            let variableSteps = variable.isStatic ? 1 : steps
            stored.append(.init(name: variable.rawValue, unit: variable.unit, step: quantizers[variableIndex].step,
                                runningTotal: variable.isAccumulation, steps: variableSteps, firstBlock: variableIndex * tileCount))
            let blocks = encodeTiles(variableIndex: variableIndex, steps: variableSteps)
            for block in blocks {
                index.append(offset)
                index.append(UInt32(block.count))
                index.append(checksum(block))
                try file.write(block)
                offset += UInt64(block.count)
            }
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

    /// Encodes every tile of one variable, spread over the cores.
    private func encodeTiles(variableIndex: Int, steps: Int) -> [[UInt8]] {
        let meta = metadata
        let source = values[variableIndex]
        let tileCount = meta.tileCount
        let cells = self.cells
        return concurrentMap(tileCount) { tile in
            let tileX = tile % meta.tilesAcross, tileY = tile / meta.tilesAcross
            let x0 = tileX * meta.tileWidth, y0 = tileY * meta.tileHeight
            let width = min(meta.tileWidth, meta.westEast - x0), height = min(meta.tileHeight, meta.southNorth - y0)
            // Gather each cell's series contiguously (the source is [time][cell]).
            var series = [Int32](repeating: 0, count: width * height * steps)
            for y in 0..<height {
                for x in 0..<width {
                    let cell = (y0 + y) * meta.westEast + (x0 + x)
                    let slot = (y * width + x) * steps
                    for t in 0..<steps { series[slot + t] = source[t * cells + cell] }
                }
            }
            let block = series.withUnsafeBufferPointer { buffer in
                SeriesCodec.encode(cells: width * height, steps: steps) { cell in
                    UnsafeBufferPointer(rebasing: buffer[(cell * steps)..<((cell + 1) * steps)])
                }
            }
            return block
            return block
        }
    }
}

private func cellsOf(_ metadata: DomainFileMetadata) -> Int { metadata.westEast * metadata.southNorth }
