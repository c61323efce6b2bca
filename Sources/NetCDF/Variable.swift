import CNetCDFLoader

/// The storage type of a variable.
package enum NetCDFType: String, Sendable, Equatable {
    case byte, char, short, int, float, double, ubyte, ushort, uint, int64, uint64, string, other

    init(code: tc_nc_type) {
        switch Int32(code) {
        case TC_NC_BYTE: self = .byte
        case TC_NC_CHAR: self = .char
        case TC_NC_SHORT: self = .short
        case TC_NC_INT: self = .int
        case TC_NC_FLOAT: self = .float
        case TC_NC_DOUBLE: self = .double
        case TC_NC_UBYTE: self = .ubyte
        case TC_NC_USHORT: self = .ushort
        case TC_NC_UINT: self = .uint
        case TC_NC_INT64: self = .int64
        case TC_NC_UINT64: self = .uint64
        case TC_NC_STRING: self = .string
        default: self = .other
        }
    }

    /// The library's default fill value for the type: what unwritten cells hold.
    var defaultFill: Double? {
        switch self {
        case .byte: return -127
        case .short: return -32767
        case .int: return -2147483647
        case .float: return Double(Float(9.9692099683868690e+36))
        case .double: return 9.9692099683868690e+36
        case .ubyte: return 255
        case .ushort: return 65535
        case .uint: return 4294967295
        default: return nil
        }
    }
}

/// What the header says about a variable: name, type, dimensions, attributes.
package struct VariableInfo: Sendable, Equatable {
    let id: Int32
    package let name: String
    package let type: NetCDFType
    package let dimensions: [Dimension]
    package let attributeNames: [String]
    package let attributes: [String: AttributeValue]

    /// The length along each dimension.
    package var shape: [Int] { dimensions.map(\.length) }
    /// The names of the dimensions, outermost first.
    package var dimensionNames: [String] { dimensions.map(\.name) }
    /// The number of values in the whole variable; `Int.max` when the header's lengths multiply
    /// past it (a crafted header can: FuzzClassicHeader found the trap).
    package var count: Int {
        var total = 1
        for length in shape {
            let (product, overflow) = total.multipliedReportingOverflow(by: length)
            if overflow { return .max }
            total = product
        }
        return total
    }
}

/// A variable bound to its open file, ready to read.
package struct Variable: Sendable {
    package let file: NetCDFFile
    package let info: VariableInfo

    package var name: String { info.name }
    package var shape: [Int] { info.shape }
    package var type: NetCDFType { info.type }
    package var attributes: [String: AttributeValue] { info.attributes }

    /// Reads a hyperslab as Float, decoded the CF way: `scale_factor` and `add_offset` applied,
    /// `_FillValue`, `missing_value` (or, without either, the type's default fill) turned into NaN.
    ///
    /// - Parameters:
    ///   - start: first index along each dimension; nil means all zeros.
    ///   - count: number of entries along each dimension; nil means up to the end.
    /// - Throws: `NetCDFError` `.indexOutOfBounds` / `.edgeOutOfBounds` for a hyperslab outside
    ///   the variable, `.typeMismatch` for character or string variables, or the library's error.
    package func readFloats(start: [Int]? = nil, count: [Int]? = nil) throws(NetCDFError) -> [Float] {
        let slab = try hyperslab(start: start, count: count)
        // Uninitialized: the library writes every value, and zeroing first cost 4-8 % of an
        // extraction (a memset of every field read).
        let total = slab.count.reduce(1, *)
        var failure: NetCDFError?
        let values = [Float](unsafeUninitializedCapacity: total) { buffer, initialized in
            do throws(NetCDFError) {
                try readFloats(into: buffer, start: slab.start, count: slab.count)
                initialized = total
            } catch {
                failure = error
                initialized = 0
            }
        }
        if let failure { throw failure }
        return values
    }

    /// Reads a hyperslab as Float into caller-owned memory, decoded as `readFloats(start:count:)`.
    ///
    /// Lets a streaming reader reuse one buffer for every frame.
    package func readFloats(into buffer: UnsafeMutableBufferPointer<Float>, start: [Int], count: [Int]) throws(NetCDFError) {
        let slab = try hyperslab(start: start, count: count)
        let total = slab.count.reduce(1, *)
        guard buffer.count >= total, let base = buffer.baseAddress else {
            throw NetCDFError(status: .edgeOutOfBounds, path: file.path, variable: name,
                              operation: "read \(total) values into a buffer of \(buffer.count)")
        }
        try requireNumeric()
        let decoding = CFDecoding(info: info)
        if decoding.needsDoublePrecision {
            // Packed 32/64-bit integers lose digits through Float before scaling.
            var doubles = [Double](repeating: 0, count: total)
            try readRawDoubles(into: &doubles, slab: slab)
            for index in 0..<total { base[index] = Float(decoding.decode(doubles[index])) }
            return
        }
        try call(slab) { ncid, varid, start, count in tc_nc_get_vara_float(ncid, varid, start, count, base) }
        decoding.decodeInPlace(UnsafeMutableBufferPointer(start: base, count: total))
    }

    /// Reads a hyperslab as Double, decoded the CF way (see `readFloats(start:count:)`).
    package func readDoubles(start: [Int]? = nil, count: [Int]? = nil) throws(NetCDFError) -> [Double] {
        let slab = try hyperslab(start: start, count: count)
        try requireNumeric()
        var values = [Double](repeating: 0, count: slab.count.reduce(1, *))
        try readRawDoubles(into: &values, slab: slab)
        let decoding = CFDecoding(info: info)
        for index in values.indices { values[index] = decoding.decode(values[index]) }
        return values
    }

    /// Reads a hyperslab as raw 16-bit integers, with no CF decoding.
    package func readInt16(start: [Int]? = nil, count: [Int]? = nil) throws(NetCDFError) -> [Int16] {
        let slab = try hyperslab(start: start, count: count)
        try requireNumeric()
        var values = [Int16](repeating: 0, count: slab.count.reduce(1, *))
        try values.withUnsafeMutableBufferPointer { (buffer) throws(NetCDFError) in
            try call(slab) { ncid, varid, start, count in tc_nc_get_vara_short(ncid, varid, start, count, buffer.baseAddress) }
        }
        return values
    }

    /// Reads a hyperslab as raw 32-bit integers, with no CF decoding.
    package func readInt32(start: [Int]? = nil, count: [Int]? = nil) throws(NetCDFError) -> [Int32] {
        let slab = try hyperslab(start: start, count: count)
        try requireNumeric()
        var values = [Int32](repeating: 0, count: slab.count.reduce(1, *))
        try values.withUnsafeMutableBufferPointer { (buffer) throws(NetCDFError) in
            try call(slab) { ncid, varid, start, count in tc_nc_get_vara_int(ncid, varid, start, count, buffer.baseAddress) }
        }
        return values
    }

    /// Reads a character variable as strings: its last dimension is the string length, so
    /// `Times(Time, DateStrLen)` gives one string per time. Trailing NULs and spaces are dropped.
    ///
    /// - Throws: `NetCDFError` `.typeMismatch` when the variable is not of type char.
    package func readStrings() throws(NetCDFError) -> [String] {
        guard info.type == .char else {
            throw NetCDFError(status: .typeMismatch, path: file.path, variable: name,
                              operation: "read as text (the variable is \(info.type.rawValue))")
        }
        let slab = try hyperslab(start: nil, count: nil)
        let width = max(slab.count.last ?? 1, 1)
        let total = slab.count.reduce(1, *)
        var chars = [CChar](repeating: 0, count: max(total, 1))
        try chars.withUnsafeMutableBufferPointer { (buffer) throws(NetCDFError) in
            try call(slab) { ncid, varid, start, count in tc_nc_get_vara_text(ncid, varid, start, count, buffer.baseAddress) }
        }
        guard total > 0 else { return [] }
        return stride(from: 0, to: total, by: width).map { offset in
            let bytes = chars[offset..<min(offset + width, total)].prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
            var text = String(decoding: bytes, as: UTF8.self)
            while text.last == " " { text.removeLast() }
            return text
        }
    }

    // MARK: - Internals

    private struct Hyperslab {
        let start: [Int]
        let count: [Int]
    }

    /// The most values one read may ask for: 2^28 (1 GiB as Float, 2 GiB as Double). A
    /// header may declare any size (a 12 kB netCDF-4 file can declare 200000 x 200000 cells);
    /// refusing here, before the buffer is allocated, turns an abort into an error.
    package static let maximumReadValues = 1 << 28

    /// Validates a hyperslab before any of it reaches C, where a negative index would wrap,
    /// and before any buffer for it is allocated.
    private func hyperslab(start: [Int]?, count: [Int]?) throws(NetCDFError) -> Hyperslab {
        let shape = info.shape
        let first = start ?? [Int](repeating: 0, count: shape.count)
        guard first.count == shape.count else {
            throw NetCDFError(status: .indexOutOfBounds, path: file.path, variable: name,
                              operation: "read with \(first.count) start indices for \(shape.count) dimensions")
        }
        let lengths = count ?? zip(shape, first).map { max($0 - $1, 0) }
        guard lengths.count == shape.count else {
            throw NetCDFError(status: .edgeOutOfBounds, path: file.path, variable: name,
                              operation: "read with \(lengths.count) counts for \(shape.count) dimensions")
        }
        for axis in shape.indices {
            if first[axis] < 0 || first[axis] > shape[axis] || (first[axis] == shape[axis] && lengths[axis] > 0) {
                throw NetCDFError(status: .indexOutOfBounds, path: file.path, variable: name,
                                  operation: "read at \(first) of shape \(shape)")
            }
            if lengths[axis] < 0 || first[axis] + lengths[axis] > shape[axis] {
                throw NetCDFError(status: .edgeOutOfBounds, path: file.path, variable: name,
                                  operation: "read \(lengths) at \(first) of shape \(shape)")
            }
        }
        var total = 1
        for length in lengths {
            let (product, overflow) = total.multipliedReportingOverflow(by: length)
            guard !overflow, product <= Self.maximumReadValues else {
                throw NetCDFError(status: .tooLarge, path: file.path, variable: name,
                                  operation: "read \(lengths) of shape \(shape) (more than the \(Self.maximumReadValues) values TileCast reads at once)")
            }
            total = product
        }
        return Hyperslab(start: first, count: lengths)
    }

    private func requireNumeric() throws(NetCDFError) {
        switch info.type {
        case .char, .string, .other:
            throw NetCDFError(status: .typeMismatch, path: file.path, variable: name,
                              operation: "read as numbers (the variable is \(info.type.rawValue))")
        default: return
        }
    }

    private func readRawDoubles(into values: inout [Double], slab: Hyperslab) throws(NetCDFError) {
        try values.withUnsafeMutableBufferPointer { (buffer) throws(NetCDFError) in
            try call(slab) { ncid, varid, start, count in tc_nc_get_vara_double(ncid, varid, start, count, buffer.baseAddress) }
        }
    }

    /// One hyperslab call through the choke point. TC_NC_ERANGE (a value outside the target
    /// type, e.g. a huge fill in a double variable read as float) is not fatal: the library
    /// still converted every other value, and decoding turns such values into NaN.
    private func call(
        _ slab: Hyperslab,
        _ body: (Int32, Int32, UnsafePointer<Int>, UnsafePointer<Int>) -> Int32
    ) throws(NetCDFError) {
        let ncid = file.ncid
        let varid = info.id
        // Scalars have no dimensions; the library ignores start/count then, but wants pointers.
        let starts = slab.start.isEmpty ? [0] : slab.start
        let counts = slab.count.isEmpty ? [1] : slab.count
        do {
            // The label is formatted only for an error: formatting two arrays for every read
            // was 2 % of an extraction's instructions (callgrind, 25-frame run).
            try NetCDFLibrary.call(path: file.path, variable: name, "read \(slab.count) at \(slab.start)") {
                starts.withUnsafeBufferPointer { startBuffer in
                    counts.withUnsafeBufferPointer { countBuffer in
                        guard let startPointer = startBuffer.baseAddress, let countPointer = countBuffer.baseAddress else {
                            return TC_NC_EINVALCOORDS
                        }
                        return body(ncid, varid, startPointer, countPointer)
                    }
                }
            }
        } catch where error.status == .outOfRange {
            return
        }
    }
}
