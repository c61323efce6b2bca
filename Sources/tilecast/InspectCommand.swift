import ArgumentParser
import Foundation
import ModelIngest

/// `tilecast inspect PATH`: what a model file or run holds, as an operator wants to see it.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Describe a WRF/MM5 file or a run folder.",
        discussion: """
        For a file: model and version, domain and nest placement, projection, grid size and
        spacing, times, whether the grid moves, and which forecast variables it can provide.
        For a folder or several files: the whole run, its domains and nest tree, checked as
        `extract` would check it (exit 3 with the reason when it cannot be used).

        Examples:
          tilecast inspect SampleGrids
          tilecast inspect wrfout_d01_2026-11-22_00:00:00 --format json
        """
    )

    @Argument(help: "A model file, a folder of them, or several files.")
    var paths: [String]

    @Option(help: "Output format: table or json.")
    var format: OutputFormat = .table

    @Option(help: "Name profile: wrf, mm5, or a profile file (default: detected per file).")
    var profile: String?

    func run() throws {
        let description = try reporting { () throws -> RunDescription in
            let chosen = try profile.map(ModelProfile.load)
            var isDirectory: ObjCBool = false
            if paths.count == 1, FileManager.default.fileExists(atPath: paths[0], isDirectory: &isDirectory), !isDirectory.boolValue {
                let file = try SourceFile(path: paths[0], profile: chosen ?? ModelRun.detectProfile(paths[0]))
                return try RunDescription(file: file)
            }
            return RunDescription(run: try ModelRun.read(paths: paths, profile: chosen))
        }
        switch format {
        case .table: print(description.text)
        case .json: print(try JSONText.encode(description))
        }
    }
}

enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case table, json
}

/// Pretty, stable JSON for printing.
enum JSONText {
    static func encode<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
