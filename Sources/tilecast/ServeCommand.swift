import ArgumentParser
import TileCastCommandLine

/// `tilecast serve`: runs the server executable, `tilecast-server`, found beside this one,
/// with the same arguments. The server is its own binary so that linking Hummingbird and
/// SwiftNIO does not slow down every `tilecast query`'s start (benchmark B4,
/// benchmarks/RESULTS.md); its options and --help are the server's.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve Open-Meteo's /v1/forecast API from the store (tilecast serve --help for its options).",
        helpNames: []
    )

    @Argument(parsing: .captureForPassthrough, help: "--store DIR [--host 127.0.0.1] [--port 8080] [--max-in-flight 64]")
    var arguments: [String] = []

    func run() throws {
        try SiblingBinary.exec("tilecast-server", arguments, prefix: "serve: ")
    }
}
