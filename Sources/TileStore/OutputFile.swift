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

    /// - Parameter readable: also open for reading back (scratch files).
    init(path: String, readable: Bool = false) throws(StoreError) {
        self.path = path
        descriptor = try StoreFileSystem.openRegularFile(path, flags: (readable ? O_RDWR : O_WRONLY) | O_CREAT | O_TRUNC)
    }

    func write(_ bytes: [UInt8]) throws(StoreError) {
        let failure: Int32? = bytes.withUnsafeBytes { write(raw: $0) }
        if let failure { throw .io(path, "write", failure) }
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws(StoreError) {
        if let failure = write(raw: bytes) { throw .io(path, "write", failure) }
    }

    /// Reads back `count` bytes at `offset` (a file opened `readable`); the bytes read, or -1.
    func read(into buffer: UnsafeMutableRawPointer, count: Int, at offset: Int) -> Int {
        var done = 0
        while done < count {
            let got = pread(descriptor, buffer + done, count - done, off_t(offset + done))
            if got < 0 { if errno == EINTR { continue }; return -1 }
            if got == 0 { break }
            done += got
        }
        return done
    }

    /// Writes all of `buffer`; the errno of a failure, or nil.
    private func write(raw buffer: UnsafeRawBufferPointer) -> Int32? {
        guard let base = buffer.baseAddress else { return nil }
        var offset = 0
        while offset < buffer.count {
            let written = SystemCalls.perform(.write) { systemWrite(descriptor, base + offset, buffer.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += written
        }
        return nil
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
