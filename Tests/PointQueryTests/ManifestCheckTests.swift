import Catalog
import Extraction
import Foundation
import PointQuery
import TestSupport
import TileStore
import XCTest

/// A cycle folder serves only the domain files its manifest lists: a file of another cycle
/// (checksums all good) or of another size is damage, never an answer mixing two runs.
final class ManifestCheckTests: XCTestCase {
    private var directory: TemporaryDirectory!
    override func setUpWithError() throws { directory = try TemporaryDirectory() }

    private let restart = Repository.sampleGrids.appendingPathComponent("edge-cases/restart_long.nc").path

    /// The same restart segment extracted under the run's start and under the segment's: two
    /// d01 files of the same data and size that differ only in the cycle they belong to.
    private func twoCyclesOfOneRun() throws -> (store: String, runCycle: String, segmentFile: String) {
        let store = directory.path("store")
        var byRun = Extractor(inputs: [restart], store: store)
        byRun.model = "wrf"
        _ = try byRun.run()
        var bySegment = Extractor(inputs: [restart], store: store)
        bySegment.model = "wrf"
        bySegment.cycle = ModelTime.seconds(year: 2026, month: 11, day: 22)
        _ = try bySegment.run()
        let segment = try CycleStore.openCycle(root: store, model: "wrf", cycle: XCTUnwrap(CycleSelector(parsing: "2026-11-22T00Z")))
        return (store, "2026-08-18T00Z", try XCTUnwrap(segment.domainPaths.first))
    }

    private func assertDamage(_ store: String, cycle: String, mentioning fragments: [String],
                              file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try ForecastStore(root: store, model: "wrf", cycle: XCTUnwrap(CycleSelector(parsing: cycle))), file: file, line: line) { error in
            guard case QueryError.store(let cause) = error else { return XCTFail("\(error)", file: file, line: line) }
            let message = cause.description
            XCTAssertTrue(cause.isDamage, message, file: file, line: line)
            for fragment in fragments {
                XCTAssertTrue(message.contains(fragment), "\"\(fragment)\" not in: \(message)", file: file, line: line)
            }
        }
    }

    func testADomainFileOfAnotherCycleIsDamage() throws {
        let (store, runCycle, segmentFile) = try twoCyclesOfOneRun()
        let target = try XCTUnwrap(CycleStore.openCycle(root: store, model: "wrf", cycle: XCTUnwrap(CycleSelector(parsing: runCycle))).domainPaths.first)
        let sizes = try [target, segmentFile].map { try XCTUnwrap(FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int) }
        XCTAssertEqual(sizes[0], sizes[1], "the test needs two files of one size, so that only their metadata differ")
        XCTAssertNoThrow(try ForecastStore(root: store, model: "wrf", cycle: XCTUnwrap(CycleSelector(parsing: runCycle))))
        try FileManager.default.removeItem(atPath: target)
        try FileManager.default.copyItem(atPath: segmentFile, toPath: target)
        assertDamage(store, cycle: runCycle, mentioning: [target, "cycle 2026-11-22T00Z", "2026-08-18T00Z", "another run"])
    }
}
