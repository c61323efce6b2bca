/// The best match among the models of a store (SPEC 5): the finest domain of any model whose
/// interior holds the place and whose frames cover the times. A server answering `best_match`
/// and a command line without `--model` both choose with this.
package enum ModelChoice {
    /// The times of `times` that a cycle's run covers (from its first to its last frame).
    package static func covered(_ times: [Int64], by store: ForecastStore) -> [Int64] {
        guard let first = store.runTimes.first, let last = store.runTimes.last else { return [] }
        return times.filter { $0 >= first && $0 <= last }
    }

    /// The store to answer a place from, with the times of `times` it covers. Among models
    /// covering some of the times, the finest chosen domain wins; on equal spacing, the model
    /// covering more of the times, then the first by name (stores come sorted by model).
    ///
    /// - Throws: `.outsideTimes` when a model holds the place but none covers any of the
    ///   times; `.outsideDomains` listing every model's domains when none holds the place.
    package static func best(_ stores: [ForecastStore], latitude: Double, longitude: Double,
                             times: [Int64]) throws(QueryError) -> (store: ForecastStore, times: [Int64]) {
        let longitude = longitude > 180 ? longitude - 360 : longitude
        var best: (store: ForecastStore, times: [Int64], spacing: Double)?
        var timeError: QueryError?
        for store in stores {
            let inside = covered(times, by: store)
            guard let first = inside.first, let last = inside.last else {
                // The place may be inside this model's domains at other times.
                if timeError == nil, (try? store.choose(latitude: latitude, longitude: longitude,
                                                        first: store.runTimes.first ?? 0, last: store.runTimes.first ?? 0)) != nil {
                    let requested = times.isEmpty ? "none" : "\(ForecastStore.iso(times.first ?? 0))..\(ForecastStore.iso(times.last ?? 0))"
                    let run = "\(store.model) cycle \(store.cycle) holds \(ForecastStore.iso(store.runTimes.first ?? 0))..\(ForecastStore.iso(store.runTimes.last ?? 0))"
                    timeError = .outsideTimes(requested: requested, available: run)
                }
                continue
            }
            do throws(QueryError) {
                let (domain, _) = try store.choose(latitude: latitude, longitude: longitude, first: first, last: last)
                let spacing = domain.metadata.projection.dx
                if let current = best, current.spacing < spacing || (current.spacing == spacing && current.times.count >= inside.count) {
                    continue
                }
                best = (store, inside, spacing)
            } catch {
                if case .outsideTimes = error, timeError == nil { timeError = error }
            }
        }
        if let best { return (best.store, best.times) }
        if let timeError { throw timeError }
        throw .outsideDomains(latitude: latitude, longitude: longitude,
                              extents: stores.flatMap { store in store.domains.map { "\(store.model) \($0.extent)" } })
    }
}
