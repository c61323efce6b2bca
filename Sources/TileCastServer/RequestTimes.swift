import Catalog
import Foundation

/// The times one request answers at one place, in seconds since 1970 UTC, worked out from
/// Open-Meteo's time parameters in the place's time zone (the request's, or with
/// `timezone=auto` the place's own from `TimeZoneTable`).
package struct RequestTimes: Sendable {
    /// The zone local days and labels follow, and the name answered in `timezone`.
    package let zone: TimeZone
    package let zoneName: String
    /// The `hourly` block's times, every `hourlyStep` seconds over `hourlySpan`.
    package private(set) var hourly: [Int64]
    /// The `hourly` block's range (start inclusive, end exclusive) and step: one hour, or
    /// `temporal_resolution`'s (`native` is an hour until the answering domain is known:
    /// `withHourlyStep`).
    package let hourlySpan: Range<Int64>
    package private(set) var hourlyStep: Int64
    /// The `daily` block's local dates ("2026-11-22") and each one's local midnight.
    package let days: [String]
    package let dayStarts: [Int64]
    /// What daily summaries are computed from: every hour from the first day's midnight to the
    /// last day's end inclusive (an amount ending at midnight belongs to the day before).
    package let dailyHours: [Int64]
    /// The `current` block's time: now, to the quarter hour below (Open-Meteo's 15 minutes).
    package let current: Int64
    /// The `minutely_15` block's times: start_minutely_15..end_minutely_15; or the steps of
    /// forecast_minutely_15 / past_minutely_15 around the current quarter hour; or the days
    /// (start_date..end_date, or past_days and forecast_days, 3 by default), every 15 minutes
    /// (Open-Meteo's ForecastapiQuery.swift, `getTimerange2`).
    package let minutely15: [Int64]

    package static let currentInterval: Int64 = 900

    /// The zone's day arithmetic, kept for the labels' offsets.
    private let clock: LocalClock

    /// Seconds east of UTC at `time` in the zone (a label's offset).
    package func offset(at time: Int64) -> Int { Int(clock.offset(at: time)) }

    package init(_ selection: TimeSelection, zone: TimeZone, zoneName: String, now: Int64) throws(APIError) {
        self.zone = zone
        self.zoneName = zoneName
        let clock = LocalClock(zone)
        self.clock = clock
        func local(_ components: DateComponents) throws(APIError) -> Int64 {
            guard let time = clock.time(components) else { throw APIError("invalid local time \(components)") }
            return time
        }
        /// Times from `start` (inclusive) to `end` (exclusive), every `step` seconds.
        func times(from start: Int64, to end: Int64, step: Int64 = 3600) -> [Int64] {
            guard end > start else { return [] }
            return Array(stride(from: start, to: end, by: Int(step)))
        }
        let today = clock.startOfDay(now)
        // Days: start_date..end_date, or past_days before today and forecast_days from it.
        var starts: [Int64] = []
        if let dates = selection.dates {
            guard let first = clock.time(dates.start), let last = clock.time(dates.end) else {
                throw APIError("invalid start_date or end_date")
            }
            var day = clock.startOfDay(first)
            while day <= last, starts.count <= TimeSelection.maxDaysGuard {
                starts.append(day)
                guard let next = clock.adding(days: 1, to: day) else { break }
                day = next
            }
        } else {
            for offset in -selection.pastDays..<selection.forecastDays {
                if let day = clock.adding(days: offset, to: today) { starts.append(day) }
            }
        }
        dayStarts = starts
        // The local date of each day's midnight: its seconds plus the offset then, as digits
        // (String(format:) was a tenth of a request's time).
        days = starts.map { start in String(ModelTime.isoMinutes(start + clock.offset(at: start)).prefix(10)) }
        let rangeStart = dayStarts.first ?? today
        var rangeEnd = rangeStart
        if let last = starts.last, let end = clock.adding(days: 1, to: last) { rangeEnd = end }
        dailyHours = dayStarts.isEmpty ? [] : Array(stride(from: rangeStart, through: rangeEnd, by: 3600))

        // The current hour on the local clock, as Open-Meteo's `forecastTimeRange2` aligns it: in
        // a zone half an hour off UTC (India, Iran, Newfoundland) the labels are whole local
        // hours, "this hour" to an app, and the values are those of those instants (issue 47).
        let offsetNow = clock.offset(at: now)
        let wallClock = now + offsetNow
        let currentHour = (wallClock >= 0 ? wallClock / 3600 * 3600 : (wallClock - 3599) / 3600 * 3600) - offsetNow
        var span = rangeStart..<max(rangeStart, rangeEnd)
        if let hours = selection.hours {
            let start = try local(hours.start)
            span = start..<max(start, try local(hours.end) + 1)
        } else if selection.forecastHours != nil || selection.pastHours != nil {
            // From the current hour, or from an hour of today given by initial_hours, as
            // Open-Meteo's `forecastTimeRange2` (Sources/App/Helper/ForecastapiQuery.swift).
            let first = selection.initialHours.map { today + Int64($0) * 3600 } ?? currentHour
            let start = first - Int64(selection.pastHours ?? 0) * 3600
            let end = selection.forecastHours.map { first + Int64($0) * 3600 } ?? rangeEnd
            span = start..<max(start, end)
        }
        hourlySpan = span
        hourlyStep = selection.temporalResolution.seconds ?? 3600
        hourly = times(from: span.lowerBound, to: span.upperBound, step: hourlyStep)
        current = now >= 0 ? now / Self.currentInterval * Self.currentInterval : now

        let quarter = Int64(Self.currentInterval)
        func quarters(from start: Int64, to end: Int64) -> [Int64] { times(from: start, to: end, step: quarter) }
        if let span = selection.minutely15 {
            minutely15 = try quarters(from: local(span.start), to: local(span.end) + 1)
        } else if selection.forecastMinutely15 != nil || selection.pastMinutely15 != nil {
            // From the current quarter hour, or from a quarter hour of today given by
            // initial_minutely_15 (`forecastTimeRange2` again).
            let first = selection.initialMinutely15.map { today + Int64($0) * quarter } ?? current
            let start = first - Int64(selection.pastMinutely15 ?? 0) * quarter
            minutely15 = quarters(from: start, to: first + Int64(selection.forecastMinutely15 ?? 3 * 96) * quarter)
        } else if let span = selection.hours {
            minutely15 = try quarters(from: local(span.start), to: local(span.end) + 1)
        } else if selection.dates != nil || selection.forecastDaysGiven {
            minutely15 = quarters(from: rangeStart, to: rangeEnd)
        } else {
            let start = clock.adding(days: -selection.pastDays, to: today) ?? rangeStart
            let end = clock.adding(days: 3, to: today) ?? rangeEnd
            minutely15 = quarters(from: start, to: end)
        }
    }

    /// The same times with the `hourly` block every `step` seconds over its range
    /// (`temporal_resolution=native`: the answering domain's output interval).
    package func withHourlyStep(_ step: Int64) -> RequestTimes {
        guard step > 0, step != hourlyStep else { return self }
        var copy = self
        copy.hourlyStep = step
        copy.hourly = Array(stride(from: hourlySpan.lowerBound, to: hourlySpan.upperBound, by: Int(step)))
        return copy
    }

    /// The moment the header's offset and abbreviation describe: the first answered time.
    private var reference: Date {
        Date(timeIntervalSince1970: TimeInterval(hourly.first ?? dayStarts.first ?? current))
    }
    /// `utc_offset_seconds` and `timezone_abbreviation`, as of the first answered time.
    package var utcOffset: Int { offset(at: Int64(reference.timeIntervalSince1970)) }
    package var abbreviation: String { zone.abbreviation(for: reference) ?? zoneName }

    /// "2026-11-22T06:00" in the zone (Open-Meteo's iso8601: local time, no offset).
    static func label(_ time: Int64, offset: Int) -> String {
        String(ModelTime.isoMinutes(time + Int64(offset)).dropLast())
    }
}

extension TimeSelection {
    /// A start_date..end_date loop never runs past this (the span is checked when parsed).
    static let maxDaysGuard = ForecastParameters.maxDays + 1
}

/// Local-day arithmetic in a zone, in seconds since 1970: plain arithmetic for GMT and UTC (the
/// default zone and most requests: a Calendar per request was a visible share of S1's time),
/// the zone's own Calendar otherwise (days of 23 or 25 hours).
struct LocalClock {
    private let calendar: Calendar?
    private let zone: TimeZone

    init(_ zone: TimeZone) {
        self.zone = zone
        if ["GMT", "UTC", "Etc/UTC", "Etc/GMT"].contains(zone.identifier), zone.secondsFromGMT() == 0 {
            calendar = nil
        } else {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            self.calendar = calendar
        }
    }

    /// The local midnight starting the day that holds `time`.
    func startOfDay(_ time: Int64) -> Int64 {
        guard let calendar else { return time >= 0 ? time / 86_400 * 86_400 : (time - 86_399) / 86_400 * 86_400 }
        return Int64(calendar.startOfDay(for: Date(timeIntervalSince1970: TimeInterval(time))).timeIntervalSince1970.rounded(.down))
    }

    /// The local midnight `days` days after the local midnight `day`.
    func adding(days: Int, to day: Int64) -> Int64? {
        guard let calendar else { return day + Int64(days) * 86_400 }
        return calendar.date(byAdding: .day, value: days, to: Date(timeIntervalSince1970: TimeInterval(day)))
            .map { Int64($0.timeIntervalSince1970.rounded(.down)) }
    }

    /// The instant of a local date and time (components checked by the parser).
    func time(_ components: DateComponents) -> Int64? {
        guard let calendar else {
            guard let year = components.year, let month = components.month, let day = components.day else { return nil }
            return ModelTime.seconds(year: year, month: month, day: day, hour: components.hour ?? 0, minute: components.minute ?? 0)
        }
        return calendar.date(from: components).map { Int64($0.timeIntervalSince1970.rounded(.down)) }
    }

    /// Seconds east of UTC at `time`.
    func offset(at time: Int64) -> Int64 {
        calendar == nil ? 0 : Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(time))))
    }
}
