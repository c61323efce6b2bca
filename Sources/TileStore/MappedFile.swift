#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A read-only memory map of a whole file: the backend the reader's bounds-checked
/// `ByteReader`s run over. Pages load on first touch, so opening costs no reading, and a
/// published file that is later replaced stays valid for as long as it is mapped.
final class MappedFile: @unchecked Sendable {
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
