import Catalog
import Foundation
import GridGeometry
import NetCDF

/// A model run: every domain of one set of input files, checked and stitched.
public struct ModelRun: Sendable {
    /// The profile's name ("wrf", "mm5", or a site's own).
    public let profileName: String
    /// The model and version as the files say (TITLE).
    public let title: String
    /// The simulation start the files state; nil when none did.
    public let simulationStart: Int64?
    /// Domains by id, coarsest (d01) first.
    package let domains: [Domain]
    /// Streams finer than their domain's history (`auxhist2` every 15 minutes beside hourly
    /// `wrfout`), each on its domain's grid (`Domain.stream` names it), by domain id.
    package let fastStreams: [Domain]
    /// What was handled but deserves the operator's attention.
    public let warnings: [IngestWarning]

    /// The cycle a run is filed under by default: its simulation start, else its first frame.
    public var defaultCycle: Int64 {
        simulationStart ?? domains.compactMap { $0.frames.first?.time }.min() ?? 0
    }

    /// Reads and checks a run from files and folders (a folder's netCDF files, not recursively).
    ///
    /// - Parameter profile: the name profile; nil picks the built-in one that fits each file.
    /// - Throws: `IngestError` naming the file or domain at fault; `.mixedModels` when the
    ///   inputs hold files of more than one model (use `readRuns`).
    public static func read(paths: [String], profile: ModelProfile? = nil) throws(IngestError) -> ModelRun {
        let runs = try readRuns(paths: paths, profile: profile)
        guard runs.count == 1, let run = runs.first else {
            throw IngestError.mixedModels(models: runs.map(\.profileName))
        }
        return run
    }

    /// Reads the inputs as one run per model (profile): a folder holding WRF and MM5 output
    /// gives two runs.
    public static func readRuns(paths: [String], profile: ModelProfile? = nil) throws(IngestError) -> [ModelRun] {
        var warnings: [IngestWarning] = []
        let files = try openInputs(paths: paths, profile: profile, warnings: &warnings)
        guard !files.isEmpty else { throw IngestError.noInput(paths: paths) }
        var runs: [ModelRun] = []
        for name in Set(files.map(\.profile.name)).sorted() {
            var runWarnings = warnings
            runs.append(try assemble(files.filter { $0.profile.name == name }, warnings: &runWarnings))
        }
        return runs
    }

    /// The cycle to file the run under: by default the run's simulation start, else
    /// `requested` when it is the simulation start or, for a restart segment, the segment's start.
    ///
    /// A cycle is the run a forecast came from: filing a run under another time would answer
    /// "the 18Z run" with the 00Z run's numbers. A forecast centre's run restarted after a crash
    /// is still that run, so the simulation start is the default. A long run (seasonal, climate)
    /// extracted segment by segment may instead file each segment under its own start
    /// (START_DATE), so that the segments are cycles of their own rather than each replacing the
    /// last. Without a stated start, the requested cycle must lie at or before the first frame.
    ///
    /// - Throws: `IngestError.cycleMismatch` naming the run's start (and the segment's) and a
    ///   file stating it; `.implausibleCycle` for a cycle after the first frame.
    public func cycle(requested: Int64?) throws(IngestError) -> Int64 {
        guard let requested else { return defaultCycle }
        let path = domains.first?.files.first?.path ?? ""
        if let start = simulationStart {
            guard requested == start || requested == restartStart else {
                throw IngestError.cycleMismatch(requested: ModelTime.isoMinutes(requested), stated: ModelTime.isoMinutes(start),
                                                restart: restartStart.map(ModelTime.isoMinutes), path: path)
            }
            return requested
        }
        let first = domains.compactMap { $0.frames.first?.time }.min() ?? requested
        guard requested <= first else {
            throw IngestError.implausibleCycle(requested: ModelTime.isoMinutes(requested), firstFrame: ModelTime.isoMinutes(first), path: path)
        }
        return requested
    }

    /// The run as far as `until`: frames after it left out (a run still being written is
    /// published up to its last complete frame). Domains left with no frame are dropped.
    package func truncated(until: Int64) -> ModelRun {
        let kept = domains.compactMap { domain -> Domain? in
            let frames = domain.frames.filter { $0.time <= until }
            guard !frames.isEmpty else { return nil }
            let motion = domain.motion.map { NestMotion(westEast: $0.westEast, southNorth: $0.southNorth, offsets: Array($0.offsets.prefix(frames.count))) }
            return Domain(id: domain.id, files: domain.files, frames: frames, grid: domain.grid, nest: domain.nest,
                          nestCheck: domain.nestCheck, variables: domain.variables, motion: motion, stream: domain.stream)
        }
        let streams = fastStreams.compactMap { stream -> Domain? in
            let frames = stream.frames.filter { $0.time <= until }
            guard !frames.isEmpty, kept.contains(where: { $0.id == stream.id }) else { return nil }
            return Domain(id: stream.id, files: stream.files, frames: frames, grid: stream.grid, nest: stream.nest,
                          nestCheck: nil, variables: stream.variables, stream: stream.stream)
        }
        return ModelRun(profileName: profileName, title: title, simulationStart: simulationStart, domains: kept,
                        fastStreams: streams, warnings: warnings)
    }

    /// The last time every domain holds (nil for a run without frames).
    public var reaches: Int64? { domains.compactMap { $0.frames.last?.time }.min() }

    /// The last time every domain holds once each domain's newest frame is set aside: the
    /// extent that is safe to publish while files are still being written (a model writes a
    /// frame field by field, so its newest frame may be partial).
    package var reachesWithoutNewestFrames: Int64? {
        let times = domains.map { $0.frames.dropLast().last?.time }
        guard !times.isEmpty, times.allSatisfy({ $0 != nil }) else { return nil }
        return times.compactMap { $0 }.min()
    }

    /// The start of the restart segment the inputs begin with (the earliest START_DATE later
    /// than the simulation start); nil when the inputs begin at the simulation start.
    public var restartStart: Int64? {
        guard let simulationStart else { return nil }
        let starts = domains.flatMap(\.files).compactMap(\.segmentStart)
        guard let earliest = starts.min(), earliest > simulationStart else { return nil }
        return earliest
    }

    /// Refuses files of one model that state different simulation starts: today's d01 beside
    /// yesterday's d02, or two runs' d01 files, would otherwise be published as one cycle.
    static func requireOneRun(_ files: [SourceFile]) throws(IngestError) {
        let stating = files.filter { $0.simulationStart != nil }
        guard Set(stating.compactMap(\.simulationStart)).count > 1 else { return }
        throw IngestError.mixedRuns(files: stating.map(\.path),
                                    starts: stating.map { $0.simulationStart.map(ModelTime.isoMinutes) ?? "" })
    }

    private static func assemble(_ files: [SourceFile], warnings: inout [IngestWarning]) throws(IngestError) -> ModelRun {
        guard let first = files.first else { throw IngestError.noInput(paths: []) }
        try requireOneRun(files)
        var domains: [Domain] = []
        var fastStreams: [Domain] = []
        for id in Set(files.map(\.domainID)).sorted() {
            let members = files.filter { $0.domainID == id }.sorted { ($0.times.first ?? 0) < ($1.times.first ?? 0) }
            let (history, fast) = OutputStreams.split(members)
            let domain = try DomainStitcher.stitch(id: id, files: history, warnings: &warnings)
            domains.append(domain)
            for (name, streamFiles) in fast.sorted(by: { $0.key < $1.key }) {
                var stream = try DomainStitcher.stitch(id: id, files: streamFiles, warnings: &warnings)
                stream.stream = name
                if let problem = try OutputStreams.problem(stream: stream, history: domain) {
                    warnings.append(IngestWarning(.streamNotUsed, "\(domain.name): the \(name) stream (\(streamFiles.map(\.path).joined(separator: ", "))) is not used: \(problem); its times are answered from the history, interpolated"))
                } else {
                    fastStreams.append(stream)
                }
            }
        }
        domains = try NestChecker.check(domains, warnings: &warnings)
        for domain in domains {
            let assuming = domain.files.filter(\.assumesModelTop).map(\.path)
            if !assuming.isEmpty {
                warnings.append(IngestWarning(.assumedValue, "\(domain.name): no \(first.profile.names(.modelTopPressure).first ?? "ptop") in \(assuming.joined(separator: ", ")): surface pressure is p* + an assumed model top of \(Int(SourceFile.assumedModelTopPressure)) Pa"))
            }
        }
        // Optional variables (ForecastVariable.isOptional) are absent from most runs: not warned.
        for domain in domains where domain.variables.missing.contains(where: { !$0.0.isOptional }) {
            let list = domain.variables.missing.filter { !$0.0.isOptional }.map { "\($0.0.rawValue) (\($0.1))" }.joined(separator: ", ")
            warnings.append(IngestWarning(.missingVariables, "\(domain.name): skipping \(list)"))
        }
        if domains.allSatisfy({ $0.variables.available.allSatisfy(\.isStatic) }) {
            throw IngestError.nothingUsable(path: first.path, detail: "no forecast variable can be made from these files (\(domains.first?.variables.missing.map(\.1).joined(separator: "; ") ?? ""))")
        }
        let starts = files.compactMap(\.simulationStart)
        return ModelRun(profileName: first.profile.name, title: first.title, simulationStart: starts.min(),
                        domains: domains, fastStreams: fastStreams, warnings: warnings)
    }

    /// Names that say "model output": a file so named that cannot be read is a missing part of
    /// the run (a zero-length or garbage d02), never a stray file to pass over.
    static let outputNamePatterns = ["wrfout_d*", "wrfout_*", "mm5*", "MMOUT*", "*.nc", "*.nc4", "*.netcdf"]

    /// Whether a file name looks like model output (see `outputNamePatterns`).
    static func looksLikeModelOutput(_ name: String) -> Bool {
        outputNamePatterns.contains { fnmatch($0, name, 0) == 0 }
    }

    /// Expands folders and opens every input file. In a folder, files that are not netCDF
    /// and not named like model output (notes, scripts) are skipped with a warning; a named
    /// input or a file named like model output that cannot be read is an error, and so is a
    /// damaged netCDF file or anything but a regular file (a FIFO would block the open).
    private static func openInputs(paths: [String], profile: ModelProfile?, warnings: inout [IngestWarning]) throws(IngestError) -> [SourceFile] {
        // The files to open, in order: each path given, or a folder's files by name.
        var candidates: [(path: String, name: String?)] = []   // name: a folder's file, with its folder's rules
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw IngestError.unreadable(NetCDFError(status: .fileNotFound, path: path, operation: "open"))
            }
            guard isDirectory.boolValue else {
                candidates.append((path, nil))
                continue
            }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            // Files that are plainly not model output (notes, scripts, tables) are passed over quietly.
            let ignored = ["csv", "md", "txt", "json", "py", "cdl", "sh", "log", "png"]
            for name in names.sorted() where !name.hasPrefix(".") && !ignored.contains((name as NSString).pathExtension.lowercased()) {
                let child = (path as NSString).appendingPathComponent(name)
                var childIsDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: child, isDirectory: &childIsDirectory), !childIsDirectory.boolValue else { continue }
                candidates.append((child, name))
            }
        }
        // Opened one by one on this thread: HDF5 (under libnetcdf, for netCDF-4 files) prints
        // the errors of its attribute probes to stderr on any thread but the one libnetcdf
        // silenced it on, so files opened side by side by workers filled stderr with HDF5's
        // error stacks.
        var result: [SourceFile] = []
        var passedOver: IngestError?
        for candidate in candidates {
            guard let name = candidate.name else {
                result.append(try open(candidate.path, profile: profile))
                continue
            }
            let child = candidate.path
            do {
                result.append(try open(child, profile: profile))
            } catch IngestError.unreadable(let error) where error.status == .notNetCDF && !looksLikeModelOutput(name) {
                warnings.append(IngestWarning(.skippedFile, "\(child): not a netCDF file, skipped"))
            } catch IngestError.unreadable(let error) where error.status == .notNetCDF {
                throw IngestError.unreadableOutput(path: child, cause: error)
            } catch IngestError.missingMetadata(let file, let what) where profile == nil && !looksLikeModelOutput(name) {
                warnings.append(IngestWarning(.skippedFile, "\(file): not a model output file (missing \(what)), skipped"))
            } catch IngestError.notModelOutput(let file, let what) {
                // A run folder often holds met_em, wrfinput and geo_em files beside wrfout:
                // they are not part of the forecast, so they are passed over, said once each.
                warnings.append(IngestWarning(.skippedFile, "\(file): \(what), not model output: skipped"))
                passedOver = passedOver ?? .notModelOutput(path: file, what: what)
            }
        }
        // Only such files: say what they are rather than "no input".
        if result.isEmpty, let passedOver { throw passedOver }
        return result
    }

    private static func open(_ path: String, profile: ModelProfile?) throws(IngestError) -> SourceFile {
        let file: NetCDFFile
        do { file = try NetCDFFile(path: path) } catch { throw IngestError.unreadable(error) }
        if let profile { return try SourceFile(file: file, profile: profile) }
        return try SourceFile(file: file, profile: try detectProfile(file))
    }

    /// The built-in profile whose coordinate names the file has.
    package static func detectProfile(_ path: String) throws(IngestError) -> ModelProfile {
        let file: NetCDFFile
        do { file = try NetCDFFile(path: path) } catch { throw IngestError.unreadable(error) }
        return try detectProfile(file)
    }

    /// The built-in profile whose coordinate names an open file has.
    static func detectProfile(_ file: NetCDFFile) throws(IngestError) -> ModelProfile {
        let path = file.path
        for name in ModelProfile.builtinNames {
            let candidate = try ModelProfile.load(name)
            if candidate.names(.latitude).contains(where: file.hasVariable) { return candidate }
        }
        throw IngestError.missingMetadata(path: path, what: "coordinates of a known model (XLAT/XLONG for WRF, latitcrs/longicrs for MM5; pass --profile FILE for others)")
    }
}
