import Catalog
import Foundation
import ModelIngest

/// Decides whether a run is complete enough to extract, and waits for it when asked: the
/// operator's cron job may start while WRF is still writing.
///
/// Complete means: every input reads and stitches (a file still being written fails that
/// check, e.g. as truncated), every domain reaches `expectHours` after the cycle, and — when
/// waiting — no input file changed size since the previous poll.
package struct RunCompleteness {
    package var inputs: [String]
    package var profile: ModelProfile?
    /// Forecast length every domain must reach, hours after the cycle; nil: no length check.
    package var expectHours: Int?
    /// The cycle the length counts from; nil: each run's own start.
    package var cycle: Int64?

    package init(inputs: [String], profile: ModelProfile?, expectHours: Int?, cycle: Int64?) {
        self.inputs = inputs
        self.profile = profile
        self.expectHours = expectHours
        self.cycle = cycle
    }

    /// Why the run is not complete now; nil when it is.
    package func problem() -> String? {
        let runs: [ModelRun]
        do { runs = try ModelRun.readRuns(paths: inputs, profile: profile) } catch { return "\(error)" }
        return runs.lazy.compactMap(shortfall).first
    }

    /// Why one run falls short of `expectHours`; nil when it reaches them (or none are expected).
    package func shortfall(_ run: ModelRun) -> String? {
        guard let hours = expectHours else { return nil }
        // A cycle that is not the run's start is no reason to wait: extraction refuses it.
        guard let start = try? run.cycle(requested: cycle) else { return nil }
        for domain in run.domains {
            let reached = ((domain.times.last ?? start) - start) / 3600
            if reached < Int64(hours) {
                return "\(run.profileName) \(domain.name) reaches +\(reached) h of the \(hours) h expected (last frame \(ModelTime.iso(domain.times.last ?? start)))"
            }
        }
        return nil
    }

    /// Waits until the run is complete and its files have stopped growing.
    ///
    /// - Parameters:
    ///   - timeout: seconds to wait at most; 0 checks once.
    ///   - poll: seconds between checks.
    ///   - note: called once with the first reason for waiting.
    /// - Throws: `IngestError.incompleteRun` with the last reason when time runs out.
    package func wait(timeout: TimeInterval, poll: TimeInterval, note: (String) -> Void) throws {
        let deadline = Date().addingTimeInterval(timeout)
        // Stable means unchanged over one whole poll interval, so the first check when waiting
        // never counts as stable.
        var previousSizes: [String: Int64]?
        var noted = false
        while true {
            let reason = problem()
            let currentSizes = sizes()
            let stable = timeout <= 0 || currentSizes == previousSizes
            if reason == nil && stable { return }
            let why = reason ?? (previousSizes == nil ? "checking that the input files stopped growing" : "input files are still growing")
            if timeout <= 0 || Date().addingTimeInterval(poll) > deadline {
                throw IngestError.incompleteRun(detail: (timeout > 0 ? "after waiting \(Int(timeout)) s, " : "") + why)
            }
            if !noted && reason != nil { note("waiting for the run: \(why)"); noted = true }
            previousSizes = currentSizes
            Thread.sleep(forTimeInterval: poll)
        }
    }

    /// Sizes of every file under the inputs (folders one level deep).
    package func sizes() -> [String: Int64] {
        var result: [String: Int64] = [:]
        for path in inputs {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            let files = isDirectory.boolValue
                ? ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).map { (path as NSString).appendingPathComponent($0) }
                : [path]
            for file in files {
                result[file] = fileSize(atPath: file) ?? -1
            }
        }
        return result
    }
}
