#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A new file written front to back with POSIX calls, so that every failure (a full disk
/// included) surfaces as an error at the write that met it, and `fsync` makes the bytes
/// durable before the file is published.
final class OutputFile {
    let path: String
    private var descriptor: Int32

    init(path: String) throws(StoreError) {
        self.path = path
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        if descriptor < 0 { throw StoreError.writeFailed(path: path, detail: String(cString: strerror(errno))) }
    }

    func write(_ bytes: [UInt8]) throws(StoreError) {
        let failure: Int32? = bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                guard let base = buffer.baseAddress else { return nil }
                let written = systemWrite(descriptor, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
        if let failure { throw StoreError.writeFailed(path: path, detail: String(cString: strerror(failure))) }
    }

    func syncAndClose() throws(StoreError) {
        defer { close(descriptor); descriptor = -1 }
        if fsync(descriptor) != 0 { throw StoreError.writeFailed(path: path, detail: "fsync: " + String(cString: strerror(errno))) }
    }

    deinit { if descriptor >= 0 { close(descriptor) } }
}

/// Flushes a directory entry (after a rename or create) to disk.
func syncDirectory(_ path: String) {
    let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    _ = fsync(descriptor)
    close(descriptor)
}

private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.write(descriptor, bytes, count)
    #else
    return Darwin.write(descriptor, bytes, count)
    #endif
}
