import ArgumentParser
import TileCastCommandLine

/// `tilecast query` on a remote store (tilecast runs this binary for s3:// and http(s)://
/// stores): the same options and answers, the cycle read with ranged requests.
struct QueryCommand: ParsableCommand {
    static let configuration = QueryOptions.configuration

    @OptionGroup var options: QueryOptions

    func run() throws {
        try QueryRun(options).run { options in try RemoteStores.open(options) }
    }
}
