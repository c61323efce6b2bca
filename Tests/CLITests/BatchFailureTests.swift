import Foundation
import TestSupport
import XCTest

/// A batch (`--points`) whose places fail for different reasons exits with the most serious
/// one: a damaged store (5) is never hidden behind a place outside the store (4), whichever
/// comes first in the file (issue 27 item 7).
final class BatchFailureTests: XCTestCase {
    func testDamageWinsOverAnOutsidePlaceThatComesFirst() throws {
        let directory = try TemporaryDirectory("tilecast-batch-damage")
        let tilecast = try tilecastBinary()
        let store = directory.path("store")
        let baseline = Repository.sampleGrids.appendingPathComponent("edge-cases/baseline.nc").path
        XCTAssertEqual(try runTool(tilecast, ["extract", baseline, "--store", store]).status, 0)
        let points = directory.path("places.csv")
        try "name,lat,lon\nfar,10,10\ncentre,39.3,-8.0\n".write(toFile: points, atomically: true, encoding: .utf8)
        let arguments = ["query", "--store", store, "--points", points, "--start", "2026-11-22T00Z", "--hours", "2"]
        XCTAssertEqual(try runTool(tilecast, arguments).status, 4, "intact store: the outside place's exit 4")

        // A block of d01 damaged (the one CommandLineTests damages: the centre reads it).
        let file = try XCTUnwrap(FileManager.default.enumerator(atPath: store)?.compactMap { $0 as? String }.first { $0.hasSuffix("d01.tcs") })
        let path = store + "/" + file
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        bytes[20] ^= 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let damaged = try runTool(tilecast, arguments)
        XCTAssertEqual(damaged.status, 5, damaged.stderr)
        XCTAssertTrue(damaged.stderr.contains("damaged") && damaged.stderr.contains("checksum"), damaged.stderr)
    }
}
