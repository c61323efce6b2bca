import Catalog
import Foundation

/// Parses a `--points` CSV: a header naming `lat` and `lon` (or `latitude`, `longitude`) and
/// optionally `time` (ISO 8601, UTC unless it carries an offset) and `name`.
public enum PointsFile {
    /// - Throws: `QueryError.badRequest` naming the line and what was expected.
    public static func parse(_ text: String, source: String) throws(QueryError) -> [(point: QueryPoint, name: String?, time: Int64?)] {
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
        while lines.last?.trimmingCharacters(in: .whitespaces).isEmpty == true { lines.removeLast() }
        guard let headerLine = lines.first else { throw .badRequest("\(source): empty file; expected a header line with lat,lon") }
        let header = split(headerLine).map { $0.lowercased() }
        guard let latColumn = header.firstIndex(where: { $0 == "lat" || $0 == "latitude" }),
              let lonColumn = header.firstIndex(where: { $0 == "lon" || $0 == "longitude" || $0 == "lng" }) else {
            throw .badRequest("\(source):1: the header must name lat and lon columns (found: \(headerLine))")
        }
        let timeColumn = header.firstIndex(of: "time")
        let nameColumn = header.firstIndex(of: "name")
        var result: [(point: QueryPoint, name: String?, time: Int64?)] = []
        for (offset, line) in lines.enumerated().dropFirst() {
            let number = offset + 1
            if line.trimmingCharacters(in: .whitespaces).isEmpty || line.hasPrefix("#") { continue }
            let fields = split(line)
            guard fields.count >= header.count || fields.count > max(latColumn, lonColumn) else {
                throw .badRequest("\(source):\(number): expected \(header.count) fields, found \(fields.count): \(line)")
            }
            guard let lat = Double(fields[latColumn]), lat.isFinite, abs(lat) <= 90 else {
                throw .badRequest("\(source):\(number): latitude \"\(fields[latColumn])\" is not a number in -90..90")
            }
            guard let lon = Double(fields[lonColumn]), lon.isFinite, lon >= -180, lon <= 360 else {
                throw .badRequest("\(source):\(number): longitude \"\(fields[lonColumn])\" is not a number in -180..360")
            }
            var time: Int64?
            if let timeColumn, timeColumn < fields.count, !fields[timeColumn].isEmpty {
                guard let parsed = TimeParsing.parse(fields[timeColumn]) else {
                    throw .badRequest("\(source):\(number): time \"\(fields[timeColumn])\" is not ISO 8601 (e.g. 2026-11-22T06:00Z)")
                }
                time = parsed
            }
            let name = nameColumn.flatMap { $0 < fields.count ? fields[$0] : nil }
            result.append((QueryPoint(latitude: lat, longitude: lon, line: number), name, time))
        }
        guard !result.isEmpty else { throw .badRequest("\(source): no points after the header") }
        return result
    }

    /// Splits one CSV line (double quotes protect commas).
    static func split(_ line: String) -> [String] {
        var fields: [String] = []
        var current = ""
        var quoted = false
        for character in line {
            if character == "\"" { quoted.toggle(); continue }
            if character == "," && !quoted { fields.append(current.trimmingCharacters(in: .whitespaces)); current = ""; continue }
            current.append(character)
        }
        fields.append(current.trimmingCharacters(in: .whitespaces))
        return fields
    }
}

/// Times given by users: UTC forms (see `ModelTime.parseUser`) and ISO 8601 with an offset.
public enum TimeParsing {
    public static func parse(_ text: String) -> Int64? {
        if let utc = ModelTime.parseUser(text) { return utc }
        // "2026-11-22T06:00+01:00" / "...:00-03:00"
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.count >= 22 else { return nil }
        let sign = trimmed[trimmed.index(trimmed.endIndex, offsetBy: -6)]
        guard sign == "+" || sign == "-", let base = ModelTime.parseUser(String(trimmed.dropLast(6))) else { return nil }
        let offset = trimmed.suffix(5).split(separator: ":").compactMap { Int($0) }
        guard offset.count == 2 else { return nil }
        let seconds = Int64(offset[0] * 3600 + offset[1] * 60)
        return sign == "+" ? base - seconds : base + seconds
    }
}
