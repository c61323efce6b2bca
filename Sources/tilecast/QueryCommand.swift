import ArgumentParser
import TileCastCommandLine

/// `tilecast query`: point forecasts from a store folder. A remote store is answered by
/// `tilecast-remote` with the same options and code (see `LocalStores.open`).
struct QueryCommand: ParsableCommand {
    static let configuration = QueryOptions.configuration

    @OptionGroup var options: QueryOptions

    func run() throws {
        try QueryRun(options).run { options in try LocalStores.open(options) }
    }
}
