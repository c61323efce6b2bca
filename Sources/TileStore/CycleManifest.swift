import Catalog
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `cycle.json`, written beside a cycle's domain files last before publication: what the cycle
/// holds, so that a reader can tell a complete cycle from one that lost a file, and the pruner
/// can tell a folder the store published from one that only looks like it.
///
/// Keys are pinned by `CodingKeys`; renaming a property can never change the file.
package struct CycleManifest: Codable, Sendable, Equatable {
    package struct DomainEntry: Codable, Sendable, Equatable {
        /// "d01"
        package var domain: String
        /// "d01.tcs"
        package var file: String
        package var bytes: Int
        package var frames: Int
        package var variables: [String]
        /// The output stream of a fast stream's file ("auxhist2"); nil for a domain's history.
        package var stream: String?

        package init(domain: String, file: String, bytes: Int, frames: Int, variables: [String]) {
            self.domain = domain
            self.file = file
            self.bytes = bytes
            self.frames = frames
            self.variables = variables
        }

        enum CodingKeys: String, CodingKey { case domain, file, bytes, frames, variables, stream }

        /// Reads today's form and the first one (0.1.0 wrote sizes as strings and the
        /// variables as one comma-separated string).
        package init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            domain = try c.decode(String.self, forKey: .domain)
            file = try c.decode(String.self, forKey: .file)
            func integer(_ key: CodingKeys) throws -> Int {
                if let value = try? c.decode(Int.self, forKey: key) { return value }
                let text = try c.decode(String.self, forKey: key)
                guard let value = Int(text) else {
                    throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "not a whole number: \(text)")
                }
                return value
            }
            bytes = try integer(.bytes)
            frames = try integer(.frames)
            if let list = try? c.decode([String].self, forKey: .variables) {
                variables = list
            } else {
                variables = try c.decode(String.self, forKey: .variables).split(separator: ",").map(String.init)
            }
            stream = try c.decodeIfPresent(String.self, forKey: .stream)
        }
    }

    package var model: String
    /// The cycle's folder name, "2026-11-22T00Z".
    package var cycle: String
    package var modelTitle: String
    package var domains: [DomainEntry]
    package var inputs: [String]
    package var warnings: [String]
    package var createdBy: String
    package var createdAt: String
    /// True while the run is still being written: the cycle holds its first hours and is
    /// extended, one atomic publication at a time, as frames arrive (`extract --grow`). Absent
    /// (nil) in a complete cycle and in manifests written before growing cycles existed.
    package var growing: Bool?
    /// The last time every domain of the cycle holds ("2026-11-22T18:00:00Z").
    package var reaches: String?
    /// Domains' fast streams (surface fields every 15 minutes beside an hourly history), one
    /// file each; nil when the run had none. A separate key, so that a reader older than fast
    /// streams ignores them and answers from the history, as before.
    package var streams: [DomainEntry]?

    enum CodingKeys: String, CodingKey { case model, cycle, modelTitle, domains, inputs, warnings, createdBy, createdAt, growing, reaches, streams }

    /// Every file the cycle lists: its domains', then its fast streams'.
    package var files: [DomainEntry] { domains + (streams ?? []) }

    package init(model: String, cycle: String, modelTitle: String, domains: [DomainEntry], inputs: [String],
                warnings: [String], createdBy: String, createdAt: String) {
        self.model = model
        self.cycle = cycle
        self.modelTitle = modelTitle
        self.domains = domains
        self.inputs = inputs
        self.warnings = warnings
        self.createdBy = createdBy
        self.createdAt = createdAt
    }

    /// The file name inside a cycle folder.
    package static let fileName = "cycle.json"

    /// Refuses a domain file that is not the one this manifest lists: a file of another model,
    /// cycle or domain copied into the folder (its checksums are all good, so only its own
    /// metadata can tell), or one of another size. Local and remote readers both call this.
    ///
    /// - Throws: `.corrupt` naming the file, what it holds and what the manifest lists.
    package func requireListed(_ metadata: DomainFileMetadata, size: Int, entry: DomainEntry, path: String) throws(StoreError) {
        let held = "\(metadata.model) cycle \(CycleStore.cycleName(metadata.cycle)) \(CycleStore.domainName(metadata.domain))"
        guard metadata.model == model, CycleStore.cycleName(metadata.cycle) == cycle, CycleStore.domainName(metadata.domain) == entry.domain,
              metadata.stream == entry.stream else {
            let listed = "\(model) cycle \(cycle) \(entry.domain)" + (entry.stream.map { " (stream \($0))" } ?? "")
            throw .corrupt(path: path, detail: "holds \(held)\(metadata.stream.map { " (stream \($0))" } ?? ""), but the cycle's manifest lists \(listed) there: a file of another run, domain or stream")
        }
        guard size == entry.bytes else {
            throw .corrupt(path: path, detail: "is \(size) bytes, but the cycle's manifest lists \(entry.bytes) for \(entry.domain)")
        }
    }

    /// Pretty, sorted JSON, as written.
    package func encoded() throws(StoreError) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do { return Array(try encoder.encode(self)) } catch {
            throw .writeFailed(path: Self.fileName, detail: "manifest does not encode: \(error)")
        }
    }

    /// Reads a cycle folder's manifest.
    ///
    /// - Throws: `.missing` when the folder has none, `.corrupt` when it does not decode.
    package static func read(folder: String) throws(StoreError) -> CycleManifest {
        let path = folder + "/" + fileName
        let descriptor = try StoreFileSystem.openRegularFile(path, flags: O_RDONLY)
        defer { close(descriptor) }
        var data = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = Glibc.read(descriptor, &chunk, chunk.count)
            if count < 0 { if errno == EINTR { continue }; throw .io(path, "read") }
            if count == 0 { break }
            data += chunk[0..<count]
            // A manifest is a few kilobytes; a huge one is not ours.
            if data.count > 16 << 20 { throw .corrupt(path: path, detail: "manifest larger than 16 MB") }
        }
        return try decode(data, path: path)
    }

    /// A manifest's bytes, as a store folder or an object store holds them.
    ///
    /// - Throws: `.corrupt` naming `path` when they do not decode.
    package static func decode(_ bytes: [UInt8], path: String) throws(StoreError) -> CycleManifest {
        do { return try JSONDecoder().decode(CycleManifest.self, from: Data(bytes)) } catch {
            throw .corrupt(path: path, detail: "manifest does not decode: \(error)")
        }
    }

    /// Checks a manifest before anything it names is opened: it is of `model` and of a cycle
    /// (the one `cycle` names, when it names one: a cycle folder copied or linked under another
    /// name would otherwise be served as the cycle its name says), it lists at least one domain,
    /// and each file is a plain name (a manifest is never a way to read outside its cycle).
    /// Local and remote readers both call this.
    ///
    /// - Throws: `.corrupt` naming `path`.
    package func check(model expectedModel: String, cycle expectedCycle: String?, path: String) throws(StoreError) {
        guard model == expectedModel, CycleID(name: cycle) != nil, expectedCycle == nil || cycle == expectedCycle else {
            throw .corrupt(path: path, detail: "is the manifest of \(model) cycle \(cycle), not of \(expectedModel) cycle \(expectedCycle ?? "latest")")
        }
        guard !domains.isEmpty else { throw .corrupt(path: path, detail: "the cycle's manifest lists no domain") }
        for entry in files where !StoreFileSystem.isPlainName(entry.file) {
            throw .corrupt(path: path, detail: "lists a domain file \"\(entry.file)\" that is not a plain name")
        }
        for entry in streams ?? [] where entry.stream == nil || !domains.contains(where: { $0.domain == entry.domain }) {
            throw .corrupt(path: path, detail: "lists a stream file \"\(entry.file)\" without a stream name or of a domain it does not list")
        }
    }
}
