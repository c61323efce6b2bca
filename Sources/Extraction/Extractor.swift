import Catalog
import Foundation
import Synchronization
import Meteorology
import ModelIngest
import TileStore

/// What an extraction did, for the one summary line an operator reads.
public struct ExtractionSummary: Sendable, Codable {
    public var model: String
    public var cycle: String
    public var domains: [String]
    public var files: Int
    public var frames: Int
    public var variables: Int
    public var bytesIn: Int64
    public var bytesOut: Int64
    public var seconds: Double
    public var pruned: [String]
    public var warnings: [String]
    public var dryRun: Bool
    /// A run still being written: the last time the published cycle holds.
    public var growingReaches: String?

    /// "wrf 2026-11-22T00Z: 2 domains (d01, d02), 2 files, 50 frames, 14 variables, 4.1 MB -> 310 kB (7.6 %), 1.2 s"
    public var line: String {
        let ratio = bytesIn > 0 ? String(format: " (%.2f %%)", Double(bytesOut) / Double(bytesIn) * 100) : ""
        let verb = dryRun ? "would publish" : "published"
        return "\(model) \(cycle) \(verb): \(domains.count) domain\(domains.count == 1 ? "" : "s") (\(domains.joined(separator: ", "))), "
            + "\(files) file\(files == 1 ? "" : "s"), \(frames) frames, \(variables) variable\(variables == 1 ? "" : "s"), "
            + "\(Self.bytes(bytesIn)) -> \(Self.bytes(bytesOut))\(ratio), " + String(format: "%.1f s", seconds)
            + (pruned.isEmpty ? "" : "; pruned \(pruned.joined(separator: ", "))")
            + (growingReaches.map { "; growing, holds up to \($0)" } ?? "")
    }

    static func bytes(_ count: Int64) -> String {
        let value = Double(count)
        if value >= 1e9 { return String(format: "%.2f GB", value / 1e9) }
        if value >= 1e6 { return String(format: "%.1f MB", value / 1e6) }
        if value >= 1e3 { return String(format: "%.0f kB", value / 1e3) }
        return "\(count) B"
    }
}

/// Progress of an extraction: frames written so far out of all frames of all domains.
public struct ExtractionProgress: Sendable {
    public let domain: String
    public let framesDone: Int
    public let framesTotal: Int
}

/// Reads a run and writes it as one published cycle of the store.
public struct Extractor: Sendable {
    public var inputs: [String]
    public var store: String
    public var model: String?
    public var cycle: Int64?
    public var profile: ModelProfile?
    public var keep: Int?
    public var variables: [ForecastVariable]?
    /// Stored besides `variables` where the domain provides them by the routes `set` takes: what
    /// a named output uses when held (the weather code's showers, visibility, CAPE, ...). Never
    /// a model-levels computation the set would not make: CAPE lifted through the levels took
    /// an extraction of the weather code's list from 0.17 s to 10 s on the bench's 1.52 GB run.
    package var optionalVariables: [ForecastVariable] = []
    /// The named set stored when `variables` is nil (`tilecast extract --set`), and the routes
    /// `optionalVariables` may take.
    package var set: ExtractionSet = .surface
    /// What is stored of `domain`: `variables` with the optional ones the set's routes give,
    /// else what the domain provides by the routes the set takes (no cape lifted through the
    /// model levels in the surface set).
    private func wanted(of domain: Domain) -> [ForecastVariable] {
        let provided = domain.variables.provided(by: set)
        guard let variables else { return provided }
        return Array(Set(variables + optionalVariables.filter(provided.contains))).sorted()
    }
    public var dryRun = false
    /// The neighbourhood fractions' radius in kilometres (`--neighbourhood-km`); nil: three
    /// cells of each domain (`FrameReader.defaultNeighbourhoodRadius`).
    public var neighbourhoodKilometres: Double?
    /// Replace a published cycle even when the new one has fewer domains (a lost nest file
    /// would otherwise silently turn Lisbon's 3 km forecast into 9 km).
    public var allowFewerDomains = false
    /// Row bands a large domain is read in (see `minimumBandLevelBytes`), one unit of work
    /// each, all units of all domains side by side on the cores: with one unit per domain, a
    /// run of one domain uses one core. Reading is serialised by the netCDF lock; deriving and
    /// quantizing are not. The store's bytes do not depend on it.
    package var bandsPerDomain = 2
    /// The least bytes one band's rows of one level must hold for a domain to be split:
    /// libnetcdf reads a classic file in 8 KB pieces, so every band's part of every level reads
    /// up to 8 KB it does not need. Bands of the bench run's 100 x 84 domain (33 KB a level)
    /// read 818 MB where whole levels read 527 MB, and were no faster; a 1000 x 1000 domain
    /// (4 MB a level) loses under 1 %.
    package var minimumBandLevelBytes = 64 << 10
    /// Parts of its frames a domain not split in bands is read in, side by side: each part
    /// after the first first replays the accumulated fields of the frames before it (the
    /// amounts depend on every earlier total), then reads its own. With one unit per domain,
    /// the smaller of two domains of 2:1 cells finished first and left a core idle for the
    /// rest of the run. The store's bytes do not depend on it.
    package var framePartsPerDomain = 2
    /// Quantized values each domain writer keeps in memory before spilling to scratch files
    /// (shared out when a run has more domains than cores: see `writeDomains`).
    package var writerMemoryLimit = DomainFileWriter.defaultMemoryLimit
    /// Called after each frame (from the extracting thread).
    public var progress: (@Sendable (ExtractionProgress) -> Void)?
    /// For tests: called before each domain is written and before publication; throwing
    /// there simulates a failure half-way.
    package var faultInjection: (@Sendable (String) throws -> Void)?
    /// A run still being written: its manifest says the cycle is growing and how far it
    /// reaches, so readers and `inspect` can tell the cycle will be extended.
    package var growing = false

    public init(inputs: [String], store: String) {
        self.inputs = inputs
        self.store = store
    }

    /// Runs the extraction. Either publishes a complete new cycle or leaves the store as it was.
    ///
    /// - Throws: `IngestError` (unusable input), `StoreError` (lock held, write failure), or
    ///   whatever `faultInjection` throws.
    public func run() throws -> ExtractionSummary {
        let started = Date()
        return try run(of: ModelRun.read(paths: inputs, profile: profile), started: started)
    }

    /// Writes a run already read and checked (the command line reads the inputs once to group
    /// them by model; reading them again would open and check every file twice).
    public func run(of run: ModelRun, started: Date = Date()) throws -> ExtractionSummary {
        let modelName = model ?? run.profileName
        let cycleTime = try run.cycle(requested: cycle)   // refuses a cycle that is not the run's start
        let files = Set((run.domains + run.fastStreams).flatMap { $0.files.map(\.path) })
        var summary = self.summary(of: run, model: modelName, cycle: cycleTime, files: files)
        if dryRun {
            summary.seconds = Date().timeIntervalSince(started)
            return summary
        }

        try Self.refuseInputsInsideStore(Array(files), store: store, model: modelName)
        let writer = try CycleWriter(root: store, model: modelName, cycle: cycleTime)
        try refuseFewerDomains(run, replacing: writer)
        try refuseCyclePrunedAtOnce(writer.cycle, model: modelName)
        // A domain's fast stream is written as one more domain file, named after its stream.
        let written = run.domains + run.fastStreams
        let paths = written.map { writer.domainPath($0.id, stream: $0.stream) }
        let outcomes = try writeDomains(written, of: run, model: modelName, cycle: cycleTime, to: paths, totalFrames: summary.frames)
        var manifestDomains: [CycleManifest.DomainEntry] = []
        var manifestStreams: [CycleManifest.DomainEntry] = []
        for domain in outcomes {
            summary.bytesOut += Int64(domain.manifest.bytes)
            summary.warnings += domain.warnings
            if domain.manifest.stream == nil { manifestDomains.append(domain.manifest) } else { manifestStreams.append(domain.manifest) }
        }
        try faultInjection?("publish")
        var manifest = CycleManifest(
            model: modelName, cycle: summary.cycle, modelTitle: run.title, domains: manifestDomains, inputs: files.sorted(),
            warnings: summary.warnings, createdBy: "tilecast \(TileCastVersion.current)",
            createdAt: ModelTime.iso(Int64(Date().timeIntervalSince1970.rounded(.down))))
        manifest.streams = manifestStreams.isEmpty ? nil : manifestStreams
        manifest.growing = growing ? true : nil
        manifest.reaches = run.reaches.map(ModelTime.iso)
        let published = try writer.publish(manifest: manifest, keep: keep)
        summary.pruned = published.pruned
        summary.growingReaches = growing ? manifest.reaches : nil
        summary.warnings += published.warnings
        summary.seconds = Date().timeIntervalSince(started)
        return summary
    }

    /// What the extraction will publish, before anything is written.
    /// With `--keep N`, a cycle older than the N newest published ones would be pruned the
    /// moment it is published (the store keeps the newest): refused before any work, saying
    /// so, instead of "published ...; pruned" with exit 0.
    private func refuseCyclePrunedAtOnce(_ cycle: CycleID, model: String) throws {
        guard let keep else { return }
        let all = Set(try CycleStore.cycles(root: store, model: model) + [cycle]).sorted()
        guard cycle != all.last, !all.suffix(max(keep, 0)).contains(cycle) else { return }
        throw ExtractionError.prunedAtOnce(cycle: cycle.name, keep: keep, kept: all.suffix(max(keep, 0)).map(\.name))
    }

    private func summary(of run: ModelRun, model: String, cycle: Int64, files: Set<String>) -> ExtractionSummary {
        ExtractionSummary(
            model: model, cycle: CycleStore.cycleName(cycle), domains: run.domains.map(\.name),
            files: files.count, frames: (run.domains + run.fastStreams).reduce(0) { $0 + $1.frames.count },
            // The variables written: those asked for (all by default) that a domain provides.
            variables: Set(run.domains.flatMap { domain in domain.variables.available.filter(wanted(of: domain).contains) }).count,
            bytesIn: files.reduce(Int64(0)) { $0 + (fileSize(atPath: $1) ?? 0) }, bytesOut: 0, seconds: 0, pruned: [],
            warnings: run.warnings.map(\.message), dryRun: dryRun)
    }

    /// A re-run never silently replaces a published cycle with one that lacks some of its
    /// domains (a lost nest file would turn a 3 km forecast into a 9 km one).
    private func refuseFewerDomains(_ run: ModelRun, replacing writer: CycleWriter) throws {
        guard !allowFewerDomains, let replaced = writer.replacedManifest() else { return }
        let lost = replaced.domains.map(\.domain).filter { !run.domains.map(\.name).contains($0) }
        if !lost.isEmpty {
            throw ExtractionError.fewerDomains(cycle: writer.cycleName, lost: lost, published: replaced.domains.map(\.domain))
        }
    }

    /// Writes every domain's file: the domains' bands side by side on all cores, and each
    /// file's tiles (encoded on all cores) as soon as its domain is read. Outcomes in the
    /// order of `run.domains`.
    private func writeDomains(_ domains: [Domain], of run: ModelRun, model: String, cycle: Int64, to paths: [String],
                              totalFrames: Int) throws -> [DomainOutcome] {
        let (writers, units) = try openWriters(domains, of: run, model: model, cycle: cycle, to: paths)
        // Each domain's file is encoded and written as soon as its last unit is read, on a
        // thread of its own, while the cores read the next domains: reading takes turns at
        // libnetcdf's lock, so readers leave a core partly idle, which the encoding fills (it
        // waited for the last domain's reading before).
        let finishes = DomainFinishes(unitsPerDomain: (0..<writers.count).map { index in units.filter { $0.domain == index }.count }) { index in
            do throws(StoreError) { return .success(try writers[index].finish()) } catch { return .failure(error) }
        }
        let frameDone = frameProgress(totalFrames: totalFrames, unitFrames: units.reduce(0) { $0 + $1.frames.count })
        let results: [Result<UnitReport, Error>] = concurrentMap(units.count) { unit in
            defer { finishes.unitDone(domain: units[unit].domain) }
            return Result { try read(units[unit], of: domains[units[unit].domain], into: writers[units[unit].domain], frameDone: frameDone) }
        }
        let sizes = finishes.wait()
        // A unit's error first: the domain's file then failed too, for want of its frames.
        let reports = try Self.domainReports(results, domains: domains.count)
        try Self.refuseImplausibleValues(domains, reports: reports)
        return try domains.enumerated().map { index, domain in
            let size = try sizes[index].get()
            var entry = CycleManifest.DomainEntry(
                domain: domain.name, file: CycleStore.domainFileName(domain.id, stream: domain.stream), bytes: size,
                frames: domain.frames.count, variables: writers[index].variableNames)
            entry.stream = domain.stream
            return DomainOutcome(warnings: Self.warnings(domain, reports[index]), manifest: entry)
        }
    }

    /// Every domain's writer, opened in the order of `run.domains`, and the units its reading
    /// is split into.
    private func openWriters(_ domains: [Domain], of run: ModelRun, model: String, cycle: Int64,
                             to paths: [String]) throws -> (writers: [DomainFileWriter], units: [ReadingUnit]) {
        var writers: [DomainFileWriter] = []
        var units: [ReadingUnit] = []
        // Every domain's writer lives until the frames are read: with more domains than cores,
        // each keeps a share of the memory limit, so that all of them together hold no more
        // than one writer per core would (values beyond it spill, the same bytes either way).
        let cores = max(ProcessInfo.processInfo.activeProcessorCount, 1), count = max(domains.count, 1)
        let memoryLimit = writerMemoryLimit / count * min(count, cores)
        for (index, domain) in domains.enumerated() {
            try faultInjection?("domain \(domain.label)")
            // A named set stores what the domain provides by the routes that set takes.
            let variables = FrameReader.variables(of: domain, wanted: wanted(of: domain))
            let metadata = Self.metadata(of: domain, in: run, model: model, cycle: cycle, set: self.variables == nil ? set : .all,
                                         listed: { $0.belongs(to: set) || self.variables?.contains($0) == true })
            let writer = try DomainFileWriter(path: paths[index], metadata: metadata, variables: variables, memoryLimit: memoryLimit)
            writers.append(writer)
            units += readingUnits(of: domain, index: index, writer: writer)
        }
        return (writers, units)
    }

    /// What a domain's file says about itself.
    private static func metadata(of domain: Domain, in run: ModelRun, model: String, cycle: Int64, set: ExtractionSet,
                                 listed: (ForecastVariable) -> Bool) -> DomainFileMetadata {
        // What the run lacks of the set (and of any variable named): a level the default set
        // does not store is not "unavailable" in a cycle that never tried to hold it.
        let missing = domain.variables.lacking(in: set).filter { listed($0.0) }
        return DomainFileMetadata(
            model: model, modelTitle: run.title, cycle: cycle, domain: domain.id,
            parentDomain: domain.nest?.parentID, parentGridRatio: domain.nest?.ratio,
            parentStart: domain.nest.map { [$0.iParentStart, $0.jParentStart] },
            projection: domain.projection, westEast: domain.grid.westEast, southNorth: domain.grid.southNorth,
            southWestCorner: domain.grid.southWestCorner, times: domain.times,
            sources: domain.files.map { ($0.path as NSString).lastPathComponent },
            createdBy: "tilecast \(TileCastVersion.current)",
            unavailable: missing.isEmpty ? nil
                : Dictionary(missing.map { ($0.0.rawValue, $0.1) }, uniquingKeysWith: { first, _ in first }),
            motion: domain.motion.map { DomainFileMetadata.StoredMotion(westEast: $0.westEast, southNorth: $0.southNorth,
                                                                          offsets: $0.offsets.map { [$0.i, $0.j] }) },
            stream: domain.stream)
    }

    /// A domain's reading, in bands of rows or in parts of its frames (see `bandsPerDomain`
    /// and `framePartsPerDomain`), so that a run of few domains still keeps every core busy.
    private func readingUnits(of domain: Domain, index: Int, writer: DomainFileWriter) -> [ReadingUnit] {
        // A writer that spills appends whole frames in order: one band.
        let levelBytes = domain.grid.westEast * domain.grid.southNorth * MemoryLayout<Float>.size
        // A moving nest is read whole, in one pass: each frame is laid on the covering grid
        // where the nest was, and its totals follow it from frame to frame.
        let moving = domain.motion != nil
        // A neighbourhood fraction is made from a whole frame's amounts: one band then (the
        // frame parts below still keep the cores busy).
        let whole = writer.spills || moving || FrameReader.variables(of: domain, wanted: wanted(of: domain)).contains(where: ForecastVariable.neighbourhoods.contains)
        let bands = whole ? 1 : max(1, min(bandsPerDomain, levelBytes / max(minimumBandLevelBytes, 1)))
        // Parts of the frames only where the domain is not in bands (either keeps the cores
        // busy) and its values stay in memory (scratch files take frames in order).
        let frameCount = domain.frames.count
        let parts = writer.spills || bands > 1 || moving ? 1 : max(1, min(framePartsPerDomain, frameCount))
        var units: [ReadingUnit] = []
        for band in RowBand.split(domain, into: bands) {
            for part in 0..<parts {
                units.append(ReadingUnit(domain: index, band: band, frames: (part * frameCount / parts)..<((part + 1) * frameCount / parts)))
            }
        }
        return units
    }

    /// Counts a frame of a unit done and reports progress, callable from every reading thread.
    private func frameProgress(totalFrames: Int, unitFrames: Int) -> @Sendable (String) -> Void {
        let counter = FrameCounter()
        let progress = self.progress
        return { domain in
            // Frames done in proportion to unit-frames done, so the count ends at the total.
            let done = counter.increment() * totalFrames / max(unitFrames, 1)
            progress?(ExtractionProgress(domain: domain, framesDone: done, framesTotal: totalFrames))
        }
    }

    /// Reads one unit's frames into its domain's writer, counting the values beyond physical
    /// limits on the way.
    private func read(_ unit: ReadingUnit, of domain: Domain, into writer: DomainFileWriter,
                      frameDone: (String) -> Void) throws -> UnitReport {
        var reader = try FrameReader(domain: domain, variables: wanted(of: domain), band: unit.band)
        if let kilometres = neighbourhoodKilometres {
            reader.neighbourhoodRadius = kilometres * 1000 / domain.grid.parameters.dx
        }
        var limitCounts: [ForecastVariable: LimitCount] = [:]
        try reader.skip(to: unit.frames.lowerBound)
        for t in unit.frames {
            guard let frame = try reader.nextFrame() else { break }
            for (variable, values) in frame.values {
                guard let limits = PhysicalLimits.limits(of: variable) else { continue }
                limitCounts[variable, default: LimitCount()].add(values, within: limits)
            }
            try writer.add(frame: frame.values, time: t, cells: reader.storedCells)
            frameDone(domain.label)
        }
        return UnitReport(domain: unit.domain, accumulation: reader.accumulationReport, missingValues: reader.missingValues,
                          limits: limitCounts)
    }

    /// The units' reports summed per domain, or the first unit's error.
    private static func domainReports(_ results: [Result<UnitReport, Error>], domains: Int) throws -> [UnitReport] {
        var reports = [UnitReport](repeating: UnitReport(domain: 0, accumulation: DeaccumulationReport(), missingValues: [:], limits: [:]),
                                   count: domains)
        for result in results {
            let unit = try result.get()
            reports[unit.domain].accumulation.resetCells += unit.accumulation.resetCells
            reports[unit.domain].accumulation.unknownCells += unit.accumulation.unknownCells
            reports[unit.domain].missingValues.merge(unit.missingValues, uniquingKeysWith: +)
            for (variable, count) in unit.limits { reports[unit.domain].limits[variable, default: LimitCount()].merge(count) }
        }
        return reports
    }

    /// Values beyond physical limits: a run most of whose values of a variable are refuses
    /// to publish (exit 3, before anything is published); a few are a loud warning.
    private static func refuseImplausibleValues(_ domains: [Domain], reports: [UnitReport]) throws {
        var refused: [String] = []
        for (index, domain) in domains.enumerated() {
            for (variable, count) in reports[index].limits.sorted(by: { $0.key.rawValue < $1.key.rawValue })
            where count.checked > 0 && Double(count.outside) > PhysicalLimits.refusedFraction * Double(count.checked) {
                refused.append(count.describe(variable, domain: domain.label))
            }
        }
        if !refused.isEmpty { throw ExtractionError.implausibleValues(refused.joined(separator: "; ")) }
    }

    /// The warnings a domain's reading gave: precipitation restarts, values beyond physical
    /// limits, missing values.
    private static func warnings(_ domain: Domain, _ report: UnitReport) -> [String] {
        var warnings: [String] = []
        if report.accumulation.resetCells > 0 {
            warnings.append("\(domain.label): accumulated precipitation dropped in \(report.accumulation.resetCells) cell-frames (restart or uncounted bucket tip); those intervals restart from the new total or are marked unknown")
        }
        for (variable, count) in report.limits.sorted(by: { $0.key.rawValue < $1.key.rawValue }) where count.outside > 0 {
            warnings.append(count.describe(variable, domain: domain.label) + "; published as they are")
        }
        if !report.missingValues.isEmpty {
            let list = report.missingValues.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            warnings.append("\(domain.label): missing values (fill value or NaN) stored as missing: \(list) cell-frames")
        }
        return warnings
    }
}

/// One unit of reading work: a band of a domain's rows over a range of its frames.
private struct ReadingUnit: Sendable {
    let domain: Int
    let band: RowBand
    let frames: Range<Int>
}

/// What reading one unit of a domain (a band of rows or a part of the frames) found, summed
/// per domain for the warnings.
private struct UnitReport {
    let domain: Int
    var accumulation: DeaccumulationReport
    var missingValues: [String: Int]
    /// Values checked against `PhysicalLimits`, per variable.
    var limits: [ForecastVariable: LimitCount]
}

/// What writing one domain produced.
struct DomainOutcome: Sendable {
    let warnings: [String]
    let manifest: CycleManifest.DomainEntry
}

/// Why an extraction refused to publish, though its inputs could be read.
public enum ExtractionError: ExitCoded, Sendable, Equatable, CustomStringConvertible {
    /// The new cycle lacks domains the published cycle of the same name has.
    case fewerDomains(cycle: String, lost: [String], published: [String])
    /// An input lies inside the store's data folders, which extraction cleans up.
    case inputInsideStore(path: String, store: String)
    /// Most values of a variable lie beyond its physical limits (`PhysicalLimits`).
    case implausibleValues(String)
    /// The cycle is older than the `keep` newest: `--keep` would prune it as soon as published.
    case prunedAtOnce(cycle: String, keep: Int, kept: [String])

    /// Options that cannot work as given are usage (2); a run that would publish worse than
    /// what is there is unusable input (3).
    public var exitCode: ExitStatus {
        switch self {
        case .inputInsideStore, .prunedAtOnce: return .badUsage
        case .fewerDomains, .implausibleValues: return .unusableInput
        }
    }

    public var description: String {
        switch self {
        case .fewerDomains(let cycle, let lost, let published):
            return "cycle \(cycle) is published with \(published.joined(separator: ", ")); this run lacks \(lost.joined(separator: ", ")) (a nest file missing or unreadable?): refusing to replace it with fewer domains (pass --allow-fewer-domains if that is what you want)"
        case .prunedAtOnce(let cycle, let keep, let kept):
            return "cycle \(cycle) is older than the \(keep) newest cycle\(keep == 1 ? "" : "s") the store keeps (\(kept.joined(separator: ", "))): --keep \(keep) would prune it as soon as it is published; nothing was published (raise --keep to publish an older cycle)"
        case .implausibleValues(let what):
            return what + ": refusing to publish (nothing was published)"
        case .inputInsideStore(let path, let store):
            return "\(path): an input inside the store's data folder (\(store)), which extraction cleans up: move the run's files out of the store"
        }
    }
}

extension Extractor {
    /// Refuses inputs inside `STORE/MODEL/.data`, the only place extraction ever deletes in.
    static func refuseInputsInsideStore(_ inputs: [String], store: String, model: String) throws {
        guard let data = StoreFileSystem.realPath(store + "/" + model + "/.data") else { return }
        for input in inputs {
            guard let real = StoreFileSystem.realPath(input) else { continue }
            if real == data || real.hasPrefix(data + "/") {
                throw ExtractionError.inputInsideStore(path: input, store: store + "/" + model + "/.data")
            }
        }
    }
}

/// Each domain's file finished (encoded, written, synced) once its last unit is read: the
/// worker that reads that unit hands the file to a thread of its own, so that the encoding's
/// own fan-out gets every core (nested in the readers' fan-out it would run on one).
private final class DomainFinishes: Sendable {
    private let remaining: Mutex<[Int]>
    private let sizes: Mutex<[Result<Int, StoreError>?]>
    private let finish: @Sendable (Int) -> Result<Int, StoreError>
    private let group = DispatchGroup()

    init(unitsPerDomain: [Int], finish: @escaping @Sendable (Int) -> Result<Int, StoreError>) {
        remaining = Mutex(unitsPerDomain)
        sizes = Mutex(Array(repeating: nil, count: unitsPerDomain.count))
        self.finish = finish
    }

    /// Counts a unit of `domain` done; after its last unit, finishes the domain's file.
    func unitDone(domain: Int) {
        let last = remaining.withLock { remaining in
            remaining[domain] -= 1
            return remaining[domain] == 0
        }
        guard last else { return }
        group.enter()
        DispatchQueue.global().async {
            let size = self.finish(domain)
            self.sizes.withLock { $0[domain] = size }
            self.group.leave()
        }
    }

    /// Every domain's file size, once all are finished (a domain without units, here).
    func wait() -> [Result<Int, StoreError>] {
        group.wait()
        let finished = sizes.withLock { $0 }
        return finished.enumerated().map { domain, size in size ?? finish(domain) }
    }
}

/// Frames written so far, across domains.
private final class FrameCounter: Sendable {
    private let count = Mutex(0)
    func increment() -> Int {
        count.withLock { count in
            count += 1
            return count
        }
    }
}
