import Foundation
import PointQuery
import Synchronization

/// The latest cycle of each model of a remote store, for a server: `latest` is looked at
/// again at most every `pollInterval` seconds (when a request comes), and a new cycle is
/// opened when its manifest changed. When the new one cannot be opened (a `latest` naming a
/// cycle whose files are missing or damaged, the store unreachable), the server keeps
/// answering from the cycle it had, and says why in `problems`.
package final class RemoteCycles: Sendable {
    package let client: ObjectClient
    package let models: [String]
    package let pollInterval: Double
    package let nestMargin: Double
    package let cacheBudget: Int
    private struct Entry {
        var cycle: RemoteCycle?
        var checkedAt: Double
        var problem: String?
    }
    private let entries = Mutex<[String: Entry]>([:])

    package init(client: ObjectClient, models: [String], pollInterval: Double = 30, nestMargin: Double = 5,
                 cacheBudget: Int = 64 << 20) {
        self.client = client
        self.models = models.sorted()
        self.pollInterval = pollInterval
        self.nestMargin = nestMargin
        self.cacheBudget = cacheBudget
    }

    /// Why the latest cycle of each model is not the one served (empty when all is well).
    package var problems: [String: String] {
        entries.withLock { $0.compactMapValues(\.problem) }
    }

    /// The model's cycle opened last, without looking at `latest` (nil before the first).
    package func opened(model: String) -> RemoteCycle? { entries.withLock { $0[model]?.cycle } }

    /// The model's cycle to answer from.
    ///
    /// - Throws: `QueryError.store` when no cycle of the model could be opened yet.
    package func current(model: String) throws(QueryError) -> RemoteCycle {
        let now = Date().timeIntervalSince1970
        let entry = entries.withLock { $0[model] }
        if let entry, let cycle = entry.cycle, now - entry.checkedAt < pollInterval { return cycle }
        // Looked at again: unchanged (the same manifest bytes) keeps the opened cycle.
        let path = RemoteCycle.manifestPath(model: model, cycle: "latest")
        if let cycle = entry?.cycle, let bytes = try? client.getObject(path), bytes == cycle.manifestBytes {
            entries.withLock { $0[model] = Entry(cycle: cycle, checkedAt: now, problem: nil) }
            return cycle
        }
        do throws(QueryError) {
            let opened = try RemoteCycle(client: client, model: model, nestMargin: nestMargin, cacheBudget: cacheBudget)
            entries.withLock { $0[model] = Entry(cycle: opened, checkedAt: now, problem: nil) }
            return opened
        } catch {
            // Keep the cycle being served; try again after the interval.
            let kept = entry?.cycle
            entries.withLock { $0[model] = Entry(cycle: kept, checkedAt: now, problem: error.description) }
            if let kept { return kept }
            throw error
        }
    }
}
