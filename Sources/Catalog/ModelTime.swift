import Foundation

/// Times in ingest and in the store are whole seconds since 1970-01-01T00:00:00Z.
///
/// Plain integers, converted by the proleptic Gregorian algorithms of Howard Hinnant
/// ("chrono-Compatible Low-Level Date Algorithms"), keep decoding fast and exact with no
/// Calendar or time zone involved: model times are UTC.
package enum ModelTime {
    /// Seconds since the epoch for a UTC calendar time; nil when a field is out of range.
    package static func seconds(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) -> Int64? {
        guard (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
              (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second),
              (1...9999).contains(year) else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        return Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }

    /// Parses WRF's "YYYY-MM-DD_HH:MM:SS" (also with 'T' or ' ' as separator, and with the
    /// seconds left off); nil for anything else, including "0000-00-00_00:00:00".
    package static func parseWRF(_ text: String) -> Int64? {
        let digits = Array(text.utf8)
        func number(_ start: Int, _ length: Int) -> Int? {
            guard start + length <= digits.count else { return nil }
            var value = 0
            for byte in digits[start..<(start + length)] {
                guard byte >= 48 && byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard digits.count == 19 || digits.count == 16,
              digits[4] == UInt8(ascii: "-"), digits[7] == UInt8(ascii: "-"),
              [UInt8(ascii: "_"), UInt8(ascii: "T"), UInt8(ascii: " ")].contains(digits[10]),
              digits[13] == UInt8(ascii: ":"),
              let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
              let hour = number(11, 2), let minute = number(14, 2) else { return nil }
        var second = 0
        if digits.count == 19 {
            guard digits[16] == UInt8(ascii: ":"), let value = number(17, 2) else { return nil }
            second = value
        }
        return seconds(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }

    /// Parses the reference time of CF units such as "minutes since 2026-11-22 00:00:00".
    package static func parseSinceUnits(_ units: String) -> Int64? {
        guard let range = units.range(of: "since ") else { return nil }
        var text = units[range.upperBound...].trimmingCharacters(in: .whitespaces)
        if text.hasSuffix("Z") { text.removeLast() }
        if text.count == 10 { text += " 00:00:00" }
        if text.count > 19 { text = String(text.prefix(19)) }
        return parseWRF(text)
    }

    /// "2026-11-22T06:00Z": compact ISO 8601, as cycles are named.
    package static func isoMinutes(_ seconds: Int64) -> String { isoText(seconds, withSeconds: false) }

    /// "2026-11-22T06:00:00Z".
    package static func iso(_ seconds: Int64) -> String { isoText(seconds, withSeconds: true) }

    /// The ISO text's digits written into the string's own storage (`writeISODigits`): a
    /// request's times are made with these (an interpolated String of padded Strings cost
    /// ~5,000 instructions a time, benchmark S1). Years outside 0...9999 take the general path.
    private static func isoText(_ seconds: Int64, withSeconds: Bool) -> String {
        let text = String(unsafeUninitializedCapacity: 20) { buffer in
            guard let base = buffer.baseAddress, let n = writeISODigits(seconds, withSeconds: withSeconds, at: base) else { return 0 }
            base[n] = UInt8(ascii: "Z")
            return n + 1
        }
        if !text.isEmpty { return text }
        let c = civil(seconds)
        let minutes = "\(pad(c.year, 4))-\(pad(c.month))-\(pad(c.day))T\(pad(c.hour)):\(pad(c.minute))"
        return withSeconds ? minutes + ":\(pad(c.second))Z" : minutes + "Z"
    }

    /// Writes "2026-11-22T06:00" (16 bytes), or with `withSeconds` "2026-11-22T06:00:00" (19),
    /// at `target`; returns the bytes written, or nil (nothing written) for a year outside
    /// 0...9999. The digits of `iso`, `isoMinutes` and the server's JSON time labels.
    package static func writeISODigits(_ seconds: Int64, withSeconds: Bool, at target: UnsafeMutablePointer<UInt8>) -> Int? {
        let c = civil(seconds)
        guard (0...9999).contains(c.year) else { return nil }
        var n = 0
        func put(_ value: Int, _ width: Int) {
            var divisor = width == 4 ? 1000 : 10
            var rest = value
            while divisor > 0 {
                target[n] = UInt8(truncatingIfNeeded: 48 + rest / divisor)
                rest %= divisor
                divisor /= 10
                n += 1
            }
        }
        func mark(_ character: Unicode.Scalar) {
            target[n] = UInt8(ascii: character)
            n += 1
        }
        put(c.year, 4); mark("-"); put(c.month, 2); mark("-"); put(c.day, 2); mark("T")
        put(c.hour, 2); mark(":"); put(c.minute, 2)
        if withSeconds { mark(":"); put(c.second, 2) }
        return n
    }

    /// The calendar fields of a time.
    package static func civil(_ seconds: Int64) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        let days = Int(floorDivide(seconds, 86_400))
        let rest = Int(seconds - Int64(days) * 86_400)
        let (year, month, day) = civilFromDays(days)
        return (year, month, day, rest / 3600, rest % 3600 / 60, rest % 60)
    }

    /// A duration as "1h", "3h", "30min", "90s".
    package static func duration(_ seconds: Int64) -> String {
        if seconds % 3600 == 0 { return "\(seconds / 3600)h" }
        if seconds % 60 == 0 { return "\(seconds / 60)min" }
        return "\(seconds)s"
    }

    private static func pad(_ value: Int, _ width: Int = 2) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        a >= 0 ? a / b : -((-a + b - 1) / b)
    }

    private static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Day of the year (1...366) of a time in seconds since 1970, UTC (proleptic Gregorian),
    /// for the sun's position in per-hour loops where Foundation's Calendar cost microseconds.
    package static func dayOfYear(_ seconds: Int64) -> Int {
        let days = Int(floorDivide(seconds, 86_400))
        let (year, _, _) = civilFromDays(days)
        return days - daysFromCivil(year: year, month: 1, day: 1) + 1
    }

    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    private static func civilFromDays(_ days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

extension ModelTime {
    /// Parses a cycle or time given on the command line: "2026-11-22T00Z", "2026-11-22T06:00Z",
    /// "2026-11-22T06:00:00Z", "2026-11-22T06:00:00.000Z" (a fraction of zeros only: nothing
    /// here is finer than a second), "2026-11-22 06:00", WRF's "2026-11-22_06:00:00", or a
    /// date alone.
    package static func parseUser(_ text: String) -> Int64? {
        var value = text.trimmingCharacters(in: .whitespaces)
        if value.hasSuffix("Z") || value.hasSuffix("z") { value.removeLast() }
        if value.hasSuffix("+00:00") { value.removeLast(6) }
        if value.count > 20, let dot = value.lastIndex(of: "."), value.distance(from: value.startIndex, to: dot) == 19 {
            let fraction = value[value.index(after: dot)...]
            guard !fraction.isEmpty, fraction.allSatisfy({ $0 == "0" }) else { return nil }
            value = String(value[..<dot])
        }
        if value.count == 10 { value += "T00:00:00" }
        if value.count == 13 { value += ":00:00" }       // 2026-11-22T06
        if value.count == 15, !value.contains(":") {      // 2026-11-22T0630
            let hour = value.dropFirst(11).prefix(2), minute = value.suffix(2)
            value = String(value.prefix(11)) + hour + ":" + minute + ":00"
        }
        if value.count == 16 { value += ":00" }
        return parseWRF(value)
    }
}
