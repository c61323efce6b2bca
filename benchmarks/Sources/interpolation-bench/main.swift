// interpolation-bench: B1 and B2 of SPEC section 7 in one process.
//
//   interpolation-bench --label portable|fast --data-dir DIR [--swift-flags TEXT]
//                       [--runs N] [--points N] [--chunks N] [--quick]
//
// Times Swift scalar, Swift SIMD, the C reference kernel and Swift SIMD on all cores on the
// same seeded inputs, checks they wrote the same bits, and writes bench-LABEL.json and
// bench-LABEL.md to DIR, plus the B1 inputs (field.f32, positions.f64, meta.json) and the
// Swift output (swift-LABEL.f32) for benchmarks/numpy_kernel.py. Scripts/bench runs it.

import CKernel
import Foundation
import Interpolation

struct Options {
    var label = "portable"
    var dataDirectory = URL(fileURLWithPath: "benchmarks/data")
    var swiftFlags = "-c release"
    var runs = 21
    var points = 100_000
    var chunks: Int?
    var quick = false

    init(_ arguments: [String]) throws {
        var rest = arguments.dropFirst()
        func value(_ flag: String) throws -> String {
            guard let v = rest.popFirst() else { throw UsageError(message: "\(flag) needs a value") }
            return v
        }
        func number(_ flag: String) throws -> Int {
            let text = try value(flag)
            guard let n = Int(text), n >= 1 else { throw UsageError(message: "\(flag) expects a positive integer, got '\(text)'") }
            return n
        }
        while let flag = rest.popFirst() {
            switch flag {
            case "--label": label = try value(flag)
            case "--data-dir": dataDirectory = URL(fileURLWithPath: try value(flag))
            case "--swift-flags": swiftFlags = try value(flag)
            case "--runs": runs = try number(flag)
            case "--points": points = try number(flag)
            case "--chunks": chunks = try number(flag)
            case "--quick": quick = true
            default: throw UsageError(message: "unknown argument '\(flag)'")
            }
        }
    }
}

struct UsageError: Error { var message: String }

let seed: UInt64 = 0x7113_CA57_2026_1122

func main() throws {
    let options = try Options(CommandLine.arguments)
    // The C kernel reads the positions as (i, j) Double pairs.
    guard MemoryLayout<FractionalIndex>.stride == 16, MemoryLayout<FractionalIndex>.offset(of: \.j) == 8 else {
        throw UsageError(message: "FractionalIndex is not two packed Doubles; the C kernel cannot share it")
    }
    let runs = options.quick ? 3 : options.runs
    let points = options.quick ? min(options.points, 20_000) : options.points
    let cores = ProcessInfo.processInfo.activeProcessorCount
    let chunks = options.chunks ?? 4 * cores  // the kernel's own default
    let before = loadAverage()
    func log(_ text: String) { FileHandle.standardError.write(Data((text + "\n").utf8)) }

    log("[\(options.label)] B1: \(points) points x 73 steps on 150 x 130, \(runs) runs")
    let b1Workload = Workload(westEast: 150, southNorth: 130, steps: 73, points: points, seed: seed)
    let cpuScaling = cpuScalingProbe()
    let sample = CPUSample.now()
    let (b1, b1Output) = try measure(b1Workload, runs: runs, chunks: chunks)
    let othersDuringB1 = CPUSample.now().othersShare(since: sample, cores: cores)
    try b1Workload.write(to: options.dataDirectory)
    try writeRaw(b1Output, to: options.dataDirectory.appendingPathComponent("swift-\(options.label).f32"))
    log(kernelTable(b1))

    // The growth curves use the same number of points and rounds as B1: with fewer, the
    // medians of this shared machine wandered by 10-20 % between runs.
    let growthRuns = runs
    let sizes = options.quick ? [100, 250] : [100, 250, 500, 1000]
    var growthGrid = [WorkloadFigures]()
    for n in sizes {
        log("[\(options.label)] growth: \(n) x \(n) x 73")
        let w = Workload(westEast: n, southNorth: n, steps: 73, points: points, seed: seed &+ UInt64(n))
        growthGrid.append(try measure(w, runs: growthRuns, chunks: chunks).0)
    }
    var growthSteps = [WorkloadFigures]()
    for steps in [24, 73, 181] {
        log("[\(options.label)] growth: 150 x 130 x \(steps)")
        let w = Workload(westEast: 150, southNorth: 130, steps: steps, points: points, seed: seed &+ UInt64(steps) << 32)
        growthSteps.append(try measure(w, runs: growthRuns, chunks: chunks).0)
    }

    let report = BuildReport(
        label: options.label, swiftFlags: options.swiftFlags, cHasAVX2: ck_compiled_with_avx2() != 0,
        cFPContract: ck_fp_contract_enabled() != 0, activeProcessors: cores, chunks: chunks, runs: runs, seed: seed,
        loadAverageBefore: before, loadAverageAfter: loadAverage(), othersDuringB1: othersDuringB1, cpuScaling: cpuScaling, b1: b1,
        growthGrid: growthGrid, growthSteps: growthSteps)
    try writeReport(report, to: options.dataDirectory)
    print(markdown(report))
    let mismatches = ([b1] + growthGrid + growthSteps).flatMap { $0.differingValues.values }.reduce(0, +)
    if mismatches > 0 {
        log("[\(options.label)] kernels disagree: \(mismatches) values differ from the Swift SIMD output")
        exit(1)
    }
}

do {
    try main()
} catch let error as UsageError {
    FileHandle.standardError.write(Data("interpolation-bench: \(error.message)\n".utf8))
    exit(2)
} catch {
    FileHandle.standardError.write(Data("interpolation-bench: \(error)\n".utf8))
    exit(1)
}
