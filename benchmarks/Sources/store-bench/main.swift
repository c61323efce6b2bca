// B3 of SPEC section 7: point forecasts from the on-disk store, warm page cache, in process.
// Random seeded places over the coarsest domain (so both d01 and d02 answer), 24 hourly
// times x the default variables each (or, with `all`, every variable the store answers; with
// `probability`, the default variables and precipitation_probability, issue 46's B3 figure).
// Prints one JSON object for the report.
//
// Usage: store-bench STORE MODEL [places] [all|probability]
import Catalog
import Dispatch
import Foundation
import GridGeometry
import PointQuery
import TileStore

struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

func percentile(_ sorted: [Double], _ p: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    FileHandle.standardError.write(Data("usage: store-bench STORE MODEL [places] [all|probability]\n".utf8))
    exit(2)
}
let count = arguments.count > 3 ? Int(arguments[3]) ?? 20_000 : 20_000
let store = try ForecastStore(root: arguments[1], model: arguments[2])
guard let outer = store.domains.last, outer.metadata.times.count > 30 else { exit(2) }
var random = SplitMix64(state: 0x7113_CA57_2026_1122)
let start = outer.metadata.times[6]
// `all`: every variable the store answers (issue 11's included), else the default set.
let everyVariable = arguments.count > 4 && arguments[4] == "all"
let withProbability = arguments.count > 4 && arguments[4] == "probability"
let variables: [ForecastVariable]? = everyVariable
    ? ForecastVariable.outputs.filter { (try? store.resolveVariables(requested: [$0], daily: [])) != nil }
    : withProbability ? ForecastVariable.defaults + [.precipitationProbability] : nil
let request = ForecastRequest(times: ForecastRequest.hourly(from: start, hours: 24), variables: variables)
// Stored variables a forecast reads, for the blocks-per-forecast figure.
let storedRead = (try? store.resolveVariables(requested: variables, daily: []))
    .map { Set($0.flatMap(\.sources)).count } ?? 14
let points: [QueryPoint] = (0..<count).map { _ in
    let position = GridPosition(i: Double.random(in: 1...Double(outer.metadata.westEast - 2), using: &random),
                                j: Double.random(in: 1...Double(outer.metadata.southNorth - 2), using: &random))
    let point = outer.grid.point(at: position)
    return QueryPoint(latitude: point.latitude, longitude: point.longitude)
}
let forecaster = PointForecaster(store: store)

// Warm the page cache and the readers' checksum records: B3 is a warm-cache figure.
var domains: [String: Int] = [:]
var blocksTouched = 0
for point in points {
    guard let forecast = try? forecaster.forecast(point, request: request) else { continue }
    domains[forecast.provenance.domain, default: 0] += 1
    // Blocks one forecast reads: distinct tiles among the four corner cells, per stored variable.
    let tile = { (i: Int, j: Int) in (i / 8, j / 8) }
    let i0 = Int(forecast.provenance.gridI), j0 = Int(forecast.provenance.gridJ)
    let tiles = Set([tile(i0, j0), tile(i0 + 1, j0), tile(i0, j0 + 1), tile(i0 + 1, j0 + 1)].map { "\($0.0),\($0.1)" })
    blocksTouched += tiles.count * storedRead
}

// Latency, one thread, every place once.
var latencies: [Double] = []
latencies.reserveCapacity(points.count)
for point in points {
    let begin = DispatchTime.now().uptimeNanoseconds
    _ = try? forecaster.forecast(point, request: request)
    latencies.append(Double(DispatchTime.now().uptimeNanoseconds - begin) / 1000)
}
latencies.sort()

// Throughput: one thread, then all cores; medians of 5 runs.
func throughput(_ body: () -> Void) -> Double {
    var rates: [Double] = []
    for _ in 0..<5 {
        let begin = DispatchTime.now().uptimeNanoseconds
        body()
        rates.append(Double(points.count) / (Double(DispatchTime.now().uptimeNanoseconds - begin) / 1e9))
    }
    return rates.sorted()[2]
}
let serial = throughput { for point in points { _ = try? forecaster.forecast(point, request: request) } }
let parallel = throughput { _ = forecaster.forecast(points, request: request) }
// The readers' block caches over the whole run (pread path; the warm-up above is their misses).
let hits = store.domains.reduce(0) { $0 + $1.reader.cacheStatistics.hits }
let misses = store.domains.reduce(0) { $0 + $1.reader.cacheStatistics.misses }
let sizes = store.domains.map { Double($0.reader.fileSize) / Double($0.metadata.variables.count * $0.metadata.tileCount) }
let result: [String: Any] = [
    "places": points.count, "domains": domains, "p50_us": percentile(latencies, 0.5), "p90_us": percentile(latencies, 0.9),
    "p99_us": percentile(latencies, 0.99), "serial_per_s": serial, "all_cores_per_s": parallel,
    "cores": ProcessInfo.processInfo.activeProcessorCount, "blocks_per_forecast": Double(blocksTouched) / Double(points.count),
    "mean_block_bytes": sizes.reduce(0, +) / Double(sizes.count),
    "cache_hit_rate": Double(hits) / Double(max(hits + misses, 1)), "cache_misses": misses,
    "variables": (try? store.resolveVariables(requested: variables, daily: []))?.count ?? 0,
]
let json = try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys])
print(String(decoding: json, as: UTF8.self))
