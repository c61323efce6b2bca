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

        A remote store (s3://BUCKET/PREFIX, or http(s):// for a store folder behind a web server) is listed and checked the same way by tilecast-remote: a bucket is listed; a web server that gives no index of its folders needs the models named with --model, and shows each one's latest cycle.

        Examples:
          tilecast inspect SampleGrids
          tilecast inspect /tmp/s --verify
          tilecast inspect s3://forecasts/tilecast --s3-endpoint http://127.0.0.1:9000 --verify
          tilecast inspect wrfout_d01_2026-11-22_00:00:00 --format json
        """
    )

    @Argument(help: "A model file, a folder of them, several files, a store, or a remote store (s3://, https://).")
    var paths: [String]

    @Option(help: "Output format: table or json.")
    var format: OutputFormat = .table

    @Option(help: "Name profile: wrf, mm5, or a profile file (default: detected per file).")
    var profile: String?

    @Flag(help: "For a store: verify every block's checksum (exit 5 on damage).")
    var verify = false

    @Option(help: "For a remote store: a model to show (repeat; default: every one it lists).")
    var model: [String] = []

    @Option(help: "For an s3:// store: the S3 endpoint (default: AWS_ENDPOINT_URL, else AWS's own).")
    var s3Endpoint: String?

    @Option(help: "For an s3:// store: the S3 region (default: AWS_REGION, the shared config, us-east-1).")
    var s3Region: String?

    func run() throws {
        if paths.count == 1, LocalStores.isRemote(paths[0]) {
            // A bucket or a web address: tilecast-remote holds the HTTP client (see PublishCommand).
            try SiblingBinary.exec("tilecast-remote", Array(CommandLine.arguments.dropFirst()), neededFor: "a remote store")
        }
        if !model.isEmpty || s3Endpoint != nil || s3Region != nil {
            throw Failure(.badUsage, "--model, --s3-endpoint and --s3-region apply to a remote store (s3://, https://) only")
        }
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
