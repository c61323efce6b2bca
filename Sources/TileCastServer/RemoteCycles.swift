import Catalog
import Foundation
import ObjectStore
import PointQuery
import Synchronization
import TileStore

/// The latest cycle of each model of a remote store, and the list of its published cycles,
/// for a server.
///
/// `latest` is looked at by a background thread (`startPolling`), every `pollInterval`
/// seconds, never inside a request: a slow or dead object server costs the poller its
/// time-limited reads (`RemoteLimits`), while requests keep answering from the
/// cycle already open, at once. A new cycle is opened by the poller when the manifest
/// changed, and swapped in whole. When the new one cannot be opened (a `latest` naming a
/// cycle whose files are missing or damaged, the store unreachable), the cycle being served
/// stays, and `problems` says why and since when. Each round also lists the model's
/// published cycles (`RemoteCycleSource.cycles`), so that past hours and lagged members come
/// from the older ones (`CycleCache.older`) as on a store folder; a web server that gives no
/// index of its folders lists none, and only `latest` is served.
package final class RemoteCycles: Sendable {
    package let client: ObjectClient
    package let models: [String]
    package let pollInterval: Double
    package let nestMargin: Double
    package let cacheBudget: Int
    private struct Entry {
        var cycle: RemoteCycle?
        /// The `ForecastStore` made from `cycle`: one per publication, shared by every request.
        var store: ForecastStore?
        var problem: String?
        /// When the looks at `latest` began failing (nil while they succeed).
        var failingSince: Date?
        var failures = 0
    }
    private let entries = Mutex<[String: Entry]>([:])
    /// Per model: its published cycles and their publications, oldest first, as listed last.
    private let listings = Mutex<[String: Listing]>([:])
    private let polling = Mutex<Bool>(false)
    /// Rounds of looks finished (every model looked at once per round).
    private let rounds = Atomic<Int>(0)

    package init(client: ObjectClient, models: [String], pollInterval: Double = 30, nestMargin: Double = 5,
                 cacheBudget: Int = 64 << 20) {
        self.client = client
        self.models = models.sorted()
        self.pollInterval = pollInterval
        self.nestMargin = nestMargin
        self.cacheBudget = cacheBudget
    }

    /// Starts the poller (once; later calls only wait): it looks at every model's `latest` at
    /// once, then every `pollInterval` seconds (at least 0.1 s apart), as long as the process.
    ///
    /// - Parameter seconds: how long to wait for the first round (so that a server opens
    ///   its cycles before it answers); it serves after that whatever the round's outcome.
    package func startPolling(waitingUpTo seconds: Double = 0) {
        let start = polling.withLock { running in
            defer { running = true }
            return !running
        }
        if start {
            let interval = max(pollInterval, 0.1)
            let thread = Thread { [self] in
                while true {
                    poll()
                    Thread.sleep(forTimeInterval: interval)
                }
            }
            thread.name = "tilecast latest poller"
            thread.start()
        }
        let until = Date().addingTimeInterval(seconds)
        while rounds.load(ordering: .acquiring) == 0 && Date() < until { Thread.sleep(forTimeInterval: 0.01) }
    }

    /// The store's cycles as any server reads them (older cycles are opened through it).
    package var source: RemoteCycleSource { RemoteCycleSource(client: client, cacheBudget: cacheBudget) }

    /// One round: every model's `latest` looked at, a changed one opened, its cycles listed.
    package func poll() {
        for model in models {
            look(model: model)
            list(model: model)
        }
        rounds.add(1, ordering: .releasing)
    }

    /// A published cycle as the poller learned it, by opening it once.
    package struct ListedCycle: Sendable, Equatable {
        package let id: CycleID
        /// `OpenedCycle.publication`: a cycle published again under its name is a new one.
        package let publication: String
        /// Its run's first and last frame (`ForecastStore.runTimes`).
        package let first: Int64
        package let last: Int64
    }

    /// A model's published cycles as listed last.
    package struct Listing: Sendable {
        /// The cycles learned so far, oldest first.
        package var cycles: [ListedCycle] = []
        /// Changes whenever `cycles` does.
        package var version = 0
    }

    /// Cycles opened per round to learn their runs, newest first: a bucket that keeps every
    /// cycle ever published (a year of four a day is 1,460) is learned over many rounds, in
    /// the background, and never by a request.
    package static let learnedPerRound = 8

    /// The model's cycles as the last round listed them (none before it, or when the store
    /// cannot be listed).
    package func listing(model: String) -> Listing { listings.withLock { $0[model] ?? Listing() } }

    /// Lists a model's cycles; up to `learnedPerRound` not seen before are opened once, newest
    /// first, to learn their publication and run. A cycle that cannot be opened (being
    /// published, damaged) is left out and tried again next round; a listing that fails keeps
    /// the one before.
    private func list(model: String) {
        let source = self.source
        let ids: [CycleID]
        do throws(StoreError) { ids = try source.cycles(model: model) ?? [] } catch { return }
        let before = listing(model: model)
        var known: [CycleID: ListedCycle] = [:]
        for cycle in before.cycles { known[cycle.id] = cycle }
        var cycles: [ListedCycle] = []
        var opened = 0
        for id in ids.reversed() {
            if let cycle = known[id] {
                cycles.append(cycle)
            } else if opened < Self.learnedPerRound {
                opened += 1
                guard let cycle = try? RemoteCycle(client: client, model: model, cycle: .cycle(id), cacheBudget: 1 << 20),
                      let store = try? ForecastStore(root: client.location.description, model: model, opened: cycle.opened, nestMargin: nestMargin),
                      let first = store.runTimes.first, let last = store.runTimes.last else { continue }
                cycles.append(ListedCycle(id: id, publication: cycle.opened.publication, first: first, last: last))
            }
        }
        cycles.reverse()
        guard cycles != before.cycles else { return }
        listings.withLock { $0[model] = Listing(cycles: cycles, version: before.version + 1) }
    }

    /// Why each model's latest cycle is not the one served, or not looked at (empty when all
    /// is well), with when the looks began failing.
    package var problems: [String: String] {
        entries.withLock { entries in
            entries.compactMapValues { entry in
                guard let problem = entry.problem else { return nil }
                let since = entry.failingSince.map { " (failing since \(Self.stamp($0)), \(entry.failures) look\(entry.failures == 1 ? "" : "s") in a row)" } ?? ""
                return "the poll of latest is failing\(since): \(problem)"
            }
        }
    }

    /// The model's cycle to answer from: the one open, without any request to the store.
    ///
    /// - Throws: `QueryError.store` when no cycle of the model could be opened yet, with why.
    package func current(model: String) throws(QueryError) -> ForecastStore {
        let entry = entries.withLock { $0[model] }
        if let store = entry?.store { return store }
        throw .store(.notOpenedYet(model: model, location: client.location.description, problem: entry?.problem))
    }

    /// Looks at one model's `latest`: unchanged (the same manifest bytes) keeps the cycle open,
    /// changed opens the new one. Runs on the poller only: requests never wait for it.
    private func look(model: String) {
        let kept = entries.withLock { $0[model]?.cycle }
        let path = RemoteCycle.manifestPath(model: model, cycle: .latest)
        do throws(QueryError) {
            if let kept {
                let bytes: [UInt8]?
                do throws(ObjectStoreError) { bytes = try client.getObject(path) } catch {
                    throw .store(RemoteBytes.storeError(error, label: client.describe(path)))
                }
                if bytes == kept.manifestBytes { return succeeded(model) }
            }
            let cycle: RemoteCycle
            do throws(StoreError) { cycle = try RemoteCycle(client: client, model: model, cacheBudget: cacheBudget) } catch { throw .store(error) }
            let store = try ForecastStore(root: client.location.description, model: model, opened: cycle.opened, nestMargin: nestMargin)
            entries.withLock { $0[model] = Entry(cycle: cycle, store: store) }
        } catch {
            entries.withLock { entries in
                var entry = entries[model] ?? Entry()
                entry.problem = error.description
                entry.failingSince = entry.failingSince ?? Date()
                entry.failures += 1
                entries[model] = entry
            }
        }
    }

    /// `latest` is unchanged: the model's problems, if any, are over.
    private func succeeded(_ model: String) {
        entries.withLock { entries in
            guard let entry = entries[model] else { return }
            entries[model] = Entry(cycle: entry.cycle, store: entry.store)
        }
    }

    /// "2026-11-22T06:00:00Z".
    static func stamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}
