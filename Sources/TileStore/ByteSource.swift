#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a reader's bytes come from. The codec never does I/O itself: the reader copies what
/// it needs through this (a file read with `pread`, or a buffer), then decodes with
/// bounds-checked `ByteReader`s. `package` so that object storage (ObjectStore's ranged HTTP
/// reads) can be one more source.
package protocol ByteSource: AnyObject, Sendable {
    /// Bytes in the source when it was opened.
    var size: Int { get }
    /// Exactly `count` bytes from `offset`.
    ///
    /// - Throws: `StoreError.truncated` when the source now ends before them (a file shrunk
    ///   under its reader), `.io` for a failed read.
    func read(offset: Int, count: Int) throws(StoreError) -> [UInt8]

    /// Whether reads cost a round trip each (object storage), so that a reader fetches the
    /// blocks a forecast needs at once (`prefetch`) rather than one by one as it goes.
    var fetchesAhead: Bool { get }

    /// Fetches `ranges` at once and holds them for the reads that follow; the requests sent.
    /// A local file reads as it goes: nothing to do.
    func prefetch(ranges: [Range<Int>]) -> Int
}

extension ByteSource {
    package var fetchesAhead: Bool { false }
    package func prefetch(ranges: [Range<Int>]) -> Int { 0 }
}

/// Bytes held in memory, for readers built from a buffer: tests and fuzzing.
final class MemoryBytes: ByteSource {
    private let bytes: [UInt8]
    let label: String

    init(_ bytes: [UInt8], label: String) {
        self.bytes = bytes
        self.label = label
    }

    var size: Int { bytes.count }

    func read(offset: Int, count: Int) throws(StoreError) -> [UInt8] {
        guard offset >= 0, count >= 0, count <= bytes.count - offset else {
            throw .truncated(path: label, detail: "\(count) bytes at \(offset) lie past its end (\(bytes.count) bytes)")
        }
        return Array(bytes[offset..<(offset + count)])
    }
}

/// A store file read with `pread`, never memory-mapped: a file truncated while it is open (an
/// `rsync --inplace` of a replica, a careless copy) then gives a short read, reported as
/// damage, where a mapping would kill the process with SIGBUS. The descriptor stays open, so a
/// published file that is later replaced or pruned stays readable for as long as it is open.
final class PositionalFile: ByteSource {
    let path: String
    let size: Int
    private let descriptor: Int32

    /// Opens a regular file (never a FIFO, device or link: `StoreFileSystem.openRegularFile`).
    ///
    /// - Throws: `.missing` (ENOENT), `.corrupt` (not a regular file), `.unsafe` (a link),
    ///   `.io` with errno (permission denied, ...).
    init(path: String) throws(StoreError) {
        self.path = path
        let descriptor: Int32
        do { descriptor = try StoreFileSystem.openRegularFile(path, flags: O_RDONLY) } catch {
            if case .missing = error { throw .missing(path: path, what: "domain file") }
            throw error
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let code = errno
            close(descriptor)
            throw .io(path, "fstat", code)
        }
        self.descriptor = descriptor
        size = Int(status.st_size)
    }

    func read(offset: Int, count: Int) throws(StoreError) -> [UInt8] {
        guard offset >= 0, count >= 0 else { throw .corrupt(path: path, detail: "read of \(count) bytes at \(offset)") }
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = bytes.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return SystemCalls.perform(.pread) { pread(descriptor, base + done, count - done, off_t(offset + done)) }
            }
            if got < 0 {
                if errno == EINTR { continue }
                throw .io(path, "read")
            }
            if got == 0 {
                throw .truncated(path: path, detail: "it ends at byte \(offset + done), before the \(count) bytes at \(offset): the file shrank after it was opened")
            }
            done += got
        }
        return bytes
    }

    deinit { close(descriptor) }
}
