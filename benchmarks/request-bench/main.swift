// The server's own work per forecast request, in process, without HTTP (issue 30, S1): the
// parameters parsed as the route parses them, then `ForecastEngine.respond` (model and cycle
// chosen, the forecast, the JSON written), request after request on one thread. What the
// server spends beside it is SwiftNIO's and Hummingbird's (compare benchmarks/server_bench.py's
// CPU per request). Deterministic work, so `valgrind --tool=callgrind` counts it repeatably
// for before/after figures.
//
//   TILECAST_BENCH=1 swift build -c release --product request-bench
//   .build/release/request-bench STORE TARGETS_FILE ROUNDS
//
// TARGETS_FILE: one request target a line (`/v1/forecast?latitude=...`), as
// benchmarks/server_bench.py's wrk script draws them (benchmarks/request_targets.py writes it).
import Foundation
import TileCastServer

let arguments = CommandLine.arguments
guard arguments.count == 4, let rounds = Int(arguments[3]), rounds > 0,
      let text = try? String(contentsOfFile: arguments[2], encoding: .utf8) else {
    FileHandle.standardError.write(Data("usage: request-bench STORE TARGETS_FILE ROUNDS\n".utf8))
    exit(2)
}
let targets = text.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
let engine = ForecastEngine(cycles: CycleCache(root: arguments[1]))
let now = Int64(Date().timeIntervalSince1970)

var parseNanoseconds: [UInt64] = []
var respondNanoseconds: [UInt64] = []
var bytes = 0
for _ in 0..<rounds {
    for target in targets {
        let t0 = DispatchTime.now().uptimeNanoseconds
        let parameters: ForecastParameters
        do { parameters = try ForecastServer.parameters(target: target, formBody: nil) } catch {
            FileHandle.standardError.write(Data("request-bench: \(target): \(error.reason)\n".utf8))
            exit(1)
        }
        let t1 = DispatchTime.now().uptimeNanoseconds
        do { bytes += try engine.respond(parameters, now: now).body.count } catch {
            FileHandle.standardError.write(Data("request-bench: \(target): \(error.reason)\n".utf8))
            exit(1)
        }
        let t2 = DispatchTime.now().uptimeNanoseconds
        parseNanoseconds.append(t1 - t0)
        respondNanoseconds.append(t2 - t1)
    }
}

func percentile(_ values: [UInt64], _ p: Double) -> Double {
    let sorted = values.sorted()
    return Double(sorted[min(sorted.count - 1, Int(p * Double(sorted.count)))]) / 1000
}
let count = parseNanoseconds.count
print(String(format: "requests %d, answer bytes %.0f a request", count, Double(bytes) / Double(count)))
print(String(format: "parse   p50 %.2f us, p99 %.2f us", percentile(parseNanoseconds, 0.5), percentile(parseNanoseconds, 0.99)))
print(String(format: "respond p50 %.2f us, p99 %.2f us", percentile(respondNanoseconds, 0.5), percentile(respondNanoseconds, 0.99)))
