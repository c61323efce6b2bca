import Catalog
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Parses a `--points` CSV: a header naming `lat` and `lon` (or `latitude`, `longitude`) and
/// optionally `time` (ISO 8601, UTC unless it carries an offset), `name` and `elevation`
/// (metres to move the values to, `Downscaling`; empty or nan for the model terrain).
package enum PointsFile {
    /// One place of the file, with its name and time when the file gives them.
    package typealias Row = (point: QueryPoint, name: String?, time: Int64?)

    /// Reads and parses a points file; "-" is standard input.
    ///
    /// - Throws: `QueryError.badRequest` (exit 2) saying what is wrong: not found, permission
    ///   denied, a folder, not UTF-8 text (naming the line), or a bad row.
    package static func read(path: String) throws(QueryError) -> [Row] {
        let source = path == "-" ? "standard input" : path
        let contents = try text(try path == "-" ? readAll(descriptor: STDIN_FILENO, source: source) : readFile(path), source: source)
        return try parse(contents, source: source)
    }

    /// The file's bytes, with the reason it cannot be read in words (errno's, not a guess).
    private static func readFile(_ path: String) throws(QueryError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            switch code {
            case ENOENT, ENOTDIR: throw .badRequest("\(path): points file not found")
            case EACCES, EPERM: throw .badRequest("\(path): permission denied reading the points file")
            default: throw .badRequest("\(path): cannot open the points file: \(String(cString: strerror(code)))")
            }
        }
        defer { close(descriptor) }
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            throw .badRequest("\(path): is a folder; expected a CSV file of places")
        }
        return try readAll(descriptor: descriptor, source: path)
    }

    private static func readAll(descriptor: Int32, source: String) throws(QueryError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return bytes }
            if count < 0 {
                if errno == EINTR { continue }
                let code = errno
                if code == EISDIR { throw .badRequest("\(source): is a folder; expected a CSV file of places") }
                throw .badRequest("\(source): cannot read the points file: \(String(cString: strerror(code)))")
            }
            bytes += chunk[0..<count]
        }
    }

    /// The bytes as UTF-8 text (a leading byte-order mark dropped), or an error naming the
    /// first line that is not UTF-8.
    static func text(_ bytes: [UInt8], source: String) throws(QueryError) -> String {
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        if let text = String(validating: body, as: UTF8.self) { return text }
        var line = 1
        for piece in body.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            if String(validating: piece, as: UTF8.self) == nil { break }
            line += 1
        }
        throw .badRequest("\(source):\(line): not UTF-8 text; save the points file as UTF-8")
    }

    /// - Throws: `QueryError.badRequest` naming the line and what was expected.
    package static func parse(_ text: String, source: String) throws(QueryError) -> [Row] {
        // Substrings share the text's storage: no copy per line for a file of many places.
        var lines = splitLines(text)
        while let last = lines.last, isBlank(last) { lines.removeLast() }
        guard let headerLine = lines.first else { throw .badRequest("\(source): empty file; expected a header line with lat,lon") }
        let header = split(headerLine).map { $0.lowercased() }
        guard let latColumn = header.firstIndex(where: { $0 == "lat" || $0 == "latitude" }),
              let lonColumn = header.firstIndex(where: { $0 == "lon" || $0 == "longitude" || $0 == "lng" }) else {
            throw .badRequest("\(source):1: the header must name lat and lon columns (found: \(headerLine))")
        }
        let timeColumn = header.firstIndex(of: "time")
        let nameColumn = header.firstIndex(of: "name")
        let elevationColumn = header.firstIndex(of: "elevation")
        var result: [Row] = []
        for (offset, line) in lines.enumerated().dropFirst() {
            let number = offset + 1
            if isBlank(line) || line.hasPrefix("#") { continue }
            let fields = split(line)
            // More fields than the header is a shifted row ("38,7,-9,1" under lat,lon is not
            // 38N 7E); fewer is fine while lat and lon are there (a trailing time left out).
            guard fields.count <= header.count, fields.count > max(latColumn, lonColumn) else {
                throw .badRequest("\(source):\(number): found \(fields.count) fields, the header has \(header.count): \(line)")
            }
            guard let lat = Double(fields[latColumn]), QueryPoint.isValid(latitude: lat) else {
                throw .badRequest("\(source):\(number): latitude \"\(fields[latColumn])\" is not a number in -90..90")
            }
            guard let lon = Double(fields[lonColumn]), QueryPoint.isValid(longitude: lon) else {
                throw .badRequest("\(source):\(number): longitude \"\(fields[lonColumn])\" is not a number in -180..360")
            }
            var time: Int64?
            if let timeColumn, timeColumn < fields.count, !fields[timeColumn].isEmpty {
                guard let parsed = TimeParsing.parse(fields[timeColumn], allowingSeconds: true) else {
                    throw .badRequest("\(source):\(number): time \"\(fields[timeColumn])\": \(TimeParsing.problem(fields[timeColumn]))")
                }
                time = parsed
            }
            var elevation: Double?
            if let elevationColumn, elevationColumn < fields.count, !fields[elevationColumn].isEmpty {
                switch QueryPoint.parseElevation(fields[elevationColumn]) {
                case .success(let value): elevation = value
                case .failure(let error): throw .badRequest("\(source):\(number): \(error.description)")
                }
            }
            let name = nameColumn.flatMap { $0 < fields.count ? fields[$0] : nil }
            result.append((QueryPoint(latitude: lat, longitude: lon, line: number, elevation: elevation), name, time))
        }
        guard !result.isEmpty else { throw .badRequest("\(source): no points after the header") }
        return result
    }

    /// Splits one CSV line (double quotes protect commas).
    static func split(_ line: Substring) -> [String] {
        // ASCII lines (nearly every points file) byte by byte, with the same rules: going
        // Character by Character and trimming with Foundation was most of reading 100k places.
        var line = line
        if let fields = line.withUTF8({ bytes in bytes.allSatisfy({ $0 < 0x80 }) ? splitASCII(bytes) : nil }) { return fields }
        return splitCharacters(line)
    }

    /// The general splitter, Character by Character (any UTF-8); `splitASCII` follows its rules.
    static func splitCharacters(_ line: Substring) -> [String] {
        var fields: [String] = []
        var current = ""
        var quoted = false
        var index = line.startIndex
        while index < line.endIndex {
            let character = line[index]
            index = line.index(after: index)
            if character == "\"" {
                // Inside quotes, "" is one quote (RFC 4180's escape): `"Say ""hi"""` is Say "hi".
                if quoted, index < line.endIndex, line[index] == "\"" {
                    current.append("\"")
                    index = line.index(after: index)
                } else {
                    quoted.toggle()
                }
                continue
            }
            if character == "," && !quoted { fields.append(current.trimmingCharacters(in: .whitespaces)); current = ""; continue }
            current.append(character)
        }
        fields.append(current.trimmingCharacters(in: .whitespaces))
        return fields
    }
}

extension PointsFile {
    /// `split` for an ASCII line: fields between unquoted commas, quotes dropped, spaces and
    /// tabs trimmed (what `trimmingCharacters(in: .whitespaces)` trims in ASCII).
    private static func splitASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> [String] {
        var fields: [String] = []
        var current: [UInt8] = []
        var quoted = false
        func finish() {
            var start = 0, end = current.count
            while start < end, current[start] == 0x20 || current[start] == 0x09 { start += 1 }
            while end > start, current[end - 1] == 0x20 || current[end - 1] == 0x09 { end -= 1 }
            fields.append(String(decoding: current[start..<end], as: UTF8.self))
            current.removeAll(keepingCapacity: true)
        }
        var k = 0
        while k < bytes.count {
            let byte = bytes[k]
            k += 1
            if byte == UInt8(ascii: "\"") {
                if quoted, k < bytes.count, bytes[k] == UInt8(ascii: "\"") {
                    current.append(byte)
                    k += 1
                } else {
                    quoted.toggle()
                }
                continue
            }
            if byte == UInt8(ascii: ",") && !quoted { finish(); continue }
            current.append(byte)
        }
        finish()
        return fields
    }

    /// `text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)`, by bytes
    /// for ASCII text (LF, VT, FF, CR and CR LF end a line, as for Characters).
    static func splitLines(_ text: String) -> [Substring] {
        var copy = text
        let ends: [(start: Int, end: Int)]? = copy.withUTF8 { bytes in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            var ends: [(start: Int, end: Int)] = []
            var start = 0, k = 0
            while k < bytes.count {
                let byte = bytes[k]
                if byte >= 0x0A && byte <= 0x0D {
                    ends.append((start, k))
                    if byte == 0x0D && k + 1 < bytes.count && bytes[k + 1] == 0x0A { k += 1 }
                    start = k + 1
                }
                k += 1
            }
            ends.append((start, bytes.count))
            return ends
        }
        // Not `\.isNewline`: it also ends a line at U+2028, U+2029 and U+0085, which a name may
        // hold; the same five line ends as the ASCII path.
        guard let ends else {
            return text.split(omittingEmptySubsequences: false, whereSeparator: { ["\n", "\r", "\r\n", "\u{0B}", "\u{0C}"].contains($0) })
        }
        let utf8 = copy.utf8
        return ends.map { copy[utf8.index(utf8.startIndex, offsetBy: $0.start)..<utf8.index(utf8.startIndex, offsetBy: $0.end)] }
    }

    /// Whether a line is blank: only spaces and tabs (or other Unicode spaces).
    static func isBlank(_ line: Substring) -> Bool {
        var line = line
        let ascii = line.withUTF8 { bytes -> Bool? in
            bytes.allSatisfy({ $0 < 0x80 }) ? bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 } : nil
        }
        return ascii ?? line.trimmingCharacters(in: .whitespaces).isEmpty
    }
}

/// Times given by users: UTC forms (see `ModelTime.parseUser`) and ISO 8601 with an offset.
package enum TimeParsing {
    /// Seconds since 1970 for a user's time, to the minute: nil for anything else, including
    /// a time with seconds that are not zero (`--time` and `--start` lay out a series of whole
    /// steps from it), and an offset outside RFC 3339's "+HH:MM" (hours 00-23, minutes 00-59).
    /// With `allowingSeconds` (a points file's times: a GPS track or a ship's log has
    /// seconds), a time to the second; its answer is labelled with its seconds.
    package static func parse(_ text: String, allowingSeconds: Bool = false) -> Int64? {
        guard let seconds = parseAnySecond(text), allowingSeconds || seconds % 60 == 0 else { return nil }
        return seconds
    }

    /// Why `parse` refused a time, for the message.
    package static func problem(_ text: String) -> String {
        if let seconds = parseAnySecond(text), seconds % 60 != 0 {
            return "times are to the minute (seconds must be 0), e.g. 2026-11-22T06:00Z"
        }
        return "expected ISO 8601 to the minute, e.g. 2026-11-22T06:00Z or 2026-11-22T07:00+01:00"
    }

    private static func parseAnySecond(_ text: String) -> Int64? {
        if let utc = ModelTime.parseUser(text) { return utc }
        // "2026-11-22T06:00+01:00" / "...:00-03:00"
        let trimmed = Array(text.trimmingCharacters(in: .whitespaces).utf8)
        guard trimmed.count >= 22 else { return nil }
        let offset = trimmed.suffix(6)
        let sign = offset[offset.startIndex]
        guard sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-"), offset[offset.startIndex + 3] == UInt8(ascii: ":"),
              let hours = twoDigits(offset.dropFirst().prefix(2)), let minutes = twoDigits(offset.suffix(2)),
              hours <= 23, minutes <= 59,
              let base = ModelTime.parseUser(String(decoding: trimmed.dropLast(6), as: UTF8.self)) else { return nil }
        let seconds = Int64(hours * 3600 + minutes * 60)
        return sign == UInt8(ascii: "+") ? base - seconds : base + seconds
    }

    private static func twoDigits(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard bytes.count == 2, bytes.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        return Int(bytes[bytes.startIndex] - 48) * 10 + Int(bytes[bytes.startIndex + 1] - 48)
    }
}
