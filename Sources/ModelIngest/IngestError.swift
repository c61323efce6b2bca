import Catalog
import GridGeometry
import Meteorology
import NetCDF

/// Why a run cannot be read. Every case names the file, variable or domain at fault and what
/// was expected; the command line prints `description` and exits with code 3 (unusable input).
public enum IngestError: ExitCoded, Sendable, Equatable, CustomStringConvertible {
    /// No input files were found in the paths given.
    case noInput(paths: [String])
    /// libnetcdf could not read a file (missing, not netCDF, truncated, damaged).
    case unreadable(NetCDFError)
    /// A file named like model output (wrfout_d02_..., *.nc) in an input folder cannot be read:
    /// a part of the run is missing, so nothing is published.
    case unreadableOutput(path: String, cause: NetCDFError)
    /// A variable's dimensions are not the layout its role needs (transposed, on levels, ...).
    case badLayout(path: String, variable: String, found: String, expected: String)
    /// A variable's `units` attribute names a unit TileCast cannot convert to what it needs.
    case badUnits(path: String, variable: String, unit: String, expected: String)
    /// A grid too large for this machine's memory: refused before anything is allocated.
    case tooLarge(path: String, detail: String)
    /// A profile could not be loaded.
    case badProfile(origin: String, reason: String)
    /// A file lacks what every file of its kind must have (dimensions, coordinates, attributes).
    case missingMetadata(path: String, what: String)
    /// Neither Times nor XTIME gives a usable time axis.
    case badTimes(path: String, detail: String)
    /// The projection is not one TileCast knows, or its parameters are impossible.
    case badProjection(path: String, detail: String)
    /// The file's projection parameters make no projection or grid (the projection's own error).
    case projection(path: String, cause: GridGeometryError)
    /// Fields that must share one layout do not (accumulated fields of one size, a 3-D field on
    /// the mass grid): what was being read, and the formula's own error.
    case fieldLayout(path: String, what: String, cause: MeteorologyError)
    /// Two files hold the same time of one domain with different values.
    case overlappingFrames(domain: Int, time: String, paths: [String])
    /// The time axis has a hole (e.g. one file of a split run is missing).
    case missingFrames(domain: Int, after: String, before: String, step: String)
    /// Files of one domain disagree on the grid (size, projection or position).
    case inconsistentGrid(domain: Int, paths: [String], detail: String)
    /// The grid moves over time; TileCast refuses moving nests rather than use frame 0.
    case movingNest(domain: Int, path: String, detail: String)
    /// A WRF-family file that is not the model's output (met_em, wrfinput, geo_em): it holds no
    /// forecast, so `extract` refuses it when named and passes over it in a folder.
    case notModelOutput(path: String, what: String)
    /// Nothing extractable was left after skipping what is absent.
    case nothingUsable(path: String, detail: String)
    /// The run is not complete (shorter than expected, or still being written).
    case incompleteRun(detail: String)
    /// The inputs hold output of several models where one run was expected.
    case mixedModels(models: [String])
    /// Files of one model state different simulation starts: they belong to different runs.
    /// `files` pairs each file with the start it states.
    case mixedRuns(files: [String], starts: [String])
    /// The cycle asked for is not the run's own start.
    case cycleMismatch(requested: String, stated: String, restart: String?, path: String)
    /// The cycle asked for cannot be the start of a run that states none: it lies after the
    /// first frame, or more than the longest accepted forecast before it.
    case implausibleCycle(requested: String, firstFrame: String, path: String)

    /// Every way a run cannot be read is unusable input (3).
    public var exitCode: ExitStatus { .unusableInput }

    public var description: String {
        switch self {
        case .noInput(let paths):
            return "no netCDF input found in \(paths.joined(separator: ", ")): expected wrfout/MM5 files or folders holding them"
        case .unreadable(let error):
            return error.description
        case .unreadableOutput(let path, let cause):
            return "\(path): named like model output but unreadable (\(cause)); a run with a missing part is not published: repair or remove the file"
        case .badLayout(let path, let variable, let found, let expected):
            return "\(path): variable \(variable) has dimensions \(found); expected \(expected)"
        case .badUnits(let path, let variable, let unit, let expected):
            return "\(path): variable \(variable) is in \"\(unit)\", which cannot be converted to \(expected) (a known unit of the same quantity, e.g. K/degC/degF, Pa/hPa, mm/cm/m, m s-1)"
        case .tooLarge(let path, let detail):
            return "\(path): too large to extract on this machine: \(detail)"
        case .badProfile(let origin, let reason):
            return "\(origin): \(reason)"
        case .missingMetadata(let path, let what):
            return "\(path): missing \(what)"
        case .badTimes(let path, let detail):
            return "\(path): no usable time axis: \(detail)"
        case .badProjection(let path, let detail):
            return "\(path): unusable map projection: \(detail)"
        case .projection(let path, let cause):
            return "\(path): unusable map projection: \(cause)"
        case .fieldLayout(let path, let what, let cause):
            return "\(path): missing \(what): \(cause)"
        case .overlappingFrames(let domain, let time, let paths):
            return "\(domainName(domain)): time \(time) appears in \(paths.joined(separator: " and ")) with different values: expected each time once (remove one file)"
        case .missingFrames(let domain, let after, let before, let step):
            return "\(domainName(domain)): frames missing between \(after) and \(before) (the run's step is \(step)): is a file of the run missing?"
        case .inconsistentGrid(let domain, let paths, let detail):
            return "\(domainName(domain)): files disagree on the grid (\(detail)): \(paths.joined(separator: ", "))"
        case .movingNest(let domain, let path, let detail):
            return "\(path): \(domainName(domain)) is a moving nest that cannot be placed: \(detail)"
        case .notModelOutput(let path, let what):
            return "\(path): not model output but \(what); extract reads the model's history files (wrfout_d0N_...): `tilecast inspect` describes this one"
        case .nothingUsable(let path, let detail):
            return "\(path): nothing to extract: \(detail)"
        case .incompleteRun(let detail):
            return "run incomplete: \(detail)"
        case .mixedModels(let models):
            return "the inputs hold output of several models (\(models.joined(separator: ", "))): give each model's files separately"
        case .mixedRuns(let files, let starts):
            let list = zip(files, starts).map { "\($0) (simulation start \($1))" }.joined(separator: ", ")
            return "the inputs hold files of different runs: \(list); expected one run (one simulation start, SIMULATION_START_DATE in WRF): remove the stale files"
        case .cycleMismatch(let requested, let stated, let restart, let path):
            if let restart {
                return "cycle \(requested) was asked for, but the run starts at \(stated) and this restart segment at \(restart) (the simulation start and START_DATE \(path) states): a run is filed under its own start (omit --cycle, or give \(stated) or \(restart))"
            }
            return "cycle \(requested) was asked for, but the run starts at \(stated) (the simulation start \(path) states): a run is filed under its own start (omit --cycle, or give \(stated))"
        case .implausibleCycle(let requested, let firstFrame, let path):
            return "cycle \(requested) was asked for, but \(path) states no simulation start and its first frame \(firstFrame) is before that cycle: a cycle lies at or before its run's first frame (give the run's own start)"
        }
    }
}

/// Something ingest handled but the operator should hear about, said once per run.
public struct IngestWarning: Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable { case missingVariables, duplicateFrames, inconsistentCoordinates, nestMismatch, skippedFile, timeFallback, badValues, accumulationReset, assumedValue, streamNotUsed }
    public let kind: Kind
    public let message: String

    package init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { "warning: \(message)" }
}


/// A file libnetcdf cannot read is unusable input (3), wherever a command meets it.
extension NetCDFError: ExitCoded {
    public var exitCode: ExitStatus { .unusableInput }
}
