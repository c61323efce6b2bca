import Catalog
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
        let plan = TimePlan(times: times, window: request.accumulationWindow, domain: domain)
        var reader = SeriesReader(domain: domain, stencil: stencil, count: plan.framesNeeded)
        var values: [OutputVariable: [Float]] = [:]
        let units = request.units
        var windCache: (u: [Float], v: [Float])?
        let variables = request.variables ?? store.defaultVariables
        // A variable the domain does not store is an error, never a column of nulls.
        if let absent = variables.first(where: { !domain.holds($0) }) { throw store.notHeld(absent) }
        for variable in variables {
            switch variable {
            case .windSpeed10m, .windDirection10m, .windU10m, .windV10m:
                if windCache == nil {
                    let u = try reader.spatial(.windU10m), v = try reader.spatial(.windV10m)
                    windCache = (plan.atTimes(u), plan.atTimes(v))
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
            case .precipitation, .snowfall, .rain, .showers:
                values[variable] = plan.amounts(corners: try reader.corners(variable.sources[0])).map { units.convert($0, variable) }
            case .isDay:
                values[variable] = times.map { SolarPosition.isDay(latitude: latitude, longitude: longitude, time: Double($0)) }
            case .weatherCode:
                values[variable] = plan.intervalValues(try reader.nearest(.weatherCode))
            case .et0FaoEvapotranspiration:
                values[variable] = try Self.referenceEvapotranspiration(reader: &reader, plan: plan, times: times, latitude: latitude,
                                                                      longitude: longitude, hasElevation: domain.reader.stored(.elevation) != nil)
                    .map { units.convert($0, variable) }
            default:
                values[variable] = plan.atTimes(try reader.spatial(variable.sources[0])).map { units.convert($0, variable) }
            }
        }
        let elevation = domain.reader.stored(.elevation) == nil ? nil : try reader.spatial(.elevation).first
        let provenance = Provenance(
            model: domain.metadata.model, modelTitle: domain.metadata.modelTitle,
            cycle: ModelTime.isoMinutes(domain.metadata.cycle), domain: domain.name,
            gridSpacingKilometres: domain.metadata.projection.dx / 1000,
            gridI: (position.i * 1000).rounded() / 1000, gridJ: (position.j * 1000).rounded() / 1000)
        return PointForecast(latitude: latitude, longitude: point.longitude > 180 ? longitude + 360 : longitude,
                             provenance: provenance, elevation: elevation, times: times, values: values,
                             units: units, variables: variables)
    }

    /// FAO-56 hourly ET0 (mm) at each time from the interpolated 2 m temperature and dew
    /// point, 10 m wind, shortwave and surface pressure (`Evapotranspiration.hourly`); the
    /// clear-sky radiation uses the model terrain height (0 m when the store has none).
    static func referenceEvapotranspiration(reader: inout SeriesReader, plan: TimePlan, times: [Int64], latitude: Double,
                                            longitude: Double, hasElevation: Bool) throws(QueryError) -> [Float] {
        let t = plan.atTimes(try reader.spatial(.temperature2m)), td = plan.atTimes(try reader.spatial(.dewPoint2m))
        let u = plan.atTimes(try reader.spatial(.windU10m)), v = plan.atTimes(try reader.spatial(.windV10m))
        let sw = plan.atTimes(try reader.spatial(.shortwaveRadiation)), p = plan.atTimes(try reader.spatial(.surfacePressure))
        let z = hasElevation ? Double(try reader.spatial(.elevation).first ?? 0) : 0
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        var ratio = 0.7
        return times.indices.map { k in
            guard k < t.count, k < td.count, k < u.count, k < v.count, k < sw.count, k < p.count else { return .nan }
            let time = Double(times[k])
            let cosZenith = cos(SolarPosition.zenith(latitude: latitude, longitude: longitude, time: time) * Double.pi / 180)
            let dayOfYear = calendar.ordinality(of: .day, in: .year, for: Date(timeIntervalSince1970: time)) ?? 1
            return Float(Evapotranspiration.hourly(temperature: Double(t[k]), dewPoint: Double(td[k]), wind10m: Double(windSpeed(u: u[k], v: v[k])),
                                                   shortwave: Double(sw[k]), pressure: Double(p[k]), elevation: z, cosZenith: cosZenith,
                                                   dayOfYear: dayOfYear, ratio: &ratio))
        }
    }

    /// Forecasts for many places, spread over all cores; results in the order of `points`.
    public func forecast(_ points: [QueryPoint], request: ForecastRequest) -> [Result<PointForecast, QueryError>] {
        let chunks = min(points.count, max(1, ProcessInfo.processInfo.activeProcessorCount * 4))
        let parts = concurrentMap(chunks) { chunk in
            ((chunk * points.count / chunks)..<((chunk + 1) * points.count / chunks)).map { index -> Result<PointForecast, QueryError> in
                do throws(QueryError) { return .success(try forecast(points[index], request: request)) } catch { return .failure(error) }
            }
        }
        return parts.flatMap { $0 }
    }
}

/// Reads and interpolates one place's series from one domain. Holds its scratch buffers so
/// that each variable costs four cell decodes (of only the frames the times need) and one
/// SIMD pass, without allocating per cell.
struct SeriesReader {
    let domain: StoredDomain
    let stencil: BilinearStencil
    /// Frames decoded per series: up to the last one the requested times use.
    let count: Int
    private var corners: [[Float]]
    private var scratch: [Int32]

    init(domain: StoredDomain, stencil: BilinearStencil, count: Int) {
        self.domain = domain
        self.stencil = stencil
        self.count = count
        corners = Array(repeating: [Float](repeating: 0, count: count), count: 4)
        scratch = [Int32](repeating: 0, count: count)
    }

    /// The variable's series at the place, interpolated bilinearly (static fields: one value).
    mutating func spatial(_ variable: ForecastVariable) throws(QueryError) -> [Float] {
        let steps = min(domain.reader.stored(variable)?.steps ?? 0, count)
        let cells = [(stencil.i0, stencil.j0), (stencil.i1, stencil.j0), (stencil.i0, stencil.j1), (stencil.i1, stencil.j1)]
        for (slot, cell) in cells.enumerated() {
            // Aliased corners (on a node or an edge) share the first read of their cell.
            if let earlier = cells.prefix(slot).firstIndex(where: { $0 == cell }) {
                corners[slot] = corners[earlier]
                continue
            }
            try read(variable, i: cell.0, j: cell.1, into: slot, steps: steps)
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

    /// The distinct cells of the stencil that carry weight, each with its summed weight and
    /// its own series: for amounts, which must be differenced per cell before they are mixed.
    mutating func corners(_ variable: ForecastVariable) throws(QueryError) -> [(weight: Float, series: [Float])] {
        let w = stencil.weights
        let options = [(w.w00, stencil.i0, stencil.j0), (w.w10, stencil.i1, stencil.j0),
                       (w.w01, stencil.i0, stencil.j1), (w.w11, stencil.i1, stencil.j1)]
        var cells: [(weight: Float, i: Int, j: Int)] = []
        for (weight, i, j) in options where weight > 0 {
            if let k = cells.firstIndex(where: { $0.i == i && $0.j == j }) { cells[k].weight += weight } else { cells.append((weight, i, j)) }
        }
        let steps = min(domain.reader.stored(variable)?.steps ?? 0, count)
        var out: [(weight: Float, series: [Float])] = []
        for cell in cells {
            try read(variable, i: cell.i, j: cell.j, into: 0, steps: steps)
            out.append((cell.weight, Array(corners[0].prefix(steps))))
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
        let steps = min(domain.reader.stored(variable)?.steps ?? 0, count)
        try read(variable, i: best.1, j: best.2, into: 0, steps: steps)
        return Array(corners[0].prefix(steps))
    }

    private mutating func read(_ variable: ForecastVariable, i: Int, j: Int, into slot: Int, steps: Int) throws(QueryError) {
        do {
            try corners[slot].withUnsafeMutableBufferPointer { (output) throws(StoreError) in
                try scratch.withUnsafeMutableBufferPointer { (buffer) throws(StoreError) in
                    try domain.reader.readSeries(variable, i: i, j: j, into: output, scratch: buffer, count: steps)
                }
            }
        } catch {
            throw .store(error.description, isDamage: error.isDamage)
        }
    }
}

/// The requested times against one domain's frames, worked out once per forecast and used
/// for every variable: brackets for instantaneous values, window starts for amounts.
struct TimePlan {
    let brackets: [TimeBracket?]
    /// For each time, the bracket of (time - window), or nil when the window starts before
    /// the run; `firstFrameOnly` marks a time on the first frame (its own stored interval).
    let windowStarts: [TimeBracket?]
    let onFirstFrame: [Bool]
    /// Frames to decode: one past the last frame any bracket uses.
    let framesNeeded: Int

    init(times: [Int64], window: Int64, domain: StoredDomain) {
        let frames = domain.metadata.times
        brackets = times.map { domain.times.bracket(at: $0) }
        windowStarts = times.map { domain.times.bracket(at: $0 - window) }
        onFirstFrame = times.map { $0 == frames.first }
        let last = brackets.compactMap { $0.map { $0.isOnFrame ? $0.lower : $0.upper } }.max() ?? 0
        framesNeeded = min(last + 1, frames.count)
    }

    /// Linear in time between the bracketing frames (exactly a frame's value on a frame).
    func atTimes(_ series: [Float]) -> [Float] {
        if series.count == 1 { return Array(repeating: series[0], count: brackets.count) }
        return series.withUnsafeBufferPointer { buffer in
            brackets.map { $0.map { $0.value(of: buffer) } ?? .nan }
        }
    }

    /// The value of the interval holding each time: the first frame at or after it (weather
    /// codes describe the interval ending at their frame).
    func intervalValues(_ series: [Float]) -> [Float] {
        brackets.map { bracket in
            guard let bracket else { return .nan }
            let frame = bracket.isOnFrame ? bracket.lower : bracket.upper
            return frame < series.count ? series[frame] : .nan
        }
    }

    /// The amount over (time - window, time] at the place, from the running totals of the
    /// cells around it: each cell's own amount (`amounts(totals:)`), then mixed with the
    /// bilinear weights. An amount is only ever built from the same interval at every cell
    /// used: when any weighted cell's amount is unknown, the place's amount is unknown
    /// (policy "answer unknown", docs/VARIABLES.md). Interpolating the totals first would
    /// let a gap at one cell leak the other cells' rain of the gap into the next known hour
    /// (issue 15, item 1).
    func amounts(corners: [(weight: Float, series: [Float])]) -> [Float] {
        var mixed = [Float](repeating: 0, count: brackets.count)
        for corner in corners {
            for (k, amount) in amounts(totals: corner.series).enumerated() { mixed[k] += corner.weight * amount }
        }
        return corners.isEmpty ? Array(repeating: .nan, count: brackets.count) : mixed.map { $0.isNaN ? .nan : max($0, 0) }
    }

    /// The amount over (time - window, time] from one cell's running totals (one per frame): the
    /// difference of the totals interpolated linearly in time, so sums over any window equal
    /// the stored total difference. A missing total marks its interval unknown; it counted as
    /// zero in later totals, so later intervals stay exact.
    func amounts(totals: [Float]) -> [Float] {
        // Totals with unknown intervals filled by the previous known total.
        var filled = totals
        var previous: Float = 0
        for k in filled.indices {
            if filled[k].isNaN { filled[k] = previous } else { previous = filled[k] }
        }
        return filled.withUnsafeBufferPointer { buffer in
            brackets.indices.map { index in
                guard let end = brackets[index] else { return .nan }
                guard let start = windowStarts[index] else {
                    // Only the first frame's own stored interval is known before the run.
                    return onFirstFrame[index] && !totals.isEmpty ? totals[0] : .nan
                }
                // Any unknown interval inside (start, end] makes the amount unknown.
                let upperFrame = end.isOnFrame ? end.lower : end.upper
                var k = start.lower + 1
                while k <= max(upperFrame, start.lower + 1) {
                    if k < totals.count && totals[k].isNaN { return .nan }
                    k += 1
                }
                return max(end.value(of: buffer) - start.value(of: buffer), 0)
            }
        }
    }
}
