import Catalog
import Foundation
import Meteorology

/// A daily statistic: "temperature_2m_max", "precipitation_sum", or "weather_code" (the
/// day's most severe code by `WeatherCode.severityOrder`, not the numeric maximum).
public struct DailyVariable: Sendable, Equatable, Hashable, CustomStringConvertible {
    public enum Statistic: String, Sendable, CaseIterable {
        case min, max, mean, sum, mostSevere = ""
        /// precipitation_hours: hours whose amount is at least 0.1 mm (Open-Meteo's count).
        case hours
        /// daylight_duration: seconds from sunrise to sunset (NOAA, `SolarPosition.day`).
        case daylight = "duration"
        /// wind_direction_10m_dominant: direction of the day's mean wind vector (mean u, v).
        case dominant
        /// sunrise / sunset: the time the sun's upper limb crosses the horizon (NOAA,
        /// `SolarPosition.day`), held as seconds after the local day's midnight (a Float
        /// holds those exactly to the second; unix seconds it would round to 128 s) and
        /// printed as a local time. Missing (null) on a day the sun does not rise or set.
        case sunrise, sunset
        /// moonrise / moonset: the first time in the local day the moon's centre crosses +0.125°
        /// geocentric altitude upward / downward (`Moon.riseAndSet`, Open-Meteo's definition),
        /// held and printed as sunrise is; missing on the day each month without one.
        case moonrise, moonset
        /// moon_phase: the fraction of the synodic month at local noon, 0 new, 0.5 full (`Moon.phase`).
        case moonPhase = "phase"
    }

    public let variable: ForecastVariable
    public let statistic: Statistic

    public var description: String {
        switch statistic {
        case .mostSevere: return variable.rawValue
        case .daylight: return "daylight_duration"
        case .sunrise: return "sunrise"
        case .sunset: return "sunset"
        case .moonrise: return "moonrise"
        case .moonset: return "moonset"
        case .moonPhase: return "moon_phase"
        // Open-Meteo's daily name for the day's ET0 total has no "_sum".
        case .sum where variable == .et0FaoEvapotranspiration || variable == .sunshineDuration: return variable.rawValue
        default: return "\(variable.rawValue)_\(statistic.rawValue)"
        }
    }

    /// The hourly variables it is computed from.
    package var sources: [ForecastVariable] {
        switch statistic {
        case .dominant: return [.windU10m, .windV10m]
        default: return [variable]
        }
    }

    /// Whether values are times of day (seconds after local midnight), printed as times.
    public var isTimeOfDay: Bool { [.sunrise, .sunset, .moonrise, .moonset].contains(statistic) }

    /// The unit of its values, as Open-Meteo names it: the hourly variable's, except for
    /// counts and durations, times of day, and shortwave_radiation_sum (MJ/m², see
    /// `DailyForecast.radiationScale`).
    public func unit(_ units: OutputUnits) -> String {
        switch statistic {
        case .sunrise, .sunset, .moonrise, .moonset: return "iso8601"
        case .moonPhase: return "fraction"
        case .daylight: return "s"
        case .hours: return "h"
        case .dominant: return "°"
        case .sum where variable == .shortwaveRadiation: return "MJ/m²"
        default: return units.symbol(variable)
        }
    }

    /// Parses "temperature_2m_max" and friends, "weather_code", "precipitation_hours",
    /// "daylight_duration", "sunrise", "sunset" and "wind_direction_10m_dominant".
    public static func parse(_ name: String) -> DailyVariable? {
        if name == ForecastVariable.weatherCode.rawValue { return DailyVariable(variable: .weatherCode, statistic: .mostSevere) }
        if name == "precipitation_hours" { return DailyVariable(variable: .precipitation, statistic: .hours) }
        if name == "daylight_duration" { return DailyVariable(variable: .isDay, statistic: .daylight) }
        if name == ForecastVariable.et0FaoEvapotranspiration.rawValue { return DailyVariable(variable: .et0FaoEvapotranspiration, statistic: .sum) }
        // Open-Meteo's daily sunshine_duration: the day's total seconds (no "_sum" either).
        if name == ForecastVariable.sunshineDuration.rawValue { return DailyVariable(variable: .sunshineDuration, statistic: .sum) }
        if name == "sunrise" { return DailyVariable(variable: .isDay, statistic: .sunrise) }
        if name == "sunset" { return DailyVariable(variable: .isDay, statistic: .sunset) }
        // The moon's, from the place and date alone (like sunrise, carried by is_day).
        if name == "moonrise" { return DailyVariable(variable: .isDay, statistic: .moonrise) }
        if name == "moonset" { return DailyVariable(variable: .isDay, statistic: .moonset) }
        if name == "moon_phase" { return DailyVariable(variable: .isDay, statistic: .moonPhase) }
        if name == "wind_direction_10m_dominant" { return DailyVariable(variable: .windDirection10m, statistic: .dominant) }
        for statistic in [Statistic.min, .max, .mean, .sum] where name.hasSuffix("_" + statistic.rawValue) {
            guard let variable = ForecastVariable.output(named: String(name.dropLast(statistic.rawValue.count + 1))),
                  variable != .weatherCode else { return nil }
            return DailyVariable(variable: variable, statistic: statistic)
        }
        return nil
    }
}

/// Daily summaries of one place's hourly forecast, on local days of a time zone.
public struct DailyForecast: Sendable {
    /// Local dates, "2026-03-29".
    public let dates: [String]
    /// Hours of data behind each day (23 or 25 on daylight-saving days, fewer at the run's ends).
    public let hours: [Int]
    /// Each date's local midnight, seconds since 1970 UTC (what a time of day counts from).
    public let dayStarts: [Int64]
    public let values: [DailyVariable: [Float]]

    /// Groups hourly values by local day. Instantaneous values belong to the day their time
    /// falls in; amounts (precipitation, snowfall) and weather codes to the day their interval
    /// lies in, so an hour ending at local midnight counts for the day before.
    ///
    /// A day is made of every step of its local hours (`DaySlots`), whether the forecast holds
    /// it or not; a step it lacks, or holds as NaN, is missing. With a step missing, a sum, a
    /// mean, precipitation_hours and the dominant direction are unknown (NaN), and min, max
    /// and the weather code are Open-Meteo's (`foldAfterLastMissing`).
    /// - Parameters:
    ///   - window: seconds between the steps the days are made of (the amounts' interval).
    ///   - grid: a time on the steps' grid (default: the forecast's first time); forecast times
    ///     off that grid are not part of any day (a server's hourly block of another phase).
    ///   - dates: the local dates to summarise (default: those of the forecast's times).
    public init(forecast: PointForecast, variables: [DailyVariable], timeZone: TimeZone, window: Int64 = 3600, grid: Int64? = nil,
                dates: [String]? = nil) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let instantDays = forecast.times.map { Self.localDate($0, calendar: calendar) }
        let dates = dates ?? Self.localDates(forecast.times, timeZone: timeZone)
        self.dates = dates
        hours = dates.map { date in instantDays.filter { $0 == date }.count }
        let dayStarts = dates.map { Self.midnight(date: $0, calendar: calendar) }
        self.dayStarts = dayStarts
        let step = max(window, 1)
        let slots = DaySlots(times: forecast.times, grid: grid ?? forecast.times.first ?? 0, step: step)
        // Each day's steps: instants at midnight <= t < next midnight; amounts (their interval
        // ending at t) at midnight < t <= next midnight.
        let bounds = dates.indices.map { d -> Range<Int64>? in
            guard dayStarts[d] != Int64.min else { return nil }
            return dayStarts[d]..<Self.nextMidnight(date: dates[d], calendar: calendar)
        }
        var values: [DailyVariable: [Float]] = [:]
        for daily in variables {
            switch daily.statistic {
            case .daylight:
                values[daily] = dates.map { Self.daylight(date: $0, calendar: calendar, latitude: forecast.latitude, longitude: forecast.longitude) }
                continue
            case .sunrise, .sunset:
                values[daily] = dates.indices.map { d in
                    let event = Self.sunEvent(date: dates[d], calendar: calendar, latitude: forecast.latitude, longitude: forecast.longitude)
                    guard let event, dayStarts[d] != Int64.min else { return .nan }
                    return Float((daily.statistic == .sunrise ? event.sunrise : event.sunset) - Double(dayStarts[d]))
                }
                continue
            case .moonrise, .moonset:
                values[daily] = dates.indices.map { d in
                    guard dayStarts[d] != Int64.min else { return .nan }
                    let end = Self.nextMidnight(date: dates[d], calendar: calendar)
                    let events = Moon.riseAndSet(dayStart: Double(dayStarts[d]), length: Double(end - dayStarts[d]),
                                                 latitude: forecast.latitude, longitude: forecast.longitude)
                    guard let event = daily.statistic == .moonrise ? events.rise : events.set else { return .nan }
                    return Float(event - Double(dayStarts[d]))
                }
                continue
            case .moonPhase:
                values[daily] = dates.indices.map { d in
                    guard dayStarts[d] != Int64.min else { return .nan }
                    let noon = (dayStarts[d] + Self.nextMidnight(date: dates[d], calendar: calendar)) / 2
                    return Float(Moon.phase(Double(noon)))
                }
                continue
            case .dominant:
                let u = forecast.values[.windU10m] ?? [], v = forecast.values[.windV10m] ?? []
                values[daily] = bounds.map { day in
                    guard let day else { return .nan }
                    let meanU = Self.reduce(slots.values(u, in: day), .mean), meanV = Self.reduce(slots.values(v, in: day), .mean)
                    return meanU.isNaN || meanV.isNaN ? .nan : windDirection(u: meanU, v: meanV)
                }
                continue
            case .hours:
                // At least 0.1 mm, whatever unit the answer is in.
                let threshold: Float = forecast.units.precipitation == .inch ? 0.1 / 25.4 : 0.1
                let series = forecast.values[daily.variable] ?? []
                values[daily] = bounds.map { day in
                    guard let day else { return .nan }
                    let members = slots.values(series, in: (day.lowerBound + step)..<(day.upperBound + step))
                    return members.isEmpty || members.contains(where: \.isNaN) ? .nan : Float(members.filter { $0 >= threshold * 0.9999 }.count)
                }
                continue
            default: break
            }
            let series = forecast.values[daily.variable] ?? []
            // Weather codes and sunshine describe the interval ending at their time, like the
            // amounts, so they go by the same day rule.
            let isAmount = daily.variable.isAccumulation || daily.variable == .weatherCode || daily.variable == .sunshineDuration
            // shortwave_radiation_sum: hourly mean W/m² times the step's seconds, in MJ/m².
            let scale: Float = daily.statistic == .sum && daily.variable == .shortwaveRadiation ? Self.radiationScale(window: window) : 1
            values[daily] = bounds.map { day in
                guard let day else { return .nan }
                let members = slots.values(series, in: isAmount ? (day.lowerBound + step)..<(day.upperBound + step) : day)
                return Self.reduce(members, daily.statistic) * scale
            }
        }
        self.values = values
    }

    /// One day's statistic over its steps in time order, a missing step as NaN.
    ///
    /// Open-Meteo's rule (open-meteo/open-meteo, Sources/App/Helper/GenericDailyCalculator.swift
    /// over the `sum(by:)`, `mean(by:)`, `max(by:)`, `min(by:)` of Sources/App/Helper/Array.swift):
    /// a sum or a mean over a day with a missing hour is NaN, as NaN propagates through its `+`.
    static func reduce(_ values: [Float], _ statistic: DailyVariable.Statistic) -> Float {
        guard !values.isEmpty else { return .nan }
        switch statistic {
        case .min: return foldAfterLastMissing(values) { $0.min() ?? .nan }
        case .max: return foldAfterLastMissing(values) { $0.max() ?? .nan }
        // Open-Meteo's daily weather_code is a `max`, so a missing hour acts as it does there.
        case .mostSevere: return foldAfterLastMissing(values, WeatherCode.mostSevere)
        case .mean: return values.contains(where: \.isNaN) ? .nan : values.reduce(0, +) / Float(values.count)
        case .sum: return values.contains(where: \.isNaN) ? .nan : values.reduce(0, +)
        case .hours, .daylight, .dominant, .sunrise, .sunset, .moonrise, .moonset, .moonPhase:
            return .nan   // computed in init, not by this reduction
        }
    }

    /// The extreme of the steps after the day's last missing one; NaN when the last step is
    /// missing. This is what Open-Meteo's `max(by:)` / `min(by:)` give (Array.swift: a fold from
    /// -/+greatestFiniteMagnitude by `$1 < $0 ? $0 : $1`, where a NaN step replaces the running
    /// value and the next step replaces the NaN), although its comment says NaN is ignored: a
    /// day the run ends in is null, and a day the run starts in gives the extremes of the hours
    /// from the run's start on.
    static func foldAfterLastMissing(_ values: [Float], _ extreme: ([Float]) -> Float) -> Float {
        guard let last = values.last, !last.isNaN else { return .nan }
        let start = (values.lastIndex(where: \.isNaN) ?? -1) + 1
        return extreme(Array(values[start...]))
    }

    /// The local dates `times` fall in, each once, in the order first met.
    package static func localDates(_ times: [Int64], timeZone: TimeZone) -> [String] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        var dates: [String] = []
        for date in times.map({ localDate($0, calendar: calendar) }) where dates.last != date && !dates.contains(date) { dates.append(date) }
        return dates
    }

    static func localDate(_ time: Int64, calendar: Calendar) -> String {
        let parts = calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: TimeInterval(time)))
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }

    /// Every step (on the grid through `grid`, `step` seconds apart) that a summary of `dates`
    /// reads: from each day's midnight to the next midnight inclusive (the amount ending then
    /// is the day's), ascending.
    package static func steps(of dates: [String], timeZone: TimeZone, grid: Int64, step: Int64) -> [Int64] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let slots = DaySlots(times: [], grid: grid, step: step)
        var steps = Set<Int64>()
        for date in dates {
            let start = midnight(date: date, calendar: calendar)
            guard start != Int64.min else { continue }
            steps.formUnion(slots.times(in: start..<(nextMidnight(date: date, calendar: calendar) + 1)))
        }
        return steps.sorted()
    }

    /// MJ/m² per (W/m² summed over steps of `window` seconds): the one conversion of
    /// shortwave_radiation_sum, used by the command line and the server alike.
    static func radiationScale(window: Int64) -> Float { Float(window) / 1_000_000 }

    /// A local date's midnight in seconds since 1970 UTC (Int64.min if the date is malformed).
    static func midnight(date: String, calendar: Calendar) -> Int64 {
        let parts = date.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3, let start = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2])) else {
            return Int64.min
        }
        return Int64(calendar.startOfDay(for: start).timeIntervalSince1970)
    }

    /// The midnight ending a local date (23 or 25 hours after its own on a daylight-saving
    /// change); 24 hours after it when the date is malformed.
    static func nextMidnight(date: String, calendar: Calendar) -> Int64 {
        let start = midnight(date: date, calendar: calendar)
        guard start != Int64.min,
              let next = calendar.date(byAdding: .day, value: 1, to: Date(timeIntervalSince1970: TimeInterval(start))) else { return start &+ 86_400 }
        return Int64(calendar.startOfDay(for: next).timeIntervalSince1970)
    }

    /// Sunrise and sunset (seconds since 1970 UTC) around a local date's noon; nil when the
    /// sun stays up or down all day.
    static func sunEvent(date: String, calendar: Calendar, latitude: Double, longitude: Double) -> (sunrise: Double, sunset: Double)? {
        let parts = date.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3, let noon = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2], hour: 12)),
              case .risesAndSets(let sunrise, let sunset) = SolarPosition.day(latitude: latitude, longitude: longitude, noonGuess: noon.timeIntervalSince1970)
        else { return nil }
        return (sunrise, sunset)
    }

    /// Seconds of daylight on a local date: sunset - sunrise around its local noon (0 in
    /// polar night, 86,400 in polar day).
    static func daylight(date: String, calendar: Calendar, latitude: Double, longitude: Double) -> Float {
        let parts = date.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3, let noon = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2], hour: 12)) else {
            return .nan
        }
        switch SolarPosition.day(latitude: latitude, longitude: longitude, noonGuess: noon.timeIntervalSince1970) {
        case .risesAndSets(let sunrise, let sunset): return Float(sunset - sunrise)
        case .alwaysUp: return 86_400
        case .alwaysDown: return 0
        }
    }
}

/// The steps a local day is made of: every `step` seconds on the grid through `grid`, whether
/// the forecast holds them or not.
struct DaySlots {
    private let index: [Int64: Int]
    private let grid: Int64
    private let step: Int64

    init(times: [Int64], grid: Int64, step: Int64) {
        var index: [Int64: Int] = [:]
        index.reserveCapacity(times.count)
        for (k, time) in times.enumerated() where index[time] == nil { index[time] = k }
        self.index = index
        self.grid = grid
        self.step = max(step, 1)
    }

    /// The grid's times in `range`, ascending.
    func times(in range: Range<Int64>) -> StrideTo<Int64> {
        let offset = (grid - range.lowerBound) % step
        return stride(from: range.lowerBound + (offset < 0 ? offset + step : offset), to: range.upperBound, by: Int(step))
    }

    /// `series`' value at each grid time in `range`, NaN where the forecast has no such time.
    func values(_ series: [Float], in range: Range<Int64>) -> [Float] {
        times(in: range).map { time in index[time].flatMap { $0 < series.count ? series[$0] : nil } ?? .nan }
    }
}
