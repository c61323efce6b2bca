import Foundation
import XCTest

/// Where the repository and its test inputs are, found from this file's own path so tests
/// run the same from any working directory.
public enum Repository {
    /// The repository root (this file is Tests/TestSupport/TestSupport.swift).
    public static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `SampleGrids/` made by `Scripts/make_sample_grids.py`.
    public static let sampleGrids = root.appendingPathComponent("SampleGrids")

    /// `../shared/wrf-samples/`: real WRF files. Absent in a user's own clone.
    public static let sharedSamples = root.deletingLastPathComponent().appendingPathComponent("shared/wrf-samples")

    /// The shared samples folder, or an XCTSkip saying why the test cannot run.
    /// (`.ci/run` refuses to run without it, so CI never skips these.)
    public static func requireSharedSamples() throws -> URL {
        guard FileManager.default.fileExists(atPath: sharedSamples.path) else {
            throw XCTSkip("../shared/wrf-samples is absent: real-WRF tests skipped")
        }
        return sharedSamples
    }

    /// One shared sample file by name.
    public static func sharedSample(_ name: String) throws -> String {
        try requireSharedSamples().appendingPathComponent(name).path
    }

    /// Every netCDF file in the shared samples folder.
    public static func allSharedSamples() throws -> [String] {
        let folder = try requireSharedSamples()
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        return names.filter { $0.hasSuffix(".nc") }.sorted().map { folder.appendingPathComponent($0).path }
    }

    /// The SampleGrids WRF and MM5 files (not the edge cases).
    public static func sampleGridFiles() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: sampleGrids.path)) ?? []
        return names.filter { $0.hasPrefix("wrfout_") || ($0.hasPrefix("mm5") && $0.hasSuffix(".nc")) }
            .sorted().map { sampleGrids.appendingPathComponent($0).path }
    }
}

/// A fresh folder under the system's temporary directory, removed when released.
/// Tests never write into the working directory.
public final class TemporaryDirectory {
    public let url: URL

    public init(_ label: String = "tilecast-test") throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(label)-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A path inside the folder.
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// The result of running an external program.
public struct ToolOutput {
    public let status: Int32
    public let stdout: String
    public let stderr: String
}

/// Runs a program found on PATH (ncgen, ncdump, python3, ...) and collects its output.
@discardableResult
public func runTool(_ name: String, _ arguments: [String], input: String? = nil) throws -> ToolOutput {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [name] + arguments
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    let inputPipe = Pipe()
    process.standardInput = input == nil ? FileHandle.nullDevice : inputPipe
    try process.run()
    if let input {
        inputPipe.fileHandleForWriting.write(Data(input.utf8))
        try inputPipe.fileHandleForWriting.close()
    }
    // Read both pipes before waiting, so a chatty tool cannot block on a full pipe.
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return ToolOutput(status: process.terminationStatus,
                      stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
}

/// Turns CDL text into a netCDF file with `ncgen` (kind: "classic", "64-bit-offset", "nc4").
public func makeNetCDF(cdl: String, kind: String, at path: String) throws {
    let cdlPath = path + ".cdl"
    try cdl.write(toFile: cdlPath, atomically: true, encoding: .utf8)
    let result = try runTool("ncgen", ["-k", kind, "-o", path, cdlPath])
    guard result.status == 0 else {
        throw NSError(domain: "ncgen", code: Int(result.status), userInfo: [NSLocalizedDescriptionKey: result.stderr])
    }
}

/// The values `ncdump -v NAME` prints for a variable, in storage order: an independent
/// reading of the file to check ours against.
public func ncdumpValues(path: String, variable: String) throws -> [Double] {
    let result = try runTool("ncdump", ["-v", variable, path])
    guard result.status == 0 else { throw NSError(domain: "ncdump", code: Int(result.status)) }
    guard let dataStart = result.stdout.range(of: "data:") else { return [] }
    let data = result.stdout[dataStart.upperBound...]
    guard let assignment = data.range(of: "\(variable) =") else { return [] }
    let body = data[assignment.upperBound...].prefix { $0 != ";" }
    return body.split(whereSeparator: { ", \n\t".contains($0) }).compactMap { token in
        token == "_" || token == "NaN" || token == "NaNf" ? .nan : Double(token.replacingOccurrences(of: "f", with: ""))
    }
}

/// A small seeded generator (SplitMix64), so every random test replays exactly.
public struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A copy of a model file as the run that started `minutes` later: every date-time string
/// ("2026-11-22_00:00:00" in Times and the start attributes, "2026-11-22 00:00:00" in XTIME's
/// units) moved by `minutes`, written by ncdump and ncgen. A run is filed only under its own
/// start, so tests that need several cycles need several runs.
public func shiftedRun(_ source: String, byMinutes minutes: Int, into directory: TemporaryDirectory,
                       kind: String = "64-bit-offset") throws -> String {
    let name = (source as NSString).lastPathComponent
    let path = directory.path("shifted-\(minutes)m-\(name)")
    if FileManager.default.fileExists(atPath: path) { return path }
    let dump = try runTool("ncdump", ["-p", "9,17", source])
    guard dump.status == 0 else { throw NSError(domain: "ncdump", code: Int(dump.status), userInfo: [NSLocalizedDescriptionKey: dump.stderr]) }
    let pattern = try NSRegularExpression(pattern: #"(\d{4})-(\d{2})-(\d{2})([_ ])(\d{2}):(\d{2}):(\d{2})"#)
    let text = dump.stdout as NSString
    var result = ""
    var last = 0
    for match in pattern.matches(in: dump.stdout, range: NSRange(location: 0, length: text.length)) {
        result += text.substring(with: NSRange(location: last, length: match.range.location - last))
        let field = { (k: Int) in Int(text.substring(with: match.range(at: k))) ?? 0 }
        var components = DateComponents(timeZone: TimeZone(identifier: "UTC"), year: field(1), month: field(2), day: field(3),
                                        hour: field(5), minute: field(6), second: field(7))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        if let date = calendar.date(from: components), let moved = calendar.date(byAdding: .minute, value: minutes, to: date) {
            components = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: moved)
            result += String(format: "%04d-%02d-%02d%@%02d:%02d:%02d", components.year ?? 0, components.month ?? 0, components.day ?? 0,
                             text.substring(with: match.range(at: 4)), components.hour ?? 0, components.minute ?? 0, components.second ?? 0)
        } else {
            result += text.substring(with: match.range)
        }
        last = match.range.location + match.range.length
    }
    result += text.substring(from: last)
    if let brace = result.range(of: "{") { result.replaceSubrange(result.startIndex..<brace.lowerBound, with: "netcdf shifted ") }
    try makeNetCDF(cdl: result, kind: kind, at: path)
    return path
}

/// The built `tilecast` binary: beside the test bundle in the build folder (`swift build
/// --build-tests` builds both), else `.build/debug/tilecast`.
public func tilecastBinary() throws -> String {
    let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for candidate in [folder, folder.deletingLastPathComponent()] {
        let path = candidate.appendingPathComponent("tilecast").path
        if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    let fallback = Repository.root.appendingPathComponent(".build/debug/tilecast").path
    guard FileManager.default.isExecutableFile(atPath: fallback) else {
        throw NSError(domain: "CLITests", code: 1, userInfo: [NSLocalizedDescriptionKey: "tilecast binary not built"])
    }
    return fallback
}
