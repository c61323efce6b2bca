import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The store's few file-system moves, made so that nothing inside a store can send them
/// outside it: links are never followed when opening, creating or deleting, only regular files
/// are opened, and every failure keeps its errno.
package enum StoreFileSystem {
    package enum Kind: Equatable { case regular, directory, symbolicLink, other }

    /// What is at `path` itself (a link is a link), or nil when nothing is.
    package static func kind(_ path: String) -> Kind? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return .regular
        case S_IFDIR: return .directory
        case S_IFLNK: return .symbolicLink
        default: return .other
        }
    }

    /// The text of a symbolic link, or nil when `path` is not one.
    package static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink(path, &buffer, buffer.count - 1)
        guard length >= 0 else { return nil }
        return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A plain name: no "/", not "." or "..", not empty.
    package static func isPlainName(_ name: String) -> Bool {
        // On the bytes: `contains` of a String went through Foundation's NSString search
        // (~11,000 instructions a name; the server asks twice a request, S1).
        !name.isEmpty && name != "." && name != ".." && !name.utf8.contains(UInt8(ascii: "/")) && !name.utf8.contains(0)
    }

    /// Makes a folder the store owns, or checks the one already there is a real folder (a
    /// symbolic link there could send every later write or delete elsewhere).
    package static func ensureDirectory(_ path: String) throws(StoreError) {
        switch kind(path) {
        case .directory: return
        case .symbolicLink: throw .unsafe(path: path, detail: "is a symbolic link (to \(linkTarget(path) ?? "?")) where the store keeps a folder")
        case .regular, .other: throw .unsafe(path: path, detail: "is not a folder")
        case nil:
            if SystemCalls.perform(.mkdir, { mkdir(path, 0o755) }) != 0 && errno != EEXIST {
                throw .io(path, "mkdir")
            }
            guard kind(path) == .directory else { throw .unsafe(path: path, detail: "is not a folder") }
        }
    }

    /// Opens an existing or new regular file without following a link at `path`, without
    /// blocking on a FIFO, and refuses anything but a regular file.
    ///
    /// - Parameter singleLink: also refuse a file with other hard links (a lock file that is a
    ///   hard link to a file elsewhere would have that file truncated).
    package static func openRegularFile(_ path: String, flags: Int32, mode: mode_t = 0o644, singleLink: Bool = false) throws(StoreError) -> Int32 {
        let descriptor = SystemCalls.perform(.open) { open(path, flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, mode) }
        guard descriptor >= 0 else {
            let code = errno
            if code == ELOOP { throw .unsafe(path: path, detail: "is a symbolic link (to \(linkTarget(path) ?? "?")) where the store keeps a plain file") }
            if code == ENOENT { throw .missing(path: path, what: "file") }
            if code == ENXIO { throw .corrupt(path: path, detail: "not a regular file (a FIFO or device)") }
            throw .io(path, "open", code)
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let code = errno
            close(descriptor)
            throw .io(path, "fstat", code)
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw .corrupt(path: path, detail: "not a regular file (a FIFO, device or folder): refusing to read it")
        }
        if singleLink && status.st_nlink > 1 {
            close(descriptor)
            throw .unsafe(path: path, detail: "has \(status.st_nlink) hard links")
        }
        // Regular files never block; clear the flag so writes behave as usual.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        return descriptor
    }

    /// The names in a folder (not "." or ".."), in no particular order.
    ///
    /// - Throws: `.missing` when there is no folder; `.io` with the call's errno otherwise
    ///   (permission denied, not a folder, I/O error).
    package static func list(_ path: String) throws(StoreError) -> [String] {
        guard let folder = opendir(path) else {
            let code = errno
            if code == ENOENT { throw .missing(path: path, what: "folder") }
            throw .io(path, "list", code)
        }
        defer { closedir(folder) }
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(folder) else {
                if errno != 0 { throw .io(path, "list") }
                return names
            }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
    }

    /// Removes a file, link or folder tree the store made, never following a link: a link
    /// inside is removed as a link, and what it names is left alone.
    package static func removeTree(_ path: String) throws(StoreError) {
        switch kind(path) {
        case nil: return
        case .directory:
            let entries: [String]
            do throws(StoreError) { entries = try list(path) } catch {
                if case .missing = error { return }
                throw error
            }
            for entry in entries { try removeTree(path + "/" + entry) }
            if rmdir(path) != 0 && errno != ENOENT { throw .io(path, "rmdir") }
        default:
            if SystemCalls.perform(.unlink, { unlink(path) }) != 0 && errno != ENOENT { throw .io(path, "unlink") }
        }
    }

    /// Renames within one folder tree (atomic on POSIX).
    package static func rename(_ from: String, _ to: String) throws(StoreError) {
        if SystemCalls.perform(.rename, { Glibc.rename(from, to) }) != 0 {
            throw .io(to, "rename from \(from)")
        }
    }

    /// Flushes a folder's entries (after a rename or create) to disk. A failure here means the
    /// publication may not survive a power cut, so it is an error, not a shrug.
    package static func syncDirectory(_ path: String) throws(StoreError) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { throw .io(path, "open folder for fsync") }
        defer { close(descriptor) }
        if SystemCalls.perform(.fsyncDirectory, { fsync(descriptor) }) != 0 { throw .io(path, "fsync") }
    }

    /// The canonical absolute path (links resolved), or nil when it does not exist.
    package static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
