import Catalog
import NetCDF

/// A file's frame times: from WRF's Times strings, else from minutes since the simulation
/// start (XTIME, or MM5's `time`), saying which was used and why.
struct TimeAxis {
    let times: [Int64]
    let source: String

    init(file: NetCDFFile, profile: ModelProfile, variables: [SourceRole: String], timeDimension: String,
         simulationStart: Int64?) throws {
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
        let conversion = profile.conversion(.timeMinutes)
        times = minutes.map { reference + Int64((Double(conversion.scale) * $0 * 60).rounded()) }
        source = profile.convention == .mm5 && problem.hasPrefix("no ") ? minutesName : "\(minutesName) (\(problem))"
        try Self.requireIncreasing(times, path: path, source: source)
    }

    private static func requireIncreasing(_ times: [Int64], path: String, source: String) throws {
        for index in times.indices.dropFirst() where times[index] <= times[index - 1] {
            throw IngestError.badTimes(path: path, detail: "\(source) does not increase at frame \(index) (\(ModelTime.iso(times[index - 1])) then \(ModelTime.iso(times[index])))")
        }
    }
}
