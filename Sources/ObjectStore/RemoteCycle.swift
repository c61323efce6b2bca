import Catalog
import Foundation
import TileStore

/// A published cycle on a remote store, opened for point reads.
///
/// The remote layout is the local store's, seen through a web server that follows its
/// links, and what `tilecast publish` writes to a bucket:
///
///     PREFIX/MODEL/latest/cycle.json     the newest cycle's manifest (names the cycle); replaced last
///     PREFIX/MODEL/CYCLE/cycle.json      each cycle's manifest
///     PREFIX/MODEL/CYCLE/d01.tcs ...     its domain files
///
/// So `latest` is one object, whose manifest names the cycle, and it is switched with one PUT
/// (atomic per object): a reader sees the old cycle or the new one. A local store folder served
/// as is (nginx follows `MODEL/latest -> CYCLE -> .data/...`) has the same addresses.
package final class RemoteCycle: Sendable {
    /// The cycle as any store's cycle is opened: a `ForecastStore` is made from it.
    package let opened: OpenedCycle
    package let manifest: CycleManifest
    /// The manifest's bytes: a server compares them with what `latest` holds now.
    package let manifestBytes: [UInt8]
    private let sources: [(reader: DomainFileReader, bytes: RemoteBytes)]

    /// Each domain file's reader and bytes, in the order of the manifest's `files` (for `inspect`).
    package var domainFiles: [(reader: DomainFileReader, bytes: RemoteBytes)] { sources }

    /// The store-relative address of a model's manifest for a cycle (`latest` is its own object).
    package static func manifestPath(model: String, cycle: CycleSelector) -> String {
        model + "/" + cycle.description + "/" + CycleManifest.fileName
    }

    /// Opens a model's cycle.
    ///
    /// - Throws: `StoreError` naming the address: no such cycle (nothing published, exit 5),
    ///   damaged (a manifest or file that does not hold together), or unreachable;
    ///   `.badRequest` for a model name that is not a plain name.
    package init(client: ObjectClient, model: String, cycle: CycleSelector = .latest,
                 cacheBudget: Int = DomainFileReader.defaultCacheBudget) throws(StoreError) {
        guard !model.isEmpty, !model.contains("/"), !model.hasPrefix(".") else {
            throw .badRequest("--model \(model): expected a plain model name")
        }
        let fetched = try RemoteCycleSource(client: client, cacheBudget: cacheBudget).openWithManifestBytes(model: model, cycle: cycle)
        opened = fetched.opened
        manifest = fetched.opened.manifest
        manifestBytes = fetched.manifestBytes
        sources = (fetched.opened.readers + fetched.opened.streamReaders).compactMap { reader in (reader.byteSource as? RemoteBytes).map { (reader, $0) } }
    }

    /// A fetched manifest, checked before anything it names is fetched (`CycleManifest.check`).
    /// The manifest is outside bytes: this is the fuzz target's entry
    /// (fuzz/Sources/FuzzRemoteAnswers).
    ///
    /// - Throws: `StoreError.corrupt` naming `address`.
    package static func decodeManifest(_ bytes: [UInt8], model: String, cycle: CycleSelector, address: String) throws(StoreError) -> CycleManifest {
        let manifest = try CycleManifest.decode(bytes, path: address)
        try manifest.check(model: model, cycle: cycle == .latest ? nil : cycle.description, path: address)
        return manifest
    }
}

/// The cycles of an object store (S3, or a web server in front of a store folder): manifests
/// fetched whole, domain files read through ranged requests (`RemoteBytes`).
package struct RemoteCycleSource: CycleSource {
    package let client: ObjectClient
    package let cacheBudget: Int
    package var location: String { client.location.description }

    package init(client: ObjectClient, cacheBudget: Int = DomainFileReader.defaultCacheBudget) {
        self.client = client
        self.cacheBudget = cacheBudget
    }

    package func open(model: String, cycle: CycleSelector) throws(StoreError) -> OpenedCycle {
        try openWithManifestBytes(model: model, cycle: cycle).opened
    }

    /// Listed as `tilecast inspect` lists a remote store (`RemoteStoreDescription.Listing`): a
    /// bucket's keys, or a web server's index pages.
    package func cycles(model: String) throws(StoreError) -> [CycleID]? {
        let listing: RemoteStoreDescription.Listing
        do throws(ObjectStoreError) { listing = try RemoteStoreDescription.Listing(client: client) } catch {
            throw RemoteBytes.storeError(error, label: client.location.description)
        }
        return listing.folders(under: model + "/").map { $0.compactMap(CycleID.init(name:)).sorted() }
    }

    package func publication(model: String, cycle: CycleID) throws(StoreError) -> String? {
        let path = RemoteCycle.manifestPath(model: model, cycle: .cycle(cycle))
        let fetched: [UInt8]?
        do throws(ObjectStoreError) { fetched = try client.getObject(path) } catch {
            throw RemoteBytes.storeError(error, label: client.describe(path))
        }
        guard let bytes = fetched else { return nil }
        return publication(model: model, manifest: try RemoteCycle.decodeManifest(bytes, model: model, cycle: .cycle(cycle), address: client.describe(path)))
    }

    /// "ADDRESS/MODEL/CYCLE@createdAt": a cycle published again under its name is a new publication.
    private func publication(model: String, manifest: CycleManifest) -> String {
        client.describe(model + "/" + manifest.cycle) + "@" + manifest.createdAt
    }

    /// The cycle, and its manifest's bytes as fetched: a server compares them with what
    /// `latest` holds at its next look.
    func openWithManifestBytes(model: String, cycle: CycleSelector) throws(StoreError) -> (opened: OpenedCycle, manifestBytes: [UInt8]) {
        let path = RemoteCycle.manifestPath(model: model, cycle: cycle)
        let fetched: [UInt8]?
        do throws(ObjectStoreError) { fetched = try client.getObject(path) } catch {
            throw RemoteBytes.storeError(error, label: client.describe(path))
        }
        guard let bytes = fetched else {
            throw .noCycle(address: client.describe(path), model: model, cycle: cycle == .latest ? nil : cycle.description)
        }
        let manifest = try RemoteCycle.decodeManifest(bytes, model: model, cycle: cycle, address: client.describe(path))
        var readers: [DomainFileReader] = []
        for entry in manifest.files {
            let relative = model + "/" + manifest.cycle + "/" + entry.file
            let remote: RemoteBytes
            do throws(StoreError) { remote = try RemoteBytes(client: client, relative: relative, expectedSize: entry.bytes) } catch {
                // The manifest lists it: its absence is damage (a `latest` naming a cycle that
                // is not all there), never an answer from a coarser domain.
                if case .missing = error {
                    throw .corrupt(path: client.describe(relative), detail: "missing: \(model) cycle \(manifest.cycle)'s manifest lists \(entry.domain) (\(entry.file))")
                }
                throw error
            }
            let reader = try DomainFileReader(source: remote, path: remote.label, cacheBudget: cacheBudget)
            try manifest.requireListed(reader.metadata, size: remote.size, entry: entry, path: remote.label)
            remote.releaseOpeningBytes()
            readers.append(reader)
        }
        return (try OpenedCycle(name: manifest.cycle, publication: publication(model: model, manifest: manifest), manifest: manifest, readers: readers), bytes)
    }
}
