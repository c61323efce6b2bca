import ArgumentParser
import Catalog
import Extraction
import Foundation
#if os(Linux)
import CMalloc
#endif
import ModelIngest
import PointQuery
import Synchronization
import TileCastCommandLine

/// `tilecast extract`: one model run into the store, published atomically as one cycle.
struct ExtractCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "extract",
        abstract: "Extract a model run into the tile store (atomically, one cycle).",
        discussion: """
        Reads only the surface fields the catalog needs, derives humidity, dew point, earth-relative wind, hourly precipitation, sea-level pressure and cloud cover (the query computes the weather code from them), and writes one small file per domain. The new cycle becomes visible only when every file is complete and synced; a failed or killed run leaves the store as it was, and running it again finishes the job. A second extraction on the same store at once stops with a message.

        After each model run, a cron job or timer can wait for the run to be complete: --expect-hours 72 refuses a run whose domains end earlier, and --wait 3600 keeps checking (every --poll seconds) until it is complete and its files stopped growing.

        To serve a long run while the model still writes it, --grow publishes the cycle's first complete hours at once and extends the same cycle (each extension atomic) at every poll that finds new frames, until every domain reaches --expect-hours and the files stop changing; the cycle's manifest says it is growing and how far it reaches. A killed --grow leaves the last published extent; running it again goes on.

        Output: a progress bar on a terminal, one summary line otherwise; warnings and errors on stderr. Exit codes: 0 published, 2 bad usage, 3 unusable or incomplete input, 5 store not writable or locked by another extraction.

        Examples:
          tilecast extract SampleGrids --store /tmp/s
          tilecast extract /data/wrf/2026112200 --store /srv/tilecast --model lisbon-wrf --keep 8
          tilecast extract /data/wrf/latest --store /srv/tilecast --expect-hours 72 --wait 3600 --quiet
          tilecast extract /data/wrf/2026112200 --store /srv/tilecast --grow --expect-hours 180 --wait 43200 --poll 60
        """
    )

    @Argument(help: "Model files or folders holding them (wrfout_d01_..., MM5 netCDF).")
    var inputs: [String]

    @Option(help: "The store folder (created when missing).")
    var store: String

    @Option(help: "Model name in the store (default: the profile's name, e.g. wrf).")
    var model: String?

    @Option(help: "Cycle to file the run under, e.g. 2026-11-22T00Z: the run's start (SIMULATION_START_DATE, the default) or, for a restart segment, the segment's (START_DATE).")
    var cycle: String?

    @Option(help: "Name profile: wrf, mm5 or a profile file (default: detected per file).")
    var profile: String?

    @Option(help: "Keep only the newest N cycles of the model (never removes the latest).")
    var keep: Int?

    @Option(help: "Only these variables (comma-separated; default: those of --set the run provides).")
    var variables: String?

    @Option(name: .customLong("set"), help: "What to store when --variables is not given: surface (the default: the surface variables) or all (also the height and pressure levels, read from the 3-D fields: slower, larger). With --variables, what a named variable uses when held (the weather code's CAPE, say) is kept where this set makes it. `tilecast inspect` lists each set.")
    var extractionSet: String = ExtractionSet.surface.rawValue

    @Option(help: "Radius in km of the neighbourhood the chance of rain counts wet cells in (default: 3 cells of each domain, 27 km at 9 km, 9 km at 3 km).")
    var neighbourhoodKm: Double?

    @Option(help: "Refuse (or with --wait, wait for) a run whose domains do not reach N hours after the cycle.")
    var expectHours: Int?

    @Option(help: "Wait up to SECONDS for the run to be complete and its files to stop growing.")
    var wait: Int = 0

    @Option(help: "Seconds between checks while waiting.")
    var poll: Int = 30

    @Flag(help: "Publish the run while it is written: its complete hours now, extended at each --poll until it reaches --expect-hours (needs --expect-hours and --wait).")
    var grow = false

    @Flag(help: "Replace a published cycle even when this run has fewer domains (e.g. no d02).")
    var allowFewerDomains = false

    @Flag(help: "Check the inputs and report what would be published, without writing.")
    var dryRun = false

    @Flag(help: "No progress bar and no warnings; errors only, plus the summary line.")
    var quiet = false

    func validate() throws {
        if let keep, keep < 1 { throw ValidationError("--keep must be at least 1") }
        if let neighbourhoodKm, !(neighbourhoodKm > 0 && neighbourhoodKm <= 1000) {
            throw ValidationError("--neighbourhood-km must be more than 0 and at most 1000 (kilometres)")
        }
        if let expectHours, expectHours < 0 { throw ValidationError("--expect-hours must be 0 or more") }
        if wait < 0 || poll < 1 { throw ValidationError("--wait must be 0 or more and --poll at least 1 (seconds)") }
        if grow && (expectHours == nil || wait <= 0 || dryRun) {
            throw ValidationError("--grow follows a run being written until it reaches its length: give --expect-hours (the run's length) and --wait (how long to follow it, seconds), without --dry-run")
        }
        if let cycle, ModelTime.parseUser(cycle) == nil {
            throw ValidationError("--cycle \(cycle): expected a UTC time such as 2026-11-22T00Z")
        }
        if ExtractionSet(rawValue: extractionSet) == nil {
            throw ValidationError("--set \(extractionSet): expected one of \(ExtractionSet.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        // An empty selection would publish a cycle with no variables and replace `latest`.
        if let variables, try VariableList.parse(variables, option: "--variables").named.isEmpty {
            throw ValidationError("--variables: no variable named; give e.g. --variables temperature_2m,precipitation, or leave the option out for all")
        }
    }

    func run() throws {
        keepFreedMemoryForReuse()
        let runs = try reporting { () throws -> [String] in
            let chosen = try profile.map(ModelProfile.load)
            var extractor = Extractor(inputs: inputs, store: store)
            extractor.profile = chosen
            extractor.cycle = cycle.flatMap(ModelTime.parseUser)
            extractor.keep = keep
            extractor.dryRun = dryRun
            extractor.allowFewerDomains = allowFewerDomains
            extractor.neighbourhoodKilometres = neighbourhoodKm
            if let variables {
                let list = try VariableList.parse(variables, option: "--variables")
                extractor.variables = list.named
                extractor.optionalVariables = list.optional
            }
            extractor.set = ExtractionSet(rawValue: extractionSet) ?? .surface
            if grow {
                return try follow(extractor, profile: chosen)
            }
            if expectHours != nil || wait > 0 {
                let completeness = RunCompleteness(inputs: inputs, profile: chosen, expectHours: expectHours,
                                                   cycle: extractor.cycle)
                try completeness.wait(timeout: TimeInterval(wait), poll: TimeInterval(poll)) { note in
                    if !quiet { FileHandle.standardError.write(Data("\(note)\n".utf8)) }
                }
            }
            let bar = ProgressBar(enabled: !quiet && isatty(STDERR_FILENO) != 0)
            extractor.progress = { bar.update(done: $0.framesDone, total: $0.framesTotal, label: $0.domain) }
            let groups = try ModelRun.readRuns(paths: inputs, profile: chosen)
            if model != nil && groups.count > 1 {
                throw Failure(.badUsage, "--model names one model, but the inputs hold \(groups.count) (\(groups.map(\.profileName).joined(separator: ", "))): extract them separately")
            }
            var lines: [String] = []
            extractor.model = model
            for group in groups {
                let summary = try extractor.run(of: group)
                bar.finish()
                if !quiet { for warning in summary.warnings { FileHandle.standardError.write(Data("warning: \(warning)\n".utf8)) } }
                lines.append(summary.line)
            }
            return lines
        }
        for line in runs { print(line) }
    }
}

extension ExtractCommand {
    /// `--grow`: publishes the run as it is written; a line per publication as it happens.
    private func follow(_ extractor: Extractor, profile: ModelProfile?) throws -> [String] {
        let groups = try? ModelRun.readRuns(paths: inputs, profile: profile)
        if model != nil, let groups, groups.count > 1 {
            throw Failure(.badUsage, "--model names one model, but the inputs hold \(groups.count) (\(groups.map(\.profileName).joined(separator: ", "))): extract them separately")
        }
        var extractor = extractor
        extractor.model = model
        let completeness = RunCompleteness(inputs: inputs, profile: profile, expectHours: expectHours, cycle: extractor.cycle)
        try GrowingRun(extractor: extractor, completeness: completeness).follow(timeout: TimeInterval(wait), poll: TimeInterval(poll)) { summary in
            if !quiet { for warning in summary.warnings { FileHandle.standardError.write(Data("warning: \(warning)\n".utf8)) } }
            // Written at once, not buffered: a log follows the cycle's growth as it happens.
            FileHandle.standardOutput.write(Data((summary.line + "\n").utf8))
        }
        return []
    }
}

/// Parses comma-separated variable names: stored names (`wind_u_10m`, `elevation`), query
/// names (`wind_speed_10m` needs both wind components) and raw WRF aliases (`T2`, `U10`), the
/// last two through the registry's own table (`ForecastVariable.parse`), so there is one list.
enum VariableList {
    /// `named`: the stored variables named and those the named outputs are computed from;
    /// `optional`: what those outputs use when held (the weather code's showers, visibility,
    /// CAPE, ...), which extraction keeps where the run provides them by the set's routes
    /// (`Extractor.optionalVariables`).
    static func parse(_ text: String, option: String) throws -> (named: [ForecastVariable], optional: [ForecastVariable]) {
        var named: [ForecastVariable] = [], optional: [ForecastVariable] = []
        for name in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !name.isEmpty {
            if let variable = ForecastVariable.stored(named: name) {
                named.append(variable)
            } else if let outputs = ForecastVariable.parse(name) {
                named += outputs.flatMap(\.sources)
                optional += outputs.flatMap(\.spec.optionalSources)
            } else {
                let known = ForecastVariable.stored.map(\.rawValue)
                throw ValidationError("\(option): unknown variable \"\(name)\""
                                      + Suggestions.sentence(for: name, among: known, listedBy: "docs/VARIABLES.md"))
            }
        }
        let kept = Set(named)
        return (kept.sorted(), Set(optional).subtracting(kept).sorted())
    }
}

/// Every frame allocates the same field sizes again (a 3-D column is a megabyte or more). glibc
/// hands such blocks back to the kernel on free (mmap above its threshold, heap trimming), so
/// each frame paid page faults and zeroing for fresh pages. Raising both thresholds keeps the
/// freed blocks for the next frame: system time 0.5-0.7 s -> 0.23-0.30 s on the 1.52 GB run
/// (with uninitialized reads); the peak is unchanged (the same blocks are reused, not added).
private func keepFreedMemoryForReuse() {
    #if os(Linux)
    _ = mallopt(M_MMAP_THRESHOLD, 64 << 20)
    _ = mallopt(M_TRIM_THRESHOLD, 256 << 20)
    #endif
}
