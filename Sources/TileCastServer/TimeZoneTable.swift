import CZlib
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `timezone=auto`: the IANA zone of a place, decided offline.
///
/// A global raster of 0.05° cells (about 5.5 km), each holding the zone timezonefinder gives at
/// its centre (timezone-boundary-builder's polygons, with the Etc/GMT±N zones at sea), run-length
/// encoded row by row: `Scripts/make_timezone_table.py` writes it to the resource file
/// `Resources/timezones.tzr` (the layout is in the script), which SwiftPM copies into the
/// `TileCast_TileCastServer.resources` folder beside the executables it builds, and which is
/// installed beside `tilecast-server`. Read once, at the server's start (`loaded`), into per-row
/// run ends; a lookup is a binary search in one row. A place within a cell of a border may get
/// the neighbour's zone (TimeZoneTests measures the agreement with timezonefinder at seeded
/// random points).
package struct TimeZoneTable: Sendable {
    let columns: Int
    let rows: Int
    let cellDegrees: Double
    package let names: [String]
    /// Per row, each run's last column + 1 (ascending) and its zone index.
    let runEnds: [[UInt16]]
    let runZones: [[UInt16]]

    /// The resource file's name, in `Resources/` and in the bundle folder.
    package static let fileName = "timezones.tzr"
    /// The folder SwiftPM copies this target's resources into, beside the executables it
    /// builds (`<package>_<target>.resources`); installed beside `tilecast-server`. Not found
    /// through `Bundle.module`, whose accessor ends the process when the folder is missing.
    package static let bundleName = ResourceFile.bundleName
    /// Names the table file to read instead of looking for it (only that file is then tried).
    package static let environmentVariable = "TILECAST_TIMEZONE_TABLE"
    /// Larger than any table of this layout (a 7200 x 3600 raster is about 0.5 MB).
    static let maxFileBytes = 64 << 20

    /// The table, read once from the first place of `places()` that holds a file. The server
    /// reads it before it listens and refuses to start when it is a failure
    /// (`ForecastServer.run`, `tilecast serve`).
    package static let loaded: Result<TimeZoneTable, LoadError> = load(places())

    /// The table, or nil when it could not be read (the server does not start then).
    package static var shared: TimeZoneTable? { try? loaded.get() }

    /// Why the table could not be had: one line, naming the places looked at.
    package struct LoadError: Error, CustomStringConvertible, Sendable {
        package let description: String
    }

    /// Where the table is looked for, in order (`ResourceFile.places`).
    package static func places(environment: [String: String] = ProcessInfo.processInfo.environment,
                               executable: String? = executablePath()) -> [(path: String, what: String)] {
        ResourceFile.places(fileName: fileName, environmentVariable: environmentVariable, environment: environment, executable: executable)
    }

    /// The running executable's path, links followed; nil when /proc is not mounted.
    package static func executablePath() -> String? { ResourceFile.executablePath() }

    /// The table from the first of `places` that holds a file: a file that is there but cannot
    /// be read or fails its checks is an error (the places after it are not tried).
    package static func load(_ places: [(path: String, what: String)]) -> Result<TimeZoneTable, LoadError> {
        for place in places {
            let bytes: [UInt8]
            do throws(LoadError) {
                guard let read = try readFile(place.path) else { continue }
                bytes = read
            } catch {
                return .failure(error)
            }
            guard let table = TimeZoneTable(file: bytes) else {
                return .failure(LoadError(description: "the time-zone table \(place.path) (\(place.what)) is damaged: it fails its CRC-32 or is not "
                                          + "a table of this layout; reinstall it (or regenerate it with Scripts/make_timezone_table.py)"))
            }
            // A name the system cannot resolve would answer every place of its zone in GMT,
            // silently (a forged table with a good CRC did): refused at start instead.
            let unknown = table.names.filter { TimeZone(identifier: $0) == nil }
            guard unknown.isEmpty else {
                let shown = unknown.prefix(5).map { "\"\($0.prefix(40))\"" }.joined(separator: ", ") + (unknown.count > 5 ? ", ..." : "")
                return .failure(LoadError(description: "the time-zone table \(place.path) (\(place.what)) names \(unknown.count) zone\(unknown.count == 1 ? "" : "s") "
                                          + "this system's time-zone data lacks (\(shown)): update the system's tzdata, or regenerate the table "
                                          + "with Scripts/make_timezone_table.py"))
            }
            return .success(table)
        }
        let looked = places.map { "\($0.path) (\($0.what))" }.joined(separator: ", ")
        return .failure(LoadError(description: "the time-zone table (timezone=auto) was not found: looked for \(looked.isEmpty ? "nothing" : looked); "
                                  + "install the \(bundleName) folder beside tilecast-server, or set \(environmentVariable) to the file"))
    }

    /// The bytes of the regular file at `path`, or nil when nothing is there.
    static func readFile(_ path: String) throws(LoadError) -> [UInt8]? {
        do throws(ResourceFile.LoadError) {
            return try ResourceFile.read(path, what: "the time-zone table", maxBytes: maxFileBytes)
        } catch {
            throw LoadError(description: error.description)
        }
    }

    /// nil when `file` is not a table of this layout followed by the CRC-32 of its bytes
    /// (never for the committed one; a test checks).
    package init?(file: [UInt8]) {
        guard file.count > 4 else { return nil }
        let body = file.count - 4
        let stored = (0..<4).reduce(UInt32(0)) { $0 | UInt32(file[body + $1]) << (8 * $1) }
        let computed = file.withUnsafeBufferPointer { buffer -> UInt32 in
            guard let base = buffer.baseAddress else { return 0 }
            return UInt32(crc32(crc32(0, nil, 0), base, uInt(body)))
        }
        guard stored == computed else { return nil }
        self.init(table: file[..<body])
    }

    /// nil when `bytes` is not a table of this layout, or has bytes after its last row.
    init?(table bytes: ArraySlice<UInt8>) {
        var at = bytes.startIndex
        func byte() -> UInt8? {
            guard at < bytes.endIndex else { return nil }
            defer { at += 1 }
            return bytes[at]
        }
        func little(_ count: Int) -> Int? {
            var value = 0
            for k in 0..<count {
                guard let b = byte() else { return nil }
                value |= Int(b) << (8 * k)
            }
            return value
        }
        func varint() -> Int? {
            var value = 0, shift = 0
            while shift < 35, let b = byte() {
                value |= Int(b & 0x7F) << shift
                if b & 0x80 == 0 { return value }
                shift += 7
            }
            return nil
        }
        guard bytes.starts(with: Array("TZR1".utf8)) else { return nil }
        at += 4
        guard let columns = little(2), let rows = little(2), let micro = little(4), let zoneCount = little(2),
              columns > 0, rows > 0, micro > 0 else { return nil }
        var names: [String] = []
        for _ in 0..<zoneCount {
            guard let length = byte(), at + Int(length) <= bytes.endIndex else { return nil }
            names.append(String(decoding: bytes[at..<(at + Int(length))], as: UTF8.self))
            at += Int(length)
        }
        var runEnds: [[UInt16]] = [], runZones: [[UInt16]] = []
        runEnds.reserveCapacity(rows)
        runZones.reserveCapacity(rows)
        for _ in 0..<rows {
            guard let count = varint() else { return nil }
            var ends: [UInt16] = [], zones: [UInt16] = []
            ends.reserveCapacity(min(count, columns))
            zones.reserveCapacity(min(count, columns))
            var column = 0
            for _ in 0..<count {
                guard let length = varint(), let zone = varint(), zone < names.count else { return nil }
                column += length
                guard column <= columns else { return nil }
                ends.append(UInt16(column))
                zones.append(UInt16(zone))
            }
            guard column == columns else { return nil }
            runEnds.append(ends)
            runZones.append(zones)
        }
        guard at == bytes.endIndex else { return nil }
        self.columns = columns
        self.rows = rows
        self.cellDegrees = Double(micro) / 1e6
        self.names = names
        self.runEnds = runEnds
        self.runZones = runZones
    }

    /// The zone's IANA name at a place (longitudes in any turn: -190 is 170).
    package func zoneName(latitude: Double, longitude: Double) -> String {
        let row = min(rows - 1, max(0, Int(((90 - latitude) / cellDegrees).rounded(.down))))
        var lon = longitude.truncatingRemainder(dividingBy: 360)
        if lon >= 180 { lon -= 360 } else if lon < -180 { lon += 360 }
        let column = min(columns - 1, max(0, Int(((lon + 180) / cellDegrees).rounded(.down))))
        let ends = runEnds[row]
        // The first run ending past the column.
        var low = 0, high = ends.count - 1
        while low < high {
            let middle = (low + high) / 2
            if Int(ends[middle]) > column { high = middle } else { low = middle + 1 }
        }
        return names[Int(runZones[row][low])]
    }

    /// The zone at a place as Foundation's `TimeZone`, with the name to answer; GMT only
    /// outside the server, which refuses to start without the table (or with a table naming a
    /// zone this system lacks), when the table could not be read.
    package static func zone(latitude: Double, longitude: Double) -> (zone: TimeZone, name: String) {
        guard let name = shared?.zoneName(latitude: latitude, longitude: longitude), let zone = TimeZone(identifier: name) else {
            return (ForecastParameters.gmt, "GMT")
        }
        return (zone, name)
    }
}
