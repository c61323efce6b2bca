#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A new file written front to back with POSIX calls, so that every failure (a full disk
/// included) surfaces as an error, errno kept, at the write that met it, and `fsync` makes the
/// bytes durable before the file is published.
final class OutputFile {
    let path: String
    private var descriptor: Int32

    init(path: String) throws(StoreError) {
        self.path = path
        descriptor = try StoreFileSystem.openRegularFile(path, flags: O_WRONLY | O_CREAT | O_TRUNC)
    }

    func write(_ bytes: [UInt8]) throws(StoreError) {
        let failure: Int32? = bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                guard let base = buffer.baseAddress else { return nil }
                let written = SystemCalls.perform(.write) { systemWrite(descriptor, base + offset, buffer.count - offset) }
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
        if let failure { throw .io(path, "write", failure) }
    }

    func syncAndClose() throws(StoreError) {
        defer { close(descriptor); descriptor = -1 }
        if SystemCalls.perform(.fsync, { fsync(descriptor) }) != 0 { throw .io(path, "fsync") }
    }

    deinit { if descriptor >= 0 { close(descriptor) } }
}

private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.write(descriptor, bytes, count)
    #else
    return Darwin.write(descriptor, bytes, count)
    #endif
}
