import Catalog
import Foundation
import NetCDF

/// WRF writes a domain's output in streams: the history (`wrfout_d02_...`, every field, hourly
/// say) and auxiliary histories (`auxhist2_d02_...`, a few surface fields every 15 minutes, set
/// up with `auxhist2_interval` and `iofields_filename`). Each stream has a time axis of its own.
/// A domain's files are grouped by stream; the history becomes the domain, and a finer stream
/// beside it is kept as the domain's fast stream (its file in the store answers `minutely_15`).
enum OutputStreams {
    /// The stream a file belongs to, from WRF's file naming `<stream>_d<NN>_<YYYY-MM-DD>...`
    /// ("wrfout", "auxhist2", or whatever `auxhist2_outname` set); nil for a name of another shape.
    static func streamName(_ path: String) -> String? {
        let name = Array((path as NSString).lastPathComponent.utf8)
        let digit = { (c: UInt8) in c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }
        // The last "_dNN_YYYY-" in the name: the stream is what precedes it.
        var index = name.count - 10
        while index > 0 {
            if name[index] == UInt8(ascii: "_"), name[index + 1] == UInt8(ascii: "d"), digit(name[index + 2]), digit(name[index + 3]),
               name[index + 4] == UInt8(ascii: "_"), (index + 5..<index + 9).allSatisfy({ digit(name[$0]) }), name[index + 9] == UInt8(ascii: "-") {
                return String(decoding: name[..<index], as: UTF8.self)
            }
            index -= 1
        }
        return nil
    }

    /// One domain's files split into its history and the streams finer than it.
    ///
    /// The history is the stream named `wrfout` when there is one, else the stream holding the
    /// most fields. Another named stream is a fast stream only when its frames are closer
    /// together than the history's; any other files (unnamed, or a stream no finer than the
    /// history) stay with the history, joined as before.
    static func split(_ files: [SourceFile]) -> (history: [SourceFile], fast: [String: [SourceFile]]) {
        let groups = Dictionary(grouping: files) { streamName($0.path) ?? "" }
        guard groups.count > 1 else { return (files, [:]) }
        let named = groups.filter { !$0.key.isEmpty }
        let historyName = named["wrfout"] != nil ? "wrfout"
            : named.max { a, b in (fields(a.value), a.key) < (fields(b.value), b.key) }?.key ?? ""
        let historyStep = step(groups[historyName] ?? [])
        var history: [SourceFile] = []
        var fast: [String: [SourceFile]] = [:]
        for (name, members) in groups {
            if name != historyName, !name.isEmpty, let own = step(members), historyStep.map({ own < $0 }) ?? false {
                fast[name] = members
            } else {
                history += members
            }
        }
        return (history.sorted { ($0.times.first ?? 0, $0.path) < ($1.times.first ?? 0, $1.path) }, fast)
    }

    private static func fields(_ files: [SourceFile]) -> Int { files.map(\.variables.count).max() ?? 0 }

    /// The most common interval between a stream's frames (nil for a single frame).
    private static func step(_ files: [SourceFile]) -> Int64? {
        Domain.commonStep(Array(Set(files.flatMap(\.times))).sorted())
    }

    /// Why a fast stream cannot be used beside its history, or nil when it can: it must lie on
    /// the history's grid, stay put, and hold the same values where both have a frame.
    static func problem(stream: Domain, history: Domain) throws(IngestError) -> String? {
        if stream.motion != nil || history.motion != nil { return "the domain is a moving nest (a fast stream of a moving nest is not supported yet)" }
        let a = stream.grid, b = history.grid
        guard a.westEast == b.westEast, a.southNorth == b.southNorth, a.parameters == b.parameters,
              abs(a.southWestCorner.latitude - b.southWestCorner.latitude) <= CoordinateCheck.tolerance,
              CoordinateCheck.longitudeDifference(Float(a.southWestCorner.longitude), Float(b.southWestCorner.longitude)) <= CoordinateCheck.tolerance else {
            return "its grid (\(a.westEast)x\(a.southNorth) from \(describe(a.southWestCorner))) is not the history's (\(b.westEast)x\(b.southNorth) from \(describe(b.southWestCorner)))"
        }
        return try disagreement(stream: stream, history: history)
    }

    /// How far two streams' values may differ at one time and still count as one model state:
    /// WRF writes the same numbers to every stream, so real files agree exactly; the slack lets
    /// through what lossy compression of one stream (netCDF-4 quantize) changes, a 10,000th
    /// of the value (0.03 K of a temperature, 10 Pa of a surface pressure).
    static let relativeTolerance: Float = 1e-4

    /// The first field that differs between the streams at a time both hold, described; nil
    /// when every shared field agrees at every shared time.
    private static func disagreement(stream: Domain, history: Domain) throws(IngestError) -> String? {
        let historyFrames = Dictionary(history.frames.map { ($0.time, $0) }, uniquingKeysWith: { first, _ in first })
        let skipped: Set<SourceRole> = [.latitude, .longitude, .timeText, .timeMinutes]
        for frame in stream.frames {
            guard let other = historyFrames[frame.time] else { continue }
            let a = stream.files[frame.fileIndex], b = history.files[other.fileIndex]
            for role in SourceRole.allCases where !skipped.contains(role) {
                guard let va = a.variable(role), let vb = b.variable(role), va.shape.count == 3, vb.shape.count == 3,
                      va.shape.dropFirst() == vb.shape.dropFirst(), va.info.dimensions.first?.name == a.timeDimension,
                      vb.info.dimensions.first?.name == b.timeDimension else { continue }
                let count = [1] + Array(va.shape.dropFirst())
                let x: [Float], y: [Float]
                do {
                    x = try va.readFloats(start: [frame.frameIndex, 0, 0], count: count)
                    y = try vb.readFloats(start: [other.frameIndex, 0, 0], count: count)
                } catch {
                    throw IngestError.unreadable(error)
                }
                var worst: Float = 0
                for (p, q) in zip(x, y) where !(abs(p - q) <= relativeTolerance * max(abs(p), abs(q))) {
                    worst = max(worst, abs(p - q).isNaN ? .infinity : abs(p - q))
                }
                if worst > 0 {
                    return "its \(va.name) at \(ModelTime.iso(frame.time)) differs from the history's by up to \(worst) \(units(va))"
                }
            }
        }
        return nil
    }

    private static func units(_ variable: Variable) -> String { variable.attributes["units"]?.string ?? "" }
}
