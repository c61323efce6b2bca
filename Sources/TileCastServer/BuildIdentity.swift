import CZlib
import Catalog
import Foundation

/// Which build of the server is answering: the version and a CRC-32 of the running executable's
/// bytes, hashed into every ETag (`AnswerValidators`). A new build may render an answer
/// differently with the version unchanged; a cache revalidating a tag made by the old build
/// must then get the new body, not a 304. The same binary on every server behind a balancer
/// gives the same identity (bytes, not paths or times), so their tags agree.
package enum BuildIdentity {
    /// Computed once, at the server's start (`ForecastServer.init`): zlib's CRC reads a
    /// 30 MB release binary in a few milliseconds.
    package static let current: String = {
        guard let crc = executableChecksum() else { return TileCastVersion.current }
        return TileCastVersion.current + "+" + String(crc, radix: 16)
    }()

    /// CRC-32 of /proc/self/exe read in 4 MiB pieces (read(2): FileHandle's read(upToCount:)
    /// answers nil at the end on Linux); nil when it cannot be read (then the version alone is
    /// the identity).
    static func executableChecksum() -> UInt32? {
        let descriptor = open("/proc/self/exe", O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var crc = crc32(0, nil, 0)
        var buffer = [UInt8](repeating: 0, count: 4 << 20)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                return nil
            }
            crc = buffer.withUnsafeBytes { crc32(crc, $0.baseAddress?.assumingMemoryBound(to: Bytef.self), uInt(count)) }
        }
        return UInt32(truncatingIfNeeded: crc)
    }
}
