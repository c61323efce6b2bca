import Catalog
import Extraction
import Foundation
import ModelIngest
@testable import TileStore
import TestSupport
import XCTest

/// Extraction into a store: values at their precision, atomic publication, lock, pruning.
final class ExtractionTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var store = ""

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        store = directory.path("store")
    }

    private var baseline: String { Repository.sampleGrids.appendingPathComponent("edge-cases/baseline.nc").path }

    /// Baseline as the run of 2026-11-22 at `hour`: its times and start shifted, since a run
    /// is filed only under its own start (issue 16 item 3).
    private func baselineRun(hour: Int) throws -> String {
        hour == 0 ? baseline : try shiftedRun(baseline, byMinutes: hour * 60, into: directory)
    }

    /// Domains read in row bands (`bandsPerDomain`) or in parts of their frames
    /// (`framePartsPerDomain`, each part replaying the accumulated fields before it) side by side
    /// write the same files, byte for byte, and the same warnings as one unit per domain: on the
    /// real allvars sample (8 rows: bands of 4, 3 and 1 rows; 4 frames: parts of 2 and 1), the SampleGrids WRF run (two domains), a file with fill
    /// values and NaN (the missing-value warning sums the units' counts), a bucket-tipping file
    /// and a restart (running totals and the de-accumulator's state across parts) and one
    /// without COSALPHA (the rotation is decided for the whole domain, then cut).
    func testBandsAndFramePartsWriteTheSameFilesAsOneUnitPerDomain() throws {
        let cases: [[String]] = [
            [try Repository.sharedSample("wrf_d01_allvars_cropped.nc")],
            [Repository.sampleGrids.appendingPathComponent("wrfout_d01_2026-11-22_00:00:00").path,
             Repository.sampleGrids.appendingPathComponent("wrfout_d02_2026-11-22_00:00:00").path],
            [Repository.sampleGrids.appendingPathComponent("edge-cases/fill_nan_negative_q2.nc").path],
            [Repository.sampleGrids.appendingPathComponent("edge-cases/bucket_tipping.nc").path],
            [Repository.sampleGrids.appendingPathComponent("edge-cases/restart.nc").path],
            [Repository.sampleGrids.appendingPathComponent("edge-cases/no_alpha.nc").path],
        ]
        var warned: [String] = []
        for (number, inputs) in cases.enumerated() {
            var files: [String: [String: Data]] = [:], warnings: [String: [String]] = [:]
            let splits: [(bands: Int, parts: Int)] = [(1, 1), (2, 1), (3, 1), (8, 1), (1, 2), (1, 3), (1, 50)]
            for (bands, parts) in splits {
                let key = "\(bands)x\(parts)"
                var extractor = Extractor(inputs: inputs, store: directory.path("units-\(number)-\(key)"))
                extractor.model = "check"
                extractor.bandsPerDomain = bands
                extractor.minimumBandLevelBytes = 1   // these domains are small: split them anyway
                extractor.framePartsPerDomain = parts
                let summary = try extractor.run()
                let (_, folder) = try CycleStore.resolve(root: extractor.store, model: "check")
                for name in try FileManager.default.contentsOfDirectory(atPath: folder) where name.hasSuffix(".tcs") {
                    files[key, default: [:]][name] = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
                }
                warnings[key] = summary.warnings
            }
            XCTAssertFalse(files["1x1", default: [:]].isEmpty, "\(inputs)")
            for (bands, parts) in splits.dropFirst() {
                XCTAssertEqual(files["\(bands)x\(parts)"], files["1x1"], "\(inputs): \(bands) bands, \(parts) parts of the frames")
                XCTAssertEqual(warnings["\(bands)x\(parts)"], warnings["1x1"], "\(inputs): \(bands) bands, \(parts) parts of the frames")
            }
            warned += warnings["1x1", default: []]
        }
        XCTAssertTrue(warned.contains { $0.contains("missing values (fill value or NaN) stored as missing: PSFC 1, T2 4, U10 1") }, "\(warned)")
    }

    /// Every stored value is within half its precision of what ingest computed (running
    /// totals: every interval and every window within one precision).
    private func assertRoundTrip(inputs: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let run = try ModelRun.read(paths: inputs)
        var extractor = Extractor(inputs: inputs, store: store)
        extractor.model = "check"
        _ = try extractor.run()
        let (_, folder) = try CycleStore.resolve(root: store, model: "check")
        var worst: [ForecastVariable: Double] = [:]
        for domain in run.domains {
            let reader = try DomainFileReader(path: folder + "/" + CycleStore.domainFileName(domain.id))
            var frames = try FrameReader(domain: domain)
            var expected: [[ForecastVariable: [Float]]] = []
            while let frame = try frames.nextFrame() { expected.append(frame.values) }
            let we = domain.grid.westEast
            for variable in frames.variables {
                for cell in stride(from: 0, to: we * domain.grid.southNorth, by: 7) {
                    let stored = try reader.series(variable, i: cell % we, j: cell / we)
                    for t in expected.indices where !(variable.isStatic && t > 0) {
                        guard let truth = expected[t][variable]?[cell] else { continue }
                        var got = stored[variable.isStatic ? 0 : t]
                        if variable.isAccumulation {
                            // The interval ending at t: this total minus the last known one before it.
                            let previous = stored[..<t].last { !$0.isNaN } ?? 0
                            got = got - previous
                        }
                        if truth.isNaN || got.isNaN {
                            XCTAssertEqual(truth.isNaN, got.isNaN, "\(variable) t=\(t) cell=\(cell): missing must stay missing", file: file, line: line)
                            continue
                        }
                        worst[variable] = max(worst[variable] ?? 0, Double(abs(got - truth)))
                    }
                }
            }
        }
        for (variable, error) in worst {
            // Half a step, with a float margin; running totals carry two roundings per interval.
            let allowed = variable.precision * (variable.isAccumulation ? 1.0 : 0.5) + 1e-3 * variable.precision + 2e-5
            XCTAssertLessThanOrEqual(error, allowed, "\(variable.rawValue)", file: file, line: line)
        }
        print("worst stored error per variable: " + worst.sorted { $0.key < $1.key }.map { "\($0.key.rawValue) \(String(format: "%.4g", $0.value))" }.joined(separator: ", "))
    }

    func testSampleGridsRoundTripAtPrecision() throws {
        let inputs = ["wrfout_d01_2026-11-22_00:00:00", "wrfout_d02_2026-11-22_00:00:00"].map {
            Repository.sampleGrids.appendingPathComponent($0).path
        }
        try assertRoundTrip(inputs: inputs)
    }

    func testMM5SampleRoundTripAtPrecision() throws {
        try assertRoundTrip(inputs: [Repository.sampleGrids.appendingPathComponent("mm5_2026-11-22_00.nc").path])
    }

    func testSharedSamplesRoundTripAtPrecision() throws {
        try assertRoundTrip(inputs: [try Repository.sharedSample("wrf_d01_allvars_cropped.nc")])
        try assertRoundTrip(inputs: [try Repository.sharedSample("wrf_cropped.nc")])
    }

    /// Precipitation sums over any window equal the difference of two stored totals, within 0.1 mm.
    func testPrecipitationWindowsAcrossBucketTips() throws {
        let input = Repository.sampleGrids.appendingPathComponent("edge-cases/bucket_tipping.nc").path
        var extractor = Extractor(inputs: [input], store: store)
        extractor.model = "bucket"
        _ = try extractor.run()
        let (_, folder) = try CycleStore.resolve(root: store, model: "bucket")
        let reader = try DomainFileReader(path: folder + "/d01.tcs")
        let raw = try NetCDFRaw(path: input)
        for j in 0..<reader.metadata.southNorth {
            for i in 0..<reader.metadata.westEast {
                let totals = try reader.series(.precipitation, i: i, j: j)
                let truth = raw.total(i: i, j: j)
                for start in 0..<totals.count {
                    for end in (start + 1)..<totals.count {
                        let stored = Double(totals[end] - totals[start])
                        XCTAssertEqual(stored, truth[end] - truth[start], accuracy: 0.1, "window \(start)..\(end) at \(i),\(j)")
                        XCTAssertGreaterThanOrEqual(Double(totals[end]) - Double(totals[end - 1]), -0.011, "never negative")
                    }
                }
            }
        }
    }

    func testFailedExtractionLeavesThePublishedCycleAndRerunSucceeds() throws {
        var first = Extractor(inputs: [baseline], store: store)
        first.cycle = 1_795_305_600        // 2026-11-22T00Z
        _ = try first.run()
        let before = try CycleStore.resolve(root: store, model: "wrf")
        let beforeValues = try DomainFileReader(path: before.folder + "/d01.tcs").series(.temperature2m, i: 2, j: 3)

        for stage in ["domain d01", "publish"] {
            var failing = Extractor(inputs: [try baselineRun(hour: 6)], store: store)
            failing.cycle = 1_795_305_600 + 6 * 3600
            failing.faultInjection = { if $0 == stage { throw StoreError.writeFailed(path: "injected", detail: stage) } }
            XCTAssertThrowsError(try failing.run())
            let after = try CycleStore.resolve(root: store, model: "wrf")
            XCTAssertEqual(after.name, before.name, "latest unchanged after a failure at \(stage)")
            XCTAssertEqual(after.folder, before.folder)
            XCTAssertEqual(try CycleStore.cycles(root: store, model: "wrf").map(\.name), ["2026-11-22T00Z"])
            let data = try FileManager.default.contentsOfDirectory(atPath: store + "/wrf/.data")
            XCTAssertFalse(data.contains { $0.hasSuffix(".partial") }, "no partial folder left: \(data)")
            XCTAssertEqual(try DomainFileReader(path: after.folder + "/d01.tcs").series(.temperature2m, i: 2, j: 3), beforeValues)
        }
        var again = Extractor(inputs: [try baselineRun(hour: 6)], store: store)
        again.cycle = 1_795_305_600 + 6 * 3600
        _ = try again.run()
        XCTAssertEqual(try CycleStore.resolve(root: store, model: "wrf").name, "2026-11-22T06Z")
    }

    func testSecondExtractionStopsOnTheLock() throws {
        var holder: StoreLock? = try StoreLock(root: store)
        XCTAssertThrowsError(try Extractor(inputs: [baseline], store: store).run()) { error in
            guard case StoreError.locked(let path, let who) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(path, store)
            XCTAssertTrue(who.contains("pid \(ProcessInfo.processInfo.processIdentifier)"), who)
        }
        XCTAssertNotNil(holder)
        holder = nil   // released: the next extraction proceeds
        _ = try Extractor(inputs: [baseline], store: store).run()
    }

    func testRerunningACycleReplacesItAndKeepPrunesOldCyclesButNeverLatest() throws {
        for hours in [0, 6, 12, 18] {
            var extractor = Extractor(inputs: [try baselineRun(hour: hours)], store: store)
            extractor.cycle = 1_795_305_600 + Int64(hours) * 3600
            extractor.keep = 2
            _ = try extractor.run()
        }
        XCTAssertEqual(try CycleStore.cycles(root: store, model: "wrf").map(\.name), ["2026-11-22T12Z", "2026-11-22T18Z"])
        XCTAssertEqual(CycleStore.latest(root: store, model: "wrf")?.name, "2026-11-22T18Z")
        // Re-extracting an older cycle replaces it but does not move latest backwards.
        let old = try CycleStore.resolve(root: store, model: "wrf", cycle: XCTUnwrap(CycleSelector(parsing: "2026-11-22T12Z"))).folder
        var rerun = Extractor(inputs: [try baselineRun(hour: 12)], store: store)
        rerun.cycle = 1_795_305_600 + 12 * 3600
        rerun.keep = 2
        _ = try rerun.run()
        XCTAssertEqual(CycleStore.latest(root: store, model: "wrf")?.name, "2026-11-22T18Z")
        XCTAssertFalse(FileManager.default.fileExists(atPath: old), "the replaced folder is removed")
        let replaced = try CycleStore.resolve(root: store, model: "wrf", cycle: XCTUnwrap(CycleSelector(parsing: "2026-11-22T12Z"))).folder
        // With keep 1 it would be pruned the moment it is published: refused, saying so, and
        // nothing changes (issue 27 item 8; it used to publish and prune it with no word).
        rerun.keep = 1
        XCTAssertThrowsError(try rerun.run()) { error in
            XCTAssertEqual(error as? ExtractionError, .prunedAtOnce(cycle: "2026-11-22T12Z", keep: 1, kept: ["2026-11-22T18Z"]))
        }
        XCTAssertEqual(CycleStore.latest(root: store, model: "wrf")?.name, "2026-11-22T18Z")
        XCTAssertEqual(try CycleStore.resolve(root: store, model: "wrf", cycle: XCTUnwrap(CycleSelector(parsing: "2026-11-22T12Z"))).folder, replaced)
        let data = try FileManager.default.contentsOfDirectory(atPath: store + "/wrf/.data")
        XCTAssertEqual(data.count, 2, "12Z and 18Z: \(data)")
    }
}

/// Reads a bucket fixture's raw parts with libnetcdf, independently of ingest.
private struct NetCDFRaw {
    let parts: [[Double]]
    let counts: [[Double]]
    let bucket: Double
    let cells: Int
    let steps: Int
    let westEast: Int

    init(path: String) throws {
        let output = try runTool("ncdump", ["-h", path]).stdout
        bucket = output.split(separator: "\n").first { $0.contains(":BUCKET_MM") }
            .flatMap { Double($0.split(separator: "=")[1].trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "f ;", with: "").replacingOccurrences(of: " ;", with: "")) } ?? 0
        parts = try ["RAINC", "RAINNC", "RAINSH"].map { try ncdumpValues(path: path, variable: $0) }
        counts = try ["I_RAINC", "I_RAINNC"].map { try ncdumpValues(path: path, variable: $0) }
        let shape = try runTool("ncdump", ["-h", path]).stdout
        func dimension(_ name: String) -> Int {
            shape.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("\(name) =") }
                .flatMap { Int($0.split(separator: "=")[1].filter(\.isNumber)) } ?? 0
        }
        westEast = dimension("west_east")
        cells = westEast * dimension("south_north")
        steps = parts[0].count / max(cells, 1)
    }

    func total(i: Int, j: Int) -> [Double] {
        (0..<steps).map { t in
            let index = t * cells + j * westEast + i
            return parts.reduce(0) { $0 + $1[index] } + counts.reduce(0) { $0 + $1[index] } * bucket
        }
    }
}
