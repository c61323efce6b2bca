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
        /// Older kept cycles opened for past hours, by their data folder (unique per
        /// publication), with when a request last used them: idle ones are closed (`sweep`).
        var older: [String: OlderEntry] = [:]
        /// Per model: the older cycles listed last, with what they were listed under.
        var olderLists: [String: OlderList] = [:]
        /// Each kept cycle's run (first and last frame), by data folder, learned by opening it
        /// once: a folder never changes, so this needs no descriptor held. Only cycles that
        /// opened are here; a failed open is tried again by the next request that needs it.
        var spans: [String: Span] = [:]
        /// The older cycles answering a few recent requests' hours (places of one request, and
        /// requests of one hour, ask the same), each under the listing it was worked out from.
        /// A request for which a cycle that should answer could not be opened throws and leaves
        /// nothing here; a cycle that cannot be opened and answers none of the hours does not
        /// matter to the result.
        var recent: [RecentOlder] = []
        var sweepScheduled = false
        /// Counts the listings made (`OlderList.version`).
        var listings = 0
    }

    private struct OlderList {
        let stamp: ListingStamp
        let newest: String
        let kept: [Kept]
        /// Unique per listing: a recent result made from this listing names it.
        let version: Int
    }

    /// What says a model's list of cycles is the one listed before: a folder's identity and
    /// modification time, or the remote poller's listing version.
    private enum ListingStamp: Equatable {
        case folder(Stamp)
        case polled(Int)
    }

    /// A kept cycle as the store lists it (`folder`: its publication, `OpenedCycle.publication`).
    private struct Kept {
        let id: CycleID
        let folder: String
    }

    /// A cycle's run: its first and last frame.
    private struct Span {
        let first: Int64
        let last: Int64
        func covers(_ time: Int64) -> Bool { time >= first && time <= last }
    }

    private struct OlderEntry {
        let store: ForecastStore
        var used: ContinuousClock.Instant
    }

    private struct RecentOlder {
        let newest: ObjectIdentifier
        let newestFolder: String
        let listing: Int
        let times: [Int64]
        let window: Int64
        let stores: [ForecastStore]
        var used: ContinuousClock.Instant
    }

    /// How long an older cycle no request used stays open (its descriptors held).
    package static let idleSeconds = 60

    private let state = Mutex<State>(State())
    /// A remote store (s3://, https://) instead of the folder: its models are the ones named
    /// at start (a bucket behind a web server cannot be listed), its `latest` polled in the
    /// background (`RemoteCycles.startPolling`), never by a request: requests, `/health` and
    /// `/metrics` read only the cycles already open.
    package let remote: RemoteCycles?
    /// Where older cycles are opened from: the folder, or the remote store.
    private let source: any CycleSource
    private let nestMargin: Double

    package init(root: String, remote: RemoteCycles? = nil) {
        self.root = root
        self.remote = remote
        source = remote?.source ?? LocalCycleSource(root: root)
        nestMargin = remote?.nestMargin ?? 5
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
        if let remote { return try remote.current(model: model) }
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

    /// The model's cycles older than `newest` that the store keeps and that answer some of
    /// `times` by `CycleContinuity`'s rule, newest first, opened: past hours come from them.
    /// Asked only when `newest` lacks some of a request's hours, so a usual request lists
    /// nothing. Only the cycles that answer are opened and held (a `past_days=92` request on a
    /// store keeping 371 cycles once held every one open, 386 descriptors); each other kept
    /// cycle is opened once in its life to learn its run and closed at once; cycles no request
    /// used for `idleSeconds` are closed. `CycleContinuity.shares` among `[newest]` and these
    /// gives each hour the cycle it gives among every kept cycle (each hour's owner is here, and
    /// a cycle passed over for an hour is passed over for its owner, an older cycle that is here).
    ///
    /// - Parameter window: the interval an amount at each time covers (`CycleContinuity`).
    /// - Throws: `QueryError.store` when a kept cycle whose run may hold some of `times` cannot
    ///   be opened (damaged, or out of descriptors): its hours would be null in a 200, which is
    ///   what the store holds shown as nothing. A cycle pruned since it was listed is passed over.
    package func older(than newest: ForecastStore, reaching times: [Int64], window: Int64 = 3600) throws(QueryError) -> [ForecastStore] {
        guard !times.isEmpty else { return [] }
        let (list, listing) = kept(olderThan: newest)
        let key = ObjectIdentifier(newest)
        let now = ContinuousClock.now
        if let known = state.withLock({ state -> [ForecastStore]? in
            guard let k = state.recent.firstIndex(where: { $0.newest == key && $0.newestFolder == newest.folder && $0.window == window
                    && $0.listing == listing && $0.times == times })
            else { return nil }
            state.recent[k].used = now
            for store in state.recent[k].stores { state.older[store.folder]?.used = now }
            return state.recent[k].stores
        }) { return known }
        let (known, failed) = spans(of: list, olderThan: newest)
        try requireOpened(failed, known: known, newest: newest, times: times, window: window)
        // Each time's owner, as `CycleContinuity.claims` chooses it: the newest cycle covering
        // it, but a cycle's first `window` goes to an older one covering it.
        let runs = [Span(first: newest.runTimes.first ?? .max, last: newest.runTimes.last ?? .min)] + known.map(\.span)
        var owners = Set<Int>()
        let width = max(window, 1)
        for time in times {
            for c in runs.indices where runs[c].covers(time) {
                if time >= runs[c].first + width || !runs[(c + 1)...].contains(where: { $0.covers(time) }) {
                    if c > 0 { owners.insert(c - 1) }
                    break
                }
            }
        }
        var stores: [ForecastStore] = []
        for index in owners.sorted() {
            if let store = try open(known[index].kept, model: newest.model, keep: true) { stores.append(store) }
        }
        state.withLock { state in
            state.recent.insert(RecentOlder(newest: key, newestFolder: newest.folder, listing: listing, times: times, window: window, stores: stores, used: now), at: 0)
            if state.recent.count > 4 { state.recent.removeLast() }
        }
        return stores
    }

    /// The newest of the model's kept cycles older than `newest` whose run covers some of
    /// `times`, opened; nil when none does.
    ///
    /// - Throws: as `older(than:reaching:window:)`, for a cycle that cannot be opened and may be it.
    package func olderCovering(_ times: [Int64], than newest: ForecastStore) throws(QueryError) -> ForecastStore? {
        guard !times.isEmpty else { return nil }
        let list = kept(olderThan: newest).list
        let (known, failed) = spans(of: list, olderThan: newest)
        let found = known.first { entry in times.contains { entry.span.covers($0) } }
        // A cycle that could not be opened and is newer than the one found may be the answer.
        let reach = longestRun(known, newest: newest)
        for (kept, error) in failed where found.map({ kept.id > $0.kept.id }) ?? true {
            if times.contains(where: { $0 >= kept.id.seconds && $0 <= kept.id.seconds + reach }) { throw error }
        }
        guard let found else { return nil }
        return try open(found.kept, model: newest.model, keep: true)
    }

    /// The lagged members of `times` (`LaggedMembers`): `newest` and the model's kept cycles
    /// that are, for some time, among the newest `count` whose run covers it; newest first,
    /// opened.
    ///
    /// - Throws: `QueryError.store` when a kept cycle that may be a member cannot be opened:
    ///   a probability from fewer members than the store holds would hide the damage.
    package func members(from newest: ForecastStore, count: Int, times: [Int64]) throws(QueryError) -> [ForecastStore] {
        guard count > 1, !times.isEmpty else { return [newest] }
        let (known, failed) = spans(of: kept(olderThan: newest).list, olderThan: newest)
        let reach = longestRun(known, newest: newest)
        for (kept, error) in failed where times.contains(where: { $0 > kept.id.seconds && $0 <= kept.id.seconds + reach }) {
            throw error
        }
        var chosen = Set<Int>()
        for time in times {
            var found = LaggedMembers.covers(newest, time) ? 1 : 0
            for (k, entry) in known.enumerated() where found < count && time > entry.span.first && time <= entry.span.last {
                chosen.insert(k)
                found += 1
            }
        }
        var stores = [newest]
        for k in chosen.sorted() {
            if let store = try open(known[k].kept, model: newest.model, keep: true) { stores.append(store) }
        }
        return stores
    }

    /// The model's published cycles other than `newest`, newest first, listed again only when
    /// the list can have changed: this runs for every place of a request that reaches before
    /// the newest cycle, and for every answer's ETag (`generation`). A folder's cycles are added
    /// and pruned as links in the model folder, which changes its mtime; a remote store's are
    /// listed by the poller, never inside a request.
    private func kept(olderThan newest: ForecastStore) -> (list: [Kept], listing: Int) {
        let modelFolder = root + "/" + newest.model
        let polled = remote?.listing(model: newest.model)
        let stamp = polled.map { ListingStamp.polled($0.version) } ?? Self.stamp(modelFolder).map(ListingStamp.folder)
        if let stamp, let known = state.withLock({ $0.olderLists[newest.model] }), known.stamp == stamp, known.newest == newest.folder {
            return (known.kept, known.version)
        }
        let listed: [(id: CycleID, publication: String?)]
        if let polled {
            // Each with its run, learned by the poller (a request never opens a remote cycle
            // only to learn its run).
            listed = polled.cycles.map { ($0.id, $0.publication) }
        } else {
            let ids: [CycleID]
            do throws(StoreError) { ids = try source.cycles(model: newest.model) ?? [] } catch { return ([], -1) }
            listed = ids.map { ($0, try? source.publication(model: newest.model, cycle: $0)) }
        }
        var list: [Kept] = []
        for (id, publication) in listed.reversed() where id.name != newest.cycle {
            guard let folder = publication, folder != newest.folder else { continue }
            list.append(Kept(id: id, folder: folder))
        }
        let folders = Set(list.map(\.folder)), prefix = remote.map { $0.client.describe(newest.model + "/") } ?? modelFolder + "/"
        return state.withLock { state in
            // Cycles pruned since are let go (a request holding one keeps its own reference).
            state.older = state.older.filter { $0.value.store.model != newest.model || folders.contains($0.key) }
            state.spans = state.spans.filter { !$0.key.hasPrefix(prefix) || folders.contains($0.key) || $0.key == newest.folder }
            state.recent.removeAll { $0.stores.contains { $0.model == newest.model && !folders.contains($0.folder) } }
            for cycle in polled?.cycles ?? [] { state.spans[cycle.publication] = Span(first: cycle.first, last: cycle.last) }
            state.listings += 1
            if let stamp { state.olderLists[newest.model] = OlderList(stamp: stamp, newest: newest.folder, kept: list, version: state.listings) }
            return (list, state.listings)
        }
    }

    /// The runs of the listed cycles that start before `newest`, newest first (a cycle whose
    /// run is not known yet is opened to learn it and closed again, one at a time), and the
    /// cycles that could not be opened, with why.
    private func spans(of list: [Kept], olderThan newest: ForecastStore) -> (known: [(kept: Kept, span: Span)], failed: [(kept: Kept, error: QueryError)]) {
        var known: [(kept: Kept, span: Span)] = []
        var failed: [(kept: Kept, error: QueryError)] = []
        let start = newest.runTimes.first ?? .min
        for kept in list {
            var span = state.withLock { $0.spans[kept.folder] }
            if span == nil {
                do throws(QueryError) {
                    span = try open(kept, model: newest.model, keep: false).map { Span(first: $0.runTimes.first ?? .max, last: $0.runTimes.last ?? .min) }
                } catch {
                    failed.append((kept, error))
                    continue
                }
            }
            if let span, span.first < start { known.append((kept, span)) }
        }
        return (known, failed)
    }

    /// The longest run among the known cycles and `newest`: how far a cycle whose run is not
    /// known may reach from its start.
    private func longestRun(_ known: [(kept: Kept, span: Span)], newest: ForecastStore) -> Int64 {
        let own = (newest.runTimes.last ?? 0) - (newest.runTimes.first ?? 0)
        return known.reduce(max(own, 0)) { max($0, $1.span.last - $1.span.first) }
    }

    /// Throws the error of a cycle that could not be opened and may own some of `times`: its
    /// run (from its start, as long as the longest known run) holds a time that no newer
    /// cycle answers from its second hour on.
    private func requireOpened(_ failed: [(kept: Kept, error: QueryError)], known: [(kept: Kept, span: Span)], newest: ForecastStore,
                               times: [Int64], window: Int64) throws(QueryError) {
        guard !failed.isEmpty else { return }
        let reach = longestRun(known, newest: newest)
        let width = max(window, 1)
        let newestRun = Span(first: newest.runTimes.first ?? .max, last: newest.runTimes.last ?? .min)
        for (kept, error) in failed {
            let newer = [newestRun] + known.filter { $0.kept.id > kept.id }.map(\.span)
            let owns = times.contains { time in
                time >= kept.id.seconds && time <= kept.id.seconds + reach
                    && !newer.contains { time >= $0.first + width && time <= $0.last }
            }
            if owns { throw error }
        }
    }

    /// A kept cycle opened (shared while requests use it when `keep`, else closed once the
    /// caller lets go); nil when it is gone: pruned or replaced since it was listed.
    ///
    /// - Throws: `QueryError.store` when it is still published but cannot be opened. Never
    ///   remembered: the next request tries again (a failure for want of descriptors passes).
    private func open(_ kept: Kept, model: String, keep: Bool) throws(QueryError) -> ForecastStore? {
        let now = ContinuousClock.now
        if let known = state.withLock({ state -> ForecastStore? in
            state.older[kept.folder]?.used = now
            return state.older[kept.folder]?.store
        }) { return known }
        let store: ForecastStore
        do throws(QueryError) {
            let opened: OpenedCycle
            do throws(StoreError) { opened = try source.open(model: model, cycle: .cycle(kept.id)) } catch { throw .store(error) }
            store = try ForecastStore(root: source.location, model: model, opened: opened, nestMargin: nestMargin)
        } catch {
            // Gone only when the store says so: a read refused (a remote request's first pass,
            // from what is cached) or failed tells nothing, and is this request's error.
            let failure = error
            let now: String?
            do throws(StoreError) { now = try source.publication(model: model, cycle: kept.id) } catch { throw failure }
            if now != kept.folder { return nil }
            throw failure
        }
        guard store.folder == kept.folder else { return nil }
        let span = Span(first: store.runTimes.first ?? .max, last: store.runTimes.last ?? .min)
        let schedule = state.withLock { state -> Bool in
            state.spans[kept.folder] = span
            guard keep else { return false }
            state.older[kept.folder] = OlderEntry(store: store, used: now)
            defer { state.sweepScheduled = true }
            return !state.sweepScheduled
        }
        if schedule { scheduleSweep() }
        return store
    }

    /// Closes, after `idleSeconds`, the older cycles no request used meanwhile (a request
    /// holding one keeps its own reference; its files close when it lets go), and again while
    /// any stay open.
    private func scheduleSweep() {
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + .seconds(Self.idleSeconds)) { [weak self] in
            self?.sweep()
        }
    }

    private func sweep() {
        let limit = ContinuousClock.now - .seconds(Self.idleSeconds)
        let again = state.withLock { state -> Bool in
            state.recent.removeAll { $0.used < limit }
            state.older = state.older.filter { $0.value.used >= limit }
            state.sweepScheduled = !state.older.isEmpty || !state.recent.isEmpty
            return state.sweepScheduled
        }
        if again { scheduleSweep() }
    }

    /// The domain files (`.tcs`) of every cycle the store keeps now, all models: what a
    /// request reaching over every kept cycle holds open (`DescriptorLimit.connections`).
    package static func keptFiles(root: String) -> Int {
        let models = (try? CycleStore.models(root: root)) ?? []
        var count = 0
        for model in models {
            for id in (try? CycleStore.cycles(root: root, model: model)) ?? [] {
                guard let folder = try? CycleStore.resolve(root: root, model: model, cycle: .cycle(id)).folder else { continue }
                count += ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".tcs") }.count
            }
        }
        return count
    }

    /// Older cycles held open now (for `/metrics` and tests).
    package var olderCyclesOpen: Int { state.withLock { $0.older.count } }

    /// For a remote store: the scope of everything a request reads from it
    /// (`ObjectClient.within`): the one `ForecastServer.compute` set for this thread (its
    /// deadline counted from the request's arrival), else a deadline from now; nil for a folder.
    package func requestDeadline() -> RemoteReadScope? {
        guard let remote else { return nil }
        return ObjectClient.currentScope ?? RemoteReadScope(deadline: Date().addingTimeInterval(remote.client.limits.querySeconds))
    }

    /// For a remote store: fetches at once the blocks a place's forecast will read, so that the
    /// reads that check them find them held (a local store is read with pread as it goes).
    package func prefetch(_ store: ForecastStore, latitude: Double, longitude: Double, times: [Int64], variables: [ForecastVariable]) {
        store.prefetch(latitude: latitude, longitude: longitude, times: times, variables: variables)
    }

    /// What every forecast answer depends on in the store now (`StoreGeneration`, the answers'
    /// ETag and Last-Modified): each model's latest publication with the kept cycles beside it
    /// (from the listing `older` keeps, taken again only when the model folder changed), and the
    /// models that cannot be opened.
    package func generation() -> StoreGeneration {
        let opened = all()
        var text = ""
        var newest: Int64?
        for store in opened.stores.sorted(by: { $0.model < $1.model }) {
            text += store.model + "=" + store.folder
            for kept in kept(olderThan: store).list { text += "," + kept.folder }
            text += ";"
            if let published = store.publishedAt { newest = max(newest ?? published, published) }
        }
        for problem in opened.unopened { text += "!" + problem + ";" }
        return StoreGeneration(text: text, publishedAt: newest)
    }

    /// Every model's latest cycle that opens, with the reasons of those that do not
    /// (`problems`, for `/health`); `unopened`: those of the models no cycle of which is
    /// served (a remote model still served from the cycle it has is in `problems` only).
    package func all() -> (stores: [ForecastStore], problems: [String], unopened: [String]) {
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
        let unopened = problems
        // A remote model still served from the cycle it has says why it did not move on (a
        // model with no cycle open said it above).
        for (model, problem) in (remote?.problems ?? [:]).sorted(by: { $0.key < $1.key }) {
            guard let served = stores.first(where: { $0.model == model }) else { continue }
            problems.append("\(model): still serving the previous cycle \(served.cycle): \(problem)")
        }
        return (stores, problems, unopened)
    }
}
