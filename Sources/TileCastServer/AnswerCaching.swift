import Catalog
import Foundation
import HTTPTypes
import PointQuery

/// What a forecast answer depends on in the store (`CycleCache.generation`): each model's
/// latest publication with the cycles kept beside it, so that publishing or pruning a cycle
/// changes it and nothing else does, and the newest publication's time.
package struct StoreGeneration: Sendable, Equatable {
    /// The publications, in words ("model=folder,kept folder,...;"), hashed into the ETag.
    package let text: String
    /// The newest latest cycle's publication (its manifest's `createdAt`), seconds since 1970.
    package let publishedAt: Int64?
}

/// When an answer changes with the clock although the store does not (issue 48): the blocks
/// a request asks relative to now. `since` is when the answer took its present form, `until`
/// when it next changes (nil: never, every time asked is a fixed date).
package struct ClockDependence: Sendable, Equatable {
    package let since: Int64
    package let until: Int64?

    /// The quarter hour below now: `current` (Open-Meteo's 15 minutes), `forecast_minutely_15`
    /// and the steps counted from the current quarter hour, the meteogram's "now" line; also
    /// the fallback when a local day's start is unknown (every zone's offset is a whole number
    /// of quarter hours, so each local midnight falls on one).
    package static func quarterHour(_ now: Int64) -> Self { every(900, now) }

    /// The step of `seconds` (a minute, a quarter hour, an hour) that holds now.
    package static func every(_ seconds: Int64, _ now: Int64) -> Self {
        let start = floorDiv(now, seconds) * seconds
        return Self(since: start, until: start + seconds)
    }

    /// For a forecast request's time parameters: the shortest-lived of its blocks decides.
    package static func of(_ parameters: ForecastParameters, now: Int64) -> Self {
        let selections = [parameters.times] + parameters.ranges
        if !parameters.current.isEmpty || parameters.currentWeather
            || selections.contains(where: { ($0.forecastMinutely15 != nil || $0.pastMinutely15 != nil) && $0.initialMinutely15 == nil }) {
            return quarterHour(now)
        }
        let counted = selections.contains(where: { ($0.forecastHours != nil || $0.pastHours != nil) && $0.initialHours == nil })
        // Days counted from today (forecast_days, past_days, the default week) move at each
        // zone's local midnight; start_date..end_date never move.
        guard counted || selections.contains(where: { $0.dates == nil }) else { return Self(since: .min, until: nil) }
        var zones = [parameters.timeZone]
        if parameters.timeZoneAuto {
            let known = parameters.placeZones.compactMap { $0?.zone }
            // A box's places, or places whose zone is not worked out yet: the quarter hour.
            guard !known.isEmpty, known.count == parameters.placeZones.count, known.count >= parameters.latitudes.count else {
                return quarterHour(now)
            }
            zones = known
        }
        if counted {
            // Hours counted from the current local hour (`RequestTimes`): a zone half or three
            // quarters of an hour off UTC (Kolkata, Kathmandu) moves on its own quarter hour.
            let whole = zones.allSatisfy { $0.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(now))) % 3600 == 0 }
            return whole ? every(3600, now) : quarterHour(now)
        }
        var since = Int64.min, until = Int64.max
        var seen: Set<String> = []
        for zone in zones where seen.insert(zone.identifier).inserted {
            let clock = LocalClock(zone)
            let start = clock.startOfDay(now)
            guard let next = clock.adding(days: 1, to: start), next > now else { return quarterHour(now) }
            since = max(since, start)
            until = min(until, next)
        }
        return Self(since: since, until: until)
    }

    private static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : -((-a + b - 1) / b) }
}

/// An answer's HTTP validators and freshness (issue 48): the ETag, `Last-Modified` and
/// `Cache-Control` every forecast answer carries, and the check that answers a matching
/// `If-None-Match` (or, without one, `If-Modified-Since`) with 304 before anything is computed.
///
/// The ETag is weak (`W/"..."`): two answers with one tag differ at most in
/// `generationtime_ms` or the meteogram's "now" line within its quarter hour, which is
/// semantic equivalence as RFC 9110 section 8.8.1 puts it. It hashes the server's build (`BuildIdentity`: version and executable), the
/// request (its query and form body), the store's publications (`StoreGeneration`), the
/// clock's part (`ClockDependence.since`) and the content coding: gzip and identity bodies
/// have different tags. Stateless servers reading one store give one request the same tag.
package struct AnswerValidators: Sendable, Equatable {
    package let etag: String
    package let lastModified: Int64?
    package let maxAge: Int

    /// The freshness bounds: `--max-age`, and when a new cycle is due.
    package struct Freshness: Sendable, Equatable {
        /// The longest `max-age` given (`serve --max-age`, seconds).
        package var limit: Int = 3600
        /// Cycles are published about this many seconds apart (`--cycle-interval-hours`).
        package var interval: Int64 = 6 * 3600
        /// Once a new cycle is due and has not come: a short age, so that it is picked up soon.
        package static let overdue = 60

        package init(limit: Int = 3600, interval: Int64 = 6 * 3600) {
            self.limit = limit
            self.interval = interval
        }
    }

    init(request: String, generation: StoreGeneration, clock: ClockDependence, encoding: ContentEncoding?,
                 now: Int64, freshness: Freshness) {
        var hash = Fnv64()
        hash.add(BuildIdentity.current)
        hash.add("\u{1}" + request)
        hash.add("\u{1}" + generation.text)
        hash.add("\u{1}\(clock.since)")
        etag = "W/\"" + hash.hex + (encoding.map { "-" + $0.rawValue } ?? "") + "\""
        let published = generation.publishedAt
        lastModified = published.map { clock.since == .min ? $0 : max($0, clock.since) } ?? (clock.since == .min ? nil : clock.since)
        var age = Int64(freshness.limit)
        if let until = clock.until { age = min(age, until - now) }
        if let published {
            let due = published + freshness.interval
            age = min(age, due > now ? due - now : Int64(Freshness.overdue))
        } else {
            age = min(age, Int64(Freshness.overdue))
        }
        maxAge = Int(max(0, age))
    }

    /// The caching headers of the answer and of its 304.
    package func add(to headers: inout HTTPFields) {
        headers[.eTag] = etag
        headers[.cacheControl] = "public, max-age=\(maxAge)"
        if let lastModified { headers[.lastModified] = HTTPDate.format(lastModified) }
        headers[.vary] = "Accept-Encoding"
    }

    /// Whether the client's copy is this answer (RFC 9110 section 13.1: `If-None-Match` by
    /// weak comparison; `If-Modified-Since` only when there is no `If-None-Match`).
    package func clientHasIt(_ request: HTTPFields) -> Bool {
        let tags = request[values: .ifNoneMatch]
        if !tags.isEmpty {
            let mine = Self.opaque(etag)
            for list in tags {
                for tag in list.split(separator: ",") {
                    let trimmed = tag.trimmingCharacters(in: .whitespaces)
                    if trimmed == "*" || Self.opaque(trimmed) == mine { return true }
                }
            }
            return false
        }
        guard let since = request[.ifModifiedSince].flatMap(HTTPDate.parse), let lastModified else { return false }
        return lastModified <= since
    }

    /// An entity tag without its weakness mark.
    private static func opaque<S: StringProtocol>(_ tag: S) -> Substring {
        let text = Substring(tag)
        return text.hasPrefix("W/") ? text.dropFirst(2) : text
    }
}

/// FNV-1a, 64 bits: a tag, not a secret (a collision costs one stale revalidation in 2^64).
struct Fnv64 {
    private var state: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add(_ text: String) {
        var state = self.state
        for byte in text.utf8 { state = (state ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        self.state = state
    }

    var hex: String {
        let digits = String(state, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

/// HTTP's date form (RFC 9110 section 5.6.7, IMF-fixdate: "Sun, 06 Nov 1994 08:49:37 GMT"),
/// written and read without a DateFormatter (one a request would cost more than the rest).
package enum HTTPDate {
    private static let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]   // 1970-01-01 was a Thursday
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    package static func format(_ seconds: Int64) -> String {
        let c = ModelTime.civil(seconds)
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let weekday = weekdays[Int(((days % 7) + 7) % 7)]
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(weekday), \(two(c.day)) \(months[c.month - 1]) \(c.year) \(two(c.hour)):\(two(c.minute)):\(two(c.second)) GMT"
    }

    /// IMF-fixdate only (the obsolete forms are for recipients that must accept them; a
    /// validator we cannot read is answered in full, which is always correct).
    package static func parse(_ text: String) -> Int64? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[0].count == 4, parts[0].hasSuffix(","), parts[5] == "GMT",
              let day = Int(parts[1]), let monthIndex = months.firstIndex(of: String(parts[2])), let year = Int(parts[3]) else { return nil }
        let clock = parts[4].split(separator: ":")
        guard clock.count == 3, let hour = Int(clock[0]), let minute = Int(clock[1]), let second = Int(clock[2]) else { return nil }
        return ModelTime.seconds(year: year, month: monthIndex + 1, day: day, hour: hour, minute: minute, second: second)
    }
}
