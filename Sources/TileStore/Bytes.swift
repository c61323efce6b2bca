import CZlib

/// CRC-32 (zlib's, the IEEE polynomial) of a byte range.
@inline(__always)
func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
    guard let base = bytes.baseAddress, bytes.count > 0 else { return 0 }
    var crc: UInt = 0
    var offset = 0
    // zlib takes a 32-bit length; feed large ranges in pieces.
    while offset < bytes.count {
        let length = min(bytes.count - offset, 1 << 30)
        crc = crc32(crc, base.advanced(by: offset).assumingMemoryBound(to: Bytef.self), uInt(length))
        offset += length
    }
    return UInt32(truncatingIfNeeded: crc)
}

func checksum(_ bytes: [UInt8]) -> UInt32 {
    bytes.withUnsafeBytes { checksum($0) }
}

/// Appends little-endian numbers and bytes to a growing buffer.
struct ByteWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    mutating func append<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func append(_ data: [UInt8]) { bytes.append(contentsOf: data) }

    mutating func append(_ text: String) { bytes.append(contentsOf: Array(text.utf8)) }

    /// The low `count` bytes of a number, least significant first.
    mutating func appendLittleEndian(_ value: UInt64, bytes count: Int) {
        for k in 0..<count { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(8 * k))) }
    }

    /// Zigzag + LEB128: small signed numbers in one or two bytes.
    mutating func appendVarint(_ value: Int64) {
        var zigzag = UInt64(bitPattern: (value << 1) ^ (value >> 63))
        while zigzag >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: zigzag) | 0x80)
            zigzag >>= 7
        }
        bytes.append(UInt8(zigzag))
    }
}

/// Bounds-checked little-endian reads over a byte range the caller owns (a mapped file or
/// a buffer). The codec reads only through this, so a damaged length or offset becomes an
/// error, never a read outside the file.
struct ByteReader {
    let bytes: UnsafeRawBufferPointer
    var offset: Int

    init(_ bytes: UnsafeRawBufferPointer, offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    var remaining: Int { bytes.count - offset }

    mutating func read<T: FixedWidthInteger>(_: T.Type = T.self) -> T? {
        let size = MemoryLayout<T>.size
        guard offset >= 0, size <= bytes.count - offset else { return nil }
        var value = T.zero
        withUnsafeMutableBytes(of: &value) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + size)])) }
        offset += size
        return T(littleEndian: value)
    }

    mutating func readBytes(_ count: Int) -> UnsafeRawBufferPointer? {
        guard count >= 0, offset >= 0, count <= bytes.count - offset else { return nil }
        defer { offset += count }
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)])
    }

    mutating func readVarint() -> Int64? {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while shift < 64 {
            guard offset < bytes.count else { return nil }
            let byte = bytes[offset]
            offset += 1
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 {
                return Int64(bitPattern: result >> 1) ^ -Int64(bitPattern: result & 1)
            }
            shift += 7
        }
        return nil
    }
}
