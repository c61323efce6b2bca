import ArgumentParser
import TileCastCommandLine

/// `tilecast publish`: runs `tilecast-remote publish` (beside this binary) with the same
/// arguments. Object storage needs an HTTP client and SigV4 signing (SwiftNIO, swift-crypto),
/// which would slow every `tilecast query`'s start (benchmark B4, benchmarks/RESULTS.md), so
/// they live in that second binary, as the server lives in `tilecast-server`. Its options and
/// --help are that binary's.
struct PublishCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "publish",
        abstract: "Upload a store's cycles (every model's newest) to an S3 bucket, switching each latest last (tilecast publish --help).",
        helpNames: []
    )

    @Argument(parsing: .captureForPassthrough, help: "--store DIR --to s3://BUCKET/PREFIX [--model NAME]... [--cycle latest] [--s3-endpoint URL]")
    var arguments: [String] = []

    func run() throws {
        try SiblingBinary.exec("tilecast-remote", ["publish"] + arguments, neededFor: "a remote store")
    }
}
