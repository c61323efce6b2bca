import Foundation
import PointQuery
import Synchronization

/// The latest cycle of each model of a remote store, for a server.
///
/// `latest` is looked at by a background thread (`startPolling`), every `pollInterval`
/// seconds, never inside a request: a slow or dead object server costs the poller its
/// time-limited reads (`RemoteLimits`), while requests keep answering from the
/// cycle already open, at once. A new cycle is opened by the poller when the manifest
/// changed, and swapped in whole. When the new one cannot be opened (a `latest` naming a
/// cycle whose files are missing or damaged, the store unreachable), the cycle being served
/// stays, and `problems` says why and since when.
package final class RemoteCycles: Sendable {
    package let client: ObjectClient
    package let models: [String]
    package let pollInterval: Double
    package let nestMargin: Double
    package let cacheBudget: Int
    private struct Entry {
        var cycle: RemoteCycle?
        var problem: String?
        /// When the looks at `latest` began failing (nil while they succeed).
        var failingSince: Date?
        var failures = 0
    }
    private let entries = Mutex<[String: Entry]>([:])
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

    /// One round: every model's `latest` looked at, a changed one opened.
    package func poll() {
        for model in models { look(model: model) }
        rounds.add(1, ordering: .releasing)
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

    /// The model's cycle opened last (nil before the first).
    package func opened(model: String) -> RemoteCycle? { entries.withLock { $0[model]?.cycle } }

    /// The model's cycle to answer from: the one open, without any request to the store.
    ///
    /// - Throws: `QueryError.store` when no cycle of the model could be opened yet, with why.
    package func current(model: String) throws(QueryError) -> RemoteCycle {
        let entry = entries.withLock { $0[model] }
        if let cycle = entry?.cycle { return cycle }
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
                if bytes == kept.manifestBytes {
                    succeeded(model, kept)
                    return
                }
            }
            succeeded(model, try RemoteCycle(client: client, model: model, nestMargin: nestMargin, cacheBudget: cacheBudget))
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

    private func succeeded(_ model: String, _ cycle: RemoteCycle) {
        entries.withLock { $0[model] = Entry(cycle: cycle) }
    }

    /// "2026-11-22T06:00:00Z".
    static func stamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}
