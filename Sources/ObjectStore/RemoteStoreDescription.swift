import Catalog
import Foundation
import TileStore

/// What `tilecast inspect s3://...|https://...` shows: a remote store listed and checked like
/// a folder (`StoreDescription`): its models, their cycles, each cycle's
/// domains and sizes, every manifest and file checked against each other, and with `verify`
/// every block read and its checksum checked.
///
/// Listing: a bucket is listed (ListObjectsV2 over the whole bucket, filtered here: a `prefix`
/// or `delimiter` parameter holds a slash, which moto's signature check decodes before
/// signing, refusing correctly signed requests; see `Publisher.abortIncompleteUploads`); a web
/// server is listed when it answers a folder's address with an index page (nginx's
/// `autoindex`, Apache's, `python -m http.server`); one that does not needs the models named,
/// and shows each one's latest cycle only.
package enum RemoteStoreDescription {
    /// Describes the store; `models` names those to show (every listed one when empty).
    ///
    /// - Throws: `ObjectStoreError.configuration` when the store cannot be listed and no model
    ///   was named; `StoreError` for the first missing or damaged object.
    package static func describe(client: ObjectClient, models named: [String], verify: Bool) throws -> StoreDescription {
        let listing = try Listing(client: client)
        let models: [String]
        if !named.isEmpty { models = named } else if let listed = listing.folders(under: "") {
            models = listed.filter { !$0.hasPrefix(".") }
        } else {
            throw ObjectStoreError.configuration("\(client.location) cannot be listed (the web server gives no index of its folders): name the models with --model")
        }
        var entries: [StoreDescription.ModelEntry] = []
        for model in models {
            // A listed folder without `latest` is not a model (yet), as in a local store; a
            // named one must have it.
            let latest: RemoteCycle
            do throws(StoreError) { latest = try RemoteCycle(client: client, model: model, cacheBudget: 1 << 20) } catch {
                if named.isEmpty, case .noCycle = error { continue }
                throw error
            }
            // Sorted as cycles, not as names ("T0630Z" sorts before "T06Z" as text).
            var ids = (listing.folders(under: model + "/") ?? []).compactMap(CycleID.init(name:))
            if let newest = CycleID(name: latest.manifest.cycle), !ids.contains(newest) { ids.append(newest) }
            ids.sort()
            var cycles: [StoreDescription.CycleEntry] = []
            for id in ids {
                let name = id.name
                let cycle = name == latest.manifest.cycle ? latest : try RemoteCycle(client: client, model: model, cycle: .cycle(id), cacheBudget: 1 << 20)
                var domains: [StoreDescription.DomainEntry] = []
                for ((reader, bytes), entry) in zip(cycle.domainFiles, cycle.manifest.files) {
                    var verified: Int?
                    if verify {
                        bytes.readAhead(1 << 20)
                        verified = try reader.verifyAll()
                    }
                    domains.append(StoreDescription.domainEntry(file: entry.file, bytes: bytes.size, metadata: reader.metadata, blocksVerified: verified))
                }
                cycles.append(StoreDescription.CycleEntry(cycle: name, isLatest: name == latest.manifest.cycle, domains: domains))
            }
            entries.append(StoreDescription.ModelEntry(named: model, cycles: cycles))
        }
        return StoreDescription(store: client.location.description, models: entries, verified: verify)
    }

    /// The folders of a remote store, as far as it can be listed.
    struct Listing {
        /// Every object's store-relative path (a bucket); nil for a web server.
        let keys: [String]?
        let client: ObjectClient

        init(client: ObjectClient) throws(ObjectStoreError) {
            self.client = client
            guard case .s3 = client.location else {
                keys = nil
                return
            }
            // "PREFIX/" (or "" for a store at the bucket's root).
            let storePrefix = client.location.key("")
            var found: [String] = []
            var token: String?
            repeat {
                var query = [("list-type", "2")]
                if let token { query.append(("continuation-token", token)) }
                let response = try client.send(.GET, "", query: query)
                guard response.status == 200 else { throw client.failure(response, "", "ListObjectsV2") }
                for item in XMLText.all("Contents", in: response.body) {
                    guard let key = XMLText.first("Key", in: Array(item.utf8)).map(XMLText.unescape) else { continue }
                    if key.hasPrefix(storePrefix) { found.append(String(key.dropFirst(storePrefix.count))) }
                }
                token = XMLText.first("IsTruncated", in: response.body) == "true" ? XMLText.first("NextContinuationToken", in: response.body).map(XMLText.unescape) : nil
            } while token != nil
            keys = found
        }

        /// The names of the folders right under `relative` ("" or "MODEL/"), sorted; nil when
        /// the store cannot be listed.
        func folders(under relative: String) -> [String]? {
            if let keys {
                var names = Set<String>()
                for key in keys where key.hasPrefix(relative) {
                    let rest = key.dropFirst(relative.count)
                    if let slash = rest.firstIndex(of: "/") { names.insert(String(rest[..<slash])) }
                }
                return names.sorted()
            }
            // A web server's index page: links to "NAME/" are its folders.
            guard let response = try? client.send(.GET, relative), response.status == 200 else { return nil }
            let page = String(decoding: response.body, as: UTF8.self)
            guard let pattern = try? NSRegularExpression(pattern: #"href="([^"/?#]+)/""#) else { return nil }
            var names = Set<String>()
            for match in pattern.matches(in: page, range: NSRange(page.startIndex..., in: page)) {
                if let range = Range(match.range(at: 1), in: page), let name = page[range].removingPercentEncoding, name != ".." {
                    names.insert(name)
                }
            }
            return names.sorted()
        }
    }
}
