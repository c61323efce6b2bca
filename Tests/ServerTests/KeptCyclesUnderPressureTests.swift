import Foundation
import TestSupport
import TileCastServer
import XCTest

/// Issue 43 item 2: a request reaching into the past opens only the kept cycles that answer
/// its hours, never every kept cycle; a cycle that should answer and cannot be opened is a 503,
/// never a 200 with its hours null; and a failed open is not remembered.
final class KeptCycleOpeningTests: XCTestCase {
    /// 2026-11-22T00Z, the sample run's start.
    private static let base: Int64 = 1_795_305_600

    /// The data folders of the store that this process holds files of.
    private static func openCycleFolders(under store: String) -> Set<String> {
        let root = URL(fileURLWithPath: store).resolvingSymlinksInPath().path
        var folders: Set<String> = []
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [] {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + name),
                  target.hasPrefix(root + "/"), target.hasSuffix(".tcs") else { continue }
            folders.insert(URL(fileURLWithPath: target).deletingLastPathComponent().path)
        }
        return folders
    }

    /// Sixteen cycles 6 h apart (the sample d01 run, 24 h long, filed from 2026-11-22T00Z to
    /// 2026-11-25T18Z), asked at 25 Nov 18:10Z for `past_days=1&forecast_days=1`: the hours
    /// of 24 and 25 Nov come from the cycles starting 23 Nov 18Z to 25 Nov 18Z (nine). The
    /// cycle starting 24 Nov 12Z, which answers 13Z..18Z of 24 Nov, is damaged first (its
    /// file cut in half): 503 naming it (before: 200 with those six hours null). Mended, the
    /// same server answers every hour (before: the failed open was remembered until the next
    /// publication, so the hours stayed null), holding 9 cycles' files open (before: all 16).
    func testOnlyTheCyclesAnsweringAreOpenedAndAFailedOpenIsA503NotNulls() async throws {
        let directory = try TemporaryDirectory("tilecast-kept-cycles")
        let store = try StoreMaker.shiftedCycles(starts: (0..<16).map { $0 * 6 }, into: directory)
        // The file of the cycle starting at +60 h (24 Nov 12Z), cut in half.
        let damagedFile = try XCTUnwrap(FileManager.default.destinationOfSymbolicLink(atPath: store + "/wrf/2026-11-24T12Z"))
        let file = store + "/wrf/" + damagedFile + "/d01.tcs"
        let pristine = try Data(contentsOf: URL(fileURLWithPath: file))
        try FileManager.default.removeItem(atPath: file)
        try pristine.prefix(pristine.count / 2).write(to: URL(fileURLWithPath: file))

        var settings = ServerConfiguration(storeRoot: store)
        settings.now = { Self.base + 90 * 3600 + 600 }
        try await LiveServer.with(settings) { server in
            let path = "/v1/forecast?latitude=38.72&longitude=-9.14&hourly=temperature_2m,precipitation&past_days=1&forecast_days=1&timezone=GMT"
            let damaged = try await server.get(path)
            XCTAssertEqual(damaged.status, 503, "a cycle that should answer cannot be opened: \(damaged.body.prefix(400))")
            XCTAssertTrue(damaged.body.contains("d01.tcs"), damaged.body)

            try FileManager.default.removeItem(atPath: file)
            try pristine.write(to: URL(fileURLWithPath: file))
            let mended = try await server.get(path)
            XCTAssertEqual(mended.status, 200, mended.body)
            let hourly = try XCTUnwrap(mended.object?["hourly"] as? [String: Any])
            let times = try XCTUnwrap(hourly["time"] as? [String])
            let temperatures = try XCTUnwrap(hourly["temperature_2m"] as? [Any])
            XCTAssertEqual(times.count, 48)
            let nulls = zip(times, temperatures).filter { $0.1 is NSNull }.map(\.0)
            XCTAssertEqual(nulls, [], "hours the kept cycles hold answered null")
            let runs = try XCTUnwrap((mended.object?["tilecast"] as? [String: Any])?["cycles"] as? [[String: Any]])
            XCTAssertEqual(runs.count, 9, "\(runs)")

            let open = Self.openCycleFolders(under: store)
            print("kept-cycles: \(open.count) of 16 cycles' folders held open after a past_days=1 request")
            XCTAssertLessThanOrEqual(open.count, 9, "cycles no hour of the request comes from are held open: \(open.sorted())")
        }
    }
}

/// Issue 43 item 7: under best match, a model whose latest cycle cannot be opened may be the
/// finest at the place; answering from another model would hide the damage behind coarser
/// numbers. The server answers 503 naming it, as `tilecast query` without `--model` exits 5,
/// and `/health` says "degraded"; a request naming a model that opens is answered.
final class DamagedModelBestMatchTests: XCTestCase {
    func testADamagedModelIsA503UnderBestMatchAsTheCommandLineExits5() async throws {
        let directory = try TemporaryDirectory("tilecast-damaged-model")
        let store = directory.path("store")
        let extract = try StoreMaker.run(["extract", Repository.sampleGrids.path, "--store", store, "--quiet"])
        XCTAssertEqual(extract.status, 0, extract.stderr)
        // wrf's latest cycle loses its 3 km nest around Lisbon.
        let folder = try XCTUnwrap(FileManager.default.destinationOfSymbolicLink(atPath: store + "/wrf/2026-11-22T00Z"))
        try FileManager.default.removeItem(atPath: store + "/wrf/" + folder + "/d02.tcs")

        let cli = try StoreMaker.run(["query", "--store", store, "--lat", "38.72", "--lon", "-9.14", "--start", "2026-11-22T06Z", "--hours", "3"])
        XCTAssertEqual(cli.status, 5, cli.stderr)

        try await LiveServer.with(configuration(store)) { server in
            let lisbon = "/v1/forecast?latitude=38.72&longitude=-9.14&hourly=temperature_2m&start_date=2026-11-22&end_date=2026-11-22"
            let best = try await server.get(lisbon)
            XCTAssertEqual(best.status, 503, "best match answered past a damaged model: \(best.body.prefix(300))")
            XCTAssertTrue(best.body.contains("wrf") && best.body.contains("d02.tcs"), best.body)
            XCTAssertFalse(best.body.contains(store), "the server's folder is not shown: \(best.body)")
            let named = try await server.get(lisbon + "&models=mm5")
            XCTAssertEqual(named.status, 200, named.body)
            let health = try await server.get("/health")
            XCTAssertEqual(health.status, 503, health.body)
            XCTAssertEqual(health.object?["status"] as? String, "degraded", health.body)
            XCTAssertTrue(health.body.contains("d02.tcs"), health.body)
            let metrics = try await server.get("/metrics")
            XCTAssertEqual(metrics.status, 200)
        }
    }
}
