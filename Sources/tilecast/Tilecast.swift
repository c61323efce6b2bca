import ArgumentParser
import Catalog
import Extraction
import TileCastCommandLine

/// `tilecast`: WRF / MM5 output to a compact tile store, and fast point forecasts from it.
@main
struct Tilecast: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tilecast",
        abstract: "Turn WRF and MM5 output into app-ready point forecasts.",
        discussion: """
        What it does, one command each:
          extract a run     tilecast extract SampleGrids --store /tmp/s
          forecast a place  tilecast query --store /tmp/s --lat 38.72 --lon -9.14
          check the store   tilecast inspect /tmp/s --verify
          describe a run    tilecast inspect SampleGrids
          adapt a profile   tilecast profile wrf > mysite.json
          serve the API     tilecast serve --store /tmp/s --port 8080
          to a bucket       tilecast publish --store /tmp/s --to s3://bucket/store

        Exit codes: 0 success, 2 bad usage, 3 unusable input data, 4 point or time outside what the store holds, 5 store damaged or missing.
        """,
        version: TileCastVersion.current,
        subcommands: [ExtractCommand.self, QueryCommand.self, InspectCommand.self, ProfileCommand.self, ServeCommand.self, PublishCommand.self]
    )

    static func main() { CommandLineMain.run(Self.self) }
}
