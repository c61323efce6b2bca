import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The store's writer lock: an exclusive `flock` on STORE/.lock, held for the whole
/// extraction. The kernel releases it when the process dies, so a killed extraction never
/// leaves the store locked. The holder writes its pid and start time for the message others see.
public final class StoreLock {
    private var descriptor: Int32

    /// Takes the lock without waiting.
    ///
    /// - Throws: `StoreError.locked` naming the holder, or `.writeFailed` when the store
    ///   folder cannot be created.
    public init(root: String) throws(StoreError) {
        do {
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        } catch {
            throw .writeFailed(path: root, detail: "cannot create the store folder: \(error.localizedDescription)")
        }
        let path = root + "/.lock"
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .writeFailed(path: path, detail: String(cString: strerror(errno))) }
        if flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let holder = (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
            close(descriptor)
            descriptor = -1
            throw .locked(path: root, holder: holder.flatMap { $0.isEmpty ? nil : $0 } ?? "unknown process")
        }
        let note = "pid \(getpid()), since \(ISO8601DateFormatter().string(from: Date()))\n"
        _ = ftruncate(descriptor, 0)
        _ = note.withCString { pwrite(descriptor, $0, strlen($0), 0) }
    }

    deinit {
        if descriptor >= 0 {
            _ = ftruncate(descriptor, 0)
            flock(descriptor, LOCK_UN)
            close(descriptor)
        }
    }
}
