import Foundation

/// What `tilecast inspect STORE` shows: models, cycles, domains, variables and sizes, and
/// with verification the result of checking every block.
public struct StoreDescription: Codable, Sendable {
    public struct DomainEntry: Codable, Sendable {
        public var domain: String
        public var file: String
        public var bytes: Int
        public var grid: String
        public var spacingKilometres: Double
        public var frames: Int
        public var firstTime: Int64
        public var lastTime: Int64
        public var variables: [String]
        public var blocksVerified: Int?
    }

    public struct CycleEntry: Codable, Sendable {
        public var cycle: String
        public var isLatest: Bool
        public var bytes: Int
        public var domains: [DomainEntry]
        /// While the run is still being written: the last time the cycle holds so far.
        public var growingReaches: String?
    }

    public struct ModelEntry: Codable, Sendable {
        public var model: String
        public var cycles: [CycleEntry]
    }

    public var store: String
    public var models: [ModelEntry]
    public var verified: Bool

    /// Whether a folder looks like a TileCast store.
    public static func isStore(_ path: String) -> Bool {
        // A probe: a folder that cannot be listed is not taken for a store here, and whatever
        // opens it next reports why it cannot be read.
        FileManager.default.fileExists(atPath: path + "/.lock") || !((try? CycleStore.models(root: path)) ?? []).isEmpty
    }

    /// Describes a store; with `verify`, checks every block of every cycle.
    ///
    /// Every cycle is checked against its manifest (domains present, sizes, model), and each
    /// domain file's metadata for sanity, with or without `verify`: a store that lost a file is
    /// damaged whether or not its blocks are read.
    ///
    /// - Throws: `StoreError` for the first damaged file met (damage is never skipped).
    public init(root: String, verify: Bool) throws(StoreError) {
        store = root
        verified = verify
        var models: [ModelEntry] = []
        for model in try CycleStore.models(root: root) {
            let latest = CycleStore.latest(root: root, model: model)
            // latest must name a cycle that opens: a dangling latest is damage, not "no cycles".
            _ = try CycleStore.resolve(root: root, model: model)
            var cycles: [CycleEntry] = []
            for cycle in try CycleStore.cycles(root: root, model: model) {
                let published = try CycleStore.openCycle(root: root, model: model, cycle: .cycle(cycle))
                // openCycle has checked the manifest is this model's and this cycle's.
                let manifest = published.manifest
                var domains: [DomainEntry] = []
                var lastTimes: [Int64] = []
                for (entry, path) in zip(manifest.files, published.domainPaths) {
                    let reader = try DomainFileReader(path: path, cacheBudget: 1 << 20)
                    try manifest.requireListed(reader.metadata, size: reader.fileSize, entry: entry, path: path)
                    if reader.metadata.stream == nil, let last = reader.metadata.times.last { lastTimes.append(last) }
                    domains.append(Self.domainEntry(file: (path as NSString).lastPathComponent, bytes: reader.fileSize,
                                                    metadata: reader.metadata, blocksVerified: verify ? try reader.verifyAll() : nil))
                }
                try manifest.requireReach(lastTimes: lastTimes, path: published.folder)
                cycles.append(CycleEntry(cycle: cycle.name, isLatest: cycle == latest, bytes: domains.reduce(0) { $0 + $1.bytes }, domains: domains,
                                         growingReaches: manifest.growing == true ? manifest.reaches ?? "?" : nil))
            }
            models.append(ModelEntry(model: model, cycles: cycles))
        }
        self.models = models
    }

    /// The readable form.
    public var text: String {
        var lines = ["Store \(store)"]
        if models.isEmpty { lines.append("  (no published cycles)") }
        for model in models {
            lines.append("")
            lines.append("model \(model.model): \(model.cycles.count) cycle\(model.cycles.count == 1 ? "" : "s")")
            for cycle in model.cycles {
                let growing = cycle.growingReaches.map { " growing: the run is still being written; holds up to \($0)" } ?? ""
                lines.append("  \(cycle.cycle)\(cycle.isLatest ? " (latest)" : "")  \(Self.size(cycle.bytes))\(growing)")
                for domain in cycle.domains {
                    var line = "    \(domain.domain)  \(domain.grid) at \(String(format: "%g", domain.spacingKilometres)) km, \(domain.frames) frames, \(domain.variables.count) variable\(domain.variables.count == 1 ? "" : "s"), \(Self.size(domain.bytes))"
                    if let blocks = domain.blocksVerified { line += ", \(blocks) blocks verified" }
                    lines.append(line)
                }
            }
            if let variables = model.cycles.last?.domains.first?.variables {
                lines.append("  variables: " + variables.joined(separator: ", "))
            }
        }
        if verified { lines.append(""); lines.append("every checksum verified: no damage found") }
        return lines.joined(separator: "\n")
    }

    static func size(_ bytes: Int) -> String {
        bytes >= 1_000_000 ? String(format: "%.2f MB", Double(bytes) / 1e6) : String(format: "%.1f kB", Double(bytes) / 1e3)
    }
}
