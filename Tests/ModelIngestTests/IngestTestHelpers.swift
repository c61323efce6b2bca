import Foundation
import Catalog
import GridGeometry
import ModelIngest
import NetCDF
import TestSupport
import XCTest

/// Paths of the SampleGrids fixtures.
enum Fixture {
    static var edgeCases: URL { Repository.sampleGrids.appendingPathComponent("edge-cases") }

    /// A file or folder of `SampleGrids/edge-cases/`.
    static func edge(_ name: String) -> String { edgeCases.appendingPathComponent(name).path }

    /// A file of `SampleGrids/`.
    static func grid(_ name: String) -> String { Repository.sampleGrids.appendingPathComponent(name).path }

    static let d01 = "wrfout_d01_2026-11-22_00:00:00"
    static let d02 = "wrfout_d02_2026-11-22_00:00:00"
    static let mm5 = "mm5_2026-11-22_00.nc"

    /// The files of a folder, sorted, as full paths.
    static func files(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix(".") }.sorted()
            .map { (folder as NSString).appendingPathComponent($0) }
    }
}

/// Seconds since the epoch of a UTC time on 2026-11-22 (hour may pass 23).
func nov22(hour: Int, minute: Int = 0) -> Int64 {
    ModelTime.seconds(year: 2026, month: 11, day: 22)! + Int64(hour * 3600 + minute * 60)
}

/// Every frame a reader gives for the domain, in order.
func readAllFrames(_ domain: Domain, variables: [ForecastVariable]? = nil) throws -> [FrameFields] {
    var reader = try FrameReader(domain: domain, variables: variables)
    var frames: [FrameFields] = []
    while let frame = try reader.nextFrame() { frames.append(frame) }
    return frames
}

/// The one domain of a single-domain run.
func onlyDomain(_ run: ModelRun, file: StaticString = #filePath, line: UInt = #line) throws -> Domain {
    XCTAssertEqual(run.domains.count, 1, "domains", file: file, line: line)
    return try XCTUnwrap(run.domains.first, file: file, line: line)
}

/// One 2-D field of a file read straight from the netCDF layer (frame ignored for
/// variables without Time), with no conversion: the raw numbers to check ingest against.
func rawField(_ path: String, _ name: String, frame: Int = 0) throws -> [Double] {
    let variable = try NetCDFFile(path: path).variable(name)
    let shape = variable.shape
    switch shape.count {
    case 2: return try variable.readDoubles()
    case 3: return try variable.readDoubles(start: [frame, 0, 0], count: [1, shape[1], shape[2]])
    default:
        XCTFail("\(name) has shape \(shape)")
        return []
    }
}

/// The number of frames along a file's Time dimension.
func frameCount(_ path: String, dimension: String = "Time") throws -> Int {
    try XCTUnwrap(NetCDFFile(path: path).dimension(dimension)).length
}

/// A CSV file as rows of named fields (a quoted last field may hold commas).
struct CSVTable {
    let header: [String]
    let rows: [[String: String]]

    init(path: String) throws {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let lines = text.split(whereSeparator: \.isNewline).map(String.init)
        let names = try XCTUnwrap(lines.first).split(separator: ",").map(String.init)
        let width = names.count
        header = names
        rows = lines.dropFirst().map { line in
            var fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            if fields.count > width {
                fields = Array(fields.prefix(width - 1)) + [fields.dropFirst(width - 1).joined(separator: ",")]
            }
            return Dictionary(uniqueKeysWithValues: zip(names, fields))
        }
    }

    static func number(_ row: [String: String], _ column: String, file: StaticString = #filePath, line: UInt = #line) throws -> Double {
        try XCTUnwrap(row[column].flatMap { Double($0) }, "column \(column)", file: file, line: line)
    }

    static func integer(_ row: [String: String], _ column: String, file: StaticString = #filePath, line: UInt = #line) throws -> Int {
        try XCTUnwrap(row[column].flatMap { Int($0) }, "column \(column)", file: file, line: line)
    }
}

/// Our own projection round trip of a file's stored coordinates (frame 0), every cell:
/// the worst distance in cells between a cell's index and where the projection puts its
/// stored lat/lon, and the worst distance in metres (great circle on WRF's 6370 km sphere)
/// between the stored lat/lon and the inverse projection of the integer index.
func ownRoundTrip(_ file: SourceFile, latitude: String, longitude: String) throws -> (cells: Double, metres: Double) {
    let lat = try rawField(file.path, latitude, frame: 0), lon = try rawField(file.path, longitude, frame: 0)
    let we = file.westEast, sn = file.southNorth
    XCTAssertEqual(lat.count, we * sn)
    let grid = try ProjectedGrid(parameters: file.projection, westEast: we, southNorth: sn,
                                 southWestCorner: GeoPoint(latitude: lat[0], longitude: lon[0]))
    var cells = 0.0, metres = 0.0
    for j in 0..<sn {
        for i in 0..<we {
            let stored = GeoPoint(latitude: lat[j * we + i], longitude: lon[j * we + i])
            let position = grid.position(of: stored)
            let forward = max(abs(position.i - Double(i)), abs(position.j - Double(j)))
            cells = max(cells, forward.isFinite ? forward : .infinity)
            let back = grid.point(at: GridPosition(i: Double(i), j: Double(j)))
            let distance = greatCircleMetres(stored, back)
            metres = max(metres, distance.isFinite ? distance : .infinity)
        }
    }
    return (cells, metres)
}

/// Haversine distance on WRF's sphere (R = 6370 km).
func greatCircleMetres(_ a: GeoPoint, _ b: GeoPoint) -> Double {
    let radians = Double.pi / 180
    let dLat = (b.latitude - a.latitude) * radians, dLon = (b.longitude - a.longitude) * radians
    let h = pow(sin(dLat / 2), 2) + cos(a.latitude * radians) * cos(b.latitude * radians) * pow(sin(dLon / 2), 2)
    return 2 * 6_370_000 * asin(min(1, h.squareRoot()))
}

/// Asserts two fields are the same numbers, NaN where the other is NaN.
func assertSameField(_ a: [Float]?, _ b: [Float]?, _ message: String, file: StaticString = #filePath, line: UInt = #line) {
    guard let a, let b else { return XCTAssertTrue(a == nil && b == nil, "\(message): present in one only", file: file, line: line) }
    XCTAssertEqual(a.count, b.count, message, file: file, line: line)
    let differing = zip(a, b).enumerated().filter { _, pair in
        !(pair.0.isNaN && pair.1.isNaN) && pair.0.bitPattern != pair.1.bitPattern
    }
    XCTAssertTrue(differing.isEmpty, "\(message): \(differing.count) cells differ, first \(differing.first.map { "cell \($0.offset): \($0.element)" } ?? "")", file: file, line: line)
}

/// Writes a netCDF-3 (64-bit offset) copy of `source` with some variables' values replaced,
/// through `ncdump` and `ncgen`: lets a test give a fixture numbers it lacks (the split and
/// no_rainsh fixtures hold no rain at all) while keeping every other byte of meaning.
func rewriteNetCDF(_ source: String, to destination: String, replacing replacements: [String: [Double]]) throws {
    let dump = try runTool("ncdump", ["-p", "9,17", source])
    guard dump.status == 0 else { throw NSError(domain: "ncdump", code: Int(dump.status), userInfo: [NSLocalizedDescriptionKey: dump.stderr]) }
    var cdl = dump.stdout
    // ncdump names the dataset after the file; WRF names hold colons, so use a plain one.
    let firstLine = try XCTUnwrap(cdl.range(of: "{"))
    cdl.replaceSubrange(cdl.startIndex..<firstLine.lowerBound, with: "netcdf rewritten ")
    let data = try XCTUnwrap(cdl.range(of: "\ndata:\n"))
    for (name, values) in replacements {
        let start = try XCTUnwrap(cdl.range(of: "\n \(name) =", range: data.upperBound..<cdl.endIndex), "\(name) in \(source)")
        let end = try XCTUnwrap(cdl.range(of: ";", range: start.upperBound..<cdl.endIndex))
        let text = values.map { "\(Float($0))" }.joined(separator: ", ")
        cdl.replaceSubrange(start.upperBound..<end.lowerBound, with: "\n  " + text + " ")
    }
    try makeNetCDF(cdl: cdl, kind: "64-bit-offset", at: destination)
    try? FileManager.default.removeItem(atPath: destination + ".cdl")
}

/// Accumulated rain for `frames` frames of `cells` cells: per cell a running sum of seeded
/// random increments (multiples of 1/64 mm, so exact in float), zero at frame 0.
/// Returned frame-major: `[frame][cell]`.
func accumulatedRain(frames: Int, cells: Int, maximumStep: Double, generator: inout SeededGenerator) -> [[Double]] {
    var totals = [[Double]](repeating: [Double](repeating: 0, count: cells), count: frames)
    for frame in 1..<frames {
        for cell in 0..<cells {
            let steps = Int.random(in: 0...Int(maximumStep * 64), using: &generator)
            totals[frame][cell] = totals[frame - 1][cell] + Double(steps) / 64
        }
    }
    return totals
}

/// Writes a copy of `source` whose CDL text (`ncdump -p 9,17`) went through `edit`, with
/// `ncgen`: the way the trust tests make a real fixture lie in one attribute, unit or dimension.
func rewriteCDL(_ source: String, to destination: String, kind: String = "64-bit-offset",
                _ edit: (String) throws -> String) throws {
    let dump = try runTool("ncdump", ["-p", "9,17", source])
    guard dump.status == 0 else { throw NSError(domain: "ncdump", code: Int(dump.status), userInfo: [NSLocalizedDescriptionKey: dump.stderr]) }
    var cdl = dump.stdout
    let firstLine = try XCTUnwrap(cdl.range(of: "{"))
    cdl.replaceSubrange(cdl.startIndex..<firstLine.lowerBound, with: "netcdf rewritten ")
    let edited = try edit(cdl)
    XCTAssertNotEqual(edited, cdl, "the edit changed nothing in \(source)")
    try makeNetCDF(cdl: edited, kind: kind, at: destination)
    try? FileManager.default.removeItem(atPath: destination + ".cdl")
}

/// `text` with `old` replaced by `new`, failing the test when `old` is absent.
func replacing(_ text: String, _ old: String, _ new: String, file: StaticString = #filePath, line: UInt = #line) -> String {
    XCTAssertTrue(text.contains(old), "\"\(old)\" not found", file: file, line: line)
    return text.replacingOccurrences(of: old, with: new)
}

/// Asserts that reading `paths` as a run fails with an `IngestError` whose message holds
/// every one of `fragments`.
func assertRefused(_ paths: [String], profile: ModelProfile? = nil, mentioning fragments: [String],
                   file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertThrowsError(try ModelRun.readRuns(paths: paths, profile: profile), file: file, line: line) { error in
        XCTAssertTrue(error is IngestError, "\(type(of: error)): \(error)", file: file, line: line)
        let message = "\(error)"
        for fragment in fragments {
            XCTAssertTrue(message.contains(fragment), "\"\(fragment)\" not in: \(message)", file: file, line: line)
        }
    }
}

/// The worst |engine - reference| of `variable` over every frame and cell, the reference keyed
/// by frame and `j * 1000 + i` (the reference scripts' rows); a cell the reference lacks fails
/// the test. With `unknownInBothAgrees`, a NaN on both sides is counted apart, not compared;
/// otherwise any NaN makes the worst difference NaN (which no tolerance accepts).
func worstDifference(_ frames: [FrameFields], _ variable: ForecastVariable, reference: [Int: [Int: Double]],
                     westEast: Int, southNorth: Int, unknownInBothAgrees: Bool = false,
                     file: StaticString = #filePath, line: UInt = #line) throws -> (worst: Double, compared: Int, bothUnknown: Int) {
    var worst = 0.0, compared = 0, bothUnknown = 0
    for (index, frame) in frames.enumerated() {
        let values = try XCTUnwrap(frame.values[variable], variable.rawValue, file: file, line: line)
        for j in 0..<southNorth {
            for i in 0..<westEast {
                let want = try XCTUnwrap(reference[index]?[j * 1000 + i], "\(variable.rawValue) frame \(index) j \(j) i \(i)",
                                         file: file, line: line)
                let got = Double(values[j * westEast + i])
                if unknownInBothAgrees && want.isNaN && got.isNaN { bothUnknown += 1; continue }
                let difference = abs(got - want)
                worst = difference > worst || difference.isNaN ? difference : worst
                compared += 1
            }
        }
    }
    return (worst, compared, bothUnknown)
}
