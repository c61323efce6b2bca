import Catalog
import TileStore

/// The best match among the models of a store: the finest domain of any model whose interior
/// holds the place and whose frames cover the times. A server answering `best_match` and a
/// command line without `--model` both choose with `bestMatch`, so they answer a place from the
/// same model and domain.
package enum ModelChoice {
    /// The stores a query answers from: the named model's cycle, or (without a model) every
    /// model's. With a named cycle and no model, models without that cycle are left out.
    ///
    /// - Throws: `.store` when the store holds no published cycle, or no model has the cycle.
    package static func open(root: String, model: String?, cycle: CycleSelector, nestMargin: Double) throws(QueryError) -> [ForecastStore] {
        let models: [String]
        do throws(StoreError) { models = try CycleStore.models(root: root) } catch { throw .store(error) }
        if let model { return [try ForecastStore(root: root, model: model, cycle: cycle, nestMargin: nestMargin)] }
        guard models.count > 1 else { return [try ForecastStore(root: root, cycle: cycle, nestMargin: nestMargin)] }
        var stores: [ForecastStore] = []
        var firstError: QueryError?
        for name in models {
            do throws(QueryError) {
                stores.append(try ForecastStore(root: root, model: name, cycle: cycle, nestMargin: nestMargin))
            } catch {
                // Damage is never skipped; a model lacking the named cycle is.
                if cycle == .latest { throw error }
                if case .store(let cause) = error, cause.isDamage { throw error }
                if firstError == nil { firstError = error }
            }
        }
        if stores.isEmpty, let firstError { throw firstError }
        return stores
    }

    /// The variables to answer from several models: those asked for, each held by at least
    /// one model (a place answered by a model lacking one is refused, exit 2), or by default
    /// the defaults every model holds, so that every place of a points file has the same
    /// columns; plus what the daily summaries need.
    ///
    /// - Throws: `.badRequest` naming a variable no model holds.
    package static func resolveVariables(_ stores: [ForecastStore], requested: [ForecastVariable]?,
                                         daily: [DailyVariable]) throws(QueryError) -> [ForecastVariable] {
        guard stores.count > 1 else {
            guard let only = stores.first else { throw .badRequest("no model to answer from") }
            return try only.resolveVariables(requested: requested, daily: daily)
        }
        var variables = requested ?? ForecastVariable.defaults.filter { variable in stores.allSatisfy { $0.defaultVariables.contains(variable) } }
        for source in daily.flatMap(\.sources) where !variables.contains(source) { variables.append(source) }
        for variable in variables where !stores.contains(where: { $0.availableVariables.contains(variable) }) {
            throw .badRequest("variable \(variable.rawValue) is stored by no model of the store (\(stores.map { "\($0.model) cycle \($0.cycle)" }.joined(separator: ", ")))")
        }
        return variables
    }

    /// The frame times of all stores together (first to last), for choosing default times.
    package static func runTimes(_ stores: [ForecastStore]) -> [Int64] {
        let firsts = stores.compactMap(\.runTimes.first), lasts = stores.compactMap(\.runTimes.last)
        guard let first = firsts.min(), let last = lasts.max() else { return [] }
        return first == last ? [first] : [first, last]
    }

    /// The times of `times` that a cycle's run covers (from its first to its last frame).
    package static func covered(_ times: [Int64], by store: ForecastStore) -> [Int64] {
        // Usually the run covers every time: then the list itself, not a copy grown time by
        // time (asked per cycle for every place: S3).
        if times.allSatisfy({ covers($0, by: store) }) { return times }
        return times.filter { covers($0, by: store) }
    }

    /// Whether a cycle's run covers `time` (from its first to its last frame), without making
    /// an array (asked per time and cycle for every place: S3).
    package static func covers(_ time: Int64, by store: ForecastStore) -> Bool {
        guard let first = store.runTimes.first, let last = store.runTimes.last else { return false }
        return time >= first && time <= last
    }

    /// The model to answer a place from: the one rule of the command line and the server.
    ///
    /// 1. Among the models whose run covers every one of `times`, the one whose chosen domain
    ///    for the place is finest; on equal spacing, the first by name (stores come sorted by
    ///    model).
    /// 2. Only when none of those holds the place: among the models covering some of the
    ///    times, the finest chosen domain; on equal spacing, the one covering more of the
    ///    times, then the first by name.
    ///
    /// So a finer model lacking some of the hours never wins over a coarser one holding them
    /// all: the model does not change with the hours that happen to be asked for together.
    ///
    /// - Parameter partialHours: which times the answer is for when the match covers only
    ///   some of `times` (rule 2). `true` for an API that answers hours outside the cycle
    ///   with null (Open-Meteo's): the times the match covers. `false` for the command line,
    ///   where a time outside the run is an error: all of `times`, so that the forecast
    ///   refuses naming the time the model lacks.
    /// - Returns: the store and the times to ask it for.
    /// - Throws: `.outsideTimes` when a model holds the place but none covers any of the
    ///   times; `.outsideDomains` listing every model's domains when none holds the place.
    package static func bestMatch(_ stores: [ForecastStore], latitude: Double, longitude: Double, times: [Int64],
                                  partialHours: Bool) throws(QueryError) -> (store: ForecastStore, times: [Int64]) {
        let complete = stores.filter { store in times.allSatisfy { covers($0, by: store) } }
        let match: (store: ForecastStore, times: [Int64])
        do throws(QueryError) {
            match = try finest(complete.isEmpty ? stores : complete, latitude: latitude, longitude: longitude, times: times)
        } catch {
            // No model covering every time holds the place: the error of all models (which
            // names a model holding the place at other times, or lists every domain), or rule 2.
            if complete.isEmpty || complete.count == stores.count { throw error }
            match = try finest(stores, latitude: latitude, longitude: longitude, times: times)
        }
        return (match.store, partialHours ? match.times : times)
    }

    /// The store whose chosen domain for the place is finest, with the times of `times` it
    /// covers. Among models covering some of the times, the finest chosen domain wins; on
    /// equal spacing, the model covering more of the times, then the first by name.
    ///
    /// - Throws: as `bestMatch`.
    private static func finest(_ stores: [ForecastStore], latitude: Double, longitude: Double,
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
