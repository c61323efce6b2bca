import Catalog
import ArgumentParser
import Foundation
import ObjectStore
import TileCastCommandLine
import TileStore

/// `tilecast publish`: a local store's cycles to an S3 bucket (see `Publisher` for the order):
/// every model's (or each named model's) newest cycle, so that a bucket mirrors the folder.
///
/// Publishing is its own step rather than `extract --store s3://`: extraction keeps writing a
/// local cycle with its lock, fsync and atomic renames (and its speed, benchmark B5 in
/// benchmarks/RESULTS.md); a failed upload is run again without extracting again; and a
/// cluster job can extract to scratch and publish from there.
struct PublishCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "publish",
        abstract: "Upload a store's cycles to an S3 bucket, switching each model's latest last.",
        discussion: """
        Publishes every model of the store (or those named with --model, repeated): for each, uploads each domain file of the cycle (multipart above --part-size-mb, every part and object with S3's CRC-32 checksum), then its cycle.json, then replaces MODEL/latest/cycle.json with one PUT, so readers see the old cycle or the new one, never a mix. Incomplete multipart uploads under the model's prefix (a publisher that died) are aborted first; running it again after a failure completes the job. Failed requests are retried with backoff (5xx, 429 throttling, broken connections). One publisher per model at a time.

        Credentials: AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY (/ AWS_SESSION_TOKEN), or the AWS_PROFILE profile of ~/.aws/credentials. Region: --s3-region, AWS_REGION, the shared config, else us-east-1. Endpoint: --s3-endpoint, AWS_ENDPOINT_URL, else AWS's; requests are path-style (MinIO, Ceph, moto).

        Models are published one after another, each whole or not at all; a failure stops there and names what was published before it.

        Exit codes: 0 published, 2 bad usage or settings, 5 the local cycle or the bucket failed.

        Example:
          tilecast publish --store /data/store --to s3://forecasts/tilecast --s3-endpoint http://127.0.0.1:9000
        """
    )

    @Option(help: "The local store folder.")
    var store: String

    @Option(help: "The bucket and prefix: s3://BUCKET/PREFIX.")
    var to: String

    @Option(help: "A model of the store to publish (repeat for several; default: every model).")
    var model: [String] = []

    @Option(help: "Cycle to publish, e.g. 2026-11-22T00Z (default: each model's latest).", transform: parseCycleOption)
    var cycle: CycleSelector = .latest

    @Option(help: "S3 endpoint (default: AWS_ENDPOINT_URL, else AWS's own).")
    var s3Endpoint: String?

    @Option(help: "S3 region (default: AWS_REGION, the shared config, us-east-1).")
    var s3Region: String?

    @Option(help: "Multipart part size in MiB, 5..1024; smaller files are one PUT.")
    var partSizeMb: Int = 16

    /// Tests only: parts smaller than S3 allows, for a server told to accept them (moto's
    /// S3_UPLOAD_PART_MIN_SIZE), so that small sample files go through multipart uploads.
    @Option(help: .hidden)
    var partSizeBytes: Int?

    func validate() throws {
        guard to.hasPrefix("s3://") else { throw ValidationError("--to \(to): expected s3://BUCKET/PREFIX") }
        guard (5...1024).contains(partSizeMb) else { throw ValidationError("--part-size-mb \(partSizeMb): expected 5..1024") }
    }

    func run() throws {
        let client: ObjectClient
        do throws(ObjectStoreError) { client = try ObjectClient(store: to, endpoint: s3Endpoint, region: s3Region) } catch {
            throw Failure(error)
        }
        var publisher = Publisher(client: client)
        publisher.partSize = partSizeBytes.map { max($0, 1) } ?? partSizeMb << 20
        let models: [String]
        do throws(StoreError) { models = model.isEmpty ? try CycleStore.models(root: store) : model } catch {
            throw Failure(error)
        }
        guard !models.isEmpty else { throw Failure(.damagedStore, "\(store): no published cycle to publish (run tilecast extract first)") }
        var done: [String] = []
        for name in models {
            let summary: Publisher.Summary
            let before = done.isEmpty ? "" : "; published before it: \(done.joined(separator: ", "))"
            do { summary = try publisher.publish(root: store, model: name, cycle: cycle) } catch let error as ObjectStoreError {
                if case .configuration = error { throw Failure(error) }
                throw Failure(ExitStatus(for: error), "publish \(name): \(error.description) (nothing of \(name) was switched; run it again)\(before)")
            } catch {
                throw Failure(ExitStatus(for: error), "publish \(name): \(error)\(before)")
            }
            let latest = summary.movedLatest ? "latest -> \(summary.cycle)" : "latest left on a newer cycle"
            print("published \(summary.model) \(summary.cycle) to \(to): \(summary.files) files, \(summary.bytes) bytes, \(summary.requests) requests, \(summary.abortedUploads) incomplete uploads aborted; \(latest)")
            done.append("\(summary.model) \(summary.cycle)")
        }
    }
}
