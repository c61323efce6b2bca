import Foundation

/// The data extent promised by a netCDF-3 (classic, 64-bit offset, CDF-5) header.
///
/// libnetcdf reads a truncated classic file without complaint and returns zeros for the
/// missing bytes, which would reach users as plausible-looking numbers. Parsing the header's
/// variable offsets (format: the netCDF "Classic Format Specification") tells how long the
/// file must be, so truncation is reported as damage instead.
package struct ClassicLayout: Equatable {
    /// The smallest file size that holds every byte of every variable.
    package let requiredSize: UInt64

    /// What a netCDF-3 header says, read before libnetcdf opens the file.
    enum HeaderCheck: Equatable {
        /// The header parsed: the file must be at least `requiredSize` bytes long.
        case layout(ClassicLayout)
        /// A netCDF-3 header that no file can have (an impossible length, type or dimension, a
        /// name longer than NC_MAX_NAME, a rank above NC_MAX_VAR_DIMS), with what was wrong.
        /// libnetcdf 4.9 segfaults on some of these in `nc_open`, and copies a long name whole
        /// into its caller's NC_MAX_NAME buffer (a heap overflow with bytes the file chose), so
        /// it must never see them.
        case impossible(String)
        /// The file ends inside its own header.
        case endsInHeader
        /// A header that goes on past `maxHeaderBytes`: never handed to libnetcdf, whose own
        /// reading of it is what the check exists to spare (no WRF header comes near the cap).
        case tooLong
        /// Not a netCDF-3 file (netCDF-4/HDF5, or not netCDF at all), or a read error:
        /// libnetcdf's own checks are all there is.
        case notChecked
    }

    /// Reads the header of the file at `path` when it is netCDF-3 (classic, 64-bit offset,
    /// CDF-5).
    static func check(path: String) -> HeaderCheck {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return .notChecked }
        defer { close(descriptor) }
        guard let magic = readPrefix(descriptor, 4), magic.count == 4, magic[0] == 0x43, magic[1] == 0x44,
              magic[2] == 0x46, [1, 2, 5].contains(magic[3]) else { return .notChecked }
        // A WRF header is tens to hundreds of KiB: read 64 KiB, and 4 times more each time the
        // parse runs out of bytes (reading and copying 1 MiB at once was most of this check's
        // time, on every input file).
        var length = 64 << 10
        while length <= maxHeaderBytes {
            guard let bytes = readPrefix(descriptor, length) else { return .notChecked }
            var parser = HeaderParser(bytes: bytes)
            if let layout = parser.parse() { return .layout(layout) }
            if !parser.ranOut { return .impossible(parser.refusal ?? "a length, type or dimension no file can have") }
            if bytes.count < length { return .endsInHeader }
            length *= 4
        }
        return .tooLong
    }

    /// The longest header parsed: a WRF header is tens to hundreds of KiB.
    static let maxHeaderBytes = 1 << 28

    /// Parses a file's first bytes (all of it, or a prefix). The header is outside bytes: this
    /// is the fuzz target's entry (fuzz/Sources/FuzzClassicHeader).
    ///
    /// - Returns: the layout, or nil with `ranOut` true when the header goes on past `bytes`
    ///   (a longer prefix may parse), false when it is not a header this parser reads.
    package static func parse(header bytes: [UInt8]) -> (layout: ClassicLayout?, ranOut: Bool) {
        var parser = HeaderParser(bytes: bytes)
        let layout = parser.parse()
        return (layout, layout == nil && parser.ranOut)
    }

    /// The first `length` bytes of the file, or all of it when shorter; nil on a read error.
    private static func readPrefix(_ descriptor: Int32, _ length: Int) -> [UInt8]? {
        var failed = false
        let bytes = [UInt8](unsafeUninitializedCapacity: length) { buffer, count in
            count = 0
            while count < length, let base = buffer.baseAddress {
                let got = pread(descriptor, base + count, length - count, off_t(count))
                if got < 0 && errno == EINTR { continue }
                if got < 0 { failed = true }
                if got <= 0 { break }
                count += got
            }
        }
        return failed ? nil : bytes
    }
}

private struct HeaderParser {
    let bytes: [UInt8]
    var offset = 0
    var ranOut = false
    private var version: UInt8 = 1

    init(bytes: [UInt8]) { self.bytes = bytes }

    /// Why the header was refused, when it was (nil when it ran out or is not netCDF-3).
    private(set) var refusal: String?

    /// libnetcdf's NC_MAX_NAME and NC_MAX_VAR_DIMS (netcdf.h; the loader asserts they agree).
    static let maxNameBytes: UInt64 = 256
    static let maxRank: UInt64 = 1024

    private static let dimensionTag: UInt64 = 0x0A
    private static let variableTag: UInt64 = 0x0B
    private static let attributeTag: UInt64 = 0x0C

    mutating func parse() -> ClassicLayout? {
        guard bytes.count >= 4, bytes[0] == 0x43, bytes[1] == 0x44, bytes[2] == 0x46 else { return nil }
        version = bytes[3]
        guard [1, 2, 5].contains(version) else { return nil }
        offset = 4
        guard let numrecs = count() else { return nil }
        // Dimensions: name and length; length 0 marks the record dimension.
        var dimensionLengths: [UInt64] = []
        guard let dimensionCount = listHeader(Self.dimensionTag) else { return nil }
        for _ in 0..<dimensionCount {
            guard skipName(), let length = count() else { return nil }
            dimensionLengths.append(length)
        }
        guard skipAttributes() else { return nil }
        guard let variableCount = listHeader(Self.variableTag) else { return nil }
        var required: UInt64 = UInt64(offset)
        var recordVariables: [(begin: UInt64, size: UInt64)] = []
        var recordSize: UInt64 = 0
        for _ in 0..<variableCount {
            guard skipName(), let rank = count() else { return nil }
            guard rank <= Self.maxRank else { return refuse("a variable of rank \(rank) (netCDF allows \(Self.maxRank))") }
            // Sizes saturate at UInt64.max: a header whose sizes overflow 64 bits promises more
            // than any file holds (a wrapped size would pass a truncated file as whole).
            var isRecord = false
            var values: UInt64 = 1
            for axis in 0..<rank {
                guard let dimid = count(), dimid < dimensionLengths.count else { return nil }
                let length = dimensionLengths[Int(dimid)]
                if axis == 0 && length == 0 { isRecord = true } else { values = Self.product(values, length) }
            }
            guard skipAttributes(), let type = word(4), let typeSize = Self.size(ofType: type),
                  let vsize = word(version == 5 ? 8 : 4), let begin = word(version == 1 ? 4 : 8) else { return nil }
            let dataSize = Self.product(values, typeSize)
            if isRecord {
                recordVariables.append((begin, dataSize))
                recordSize = Self.sum(recordSize, vsize)
            } else {
                required = max(required, Self.sum(begin, dataSize))
            }
        }
        // A single record variable is stored unpadded, so its record size is its data size.
        if recordVariables.count == 1 { recordSize = recordVariables[0].size }
        // 0xFFFFFFFF marks a file still being streamed. libnetcdf 4.9 does not work the count
        // out from the file's size: it reports 4,294,967,295 records and reads zeros past the
        // end, so such a file with record variables is refused (nccopy rewrites it whole).
        let streaming = numrecs == 0xFFFF_FFFF || numrecs == 0xFFFF_FFFF_FFFF_FFFF
        if streaming && !recordVariables.isEmpty {
            return refuse("the record count of a file still being streamed (0x\(String(numrecs, radix: 16, uppercase: true))), which libnetcdf reads as that many records; rewrite the file with nccopy")
        }
        if numrecs > 0 {
            for variable in recordVariables {
                required = max(required, Self.sum(Self.sum(variable.begin, Self.product(numrecs - 1, recordSize)), variable.size))
            }
        }
        return ClassicLayout(requiredSize: required)
    }

    private static func product(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let result = a.multipliedReportingOverflow(by: b)
        return result.overflow ? .max : result.partialValue
    }

    private static func sum(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let result = a.addingReportingOverflow(b)
        return result.overflow ? .max : result.partialValue
    }

    private static func size(ofType type: UInt64) -> UInt64? {
        switch type {
        case 1, 2, 7: return 1      // byte, char, ubyte
        case 3, 8: return 2         // short, ushort
        case 4, 5, 9: return 4      // int, float, uint
        case 6, 10, 11: return 8    // double, int64, uint64
        default: return nil
        }
    }

    /// A big-endian unsigned integer of `width` bytes.
    private mutating func word(_ width: Int) -> UInt64? {
        guard offset + width <= bytes.count else { ranOut = true; return nil }
        var value: UInt64 = 0
        for index in offset..<(offset + width) { value = value << 8 | UInt64(bytes[index]) }
        offset += width
        return value
    }

    /// A NON_NEG count: 8 bytes in CDF-5, 4 otherwise.
    private mutating func count() -> UInt64? { word(version == 5 ? 8 : 4) }

    /// A list header: ABSENT (two zeros) or the tag and the element count.
    private mutating func listHeader(_ tag: UInt64) -> UInt64? {
        guard let found = word(4), let elements = count() else { return nil }
        if found == 0 && elements == 0 { return 0 }
        return found == tag ? elements : nil
    }

    /// Skips `length` bytes and the padding to 4. A length from the file (8 bytes in CDF-5)
    /// that reaches past the longest header parsed is refused, not "ran out": no longer prefix
    /// would hold it (and padding it could overflow).
    private mutating func skip(_ length: UInt64) -> Bool {
        guard length < UInt64(ClassicLayout.maxHeaderBytes) else { return false }
        let padded = (length + 3) / 4 * 4
        guard padded <= UInt64(bytes.count - offset) else { ranOut = true; return false }
        offset += Int(padded)
        return true
    }

    /// Skips a name, refusing one longer than NC_MAX_NAME: libnetcdf 4.9 reads any length from
    /// a classic header and copies it whole into the caller's NC_MAX_NAME + 1 byte buffer.
    private mutating func skipName() -> Bool {
        guard let length = count() else { return false }
        guard length <= Self.maxNameBytes else {
            refusal = "a name of \(length) bytes (netCDF allows \(Self.maxNameBytes))"
            return false
        }
        return skip(length)
    }

    private mutating func refuse(_ reason: String) -> ClassicLayout? {
        refusal = reason
        return nil
    }

    private mutating func skipAttributes() -> Bool {
        guard let attributeCount = listHeader(Self.attributeTag) else { return false }
        for _ in 0..<attributeCount {
            guard skipName(), let type = word(4), let typeSize = Self.size(ofType: type), let elements = count() else { return false }
            let size = elements.multipliedReportingOverflow(by: typeSize)
            guard !size.overflow, skip(size.partialValue) else { return false }
        }
        return true
    }
}
