import ArgumentParser
import Foundation
import GridGeometry
import ObjectStore
import PointQuery
import TileCastCommandLine
import TileStore

/// `tilecast-remote bench-read` (hidden; Scripts/bench's objstore stage): point forecasts
/// from a remote store against the same forecasts from the local store, in one process, on
/// the same places (seeded), interleaved, so that the ratio holds on a noisy machine.
///
/// O1: each place's first forecast from a freshly opened remote cycle (cold: its blocks are
/// fetched), with the requests and bytes it cost. O2: the same places again (warm: blocks in
/// the cache) against the local store. Prints one JSON object.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "bench-read", shouldDisplay: false)

    @Option var local: String
    @Option var remote: String
    @Option var model: String
    @Option var places: Int = 100
    @Option var rounds: Int = 20
    @Option var seed: UInt64 = 42
    @Option var s3Endpoint: String?
    /// "all": every variable the store answers; "default": the defaults it holds (what a
    /// request without a variable list answers; O1's target is stated for these).
    @Option var variableSet: String = "all"

    func run() throws {
        let opening = Date()
        let client = try ObjectClient(store: remote, endpoint: s3Endpoint)
        let cycle = try RemoteCycle(client: client, model: model)
        let openSeconds = Date().timeIntervalSince(opening)
        let opened = client.statistics
        let localStore = try ForecastStore(root: local, model: model)
        let store = try ForecastStore(root: client.location.description, model: model, opened: cycle.opened)
        let runTimes = store.runTimes
        guard let start = runTimes.first else { throw Failure(.damagedStore, "empty cycle") }
        guard variableSet == "all" || variableSet == "default" else { throw Failure(.badUsage, "--variable-set: all or default") }
        let variables = variableSet == "all" ? store.availableVariables : store.defaultVariables
        let request = ForecastRequest(times: ForecastRequest.hourly(from: start, hours: min(24, runTimes.count - 1)), variables: variables)
        // Places at random grid positions inside each domain (finest first), half and half.
        var generator = SplitMix(state: seed)
        var points: [QueryPoint] = []
        for index in 0..<places {
            let domain = store.domains[index % store.domains.count]
            let m = domain.metadata
            let margin = domain.margin + 1
            let i = margin + Double(generator.next() % 1_000_000) / 1_000_000 * (Double(m.westEast - 1) - 2 * margin)
            let j = margin + Double(generator.next() % 1_000_000) / 1_000_000 * (Double(m.southNorth - 1) - 2 * margin)
            let point = domain.grid.point(at: GridPosition(i: i, j: j))
            points.append(QueryPoint(latitude: point.latitude, longitude: point.longitude))
        }
        let remoteAssembly = AnswerAssembly(forecaster: PointForecaster(store: store), request: request, dailyVariables: [], timeZone: nil)
        let localAssembly = AnswerAssembly(forecaster: PointForecaster(store: localStore), request: request, dailyVariables: [], timeZone: nil)
        var cold: [Double] = [], coldRequests: [Int] = [], coldBytes: [Int] = []
        var failures = 0
        for point in points {
            let before = client.statistics
            let t0 = DispatchTime.now().uptimeNanoseconds
            store.prefetch(latitude: point.latitude, longitude: point.longitude, times: request.times, variables: request.variables ?? [])
            if case .failure = remoteAssembly.answer(point).result { failures += 1 }
            cold.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1000)
            let after = client.statistics
            coldRequests.append(after.requests - before.requests)
            coldBytes.append(after.bytes - before.bytes)
        }
        // Warm: the local store first once (page cache), then both interleaved.
        for point in points { _ = localAssembly.answer(point) }
        var warmRemote: [Double] = [], warmLocal: [Double] = []
        for _ in 0..<rounds {
            for point in points {
                var t0 = DispatchTime.now().uptimeNanoseconds
                _ = remoteAssembly.answer(point)
                warmRemote.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1000)
                t0 = DispatchTime.now().uptimeNanoseconds
                _ = localAssembly.answer(point)
                warmLocal.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1000)
            }
        }
        // Same numbers from both (checked, not assumed).
        var identical = true
        for point in points {
            let a = remoteAssembly.answer(point), b = localAssembly.answer(point)
            if case .success(let x) = a.result, case .success(let y) = b.result { identical = identical && x.provenance == y.provenance && x.times == y.times
                && x.values.mapValues { $0.map(\.bitPattern) } == y.values.mapValues { $0.map(\.bitPattern) } } else { identical = false }
        }
        func pct(_ values: [Double], _ p: Double) -> Double { let s = values.sorted(); return s.isEmpty ? .nan : s[min(s.count - 1, Int(Double(s.count) * p))] }
        func med(_ values: [Int]) -> Int { let s = values.sorted(); return s.isEmpty ? 0 : s[s.count / 2] }
        let result: [String: Any] = [
            "places": places, "rounds": rounds, "variables": request.variables?.count ?? 0, "hours": request.times.count,
            "open_seconds": openSeconds, "open_requests": opened.requests, "open_bytes": opened.bytes,
            "cold_p50_ms": pct(cold, 0.5) / 1000, "cold_p99_ms": pct(cold, 0.99) / 1000,
            "cold_requests_p50": med(coldRequests), "cold_requests_max": coldRequests.max() ?? 0,
            "cold_bytes_p50": med(coldBytes), "cold_bytes_max": coldBytes.max() ?? 0,
            "warm_remote_p50_us": pct(warmRemote, 0.5), "warm_remote_p99_us": pct(warmRemote, 0.99),
            "warm_local_p50_us": pct(warmLocal, 0.5), "warm_local_p99_us": pct(warmLocal, 0.99),
            "failures": failures, "identical": identical,
        ]
        let data = try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys])
        print(String(decoding: data, as: UTF8.self))
    }
}

struct SplitMix {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
