import Foundation
import TestSupport
import XCTest

/// README's table of the code lists every target of Package.swift, and nothing else (issue 44
/// item 9: it had left out ten), so a newcomer reading it sees the whole package.
final class ReadmeTargetsTests: XCTestCase {
    func testReadmeListsEveryTarget() throws {
        let package = try String(contentsOf: Repository.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let readme = try String(contentsOf: Repository.root.appendingPathComponent("README.md"), encoding: .utf8)
        // The product targets: `.target`, `.executableTarget` and `.systemLibrary` declarations
        // (test targets and the shared test helpers are not the product's code).
        let declared = try NSRegularExpression(pattern: #"\.(target|executableTarget|systemLibrary)\(\s*name:\s*"([^"]+)""#)
        var targets = Set<String>()
        for match in declared.matches(in: package, range: NSRange(package.startIndex..., in: package)) {
            guard let range = Range(match.range(at: 2), in: package) else { continue }
            targets.insert(String(package[range]))
        }
        targets.remove("TestSupport")
        // Fuzz and benchmark targets exist only under TILECAST_FUZZ / TILECAST_BENCH.
        targets = targets.filter { !$0.hasPrefix("Fuzz") && $0 != "request-bench" }
        XCTAssertGreaterThan(targets.count, 15, "\(targets.sorted())")
        let section = try XCTUnwrap(readme.components(separatedBy: "## The code").dropFirst().first?.components(separatedBy: "### ").first)
        let row = try NSRegularExpression(pattern: #"(?m)^\| `([^`]+)` \|"#)
        var listed = Set<String>()
        for match in row.matches(in: section, range: NSRange(section.startIndex..., in: section)) {
            guard let range = Range(match.range(at: 1), in: section) else { continue }
            listed.insert(String(section[range]))
        }
        XCTAssertEqual(targets.subtracting(listed).sorted(), [], "targets README's table leaves out")
        XCTAssertEqual(listed.subtracting(targets).sorted(), [], "rows of README's table that are no target")
    }
}
