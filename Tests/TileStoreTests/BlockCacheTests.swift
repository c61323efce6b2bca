import Catalog
import Dispatch
import Foundation
import Synchronization
import GridGeometry
@testable import TileStore
import TestSupport
import XCTest

/// The reader's block cache in both of its modes (resident: the whole data area fits the
/// budget, read without a lock; bounded: arrays behind a mutex, evicted oldest first) gives
/// the values that were written, on one thread and on many, and never keeps a damaged block.
final class BlockCacheTests: XCTestCase {
    private static let westEast = 37, southNorth = 29, times = 11

    /// A seeded random file: 37 x 29 cells in 8 x 8 tiles (20 tiles) x 11 times, two
    /// variables; returns the values written, by variable, frame-major.
    private func writeFile(at path: String) throws -> [ForecastVariable: [[Float]]] {
        var random = SeededGenerator(seed: 0x0B10_C4CE)
        let metadata = DomainFileMetadata(
            model: "test", modelTitle: "cache test", cycle: 1_795_305_600, domain: 1, parentDomain: nil, parentGridRatio: nil,
            parentStart: nil, projection: ProjectionParameters(kind: .lambertConformal, trueLatitude1: 37, trueLatitude2: 42,
                                                               standardLongitude: -8, dx: 9000),
            westEast: Self.westEast, southNorth: Self.southNorth, southWestCorner: GeoPoint(latitude: 38, longitude: -9),
            times: (0..<Self.times).map { 1_795_305_600 + Int64($0) * 3600 }, sources: ["cache.nc"], createdBy: "tests")
        let writer = try DomainFileWriter(path: path, metadata: metadata, variables: [.temperature2m, .surfacePressure])
        let cells = Self.westEast * Self.southNorth
        var written: [ForecastVariable: [[Float]]] = [:]
        for _ in 0..<Self.times {
            let frame: [ForecastVariable: [Float]] = [
                .temperature2m: (0..<cells).map { _ in Float(Double.random(in: 0..<1, using: &random) * 40 - 10) },
                .surfacePressure: (0..<cells).map { _ in Float(900 + Double.random(in: 0..<1, using: &random) * 150) },
            ]
            for (variable, values) in frame { written[variable, default: []].append(values) }
            try writer.add(frame: frame)
        }
        try writer.finish()
        return written
    }

    /// Every series of the file, read through `reader` in the given cell order.
    private static func readAll(_ reader: DomainFileReader, order: [Int]) throws -> [ForecastVariable: [[Float]]] {
        var result: [ForecastVariable: [[Float]]] = [:]
        for variable in [ForecastVariable.temperature2m, .surfacePressure] {
            var series = [[Float]](repeating: [], count: order.count)
            for cell in order { series[cell] = try reader.series(variable, i: cell % Self.westEast, j: cell / Self.westEast) }
            result[variable] = series
        }
        return result
    }

    func testResidentAndBoundedCachesReadWhatWasWritten() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("cache.tcs")
        let written = try writeFile(at: path)
        let resident = try DomainFileReader(path: path)
        // A budget of a few blocks: the bounded mode, evicting while the reads go on.
        let bounded = try DomainFileReader(path: path, cacheBudget: 2_000)
        XCTAssertTrue(resident.isCacheResident)
        XCTAssertFalse(bounded.isCacheResident)
        let cells = Self.westEast * Self.southNorth
        let order = Array(0..<cells)
        let a = try Self.readAll(resident, order: order), b = try Self.readAll(bounded, order: order)
        XCTAssertEqual(a, b)
        // Against the values written: within half the variable's stored precision (SPEC 3).
        for variable in [ForecastVariable.temperature2m, .surfacePressure] {
            let step = Float(variable.precision)
            for cell in 0..<cells {
                for t in 0..<Self.times {
                    let stored = try XCTUnwrap(a[variable]?[cell][t]), input = try XCTUnwrap(written[variable]?[t][cell])
                    XCTAssertLessThanOrEqual(abs(stored - input), step / 2 * 1.001, "\(variable) cell \(cell) frame \(t)")
                }
            }
        }
        // Read again: the resident cache now answers every read; it read each block once.
        _ = try Self.readAll(resident, order: order.reversed())
        let statistics = resident.cacheStatistics
        XCTAssertEqual(statistics.misses, 2 * 20, "two variables x 20 tiles, each read from the file once")
        XCTAssertEqual(statistics.hits + statistics.misses, 2 * 2 * cells, "every series read is one block lookup")
        // Every block is held: the data area, between the 16-byte header and the index.
        let file = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let indexOffset = (0..<8).reduce(0) { $0 | Int(file[file.count - 56 + $1]) << (8 * $1) }
        XCTAssertEqual(statistics.bytes, indexOffset - 16)
        XCTAssertGreaterThan(bounded.cacheStatistics.misses, 2 * 20, "the bounded cache evicted and read blocks again")
    }

    /// Eight threads read every series in their own order, at once, from one reader of each
    /// mode: each gets exactly the serial answer.
    func testConcurrentReadsGiveTheSerialAnswers() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("cache.tcs")
        _ = try writeFile(at: path)
        let cells = Self.westEast * Self.southNorth
        let serial = try Self.readAll(try DomainFileReader(path: path), order: Array(0..<cells))
        for budget in [DomainFileReader.defaultCacheBudget, 3_000] {
            let reader = try DomainFileReader(path: path, cacheBudget: budget)
            let results = Mutex<[Int: [ForecastVariable: [[Float]]]]>([:])
            DispatchQueue.concurrentPerform(iterations: 8) { thread in
                var random = SeededGenerator(seed: UInt64(thread + 1))
                var order = Array(0..<cells)
                order.shuffle(using: &random)
                let result = try? BlockCacheTests.readAll(reader, order: order)
                results.withLock { $0[thread] = result }
            }
            let all = results.withLock { $0 }
            XCTAssertEqual(all.count, 8)
            for thread in 0..<8 { XCTAssertEqual(all[thread], serial, "thread \(thread), budget \(budget)") }
            let statistics = reader.cacheStatistics
            XCTAssertEqual(statistics.hits + statistics.misses, 8 * 2 * cells, "budget \(budget)")
            if budget == DomainFileReader.defaultCacheBudget { XCTAssertEqual(statistics.misses, 2 * 20, "each block loaded once") }
        }
    }

    /// A block whose checksum fails is refused on every read, in both modes (never kept and
    /// then served), while the other blocks still read.
    func testADamagedBlockIsRefusedOnEveryRead() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("cache.tcs")
        _ = try writeFile(at: path)
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        bytes[16 + 40] ^= 0x5A   // inside the first block (temperature, tile 0)
        let damaged = directory.path("damaged.tcs")
        try Data(bytes).write(to: URL(fileURLWithPath: damaged))
        for budget in [DomainFileReader.defaultCacheBudget, 3_000] {
            let reader = try DomainFileReader(path: damaged, cacheBudget: budget)
            for attempt in 0..<3 {
                XCTAssertThrowsError(try reader.series(.temperature2m, i: 0, j: 0), "attempt \(attempt)") { error in
                    guard case StoreError.checksumMismatch = error else { return XCTFail("\(error)") }
                }
                XCTAssertNoThrow(try reader.series(.temperature2m, i: 20, j: 20))
            }
        }
    }
}
