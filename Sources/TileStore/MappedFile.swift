#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a reader's bytes live. The codec never does I/O itself: it reads these bytes through
/// bounds-checked `ByteReader`s.
protocol ByteStorage: AnyObject, Sendable {
    var bytes: UnsafeRawBufferPointer { get }
}

/// Bytes held in memory (a copy), for readers built from a buffer: tests and fuzzing.
final class OwnedBytes: ByteStorage, @unchecked Sendable {
    let bytes: UnsafeRawBufferPointer

    init(_ data: [UInt8]) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(data.count, 1), alignment: 16)
        data.withUnsafeBytes { buffer.copyMemory(from: $0) }
        bytes = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(buffer)[0..<data.count])
    }

    deinit { UnsafeMutableRawPointer(mutating: bytes.baseAddress)?.deallocate() }
}

/// A read-only memory map of a whole file. Pages load on first touch, so opening costs no
/// reading, and a published file that is later replaced stays valid for as long as it is mapped.
final class MappedFile: ByteStorage, @unchecked Sendable {
    let path: String
    let bytes: UnsafeRawBufferPointer

    init(path: String) throws(StoreError) {
        self.path = path
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw errno == ENOENT ? .missing(path: path, what: "domain file")
                : .missing(path: path, what: "readable domain file (" + String(cString: strerror(errno)) + ")")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .missing(path: path, what: "readable domain file") }
        let size = Int(status.st_size)
        guard size > 0 else {
            bytes = UnsafeRawBufferPointer(start: nil, count: 0)
            return
        }
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), address != MAP_FAILED else {
            throw .missing(path: path, what: "mappable domain file (" + String(cString: strerror(errno)) + ")")
        }
        bytes = UnsafeRawBufferPointer(start: address, count: size)
    }

    deinit {
        if let base = bytes.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), bytes.count) }
    }
}
