import Foundation
import TestSupport
import XCTest

/// Every file in a target's folder that is not code is declared in Package.swift (`exclude` or
/// `resources`), so that SwiftPM builds without "found N file(s) which are unhandled" (issue 44
/// item 9): a reference script or fixture added beside the tests must be named there too.
final class PackageFilesTests: XCTestCase {
    func testEveryFileBesideTheCodeIsDeclared() throws {
        let root = Repository.root
        let package = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        // The names Package.swift quotes (targets' exclude and resources lists among them). A
        // name quoted for one target counts for all (two `Fixtures` folders): a loose check.
        let quoted = try NSRegularExpression(pattern: #""([^"]+)""#)
        var named = Set<String>()
        for match in quoted.matches(in: package, range: NSRange(package.startIndex..., in: package)) {
            if let range = Range(match.range(at: 1), in: package) { named.insert(String(package[range])) }
        }
        let code: Set<String> = ["swift", "c", "h", "modulemap"]
        var undeclared: [String] = []
        var looked = 0
        for top in ["Sources", "Tests"] {
            let folder = root.appendingPathComponent(top)
            // Target folders only (Tests/Embedder is a package of its own).
            for target in try FileManager.default.contentsOfDirectory(atPath: folder.path) where named.contains(target) {
                let targetFolder = folder.appendingPathComponent(target)
                guard let entries = try? FileManager.default.contentsOfDirectory(atPath: targetFolder.path) else { continue }
                for entry in entries where !entry.hasPrefix(".") {
                    var isFolder: ObjCBool = false
                    FileManager.default.fileExists(atPath: targetFolder.appendingPathComponent(entry).path, isDirectory: &isFolder)
                    looked += 1
                    // A folder of code (include/) holds code; any other folder is declared whole
                    // (Fixtures) or by its files (Resources/NAME).
                    if isFolder.boolValue {
                        if entry == "include" || named.contains(entry) { continue }
                        let inner = (try? FileManager.default.contentsOfDirectory(atPath: targetFolder.appendingPathComponent(entry).path)) ?? []
                        for file in inner where !file.hasPrefix(".") && !code.contains((file as NSString).pathExtension)
                            && !named.contains(entry + "/" + file) {
                            undeclared.append("\(top)/\(target)/\(entry)/\(file)")
                        }
                    } else if !code.contains((entry as NSString).pathExtension) && !named.contains(entry) {
                        undeclared.append("\(top)/\(target)/\(entry)")
                    }
                }
            }
        }
        XCTAssertGreaterThan(looked, 300, "the walk found the targets' files")
        XCTAssertEqual(undeclared, [], "files beside the code that Package.swift neither excludes nor lists as resources")
    }
}
