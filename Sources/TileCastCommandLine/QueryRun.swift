import Catalog
import Foundation
import Meteorology
import PointQuery
import TileStore
#if canImport(Glibc)
import Glibc
#endif

/// `tilecast query` once its options are parsed: opens the stores, chooses the times and the
/// variables, answers each place, prints. `tilecast` and `tilecast-remote` both run this, each
/// opening `--store` its own way, so both print exactly the same answers.
package struct QueryRun {
    package let options: QueryOptions

    package init(_ options: QueryOptions) { self.options = options }

    /// Answers the query on standard output.
    ///
    /// - Parameter open: opens the stores `options` name (a local folder, or object storage).
    /// - Throws: `Failure`: for one place, its error; for a points file, after printing every
    ///   answer, the first place's error with how many places had none.
    package func run(opening open: (QueryOptions) throws -> any QueryStores) throws {
        let dailyVariables = try options.parsedDaily()
        let zone = options.timezone.flatMap(TimeZone.init(identifier:))
        let opened = try open(options)
        let stores = opened.stores
        let requested = try options.parsedVariables()
        let variables = try querying { () throws(QueryError) in try ModelChoice.resolveVariables(stores, requested: requested, daily: dailyVariables) }
        let chosen = QueryTimes.choose(time: options.time.flatMap { TimeParsing.parse($0) }, start: options.start.flatMap { TimeParsing.parse($0) },
                                       hours: options.hours, run: ModelChoice.runTimes(stores), now: Int64(Date().timeIntervalSince1970),
                                       step: Int64(options.every) * 60)
        if let note = chosen.note { FileHandle.standardError.write(Data("note: \(note)\n".utf8)) }
        var request = ForecastRequest(times: chosen.times, variables: variables,
                                      units: OutputUnits(temperature: options.temperatureUnit, windSpeed: options.windSpeedUnit,
                                                         precipitation: options.precipitationUnit),
                                      accumulationWindow: Int64(options.every) * 60)
        request.prefersFastStreams = options.every < 60
        request.cellSelection = options.cellSelection
        request.panel = try options.parsedPanel()
        var assembly = AnswerAssembly(forecasters: stores.map(PointForecaster.init(store:)), request: request,
                                      dailyVariables: dailyVariables, timeZone: zone)
        if variables.contains(where: LaggedMembers.isMade), options.members > 1, opened is LocalStores {
            assembly.memberCount = options.members
            assembly.olderCycles = try olderCycles(of: stores, made: variables.filter(LaggedMembers.isMade))
        }
        let renderer = ForecastRenderer(timeZone: zone, dailyVariables: dailyVariables, times: request.times)
        if let points = options.points {
            try answerPlaces(in: points, assembly: assembly, renderer: renderer, variables: variables, opened: opened)
        } else {
            try answerPlace(assembly: assembly, renderer: renderer, variables: variables, opened: opened)
        }
    }

    /// Each model's kept cycles older than the one read, newest first, at most `--members` - 1
    /// (the command line answers the hours of the cycle read, which no older cycle outlives
    /// by more), opened; a note on standard error names them. A kept cycle that cannot be
    /// opened is the store's damage (exit 5), never a probability from fewer members.
    private func olderCycles(of stores: [ForecastStore], made: [ForecastVariable]) throws -> [String: [ForecastStore]] {
        var older: [String: [ForecastStore]] = [:]
        for store in stores {
            guard let start = store.domains.first?.metadata.cycle else { continue }
            let ids = try querying { () throws(QueryError) in
                do throws(StoreError) { return try CycleStore.cycles(root: options.store, model: store.model) } catch { throw .store(error) }
            }
            let chosen = ids.filter { $0.seconds < start }.sorted(by: >).prefix(options.members - 1)
            older[store.model] = try chosen.map { id in
                try querying { () throws(QueryError) in
                    try ForecastStore(root: options.store, model: store.model, cycle: .cycle(id), nestMargin: options.nestMargin)
                }
            }
            let names = [store.cycle] + chosen.map(\.name)
            // One line for the probabilities (the members' mean), one for the spreads.
            for (group, statistic) in [(made.filter { $0.spreadBase == nil }, "mean"), (made.filter { $0.spreadBase != nil }, "sample standard deviation")]
            where !group.isEmpty {
                FileHandle.standardError.write(Data("note: \(group.map(\.rawValue).joined(separator: ", ")) (\(store.model)) is the \(statistic) over the newest of \(names.joined(separator: ", ")) covering each hour (--members \(options.members))\n".utf8))
            }
        }
        return older
    }

    /// One place (--lat, --lon): an error is the whole answer, on stderr with its status.
    private func answerPlace(assembly: AnswerAssembly, renderer: ForecastRenderer, variables: [ForecastVariable],
                             opened: any QueryStores) throws {
        let (latitude, longitude) = (options.lat ?? .nan, options.lon ?? .nan)
        opened.prefetch(latitude: latitude, longitude: longitude, times: assembly.request.times, variables: variables)
        let answer = assembly.answer(QueryPoint(latitude: latitude, longitude: longitude, elevation: try options.parsedElevation()))
        if case .failure(let error) = answer.result { throw Failure(error) }
        let output = StandardOutput()
        var writer = ForecastWriter(renderer: renderer, format: options.format, single: true, variables: variables, names: false, sink: output.write)
        writer.write(answer)
        writer.finish()
        output.write("\n")
        try output.finish()
    }

    /// The places of a points file, each answered (or its error printed) in the file's order.
    private func answerPlaces(in path: String, assembly: AnswerAssembly, renderer: ForecastRenderer, variables: [ForecastVariable],
                              opened: any QueryStores) throws {
        let places = try querying { () throws(QueryError) in try PointsFile.read(path: path) }.map { row -> (point: QueryPoint, name: String?) in
            var point = row.point
            if let time = row.time { point.times = ForecastRequest.series(from: time, hours: options.hours ?? 1, step: Int64(options.every) * 60) }
            return (point, row.name)
        }
        for place in places {
            opened.prefetch(latitude: place.point.latitude, longitude: place.point.longitude,
                            times: place.point.times ?? assembly.request.times, variables: variables)
        }
        let output = StandardOutput()
        var writer = ForecastWriter(renderer: renderer, format: options.format, single: false, variables: variables,
                                    names: places.contains { $0.name != nil }, sink: output.write)
        var failures = 0
        var firstFailure: QueryError?
        assembly.answers(places, render: writer.layout.render) { answer, rendered in
            if case .failure(let error) = answer.result {
                failures += 1
                // Damage wins over a place outside the store, whichever comes first: exit 5
                // must not hide behind exit 4.
                if firstFailure == nil || (error.exitCode == .damagedStore && firstFailure?.exitCode != .damagedStore) {
                    firstFailure = error
                }
            }
            writer.write(rendered)
        }
        writer.finish()
        output.write("\n")
        try output.finish()
        if let error = firstFailure {
            let which = error.exitCode == .damagedStore ? "the store is damaged" : "first"
            throw Failure(error.exitCode, "\(failures) of \(places.count) places had no forecast; \(which): \(error.description)")
        }
    }
}

/// Standard output through one buffer, written in large blocks (answers are streamed place by
/// place; `print` per piece would make a system call or lock per piece).
final class StandardOutput {
    private var buffer: [UInt8] = []
    private let limit = 1 << 16

    init() { buffer.reserveCapacity(limit) }

    func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= limit { flush() }
    }

    func write(_ bytes: [UInt8]) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= limit { flush() }
    }

    /// The first write error (an errno): later writes are skipped, and `finish` reports it.
    private var failure: Int32?

    func flush() {
        guard failure == nil else { return buffer.removeAll(keepingCapacity: true) }
        buffer.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(STDOUT_FILENO, raw.baseAddress.map { $0 + offset }, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes what is left, then fails if any write did: an answer that did not reach standard
    /// output (a full disk, a closed file) must not end with exit 0.
    func finish() throws(Failure) {
        flush()
        if let failure {
            throw Failure(.outputFailed, "writing the answer to standard output failed: \(String(cString: strerror(failure))) (the answer is incomplete)")
        }
    }
}
