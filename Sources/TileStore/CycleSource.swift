import Catalog

/// A published cycle opened for reading: its manifest, checked (`CycleManifest.check`), and a
/// reader for each domain file it lists (`CycleManifest.files`: domains, then fast streams), in
/// its order, each checked against its entry (`CycleManifest.requireListed`: model, cycle,
/// domain, stream and size).
package struct OpenedCycle: Sendable {
    /// "2026-11-22T00Z".
    package let name: String
    /// What names this publication (unique per publication, never reused): a server compares
    /// it with what `latest` names now to see that a new cycle was published.
    package let publication: String
    package let manifest: CycleManifest
    /// The domains' files (their histories).
    package let readers: [DomainFileReader]
    /// The domains' fast streams' files (`DomainFileMetadata.stream`).
    package let streamReaders: [DomainFileReader]

    /// - Parameter readers: one per file of `manifest.files`, histories and fast streams alike.
    /// - Throws: `.corrupt` when the manifest's `reaches` is not what the histories hold.
    package init(name: String, publication: String, manifest: CycleManifest, readers: [DomainFileReader]) throws(StoreError) {
        self.name = name
        self.publication = publication
        self.manifest = manifest
        self.readers = readers.filter { $0.metadata.stream == nil }
        streamReaders = readers.filter { $0.metadata.stream != nil }
        try manifest.requireReach(lastTimes: self.readers.compactMap { $0.metadata.times.last }, path: publication)
    }
}

/// Where published cycles come from: a store folder (`LocalCycleSource`) or an object store
/// (ObjectStore's `RemoteCycleSource`, whose domain files are read through ranged requests).
/// Both open a cycle the same way, manifest first, so a query answers from either alike.
package protocol CycleSource: Sendable {
    /// The store's address, for messages: a folder, or "s3://bucket/prefix".
    var location: String { get }

    /// Opens a model's cycle (`latest`: the one the model's `latest` names).
    ///
    /// - Throws: `StoreError`: `.missing` or `.noCycle` when there is no such cycle, damage when
    ///   the manifest or a file it lists does not hold together, `.unreachable` for an object
    ///   server that does not answer.
    func open(model: String, cycle: CycleSelector) throws(StoreError) -> OpenedCycle

    /// The model's published cycles, oldest first; nil when the store cannot be listed (a web
    /// server that gives no index of its folders): then only `latest` is known.
    ///
    /// - Throws: `StoreError` when the store does not answer or its listing is damaged.
    func cycles(model: String) throws(StoreError) -> [CycleID]?

    /// What names a cycle's publication now (`OpenedCycle.publication`, unique per publication:
    /// a folder's data folder, a remote manifest's address and time); nil when it is not
    /// published (pruned, never there).
    ///
    /// - Throws: `StoreError` when that cannot be told (damage, an object server that does not
    ///   answer, a read refused): never taken for "not published".
    func publication(model: String, cycle: CycleID) throws(StoreError) -> String?
}

/// The cycles of a store folder (the layout in `CycleStore`).
package struct LocalCycleSource: CycleSource {
    package let root: String
    package var location: String { root }

    package init(root: String) { self.root = root }

    package func cycles(model: String) throws(StoreError) -> [CycleID]? { try CycleStore.cycles(root: root, model: model) }

    package func publication(model: String, cycle: CycleID) throws(StoreError) -> String? {
        do throws(StoreError) { return try CycleStore.resolve(root: root, model: model, cycle: .cycle(cycle)).folder } catch {
            switch error {
            case .missing, .noCycle: return nil
            default: throw error
            }
        }
    }

    package func open(model: String, cycle: CycleSelector) throws(StoreError) -> OpenedCycle {
        // A re-extraction of this cycle (or --keep pruning) removes the folder its link named
        // before, possibly between our resolving the link and opening the files (Scripts/faults
        // saw "domain file not found", and listings missing a domain). So: open, then check
        // that the link still names the folder; if not, or if a file vanished, resolve again.
        // A folder still named after its files are open was never removed (folder names are
        // unique and never linked again): what was opened is that cycle.
        var attempt = 0
        while true {
            let opened: OpenedCycle
            do throws(StoreError) {
                // The cycle's manifest lists its domains: one that cannot be opened is damage
                // (exit 5), never an answer from the coarser domain instead.
                let published = try CycleStore.openCycle(root: root, model: model, cycle: cycle)
                var readers: [DomainFileReader] = []
                for (path, entry) in zip(published.domainPaths, published.manifest.files) {
                    let reader = try DomainFileReader(path: path)
                    try published.manifest.requireListed(reader.metadata, size: reader.fileSize, entry: entry, path: path)
                    readers.append(reader)
                }
                opened = try OpenedCycle(name: published.name, publication: published.folder, manifest: published.manifest, readers: readers)
            } catch {
                if case .missing = error, attempt < 3 { attempt += 1; continue }
                throw error
            }
            if attempt < 3, (try? CycleStore.resolve(root: root, model: model, cycle: cycle))?.folder != opened.publication {
                attempt += 1
                continue
            }
            return opened
        }
    }
}
