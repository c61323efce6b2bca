import Catalog
import Foundation

/// The store on disk: one folder per model, one immutable folder per published cycle, and
/// symbolic links that name them.
///
///     STORE/.lock                              held by the extraction writing the store
///     STORE/MODEL/latest -> 2026-11-22T00Z     switched last, atomically (rename of a new link)
///     STORE/MODEL/2026-11-22T00Z -> .data/2026-11-22T00Z.<id>
///     STORE/MODEL/.data/2026-11-22T00Z.<id>/   d01.tcs, d02.tcs, cycle.json (never changed once published)
///     STORE/MODEL/.data/<cycle>.<id>.partial/  an extraction in progress (never read)
///
/// A reader resolves the links once and then reads an immutable folder, so it never sees a
/// partial or mixed cycle; replacing a cycle writes a new folder and switches the link.
///
/// Only what has exactly this shape counts: a cycle is a link named like a cycle whose text is
/// `.data/NAME`; anything else in a model folder (a real folder named like a cycle, a link to
/// elsewhere) is neither read nor ever deleted.
package enum CycleStore {
    /// The folder name of a cycle: "2026-11-22T00Z" ("2026-11-22T0630Z" with minutes).
    package static func cycleName(_ seconds: Int64) -> String { CycleID(seconds: seconds).name }

    /// The models in a store: real folders holding a `latest` link (even one whose cycle is
    /// gone, so that a damaged model is reported, not silently replaced by another). None when
    /// there is no store folder yet.
    ///
    /// - Throws: `StoreError.io` when the folder cannot be listed (permission, I/O error).
    package static func models(root: String) throws(StoreError) -> [String] {
        try namesIfPresent(root).filter { name in
            !name.hasPrefix(".") && StoreFileSystem.kind(root + "/" + name) == .directory
                && StoreFileSystem.kind(root + "/" + name + "/latest") == .symbolicLink
        }.sorted()
    }

    /// The published cycles of a model, oldest first; none when the model has no folder yet.
    ///
    /// - Throws: `StoreError.io` when the model's folder cannot be listed.
    package static func cycles(root: String, model: String) throws(StoreError) -> [CycleID] {
        let folder = root + "/" + model
        guard StoreFileSystem.kind(folder) == .directory else { return [] }
        return try namesIfPresent(folder).compactMap { name -> CycleID? in
            guard let id = CycleID(name: name), dataFolderName(linkedFrom: folder + "/" + name) != nil else { return nil }
            return id
        }.sorted()
    }

    /// The names in a folder; none when there is no folder.
    private static func namesIfPresent(_ folder: String) throws(StoreError) -> [String] {
        do { return try StoreFileSystem.list(folder) } catch {
            if case .missing = error { return [] }
            throw error
        }
    }

    /// The cycle `latest` names, or nil when the model has none.
    package static func latest(root: String, model: String) -> CycleID? {
        StoreFileSystem.linkTarget(root + "/" + model + "/latest").flatMap(CycleID.init(name:))
    }

    /// The data folder a cycle link names ("NAME" of ".data/NAME"), or nil when `link` is not
    /// such a link: never a path that could leave the model's `.data` folder.
    static func dataFolderName(linkedFrom link: String) -> String? {
        guard let target = StoreFileSystem.linkTarget(link), target.hasPrefix(".data/") else { return nil }
        let name = String(target.dropFirst(".data/".count))
        return StoreFileSystem.isPlainName(name) ? name : nil
    }

    /// The immutable folder of a cycle, with the cycle's name.
    ///
    /// - Throws: `StoreError.missing` naming what is absent (store, model, cycle), listing what
    ///   exists; `.unsafe` for links the store did not make.
    package static func resolve(root: String, model: String, cycle: CycleSelector = .latest) throws(StoreError) -> (name: String, folder: String) {
        guard StoreFileSystem.realPath(root).map({ StoreFileSystem.kind($0) == .directory }) == true else {
            throw .missing(path: root, what: "store folder")
        }
        let modelFolder = root + "/" + model
        guard StoreFileSystem.isPlainName(model), !model.hasPrefix("."), StoreFileSystem.kind(modelFolder) == .directory else {
            let known = try models(root: root)
            throw .missing(path: root, what: "model \"\(model)\" (the store holds: \(known.isEmpty ? "nothing yet" : known.joined(separator: ", ")))")
        }
        let id: CycleID
        switch cycle {
        case .latest:
            guard StoreFileSystem.kind(modelFolder + "/latest") == .symbolicLink else {
                throw .missing(path: modelFolder, what: "a published cycle (no latest)")
            }
            guard let named = latest(root: root, model: model) else {
                throw .unsafe(path: modelFolder + "/latest", detail: "does not name a cycle (it says \"\(StoreFileSystem.linkTarget(modelFolder + "/latest") ?? "")\")")
            }
            id = named
        case .cycle(let named):
            id = named
        }
        let link = modelFolder + "/" + id.name
        guard let dataName = dataFolderName(linkedFrom: link) else {
            if StoreFileSystem.kind(link) == .symbolicLink {
                throw .unsafe(path: link, detail: "is a link to \"\(StoreFileSystem.linkTarget(link) ?? "")\", not to a folder in .data")
            }
            throw .missing(path: modelFolder, what: "cycle \(id.name) (published: \(listing(root: root, model: model)))")
        }
        let folder = modelFolder + "/.data/" + dataName
        guard StoreFileSystem.kind(modelFolder + "/.data") == .directory, StoreFileSystem.kind(folder) == .directory else {
            throw .corrupt(path: link, detail: "cycle \(id.name) names .data/\(dataName), which is missing (the store's data folder was emptied or damaged)")
        }
        return (id.name, folder)
    }

    /// A cycle resolved and checked against its manifest: every domain file it lists exists.
    package struct PublishedCycle: Sendable {
        package let name: String
        package let folder: String
        package let manifest: CycleManifest
        /// The manifest's domain files, in its order.
        package let domainPaths: [String]
    }

    /// Resolves a cycle and checks it against its manifest.
    ///
    /// - Throws: as `resolve`; `.corrupt` when the manifest is unreadable or lists a domain
    ///   file that is not there (a query must never answer from the coarser domain instead);
    ///   `.missing` when the folder was replaced while being opened (resolve again).
    package static func openCycle(root: String, model: String, cycle: CycleSelector = .latest) throws(StoreError) -> PublishedCycle {
        let (name, folder) = try resolve(root: root, model: model, cycle: cycle)
        let stillNamed = { (try? resolve(root: root, model: model, cycle: CycleID(name: name).map(CycleSelector.cycle) ?? cycle))?.folder == folder }
        let manifest: CycleManifest
        do { manifest = try CycleManifest.read(folder: folder) } catch {
            if case .missing = error {
                if !stillNamed() { throw error }
                throw .corrupt(path: folder, detail: "the cycle has no \(CycleManifest.fileName): not a complete published cycle")
            }
            throw error
        }
        try manifest.check(model: model, cycle: name, path: folder + "/" + CycleManifest.fileName)
        // A store file the manifest does not list is one it lost (a `streams` key removed would
        // switch 15-minute answers to interpolation), or one put there by hand: damage either way.
        let listed = Set(manifest.files.map(\.file))
        if let names = try? FileManager.default.contentsOfDirectory(atPath: folder),
           let stray = names.sorted().first(where: { $0.hasSuffix(".tcs") && !listed.contains($0) }) {
            throw .corrupt(path: folder + "/" + stray, detail: "is a store file the cycle's manifest does not list")
        }
        var paths: [String] = []
        for entry in manifest.files {
            let path = folder + "/" + entry.file
            guard StoreFileSystem.kind(path) != nil else {
                if !stillNamed() { throw .missing(path: path, what: "domain file") }
                throw .corrupt(path: path, detail: "missing: the cycle's manifest lists \(entry.domain) (\(entry.file))")
            }
            paths.append(path)
        }
        return PublishedCycle(name: name, folder: folder, manifest: manifest, domainPaths: paths)
    }

    /// The file name of a domain: "d01.tcs".
    package static func domainFileName(_ domain: Int) -> String { domainName(domain) + ".tcs" }

    /// A domain's file, or its fast stream's ("d02-auxhist2.tcs"): the stream name is kept to
    /// letters, digits and underscores, so that it is always a plain file name.
    package static func domainFileName(_ domain: Int, stream: String?) -> String {
        guard let stream else { return domainFileName(domain) }
        let plain = String(stream.unicodeScalars.map { scalar -> Character in
            (scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || scalar == "_")) ? Character(scalar) : "_"
        })
        return domainName(domain) + "-" + plain + ".tcs"
    }

    /// A domain's name: "d01", "d02", ..., "d10".
    package static func domainName(_ domain: Int) -> String { Catalog.domainName(domain) }

    private static func listing(root: String, model: String) -> String {
        // Words for a message about a missing cycle: a folder that cannot be listed says "none".
        let known = (try? cycles(root: root, model: model)) ?? []
        return known.isEmpty ? "none" : known.map(\.name).joined(separator: ", ")
    }
}
