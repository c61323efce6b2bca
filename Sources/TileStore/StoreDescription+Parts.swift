/// Descriptions built from parts, for a store this module does not list itself: a remote one
/// (Sources/ObjectStore/RemoteStoreDescription.swift reads a bucket or a web server).
extension StoreDescription {
    package init(store: String, models: [ModelEntry], verified: Bool) {
        self.store = store
        self.models = models
        self.verified = verified
    }

    /// A domain file's entry from its opened reader.
    package static func domainEntry(file: String, bytes: Int, metadata m: DomainFileMetadata, blocksVerified: Int?) -> DomainEntry {
        DomainEntry(domain: CycleStore.domainName(m.domain) + (m.stream.map { " \($0)" } ?? ""), file: file, bytes: bytes, grid: "\(m.westEast) x \(m.southNorth)",
                    spacingKilometres: m.projection.dx / 1000, frames: m.times.count, firstTime: m.times.first ?? 0,
                    lastTime: m.times.last ?? 0, variables: m.variables.map(\.name), blocksVerified: blocksVerified)
    }
}

extension StoreDescription.CycleEntry {
    package init(cycle: String, isLatest: Bool, domains: [StoreDescription.DomainEntry]) {
        self.init(cycle: cycle, isLatest: isLatest, bytes: domains.reduce(0) { $0 + $1.bytes }, domains: domains)
    }
}

extension StoreDescription.ModelEntry {
    package init(named model: String, cycles: [StoreDescription.CycleEntry]) {
        self.model = model
        self.cycles = cycles
    }
}
