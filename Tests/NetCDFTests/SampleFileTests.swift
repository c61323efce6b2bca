import Foundation
import NetCDF
import Synchronization
import TestSupport
import XCTest

/// Every real sample opens and decodes, and our numbers match what `ncdump` prints.
final class SampleFileTests: XCTestCase {
    private func allFiles() throws -> [String] {
        try Repository.allSharedSamples() + Repository.sampleGridFiles()
    }

    func testEverySampleOpensWithDimensionsAttributesAndTimes() throws {
        let files = try allFiles()
        XCTAssertGreaterThanOrEqual(files.count, 3)
        let timePattern = try NSRegularExpression(pattern: #"^\d{4}-\d{2}-\d{2}_\d{2}:\d{2}:\d{2}$"#)
        for path in files {
            let file = try NetCDFFile(path: path)
            XCTAssertFalse(file.dimensions.isEmpty, path)
            XCTAssertFalse(file.variables.isEmpty, path)
            XCTAssertFalse(file.globalAttributes.isEmpty, path)
            guard file.hasVariable("Times") else { continue }
            let times = try file.variable("Times").readStrings()
            XCTAssertEqual(times.count, file.dimension("Time")?.length, path)
            for time in times {
                let range = NSRange(time.startIndex..., in: time)
                XCTAssertNotNil(timePattern.firstMatch(in: time, range: range), "\(path): Times entry \(time)")
            }
        }
    }

    func testWRFAttributesDecodeWithTheirTypes() throws {
        let file = try NetCDFFile(path: Repository.sharedSample("wrf_d01_allvars_cropped.nc"))
        XCTAssertEqual(file.format, .netCDF4)
        XCTAssertEqual(file.attribute("MAP_PROJ")?.int, 1)
        XCTAssertEqual(file.attribute("TRUELAT2")?.double, 35)
        XCTAssertEqual(file.attribute("TITLE")?.string, " OUTPUT FROM WRF V3.3.1 MODEL")
        XCTAssertEqual(file.attribute("SIMULATION_START_DATE")?.string, "2005-09-20_12:00:00")
        let t2 = try file.variable("T2")
        XCTAssertEqual(t2.info.dimensionNames, ["Time", "south_north", "west_east"])
        XCTAssertEqual(t2.attributes["units"]?.string, "K")
    }

    /// T2 at every index equals what ncdump prints (ncdump uses 7 significant digits).
    func testT2MatchesNcdump() throws {
        for path in try allFiles() {
            let file = try NetCDFFile(path: path)
            guard file.hasVariable("T2") else { continue }
            let ours = try file.variable("T2").readFloats()
            let theirs = try ncdumpValues(path: path, variable: "T2")
            XCTAssertEqual(ours.count, theirs.count, path)
            var worst = 0.0
            for (a, b) in zip(ours, theirs) { worst = max(worst, abs(Double(a) - b) / max(abs(b), 1)) }
            XCTAssertLessThan(worst, 1e-6, "\(path): worst relative difference to ncdump")
        }
    }

    func testHyperslabReadsTheSameValuesAsTheWholeVariable() throws {
        let file = try NetCDFFile(path: Repository.sharedSample("ci_test_file.nc"))
        let t2 = try file.variable("T2")
        let shape = t2.shape
        let whole = try t2.readFloats()
        let slab = try t2.readFloats(start: [2, 10, 5], count: [1, 3, 4])
        for j in 0..<3 {
            for i in 0..<4 {
                let index = 2 * shape[1] * shape[2] + (10 + j) * shape[2] + (5 + i)
                XCTAssertEqual(slab[j * 4 + i], whole[index])
            }
        }
    }

    func testConcurrentReadsAgreeWithSerialReads() throws {
        let path = try Repository.sharedSample("ci_test_file.nc")
        let file = try NetCDFFile(path: path)
        let names = ["T2", "Q2", "PSFC", "U10", "V10", "HGT", "RAINNC", "XLAT"]
        let serial = try names.map { try file.variable($0).readFloats() }
        let results = Mutex([[Float]](repeating: [], count: names.count * 4))
        DispatchQueue.concurrentPerform(iterations: names.count * 4) { index in
            let values = (try? file.variable(names[index % names.count]).readFloats()) ?? []
            results.withLock { $0[index] = values }
        }
        let collected = results.withLock { $0 }
        for index in 0..<(names.count * 4) {
            XCTAssertEqual(collected[index], serial[index % names.count], names[index % names.count])
        }
    }
}
