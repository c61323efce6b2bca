import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `tilecast publish`: runs `tilecast-remote publish` (beside this binary) with the same
/// arguments. Object storage needs an HTTP client and SigV4 signing (SwiftNIO, swift-crypto),
/// which would slow every `tilecast query`'s start (B4), so they live in that second binary,
/// as the server lives in `tilecast-server`. Its options and --help are that binary's.
struct PublishCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "publish",
        abstract: "Upload a store's cycle to an S3 bucket, switching the bucket's latest last (tilecast publish --help).",
        helpNames: []
    )

    @Argument(parsing: .captureForPassthrough, help: "--store DIR --to s3://BUCKET/PREFIX [--model NAME] [--cycle latest] [--s3-endpoint URL]")
    var arguments: [String] = []

    func run() throws {
        try RemoteBinary.exec(["publish"] + arguments)
    }
}

/// `tilecast-remote`, installed beside `tilecast`.
enum RemoteBinary {
    /// Whether a `--store` value is a remote store (a bucket or a web address).
    static func isRemote(_ store: String) -> Bool {
        store.hasPrefix("s3://") || store.hasPrefix("http://") || store.hasPrefix("https://")
    }

    /// Replaces this process with `tilecast-remote ARGUMENTS`.
    static func exec(_ arguments: [String]) throws -> Never {
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let path = URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent("tilecast-remote").path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw Failure(code: Failure.usage, message: "\(path) not found: a remote store needs it; build it with `swift build -c release --product tilecast-remote` and install it beside tilecast")
        }
        var cArguments = ([path] + arguments).map { strdup($0) }
        cArguments.append(nil)
        execv(path, cArguments)
        let code = errno
        throw Failure(code: Failure.usage, message: "cannot run \(path): \(String(cString: strerror(code)))")
    }
}
