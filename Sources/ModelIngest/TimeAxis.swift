import Catalog
import NetCDF

/// A file's frame times: from WRF's Times strings, else from minutes since the simulation
/// start (XTIME, or MM5's `time`), saying which was used and why.
struct TimeAxis {
    let times: [Int64]
    let source: String

    init(file: NetCDFFile, profile: ModelProfile, variables: [SourceRole: String], timeDimension: String,
         simulationStart: Int64?, minutes conversion: UnitConversion) throws {
        let path = file.path
        let frameCount = file.dimension(timeDimension)?.length ?? 1
        var problem = "no \(profile.names(.timeText).first ?? "Times") variable"
        if let name = variables[.timeText] {
            let texts: [String]
            do { texts = try file.variable(name).readStrings() } catch { throw IngestError.unreadable(error) }
            let parsed = texts.map(ModelTime.parseWRF)
            if let bad = parsed.firstIndex(where: { $0 == nil }) {
                problem = "\(name) is garbled (\"\(texts[bad])\" at frame \(bad))"
            } else if texts.count != frameCount {
                problem = "\(name) has \(texts.count) entries for \(frameCount) frames"
            } else {
                times = parsed.compactMap { $0 }
                source = name
                try Self.requireIncreasing(times, path: path, source: name)
                return
            }
        }
        guard let minutesName = variables[.timeMinutes] else {
            throw IngestError.badTimes(path: path, detail: "\(problem), and no \(profile.names(.timeMinutes).joined(separator: "/")) to fall back on")
        }
        let minutesVariable: Variable
        let minutes: [Double]
        do {
            minutesVariable = try file.variable(minutesName)
            minutes = try minutesVariable.readDoubles()
        } catch { throw IngestError.unreadable(error) }
        let reference = minutesVariable.attributes["units"]?.string.flatMap(ModelTime.parseSinceUnits) ?? simulationStart
        guard let reference else {
            throw IngestError.badTimes(path: path, detail: "\(problem), and \(minutesName) has no \"minutes since\" units nor is SIMULATION_START_DATE readable")
        }
        guard minutes.count == frameCount, minutes.allSatisfy({ $0.isFinite && abs($0) < 1e9 }) else {
            throw IngestError.badTimes(path: path, detail: "\(problem), and \(minutesName) is not one finite value per frame")
        }
        times = minutes.map { reference + Int64((Double(conversion.scale) * $0 * 60).rounded()) }
        source = profile.convention == .mm5 && problem.hasPrefix("no ") ? minutesName : "\(minutesName) (\(problem))"
        try Self.requireIncreasing(times, path: path, source: source)
    }

    /// The longest forecast TileCast accepts: a frame more than this after the simulation
    /// start (a year-9999 time, a garbled date) is a damaged file, not a forecast. 40 days
    /// covers sub-seasonal runs (SPEC serves at most 16 days); a longer climate run would
    /// have to be split into runs of its own.
    static let maximumLeadSeconds: Int64 = 40 * 86_400

    /// Refuses frames before the simulation start or further than `maximumLeadSeconds` after it
    /// (without a stated start: a file spanning more than that).
    static func requirePlausible(_ times: [Int64], simulationStart: Int64?, path: String, source: String) throws {
        guard let first = times.first, let last = times.last else { return }
        if let start = simulationStart {
            if first < start {
                throw IngestError.badTimes(path: path, detail: "\(source) starts at \(ModelTime.iso(first)), before the simulation start \(ModelTime.iso(start)) (SIMULATION_START_DATE): the file's dates contradict each other")
            }
            if last - start > maximumLeadSeconds {
                throw IngestError.badTimes(path: path, detail: "\(source) reaches \(ModelTime.iso(last)), \(ModelTime.duration(last - start)) after the simulation start \(ModelTime.iso(start)); frames more than 40 days after the start are refused as damaged")
            }
        } else if last - first > maximumLeadSeconds {
            throw IngestError.badTimes(path: path, detail: "\(source) spans \(ModelTime.iso(first)) to \(ModelTime.iso(last)), more than the 40 days a run may last")
        }
    }

    private static func requireIncreasing(_ times: [Int64], path: String, source: String) throws {
        for index in times.indices.dropFirst() where times[index] <= times[index - 1] {
            throw IngestError.badTimes(path: path, detail: "\(source) does not increase at frame \(index) (\(ModelTime.iso(times[index - 1])) then \(ModelTime.iso(times[index])))")
        }
    }
}
