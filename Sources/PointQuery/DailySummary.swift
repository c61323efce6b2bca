import Foundation
import Meteorology

/// A daily statistic: "temperature_2m_max", "precipitation_sum", or "weather_code" (the
/// day's most severe code by `WeatherCode.severityOrder`, not the numeric maximum).
public struct DailyVariable: Sendable, Equatable, Hashable, CustomStringConvertible {
    public enum Statistic: String, Sendable, CaseIterable { case min, max, mean, sum, mostSevere = "" }

    public let variable: OutputVariable
    public let statistic: Statistic

    public var description: String { statistic == .mostSevere ? variable.rawValue : "\(variable.rawValue)_\(statistic.rawValue)" }

    /// Parses "temperature_2m_max" and friends, and "weather_code".
    public static func parse(_ name: String) -> DailyVariable? {
        if name == OutputVariable.weatherCode.rawValue { return DailyVariable(variable: .weatherCode, statistic: .mostSevere) }
        for statistic in [Statistic.min, .max, .mean, .sum] where name.hasSuffix("_" + statistic.rawValue) {
            guard let variable = OutputVariable(rawValue: String(name.dropLast(statistic.rawValue.count + 1))),
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
    public let values: [DailyVariable: [Float]]

    /// Groups hourly values by local day. Instantaneous values belong to the day their time
    /// falls in; amounts (precipitation, snowfall) and weather codes to the day their interval
    /// lies in, so an hour ending at local midnight counts for the day before.
    public init(forecast: PointForecast, variables: [DailyVariable], timeZone: TimeZone, window: Int64 = 3600) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        func day(_ time: Int64) -> String {
            let parts = calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: TimeInterval(time)))
            return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
        }
        let instantDays = forecast.times.map(day)
        let amountDays = forecast.times.map { day($0 - window) }
        var dates: [String] = []
        for date in instantDays where dates.last != date && !dates.contains(date) { dates.append(date) }
        self.dates = dates
        hours = dates.map { date in instantDays.filter { $0 == date }.count }
        var values: [DailyVariable: [Float]] = [:]
        for daily in variables {
            let series = forecast.values[daily.variable] ?? []
            // Weather codes describe the interval ending at their time, like the amounts, so
            // they go by the same day rule (issue 15, item 6).
            let isAmount = daily.variable == .precipitation || daily.variable == .snowfall || daily.variable == .weatherCode
            values[daily] = dates.map { date in
                let members = series.indices.filter { (isAmount ? amountDays[$0] : instantDays[$0]) == date }.map { series[$0] }
                return Self.reduce(members, daily.statistic)
            }
        }
        self.values = values
    }

    static func reduce(_ values: [Float], _ statistic: DailyVariable.Statistic) -> Float {
        guard !values.isEmpty else { return .nan }
        // A missing hour makes the day's statistic unknown rather than quietly partial.
        if values.contains(where: \.isNaN) { return .nan }
        switch statistic {
        case .min: return values.min() ?? .nan
        case .max: return values.max() ?? .nan
        case .mostSevere: return WeatherCode.mostSevere(values)
        case .mean: return values.reduce(0, +) / Float(values.count)
        case .sum: return values.reduce(0, +)
        }
    }
}
