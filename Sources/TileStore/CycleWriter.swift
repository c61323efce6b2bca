import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes one cycle of one model into a staging folder and publishes it atomically.
///
/// Until `publish` succeeds nothing a reader can see changes; if the writer is dropped
/// unpublished (an error, a thrown failure) its staging folder is removed. A killed process
/// leaves a `.partial` folder that no link names; the next extraction removes it.
public final class CycleWriter {
    public let root: String
    public let model: String
    public let cycleName: String
    /// The staging folder the domain files go into.
    public let stagingFolder: String
    private let finalFolderName: String
    private let lock: StoreLock
    private var published = false
    /// Removed when the writer is dropped unpublished: the staging folder, then the renamed one.
    private var unpublishedFolder: String?

    /// Takes the store's lock and creates a staging folder.
    ///
    /// - Throws: `StoreError.locked` when another extraction holds the store,
    ///   `.writeFailed` when folders cannot be created.
    public init(root: String, model: String, cycle: Int64) throws(StoreError) {
        guard !model.isEmpty, !model.hasPrefix("."), !model.contains("/") else {
            throw .badRequest("model name \"\(model)\" must be a plain folder name (no '/', not starting with '.')")
        }
        self.root = root
        self.model = model
        cycleName = CycleStore.cycleName(cycle)
        lock = try StoreLock(root: root)
        let data = root + "/" + model + "/.data"
        let unique = "\(Int(Date().timeIntervalSince1970 * 1000))-\(getpid())"
        finalFolderName = cycleName + "." + unique
        stagingFolder = data + "/" + finalFolderName + ".partial"
        unpublishedFolder = stagingFolder
        do {
            try FileManager.default.createDirectory(atPath: stagingFolder, withIntermediateDirectories: true)
        } catch {
            throw .writeFailed(path: stagingFolder, detail: error.localizedDescription)
        }
        Self.removeOrphans(modelFolder: root + "/" + model, keeping: stagingFolder)
    }

    /// Where a domain's file is written before publication.
    public func domainPath(_ domain: Int) -> String { stagingFolder + "/" + CycleStore.domainFileName(domain) }

    /// Publishes the staged cycle: the folder becomes immutable, the cycle's link and then
    /// `latest` switch to it, and old cycles beyond `keep` are pruned (never the one `latest`
    /// names). Each step is a rename, so a crash at any point leaves the previous state or
    /// the new one, never a mix. Both new links are made before either is switched, so a full
    /// disk (no room for a link) fails with nothing visible: after that only renames remain.
    ///
    /// - Parameter manifest: written as cycle.json beside the domain files.
    /// - Returns: the cycles pruned.
    @discardableResult
    public func publish(manifest: [UInt8], keep: Int? = nil) throws(StoreError) -> [String] {
        let modelFolder = root + "/" + model
        let dataFolder = modelFolder + "/.data"
        let manifestFile = try OutputFile(path: stagingFolder + "/cycle.json")
        try manifestFile.write(manifest)
        try manifestFile.syncAndClose()
        syncDirectory(stagingFolder)
        let finalFolder = dataFolder + "/" + finalFolderName
        try rename(stagingFolder, finalFolder)
        unpublishedFolder = finalFolder
        syncDirectory(dataFolder)
        let cycleLink = modelFolder + "/" + cycleName, latestLink = modelFolder + "/latest"
        let cycleTemporary = try temporaryLink(for: cycleLink, to: ".data/" + finalFolderName)
        let latestTemporary: String
        do {
            latestTemporary = try temporaryLink(for: latestLink, to: newestCycle(modelFolder: modelFolder))
        } catch {
            unlink(cycleTemporary)
            throw error
        }
        let previous = try? FileManager.default.destinationOfSymbolicLink(atPath: cycleLink)
        do {
            try rename(cycleTemporary, cycleLink)
        } catch {
            unlink(cycleTemporary)
            unlink(latestTemporary)
            throw error
        }
        do {
            try rename(latestTemporary, latestLink)
        } catch {
            unlink(latestTemporary)
            // A new cycle is taken back, so that a failure publishes nothing; a replaced one
            // keeps its new folder (its link already names it).
            if previous == nil { unlink(cycleLink) } else { unpublishedFolder = nil }
            throw error
        }
        syncDirectory(modelFolder)
        published = true
        if let previous, previous != ".data/" + finalFolderName {
            try? FileManager.default.removeItem(atPath: modelFolder + "/" + previous)
        }
        return keep.map { prune(modelFolder: modelFolder, keep: $0) } ?? []
    }

    deinit {
        if !published, let unpublishedFolder { try? FileManager.default.removeItem(atPath: unpublishedFolder) }
    }

    /// `latest` names the newest published cycle, so re-extracting an older cycle does not
    /// move it backwards.
    private func newestCycle(modelFolder: String) -> String {
        (CycleStore.cycles(root: root, model: model) + [cycleName]).max() ?? cycleName
    }

    /// A new link "PATH.new-PID" to `destination`, to be renamed over `path`.
    private func temporaryLink(for path: String, to destination: String) throws(StoreError) -> String {
        let temporary = path + ".new-\(getpid())"
        unlink(temporary)
        if symlink(destination, temporary) != 0 {
            throw .writeFailed(path: temporary, detail: "symlink: " + String(cString: strerror(errno)))
        }
        return temporary
    }

    private func rename(_ from: String, _ to: String) throws(StoreError) {
        if Glibc.rename(from, to) != 0 {
            throw .writeFailed(path: to, detail: "rename from \(from): " + String(cString: strerror(errno)))
        }
    }

    /// Removes all but the newest `keep` cycles, never the one `latest` names.
    private func prune(modelFolder: String, keep: Int) -> [String] {
        let cycles = CycleStore.cycles(root: root, model: model)
        let latest = CycleStore.latest(root: root, model: model)
        let doomed = cycles.dropLast(max(keep, 0)).filter { $0 != latest }
        for cycle in doomed {
            let target = try? FileManager.default.destinationOfSymbolicLink(atPath: modelFolder + "/" + cycle)
            try? FileManager.default.removeItem(atPath: modelFolder + "/" + cycle)
            if let target { try? FileManager.default.removeItem(atPath: modelFolder + "/" + target) }
        }
        return Array(doomed)
    }

    /// Removes data folders no link names (left by killed extractions or replaced cycles), and
    /// the temporary links of a link switch a killed writer left ("latest.new-PID",
    /// "<cycle>.new-PID"): they are never read, and must not keep the folder they name alive.
    /// Runs under the store lock, so no other writer is using them.
    static func removeOrphans(modelFolder: String, keeping current: String) {
        let dataFolder = modelFolder + "/.data"
        var entries = (try? FileManager.default.contentsOfDirectory(atPath: modelFolder)) ?? []
        for name in entries where name.contains(".new-") {
            try? FileManager.default.removeItem(atPath: modelFolder + "/" + name)
        }
        entries.removeAll { $0.contains(".new-") }
        let named = Set(entries.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: modelFolder + "/" + $0) })
        for name in (try? FileManager.default.contentsOfDirectory(atPath: dataFolder)) ?? [] {
            let path = dataFolder + "/" + name
            if path != current && !named.contains(".data/" + name) { try? FileManager.default.removeItem(atPath: path) }
        }
    }
}
