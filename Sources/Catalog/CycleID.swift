
/// A cycle: the run's start time. It sorts by time and prints as the store's folder name
/// ("2026-11-22T00Z", or "2026-11-22T0630Z" when the minutes are not zero), so a 06:30 cycle
/// comes after 06:00 (as names, "T06Z" > "T0630Z": sorting names got latest and --keep wrong).
public struct CycleID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Seconds since 1970 UTC, on a whole minute.
    public let seconds: Int64

    /// The cycle starting at `seconds` (seconds within the minute are dropped: names keep minutes).
    public init(seconds: Int64) { self.seconds = seconds - ((seconds % 60) + 60) % 60 }

    /// Parses a folder name the store writes; nil for anything else (so that no other text,
    /// "..", "latest" or a path, ever names a cycle).
    public init?(name: String) {
        let bytes = Array(name.utf8)
        guard bytes.count == 14 || bytes.count == 16, bytes.last == UInt8(ascii: "Z"), bytes[4] == UInt8(ascii: "-"),
              bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T") else { return nil }
        func number(_ start: Int, _ length: Int) -> Int? {
            var value = 0
            for byte in bytes[start..<(start + length)] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2), let hour = number(11, 2) else { return nil }
        let minute = bytes.count == 16 ? number(13, 2) : 0
        // A name with minutes "00" is not one the store writes ("T00Z" is): refused, so each
        // cycle has exactly one name.
        guard let minute, bytes.count == 14 || minute != 0,
              let seconds = ModelTime.seconds(year: year, month: month, day: day, hour: hour, minute: minute) else { return nil }
        self.seconds = seconds
    }

    /// The folder name.
    public var name: String {
        let c = ModelTime.civil(seconds)
        let time = Self.pad(c.hour) + (c.minute == 0 ? "" : Self.pad(c.minute))
        return "\(Self.pad(c.year, 4))-\(Self.pad(c.month))-\(Self.pad(c.day))T\(time)Z"
    }

    public var description: String { name }

    public static func < (lhs: CycleID, rhs: CycleID) -> Bool { lhs.seconds < rhs.seconds }

    private static func pad(_ value: Int, _ width: Int = 2) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}

/// Which cycle a request means: the newest published one, or a named one. Parsed once where the
/// text enters (an option, a parameter), so that no code below compares with "latest".
public enum CycleSelector: Sendable, Equatable, CustomStringConvertible {
    case latest
    case cycle(CycleID)

    /// "latest", a cycle's folder name, or its start in any form `ModelTime.parseUser` reads
    /// ("2026-11-22T00Z", "2026-11-22 00:00", ...); nil for anything else.
    public init?(parsing text: String) {
        if text == "latest" {
            self = .latest
        } else if let id = CycleID(name: text) {
            self = .cycle(id)
        } else if let seconds = ModelTime.parseUser(text) {
            self = .cycle(CycleID(seconds: seconds))
        } else {
            return nil
        }
    }

    /// "latest" or the cycle's folder name: the store's (and a bucket's) name for it.
    public var description: String {
        switch self {
        case .latest: return "latest"
        case .cycle(let id): return id.name
        }
    }
}
