import Catalog
import Foundation
import PointQuery

/// Writes answers as Open-Meteo does: its keys in its order, local times without an offset
/// (or unix seconds), one object per place (an array for several), and CSV in its layout.
/// Numbers are the command line's (`ForecastRenderer.formatted`: same decimals, same nulls).
struct OpenMeteoRenderer {
    let parameters: ForecastParameters
    let generationMilliseconds: Double

    private func timeValue(_ time: Int64, _ times: RequestTimes) -> String {
        switch parameters.timeFormat {
        case .iso8601: return JSONText.quoted(RequestTimes.label(time, offset: times.zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(time)))))
        case .unixtime: return String(time)
        }
    }

    private func dayValue(_ index: Int, _ times: RequestTimes) -> String {
        switch parameters.timeFormat {
        case .iso8601: return JSONText.quoted(times.days[index])
        case .unixtime: return String(times.dayStarts[index])
        }
    }

    static func value(_ value: Float, _ variable: OutputVariable, _ units: OutputUnits) -> String {
        ForecastRenderer.formatted(value, variable, units) ?? "null"
    }

    /// A daily value as the JSON prints it. A time of day (sunrise, sunset; seconds after the
    /// day's local midnight `dayStart`) is a quoted local time to the minute, or unix seconds.
    static func dailyValue(_ value: Float, _ daily: DailyVariable, _ units: OutputUnits, dayStart: Int64,
                           timeZone: TimeZone, timeFormat: ForecastParameters.TimeFormat) -> String {
        switch daily {
        case _ where daily.isTimeOfDay:
            guard value.isFinite else { return "null" }
            let time = dayStart + Int64((Double(value) / 60).rounded()) * 60
            if timeFormat == .unixtime { return String(time) }
            return JSONText.quoted(RequestTimes.label(time, offset: timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(time)))))
        case _ where daily.statistic == .sum && daily.variable == .shortwaveRadiation:
            return ForecastRenderer.number(value, 2) ?? "null"
        default: return Self.value(value, daily.variable, units)
        }
    }

    /// `times`: the place's own (its zone with `timezone=auto`).
    private func dailyValue(_ value: Float, _ daily: DailyVariable, day: Int, _ times: RequestTimes) -> String {
        Self.dailyValue(value, daily, parameters.units, dayStart: day < times.dayStarts.count ? times.dayStarts[day] : 0,
                        timeZone: times.zone, timeFormat: parameters.timeFormat)
    }

    static func dailyUnit(_ daily: DailyVariable, _ units: OutputUnits, timeFormat: ForecastParameters.TimeFormat = .iso8601) -> String {
        daily.isTimeOfDay ? timeFormat.rawValue : daily.unit(units)
    }

    // MARK: JSON

    /// The body: one object, or an array of them for several places. Written into one byte
    /// buffer (no String per piece joined into larger Strings: that copying and allocation
    /// was a third of a request's time).
    func json(_ places: [PlaceForecast]) -> [UInt8] {
        var out = JSONBytes()
        out.bytes.reserveCapacity(places.count * (1024 + parameters.hourly.count * 200))
        if places.count != 1 { out.raw("[") }
        for (k, place) in places.enumerated() {
            if k > 0 { out.raw(",") }
            object(place, &out)
        }
        if places.count != 1 { out.raw("]") }
        return out.bytes
    }

    private func object(_ place: PlaceForecast, _ out: inout JSONBytes) {
        let forecast = place.forecast
        let times = place.times
        let units = parameters.units
        let p = forecast.provenance
        out.raw("{\"latitude\":"); out.raw(JSONText.number(forecast.latitude))
        out.raw(",\"longitude\":"); out.raw(JSONText.number(forecast.longitude))
        out.raw(",\"generationtime_ms\":"); out.raw(JSONText.number((generationMilliseconds * 1000).rounded() / 1000))
        out.raw(",\"utc_offset_seconds\":"); out.raw(String(times.utcOffset))
        out.raw(",\"timezone\":"); out.quoted(times.zoneName)
        out.raw(",\"timezone_abbreviation\":"); out.quoted(times.abbreviation)
        // Metres, rounded as the command line prints it.
        out.raw(",\"elevation\":"); out.raw(forecast.elevation.flatMap { ForecastRenderer.number($0, 0) } ?? "null")
        // Where the numbers came from; clients written for Open-Meteo ignore this key.
        out.raw(",\"tilecast\":{\"model\":"); out.quoted(p.model)
        out.raw(",\"model_title\":"); out.quoted(p.modelTitle)
        out.raw(",\"cycle\":"); out.quoted(p.cycle)
        out.raw(",\"domain\":"); out.quoted(p.domain)
        out.raw(",\"grid_spacing_km\":"); out.raw(JSONText.number(p.gridSpacingKilometres))
        out.raw(",\"grid_position\":{\"i\":"); out.raw(JSONText.number(p.gridI))
        out.raw(",\"j\":"); out.raw(JSONText.number(p.gridJ)); out.raw("}")
        // `elevation` above is the requested one (values moved to it) or the model terrain.
        out.raw(",\"elevation_source\":"); out.quoted(forecast.isDownscaled ? "requested" : "model_terrain")
        out.raw(",\"model_elevation\":"); out.raw(forecast.modelElevation.flatMap { ForecastRenderer.number($0, 0) } ?? "null")
        out.raw("}")
        if !parameters.current.isEmpty {
            out.raw(",\"current_units\":{\"time\":"); out.quoted(parameters.timeFormat.rawValue); out.raw(",\"interval\":\"seconds\"")
            for variable in parameters.current { out.member(variable.rawValue); out.quoted(units.symbol(variable)) }
            out.raw("},\"current\":{\"time\":"); out.raw(timeValue(times.current, times))
            out.raw(",\"interval\":"); out.raw(String(RequestTimes.currentInterval))
            for variable in parameters.current {
                out.member(variable.rawValue); out.raw(Self.value(place.current[variable] ?? .nan, variable, units))
            }
            out.raw("}")
        }
        if parameters.currentWeather {
            // The legacy block, with its legacy names.
            let legacy: [(String, OutputVariable)] = [("temperature", .temperature2m), ("windspeed", .windSpeed10m),
                                                      ("winddirection", .windDirection10m), ("weathercode", .weatherCode)]
            out.raw(",\"current_weather_units\":{\"time\":"); out.quoted(parameters.timeFormat.rawValue); out.raw(",\"interval\":\"seconds\"")
            for (name, variable) in legacy { out.member(name); out.quoted(units.symbol(variable)) }
            out.raw("},\"current_weather\":{\"time\":"); out.raw(timeValue(times.current, times))
            out.raw(",\"interval\":"); out.raw(String(RequestTimes.currentInterval))
            for (name, variable) in legacy { out.member(name); out.raw(Self.value(place.current[variable] ?? .nan, variable, units)) }
            out.raw("}")
        }
        if !parameters.hourly.isEmpty {
            out.raw(",\"hourly_units\":{\"time\":"); out.quoted(parameters.timeFormat.rawValue)
            for variable in parameters.hourly { out.member(variable.rawValue); out.quoted(units.symbol(variable)) }
            out.raw("},\"hourly\":{\"time\":[")
            for (k, time) in times.hourly.enumerated() {
                if k > 0 { out.raw(",") }
                switch parameters.timeFormat {
                case .iso8601: out.localTime(time + Int64(times.zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(time)))))
                case .unixtime: out.raw(String(time))
                }
            }
            out.raw("]")
            for variable in parameters.hourly {
                out.member(variable.rawValue); out.raw("[")
                for (k, value) in (place.hourly.values[variable] ?? []).enumerated() {
                    if k > 0 { out.raw(",") }
                    out.raw(Self.value(value, variable, units))
                }
                out.raw("]")
            }
            out.raw("}")
        }
        if !parameters.daily.isEmpty {
            out.raw(",\"daily_units\":{\"time\":"); out.quoted(parameters.timeFormat == .iso8601 ? "iso8601" : "unixtime")
            for field in parameters.daily { out.member(field.description); out.quoted(Self.dailyUnit(field, units, timeFormat: parameters.timeFormat)) }
            out.raw("},\"daily\":{\"time\":[")
            for index in times.days.indices {
                if index > 0 { out.raw(",") }
                out.raw(dayValue(index, times))
            }
            out.raw("]")
            for field in parameters.daily {
                out.member(field.description); out.raw("[")
                for (k, value) in (place.daily[field] ?? []).enumerated() {
                    if k > 0 { out.raw(",") }
                    out.raw(dailyValue(value, field, day: k, times))
                }
                out.raw("]")
            }
            out.raw("}")
        }
        out.raw("}")
    }

    // MARK: CSV

    /// Open-Meteo's CSV: a header table of the places, then the current, hourly and daily
    /// tables, each after a blank line; with several places every row starts with location_id.
    func csv(_ places: [PlaceForecast]) -> String {
        let several = places.count > 1
        let units = parameters.units
        var lines: [String] = []
        let id = several ? "location_id," : ""
        lines.append(id + "latitude,longitude,elevation,utc_offset_seconds,timezone,timezone_abbreviation")
        for (k, place) in places.enumerated() {
            let f = place.forecast
            lines.append((several ? "\(k)," : "") + "\(JSONText.number(f.latitude)),\(JSONText.number(f.longitude)),"
                         + (f.elevation.flatMap { ForecastRenderer.number($0, 0) } ?? "") + ",\(place.times.utcOffset),\(place.times.zoneName),\(place.times.abbreviation)")
        }
        func plain(_ text: String) -> String { text == "null" ? "" : text.replacingOccurrences(of: "\"", with: "") }
        if !parameters.current.isEmpty {
            lines.append("")
            lines.append(id + "time," + parameters.current.map { "\($0.rawValue) (\(units.symbol($0)))" }.joined(separator: ","))
            for (k, place) in places.enumerated() {
                lines.append((several ? "\(k)," : "") + plain(timeValue(place.times.current, place.times)) + ","
                             + parameters.current.map { plain(Self.value(place.current[$0] ?? .nan, $0, units)) }.joined(separator: ","))
            }
        }
        if !parameters.hourly.isEmpty {
            lines.append("")
            lines.append(id + "time," + parameters.hourly.map { "\($0.rawValue) (\(units.symbol($0)))" }.joined(separator: ","))
            for (k, place) in places.enumerated() {
                let columns = parameters.hourly.map { place.hourly.values[$0] ?? [] }
                for (t, time) in place.times.hourly.enumerated() {
                    var row = (several ? "\(k)," : "") + plain(timeValue(time, place.times))
                    for (c, variable) in parameters.hourly.enumerated() {
                        row += "," + plain(Self.value(t < columns[c].count ? columns[c][t] : .nan, variable, units))
                    }
                    lines.append(row)
                }
            }
        }
        if !parameters.daily.isEmpty {
            lines.append("")
            lines.append(id + "time," + parameters.daily.map { "\($0.description) (\(Self.dailyUnit($0, units, timeFormat: parameters.timeFormat)))" }.joined(separator: ","))
            for (k, place) in places.enumerated() {
                for d in place.times.days.indices {
                    var row = (several ? "\(k)," : "") + plain(dayValue(d, place.times))
                    for field in parameters.daily {
                        let series = place.daily[field] ?? []
                        row += "," + plain(dailyValue(d < series.count ? series[d] : .nan, field, day: d, place.times))
                    }
                    lines.append(row)
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// A JSON body being written: bytes appended in place.
struct JSONBytes {
    var bytes: [UInt8] = []

    mutating func raw(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }
    mutating func quoted(_ text: String) { raw(JSONText.quoted(text)) }
    /// `,"name":` (a member after the first of an object), for the server's own names
    /// (variables, aggregates), which need no escaping.
    mutating func member(_ name: String) {
        bytes.append(UInt8(ascii: ","))
        bytes.append(UInt8(ascii: "\""))
        raw(name)
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    /// `"2026-11-22T06:00"`: local seconds since 1970 as Open-Meteo's iso8601 time (the
    /// digits of `ModelTime.isoMinutes` without its "Z", written straight into the buffer).
    mutating func localTime(_ seconds: Int64) {
        let c = ModelTime.civil(seconds)
        bytes.append(UInt8(ascii: "\""))
        digits(c.year, 4); bytes.append(UInt8(ascii: "-")); digits(c.month, 2); bytes.append(UInt8(ascii: "-"))
        digits(c.day, 2); bytes.append(UInt8(ascii: "T")); digits(c.hour, 2); bytes.append(UInt8(ascii: ":"))
        digits(c.minute, 2)
        bytes.append(UInt8(ascii: "\""))
    }

    /// A non-negative number, zero-padded to `width` digits (more when it needs more).
    private mutating func digits(_ value: Int, _ width: Int) {
        guard value >= 0 else { raw(String(value)); return }
        var divisor = 1
        for _ in 1..<width { divisor *= 10 }
        while divisor <= value / 10 { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            bytes.append(UInt8(48 + rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }
}
