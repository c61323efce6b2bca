import Catalog
import Foundation
import ObjectStore
import PointQuery
import Synchronization
import TileStore

/// The opened cycles the server answers from, one per model, following each model's `latest`.
///
/// Every request asks which cycle `latest` names now: when `tilecast extract` publishes a new
/// cycle, the next request opens it and later requests share it. Asking is cheap on purpose
/// (it runs per request): the store folder's stat tells whether its list of model folders can
/// have changed (a folder added or removed changes the folder's mtime), and two readlinks per
/// model (`latest`, then the cycle link it names) tell whether the cycle is the one already
/// open; only a change runs the full, checked resolution (`CycleStore.resolve`) and opens the
/// new cycle. A request holds the `ForecastStore` it was given until it finishes; its files
/// stay open (read with pread), so a cycle that `--keep` prunes meanwhile is still read whole
/// by the requests already on it, and freed when the last one lets go.
package final class CycleCache: Sendable {
    package let root: String

    private struct Opened {
        let store: ForecastStore
        /// The texts of `latest` and of the cycle link it named when the store was opened.
        let latest: String
        let cycleLink: String
    }

    /// The store folder's identity and modification time: equal stamps, same model folders.
    private struct Stamp: Equatable {
        let device: UInt64, inode: UInt64, seconds: Int, nanoseconds: Int
    }

    private struct State {
        var opened: [String: Opened] = [:]
        var stamp: Stamp?
        var folders: [String] = []
        /// Older kept cycles opened for past hours, by their data folder (unique per publication).
        var older: [String: ForecastStore] = [:]
        /// Per model: the older cycles listed last, with what they were listed under.
        var olderLists: [String: OlderList] = [:]
    }

    private struct OlderList {
        let stamp: Stamp
        let newest: String
        let stores: [ForecastStore]
    }

    private let state = Mutex<State>(State())
    /// A remote store (s3://, https://) instead of the folder: its models are the ones named
    /// at start (a bucket behind a web server cannot be listed), its `latest` polled in the
    /// background (`RemoteCycles.startPolling`), never by a request: requests, `/health` and
    /// `/metrics` read only the cycles already open.
    package let remote: RemoteCycles?

    package init(root: String, remote: RemoteCycles? = nil) {
        self.root = root
        self.remote = remote
        remote?.startPolling()
    }

    /// A symbolic link's text, read into a stack buffer (this runs several times a request).
    private static func link(_ path: String) -> String? {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 1024) { buffer in
            guard let base = buffer.baseAddress else { return nil }
            let length = readlink(path, base, buffer.count)
            guard length >= 0, length < buffer.count else { return nil }
            return String(decoding: UnsafeRawBufferPointer(start: base, count: length), as: UTF8.self)
        }
    }

    private static func stamp(_ path: String) -> Stamp? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Stamp(device: UInt64(info.st_dev), inode: UInt64(info.st_ino),
                     seconds: Int(info.st_mtim.tv_sec), nanoseconds: Int(info.st_mtim.tv_nsec))
    }

    /// The store's visible folders (candidates for models), listed again only when the store
    /// folder changed.
    private func folders() -> [String] {
        guard let stamp = Self.stamp(root) else { return [] }
        if let known = state.withLock({ $0.stamp == stamp ? $0.folders : nil }) { return known }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [])
            .filter { !$0.hasPrefix(".") && StoreFileSystem.kind(root + "/" + $0) == .directory }.sorted()
        state.withLock {
            $0.stamp = stamp
            $0.folders = names
        }
        return names
    }

    /// The models of the store (folders with a `latest` link), sorted.
    package func models() -> [String] {
        if let remote { return remote.models }
        return folders().filter { Self.link(root + "/" + $0 + "/latest") != nil }
    }

    /// The model's latest cycle, opened once per publication.
    ///
    /// - Throws: `QueryError.store` when it cannot be opened (missing, damaged, being replaced).
    package func current(model: String) throws(QueryError) -> ForecastStore {
        if let remote { return try remote.current(model: model).store }
        return try current(model: model, latest: Self.link(root + "/" + model + "/latest"))
    }

    /// As `current(model:)`, with `latest`'s text already read.
    private func current(model: String, latest: String?) throws(QueryError) -> ForecastStore {
        let modelFolder = root + "/" + model
        if let latest, StoreFileSystem.isPlainName(latest),
           let cycleLink = Self.link(modelFolder + "/" + latest),
           let known = state.withLock({ $0.opened[model] }), known.latest == latest, known.cycleLink == cycleLink {
            return known.store
        }
        // Something changed (or nothing is open yet): the full, checked resolution.
        let latest = Self.link(modelFolder + "/latest") ?? ""
        let cycleLink = StoreFileSystem.isPlainName(latest) ? Self.link(modelFolder + "/" + latest) ?? "" : ""
        let folder: String
        do throws(StoreError) { folder = try CycleStore.resolve(root: root, model: model).folder } catch {
            throw .store(error)
        }
        if let cached = state.withLock({ $0.opened[model] }), cached.store.folder == folder {
            state.withLock { $0.opened[model] = Opened(store: cached.store, latest: latest, cycleLink: cycleLink) }
            return cached.store
        }
        // Opened outside the lock: opening reads every domain's header; two requests racing
        // here both open, and the last one stored wins (both are the same cycle).
        let store = try ForecastStore(root: root, model: model)
        // Remembered under the links read before resolving: if a publication raced in between,
        // the next request sees links that differ and resolves again.
        state.withLock { $0.opened[model] = Opened(store: store, latest: latest, cycleLink: cycleLink) }
        return store
    }

    /// The model's cycles older than `newest` that the store keeps, newest first, each opened
    /// once: past hours a request asks for come from them (`CycleContinuity`). Asked only when
    /// the newest cycle lacks some of a request's hours, so a usual request lists nothing. A
    /// cycle that cannot be opened (pruned meanwhile, damaged) is left out: its hours are null,
    /// as hours no cycle covers are. A remote store serves its latest cycles only.
    package func older(than newest: ForecastStore) -> [ForecastStore] {
        guard remote == nil else { return [] }
        // Cycles are added and pruned as links in the model folder, which changes its mtime:
        // an unchanged folder keeps the list made before (this runs for every place of a
        // request that reaches before the newest cycle).
        let stamp = Self.stamp(root + "/" + newest.model)
        if let stamp, let known = state.withLock({ $0.olderLists[newest.model] }), known.stamp == stamp, known.newest == newest.folder {
            return known.stores
        }
        let ids: [CycleID]
        do throws(StoreError) { ids = try CycleStore.cycles(root: root, model: newest.model) } catch { return [] }
        var stores: [ForecastStore] = []
        var folders: Set<String> = []
        for id in ids.reversed() where id.name != newest.cycle {
            guard let folder = try? CycleStore.resolve(root: root, model: newest.model, cycle: .cycle(id)).folder,
                  folder != newest.folder else { continue }
            folders.insert(folder)
            if let known = state.withLock({ $0.older[folder] }) {
                stores.append(known)
            } else if let opened = try? ForecastStore(root: root, model: newest.model, cycle: .cycle(id)), opened.folder == folder {
                state.withLock { $0.older[folder] = opened }
                stores.append(opened)
            }
        }
        let list = stores.filter { ($0.runTimes.first ?? .min) < (newest.runTimes.first ?? .min) }
        state.withLock { state in
            // Cycles pruned since are let go (a request holding one keeps its own reference).
            state.older = state.older.filter { $0.value.model != newest.model || folders.contains($0.key) }
            if let stamp { state.olderLists[newest.model] = OlderList(stamp: stamp, newest: newest.folder, stores: list) }
        }
        return list
    }

    /// For a remote store: when everything a request starting now reads from it must be done
    /// (`ObjectClient.within`); nil for a folder.
    package func requestDeadline() -> Date? {
        remote.map { Date().addingTimeInterval($0.client.limits.querySeconds) }
    }

    /// For a remote store: fetches at once the blocks a place's forecast will read, so that the
    /// reads that check them find them held (a local store is read with pread as it goes).
    package func prefetch(_ store: ForecastStore, latitude: Double, longitude: Double, times: [Int64], variables: [ForecastVariable]) {
        guard let cycle = remote?.opened(model: store.model), cycle.store === store else { return }
        cycle.prefetch(latitude: latitude, longitude: longitude, times: times, variables: variables)
    }

        /// Every model's latest cycle that opens, with the reasons of those that do not.
    package func all() -> (stores: [ForecastStore], problems: [String]) {
        var stores: [ForecastStore] = []
        var problems: [String] = []
        if let remote {
            for model in remote.models {
                do throws(QueryError) { stores.append(try current(model: model)) } catch { problems.append("\(model): \(error.description)") }
            }
        } else {
            for folder in folders() {
                // A folder without `latest` is not a model (yet).
                guard let latest = Self.link(root + "/" + folder + "/latest") else { continue }
                do throws(QueryError) { stores.append(try current(model: folder, latest: latest)) } catch { problems.append("\(folder): \(error.description)") }
            }
        }
        // A remote model still served from the cycle it has says why it did not move on (a
        // model with no cycle open said it above).
        for (model, problem) in (remote?.problems ?? [:]).sorted(by: { $0.key < $1.key }) {
            guard let served = stores.first(where: { $0.model == model }) else { continue }
            problems.append("\(model): still serving the previous cycle \(served.cycle): \(problem)")
        }
        return (stores, problems)
    }
}
