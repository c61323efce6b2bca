import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `tilecast serve`: runs the server executable, `tilecast-server`, found beside this one,
/// with the same arguments. The server is its own binary so that linking Hummingbird and
/// SwiftNIO does not slow down every `tilecast query`'s start (B4); its options and --help
/// are the server's.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve Open-Meteo's /v1/forecast API from the store (tilecast serve --help for its options).",
        helpNames: []
    )

    @Argument(parsing: .captureForPassthrough, help: "--store DIR [--host 127.0.0.1] [--port 8080] [--max-in-flight 64]")
    var arguments: [String] = []

    func run() throws {
        let server = Self.serverPath()
        guard FileManager.default.isExecutableFile(atPath: server) else {
            throw Failure(code: Failure.usage, message: "serve: \(server) not found: build it with `swift build -c release --product tilecast-server` and install it beside tilecast")
        }
        let argv = [server] + arguments
        var cArguments = argv.map { strdup($0) }
        cArguments.append(nil)
        execv(server, cArguments)
        // execv returns only when it failed.
        let code = errno
        throw Failure(code: Failure.usage, message: "serve: cannot run \(server): \(String(cString: strerror(code)))")
    }

    /// `tilecast-server` in the folder of the running `tilecast` (links followed).
    static func serverPath() -> String {
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent("tilecast-server").path
    }
}
