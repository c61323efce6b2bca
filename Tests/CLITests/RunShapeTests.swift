import Foundation
import TestSupport
import XCTest

/// Run shapes centres write (Scripts/make_nested_runs.py): three levels of nesting with ratios
/// that differ, and one file per output time. Answers are checked against the files' own values
/// read with netCDF4-python, never against the engine.
final class RunShapeTests: XCTestCase {
    private var directory: TemporaryDirectory!
    override func setUpWithError() throws { directory = try TemporaryDirectory() }

    private func run(_ arguments: [String]) throws -> ToolOutput {
        try runTool("timeout", ["-k", "5", "120", try tilecastBinary()] + arguments)
    }

    private func folder(_ name: String) -> String {
        Repository.sampleGrids.appendingPathComponent("nested-runs/\(name)").path
    }

    /// A node's coordinates, T2 (°C) and accumulated precipitation (mm) at a frame, from the file.
    private struct Node { let latitude: Double, longitude: Double, celsius: Double, total: Double }

    private func nodes(_ requests: [(file: String, i: Int, j: Int, frame: Int)]) throws -> [Node] {
        let check = try runTool("python3", ["-c", "import numpy, netCDF4"])
        try XCTSkipIf(check.status != 0, "python3 with numpy and netCDF4 is needed for the reference: \(check.stderr)")
        let script = """
        import sys, netCDF4
        for arg in sys.argv[1:]:
            path, i, j, k = arg.rsplit(":", 3)
            i, j, k = int(i), int(j), int(k)
            with netCDF4.Dataset(path) as ds:
                v = lambda n: float(ds[n][k, j, i])
                total = sum(v(n) for n in ("RAINC", "RAINNC", "RAINSH") if n in ds.variables)
                print(f"{v('XLAT')!r},{v('XLONG')!r},{v('T2') - 273.15!r},{total!r}")
        """
        let result = try runTool("python3", ["-c", script] + requests.map { "\($0.file):\($0.i):\($0.j):\($0.frame)" })
        XCTAssertEqual(result.status, 0, result.stderr)
        let rows = result.stdout.split(separator: "\n").map { $0.split(separator: ",").compactMap { Double($0) } }
        XCTAssertEqual(rows.map(\.count), requests.map { _ in 4 }, result.stdout)
        return rows.filter { $0.count == 4 }.map { Node(latitude: $0[0], longitude: $0[1], celsius: $0[2], total: $0[3]) }
    }

    /// One place at one time: (domain, temperature, precipitation) from `tilecast query`'s CSV.
    private func query(_ store: String, _ node: Node, at time: String) throws -> (domain: String, celsius: Double, precipitation: Double) {
        let result = try run(["query", "--store", store, "--lat", String(node.latitude), "--lon", String(node.longitude),
                              "--time", time, "--variables", "temperature_2m,precipitation", "--format", "csv"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdout.split(separator: "\n")
        let header = lines.first?.split(separator: ",").map(String.init) ?? []
        let row = lines.dropFirst().first?.split(separator: ",", omittingEmptySubsequences: false).map(String.init) ?? []
        func field(_ name: String) -> String { header.firstIndex(of: name).map { $0 < row.count ? row[$0] : "" } ?? "" }
        return (field("domain"), Double(field("temperature_2m")) ?? .nan, Double(field("precipitation")) ?? .nan)
    }

    /// The finest domain whose interior holds the place answers, at every level; a place in a
    /// nest's edge margin (5 cells) goes to the next coarser level.
    func testThreeLevelsOfNestingWithDifferentRatios() throws {
        let run3 = folder("three-level")
        let store = directory.path("store")
        let extracted = try run(["extract", run3, "--store", store, "--quiet"])
        XCTAssertEqual(extracted.status, 0, extracted.stderr)
        XCTAssertTrue(extracted.stdout.contains("3 domains (d01, d02, d03)"), extracted.stdout)
        let file = { (domain: Int) in run3 + "/wrfout_d0\(domain)_2026-11-22_00:00:00" }
        let cases: [(file: String, i: Int, j: Int, answeredBy: String)] = [
            (file(3), 10, 10, "d03"),   // the centre of the 1.8 km nest
            (file(3), 2, 10, "d02"),    // in d03's edge margin, deep inside d02
            (file(2), 12, 12, "d02"),   // inside d02, outside d03
            (file(2), 2, 9, "d01"),     // in d02's edge margin
            (file(1), 10, 8, "d01"),    // outside every nest
        ]
        let reference = try nodes(cases.map { ($0.file, $0.i, $0.j, 1) })
        for (place, node) in zip(cases, reference) {
            let answer = try query(store, node, at: "2026-11-22T01:00Z")
            XCTAssertEqual(answer.domain, place.answeredBy, "node (\(place.i), \(place.j)) of \(place.file)")
            if place.file.contains("_d0\(place.answeredBy.last.map(String.init) ?? "")_") {
                // On its own domain's node: that node's value (0.05 K stored, 2 decimals printed).
                XCTAssertEqual(answer.celsius, node.celsius, accuracy: 0.06, "T2 at node (\(place.i), \(place.j)) of \(place.file)")
            }
        }
    }

    /// frames_per_outfile = 1: 25 files per domain are one run of 25 frames; each hour's value
    /// is its own file's, and each hour's precipitation the difference of two files' totals.
    func testOneFilePerOutputTime() throws {
        let hourly = folder("hourly-files")
        let store = directory.path("store")
        let extracted = try run(["extract", hourly, "--store", store, "--quiet"])
        XCTAssertEqual(extracted.status, 0, extracted.stderr)
        XCTAssertTrue(extracted.stdout.contains("2 domains (d01, d02), 50 files, 50 frames"), extracted.stdout)
        let inspect = try run(["inspect", store])
        XCTAssertTrue(inspect.stdout.contains("d01  10 x 8 at 15 km, 25 frames"), inspect.stdout)
        XCTAssertTrue(inspect.stdout.contains("d02  15 x 15 at 5 km, 25 frames"), inspect.stdout)
        for hour in [1, 13, 23] {
            let name = { (h: Int) in hourly + String(format: "/wrfout_d02_2026-11-22_%02d:00:00", h) }
            let reference = try nodes([(name(hour), 7, 7, 0), (name(hour - 1), 7, 7, 0)])
            let answer = try query(store, reference[0], at: String(format: "2026-11-22T%02d:00Z", hour))
            XCTAssertEqual(answer.domain, "d02")
            XCTAssertEqual(answer.celsius, reference[0].celsius, accuracy: 0.06, "hour \(hour)")
            XCTAssertEqual(answer.precipitation, reference[0].total - reference[1].total, accuracy: 0.1, "hour \(hour)")
        }
    }

    /// A nest that follows a storm, moving by whole parent cells: stored on the grid covering
    /// its track, it answers a place only where it held the place at both frames around the
    /// time; the parent answers elsewhere. 500 seeded places at half-hour times (T2) and at
    /// frame times (the hour's precipitation, which needs the totals to follow the moves),
    /// against Scripts/moving_nest_reference.py: pyproj and numpy on each frame's own XLAT/XLONG.
    func testMovingNestAgainstPerFrameReference() throws {
        try checkMovingNest(folder("moving-nest"), margin: 5)
    }

    /// The real vortex-following nest of the shared samples (Katrina, 2005, Mercator), alone:
    /// where it did not hold a place at both frames, nothing does (exit 4 for those places).
    func testRealMovingNestAgainstPerFrameReference() throws {
        try checkMovingNest(try Repository.sharedSample("ci_test_file.nc"), margin: 0)
    }

    private func checkMovingNest(_ input: String, margin: Int) throws {
        let store = directory.path("store")
        let extracted = try run(["extract", input, "--store", store, "--quiet"])
        XCTAssertEqual(extracted.status, 0, extracted.stderr)
        let check = try runTool("python3", ["-c", "import numpy, netCDF4, pyproj"])
        try XCTSkipIf(check.status != 0, "python3 with numpy, netCDF4 and pyproj is needed for the reference: \(check.stderr)")
        let script = Repository.root.appendingPathComponent("Scripts/moving_nest_reference.py").path
        for (mode, variable, tolerance) in [([String](), "temperature_2m", 0.06), (["--precipitation"], "precipitation", 0.1)] {
            let reference = try runTool("python3", [script, input, "--places", "500", "--seed", "20261122", "--margin", String(margin)] + mode)
            XCTAssertEqual(reference.status, 0, reference.stderr)
            let rows = reference.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
            XCTAssertEqual(rows.count, 500)
            let answered = rows.filter { $0[3] != "none" }, unanswered = rows.count - answered.count
            let points = directory.path("points-\(variable).csv")
            try (["latitude,longitude,time"] + rows.map { $0[0...2].joined(separator: ",") }).joined(separator: "\n")
                .write(toFile: points, atomically: true, encoding: .utf8)
            let answer = try run(["query", "--store", store, "--points", points, "--variables", variable, "--format", "csv"])
            // Places nothing holds are left out, counted on stderr, and make the exit code 4.
            XCTAssertEqual(answer.status, unanswered == 0 ? 0 : 4, answer.stderr)
            if unanswered > 0 { XCTAssertTrue(answer.stderr.contains("\(unanswered) of 500 places had no forecast"), answer.stderr) }
            let lines = answer.stdout.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
            let header = lines.first ?? []
            guard let domainColumn = header.firstIndex(of: "domain"), let valueColumn = header.firstIndex(of: variable) else {
                return XCTFail(answer.stdout)
            }
            XCTAssertEqual(lines.count - 1, answered.count)
            var nest = 0, worst = 0.0
            for (row, line) in zip(answered, lines.dropFirst()) {
                XCTAssertEqual(line[domainColumn], row[3], "\(variable) at \(row[0]), \(row[1]), \(row[2])")
                let value = Double(line[valueColumn]) ?? .nan, expected = Double(row[4]) ?? .nan
                XCTAssertEqual(value, expected, accuracy: tolerance, "\(variable) at \(row[0]), \(row[1]), \(row[2]) from \(row[3])")
                if row[3] == "d02" { nest += 1 }
                worst = max(worst, abs(value - expected))
            }
            print("moving nest \((input as NSString).lastPathComponent), \(variable): \(nest) of \(rows.count) answers from the nest, \(unanswered) from none, worst difference \(worst)")
            XCTAssertGreaterThan(nest, 50, "the reference must put many places in the nest")
            XCTAssertGreaterThan(rows.count - nest, 50, "and many outside it")
        }
    }

    /// The real moving nest's sea-level pressure, made frame by frame from its own 3-D fields
    /// where it was: at seeded nodes of each frame's grid, against wrf-python's slp as
    /// Scripts/slp_reference.py computes it on that frame. A node the nest did not also hold
    /// at the frame before is answered by nothing (the nest alone): counted, not compared.
    func testRealMovingNestSeaLevelPressureAtItsNodes() throws {
        let input = try Repository.sharedSample("ci_test_file.nc")
        let check = try runTool("python3", ["-c", "import numpy, netCDF4"])
        try XCTSkipIf(check.status != 0, "python3 with numpy and netCDF4 is needed for the reference: \(check.stderr)")
        let store = directory.path("store")
        let extracted = try run(["extract", input, "--store", store, "--quiet"])
        XCTAssertEqual(extracted.status, 0, extracted.stderr)
        let script = """
        import sys, datetime as dt, numpy as np, netCDF4
        sys.path.insert(0, sys.argv[1])
        from slp_reference import slp_numpy
        nc = netCDF4.Dataset(sys.argv[2])
        nc.set_auto_mask(False)
        times = [b"".join(t).decode() for t in nc["Times"][:]]
        rng = np.random.default_rng(20261122)
        print("latitude,longitude,time,pressure_msl")
        for frame in range(1, len(times)):
            slp = slp_numpy(nc, frame)
            for _ in range(100):
                j, i = int(rng.integers(0, slp.shape[0])), int(rng.integers(0, slp.shape[1]))
                when = dt.datetime.strptime(times[frame], "%Y-%m-%d_%H:%M:%S").strftime("%Y-%m-%dT%H:%MZ")
                # To 4 decimals, as answers print places (about 10 m: a thousandth of a cell here).
                print(f"{float(nc['XLAT'][frame, j, i]):.4f},{float(nc['XLONG'][frame, j, i]):.4f},{when},{float(slp[j, i]):.4f}")
        """
        let reference = try runTool("python3", ["-c", script, Repository.root.appendingPathComponent("Scripts").path, input])
        XCTAssertEqual(reference.status, 0, reference.stderr)
        let rows = reference.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: ",").map(String.init) }
        XCTAssertEqual(rows.count, 300)
        // One query for every node; the answer's rows carry their place and time (exact, as given).
        let points = directory.path("nodes.csv")
        try (["latitude,longitude,time"] + rows.map { $0[0...2].joined(separator: ",") }).joined(separator: "\n")
            .write(toFile: points, atomically: true, encoding: .utf8)
        let answer = try run(["query", "--store", store, "--points", points, "--variables", "pressure_msl", "--format", "csv"])
        XCTAssertTrue(answer.status == 0 || answer.status == 4, answer.stderr)
        func key(_ fields: [String]) -> String {
            String(format: "%.4f,%.4f,", Double(fields[0]) ?? .nan, Double(fields[1]) ?? .nan) + fields[2]
        }
        var answered: [String: Double] = [:]
        for line in answer.stdout.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: ",").map(String.init)
            answered[key(fields)] = Double(fields.last ?? "")
        }
        var compared = 0, worst = 0.0
        for row in rows {
            guard let value = answered[key(row)] else { continue }
            let expected = Double(row[3]) ?? .nan
            XCTAssertEqual(value, expected, accuracy: 0.11, "pressure_msl at \(row[0]), \(row[1]), \(row[2])")
            worst = max(worst, abs(value - expected))
            compared += 1
        }
        print("moving nest pressure_msl vs wrf-python slp: \(compared) of \(rows.count) nodes compared, worst \(worst) hPa")
        XCTAssertGreaterThan(compared, 150)
    }
}
