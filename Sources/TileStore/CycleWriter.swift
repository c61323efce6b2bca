import Catalog
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What publishing a cycle did besides publishing it.
package struct PublishResult: Sendable, Equatable {
    /// The cycles removed by `keep`.
    package var pruned: [String] = []
    /// What could not be cleaned up (the cycle itself is published): the operator should look.
    package var warnings: [String] = []
}

/// Writes one cycle of one model into a staging folder and publishes it atomically.
///
/// Until `publish` succeeds nothing a reader can see changes; if the writer is dropped
/// unpublished (an error, a thrown failure) its staging folder is removed. A killed process
/// leaves a `.partial` folder that no link names; the next extraction removes it.
///
/// Deletion is confined to `MODEL/.data`, to folders of the shape the store names them, and
/// never follows a link (a link planted in the store could otherwise send a delete anywhere).
package final class CycleWriter {
    package let root: String
    package let model: String
    package let cycle: CycleID
    package var cycleName: String { cycle.name }
    /// The staging folder the domain files go into.
    package let stagingFolder: String
    private let finalFolderName: String
    private let lock: StoreLock
    private var published = false
    /// Removed when the writer is dropped unpublished: the staging folder, then the renamed one.
    private var unpublishedFolder: String?
    private var modelFolder: String { root + "/" + model }
    private var dataFolder: String { modelFolder + "/.data" }

    /// Takes the store's lock and creates a staging folder.
    ///
    /// - Throws: `StoreError.locked` when another extraction holds the store, `.unsafe` when
    ///   the model or data folder is not a real folder, `.io` when folders cannot be created.
    package init(root: String, model: String, cycle: Int64) throws(StoreError) {
        guard StoreFileSystem.isPlainName(model), !model.hasPrefix(".") else {
            throw .badRequest("model name \"\(model)\" must be a plain folder name (no '/', not starting with '.')")
        }
        self.root = root
        self.model = model
        self.cycle = CycleID(seconds: cycle)
        lock = try StoreLock(root: root)
        let data = root + "/" + model + "/.data"
        try StoreFileSystem.ensureDirectory(root + "/" + model)
        try StoreFileSystem.ensureDirectory(data)
        let unique = "\(Int(Date().timeIntervalSince1970 * 1000))-\(getpid())"
        finalFolderName = self.cycle.name + "." + unique
        stagingFolder = data + "/" + finalFolderName + ".partial"
        if SystemCalls.perform(.mkdir, { mkdir(stagingFolder, 0o755) }) != 0 { throw .io(stagingFolder, "mkdir") }
        unpublishedFolder = stagingFolder
        Self.removeOrphans(modelFolder: root + "/" + model, keeping: finalFolderName + ".partial")
    }

    /// Where a domain's file is written before publication.
    package func domainPath(_ domain: Int, stream: String? = nil) -> String {
        stagingFolder + "/" + CycleStore.domainFileName(domain, stream: stream)
    }

    /// The manifest of the cycle this writer would replace, when that cycle is published.
    package func replacedManifest() -> CycleManifest? {
        guard let name = CycleStore.dataFolderName(linkedFrom: modelFolder + "/" + cycle.name) else { return nil }
        return try? CycleManifest.read(folder: dataFolder + "/" + name)
    }

    /// Publishes the staged cycle: the folder becomes immutable, the cycle's link and then
    /// `latest` switch to it, and old cycles beyond `keep` are pruned (never the one `latest`
    /// names). Each step is a rename, so a crash at any point leaves the previous state or
    /// the new one, never a mix. Both new links are made before either is switched, so a full
    /// disk (no room for a link) fails with nothing visible: after that only renames remain.
    ///
    /// - Parameter manifest: written as cycle.json beside the domain files.
    package func publish(manifest: CycleManifest, keep: Int? = nil) throws(StoreError) -> PublishResult {
        let manifestFile = try OutputFile(path: stagingFolder + "/" + CycleManifest.fileName)
        try manifestFile.write(try manifest.encoded())
        try manifestFile.syncAndClose()
        try StoreFileSystem.syncDirectory(stagingFolder)
        let finalFolder = dataFolder + "/" + finalFolderName
        try StoreFileSystem.rename(stagingFolder, finalFolder)
        unpublishedFolder = finalFolder
        try StoreFileSystem.syncDirectory(dataFolder)
        let cycleLink = modelFolder + "/" + cycle.name, latestLink = modelFolder + "/latest"
        let cycleTemporary = try temporaryLink(for: cycleLink, to: ".data/" + finalFolderName)
        let latestTemporary: String
        do {
            latestTemporary = try temporaryLink(for: latestLink, to: try latestCycle(publishing: manifest).name)
        } catch {
            unlink(cycleTemporary)
            throw error
        }
        // Only a folder this link named in `.data` is ever removed when the link moves on.
        let previous = CycleStore.dataFolderName(linkedFrom: cycleLink)
        let previousWasLink = StoreFileSystem.kind(cycleLink) == .symbolicLink
        do {
            try StoreFileSystem.rename(cycleTemporary, cycleLink)
        } catch {
            unlink(cycleTemporary)
            unlink(latestTemporary)
            throw error
        }
        do {
            try StoreFileSystem.rename(latestTemporary, latestLink)
        } catch {
            unlink(latestTemporary)
            // A new cycle is taken back, so that a failure publishes nothing; a replaced one
            // keeps its new folder (its link already names it).
            if !previousWasLink { unlink(cycleLink) } else { unpublishedFolder = nil }
            throw error
        }
        published = true
        try StoreFileSystem.syncDirectory(modelFolder)
        var result = PublishResult()
        if let previous, previous != finalFolderName {
            do { try StoreFileSystem.removeTree(dataFolder + "/" + previous) } catch {
                result.warnings.append("the replaced folder of \(cycle.name) was not removed: \(error)")
            }
        }
        if let keep { prune(keep: keep, into: &result) }
        return result
    }

    deinit {
        if !published, let unpublishedFolder { try? StoreFileSystem.removeTree(unpublishedFolder) }
    }

    /// What `latest` names once this cycle is published: the newest cycle that covers now (its
    /// cycle time at or before now, and it reaches now); when none does, the newest cycle.
    ///
    /// So re-extracting an older cycle never moves `latest` backwards, and a cycle still being
    /// written (`extract --grow`) whose first hours do not reach now yet leaves `latest` on the
    /// cycle before it, which does: a client asking for the coming hours keeps its answer until
    /// the new run has them. A store of past runs (none covers now) keeps the newest.
    private func latestCycle(publishing manifest: CycleManifest) throws(StoreError) -> CycleID {
        let cycles = Set(try CycleStore.cycles(root: root, model: model) + [cycle]).sorted()
        let now = Int64(Date().timeIntervalSince1970)
        for candidate in cycles.reversed() where candidate.seconds <= now {
            let reaches = candidate == cycle ? manifest.reaches : reachOfPublished(candidate)
            if let reaches, let time = ModelTime.parseUser(reaches), time >= now { return candidate }
        }
        return cycles.last ?? cycle
    }

    /// How far a published cycle reaches, from its manifest; nil when unreadable or not said
    /// (manifests written before `reaches` existed).
    private func reachOfPublished(_ id: CycleID) -> String? {
        guard let name = CycleStore.dataFolderName(linkedFrom: modelFolder + "/" + id.name) else { return nil }
        return (try? CycleManifest.read(folder: dataFolder + "/" + name))?.reaches
    }

    /// A new link "PATH.new-PID" to `destination`, to be renamed over `path`.
    private func temporaryLink(for path: String, to destination: String) throws(StoreError) -> String {
        let temporary = path + ".new-\(getpid())"
        if StoreFileSystem.kind(temporary) == .symbolicLink { unlink(temporary) }
        if symlink(destination, temporary) != 0 { throw .io(temporary, "symlink") }
        return temporary
    }

    /// Removes all but the newest `keep` cycles, never the one `latest` names, and only folders
    /// the store published (they hold a manifest). A cycle whose removal failed is a warning,
    /// not reported as pruned.
    private func prune(keep: Int, into result: inout PublishResult) {
        let cycles: [CycleID]
        do throws(StoreError) { cycles = try CycleStore.cycles(root: root, model: model) } catch {
            result.warnings.append("nothing pruned: \(error)")
            return
        }
        let latest = CycleStore.latest(root: root, model: model)
        for cycle in cycles.dropLast(max(keep, 0)) where cycle != latest {
            let link = modelFolder + "/" + cycle.name
            guard let name = CycleStore.dataFolderName(linkedFrom: link) else { continue }
            let folder = dataFolder + "/" + name
            do {
                switch StoreFileSystem.kind(folder) {
                case nil:
                    break   // a dangling link: only the link goes
                case .directory where StoreFileSystem.kind(folder + "/" + CycleManifest.fileName) == .regular:
                    // The link goes first, so that a failure half-way never leaves a link to a
                    // half-removed folder; the folder is then an orphan the next run removes.
                    if SystemCalls.perform(.unlink, { unlink(link) }) != 0 { throw StoreError.io(link, "unlink") }
                    try StoreFileSystem.removeTree(folder)
                    result.pruned.append(cycle.name)
                    continue
                default:
                    result.warnings.append("\(cycle.name) not pruned: \(folder) is not a folder the store published (no \(CycleManifest.fileName))")
                    continue
                }
                if SystemCalls.perform(.unlink, { unlink(link) }) != 0 { throw StoreError.io(link, "unlink") }
                result.pruned.append(cycle.name)
            } catch {
                result.warnings.append("\(cycle.name) not pruned: \(error)")
            }
        }
    }

    /// Removes data folders no link names (left by killed extractions or replaced cycles), and
    /// the temporary links of a link switch a killed writer left ("latest.new-PID",
    /// "<cycle>.new-PID"): they are never read, and must not keep the folder they name alive.
    /// Only names of the store's own shape are touched. Runs under the store lock, so no other
    /// writer is using them; a failure leaves the leftover for the next run.
    static func removeOrphans(modelFolder: String, keeping current: String) {
        let dataFolder = modelFolder + "/.data"
        var entries = (try? FileManager.default.contentsOfDirectory(atPath: modelFolder)) ?? []
        for name in entries where name.contains(".new-") && StoreFileSystem.kind(modelFolder + "/" + name) == .symbolicLink {
            unlink(modelFolder + "/" + name)
        }
        entries.removeAll { $0.contains(".new-") }
        let named = Set(entries.compactMap { CycleStore.dataFolderName(linkedFrom: modelFolder + "/" + $0) })
        for name in (try? FileManager.default.contentsOfDirectory(atPath: dataFolder)) ?? []
        where name != current && !named.contains(name) && isDataFolderName(name) {
            try? StoreFileSystem.removeTree(dataFolder + "/" + name)
        }
    }

    /// "2026-11-22T00Z.1795316809178-4242" or the same with ".partial": what `init` names.
    static func isDataFolderName(_ name: String) -> Bool {
        var parts = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if parts.last == "partial" { parts.removeLast() }
        guard parts.count == 2, CycleID(name: parts[0]) != nil else { return false }
        let unique = parts[1].split(separator: "-", omittingEmptySubsequences: false)
        return unique.count == 2 && unique.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) }
    }
}
