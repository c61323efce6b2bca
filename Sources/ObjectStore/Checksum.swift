import CZlib

/// CRC-32 (zlib's, the one S3's `x-amz-checksum-crc32` uses), and its header form: the
/// big-endian bytes in base64.
package enum ObjectChecksum {
    package static func crc32(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard let base = bytes.baseAddress else { return 0 }
        var crc = CZlib.crc32(0, nil, 0)
        var offset = 0
        while offset < bytes.count {
            let chunk = min(bytes.count - offset, Int(UInt32.max >> 1))
            crc = CZlib.crc32(crc, base.assumingMemoryBound(to: UInt8.self) + offset, uInt(chunk))
            offset += chunk
        }
        return UInt32(crc)
    }

    package static func crc32(_ bytes: [UInt8]) -> UInt32 { bytes.withUnsafeBytes { crc32($0) } }

    /// The header value: base64 of the CRC's four bytes, most significant first.
    package static func header(_ crc: UInt32) -> String {
        let bytes = [UInt8(crc >> 24), UInt8((crc >> 16) & 0xff), UInt8((crc >> 8) & 0xff), UInt8(crc & 0xff)]
        return Data(bytes).base64EncodedString()
    }
}

import Foundation
