import ArgumentParser
import Foundation

/// `tilecast-remote`: what `tilecast` runs when a store is remote (`query --store s3://...`,
/// `https://...`) and for `tilecast publish`. A second binary so that SwiftNIO, the HTTP client
/// and swift-crypto stay out of `tilecast`, whose start-up every query pays (B4).
@main
struct TilecastRemote: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tilecast",
        abstract: "TileCast's commands on object storage (run by tilecast).",
        subcommands: [QueryCommand.self, PublishCommand.self, BenchCommand.self]
    )

    /// As tilecast's own main: one or two lines on stderr, SPEC 5's exit codes.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let failure as Failure {
            FileHandle.standardError.write(Data("tilecast: error: \(failure.message)\n".utf8))
            Foundation.exit(failure.code)
        } catch {
            let code = exitCode(for: error)
            let message = fullMessage(for: error)
            if code == .success {
                print(message)
                Foundation.exit(0)
            }
            FileHandle.standardError.write(Data("\(message)\n".utf8))
            Foundation.exit(code == .validationFailure ? Failure.usage : code.rawValue)
        }
    }
}
