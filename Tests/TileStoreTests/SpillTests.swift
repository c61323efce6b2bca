import Extraction
import Foundation
@testable import TileStore
import TestSupport
import XCTest

/// Issue 16, item 10: extraction memory must not grow with the number of frames. Past its
/// memory limit a domain writer keeps quantized frames in scratch files; the file it writes
/// must be the same, byte for byte, as the one written from memory.
final class SpillTests: XCTestCase {
    func testSpilledExtractionWritesTheSameBytesAndLeavesNoScratch() throws {
        let directory = try TemporaryDirectory()
        let inputs = Repository.sampleGridFiles().filter { $0.contains("wrfout_") }
        XCTAssertEqual(inputs.count, 2)
        var files: [[String: [UInt8]]] = []
        for (label, limit) in [("memory", DomainFileWriter.defaultMemoryLimit), ("spilled", 0)] {
            var extractor = Extractor(inputs: inputs, store: directory.path(label))
            extractor.model = "wrf"
            extractor.writerMemoryLimit = limit
            _ = try extractor.run()
            let published = try CycleStore.openCycle(root: directory.path(label), model: "wrf")
            var bytes: [String: [UInt8]] = [:]
            for path in published.domainPaths {
                var data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
                // The metadata's createdBy/sources are equal; nothing in a file depends on the run.
                bytes[(path as NSString).lastPathComponent] = data
                data.removeAll()
            }
            files.append(bytes)
            let entries = try FileManager.default.contentsOfDirectory(atPath: published.folder).sorted()
            XCTAssertEqual(entries, ["cycle.json", "d01.tcs", "d02.tcs"], "\(label): no scratch file left: \(entries)")
        }
        XCTAssertEqual(files[0].keys.sorted(), ["d01.tcs", "d02.tcs"])
        for name in files[0].keys.sorted() {
            XCTAssertEqual(files[0][name], files[1][name], "\(name) differs when spilled")
        }
    }

    func testWriterSpillsOnlyAboveItsLimit() throws {
        let directory = try TemporaryDirectory()
        let metadata = try FormatTests.tinyMetadata()
        let small = try DomainFileWriter(path: directory.path("a.tcs"), metadata: metadata, variables: [.temperature2m])
        XCTAssertFalse(small.spills)
        // 3 x 2 cells x 4 times x 4 bytes = 96 bytes of values.
        let spilling = try DomainFileWriter(path: directory.path("b.tcs"), metadata: metadata, variables: [.temperature2m], memoryLimit: 95)
        XCTAssertTrue(spilling.spills)
        XCTAssertTrue(FileManager.default.fileExists(atPath: directory.path("b.tcs.temperature_2m.scratch")))
    }

    func testAFrameLackingADeclaredVariableIsAnErrorNotASilentGap() throws {
        let directory = try TemporaryDirectory()
        let writer = try DomainFileWriter(path: directory.path("c.tcs"), metadata: try FormatTests.tinyMetadata(),
                                          variables: [.temperature2m, .elevation])
        try writer.add(frame: [.temperature2m: [Float](repeating: 1, count: 6), .elevation: [Float](repeating: 0, count: 6)])
        XCTAssertThrowsError(try writer.add(frame: [.elevation: [Float](repeating: 0, count: 6)])) { error in
            XCTAssertTrue("\(error)".contains("temperature_2m"), "\(error)")
        }
    }
}
