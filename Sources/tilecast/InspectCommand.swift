import ArgumentParser
import Foundation
import ModelIngest
import TileCastCommandLine
import TileStore

/// `tilecast inspect PATH`: what a model file or run holds, as an operator wants to see it.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Describe a WRF/MM5 file, a run folder, or a store (--verify checks every block).",
        discussion: """
        For a file: model and version, domain and nest placement, projection, grid size and spacing, times, whether the grid moves, and which forecast variables it can provide. For a folder or several files: the whole run, its domains and nest tree, checked as `extract` would check it (exit 3 with the reason when it cannot be used).

        For a store: its models, cycles, domains, variables and sizes; with --verify, every block's checksum is checked and damage exits with code 5.

        Examples:
          tilecast inspect SampleGrids
          tilecast inspect /tmp/s --verify
          tilecast inspect wrfout_d01_2026-11-22_00:00:00 --format json
        """
    )

    @Argument(help: "A model file, a folder of them, or several files.")
    var paths: [String]

    @Option(help: "Output format: table or json.")
    var format: OutputFormat = .table

    @Option(help: "Name profile: wrf, mm5, or a profile file (default: detected per file).")
    var profile: String?

    @Flag(help: "For a store: verify every block's checksum (exit 5 on damage).")
    var verify = false

    func run() throws {
        if paths.count == 1, StoreDescription.isStore(paths[0]) {
            let description = try reporting { try StoreDescription(root: paths[0], verify: verify) }
            switch format {
            case .table: print(description.text)
            case .json: print(try JSONText.encode(description))
            }
            return
        }
        let descriptions = try reporting { () throws -> [RunDescription] in
            let chosen = try profile.map(ModelProfile.load)
            var isDirectory: ObjCBool = false
            if paths.count == 1, FileManager.default.fileExists(atPath: paths[0], isDirectory: &isDirectory), !isDirectory.boolValue {
                let file = try SourceFile(path: paths[0], profile: chosen ?? ModelRun.detectProfile(paths[0]), allowStatic: true)
                return [try RunDescription(file: file)]
            }
            return try RunDescription.describeRuns(paths: paths, profile: chosen)
        }
        switch format {
        case .table: print(descriptions.map(\.text).joined(separator: "\n\n"))
        case .json: print(try JSONText.encode(descriptions.count == 1 ? [descriptions[0]] : descriptions))
        }
    }
}

enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case table, json

    /// Without ArgumentParser's key-path default (see QueryOptions.swift).
    static var allValueStrings: [String] { allCases.map { $0.rawValue } }
}

/// Pretty, stable JSON for printing.
enum JSONText {
    static func encode<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
