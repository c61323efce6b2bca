import Foundation
import Catalog
import GridGeometry
import ModelIngest
import NetCDF
import TestSupport
import XCTest

/// SPEC section 8, split runs (`frames_per_outfile`): joined in time order across files and
/// formats; duplicate frames dropped with a warning, overlapping or missing frames refused.
final class EdgeCaseSplitTests: XCTestCase {
    func testSplitRunJoinsIntoSixFramesWithPrecipitationAcrossFiles() throws {
        let folder = Fixture.edge("split")
        let run = try ModelRun.read(paths: [folder])
        XCTAssertEqual(run.warnings, [])
        let domain = try onlyDomain(run)
        XCTAssertEqual(domain.files.count, 3)
        XCTAssertEqual(domain.times, (0..<6).map { nov22(hour: $0) })
        XCTAssertEqual(domain.frames.map(\.fileIndex), [0, 0, 1, 1, 2, 2])
        XCTAssertEqual(domain.frames.map(\.frameIndex), [0, 1, 0, 1, 0, 1])

        // The fixture holds no rain (its front comes later): give its three files a seeded
        // accumulation that runs on across the file boundaries, then check every window.
        var generator = SeededGenerator(seed: 0x5EED_0003)
        let cells = domain.grid.westEast * domain.grid.southNorth
        var parts: [String: [[Double]]] = [:]
        for (name, step) in [("RAINC", 3.0), ("RAINNC", 6.0), ("RAINSH", 0.5)] {
            parts[name] = accumulatedRain(frames: 6, cells: cells, maximumStep: step, generator: &generator)
        }
        let rainy = try TemporaryDirectory("split-rain")
        for (index, file) in try Fixture.files(in: folder).enumerated() {
            let frames = [2 * index, 2 * index + 1]
            try rewriteNetCDF(file, to: rainy.path((file as NSString).lastPathComponent),
                              replacing: parts.mapValues { series in frames.flatMap { series[$0] } })
        }
        let totals = (0..<6).map { frame in (0..<cells).map { cell in parts.values.reduce(0) { $0 + $1[frame][cell] } } }
        let precipitation = try readAllFrames(onlyDomain(ModelRun.read(paths: [rainy.url.path])), variables: [.precipitation])
            .map { try XCTUnwrap($0.values[.precipitation]) }
        XCTAssertEqual(precipitation.count, 6)
        XCTAssertTrue(precipitation[0].allSatisfy { $0 == 0 })
        for cell in 0..<cells {
            for first in 0..<6 {
                var sum = 0.0
                for last in (first + 1)..<6 {
                    XCTAssertGreaterThanOrEqual(precipitation[last][cell], 0)
                    sum += Double(precipitation[last][cell])
                    XCTAssertEqual(sum, totals[last][cell] - totals[first][cell], accuracy: 1e-3, "cell \(cell), frames \(first)-\(last)")
                }
            }
        }
        XCTAssertGreaterThan(precipitation[2].max() ?? 0, 1, "rain across the first file boundary")
    }

    func testSplitDuplicateDropsTheIdenticalFrameWithAWarning() throws {
        let folder = Fixture.edge("split-duplicate")
        let files = try Fixture.files(in: folder)
        let run = try ModelRun.read(paths: [folder])
        let domain = try onlyDomain(run)
        XCTAssertEqual(domain.times, (0..<6).map { nov22(hour: $0) })
        let duplicates = run.warnings.filter { $0.kind == .duplicateFrames }
        XCTAssertEqual(duplicates.count, 1, "\(run.warnings)")
        let message = try XCTUnwrap(duplicates.first).message
        XCTAssertTrue(message.contains("2026-11-22T01:00:00Z"), message)
        XCTAssertTrue(message.contains(files[0]) && message.contains(files[1]), message)
        XCTAssertEqual(run.warnings.count, 1, "\(run.warnings)")
        // Each time once: 01Z from the first file, the copy in the second file skipped.
        XCTAssertEqual(domain.frames[1].fileIndex, 0)
        XCTAssertEqual(domain.frames[2].fileIndex, 1)
        XCTAssertEqual(domain.frames[2].frameIndex, 1)
        XCTAssertEqual(try readAllFrames(domain, variables: [.temperature2m]).count, 6)
    }

    func testSplitOverlapIsRefusedNamingBothFilesAndTheTime() throws {
        let folder = Fixture.edge("split-overlap")
        let files = try Fixture.files(in: folder)
        XCTAssertThrowsError(try ModelRun.read(paths: [folder])) { error in
            XCTAssertEqual(error as? IngestError,
                           .overlappingFrames(domain: 1, time: "2026-11-22T02:00:00Z", paths: [files[0], files[1]]))
            XCTAssertTrue("\(error)".contains("wrfout_d01_2026-11-22_00_00_00"), "\(error)")
        }
    }

    func testSplitGapIsRefusedNamingTheMissingInterval() throws {
        XCTAssertThrowsError(try ModelRun.read(paths: [Fixture.edge("split-gap")])) { error in
            XCTAssertEqual(error as? IngestError,
                           .missingFrames(domain: 1, after: "2026-11-22T01:00:00Z", before: "2026-11-22T03:00:00Z", step: "1h"))
        }
    }

    func testSplitMixedFormatGivesTheSameValuesAsTheClassicSplit() throws {
        let mixed = try onlyDomain(ModelRun.read(paths: [Fixture.edge("split-mixed-format")]))
        let classic = try onlyDomain(ModelRun.read(paths: [Fixture.edge("split")]))
        XCTAssertEqual(mixed.files.map(\.format), [.offset64, .netCDF4, .offset64])
        XCTAssertEqual(mixed.times, classic.times)
        XCTAssertEqual(mixed.variables, classic.variables)
        let a = try readAllFrames(mixed), b = try readAllFrames(classic)
        XCTAssertEqual(a.count, 6)
        XCTAssertEqual(b.count, 6)
        for (index, (x, y)) in zip(a, b).enumerated() {
            XCTAssertEqual(Set(x.values.keys), Set(y.values.keys))
            for variable in ForecastVariable.stored {
                assertSameField(x.values[variable], y.values[variable], "\(variable.rawValue) frame \(index)")
            }
        }
    }
}
