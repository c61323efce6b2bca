// Timing: every kernel of a workload runs once per round, rounds repeat, and each kernel's
// figure is the median over rounds. Interleaving the kernels spreads any slow spell of the
// shared machine over all of them instead of penalising whichever ran during it.

import CKernel
import Dispatch
import Foundation
import Interpolation

/// The timed figures of one kernel on one workload.
struct KernelFigures: Codable {
    var kernel: String
    var medianSeconds: Double
    var minSeconds: Double
    var maxSeconds: Double
    var runs: Int
    var valuesPerSecond: Double
}

/// The kernels B1 compares, in report order.
enum KernelName: String, CaseIterable, Codable {
    case swiftScalar = "swift_scalar"
    case swiftSIMD = "swift_simd"
    case cReference = "c_reference"
    case swiftConcurrent = "swift_simd_concurrent"

    var title: String {
        switch self {
        case .swiftScalar: return "Swift scalar reference loop, 1 thread"
        case .swiftSIMD: return "Swift SIMD8, 1 thread"
        case .cReference: return "C reference kernel, 1 thread"
        case .swiftConcurrent: return "Swift SIMD8, all cores (concurrentPerform)"
        }
    }
}

/// What one workload measured, and whether every kernel wrote the same bits.
struct WorkloadFigures: Codable {
    var westEast: Int
    var southNorth: Int
    var steps: Int
    var points: Int
    var kernels: [KernelFigures]
    /// Values differing from the Swift SIMD output, per kernel (NaN equals NaN): 0 means the
    /// same bits, so the kernels did the same work.
    var differingValues: [String: Int]

    func figures(_ name: KernelName) -> KernelFigures? {
        kernels.first { $0.kernel == name.rawValue }
    }

    /// Throughput of `a` over `b`.
    func ratio(_ a: KernelName, _ b: KernelName) -> Double {
        guard let x = figures(a), let y = figures(b) else { return .nan }
        return x.valuesPerSecond / y.valuesPerSecond
    }
}

private func seconds(_ d: Duration) -> Double {
    let c = d.components
    return Double(c.seconds) + Double(c.attoseconds) * 1e-18
}

/// Runs every kernel on `workload` for one untimed warm-up round and `runs` timed rounds,
/// then once more each into a buffer of its own to check they wrote the same bits.
///
/// During timing all kernels write into one shared output buffer, allocated once: a caller
/// reuses its buffer too, and it keeps the comparison fair (no kernel finds its output
/// lines in cache while another finds them cold).
/// - Returns: the figures and the SIMD output (for numpy to check against).
func measure(_ workload: Workload, runs: Int, chunks: Int?) throws -> (WorkloadFigures, [Float]) {
    let count = workload.values
    var times = [KernelName: [Double]]()
    var reference = [Float](repeating: 0, count: count)
    var differing = [String: Int]()
    let clock = ContinuousClock()

    try workload.field.withUnsafeBufferPointer { field in
        let kernel = try BilinearKernel(field: field, westEast: workload.westEast,
                                        southNorth: workload.southNorth, steps: workload.steps)
        var shared = [Float](repeating: 0, count: count)
        shared.withUnsafeMutableBufferPointer { out in
            for round in 0...runs {
                for name in KernelName.allCases {
                    let elapsed = clock.measure {
                        run(name, kernel: kernel, workload: workload, field: field, into: out, chunks: chunks)
                    }
                    if round > 0 { times[name, default: []].append(seconds(elapsed)) }
                }
            }
        }
        reference.withUnsafeMutableBufferPointer { out in
            run(.swiftSIMD, kernel: kernel, workload: workload, field: field, into: out, chunks: chunks)
        }
        for name in KernelName.allCases {
            shared.withUnsafeMutableBufferPointer { out in
                out.update(repeating: -12345)  // a row left unwritten would show
                run(name, kernel: kernel, workload: workload, field: field, into: out, chunks: chunks)
            }
            differing[name.rawValue] = zip(shared, reference).reduce(into: 0) { n, pair in
                if !(pair.0.isNaN && pair.1.isNaN) && pair.0.bitPattern != pair.1.bitPattern { n += 1 }
            }
        }
    }

    var kernels = [KernelFigures]()
    for name in KernelName.allCases {
        let sorted = (times[name] ?? []).sorted()
        let median = sorted.isEmpty ? .nan
            : sorted.count % 2 == 1 ? sorted[sorted.count / 2]
            : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        kernels.append(KernelFigures(kernel: name.rawValue, medianSeconds: median, minSeconds: sorted.first ?? .nan,
                                     maxSeconds: sorted.last ?? .nan, runs: sorted.count,
                                     valuesPerSecond: Double(count) / median))
    }
    let figures = WorkloadFigures(westEast: workload.westEast, southNorth: workload.southNorth, steps: workload.steps,
                                  points: workload.positions.count, kernels: kernels, differingValues: differing)
    return (figures, reference)
}

private func run(
    _ name: KernelName, kernel: BilinearKernel, workload: Workload, field: UnsafeBufferPointer<Float>,
    into out: UnsafeMutableBufferPointer<Float>, chunks: Int?
) {
    switch name {
    case .swiftScalar:
        kernel.interpolate(workload.positions, into: out, path: .scalar)
    case .swiftSIMD:
        kernel.interpolate(workload.positions, into: out, path: .simd)
    case .swiftConcurrent:
        kernel.interpolateConcurrently(workload.positions, into: out, path: .simd, chunks: chunks)
    case .cReference:
        // FractionalIndex is two Doubles (i, j): the C kernel reads the same memory as pairs.
        workload.positions.withUnsafeBufferPointer { points in
            points.withMemoryRebound(to: Double.self) { pairs in
                ck_interpolate(field.baseAddress, workload.westEast, workload.southNorth, workload.steps,
                               pairs.baseAddress, points.count, out.baseAddress)
            }
        }
    }
}
