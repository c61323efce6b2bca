import Foundation
import PointQuery

/// Writes answers as Open-Meteo does: its keys in its order, local times without an offset
/// (or unix seconds), one object per place (an array for several), and CSV in its layout.
/// Numbers are the command line's (`ForecastRenderer.formatted`: same decimals, same nulls).
struct OpenMeteoRenderer {
    let parameters: ForecastParameters
    let times: RequestTimes
    let generationMilliseconds: Double

    /// The zone's offset and abbreviation, as of the first answered time.
    private var reference: Date {
        Date(timeIntervalSince1970: TimeInterval(times.hourly.first ?? times.dayStarts.first ?? times.current))
    }
    private var offset: Int { parameters.timeZone.secondsFromGMT(for: reference) }
    private var abbreviation: String { parameters.timeZone.abbreviation(for: reference) ?? parameters.timeZoneName }

    private func timeValue(_ time: Int64) -> String {
        switch parameters.timeFormat {
        case .iso8601: return JSONText.quoted(RequestTimes.label(time, offset: parameters.timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(time)))))
        case .unixtime: return String(time)
        }
    }

    private func dayValue(_ index: Int) -> String {
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
    static func dailyValue(_ value: Float, _ field: DailyField, _ units: OutputUnits, dayStart: Int64,
                           timeZone: TimeZone, timeFormat: ForecastParameters.TimeFormat) -> String {
        switch field {
        case .statistic(let daily) where daily.isTimeOfDay:
            guard value.isFinite else { return "null" }
            let time = dayStart + Int64((Double(value) / 60).rounded()) * 60
            if timeFormat == .unixtime { return String(time) }
            return JSONText.quoted(RequestTimes.label(time, offset: timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(time)))))
        case .statistic(let daily) where daily.statistic == .sum && daily.variable == .shortwaveRadiation:
            return ForecastRenderer.number(value, 2) ?? "null"
        case .statistic(let daily): return Self.value(value, daily.variable, units)
        case .dominantWindDirection: return Self.value(value, .windDirection10m, units)
        }
    }

    private func dailyValue(_ value: Float, _ field: DailyField, day: Int) -> String {
        Self.dailyValue(value, field, parameters.units, dayStart: day < times.dayStarts.count ? times.dayStarts[day] : 0,
                        timeZone: parameters.timeZone, timeFormat: parameters.timeFormat)
    }

    static func dailyUnit(_ field: DailyField, _ units: OutputUnits, timeFormat: ForecastParameters.TimeFormat = .iso8601) -> String {
        switch field {
        case .statistic(let daily) where daily.isTimeOfDay: return timeFormat.rawValue
        case .statistic(let daily): return daily.unit(units)
        case .dominantWindDirection: return "°"
        }
    }

    // MARK: JSON

    func json(_ places: [PlaceForecast]) -> String {
        let objects = places.map(object)
        if objects.count == 1 { return objects[0] }
        return "[" + objects.joined(separator: ",") + "]"
    }

    private func object(_ place: PlaceForecast) -> String {
        let forecast = place.forecast
        let units = parameters.units
        let p = forecast.provenance
        var out = "{"
        out += "\"latitude\":\(JSONText.number(forecast.latitude)),\"longitude\":\(JSONText.number(forecast.longitude))"
        out += ",\"generationtime_ms\":\(JSONText.number((generationMilliseconds * 1000).rounded() / 1000))"
        out += ",\"utc_offset_seconds\":\(offset),\"timezone\":\(JSONText.quoted(parameters.timeZoneName))"
        out += ",\"timezone_abbreviation\":\(JSONText.quoted(abbreviation))"
        // Metres, rounded as the command line prints it.
        out += ",\"elevation\":" + (forecast.elevation.flatMap { ForecastRenderer.number($0, 0) } ?? "null")
        // Where the numbers came from; clients written for Open-Meteo ignore this key.
        out += ",\"tilecast\":{\"model\":\(JSONText.quoted(p.model)),\"model_title\":\(JSONText.quoted(p.modelTitle))"
        out += ",\"cycle\":\(JSONText.quoted(p.cycle)),\"domain\":\(JSONText.quoted(p.domain))"
        out += ",\"grid_spacing_km\":\(JSONText.number(p.gridSpacingKilometres))"
        out += ",\"grid_position\":{\"i\":\(JSONText.number(p.gridI)),\"j\":\(JSONText.number(p.gridJ))}"
        if let note = parameters.timeZoneNote { out += ",\"note\":\(JSONText.quoted(note))" }
        out += "}"
        if !parameters.current.isEmpty {
            out += ",\"current_units\":{\"time\":\(JSONText.quoted(parameters.timeFormat.rawValue)),\"interval\":\"seconds\""
            for variable in parameters.current { out += ",\(JSONText.quoted(variable.rawValue)):\(JSONText.quoted(units.symbol(variable)))" }
            out += "},\"current\":{\"time\":\(timeValue(times.current)),\"interval\":\(RequestTimes.currentInterval)"
            for variable in parameters.current {
                out += ",\(JSONText.quoted(variable.rawValue)):" + Self.value(place.current[variable] ?? .nan, variable, units)
            }
            out += "}"
        }
        if parameters.currentWeather {
            // The legacy block, with its legacy names.
            let legacy: [(String, OutputVariable)] = [("temperature", .temperature2m), ("windspeed", .windSpeed10m),
                                                      ("winddirection", .windDirection10m), ("weathercode", .weatherCode)]
            out += ",\"current_weather_units\":{\"time\":\(JSONText.quoted(parameters.timeFormat.rawValue)),\"interval\":\"seconds\""
            for (name, variable) in legacy { out += ",\"\(name)\":\(JSONText.quoted(units.symbol(variable)))" }
            out += "},\"current_weather\":{\"time\":\(timeValue(times.current)),\"interval\":\(RequestTimes.currentInterval)"
            for (name, variable) in legacy { out += ",\"\(name)\":" + Self.value(place.current[variable] ?? .nan, variable, units) }
            out += "}"
        }
        if !parameters.hourly.isEmpty {
            out += ",\"hourly_units\":{\"time\":\(JSONText.quoted(parameters.timeFormat.rawValue))"
            for variable in parameters.hourly { out += ",\(JSONText.quoted(variable.rawValue)):\(JSONText.quoted(units.symbol(variable)))" }
            out += "},\"hourly\":{\"time\":[" + times.hourly.map(timeValue).joined(separator: ",") + "]"
            for variable in parameters.hourly {
                let series = place.hourly.values[variable] ?? []
                out += ",\(JSONText.quoted(variable.rawValue)):[" + series.map { Self.value($0, variable, units) }.joined(separator: ",") + "]"
            }
            out += "}"
        }
        if !parameters.daily.isEmpty {
            out += ",\"daily_units\":{\"time\":\(JSONText.quoted(parameters.timeFormat == .iso8601 ? "iso8601" : "unixtime"))"
            for field in parameters.daily { out += ",\(JSONText.quoted(field.name)):\(JSONText.quoted(Self.dailyUnit(field, units, timeFormat: parameters.timeFormat)))" }
            out += "},\"daily\":{\"time\":[" + times.days.indices.map(dayValue).joined(separator: ",") + "]"
            for field in parameters.daily {
                let series = place.daily[field] ?? []
                out += ",\(JSONText.quoted(field.name)):[" + series.indices.map { dailyValue(series[$0], field, day: $0) }.joined(separator: ",") + "]"
            }
            out += "}"
        }
        return out + "}"
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
                         + (f.elevation.flatMap { ForecastRenderer.number($0, 0) } ?? "") + ",\(offset),\(parameters.timeZoneName),\(abbreviation)")
        }
        func plain(_ text: String) -> String { text == "null" ? "" : text.replacingOccurrences(of: "\"", with: "") }
        if !parameters.current.isEmpty {
            lines.append("")
            lines.append(id + "time," + parameters.current.map { "\($0.rawValue) (\(units.symbol($0)))" }.joined(separator: ","))
            for (k, place) in places.enumerated() {
                lines.append((several ? "\(k)," : "") + plain(timeValue(times.current)) + ","
                             + parameters.current.map { plain(Self.value(place.current[$0] ?? .nan, $0, units)) }.joined(separator: ","))
            }
        }
        if !parameters.hourly.isEmpty {
            lines.append("")
            lines.append(id + "time," + parameters.hourly.map { "\($0.rawValue) (\(units.symbol($0)))" }.joined(separator: ","))
            for (k, place) in places.enumerated() {
                let columns = parameters.hourly.map { place.hourly.values[$0] ?? [] }
                for (t, time) in times.hourly.enumerated() {
                    var row = (several ? "\(k)," : "") + plain(timeValue(time))
                    for (c, variable) in parameters.hourly.enumerated() {
                        row += "," + plain(Self.value(t < columns[c].count ? columns[c][t] : .nan, variable, units))
                    }
                    lines.append(row)
                }
            }
        }
        if !parameters.daily.isEmpty {
            lines.append("")
            lines.append(id + "time," + parameters.daily.map { "\($0.name) (\(Self.dailyUnit($0, units, timeFormat: parameters.timeFormat)))" }.joined(separator: ","))
            for (k, place) in places.enumerated() {
                for d in times.days.indices {
                    var row = (several ? "\(k)," : "") + plain(dayValue(d))
                    for field in parameters.daily {
                        let series = place.daily[field] ?? []
                        row += "," + plain(dailyValue(d < series.count ? series[d] : .nan, field, day: d))
                    }
                    lines.append(row)
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
