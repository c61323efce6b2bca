import Catalog
import NetCDF

/// A file's frame times: from WRF's Times strings, else from minutes since the simulation
/// start (XTIME, or MM5's `time`), saying which was used and why.
struct TimeAxis {
    let times: [Int64]
    let source: String

    init(file: NetCDFFile, profile: ModelProfile, variables: [SourceRole: String], timeDimension: String,
         simulationStart: Int64?, segmentStart: Int64?, minutes conversion: UnitConversion) throws(IngestError) {
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
                // A second clock in the same file: Times must agree with it. This, not a limit on
                // a run's length, is what catches a garbled but parseable date (year 9999). An
                // XTIME that cannot serve as a clock (no reference date, not finite) is no
                // evidence either way; Times alone then stands.
                if let minutesName = variables[.timeMinutes],
                   let clock = try? MinutesClock(file: file, name: minutesName, simulationStart: simulationStart, conversion: conversion, frames: frameCount) {
                    try clock.requireAgreement(with: times, segmentStart: segmentStart, path: path, timesName: name)
                }
                return
            }
        }
        guard let minutesName = variables[.timeMinutes] else {
            throw IngestError.badTimes(path: path, detail: "\(problem), and no \(profile.names(.timeMinutes).joined(separator: "/")) to fall back on")
        }
        let clock = try MinutesClock(file: file, name: minutesName, simulationStart: simulationStart, conversion: conversion, frames: frameCount,
                                     problem: problem)
        times = clock.frameTimes(from: clock.reference)
        source = profile.convention == .mm5 && problem.hasPrefix("no ") ? minutesName : "\(minutesName) (\(problem))"
        try Self.requireIncreasing(times, path: path, source: source)
    }

    /// Refuses frames that contradict the file's own dates: before the simulation start
    /// (SIMULATION_START_DATE) or before the start of the file's segment (START_DATE). How far
    /// after the start a frame lies is no test of damage: seasonal and climate runs, and
    /// restart segments of them, reach months or years past their simulation start.
    static func requireWithinRun(_ times: [Int64], simulationStart: Int64?, segmentStart: Int64?, path: String, source: String) throws(IngestError) {
        guard let first = times.first else { return }
        if let start = simulationStart, first < start {
            throw IngestError.badTimes(path: path, detail: "\(source) starts at \(ModelTime.iso(first)), before the simulation start \(ModelTime.iso(start)) (SIMULATION_START_DATE): the file's dates contradict each other")
        }
        if let start = segmentStart, first < start {
            throw IngestError.badTimes(path: path, detail: "\(source) starts at \(ModelTime.iso(first)), before the file's own start \(ModelTime.iso(start)) (START_DATE): the file's dates contradict each other")
        }
    }

    private static func requireIncreasing(_ times: [Int64], path: String, source: String) throws(IngestError) {
        for index in times.indices.dropFirst() where times[index] <= times[index - 1] {
            throw IngestError.badTimes(path: path, detail: "\(source) does not increase at frame \(index) (\(ModelTime.iso(times[index - 1])) then \(ModelTime.iso(times[index])))")
        }
    }
}

/// A file's frame times as minutes since a reference (WRF's XTIME, MM5's `time`): the "minutes
/// since" date of its units, else the simulation start.
struct MinutesClock {
    let name: String
    let minutes: [Double]
    let reference: Int64
    let scale: Double

    /// - Parameter problem: why Times could not be used, for the error when this clock cannot
    ///   stand in for it either.
    init(file: NetCDFFile, name: String, simulationStart: Int64?, conversion: UnitConversion, frames: Int,
         problem: String = "") throws(IngestError) {
        let path = file.path
        let variable: Variable
        do {
            variable = try file.variable(name)
            minutes = try variable.readDoubles()
        } catch { throw IngestError.unreadable(error) }
        let lead = problem.isEmpty ? "" : "\(problem), and "
        guard let reference = variable.attributes["units"]?.string.flatMap(ModelTime.parseSinceUnits) ?? simulationStart else {
            throw IngestError.badTimes(path: path, detail: "\(lead)\(name) has no \"minutes since\" units nor is SIMULATION_START_DATE readable")
        }
        guard minutes.count == frames, minutes.allSatisfy({ $0.isFinite && abs($0) < 1e9 }) else {
            throw IngestError.badTimes(path: path, detail: "\(lead)\(name) is not one finite value per frame")
        }
        self.name = name
        self.reference = reference
        scale = Double(conversion.scale)
    }

    func frameTimes(from reference: Int64) -> [Int64] {
        minutes.map { reference + Int64((scale * $0 * 60).rounded()) }
    }

    /// Refuses Times that disagree with this clock by more than a minute (plus what float
    /// minutes cannot resolve: XTIME is a 4-byte float). A clock counted from the segment's
    /// start (START_DATE), as some WRF versions wrote XTIME in restart output, also agrees.
    func requireAgreement(with times: [Int64], segmentStart: Int64?, path: String, timesName: String) throws(IngestError) {
        func agrees(_ clock: [Int64]) -> Bool {
            zip(times, zip(clock, minutes)).allSatisfy { time, pair in
                abs(time - pair.0) <= 60 + Int64(abs(pair.1 * scale) * 60 * 1e-6)
            }
        }
        let clock = frameTimes(from: reference)
        if agrees(clock) { return }
        if let segmentStart, segmentStart != reference, agrees(frameTimes(from: segmentStart)) { return }
        let frame = times.indices.first(where: { abs(times[$0] - clock[$0]) > 60 }) ?? 0
        throw IngestError.badTimes(path: path, detail: "\(timesName) says \(ModelTime.iso(times[frame])) at frame \(frame) but \(name) says \(ModelTime.iso(clock[frame])) (\(minutes[frame]) minutes since \(ModelTime.iso(reference))): the file's times contradict each other")
    }
}
