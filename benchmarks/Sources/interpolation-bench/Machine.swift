// How busy the machine was with other work while we measured: the CPU time every process
// used (/proc/stat) minus the CPU time this process used (CLOCK_PROCESS_CPUTIME_ID), as a share of all
// cores over the interval. The machine is shared; this figure says whether a run can be
// trusted, the all-cores one (B2) above all.

import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif

struct CPUSample {
    /// Busy time of all processes on all cores, in seconds (nil where /proc/stat is absent).
    var allBusy: Double?
    /// Of which stolen by the hypervisor for other guests.
    var steal: Double?
    /// This process's user + system time, in seconds.
    var own: Double
    var wall: ContinuousClock.Instant

    static func now() -> CPUSample {
        var busy: Double?, steal: Double?
        if let stat = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
           let line = stat.split(separator: "\n").first(where: { $0.hasPrefix("cpu ") }) {
            // user nice system idle iowait irq softirq steal ..., in clock ticks
            let ticks = line.split(separator: " ").dropFirst().compactMap { Double($0) }
            if ticks.count >= 8 {
                let hz = Double(sysconf(Int32(_SC_CLK_TCK)))
                busy = (ticks[0] + ticks[1] + ticks[2] + ticks[5] + ticks[6] + ticks[7]) / hz
                steal = ticks[7] / hz
            }
        }
        var cpu = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu)  // user + system time of all our threads
        let own = Double(cpu.tv_sec) + Double(cpu.tv_nsec) * 1e-9
        return CPUSample(allBusy: busy, steal: steal, own: own, wall: ContinuousClock.now)
    }

    /// Share of all cores (0...1) that other processes and other guests used since `start`.
    func othersShare(since start: CPUSample, cores: Int) -> Double? {
        guard let b1 = allBusy, let b0 = start.allBusy else { return nil }
        let d = (wall - start.wall).components
        let wallSeconds = Double(d.seconds) + Double(d.attoseconds) * 1e-18
        guard wallSeconds > 0, cores > 0 else { return nil }
        return max(0, (b1 - b0) - (own - start.own)) / (wallSeconds * Double(cores))
    }
}

/// What the machine gives on all cores for work without memory traffic: 4 chunks per core of
/// 400 us busy-waiting, through concurrentPerform, against the same chunks on one thread;
/// median of `rounds` ratios. Each round starts with the calling thread busy, as in B1.
func cpuScalingProbe(rounds: Int = 15) -> Double {
    let clock = ContinuousClock()
    let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
    let chunks = 4 * cores
    @Sendable func spin(_ duration: Duration) {
        let start = ContinuousClock.now
        while ContinuousClock.now - start < duration {}
    }
    var ratios = [Double]()
    for _ in 0..<rounds {
        let serial = clock.measure { for _ in 0..<chunks { spin(.microseconds(400)) } }
        let parallel = clock.measure {
            DispatchQueue.concurrentPerform(iterations: chunks) { _ in spin(.microseconds(400)) }
        }
        ratios.append(serial / parallel)
    }
    ratios.sort()
    return ratios[ratios.count / 2]
}
