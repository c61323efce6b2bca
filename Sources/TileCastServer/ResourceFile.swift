import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The server's data files (the time-zone table, the gazetteer): where they are looked for and
/// how they are read. SwiftPM copies them into `TileCast_TileCastServer.resources` beside the
/// executables it builds; installing `tilecast-server` means installing that folder beside it.
/// Not found through `Bundle.module`, whose accessor ends the process when the folder is missing.
package enum ResourceFile {
    /// The folder SwiftPM copies this target's resources into (`<package>_<target>.resources`).
    package static let bundleName = "TileCast_TileCastServer.resources"

    /// Why a file could not be had: one line, naming the places looked at.
    package struct LoadError: Error, CustomStringConvertible, Sendable {
        package let description: String
    }

    /// Where `fileName` is looked for, in order, each with what the place is: the file named
    /// by `environmentVariable` alone when it is set; else the bundle folder beside the running
    /// executable (links followed: /proc/self/exe), then, in debug builds only, the committed
    /// file in the source folder.
    package static func places(fileName: String, environmentVariable: String, environment: [String: String],
                               executable: String?) -> [(path: String, what: String)] {
        if let chosen = environment[environmentVariable], !chosen.isEmpty {
            return [(chosen, environmentVariable)]
        }
        var places: [(path: String, what: String)] = []
        if let executable {
            let folder = URL(fileURLWithPath: executable).deletingLastPathComponent()
            places.append((folder.appendingPathComponent(bundleName).appendingPathComponent(fileName).path, "beside the executable"))
        }
        #if DEBUG
        // A debug build run from elsewhere than its build folder: the file the build copied.
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        places.append((source.appendingPathComponent("Resources").appendingPathComponent(fileName).path, "the source folder"))
        #endif
        return places
    }

    /// The running executable's path, links followed; nil when /proc is not mounted.
    package static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The bytes of the regular file at `path`, or nil when nothing is there; `what` names the
    /// file in errors ("the time-zone table").
    static func read(_ path: String, what: String, maxBytes: Int) throws(LoadError) -> [UInt8]? {
        // Non-blocking: a FIFO named here must not hold the start-up; it is refused below.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { return nil }
            throw LoadError(description: "cannot read \(what) \(path): \(String(cString: strerror(code)))")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw LoadError(description: "\(what) \(path) is not a regular file")
        }
        guard status.st_size <= maxBytes else {
            throw LoadError(description: "\(what) \(path) is \(status.st_size) bytes: not a table (at most \(maxBytes))")
        }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return Glibc.read(descriptor, base + done, buffer.count - done)
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                let reason = count < 0 ? String(cString: strerror(errno)) : "it ended at byte \(done) of \(bytes.count)"
                throw LoadError(description: "cannot read \(what) \(path): \(reason)")
            }
            done += count
        }
        return bytes
    }
}
