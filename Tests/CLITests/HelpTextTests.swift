import Foundation
import TestSupport
import XCTest

/// `--help` that teaches reads as paragraphs: argument-parser wraps the discussion text itself,
/// so a hard line break inside a sentence (issue 11: `query --help` broke lines in
/// mid-sentence at 80 columns) shows as a short line inside a paragraph.
final class HelpTextTests: XCTestCase {
    func testHelpParagraphsAreWrappedOnlyByTheParser() throws {
        let tilecast = try tilecastBinary()
        for command in [[], ["extract"], ["query"], ["inspect"], ["profile"]] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: tilecast)
            process.arguments = command + ["--help"]
            process.environment = ["COLUMNS": "80", "PATH": "/usr/bin:/bin"]
            let out = Pipe()
            process.standardOutput = out
            try process.run()
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 0, "\(command)")
            let lines = text.components(separatedBy: "\n")
            // The discussion: from the first line after OVERVIEW up to USAGE.
            guard let start = lines.firstIndex(where: { $0.hasPrefix("OVERVIEW:") }),
                  let end = lines.firstIndex(where: { $0.hasPrefix("USAGE:") }) else { return XCTFail("no overview in \(command)") }
            let discussion = Array(lines[(start + 1)..<end])
            for (index, line) in discussion.enumerated().dropLast() {
                let next = discussion[index + 1]
                // A prose line followed by more of the same paragraph must be filled to near the
                // width; examples (indented) and list items may be short.
                guard !line.isEmpty, !next.isEmpty, !line.hasPrefix(" "), !next.hasPrefix(" "), !line.hasSuffix(":") else { continue }
                XCTAssertGreaterThanOrEqual(line.count, 55, "tilecast \(command.joined()) --help breaks a sentence: \"\(line)\" / \"\(next)\"")
            }
        }
    }
}
