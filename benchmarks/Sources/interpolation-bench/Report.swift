// The benchmark's own outputs: one JSON document (read by benchmarks/report.py) and one
// Markdown fragment per build.

import Foundation

/// Everything one build measured.
struct BuildReport: Codable {
    /// "portable" or "fast", as Scripts/bench names the build.
    var label: String
    /// The Swift compiler flags Scripts/bench says it used (for the record).
    var swiftFlags: String
    /// True when the C kernel was compiled with AVX2 (-march=native on this machine).
    var cHasAVX2: Bool
    /// True when the C kernel may fuse multiply-adds (it must not; see ckernel.c).
    var cFPContract: Bool
    var activeProcessors: Int
    /// Pieces the concurrent batch cuts the points into.
    var chunks: Int
    var runs: Int
    var seed: UInt64
    var loadAverageBefore: String
    var loadAverageAfter: String
    /// Share of all cores other processes (and other guests, as steal) used while B1 ran;
    /// nil where /proc/stat is absent.
    var othersDuringB1: Double?
    /// Speed-up of pure CPU work (busy-wait chunks, no memory traffic) on all cores over one,
    /// measured just before B1: what the machine itself gave; B2 cannot exceed it.
    var cpuScaling: Double
    /// B1: 100,000 points x 73 steps on 150 x 130 cells.
    var b1: WorkloadFigures
    /// B1 over grid sizes at 73 steps.
    var growthGrid: [WorkloadFigures]
    /// B1 over time lengths at 150 x 130 cells.
    var growthSteps: [WorkloadFigures]
}

func loadAverage() -> String {
    (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?
        .split(separator: " ").prefix(3).joined(separator: " ") ?? "unknown"
}

private func format(_ x: Double, _ digits: Int = 2) -> String {
    x.isFinite ? String(format: "%.\(digits)f", x) : "n/a"
}

/// Values per second in millions, with ratio columns, one row per kernel.
func kernelTable(_ w: WorkloadFigures) -> String {
    var lines = ["| kernel | median ms | min ms | Mvalues/s | vs C | vs Swift scalar | same bits as SIMD |",
                 "|---|---:|---:|---:|---:|---:|---|"]
    for name in KernelName.allCases {
        guard let k = w.figures(name) else { continue }
        let differing = w.differingValues[name.rawValue] ?? -1
        lines.append("| \(name.title) | \(format(k.medianSeconds * 1e3, 3)) | \(format(k.minSeconds * 1e3, 3)) | "
            + "\(format(k.valuesPerSecond / 1e6, 0)) | \(format(w.ratio(name, .cReference))) | "
            + "\(format(w.ratio(name, .swiftScalar))) | \(differing == 0 ? "yes" : "no (\(differing) differ)") |")
    }
    return lines.joined(separator: "\n")
}

/// One row per workload of a growth curve: throughput per kernel and the key ratios.
func growthTable(_ rows: [WorkloadFigures]) -> String {
    var lines = ["| grid | steps | field MB | scalar Mv/s | SIMD Mv/s | C Mv/s | all cores Mv/s | SIMD / C | all cores / SIMD |",
                 "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for w in rows {
        let mb = Double(w.westEast * w.southNorth * w.steps * 4) / 1e6
        let v = { (n: KernelName) in format((w.figures(n)?.valuesPerSecond ?? .nan) / 1e6, 0) }
        lines.append("| \(w.westEast) x \(w.southNorth) | \(w.steps) | \(format(mb, 1)) | \(v(.swiftScalar)) | "
            + "\(v(.swiftSIMD)) | \(v(.cReference)) | \(v(.swiftConcurrent)) | "
            + "\(format(w.ratio(.swiftSIMD, .cReference))) | \(format(w.ratio(.swiftConcurrent, .swiftSIMD))) |")
    }
    return lines.joined(separator: "\n")
}

func markdown(_ r: BuildReport) -> String {
    """
    ### Build `\(r.label)`: Swift `\(r.swiftFlags)`, C `-O3\(r.cHasAVX2 ? " -march=native" : "")` \
    (AVX2 in C: \(r.cHasAVX2 ? "yes" : "no"), FMA contraction in C: \(r.cFPContract ? "on" : "off"))

    B1: \(r.b1.points) points x \(r.b1.steps) steps on \(r.b1.westEast) x \(r.b1.southNorth) cells, \
    median of \(r.runs) interleaved runs; all cores = \(r.activeProcessors) active processors, \(r.chunks) chunks; \
    other processes used \(r.othersDuringB1.map { format($0 * 100, 1) + " %" } ?? "an unknown share") of the \
    machine while B1 ran; pure CPU work ran \(format(r.cpuScaling))x faster on all cores than on one just before (load average \(r.loadAverageBefore) before, \(r.loadAverageAfter) after).

    \(kernelTable(r.b1))

    Growth over grid size (\(r.b1.points) points, 73 steps):

    \(growthTable(r.growthGrid))

    Growth over time length (\(r.b1.points) points, \(r.b1.westEast) x \(r.b1.southNorth) cells):

    \(growthTable(r.growthSteps))

    """
}

func writeReport(_ r: BuildReport, to directory: URL) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    try encoder.encode(r).write(to: directory.appendingPathComponent("bench-\(r.label).json"))
    try Data(markdown(r).utf8).write(to: directory.appendingPathComponent("bench-\(r.label).md"))
}
