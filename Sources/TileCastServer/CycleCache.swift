import Catalog
import Foundation
import ObjectStore
import PointQuery
import Synchronization
import TileStore

/// The opened cycles the server answers from, one per model, following each model's `latest`.
///
/// Every request asks `current(model:)`, which reads where `latest` points now (a readlink and
/// a few stats): when `tilecast extract` publishes a new cycle, the next request opens it and
/// later requests share it. A request holds the `ForecastStore` it was given until it finishes;
/// its files stay open (read with pread), so a cycle that `--keep` prunes meanwhile is still
/// read whole by the requests already on it, and freed when the last one lets go.
package final class CycleCache: Sendable {
    package let root: String
    private let opened = Mutex<[String: ForecastStore]>([:])
    /// A remote store (s3://, https://) instead of the folder: its models are the ones named
    /// at start (a bucket behind a web server cannot be listed), its `latest` polled.
    package let remote: RemoteCycles?

    package init(root: String, remote: RemoteCycles? = nil) {
        self.root = root
        self.remote = remote
    }

    /// The models of the store (folders with a `latest` link), sorted.
    package func models() -> [String] { remote?.models ?? CycleStore.models(root: root) }

    /// The model's latest cycle, opened once per publication.
    ///
    /// - Throws: `QueryError.store` when it cannot be opened (missing, damaged, being replaced).
    package func current(model: String) throws(QueryError) -> ForecastStore {
        if let remote { return try remote.current(model: model).store }
        let folder: String
        do throws(StoreError) { folder = try CycleStore.resolve(root: root, model: model).folder } catch {
            throw .store(error.description, isDamage: error.isDamage)
        }
        if let cached = opened.withLock({ $0[model] }), cached.folder == folder { return cached }
        // Opened outside the lock: opening reads every domain's header; two requests racing
        // here both open, and the last one stored wins (both are the same cycle).
        let store = try ForecastStore(root: root, model: model)
        opened.withLock { $0[model] = store }
        return store
    }

    /// For a remote store: fetches at once the blocks a place's forecast will read, so that the
    /// reads that check them find them held (a local store is read with pread as it goes).
    package func prefetch(_ store: ForecastStore, latitude: Double, longitude: Double, times: [Int64], variables: [OutputVariable]) {
        guard let cycle = remote?.opened(model: store.model), cycle.store === store else { return }
        cycle.prefetch(latitude: latitude, longitude: longitude, times: times, variables: variables)
    }

        /// Every model's latest cycle that opens, with the reasons of those that do not.
    package func all() -> (stores: [ForecastStore], problems: [String]) {
        var stores: [ForecastStore] = []
        var problems: [String] = []
        for model in models() {
            do throws(QueryError) { stores.append(try current(model: model)) } catch { problems.append("\(model): \(error.description)") }
        }
        // A remote model still served from its previous cycle says why it did not move on.
        for (model, problem) in (remote?.problems ?? [:]).sorted(by: { $0.key < $1.key })
        where stores.contains(where: { $0.model == model }) {
            problems.append("\(model): latest not opened, still serving the previous cycle: \(problem)")
        }
        return (stores, problems)
    }
}
