import Catalog
import Foundation
#if canImport(Glibc)
import Glibc
#endif

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
public enum CycleStore {
    /// The folder name of a cycle: "2026-11-22T00Z" (minutes are kept when not zero: "T00:30Z"
    /// would not be a valid name, so they follow as "T0030Z").
    public static func cycleName(_ seconds: Int64) -> String {
        let c = ModelTime.civil(seconds)
        let time = pad(c.hour) + (c.minute == 0 ? "" : pad(c.minute))
        return "\(pad(c.year, 4))-\(pad(c.month))-\(pad(c.day))T\(time)Z"
    }

    /// Whether a folder entry names a cycle.
    static func isCycleName(_ name: String) -> Bool {
        name.count >= 14 && name.hasSuffix("Z") && name.dropFirst(10).first == "T" && name.first?.isNumber == true
    }

    /// The models in a store.
    public static func models(root: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        return names.filter { !$0.hasPrefix(".") && FileManager.default.fileExists(atPath: root + "/" + $0 + "/latest") }.sorted()
    }

    /// The published cycles of a model, oldest first.
    public static func cycles(root: String, model: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root + "/" + model)) ?? []
        return names.filter(isCycleName).sorted()
    }

    /// The cycle `latest` names, or nil when the model has none.
    public static func latest(root: String, model: String) -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: root + "/" + model + "/latest")
    }

    /// The immutable folder of a cycle ("latest" or a cycle name), with the cycle's name.
    ///
    /// - Throws: `StoreError.missing` naming what is absent (store, model, cycle), listing what exists.
    public static func resolve(root: String, model: String, cycle: String = "latest") throws(StoreError) -> (name: String, folder: String) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .missing(path: root, what: "store folder")
        }
        let modelFolder = root + "/" + model
        guard FileManager.default.fileExists(atPath: modelFolder) else {
            let known = models(root: root)
            throw .missing(path: root, what: "model \"\(model)\" (the store holds: \(known.isEmpty ? "nothing yet" : known.joined(separator: ", ")))")
        }
        let name: String
        if cycle == "latest" {
            guard let target = latest(root: root, model: model) else {
                throw .missing(path: modelFolder, what: "a published cycle (no latest)")
            }
            name = target
        } else {
            name = cycle
        }
        let link = modelFolder + "/" + name
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: link),
              FileManager.default.fileExists(atPath: modelFolder + "/" + target) else {
            let known = cycles(root: root, model: model)
            throw .missing(path: modelFolder, what: "cycle \(name) (published: \(known.isEmpty ? "none" : known.joined(separator: ", ")))")
        }
        return (name, modelFolder + "/" + target)
    }

    /// The domain files of a resolved cycle folder, by domain number.
    public static func domainFiles(folder: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasPrefix("d") && $0.hasSuffix(".tcs") }.sorted().map { folder + "/" + $0 }
    }

    /// The file name of a domain: "d01.tcs".
    public static func domainFileName(_ domain: Int) -> String {
        "d" + (domain < 10 ? "0" : "") + String(domain) + ".tcs"
    }

    static func pad(_ value: Int, _ width: Int = 2) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
