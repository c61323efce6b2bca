import Catalog
import Foundation
import ModelIngest

/// Publishes a run while the model is still writing it (`tilecast extract --grow`): its first
/// hours as soon as they are complete, then the same cycle extended as frames arrive, each
/// extension one atomic publication (a reader sees the old extent or the new, never a mix; a
/// killed extraction leaves the last published extent). The cycle's manifest says it is
/// growing and how far it reaches, until the run reaches its expected length and its files
/// stop changing: then it is published once more, complete.
package struct GrowingRun {
    package var extractor: Extractor
    package let completeness: RunCompleteness

    package init(extractor: Extractor, completeness: RunCompleteness) {
        self.extractor = extractor
        self.completeness = completeness
    }

    /// Extends the cycle at every poll that finds new complete frames, until the run is complete.
    ///
    /// - Parameters:
    ///   - timeout: seconds to keep following the run at most.
    ///   - poll: seconds between looks at the files.
    ///   - published: called after each publication, growing or final.
    /// - Throws: `IngestError.incompleteRun` when time runs out (what was published stays), or
    ///   what extraction throws.
    package func follow(timeout: TimeInterval, poll: TimeInterval, published: (ExtractionSummary) -> Void) throws {
        let deadline = Date().addingTimeInterval(timeout)
        var previousSizes: [String: Int64]?
        var extents: [String: Int64] = [:]   // per model, how far its cycle is published
        var lastProblem = "no input could be read yet"
        while true {
            let sizes = completeness.sizes()
            // Unchanged over one whole poll: no frame is being written.
            let stable = sizes == previousSizes
            previousSizes = sizes
            // A file caught in the middle of a write reads as damaged: look again later. What
            // extraction itself throws (a refused cycle, a full disk) ends the command.
            var runs: [ModelRun]?
            do { runs = try ModelRun.readRuns(paths: completeness.inputs, profile: completeness.profile) } catch {
                lastProblem = "\(error)"
            }
            if let runs {
                var finished = stable
                for run in runs {
                    let shortfall = completeness.shortfall(run)
                    if let shortfall { lastProblem = shortfall; finished = false }
                    let complete = stable && shortfall == nil
                    if !complete, let reach = stable ? run.reaches : run.reachesWithoutNewestFrames, reach > extents[run.profileName] ?? .min {
                        var growing = extractor
                        growing.growing = true
                        published(try growing.run(of: run.truncated(until: reach)))
                        extents[run.profileName] = reach
                    }
                }
                if finished {
                    for run in runs { published(try extractor.run(of: run)) }
                    return
                }
                if !stable { lastProblem = "input files are still growing" }
            }
            if Date().addingTimeInterval(poll) > deadline {
                let reached = extents.map { "\($0.key) up to \(ModelTime.iso($0.value))" }.sorted().joined(separator: ", ")
                throw IngestError.incompleteRun(detail: "after following the run for \(Int(timeout)) s, \(lastProblem)"
                    + (reached.isEmpty ? "; nothing was published" : "; the cycle stays published, growing, \(reached)"))
            }
            Thread.sleep(forTimeInterval: poll)
        }
    }
}
