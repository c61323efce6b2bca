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
    /// "crc32:1a2b3c4d": zlib's CRC-32 of the file's bytes with these 8 digits written as zeros.
    /// Set by `encoded()`, checked by `decode`: a key removed or a value changed is damage
    /// (without it, removing `streams` silently switched 15-minute answers to interpolation).
    /// Over the bytes, not the values, so a newer writer's keys an older reader ignores still
    /// check. Absent in manifests written before it: those are accepted as before.
    package var checksum: String?

    enum CodingKeys: String, CodingKey {
        case model, cycle, modelTitle, domains, inputs, warnings, createdBy, createdAt, growing, reaches, streams, checksum
    }

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
        guard metadata.times.count == entry.frames else {
            throw .corrupt(path: path, detail: "holds \(metadata.times.count) frames, but the cycle's manifest lists \(entry.frames) for \(entry.domain)")
        }
    }

    /// Refuses a manifest whose `reaches` is not what its domain files hold: the last time
    /// every domain has (`ModelRun.reaches`, as extraction wrote it). A growing cycle's reach
    /// decides which cycle answers now, so a forged one would move answers between cycles.
    ///
    /// - Parameter lastTimes: each domain history's last time (fast streams left out).
    /// - Throws: `.corrupt` naming `path`.
    package func requireReach(lastTimes: [Int64], path: String) throws(StoreError) {
        guard let reaches else { return }
        let held = lastTimes.min()
        guard let held, ModelTime.parseUser(reaches) == held else {
            throw .corrupt(path: path, detail: "the manifest says the cycle reaches \(reaches.prefix(40)), but its domain files reach \(held.map(ModelTime.iso) ?? "nothing")")
        }
    }

    /// Pretty, sorted JSON, as written, with its `checksum`.
    package func encoded() throws(StoreError) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var unsigned = self
        unsigned.checksum = Self.checksumPrefix + Self.zeroDigits
        var bytes: [UInt8]
        do { bytes = Array(try encoder.encode(unsigned)) } catch {
            throw .writeFailed(path: Self.fileName, detail: "manifest does not encode: \(error)")
        }
        guard let at = Self.digitsOffset(in: bytes, digits: Self.zeroDigits) else {
            throw .writeFailed(path: Self.fileName, detail: "manifest's checksum placeholder is not in its bytes")
        }
        bytes.replaceSubrange(at..<(at + 8), with: Array(Self.hex(TileStore.checksum(bytes)).utf8))
        return bytes
    }

    private static let checksumPrefix = "crc32:"
    private static let zeroDigits = "00000000"

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }

    /// Where the 8 digits of `"crc32:<digits>"` start in `bytes`, when they stand there once.
    private static func digitsOffset(in bytes: [UInt8], digits: String) -> Int? {
        let needle = Array(("\"" + checksumPrefix + digits + "\"").utf8)
        guard bytes.count >= needle.count else { return nil }
        var found: Int?
        for start in 0...(bytes.count - needle.count) where bytes[start] == needle[0] && bytes[start..<(start + needle.count)].elementsEqual(needle) {
            guard found == nil else { return nil }
            found = start + 1 + checksumPrefix.utf8.count
        }
        return found
    }

    /// Checks `checksum` against the bytes it was read from.
    private func requireChecksum(_ bytes: [UInt8], path: String) throws(StoreError) {
        guard let checksum else { return }
        let digits = checksum.dropFirst(Self.checksumPrefix.count)
        guard checksum.hasPrefix(Self.checksumPrefix), digits.count == 8, let stored = UInt32(digits, radix: 16),
              let at = Self.digitsOffset(in: bytes, digits: String(digits)) else {
            throw .corrupt(path: path, detail: "the manifest's checksum \"\(checksum.prefix(40))\" is not of the form crc32:<8 hex digits> in its own bytes")
        }
        var zeroed = bytes
        zeroed.replaceSubrange(at..<(at + 8), with: Array(Self.zeroDigits.utf8))
        let computed = TileStore.checksum(zeroed)
        guard computed == stored else {
            throw .corrupt(path: path, detail: "the manifest fails its checksum (stored \(Self.hex(stored)), computed \(Self.hex(computed))): it was changed after publication")
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
        let manifest: CycleManifest
        do { manifest = try JSONDecoder().decode(CycleManifest.self, from: Data(bytes)) } catch {
            throw .corrupt(path: path, detail: "manifest does not decode: \(error)")
        }
        try manifest.requireChecksum(bytes, path: path)
        return manifest
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
