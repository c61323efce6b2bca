import Foundation

/// `timezone=auto`: the IANA zone of a place, decided offline.
///
/// A global raster of 0.05° cells (about 5.5 km), each holding the zone timezonefinder gives at
/// its centre (timezone-boundary-builder's polygons, with the Etc/GMT±N zones at sea), run-length
/// encoded row by row: `Scripts/make_timezone_table.py` builds it into `TimeZoneTable+Data.swift`
/// (the layout is in the script). Decoded once, on first use, into per-row run ends; a lookup
/// is a binary search in one row. A place within a cell of a border may get the neighbour's zone
/// (TimeZoneTests measures the agreement with timezonefinder at seeded random points).
package struct TimeZoneTable: Sendable {
    let columns: Int
    let rows: Int
    let cellDegrees: Double
    package let names: [String]
    /// Per row, each run's last column + 1 (ascending) and its zone index.
    let runEnds: [[UInt16]]
    let runZones: [[UInt16]]

    /// The table inside this binary, decoded once.
    package static let shared: TimeZoneTable? = TimeZoneTable(base64: encoded)

    /// nil when the data is not a table of this layout (never for the committed one; a test checks).
    init?(base64: String) {
        guard let data = Data(base64Encoded: base64, options: .ignoreUnknownCharacters) else { return nil }
        let bytes = [UInt8](data)
        var at = 0
        func byte() -> UInt8? {
            guard at < bytes.count else { return nil }
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
        at = 4
        guard let columns = little(2), let rows = little(2), let micro = little(4), let zoneCount = little(2),
              columns > 0, rows > 0, micro > 0 else { return nil }
        var names: [String] = []
        for _ in 0..<zoneCount {
            guard let length = byte(), at + Int(length) <= bytes.count else { return nil }
            names.append(String(decoding: bytes[at..<(at + Int(length))], as: UTF8.self))
            at += Int(length)
        }
        var runEnds: [[UInt16]] = [], runZones: [[UInt16]] = []
        runEnds.reserveCapacity(rows)
        runZones.reserveCapacity(rows)
        for _ in 0..<rows {
            guard let count = varint() else { return nil }
            var ends: [UInt16] = [], zones: [UInt16] = []
            ends.reserveCapacity(count)
            zones.reserveCapacity(count)
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

    /// The zone at a place as Foundation's `TimeZone`, with the name to answer; GMT when the
    /// table's name is unknown to this system's tz database.
    package static func zone(latitude: Double, longitude: Double) -> (zone: TimeZone, name: String) {
        guard let name = shared?.zoneName(latitude: latitude, longitude: longitude), let zone = TimeZone(identifier: name) else {
            return (ForecastParameters.gmt, "GMT")
        }
        return (zone, name)
    }
}
