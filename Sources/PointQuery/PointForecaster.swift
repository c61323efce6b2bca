import Catalog
import Dispatch
import Foundation
import GridGeometry
import Interpolation
import Meteorology
import TileStore

/// Answers point forecasts from an opened store: picks the domain, reads the four cells
/// around the place, interpolates bilinearly in grid space (SIMD over the time axis), then
/// linearly in time.
public struct PointForecaster: Sendable {
    public let store: ForecastStore

    public init(store: ForecastStore) { self.store = store }

    /// The forecast for one place.
    ///
    /// - Throws: `QueryError` `.outsideDomains` / `.outsideTimes` (exit 4), `.badRequest`
    ///   (bad coordinates), `.store` (damage met while reading, exit 5).
    public func forecast(_ point: QueryPoint, request: ForecastRequest) throws(QueryError) -> PointForecast {
        let latitude = roundCoordinate(point.latitude)
        var longitude = roundCoordinate(point.longitude)
        guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, longitude >= -180, longitude <= 360 else {
            throw .badRequest("latitude \(point.latitude), longitude \(point.longitude): expected -90..90 and -180..360")
        }
        if longitude > 180 { longitude -= 360 }
        let times = point.times ?? request.times
        guard let first = times.min(), let last = times.max() else { throw .badRequest("no times requested") }
        // Accumulations need the window before the first time as well, but only when the run
        // has frames there; the first frame's own interval is stored.
        let (domain, position) = try store.choose(latitude: latitude, longitude: longitude, first: first, last: last)
        guard let stencil = BilinearStencil(i: position.i, j: position.j, westEast: domain.metadata.westEast,
                                            southNorth: domain.metadata.southNorth) else {
            throw .outsideDomains(latitude: latitude, longitude: longitude, extents: store.domains.map(\.extent))
        }
        var reader = SeriesReader(domain: domain, stencil: stencil)
        var values: [OutputVariable: [Float]] = [:]
        let units = request.units
        var windCache: (u: [Float], v: [Float])?
        for variable in request.variables {
            guard variable.sources.allSatisfy({ domain.metadata.stored($0) != nil }) else {
                values[variable] = [Float](repeating: .nan, count: times.count)
                continue
            }
            switch variable {
            case .windSpeed10m, .windDirection10m, .windU10m, .windV10m:
                if windCache == nil {
                    let u = try reader.spatial(.windU10m), v = try reader.spatial(.windV10m)
                    windCache = (times.map { reader.atTime($0, u) }, times.map { reader.atTime($0, v) })
                }
                guard let wind = windCache else { continue }
                values[variable] = zip(wind.u, wind.v).map { u, v in
                    switch variable {
                    case .windSpeed10m: return units.convert(windSpeed(u: u, v: v), variable)
                    case .windDirection10m: return windDirection(u: u, v: v)
                    case .windU10m: return units.convert(u, variable)
                    default: return units.convert(v, variable)
                    }
                }
            case .precipitation, .snowfall:
                let totals = try reader.spatial(variable.sources[0])
                values[variable] = times.map { units.convert(reader.amount(endingAt: $0, window: request.accumulationWindow, totals: totals), variable) }
            case .weatherCode:
                let codes = try reader.nearest(.weatherCode)
                values[variable] = times.map { reader.intervalValue(at: $0, codes) }
            default:
                let series = try reader.spatial(variable.sources[0])
                values[variable] = times.map { units.convert(reader.atTime($0, series), variable) }
            }
        }
        let elevation = domain.metadata.stored(.elevation) == nil ? nil : try reader.spatial(.elevation).first
        let provenance = Provenance(
            model: domain.metadata.model, modelTitle: domain.metadata.modelTitle,
            cycle: ModelTime.isoMinutes(domain.metadata.cycle), domain: domain.name,
            gridSpacingKilometres: domain.metadata.projection.dx / 1000,
            gridI: (position.i * 1000).rounded() / 1000, gridJ: (position.j * 1000).rounded() / 1000)
        return PointForecast(latitude: latitude, longitude: point.longitude > 180 ? longitude + 360 : longitude,
                             provenance: provenance, elevation: elevation, times: times, values: values,
                             units: units, variables: request.variables)
    }

    /// Forecasts for many places, spread over all cores; results in the order of `points`.
    public func forecast(_ points: [QueryPoint], request: ForecastRequest) -> [Result<PointForecast, QueryError>] {
        let slots = ResultSlots(count: points.count)
        let chunks = min(points.count, max(1, ProcessInfo.processInfo.activeProcessorCount * 4))
        DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
            let range = (chunk * points.count / chunks)..<((chunk + 1) * points.count / chunks)
            for index in range {
                let result: Result<PointForecast, QueryError>
                do throws(QueryError) { result = .success(try forecast(points[index], request: request)) } catch { result = .failure(error) }
                slots.set(index, result)
            }
        }
        return slots.all
    }
}

/// Reads and interpolates one place's series from one domain. Holds its scratch buffers so
/// that each variable costs four cell decodes and one SIMD pass, without allocating per cell.
struct SeriesReader {
    let domain: StoredDomain
    let stencil: BilinearStencil
    private var corners: [[Float]]
    private var scratch: [Int32]

    init(domain: StoredDomain, stencil: BilinearStencil) {
        self.domain = domain
        self.stencil = stencil
        let steps = domain.metadata.times.count
        corners = Array(repeating: [Float](repeating: 0, count: steps), count: 4)
        scratch = [Int32](repeating: 0, count: steps)
    }

    /// The variable's series at the place, interpolated bilinearly (static fields: one value).
    mutating func spatial(_ variable: ForecastVariable) throws(QueryError) -> [Float] {
        let steps = domain.metadata.stored(variable)?.steps ?? 0
        let cells = [(stencil.i0, stencil.j0), (stencil.i1, stencil.j0), (stencil.i0, stencil.j1), (stencil.i1, stencil.j1)]
        for (slot, cell) in cells.enumerated() {
            // Aliased corners (on a node or an edge) share the first read of their cell.
            if let earlier = cells.prefix(slot).firstIndex(where: { $0 == cell }) {
                corners[slot] = corners[earlier]
                continue
            }
            try read(variable, i: cell.0, j: cell.1, into: slot)
        }
        var out = [Float](repeating: 0, count: steps)
        corners[0].withUnsafeBufferPointer { c00 in
            corners[1].withUnsafeBufferPointer { c10 in
                corners[2].withUnsafeBufferPointer { c01 in
                    corners[3].withUnsafeBufferPointer { c11 in
                        out.withUnsafeMutableBufferPointer { o in
                            guard let a = c00.baseAddress, let b = c10.baseAddress, let c = c01.baseAddress,
                                  let d = c11.baseAddress, let target = o.baseAddress else { return }
                            interpolateSeries(a, b, c, d, weights: stencil.weights, count: steps, into: target)
                        }
                    }
                }
            }
        }
        return out
    }

    /// The series of the stencil's corner with the largest weight: for categories (weather
    /// code) that must not be averaged.
    mutating func nearest(_ variable: ForecastVariable) throws(QueryError) -> [Float] {
        let w = stencil.weights
        let options = [(w.w00, stencil.i0, stencil.j0), (w.w10, stencil.i1, stencil.j0),
                       (w.w01, stencil.i0, stencil.j1), (w.w11, stencil.i1, stencil.j1)]
        let best = options.max { $0.0 < $1.0 } ?? options[0]
        try read(variable, i: best.1, j: best.2, into: 0)
        return Array(corners[0].prefix(domain.metadata.stored(variable)?.steps ?? 0))
    }

    private mutating func read(_ variable: ForecastVariable, i: Int, j: Int, into slot: Int) throws(QueryError) {
        do {
            try corners[slot].withUnsafeMutableBufferPointer { (output) throws(StoreError) in
                try scratch.withUnsafeMutableBufferPointer { (buffer) throws(StoreError) in
                    try domain.reader.readSeries(variable, i: i, j: j, into: output, scratch: buffer)
                }
            }
        } catch {
            throw .store(error.description, isDamage: error.isDamage)
        }
    }

    /// Linear in time between the bracketing frames (exactly a frame's value on a frame).
    func atTime(_ time: Int64, _ series: [Float]) -> Float {
        if series.count == 1 { return series[0] }
        guard let bracket = domain.times.bracket(at: time) else { return .nan }
        return series.withUnsafeBufferPointer { bracket.value(of: $0) }
    }

    /// The value of the interval holding `time`: the first frame at or after it (weather
    /// codes describe the interval ending at their frame).
    func intervalValue(at time: Int64, _ series: [Float]) -> Float {
        guard let bracket = domain.times.bracket(at: time) else { return .nan }
        return series[bracket.isOnFrame ? bracket.lower : bracket.upper]
    }

    /// The amount over (time - window, time] from running totals (one per frame): the
    /// difference of the totals interpolated linearly in time, so sums over any window equal
    /// the stored total difference. A missing total marks its interval unknown; it counted as
    /// zero in later totals, so later intervals stay exact.
    func amount(endingAt time: Int64, window: Int64, totals: [Float]) -> Float {
        let frames = domain.metadata.times
        guard let firstFrame = frames.first, let end = domain.times.bracket(at: time) else { return .nan }
        // Totals with unknown intervals filled by the previous known total.
        var filled = totals
        var previous: Float = 0
        for k in filled.indices {
            if filled[k].isNaN { filled[k] = previous } else { previous = filled[k] }
        }
        let startTime = time - window
        let upperFrame = end.isOnFrame ? end.lower : end.upper
        if startTime < firstFrame {
            // Only the first frame's own stored interval is known before the run.
            return time == firstFrame ? totals[0] : .nan
        }
        guard let start = domain.times.bracket(at: startTime) else { return .nan }
        // Any unknown interval inside (start, end] makes the amount unknown.
        for k in (start.lower + 1)...max(upperFrame, start.lower + 1) where k < totals.count && totals[k].isNaN {
            return .nan
        }
        let amount = filled.withUnsafeBufferPointer { end.value(of: $0) - start.value(of: $0) }
        return max(amount, 0)
    }
}

/// One result slot per place, filled from concurrent workers.
private final class ResultSlots: @unchecked Sendable {
    private var results: [Result<PointForecast, QueryError>?]
    private let lock = NSLock()
    init(count: Int) { results = Array(repeating: nil, count: count) }
    func set(_ index: Int, _ result: Result<PointForecast, QueryError>) {
        lock.lock()
        results[index] = result
        lock.unlock()
    }
    var all: [Result<PointForecast, QueryError>] {
        lock.lock()
        defer { lock.unlock() }
        return results.map { $0 ?? .failure(.badRequest("not computed")) }
    }
}
