import ArgumentParser
import TileCastCommandLine

/// `tilecast-remote`: what `tilecast` runs when a store is remote (`query --store s3://...`,
/// `https://...`) and for `tilecast publish`. A second binary so that SwiftNIO, the HTTP client
/// and swift-crypto stay out of `tilecast`, whose start-up every query pays (benchmark B4,
/// benchmarks/RESULTS.md).
@main
struct TilecastRemote: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tilecast",
        abstract: "TileCast's commands on object storage (run by tilecast).",
        subcommands: [QueryCommand.self, PublishCommand.self, InspectCommand.self, BenchCommand.self]
    )

    static func main() { CommandLineMain.run(Self.self) }
}
