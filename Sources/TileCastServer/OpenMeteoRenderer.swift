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
        case .iso8601: return JSONText.quoted(RequestTimes.label(time, offset: times.offset(at: time)))
        case .unixtime: return String(time)
        }
    }

    private func dayValue(_ index: Int, _ times: RequestTimes) -> String {
        switch parameters.timeFormat {
        case .iso8601: return JSONText.quoted(times.days[index])
        case .unixtime: return String(times.dayStarts[index])
        }
    }

    static func value(_ value: Float, _ variable: ForecastVariable, _ units: OutputUnits) -> String {
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
        // A fraction to 3 decimals, as Open-Meteo's SDK prints its unit.
        case _ where daily.statistic == .moonPhase:
            return ForecastRenderer.number(value, 3) ?? "null"
        default: return Self.value(value, daily.variable, units)
        }
    }

    /// `times`: the place's own (its zone with `timezone=auto`).
    private func dailyValue(_ value: Float, _ daily: DailyVariable, day: Int, _ times: RequestTimes) -> String {
        Self.dailyValue(value, daily, parameters.units, dayStart: day < times.dayStarts.count ? times.dayStarts[day] : 0,
                        timeZone: times.zone, timeFormat: parameters.timeFormat)
    }

    static func dailyUnit(_ daily: DailyVariable, _ units: OutputUnits, timeFormat: ForecastParameters.TimeFormat = .iso8601) -> String {
        daily.isTimeOfDay ? timeFormat.rawValue : label(daily.unit(units))
    }

    // MARK: Columns

    /// The unit of a column of nulls, as Open-Meteo's writers name `SiUnit.undefined`
    /// (Sources/App/Helper/Writer/ApiUrl.swift).
    static let undefinedUnit = "undefined"

    /// The variable answering an hourly or current column at this place; nil: a column of nulls.
    static func answering(_ column: RequestedColumn<ForecastVariable>, _ place: PlaceForecast) -> ForecastVariable? {
        guard let variable = column.variable, place.unavailable[variable] == nil else { return nil }
        return variable
    }

    static func answering(_ column: RequestedColumn<DailyVariable>, _ place: PlaceForecast) -> DailyVariable? {
        guard let field = column.variable, place.unavailableDaily[field] == nil else { return nil }
        return field
    }

    func unit(_ column: RequestedColumn<ForecastVariable>, _ place: PlaceForecast) -> String {
        Self.answering(column, place).map { Self.label(parameters.units.symbol($0)) } ?? Self.undefinedUnit
    }

    /// A unit as Open-Meteo's answers spell it (openmeteo-sdk's swift/Sources/OpenMeteoSdk/Unit.swift,
    /// `abbreviation`): miles per hour is "mp/h" there, "mph" on the command line.
    static func label(_ symbol: String) -> String { symbol == "mph" ? "mp/h" : symbol }

    func unit(_ column: RequestedColumn<DailyVariable>, _ place: PlaceForecast) -> String {
        Self.answering(column, place).map { Self.dailyUnit($0, parameters.units, timeFormat: parameters.timeFormat) } ?? Self.undefinedUnit
    }

    /// Why each null column of this location is null, by the name it was asked by (with its
    /// model's suffix when several models answer).
    func unavailable(_ location: LocationAnswer) -> [(name: String, reason: String)] {
        // The usual answer has none: no per-place work for it.
        guard parameters.hasUnservedColumns || location.parts.contains(where: { !$0.unavailable.isEmpty || !$0.unavailableDaily.isEmpty })
        else { return [] }
        var reasons: [(name: String, reason: String)] = []
        func add(_ name: String, _ reason: String?) {
            if let reason, !reasons.contains(where: { $0.name == name }) { reasons.append((name, reason)) }
        }
        for (k, place) in location.parts.enumerated() {
            let suffix = location.suffix(k)
            for column in parameters.currentColumns + parameters.minutely15Columns + parameters.hourlyColumns {
                add(column.name + suffix, column.unserved ?? column.variable.flatMap { place.unavailable[$0] })
            }
            for column in parameters.dailyColumns {
                add(column.name + suffix, column.unserved ?? column.variable.flatMap { place.unavailableDaily[$0] })
            }
        }
        return reasons
    }

    // MARK: JSON

    /// The body: one object, or an array of them for several places. Written into one byte
    /// buffer (no String per piece joined into larger Strings: that copying and allocation
    /// was a third of a request's time).
    func json(_ places: [LocationAnswer]) -> [UInt8] {
        var out = JSONBytes()
        out.bytes.reserveCapacity(places.count * (1024 + parameters.hourlyColumns.count * 200))
        if places.count != 1 { out.raw("[") }
        for (k, place) in places.enumerated() {
            if k > 0 { out.raw(",") }
            object(place, &out)
        }
        if places.count != 1 { out.raw("]") }
        return out.bytes
    }

    /// One location: the header, `current` and `current_weather` from its first model (as
    /// Open-Meteo's JsonWriter.swift writes them), then each block's columns of every model.
    private func object(_ location: LocationAnswer, _ out: inout JSONBytes) {
        let place = location.first
        header(location, &out)
        currentBlock(place, &out)
        currentWeatherBlock(place, &out)
        seriesBlock("minutely_15", parameters.minutely15Columns, times: place.times.minutely15, series: { $0.minutely15 }, location, &out)
        seriesBlock("hourly", parameters.hourlyColumns, times: place.times.hourly, series: { $0.hourly }, location, &out)
        dailyBlock(location, &out)
        out.raw("}")
    }

    /// The place, its zone and elevation, and the `tilecast` key saying where the numbers came from.
    private func header(_ location: LocationAnswer, _ out: inout JSONBytes) {
        let place = location.first
        let forecast = place.forecast
        let times = place.times
        let p = forecast.provenance
        out.raw("{\"latitude\":"); out.raw(JSONText.number(forecast.latitude))
        out.raw(",\"longitude\":"); out.raw(JSONText.number(forecast.longitude))
        out.raw(",\"generationtime_ms\":"); out.raw(JSONText.number((generationMilliseconds * 1000).rounded() / 1000))
        out.raw(",\"utc_offset_seconds\":"); out.raw(String(times.utcOffset))
        out.raw(",\"timezone\":"); out.quoted(times.zoneName)
        out.raw(",\"timezone_abbreviation\":"); out.quoted(times.abbreviation)
        // Metres, rounded as the command line prints it.
        out.raw(",\"elevation\":"); out.raw(forecast.elevation.flatMap { ForecastRenderer.number($0, 0) } ?? "null")
        // The client's number for the place, or its position; Open-Meteo writes it unless 0
        // (Sources/App/Helper/Writer/JsonWriter.swift).
        let id = location.locationID
        if id != 0 { out.raw(",\"location_id\":"); out.raw(String(id)) }
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
        // The run's 15-minute stream that answered `minutely_15` (only when one did).
        if let stream = place.minutely15?.provenance.stream {
            out.raw(",\"minutely_15_stream\":"); out.quoted(stream)
        }
        // Only when hours came from more than one cycle (past hours from older cycles): which
        // cycle answered which hours, in the answer's own time format.
        if !place.cycles.isEmpty {
            out.raw(",\"cycles\":[")
            for (k, run) in place.cycles.enumerated() {
                if k > 0 { out.raw(",") }
                out.raw("{\"cycle\":"); out.quoted(run.cycle)
                out.raw(",\"domain\":"); out.quoted(run.domain)
                out.raw(",\"from\":"); out.raw(timeValue(run.first, place.times))
                out.raw(",\"to\":"); out.raw(timeValue(run.last, place.times)); out.raw("}")
            }
            out.raw("]")
        }
        // The lagged members behind the probabilities (`LaggedMembers`): how many cycles
        // answered the hours (fewest and most over the hours that had one) and which.
        if let members = place.members {
            let known = members.counts.filter { $0 > 0 }
            out.raw(",\"members\":{\"asked\":"); out.raw(String(members.asked))
            out.raw(",\"fewest\":"); out.raw(String(known.min() ?? 0))
            out.raw(",\"most\":"); out.raw(String(known.max() ?? 0))
            out.raw(",\"cycles\":[")
            for (k, cycle) in members.cycles.enumerated() {
                if k > 0 { out.raw(",") }
                out.quoted(cycle)
            }
            out.raw("],\"method\":"); out.quoted((known.max() ?? 0) > 1
                ? "lagged ensemble: the mean over the newest cycles covering each hour of each one's neighbourhood fraction (a probability) or the sample standard deviation of their values (a spread)"
                : "one cycle only: the newest run's neighbourhood fraction, not an ensemble (a spread needs two members: null)")
            out.raw("}")
        }
        // With several models, which cycle and domain of each answered.
        if location.parts.count > 1 {
            out.raw(",\"models\":[")
            for (k, part) in location.parts.enumerated() {
                let q = part.forecast.provenance
                if k > 0 { out.raw(",") }
                out.raw("{\"suffix\":"); out.quoted(location.suffix(k))
                out.raw(",\"model\":"); out.quoted(q.model)
                out.raw(",\"cycle\":"); out.quoted(q.cycle)
                out.raw(",\"domain\":"); out.quoted(q.domain); out.raw("}")
            }
            out.raw("]")
        }
        // Only when a column is null for a reason other than time: answers without keep their bytes.
        let reasons = unavailable(location)
        if !reasons.isEmpty {
            out.raw(",\"unavailable\":{")
            for (k, entry) in reasons.enumerated() {
                if k > 0 { out.raw(",") }
                out.quoted(entry.name); out.raw(":"); out.quoted(entry.reason)
            }
            out.raw("}")
        }
        out.raw("}")
    }

    private func currentBlock(_ place: PlaceForecast, _ out: inout JSONBytes) {
        let times = place.times, units = parameters.units
        if !parameters.currentColumns.isEmpty {
            out.raw(",\"current_units\":{\"time\":"); out.quoted(parameters.timeFormat.rawValue); out.raw(",\"interval\":\"seconds\"")
            for column in parameters.currentColumns { out.member(column.name); out.quoted(unit(column, place)) }
            out.raw("},\"current\":{\"time\":"); out.raw(timeValue(times.current, times))
            out.raw(",\"interval\":"); out.raw(String(RequestTimes.currentInterval))
            for column in parameters.currentColumns {
                out.member(column.name)
                out.raw(Self.answering(column, place).map { Self.value(place.current[$0] ?? .nan, $0, units) } ?? "null")
            }
            out.raw("}")
        }
    }

    private func currentWeatherBlock(_ place: PlaceForecast, _ out: inout JSONBytes) {
        let times = place.times, units = parameters.units
        if parameters.currentWeather {
            // The legacy block, with its legacy names, in Open-Meteo's order (its
            // `defaultCurrentWeather`, Sources/App/Controllers/ForecastapiController.swift).
            let legacy: [(String, ForecastVariable)] = [("temperature", .temperature2m), ("windspeed", .windSpeed10m),
                                                      ("winddirection", .windDirection10m), ("is_day", .isDay), ("weathercode", .weatherCode)]
            out.raw(",\"current_weather_units\":{\"time\":"); out.quoted(parameters.timeFormat.rawValue); out.raw(",\"interval\":\"seconds\"")
            for (name, variable) in legacy {
                out.member(name); out.quoted(place.unavailable[variable] == nil ? Self.label(units.symbol(variable)) : Self.undefinedUnit)
            }
            out.raw("},\"current_weather\":{\"time\":"); out.raw(timeValue(times.current, times))
            out.raw(",\"interval\":"); out.raw(String(RequestTimes.currentInterval))
            for (name, variable) in legacy { out.member(name); out.raw(Self.value(place.current[variable] ?? .nan, variable, units)) }
            out.raw("}")
        }
    }

    /// `hourly` or `minutely_15`: the block's units, times and each column's values, every
    /// model's columns in turn.
    private func seriesBlock(_ key: String, _ columns: [RequestedColumn<ForecastVariable>], times blockTimes: [Int64],
                             series: (PlaceForecast) -> PointForecast?, _ location: LocationAnswer, _ out: inout JSONBytes) {
        let times = location.first.times, units = parameters.units
        if !columns.isEmpty {
            out.raw(",\"\(key)_units\":{\"time\":"); out.quoted(parameters.timeFormat.rawValue)
            for (m, place) in location.parts.enumerated() {
                for column in columns { out.member(column.name, suffix: location.suffix(m)); out.quoted(unit(column, place)) }
            }
            out.raw("},\"\(key)\":{\"time\":[")
            switch parameters.timeFormat {
            case .iso8601: out.localTimes(blockTimes) { Int64(times.offset(at: $0)) }
            case .unixtime:
                for (k, time) in blockTimes.enumerated() {
                    if k > 0 { out.raw(",") }
                    out.raw(String(time))
                }
            }
            out.raw("]")
            for (m, place) in location.parts.enumerated() {
                let forecast = series(place)
                for column in columns {
                    out.member(column.name, suffix: location.suffix(m)); out.raw("[")
                    // No series: the place's times lie outside every cycle (`placeOrNulls`).
                    if let variable = Self.answering(column, place), let series = forecast?.values[variable] {
                        out.values(series, variable, decimals: units.decimals(variable), units)
                    } else {
                        out.nulls(blockTimes.count)
                    }
                    out.raw("]")
                }
            }
            out.raw("}")
        }
    }

    private func dailyBlock(_ location: LocationAnswer, _ out: inout JSONBytes) {
        let times = location.first.times
        if !parameters.dailyColumns.isEmpty {
            out.raw(",\"daily_units\":{\"time\":"); out.quoted(parameters.timeFormat == .iso8601 ? "iso8601" : "unixtime")
            for (m, place) in location.parts.enumerated() {
                for column in parameters.dailyColumns { out.member(column.name, suffix: location.suffix(m)); out.quoted(unit(column, place)) }
            }
            out.raw("},\"daily\":{\"time\":[")
            for index in times.days.indices {
                if index > 0 { out.raw(",") }
                out.raw(dayValue(index, times))
            }
            out.raw("]")
            for (m, place) in location.parts.enumerated() {
                for column in parameters.dailyColumns {
                    out.member(column.name, suffix: location.suffix(m)); out.raw("[")
                    if let field = Self.answering(column, place), let series = place.daily[field] {
                        for (k, value) in series.enumerated() {
                            if k > 0 { out.raw(",") }
                            out.raw(dailyValue(value, field, day: k, times))
                        }
                    } else {
                        out.nulls(times.days.count)
                    }
                    out.raw("]")
                }
            }
            out.raw("}")
        }
    }

    // MARK: CSV

    /// Open-Meteo's CSV: a header table of the places, then the current, hourly and daily
    /// tables, each after a blank line; with several places every row starts with location_id.
    /// With several models each table has every model's columns, suffixed with its name; the
    /// header row is the first location's (a model that did not answer a later location
    /// leaves its cells NaN there).
    func csv(_ locations: [LocationAnswer]) -> [UInt8] {
        let several = locations.count > 1
        let units = parameters.units
        // Each line's bytes and its line end written into one buffer as it is made (an array
        // of every line joined at the end held the answer three times over: 826 MB for a
        // 16-day box of every variable).
        var lines = CSVLines()
        let id = several ? "location_id," : ""
        if parameters.csvLocationSection { lines.append(id + "latitude,longitude,elevation,utc_offset_seconds,timezone,timezone_abbreviation") }
        for location in locations where parameters.csvLocationSection {
            let place = location.first, f = place.forecast
            lines.append((several ? "\(location.locationID)," : "") + "\(JSONText.number(f.latitude)),\(JSONText.number(f.longitude)),"
                         + (f.elevation.flatMap { ForecastRenderer.number($0, 0) } ?? Self.csvNull) + ",\(place.times.utcOffset),\(place.times.zoneName),\(place.times.abbreviation)")
        }
        // A missing number is NaN and a missing time of day (sunrise) an empty cell, as
        // Open-Meteo's CSV writes them (Sources/App/Helper/Writer/CsvWriter.swift).
        // Quotes dropped from the few texts that have them (times): Foundation's
        // `replacingOccurrences` on every cell was most of a large CSV answer's time.
        func plain(_ text: String) -> String {
            if text == "null" { return Self.csvNull }
            guard text.utf8.contains(UInt8(ascii: "\"")) else { return text }
            return String(decoding: text.utf8.filter { $0 != UInt8(ascii: "\"") }, as: UTF8.self)
        }
        func time(_ text: String) -> String { text == "null" ? "" : plain(text) }
        let suffixes = locations.first.map { first in first.parts.indices.map(first.suffix) } ?? [""]
        /// The part of `location` answering the columns with `suffix`.
        func part(_ location: LocationAnswer, _ suffix: String) -> PlaceForecast? {
            location.parts.indices.first { location.suffix($0) == suffix }.map { location.parts[$0] }
        }
        // One header for all places: a column's unit is "undefined" only where no place has it.
        func header<V: Hashable & Sendable>(_ columns: [RequestedColumn<V>], _ unit: (RequestedColumn<V>, PlaceForecast) -> String) -> String {
            id + "time," + suffixes.flatMap { suffix in
                columns.map { column in
                    let named = locations.compactMap { part($0, suffix) }.map { unit(column, $0) }.first { $0 != Self.undefinedUnit }
                    return "\(column.name)\(suffix) (\(named ?? Self.undefinedUnit))"
                }
            }.joined(separator: ",")
        }
        if !parameters.currentColumns.isEmpty {
            // A blank line between tables (none before the first when the places are omitted).
            if !lines.bytes.isEmpty { lines.append("") }
            lines.append(header(parameters.currentColumns) { unit($0, $1) })
            for location in locations {
                let times = location.first.times
                let cells = suffixes.flatMap { suffix in
                    let place = part(location, suffix)
                    return parameters.currentColumns.map { column in
                        place.flatMap { place in Self.answering(column, place).map { plain(Self.value(place.current[$0] ?? .nan, $0, units)) } } ?? Self.csvNull
                    }
                }
                lines.append((several ? "\(location.locationID)," : "") + plain(timeValue(times.current, times)) + "," + cells.joined(separator: ","))
            }
        }
        // Open-Meteo's order: current, minutely_15, hourly, daily.
        for (blockColumns, blockTimes, blockSeries) in [
            (parameters.minutely15Columns, { (place: PlaceForecast) in place.times.minutely15 }, { (place: PlaceForecast) in place.minutely15 }),
            (parameters.hourlyColumns, { (place: PlaceForecast) in place.times.hourly }, { (place: PlaceForecast) -> PointForecast? in place.hourly }),
        ] where !blockColumns.isEmpty {
            // A blank line between tables (none before the first when the places are omitted).
            if !lines.bytes.isEmpty { lines.append("") }
            lines.append(header(blockColumns) { unit($0, $1) })
            for location in locations {
                // Each cell's series and variable, model by model.
                var cells: [(series: [Float], variable: ForecastVariable?)] = []
                for suffix in suffixes {
                    let place = part(location, suffix)
                    for column in blockColumns {
                        let variable = place.flatMap { Self.answering(column, $0) }
                        cells.append((variable.flatMap { v in place.flatMap { blockSeries($0)?.values[v] } } ?? [], variable))
                    }
                }
                let times = location.first.times
                let id = several ? "\(location.locationID)," : ""
                let series = cells.map(\.series), variables = cells.map(\.variable)
                let decimals = variables.map { $0.map(units.decimals) ?? 0 }
                for (t, moment) in blockTimes(location.first).enumerated() {
                    // `plain(timeValue(...))` without the quotes made and dropped again.
                    let time = parameters.timeFormat == .unixtime ? String(moment) : RequestTimes.label(moment, offset: times.offset(at: moment))
                    lines.seriesRow(id + time, series, variables, decimals: decimals, at: t, units)
                }
            }
        }
        if !parameters.dailyColumns.isEmpty {
            // A blank line between tables (none before the first when the places are omitted).
            if !lines.bytes.isEmpty { lines.append("") }
            lines.append(header(parameters.dailyColumns) { unit($0, $1) })
            for location in locations {
                let times = location.first.times
                for d in times.days.indices {
                    var row = (several ? "\(location.locationID)," : "") + plain(dayValue(d, times))
                    for suffix in suffixes {
                        let place = part(location, suffix)
                        for column in parameters.dailyColumns {
                            guard let place, let field = Self.answering(column, place) else { row += "," + Self.csvNull; continue }
                            let series = place.daily[field] ?? []
                            let text = dailyValue(d < series.count ? series[d] : .nan, field, day: d, times)
                            row += "," + (field.isTimeOfDay ? time(text) : plain(text))
                        }
                    }
                    lines.append(row)
                }
            }
        }
        return lines.bytes
    }

    /// The CSV answer being written: each line and its `\n`.
    struct CSVLines {
        var bytes: [UInt8] = []

        /// A row of `hourly` or `minutely_15`: `start` (the location and time), then each cell's
        /// value at `t` as `value` prints it (`ForecastRenderer.writeFormatted`, the JSON's
        /// writer), NaN where it is missing or the column has no variable. Its digits are
        /// written straight into the buffer: a String a cell joined into a String a row made
        /// the CSV of 6 M values take 9.8 s of CPU (debug build).
        mutating func seriesRow(_ start: String, _ series: [[Float]], _ variables: [ForecastVariable?], decimals: [Int], at t: Int,
                                _ units: OutputUnits) {
            var start = start
            start.withUTF8 { bytes.append(contentsOf: $0) }
            // Each value gets `formattedRoom` bytes: `writeFormatted` may load (never store) that far.
            let room = series.count * (ForecastRenderer.formattedRoom + 1) + 1
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: room) { scratch in
                guard let base = scratch.baseAddress else { return }
                var n = 0
                for k in series.indices {
                    base[n] = UInt8(ascii: ",")
                    n += 1
                    if let variable = variables[k] {
                        n += ForecastRenderer.writeFormatted(t < series[k].count ? series[k][t] : .nan, variable, decimals: decimals[k], units,
                                                             missing: "NaN", at: base + n)
                    } else {
                        n += ("NaN" as StaticString).withUTF8Buffer { text in
                            for (j, byte) in text.enumerated() { base[n + j] = byte }
                            return text.count
                        }
                    }
                }
                base[n] = UInt8(ascii: "\n")
                bytes.append(contentsOf: UnsafeBufferPointer(start: base, count: n + 1))
            }
        }

        mutating func append(_ line: String) {
            var line = line
            line.withUTF8 { bytes.append(contentsOf: $0) }
            bytes.append(UInt8(ascii: "\n"))
        }
    }

    /// How Open-Meteo's CSV writes a missing number.
    static let csvNull = "NaN"

    /// The CSV answer's `Content-Disposition`, as Open-Meteo names the file
    /// (Sources/App/Helper/Writer/CsvWriter.swift; `formatedCoordinatesFilename` in
    /// Sources/App/Helper/Writer/ForecastApiResult.swift): the first place's latitude and
    /// longitude to 2 decimals with N/S and E/W, then its elevation in whole metres when known,
    /// e.g. `attachment; filename="open-meteo-38.72N9.14W45m.csv"`.
    static func csvDisposition(_ places: [LocationAnswer]) -> String {
        var name = ""
        if let first = places.first?.first.forecast {
            let latitude = Float(first.latitude), longitude = Float(first.longitude)
            name = hundredths(abs(latitude)) + (latitude < 0 ? "S" : "N") + hundredths(abs(longitude)) + (longitude < 0 ? "W" : "E")
            if let elevation = first.elevation, elevation.isFinite { name += "\(Int(elevation.rounded()))m" }
        }
        return "attachment; filename=\"open-meteo-\(name).csv\""
    }

    /// A non-negative number to exactly 2 decimals, rounded half away from zero in Float as
    /// Open-Meteo's `formatted(decimals:)` (Sources/App/Helper/NumberExtensions.swift) rounds.
    private static func hundredths(_ value: Float) -> String {
        let scaled = Int((value * 100).rounded())
        let fraction = scaled % 100
        return "\(scaled / 100)." + (fraction < 10 ? "0" : "") + "\(fraction)"
    }
}

/// A JSON body being written: bytes appended in place.
struct JSONBytes {
    var bytes: [UInt8] = []

    mutating func raw(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }
    mutating func quoted(_ text: String) {
        // Units and names need no escaping: their bytes between quotes, no String made.
        guard !ForecastRenderer.needsJSONEscaping(text) else {
            raw(JSONText.quoted(text))
            return
        }
        bytes.append(UInt8(ascii: "\""))
        raw(text)
        bytes.append(UInt8(ascii: "\""))
    }
    /// Writes straight into the buffer's storage: `write` gets the start of `room` free bytes
    /// and returns how many it wrote (at most `room`). A column's values or times are written
    /// in one such call: appending each number and comma on its own (a uniqueness and capacity
    /// check every time) was most of the writer's time (S1).
    mutating func withRoom(_ room: Int, _ write: (UnsafeMutablePointer<UInt8>) -> Int) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: room) { scratch in
            guard let base = scratch.baseAddress else { return }
            let written = max(0, min(room, write(base)))
            bytes.append(contentsOf: UnsafeBufferPointer(start: base, count: written))
        }
    }

    /// A column's values, comma-separated, as `OpenMeteoRenderer.value` prints each (null when
    /// missing), their digits written straight into the buffer.
    mutating func values(_ series: [Float], _ variable: ForecastVariable, decimals: Int, _ units: OutputUnits) {
        // Each value gets `formattedRoom` bytes: `writeFormatted` may load (never store) that far.
        withRoom(series.count * (ForecastRenderer.formattedRoom + 1)) { target in
            var n = 0
            for (k, value) in series.enumerated() {
                if k > 0 {
                    target[n] = UInt8(ascii: ",")
                    n += 1
                }
                n += ForecastRenderer.writeFormatted(value, variable, decimals: decimals, units, missing: "null", at: target + n)
            }
            return n
        }
    }

    /// Times as `localTime` writes each, comma-separated; `offset` gives a time's seconds east
    /// of UTC.
    mutating func localTimes(_ times: [Int64], offset: (Int64) -> Int64) {
        withRoom(times.count * Self.localTimeRoom) { target in
            var n = 0
            for (k, time) in times.enumerated() {
                if k > 0 {
                    target[n] = UInt8(ascii: ",")
                    n += 1
                }
                n += Self.writeLocalTime(time + offset(time), at: target + n)
            }
            return n
        }
    }

    /// Room for one quoted local time and its comma (a year past 9999 is longer; see below).
    static let localTimeRoom = 40

    /// `"2026-11-22T06:00"` at `target`; returns the bytes written (at most `localTimeRoom` - 1).
    static func writeLocalTime(_ seconds: Int64, at target: UnsafeMutablePointer<UInt8>) -> Int {
        target[0] = UInt8(ascii: "\"")
        guard let n = ModelTime.writeISODigits(seconds, withSeconds: false, at: target + 1) else {
            // Not a time any forecast holds: the general text, cut to the room.
            let text = Array(("\"" + ModelTime.isoMinutes(seconds).dropLast() + "\"").utf8.prefix(localTimeRoom - 1))
            for (k, byte) in text.enumerated() { target[k] = byte }
            return text.count
        }
        target[n + 1] = UInt8(ascii: "\"")
        return n + 2
    }

    /// `null,null,...`: a column of `count` nulls.
    mutating func nulls(_ count: Int) {
        for k in 0..<count {
            if k > 0 { bytes.append(UInt8(ascii: ",")) }
            raw("null")
        }
    }
    /// `,"name":` (a member after the first of an object), for the server's own names
    /// (variables, aggregates), which need no escaping.
    mutating func member(_ name: String, suffix: String = "") {
        bytes.append(UInt8(ascii: ","))
        bytes.append(UInt8(ascii: "\""))
        raw(name)
        if !suffix.isEmpty { raw(suffix) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }
}
