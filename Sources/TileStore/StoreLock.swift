import Catalog
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The store's writer lock: an exclusive `flock` on STORE/.lock, held for the whole
/// extraction. The kernel releases it when the process dies, so a killed extraction never
/// leaves the store locked. The holder writes its pid and start time for the message others see.
///
/// The lock file is opened without following a link and must be a plain file with one link:
/// it is truncated, so a `.lock` planted as a link (symbolic or hard) to another file would
/// otherwise have that file emptied.
package final class StoreLock {
    private var descriptor: Int32

    /// Takes the lock without waiting.
    ///
    /// - Throws: `StoreError.locked` naming the holder, `.unsafe` for a `.lock` that is not a
    ///   plain file, or `.io` / `.writeFailed` when the store folder cannot be created.
    package init(root: String) throws(StoreError) {
        do {
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        } catch {
            throw .writeFailed(path: root, detail: "cannot create the store folder: \(error.localizedDescription)")
        }
        let path = root + "/.lock"
        descriptor = try StoreFileSystem.openRegularFile(path, flags: O_RDWR | O_CREAT, singleLink: true)
        if flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            var buffer = [UInt8](repeating: 0, count: 256)
            let count = pread(descriptor, &buffer, buffer.count, 0)
            let holder = String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            close(descriptor)
            descriptor = -1
            throw .locked(path: root, holder: holder.isEmpty ? "unknown process" : holder)
        }
        // ModelTime.iso, not ISO8601DateFormatter: the same text, without loading ICU (1.5 ms of
        // every extraction's start-up).
        let note = "pid \(getpid()), since \(ModelTime.iso(Int64(Date().timeIntervalSince1970.rounded(.down))))\n"
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
