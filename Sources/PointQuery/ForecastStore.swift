import Catalog
import GridGeometry
import Interpolation
import TileStore

/// One domain of an opened cycle, ready for point reads.
public struct StoredDomain: Sendable {
    public let reader: DomainFileReader
    public let grid: ProjectedGrid
    public let times: TimeInterpolation
    /// Cells left out along the edges: WRF's boundary relaxation zone for nests, none for
    /// the outermost domain (its edge is the edge of the model).
    public let margin: Double

    public var metadata: DomainFileMetadata { reader.metadata }
    public var name: String { "d" + (metadata.domain < 10 ? "0" : "") + String(metadata.domain) }
    public var isNest: Bool { metadata.parentDomain != nil }

    /// "d02 3 km: lat 37.84..39.62, lon -10.08..-7.80, 2026-11-22T00Z..2026-11-23T00Z"
    public var extent: String {
        let corners = grid.corners
        let lat = corners.map(\.latitude), lon = corners.map(\.longitude)
        func f(_ x: Double?) -> String { String(format: "%.2f", x ?? .nan) }
        return "\(name) \(String(format: "%g", metadata.projection.dx / 1000)) km: lat \(f(lat.min()))..\(f(lat.max())), lon \(f(lon.min()))..\(f(lon.max()))"
    }
}

/// An opened cycle of one model: its domains, finest first, for choosing and reading.
public final class ForecastStore: Sendable {
    public let root: String
    public let model: String
    public let cycle: String
    /// Finest grid first, so the first domain that holds a point is the one to use.
    public let domains: [StoredDomain]

    /// Opens a cycle ("latest" by default) of a model (the only one, when the store holds one).
    ///
    /// - Parameter nestMargin: cells left out along a nest's edges (WRF's relaxation zone).
    /// - Throws: `QueryError.store` naming what is missing or damaged; `.badRequest` when the
    ///   model is not given and the store holds several.
    public init(root: String, model: String? = nil, cycle: String = "latest", nestMargin: Double = 5) throws(QueryError) {
        self.root = root
        let models = CycleStore.models(root: root)
        let chosen: String
        if let model {
            chosen = model
        } else if models.count == 1, let only = models.first {
            chosen = only
        } else if models.isEmpty {
            throw .store("\(root): no published cycle (run tilecast extract first)", isDamage: false)
        } else {
            throw .badRequest("the store holds several models (\(models.joined(separator: ", "))): choose one with --model")
        }
        self.model = chosen
        do throws(StoreError) {
            // A re-extraction of this cycle (or --keep pruning) removes the folder its link named
            // before, possibly between our resolving the link and opening the files (found by
            // Scripts/faults: "domain file not found", or a listing missing a domain). So: open,
            // then check that the link still names the folder; if not, or if a file vanished,
            // resolve again. A folder still named after its files are open was never removed
            // (folder names are unique and never linked again): what was opened is that cycle.
            var attempt = 0
            var opened: (name: String, domains: [StoredDomain])
            while true {
                let folder: String
                do throws(StoreError) {
                    // The cycle's manifest lists its domains: one that cannot be opened is
                    // damage (exit 5), never an answer from the coarser domain instead.
                    let published = try CycleStore.openCycle(root: root, model: chosen, cycle: cycle)
                    folder = published.folder
                    opened = (published.name, try Self.open(paths: published.domainPaths, folder: folder, nestMargin: nestMargin))
                } catch {
                    if case .missing = error, attempt < 3 { attempt += 1; continue }
                    throw error
                }
                if attempt < 3, (try? CycleStore.resolve(root: root, model: chosen, cycle: cycle))?.folder != folder {
                    attempt += 1
                    continue
                }
                break
            }
            self.cycle = opened.name
            self.domains = opened.domains
        } catch {
            throw .store(error.description, isDamage: error.isDamage)
        }
    }

    /// Opens every domain file of a cycle folder, finest grid first.
    private static func open(paths: [String], folder: String, nestMargin: Double) throws(StoreError) -> [StoredDomain] {
        var domains: [StoredDomain] = []
        for path in paths {
            let reader = try DomainFileReader(path: path)
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
            domains.append(StoredDomain(reader: reader, grid: grid, times: times,
                                        margin: m.parentDomain == nil ? 0 : nestMargin))
        }
        guard !domains.isEmpty else { throw StoreError.missing(path: folder, what: "domain files") }
        return domains.sorted { $0.metadata.projection.dx < $1.metadata.projection.dx }
    }

    /// The finest domain whose interior holds the place and whose frames cover [first, last].
    ///
    /// - Throws: `QueryError.outsideDomains` listing every domain's extent, or
    ///   `.outsideTimes` when a domain holds the place but no domain holds the times.
    public func choose(latitude: Double, longitude: Double, first: Int64, last: Int64) throws(QueryError) -> (StoredDomain, GridPosition) {
        let point = GeoPoint(latitude: latitude, longitude: longitude)
        var coveringInSpace: StoredDomain?
        for domain in domains {
            let position = domain.grid.position(of: point)
            guard domain.grid.contains(position, margin: domain.margin) else { continue }
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

    /// The frame times of the coarsest domain (the whole run).
    public var runTimes: [Int64] { domains.last?.metadata.times ?? [] }

    static func iso(_ seconds: Int64) -> String { ModelTime.isoMinutes(seconds) }
}
