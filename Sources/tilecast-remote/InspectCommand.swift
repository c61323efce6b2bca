import ArgumentParser
import Foundation
import ObjectStore
import PointQuery
import TileCastCommandLine
import TileStore

/// `tilecast inspect s3://...|https://...` (tilecast runs this binary for a remote address): the
/// store's models, cycles, domains and sizes, as for a folder; `--verify` reads every block.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Describe a remote store like a folder (--verify reads and checks every block)."
    )

    @Argument(help: "The remote store: s3://BUCKET/PREFIX or http(s)://HOST/PATH.")
    var paths: [String]

    @Option(help: "Output format: table or json.")
    var format: String = "table"

    @Option(help: "A model to show (repeat for several; default: every one the store lists).")
    var model: [String] = []

    @Flag(help: "Read every block and verify its checksum (exit 5 on damage).")
    var verify = false

    @Option(help: "S3 endpoint (default: AWS_ENDPOINT_URL, else AWS's own).")
    var s3Endpoint: String?

    @Option(help: "S3 region (default: AWS_REGION, the shared config, us-east-1).")
    var s3Region: String?

    @Option(help: .hidden)
    var profile: String?

    func validate() throws {
        guard paths.count == 1 else { throw ValidationError("expected one remote store, got \(paths.count) paths") }
        guard format == "table" || format == "json" else { throw ValidationError("--format \(format): expected table or json") }
    }

    func run() throws {
        let client: ObjectClient
        do throws(ObjectStoreError) { client = try ObjectClient(store: paths[0], endpoint: s3Endpoint, region: s3Region) } catch {
            throw Failure(error)
        }
        let description: StoreDescription
        do { description = try RemoteStoreDescription.describe(client: client, models: model, verify: verify) } catch {
            throw Failure(error)
        }
        if format == "json" {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(description), as: UTF8.self))
        } else {
            print(description.text)
        }
    }
}
