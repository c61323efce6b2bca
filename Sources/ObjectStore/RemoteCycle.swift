import Catalog
import Foundation
import GridGeometry
import PointQuery
import TileStore

/// A published cycle on a remote store, opened for point reads.
///
/// The remote layout is the local store's, seen through a web server that follows its
/// links, and what `tilecast publish` writes to a bucket:
///
///     PREFIX/MODEL/latest/cycle.json     the newest cycle's manifest (names the cycle); replaced last
///     PREFIX/MODEL/CYCLE/cycle.json      each cycle's manifest
///     PREFIX/MODEL/CYCLE/d01.tcs ...     its domain files
///
/// So `latest` is one object, whose manifest names the cycle, and it is switched with one PUT
/// (atomic per object): a reader sees the old cycle or the new one. A local store folder served
/// as is (nginx follows `MODEL/latest -> CYCLE -> .data/...`) has the same addresses.
package final class RemoteCycle: Sendable {
    package let store: ForecastStore
    package let manifest: CycleManifest
    /// The manifest's bytes: a server compares them with what `latest` holds now.
    package let manifestBytes: [UInt8]
    private let sources: [(reader: DomainFileReader, bytes: RemoteBytes)]

    /// Each domain file's reader and bytes, in the manifest's order (for `inspect`).
    package var domainFiles: [(reader: DomainFileReader, bytes: RemoteBytes)] { sources }

    /// The store-relative address of a model's manifest for a cycle (`latest` is its own object).
    package static func manifestPath(model: String, cycle: CycleSelector) -> String {
        model + "/" + cycle.description + "/" + CycleManifest.fileName
    }

    /// Opens a model's cycle.
    ///
    /// - Throws: `QueryError.store` naming the address: missing (nothing published, exit 5),
    ///   damaged (a manifest or file that does not hold together), or unreachable.
    package init(client: ObjectClient, model: String, cycle: CycleSelector = .latest, nestMargin: Double = 5,
                 cacheBudget: Int = DomainFileReader.defaultCacheBudget) throws(QueryError) {
        guard !model.isEmpty, !model.contains("/"), !model.hasPrefix(".") else {
            throw .badRequest("--model \(model): expected a plain model name")
        }
        let path = Self.manifestPath(model: model, cycle: cycle)
        let fetched: [UInt8]?
        do throws(ObjectStoreError) { fetched = try client.getObject(path) } catch {
            throw .store(RemoteBytes.storeError(error, label: client.describe(path)).description, isDamage: false)
        }
        guard let bytes = fetched else {
            throw .store("\(client.describe(path)): not found: \(cycle == .latest ? "no published cycle of \(model)" : "no cycle \(cycle) of \(model)") on \(client.location)", isDamage: false)
        }
        let manifest = try Self.decodeManifest(bytes, model: model, cycle: cycle, address: client.describe(path))
        var sources: [(reader: DomainFileReader, bytes: RemoteBytes)] = []
        do throws(StoreError) {
            for entry in manifest.domains {
                let relative = model + "/" + manifest.cycle + "/" + entry.file
                let remote: RemoteBytes
                do throws(StoreError) { remote = try RemoteBytes(client: client, relative: relative, expectedSize: entry.bytes) } catch {
                    // The manifest lists it: its absence is damage (a `latest` naming a cycle
                    // that is not all there), never an answer from a coarser domain.
                    if case .missing = error {
                        throw .corrupt(path: client.describe(relative), detail: "missing: \(model) cycle \(manifest.cycle)'s manifest lists \(entry.domain) (\(entry.file))")
                    }
                    throw error
                }
                let reader = try DomainFileReader(source: remote, path: remote.label, cacheBudget: cacheBudget)
                try manifest.requireListed(reader.metadata, size: remote.size, entry: entry, path: remote.label)
                remote.releaseOpeningBytes()
                sources.append((reader, remote))
            }
        } catch {
            throw .store(error.description, isDamage: error.isDamage)
        }
        self.manifest = manifest
        manifestBytes = bytes
        self.sources = sources
        store = try ForecastStore(root: client.location.description, model: model, cycle: manifest.cycle,
                                  folder: client.describe(model + "/" + manifest.cycle) + "@" + manifest.createdAt,
                                  readers: sources.map(\.reader), nestMargin: nestMargin,
                                  growingReaches: manifest.growing == true ? manifest.reaches : nil)
    }

    /// A fetched manifest, checked before anything it names is fetched: of `model`, of a cycle
    /// (the one `cycle` names, unless latest), listing at least one domain, each file a plain name (a
    /// manifest is never a way to read outside the cycle's folder). The manifest is outside
    /// bytes: this is the fuzz target's entry (fuzz/Sources/FuzzRemoteAnswers).
    ///
    /// - Throws: `QueryError.store` (damage) naming `address`.
    package static func decodeManifest(_ bytes: [UInt8], model: String, cycle: CycleSelector, address: String) throws(QueryError) -> CycleManifest {
        let manifest: CycleManifest
        do { manifest = try JSONDecoder().decode(CycleManifest.self, from: Data(bytes)) } catch {
            throw .store("\(address): store damaged: manifest does not decode: \(error)", isDamage: true)
        }
        guard manifest.model == model, CycleID(name: manifest.cycle) != nil, cycle == .latest || manifest.cycle == cycle.description else {
            throw .store("\(address): store damaged: the manifest is of \(manifest.model) cycle \(manifest.cycle)", isDamage: true)
        }
        guard !manifest.domains.isEmpty else { throw .store("\(address): store file damaged: the cycle's manifest lists no domain", isDamage: true) }
        for entry in manifest.domains where !StoreFileSystem.isPlainName(entry.file) {
            throw .store("\(address): store file damaged: lists a domain file \"\(entry.file)\" that is not a plain name", isDamage: true)
        }
        return manifest
    }

    /// Fetches, all at once, the blocks a point forecast will read (the four cells around the
    /// place, every variable it needs, in the domain that will answer), so that the reads that
    /// check and decode them find them held. A place outside the cycle fetches nothing.
    ///
    /// - Returns: the requests sent.
    @discardableResult
    package func prefetch(latitude: Double, longitude: Double, times: [Int64], variables: [ForecastVariable]) -> Int {
        guard let first = times.min(), let last = times.max(),
              let (domain, position) = try? store.choose(latitude: latitude, longitude: longitude, first: first, last: last),
              let source = sources.first(where: { $0.reader === domain.reader })?.bytes else { return 0 }
        let m = domain.metadata
        guard position.i.isFinite, position.j.isFinite else { return 0 }
        let i0 = min(max(Int(position.i.rounded(.down)), 0), m.westEast - 1), j0 = min(max(Int(position.j.rounded(.down)), 0), m.southNorth - 1)
        let cells = [(i0, j0), (min(i0 + 1, m.westEast - 1), j0), (i0, min(j0 + 1, m.southNorth - 1)), (min(i0 + 1, m.westEast - 1), min(j0 + 1, m.southNorth - 1))]
        var ranges: Set<Range<Int>> = []
        for variable in variables {
            for stored in variable.sources {
                for (i, j) in cells {
                    if let range = domain.reader.blockRange(stored, i: i, j: j) { ranges.insert(range.offset..<(range.offset + range.count)) }
                }
            }
        }
        return source.prefetch(Array(ranges))
    }
}
