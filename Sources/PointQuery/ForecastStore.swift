import Catalog
import GridGeometry
import Interpolation
import TileStore

/// One domain of an opened cycle, ready for point reads.
package struct StoredDomain: Sendable {
    package let reader: DomainFileReader
    package let grid: ProjectedGrid
    package let times: TimeInterpolation
    /// Cells left out along the edges: WRF's boundary relaxation zone for a nest that has a
    /// coarser domain around it in the cycle, none otherwise (its edge is the edge of the model).
    package let margin: Double
    /// Whether a coarser domain of the cycle lies around this one (it is a nest there).
    package let isInsideCoarser: Bool
    /// "d02", made once: every answer names it.
    package let name: String
    /// The cycle as answers print it ("2026-11-22T00:00Z"), made once.
    package let cycleText: String
    /// A moving nest's positions (nil for a grid that stays put).
    package let motion: DomainFileMetadata.StoredMotion?
    /// "d02 3 km: lat 37.84..39.62, lon -10.08..-7.80", made once: a place outside one model's
    /// domains under best match throws an error naming them on every request (a tenth of a
    /// 100-place request's time was spent formatting these for errors that were dropped).
    package let extent: String

    init(reader: DomainFileReader, grid: ProjectedGrid, times: TimeInterpolation, margin: Double, isInsideCoarser: Bool) {
        self.reader = reader
        self.grid = grid
        self.times = times
        self.margin = margin
        self.isInsideCoarser = isInsideCoarser
        name = domainName(reader.metadata.domain)
        cycleText = ModelTime.isoMinutes(reader.metadata.cycle)
        motion = reader.metadata.motion
        extent = Self.extent(name: name, grid: grid, dx: reader.metadata.projection.dx)
    }

    /// Whether a moving nest covered the place (its four surrounding cells, inside the margin)
    /// at every frame from the one before `first` to the one at or after `last`: only then are
    /// its values at those times the nest's own, not missing, and so is the amount of an
    /// accumulated variable over the interval that ends at `first`.
    package func covers(_ position: GridPosition, motion: DomainFileMetadata.StoredMotion, first: Int64, last: Int64) -> Bool {
        let times = metadata.times
        let from = times.lastIndex(where: { $0 < first }) ?? 0
        let to = times.firstIndex(where: { $0 >= last }) ?? times.count - 1
        guard from <= to else { return false }
        return (from...to).allSatisfy { motion.covers(i: position.i, j: position.j, margin: margin, frame: $0) }
    }

    /// How far outside the outermost row or column (in cells) a place is still taken as on
    /// it: coordinates typed to 4 decimals (about 11 m) miss an edge node by up to ~0.002
    /// cell at 9 km, ~0.006 at 3 km. Only for an outermost domain, whose edge has no
    /// coarser domain to fall back on; a nest's margin is unchanged.
    package static let edgeTolerance = 0.01

    /// The grid position of a place, clamped onto the edge when it lies within
    /// `edgeTolerance` outside an outermost domain.
    package func position(of point: GeoPoint) -> GridPosition {
        let position = grid.position(of: point)
        guard !isInsideCoarser else { return position }
        func clamp(_ x: Double, _ count: Int) -> Double {
            let last = Double(count - 1)
            if x < 0 && x >= -Self.edgeTolerance { return 0 }
            if x > last && x <= last + Self.edgeTolerance { return last }
            return x
        }
        return GridPosition(i: clamp(position.i, metadata.westEast), j: clamp(position.j, metadata.southNorth))
    }

    /// Whether the domain stores what a variable is computed from.
    package func holds(_ variable: ForecastVariable) -> Bool {
        // is_day has no source: the place and time alone make it.
        variable.sources.allSatisfy { reader.steps($0) > 0 } || holdsStoredCodes(variable)
    }

    /// Whether the file is from a store that kept the weather code per cell (before it was
    /// computed by the query), which it answers when it lacks the code's sources.
    package func holdsStoredCodes(_ variable: ForecastVariable) -> Bool {
        variable == .weatherCode && reader.steps(.weatherCode) > 0
    }

    package var metadata: DomainFileMetadata { reader.metadata }

    /// The shortest interval between frames, seconds (nil for a single frame).
    package var step: Int64? { zip(metadata.times.dropFirst(), metadata.times).map { $0 - $1 }.min() }

    /// Whether every time in [first, last] lies within the domain's frames.
    package func spans(first: Int64, last: Int64) -> Bool {
        guard let start = metadata.times.first, let end = metadata.times.last else { return false }
        return first >= start && last <= end
    }

    private static func extent(name: String, grid: ProjectedGrid, dx: Double) -> String {
        let corners = grid.corners
        let lat = corners.map(\.latitude), lon = corners.map(\.longitude)
        func f(_ x: Double?) -> String { String(format: "%.2f", x ?? .nan) }
        return "\(name) \(String(format: "%g", dx / 1000)) km: lat \(f(lat.min()))..\(f(lat.max())), lon \(f(lon.min()))..\(f(lon.max()))"
    }
}

/// An opened cycle of one model: its domains, finest first, for choosing and reading.
public final class ForecastStore: Sendable {
    public let root: String
    public let model: String
    public let cycle: String
    /// The cycle's immutable data folder (unique per publication, never reused): a server
    /// compares it with what `latest` names now to see that a new cycle was published.
    package let folder: String
    /// While the cycle's run is still being written (`extract --grow`): the last time it holds
    /// so far; nil for a complete cycle.
    package let growingReaches: String?
    /// When the cycle was published (its manifest's `createdAt`, seconds since 1970): the same
    /// for every server reading the store, so an answer's `Last-Modified` agrees between them.
    /// Nil when the manifest's time cannot be read.
    package let publishedAt: Int64?
    /// Finest grid first, so the first domain that holds a point is the one to use.
    package let domains: [StoredDomain]
    /// Each domain's fast stream (surface fields every 15 minutes beside an hourly history),
    /// by domain name ("d02"): finer answers (`ForecastRequest.prefersFastStreams`) read from
    /// it the variables it holds. The finest of a domain's streams when it has several.
    package let fastStreams: [String: StoredDomain]
    /// The output variables every domain of the cycle can answer, in catalog order.
    public let availableVariables: [ForecastVariable]
    /// What a request without a variable list answers: the defaults the cycle holds.
    public let defaultVariables: [ForecastVariable]

    /// Opens a cycle (the latest by default) of a model (the only one, when the store holds one).
    ///
    /// - Parameter nestMargin: cells left out along a nest's edges (WRF's relaxation zone).
    /// - Throws: `QueryError.store` naming what is missing or damaged; `.badRequest` when the
    ///   model is not given and the store holds several.
    public convenience init(root: String, model: String? = nil, cycle: CycleSelector = .latest, nestMargin: Double = 5) throws(QueryError) {
        guard nestMargin.isFinite, nestMargin >= 0 else {
            throw .badRequest("nest margin \(nestMargin): expected a number of cells, 0 or more")
        }
        let models: [String]
        do throws(StoreError) { models = try CycleStore.models(root: root) } catch { throw .store(error) }
        let chosen: String
        if let model {
            chosen = model
        } else if models.count == 1, let only = models.first {
            chosen = only
        } else if models.isEmpty {
            // A folder that is not there is a mistyped --store more often than an empty store.
            guard StoreFileSystem.kind(root) == .directory else { throw .store(.missing(path: root, what: "store folder")) }
            throw .store(.noCycle(address: root, model: nil, cycle: nil))
        } else {
            throw .badRequest("the store holds several models (\(models.joined(separator: ", "))): choose one with --model")
        }
        let opened: OpenedCycle
        do throws(StoreError) { opened = try LocalCycleSource(root: root).open(model: chosen, cycle: cycle) } catch {
            throw .store(error)
        }
        try self.init(root: root, model: chosen, opened: opened, nestMargin: nestMargin)
    }

    /// A cycle opened from any `CycleSource`: a store folder, or object storage.
    ///
    /// - Throws: `QueryError.store` (damage) when its domains' grids or times are unusable.
    package init(root: String, model: String, opened: OpenedCycle, nestMargin: Double = 5) throws(QueryError) {
        guard nestMargin.isFinite, nestMargin >= 0 else {
            throw .badRequest("nest margin \(nestMargin): expected a number of cells, 0 or more")
        }
        self.root = root
        self.model = model
        cycle = opened.name
        folder = opened.publication
        growingReaches = opened.manifest.growing == true ? opened.manifest.reaches : nil
        // "2026-11-22T03:12:45Z" (ModelTime.iso): WRF's form with a 'T' and a trailing 'Z'.
        publishedAt = ModelTime.parseWRF(String(opened.manifest.createdAt.dropLast(opened.manifest.createdAt.hasSuffix("Z") ? 1 : 0)))
        do throws(StoreError) {
            domains = try Self.arrange(readers: opened.readers, folder: opened.publication, nestMargin: nestMargin)
            fastStreams = try Self.streams(opened.streamReaders, of: domains)
        } catch {
            throw .store(error)
        }
        runTimes = domains.last?.metadata.times ?? []
        let held = domains
        let available = ForecastVariable.outputs.filter { variable in held.allSatisfy { $0.holds(variable) } }
        availableVariables = available
        defaultVariables = ForecastVariable.defaults.filter(available.contains)
    }

    /// The variables to answer: those asked for (the cycle's defaults when nil), plus what
    /// the daily summaries need.
    ///
    /// - Throws: `.badRequest` naming a variable the cycle does not hold and listing what it
    ///   holds (an answer of nulls with exit 0 would look like missing data, not a typo).
    public func resolveVariables(requested: [ForecastVariable]?, daily: [DailyVariable]) throws(QueryError) -> [ForecastVariable] {
        var variables = requested ?? defaultVariables
        for source in daily.flatMap(\.sources) where !variables.contains(source) { variables.append(source) }
        for variable in variables where !availableVariables.contains(variable) {
            throw notHeld(variable)
        }
        return variables
    }

    /// The error for a variable the cycle (or one of its domains) does not hold.
    func notHeld(_ variable: ForecastVariable) -> QueryError {
        let holding = domains.filter { $0.holds(variable) }.map(\.name)
        let partly = holding.isEmpty ? "" : " (only \(holding.joined(separator: ", ")) of its domains hold it)"
        let held = availableVariables.isEmpty ? "no variables" : availableVariables.map(\.rawValue).joined(separator: ", ")
        // The reason extraction recorded (the missing source), from the first domain lacking it.
        let reasons = domains.lazy.compactMap { domain in
            variable.sources.lazy.compactMap { domain.metadata.unavailable?[$0.rawValue] }.first.map { "\(domain.name): \($0)" }
        }
        let why = reasons.first.map { " (\($0))" } ?? ""
        return .badRequest("variable \(variable.rawValue) is not stored in \(model) cycle \(cycle)\(why)\(partly); it holds: \(held)")
    }

    /// Opened domain files as domains: grids, times, margins, finest grid first.
    private static func arrange(readers: [DomainFileReader], folder: String, nestMargin: Double) throws(StoreError) -> [StoredDomain] {
        var opened: [(reader: DomainFileReader, grid: ProjectedGrid, times: TimeInterpolation)] = []
        for reader in readers {
            let path = reader.path
            let m = reader.metadata
            let grid: ProjectedGrid
            let times: TimeInterpolation
            do {
                grid = try ProjectedGrid(parameters: m.projection, westEast: m.westEast, southNorth: m.southNorth,
                                         southWestCorner: m.southWestCorner)
                times = try TimeInterpolation(frameTimes: m.times)
            } catch {
                throw StoreError.corrupt(path: path, detail: "unusable grid or times in metadata: \(error)")
            }
            opened.append((reader, grid, times))
        }
        guard !opened.isEmpty else { throw StoreError.missing(path: folder, what: "domain files") }
        // The margin goes by geometry, not by PARENT_ID: a nest whose parent is not in the
        // cycle (extracted alone), or metadata that loops or names a parent on a single grid,
        // must not lose its edge, since no coarser domain would answer there.
        let domains = opened.map { domain in
            let centre = domain.grid.point(at: GridPosition(i: Double(domain.grid.westEast - 1) / 2,
                                                            j: Double(domain.grid.southNorth - 1) / 2))
            let surrounded = opened.contains { other in
                other.reader.metadata.projection.dx > domain.reader.metadata.projection.dx
                    && other.grid.contains(other.grid.position(of: centre))
            }
            return StoredDomain(reader: domain.reader, grid: domain.grid, times: domain.times,
                                margin: surrounded ? nestMargin : 0, isInsideCoarser: surrounded)
        }
        return domains.sorted { $0.metadata.projection.dx < $1.metadata.projection.dx }
    }

    /// Fast streams' files as domains, with their history's margin, by domain name.
    ///
    /// - Throws: `.corrupt` for a stream whose grid or times are unusable, or that does not
    ///   lie on its domain's grid (its cells would be another place's).
    private static func streams(_ readers: [DomainFileReader], of domains: [StoredDomain]) throws(StoreError) -> [String: StoredDomain] {
        var streams: [String: StoredDomain] = [:]
        for reader in readers {
            let m = reader.metadata
            guard let history = domains.first(where: { $0.metadata.domain == m.domain }) else { continue }
            let times: TimeInterpolation
            do { times = try TimeInterpolation(frameTimes: m.times) } catch {
                throw StoreError.corrupt(path: reader.path, detail: "unusable times in metadata: \(error)")
            }
            let h = history.metadata
            guard m.westEast == h.westEast, m.southNorth == h.southNorth, m.projection == h.projection,
                  m.southWestCorner == h.southWestCorner, m.motion == nil, h.motion == nil else {
                throw StoreError.corrupt(path: reader.path, detail: "the \(m.stream ?? "") stream of \(history.name) is not on \(history.name)'s grid")
            }
            let stream = StoredDomain(reader: reader, grid: history.grid, times: times, margin: history.margin,
                                      isInsideCoarser: history.isInsideCoarser)
            if let known = streams[history.name], (known.step ?? 0) <= (stream.step ?? 0) { continue }
            streams[history.name] = stream
        }
        return streams
    }

    /// The finest domain whose interior holds the place and whose frames cover [first, last].
    ///
    /// - Throws: `QueryError.outsideDomains` listing every domain's extent, or
    ///   `.outsideTimes` when a domain holds the place but no domain holds the times.
    package func choose(latitude: Double, longitude: Double, first: Int64, last: Int64) throws(QueryError) -> (StoredDomain, GridPosition) {
        let point = GeoPoint(latitude: latitude, longitude: longitude)
        var coveringInSpace: StoredDomain?
        for domain in domains {
            let position = domain.position(of: point)
            guard domain.grid.contains(position, margin: domain.margin) else { continue }
            if let motion = domain.motion, !domain.covers(position, motion: motion, first: first, last: last) { continue }
            if coveringInSpace == nil { coveringInSpace = domain }
            guard let start = domain.metadata.times.first, let end = domain.metadata.times.last,
                  first >= start, last <= end else { continue }
            return (domain, position)
        }
        if let domain = coveringInSpace {
            let times = domain.metadata.times
            throw .outsideTimes(requested: first == last ? Self.iso(first) : "\(Self.iso(first))..\(Self.iso(last))",
                                available: "\(domain.name) holds \(Self.iso(times.first ?? 0))..\(Self.iso(times.last ?? 0))")
        }
        throw .outsideDomains(latitude: latitude, longitude: longitude, extents: domains.map(\.extent))
    }

    /// Fetches at once the blocks a point forecast will read (the four cells around the place,
    /// every variable it needs, in the domain that will answer), when the cycle's bytes come from
    /// object storage (`ByteSource.fetchesAhead`), so that the reads that check and decode them
    /// find them held. A folder's cycle reads as it goes; a place outside the cycle fetches nothing.
    ///
    /// - Returns: the requests sent.
    @discardableResult
    package func prefetch(latitude: Double, longitude: Double, times: [Int64], variables: [ForecastVariable]) -> Int {
        guard fetchesAhead, let first = times.min(), let last = times.max(),
              let (domain, position) = try? choose(latitude: latitude, longitude: longitude, first: first, last: last),
              position.i.isFinite, position.j.isFinite else { return 0 }
        let m = domain.metadata
        let i0 = min(max(Int(position.i.rounded(.down)), 0), m.westEast - 1), j0 = min(max(Int(position.j.rounded(.down)), 0), m.southNorth - 1)
        let i1 = min(i0 + 1, m.westEast - 1), j1 = min(j0 + 1, m.southNorth - 1)
        // Every block the forecast reads (as `SeriesReader.prefetch` lists them): the terrain
        // height, each variable's sources, and the weather code's optional sources the file
        // holds. A block left out here is a request of its own later.
        var stored: Set<ForecastVariable> = [.elevation]
        for variable in variables {
            stored.formUnion(variable.sources)
            stored.formUnion(variable.spec.optionalSources)
        }
        var ranges: Set<Range<Int>> = []
        for variable in stored {
            for (i, j) in [(i0, j0), (i1, j0), (i0, j1), (i1, j1)] {
                if let range = domain.reader.blockRange(variable, i: i, j: j) { ranges.insert(range.offset..<(range.offset + range.count)) }
            }
        }
        return domain.reader.byteSource.prefetch(ranges: Array(ranges))
    }

    /// Whether the cycle's bytes come from object storage, read a request each.
    private var fetchesAhead: Bool { domains.contains { $0.reader.byteSource.fetchesAhead } }

    /// The frame times of the coarsest domain (the whole run). Stored: model choice asks for
    /// them per time and cycle for every place, and reaching them through the domain copied
    /// it (storing them took a place's model choice from 24,300 instructions to 13,200, S3).
    public let runTimes: [Int64]

    static func iso(_ seconds: Int64) -> String { ModelTime.isoMinutes(seconds) }
}
