import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// TileCast's other executables, installed beside `tilecast`: `tilecast-server` and
/// `tilecast-remote` hold the libraries (SwiftNIO, an HTTP client, swift-crypto) that would
/// slow the start of every `tilecast query`, so `tilecast` hands those commands over to them.
package enum SiblingBinary {
    /// `name` in the folder of the running executable (links followed).
    package static func path(_ name: String) -> String {
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments.first ?? name
        return URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent(name).path
    }

    /// Replaces this process with `name ARGUMENTS`.
    ///
    /// - Parameters:
    ///   - prefix: starts each message (the command's name and a colon, or nothing).
    ///   - neededFor: what needs the binary, said when it is missing.
    /// - Throws: `Failure` with status 2 when the binary is missing or cannot be run.
    package static func exec(_ name: String, _ arguments: [String], prefix: String = "", neededFor: String? = nil) throws(Failure) -> Never {
        let path = path(name)
        guard FileManager.default.isExecutableFile(atPath: path) else {
            let need = neededFor.map { "\($0) needs it; " } ?? ""
            throw Failure(.badUsage, "\(prefix)\(path) not found: \(need)build it with `swift build -c release --product \(name)` and install it beside tilecast")
        }
        var cArguments = ([path] + arguments).map { strdup($0) }
        cArguments.append(nil)
        execv(path, cArguments)
        // execv returns only when it failed.
        let code = errno
        throw Failure(.badUsage, "\(prefix)cannot run \(path): \(String(cString: strerror(code)))")
    }
}
