import Catalog
import Foundation
import Meteorology
import PointQuery

/// How the times of the answer are chosen (Open-Meteo's parameters).
package struct TimeSelection: Sendable, Equatable {
    package var forecastDays: Int = 7
    package var pastDays: Int = 0
    package var forecastHours: Int?
    package var pastHours: Int?
    /// initial_hours: with forecast_hours or past_hours, the hourly range starts this many
    /// hours after today's local midnight instead of at the current hour.
    package var initialHours: Int?
    /// start_date/end_date: local dates, inclusive.
    var dates: (start: DateComponents, end: DateComponents)?
    /// start_hour/end_hour: local times, inclusive.
    var hours: (start: DateComponents, end: DateComponents)?
    /// Whether `forecast_days` was given: the `minutely_15` block spans 3 days unless it was
    /// (Open-Meteo's `forecastDaysMinutely15Default`).
    package var forecastDaysGiven = false
    /// forecast_minutely_15 / past_minutely_15: 15-minute steps from the current quarter hour.
    package var forecastMinutely15: Int?
    package var pastMinutely15: Int?
    /// start_minutely_15/end_minutely_15: local times, inclusive.
    var minutely15: (start: DateComponents, end: DateComponents)?
    /// initial_minutely_15: with forecast_minutely_15 or past_minutely_15, the steps start this
    /// many quarter hours after today's local midnight instead of at the current quarter hour.
    package var initialMinutely15: Int?
    /// temporal_resolution: the `hourly` block's step.
    package var temporalResolution = TemporalResolution.hourly

    package static func == (a: Self, b: Self) -> Bool {
        a.forecastDays == b.forecastDays && a.pastDays == b.pastDays && a.forecastHours == b.forecastHours
            && a.pastHours == b.pastHours && a.initialHours == b.initialHours && a.dates?.start == b.dates?.start && a.dates?.end == b.dates?.end
            && a.hours?.start == b.hours?.start && a.hours?.end == b.hours?.end && a.forecastDaysGiven == b.forecastDaysGiven
            && a.forecastMinutely15 == b.forecastMinutely15 && a.pastMinutely15 == b.pastMinutely15
            && a.minutely15?.start == b.minutely15?.start && a.minutely15?.end == b.minutely15?.end
            && a.initialMinutely15 == b.initialMinutely15 && a.temporalResolution == b.temporalResolution
    }
}

/// Open-Meteo's `temporal_resolution` (its `ApiTemporalResolution`,
/// Sources/App/Helper/ForecastapiQuery.swift): the step of the `hourly` block. Its times keep
/// the block's range and take every step from its start; an amount (precipitation) is the sum
/// over the step before each time; daily values are still made from every hour.
package enum TemporalResolution: String, Sendable, CaseIterable {
    case native, minutely_15, minutely_30, hourly, hourly_1, hourly_3, hourly_6

    /// The step in seconds; nil for `native`, the answering domain's own output interval.
    package var seconds: Int64? {
        switch self {
        case .native: return nil
        case .minutely_15: return 900
        case .minutely_30: return 1800
        case .hourly, .hourly_1: return 3600
        case .hourly_3: return 3 * 3600
        case .hourly_6: return 6 * 3600
        }
    }
}

/// A latitude/longitude box: south <= latitude < north, west <= longitude < east (Open-Meteo's
/// `BoundingBoxWGS84`, half-open ranges).
package struct BoundingBox: Sendable, Equatable {
    package let south: Double
    package let west: Double
    package let north: Double
    package let east: Double

    package func contains(latitude: Double, longitude: Double) -> Bool {
        latitude >= south && latitude < north && longitude >= west && longitude < east
    }
}

/// One requested column of a block, under the name the request used: Open-Meteo echoes the
/// name asked for (`weathercode` comes back as `weathercode`), so old clients find their keys.
package struct RequestedColumn<Variable: Hashable & Sendable>: Sendable {
    package let name: String
    /// What answers it; nil for a name Open-Meteo knows that TileCast never serves.
    package let variable: Variable?
    /// Why the column is null when `variable` is nil.
    package let unserved: String?
}

/// One `/v1/forecast` request, parsed and checked. Nothing here touches the file system: the
/// model name is checked against the store's list by the caller.
package struct ForecastParameters: Sendable {
    package enum Format: String, Sendable { case json, csv, flatbuffers }
    package enum TimeFormat: String, Sendable { case iso8601, unixtime }

    package var latitudes: [Double] = []
    package var longitudes: [Double] = []
    /// `elevation=`: one per place, nil for "nan" (the model terrain, Open-Meteo's "no
    /// downscaling"); empty when not given (every place at its model terrain).
    package var elevations: [Double?] = []
    /// `location_id`: the client's number for each place, echoed in the answer (Open-Meteo's
    /// ForecastapiQuery); empty: places are numbered from 0 in order.
    package var locationIDs: [Int] = []
    /// The variables computed for each block (each once), from the columns' served ones.
    package var hourly: [ForecastVariable] = []
    package var daily: [DailyVariable] = []
    package var current: [ForecastVariable] = []
    /// `minutely_15`: every 15 minutes, read from a run's 15-minute stream where it has one,
    /// else interpolated in time (as Open-Meteo does for its hourly models).
    package var minutely15: [ForecastVariable] = []
    /// Each block's columns in the request's order, as named (`OpenMeteoNames`).
    package var hourlyColumns: [RequestedColumn<ForecastVariable>] = []
    package var dailyColumns: [RequestedColumn<DailyVariable>] = []
    package var currentColumns: [RequestedColumn<ForecastVariable>] = []
    package var minutely15Columns: [RequestedColumn<ForecastVariable>] = []
    /// Whether a column names something TileCast never serves (the answer then says why).
    package var hasUnservedColumns: Bool {
        hourlyColumns.contains { $0.variable == nil } || currentColumns.contains { $0.variable == nil }
            || dailyColumns.contains { $0.variable == nil } || minutely15Columns.contains { $0.variable == nil }
    }
    /// The legacy `current_weather=true` block.
    package var currentWeather = false
    /// `current`'s amounts (and the weather code made from them) over the hour ending now
    /// rather than the quarter hour: not a query parameter; set by the renderers of APIs whose
    /// current rain is "the last hour's" (OpenWeatherMap's `rain.1h`).
    package var currentAmountsOverTheHour = false
    package var timeZone: TimeZone = ForecastParameters.gmt
    /// The name answered in `timezone` ("GMT" by default, as Open-Meteo).
    package var timeZoneName = "GMT"
    /// `timezone=auto`: each place in its own zone (`TimeZoneTable`), not `timeZone`.
    package var timeZoneAuto = false
    /// `timezone=` with one entry per place (Open-Meteo's per-place list); empty when one zone
    /// (above) serves every place. nil entries are `auto`.
    package var placeZones: [(zone: TimeZone, name: String)?] = []
    package var units = OutputUnits()
    package var timeFormat = TimeFormat.iso8601
    package var format = Format.json
    /// `location_information=section` (the default) or `omit`: whether a CSV answer starts
    /// with the table of its places (Open-Meteo's `OutputLocationInformation`).
    package var csvLocationSection = true
    /// Open-Meteo's `cell_selection` (`CellSelection`: land and sea interpolate, nearest does not).
    package var cellSelection = CellSelection.land
    /// Open-Meteo's `tilt` and `azimuth`: the plane of `global_tilted_irradiance` (flat by default).
    package var panel = PanelOrientation.flat
    /// `bounding_box`: every grid cell of the box is a location (`ForecastEngine.boxJobs`);
    /// latitude and longitude are then empty.
    package var boundingBox: BoundingBox?
    /// nil: best_match (or several models: `models`).
    package var model: String?
    /// `models=a,b`: the models named, in order ("best_match" among them is best match);
    /// empty or one: `model` answers.
    package var models: [String] = []
    package static let bestMatch = "best_match"
    /// Models one request may name: each answers every place.
    package static let maxModels = 8
    /// Names one block (`hourly`, `daily`, `current`, `minutely_15`) may list: more than every
    /// name TileCast and Open-Meteo know, with room for repeats. Open-Meteo's level names
    /// (`temperature_850hPa`) take any number, so the names a request can give are otherwise
    /// unbounded.
    package static let maxVariableNames = 1000
    package var times = TimeSelection()
    /// Several start/end ranges (lists of `start_date`... ): one selection each, answered for
    /// the place with the same position, or all for a single place; empty: `times` for all.
    package var ranges: [TimeSelection] = []

    package static let gmt = TimeZone(identifier: "GMT") ?? TimeZone(secondsFromGMT: 0) ?? .current

    /// The zone a place's times follow, and the name to answer.
    /// - Parameter index: the place's position in the request (its entry of a per-place list).
    package func zone(index: Int = 0, latitude: Double, longitude: Double) -> (zone: TimeZone, name: String) {
        if index < placeZones.count {
            return placeZones[index] ?? TimeZoneTable.zone(latitude: latitude, longitude: longitude)
        }
        return timeZoneAuto ? TimeZoneTable.zone(latitude: latitude, longitude: longitude) : (timeZone, timeZoneName)
    }

    /// Limits of one request: places and days.
    package static let maxPlaces = 1000
    package static let maxDays = 16
    /// Open-Meteo's limit of `past_days` (and of `past_hours` / 24), independent of the
    /// forecast days: 92 in its published contract (openapi/forecast.yml, `past_days`).
    package static let maxPastDays = 92

    /// Parses the query's (name, value) pairs; a parameter may repeat (its values join) or be
    /// a comma list. Unknown parameters are ignored, as Open-Meteo does.
    package init(query: [(name: String, value: String)]) throws(APIError) {
        let values = QueryValues(query)
        try parsePlaces(values)
        try parseVariables(values)
        try parseTimeZone(values)
        try parseUnitsAndFormat(values)
        try parseTimeRange(values)
    }

    /// A request's parameters by name: each value as given, as a comma list, or as an integer.
    private struct QueryValues {
        let values: [String: [String]]

        init(_ query: [(name: String, value: String)]) {
            var values: [String: [String]] = [:]
            for (name, value) in query { values[name, default: []].append(value) }
            self.values = values
        }

        /// The comma-separated entries, trimmed, empty ones left out. Split on the UTF-8 bytes:
        /// String's Character-by-Character split was a tenth of a request's parsing (S1).
        func list(_ name: String) -> [String]? {
            guard let given = values[name] else { return nil }
            var entries: [String] = []
            for value in given {
                // Scanned in the string's contiguous UTF-8 (the generic `split` of a UTF8View
                // cost ~4,000 instructions a list).
                var value = value
                value.withUTF8 { bytes in
                    func blank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
                    var start = 0
                    while start <= bytes.count {
                        var end = start
                        while end < bytes.count && bytes[end] != UInt8(ascii: ",") { end += 1 }
                        var first = start, last = end
                        while first < last && blank(bytes[first]) { first += 1 }
                        while last > first && blank(bytes[last - 1]) { last -= 1 }
                        if first < last { entries.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[first..<last]), as: UTF8.self)) }
                        start = end + 1
                    }
                }
            }
            return entries
        }

        /// How many entries `list(name)` would give, counted on the bytes without making them:
        /// a list's length is checked against its limit before any entry is parsed (120,000
        /// names in a POST body cost seconds of a request thread when parsed first).
        func count(_ name: String) -> Int {
            guard let given = values[name] else { return 0 }
            var count = 0
            for value in given {
                var value = value
                value.withUTF8 { bytes in
                    // An entry counts when it holds a byte other than a space or tab (as `list`
                    // keeps only entries not blank once trimmed).
                    var filled = false
                    for byte in bytes {
                        if byte == UInt8(ascii: ",") {
                            if filled { count += 1 }
                            filled = false
                        } else if byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\t") {
                            filled = true
                        }
                    }
                    if filled { count += 1 }
                }
            }
            return count
        }

        /// `list(name)` once its length is known to be at most `limit`; `refusal` words the
        /// 400 for a longer list, given its length.
        func list(_ name: String, atMost limit: Int, _ refusal: (Int) -> String) throws(APIError) -> [String]? {
            let count = count(name)
            guard count <= limit else { throw APIError(refusal(count)) }
            return list(name)
        }

        func single(_ name: String) -> String? { values[name]?.last.map(ForecastParameters.trimmed) }

        func integer(_ name: String, _ range: ClosedRange<Int>) throws(APIError) -> Int? {
            guard let text = single(name) else { return nil }
            guard let number = Int(text), range.contains(number) else {
                throw APIError("Parameter '\(name)' must be an integer in \(range.lowerBound)...\(range.upperBound). Given: \(APIError.echo(text))")
            }
            return number
        }
    }

    /// latitude, longitude and elevation; or a bounding box.
    private mutating func parsePlaces(_ values: QueryValues) throws(APIError) {
        if let box = try values.list("bounding_box", atMost: 4, { _ in "Parameter bounding_box must have 4 values" }), !box.isEmpty {
            // Every grid cell in the box is a location (the coordinates are then not read, as
            // Open-Meteo's `prepareCoordinates` reads the box first).
            boundingBox = try Self.boundingBox(box)
            return
        }
        // Each list's length is checked before its entries are parsed.
        let tooManyPlaces = { (count: Int) in "At most \(Self.maxPlaces) locations a request; given \(count)" }
        latitudes = try Self.coordinates(values.list("latitude", atMost: Self.maxPlaces, tooManyPlaces), name: "latitude", limit: 90)
        longitudes = try Self.coordinates(values.list("longitude", atMost: Self.maxPlaces, tooManyPlaces), name: "longitude", limit: 180)
        guard !latitudes.isEmpty else { throw APIError("Parameter 'latitude' and 'longitude' are required") }
        guard latitudes.count == longitudes.count else {
            throw APIError("Parameter 'latitude' and 'longitude' must have the same number of elements")
        }
        guard latitudes.count <= Self.maxPlaces else {
            throw APIError("At most \(Self.maxPlaces) locations a request; given \(latitudes.count)")
        }

        let places = latitudes.count
        if let texts = try values.list("elevation", atMost: places, { _ in "Parameter 'elevation' must have the same number of elements as coordinates" }) {
            guard texts.count == latitudes.count else {
                throw APIError("Parameter 'elevation' must have the same number of elements as coordinates")
            }
            elevations = try Self.elevations(texts)
        }
        if let texts = try values.list("location_id", atMost: places, { _ in "Parameter 'location_id' and coordinates must have the same number of elements" }) {
            let numbers = texts.compactMap { Int($0) }
            guard numbers.count == texts.count else {
                throw APIError("Parameter 'location_id' must be whole numbers. Given: \(APIError.echo(texts.joined(separator: ",")))")
            }
            guard numbers.count == latitudes.count else {
                throw APIError("Parameter 'location_id' and coordinates must have the same number of elements")
            }
            locationIDs = numbers
        }
    }

    /// `bounding_box=lat1,lon1,lat2,lon2` with Open-Meteo's checks and messages
    /// (ForecastapiQuery.swift, `getBoundingBox`): south < north and west < east.
    private static func boundingBox(_ texts: [String]) throws(APIError) -> BoundingBox {
        let numbers = texts.compactMap { Double($0) }.filter(\.isFinite)
        guard numbers.count == texts.count else { throw APIError("Parameter 'bounding_box' must be numbers. Given: \(APIError.echo(texts.joined(separator: ",")))") }
        guard numbers.count == 4 else { throw APIError("Parameter bounding_box must have 4 values") }
        let (lat1, lon1, lat2, lon2) = (numbers[0], numbers[1], numbers[2], numbers[3])
        guard lat1 < lat2 else { throw APIError("The first latitude must be smaller than the second latitude") }
        guard (-90...90).contains(lat1), (-90...90).contains(lat2) else { throw APIError("Latitudes must be between -90 and 90") }
        guard lon1 < lon2 else { throw APIError("The first longitude must be smaller than the second longitude") }
        guard (-180...180).contains(lon1), (-180...180).contains(lon2) else { throw APIError("Longitudes must be between -180 and 180") }
        return BoundingBox(south: lat1, west: lon1, north: lat2, east: lon2)
    }

    private static func elevations(_ texts: [String]) throws(APIError) -> [Double?] {
        try texts.map { text throws(APIError) -> Double? in
            switch QueryPoint.parseElevation(text) {
            case .success(let value): return value
            case .failure:
                let range = Downscaling.validElevations
                throw APIError("Parameter 'elevation' must be a number of metres in \(Int(range.lowerBound))...\(Int(range.upperBound)), or nan for the model terrain. Given: \(APIError.echo(text))")
            }
        }
    }

    /// hourly, current, daily and current_weather.
    private mutating func parseVariables(_ values: QueryValues) throws(APIError) {
        func names(_ key: String) throws(APIError) -> [String] {
            try values.list(key, atMost: Self.maxVariableNames) { count in
                "Parameter '\(key)': at most \(Self.maxVariableNames) variables a request. Given: \(count)"
            } ?? []
        }
        hourlyColumns = try Self.hourlyColumns(names("hourly"), key: "hourly")
        currentColumns = try Self.hourlyColumns(names("current"), key: "current")
        minutely15Columns = try Self.hourlyColumns(names("minutely_15"), key: "minutely_15")
        minutely15 = Self.served(minutely15Columns)
        dailyColumns = try Self.dailyColumns(names("daily"))
        hourly = Self.served(hourlyColumns)
        current = Self.served(currentColumns)
        daily = Self.served(dailyColumns)
        if let flag = values.single("current_weather") { currentWeather = try Self.boolean(flag, name: "current_weather") }

    }

    private mutating func parseTimeZone(_ values: QueryValues) throws(APIError) {
        // One zone for every place, or one per place (Open-Meteo's ForecastapiQuery.swift,
        // `getCoordinatesWithTimezone`).
        // One zone a place at most, counted before any name is looked up.
        let isBox = boundingBox != nil
        guard let zones = try values.list("timezone", atMost: isBox ? 1 : max(1, latitudes.count), { _ in
            isBox ? "Only one timezone may be specified with bounding box queries" : "Parameter 'timezone' and coordinates must have the same number of elements"
        }), !zones.isEmpty else { return }
        let parsed = try zones.map { name throws(APIError) -> (zone: TimeZone, name: String)? in
            if name.lowercased() == "auto" { return nil }
            guard let known = TimeZone(identifier: name) else {
                throw APIError("Invalid timezone '\(APIError.echo(name))': expected an IANA name such as Europe/Lisbon, GMT or auto")
            }
            return (known, name)
        }
        if boundingBox != nil {
            // Open-Meteo's messages for a box (`prepareCoordinates`).
            guard parsed.count == 1 else { throw APIError("Only one timezone may be specified with bounding box queries") }
            guard parsed[0] != nil else { throw APIError("Timezone 'auto' not supported with bounding box queries") }
        }
        if parsed.count == 1 {
            if let fixed = parsed[0] { (timeZone, timeZoneName) = fixed } else { timeZoneAuto = true }
            return
        }
        guard parsed.count == latitudes.count else {
            throw APIError("Parameter 'timezone' and coordinates must have the same number of elements")
        }
        placeZones = parsed

    }

    /// Units, time format, output format, cell selection and model.
    private mutating func parseUnitsAndFormat(_ values: QueryValues) throws(APIError) {
        if let text = values.single("temperature_unit") {
            guard let unit = TemperatureUnit(rawValue: text) else { throw APIError("Parameter 'temperature_unit' must be celsius or fahrenheit. Given: \(APIError.echo(text))") }
            units.temperature = unit
        }
        if let text = values.single("wind_speed_unit") ?? values.single("windspeed_unit") {
            guard let unit = WindSpeedUnit(rawValue: text) else { throw APIError("Parameter 'wind_speed_unit' must be kmh, ms, mph or kn. Given: \(APIError.echo(text))") }
            units.windSpeed = unit
        }
        if let text = values.single("precipitation_unit") {
            guard let unit = PrecipitationUnit(rawValue: text) else { throw APIError("Parameter 'precipitation_unit' must be mm or inch. Given: \(APIError.echo(text))") }
            units.precipitation = unit
        } else if try Self.isImperial(values) {
            units.precipitation = .inch
        }
        if let text = values.single("timeformat") {
            guard let value = TimeFormat(rawValue: text) else { throw APIError("Parameter 'timeformat' must be iso8601 or unixtime. Given: \(APIError.echo(text))") }
            timeFormat = value
        }
        if let text = values.single("format") {
            guard let value = Format(rawValue: text) else { throw APIError("Parameter 'format' must be json, csv or flatbuffers. Given: \(APIError.echo(text))") }
            format = value
        }
        if let text = values.single("location_information") {
            guard text == "section" || text == "omit" else {
                throw APIError("Parameter 'location_information' must be section or omit. Given: \(APIError.echo(text))")
            }
            csvLocationSection = text == "section"
        }
        if let text = values.single("cell_selection") {
            guard let value = CellSelection(rawValue: text) else {
                throw APIError("Parameter 'cell_selection' must be land, sea or nearest. Given: \(APIError.echo(text))")
            }
            cellSelection = value
        }
        // Open-Meteo's ranges and messages (GenericReaderOptions): checked whether or not a
        // tilted irradiance is asked for, as Open-Meteo checks them.
        for (name, isTilt) in [("tilt", true), ("azimuth", false)] {
            guard let text = values.single(name) else { continue }
            switch PanelOrientation.parse(text, tilt: isTilt) {
            case .success(let degrees): if isTilt { panel.tilt = degrees } else { panel.azimuth = degrees }
            case .failure(let error):
                // The message ends with the text given: quoted back at most `APIError.maxEchoBytes`.
                throw APIError(error.message.hasSuffix(text) ? String(error.message.dropLast(text.count)) + APIError.echo(text) : error.message)
            }
        }
        // The list's length is checked first: de-duplicating 120,000 names took 14.6 s of CPU.
        if let names = try values.list("models", atMost: Self.maxModels, { count in
            "Parameter 'models': at most \(Self.maxModels) models a request. Given: \(count)"
        }), !names.isEmpty {
            // Several models: each answers every place, its columns suffixed with its name
            // (Open-Meteo's ForecastApiResult.swift). A name given twice is one model.
            var unique: [String] = []
            for name in names where !unique.contains(name) { unique.append(name) }
            models = unique
            model = unique.count == 1 && unique[0] != Self.bestMatch ? unique[0] : nil
        }

    }

    /// Whether `length_unit` asks for imperial lengths. Open-Meteo reads it only as the default
    /// of `precipitation_unit` (Sources/App/Helper/SiUnit.swift, `convertAndRound`): inches for
    /// precipitation and snowfall, and feet for what is in metres (snow depth, visibility).
    private static func isImperial(_ values: QueryValues) throws(APIError) -> Bool {
        guard let text = values.single("length_unit") else { return false }
        switch text {
        case "imperial": return true
        case "metric": return false
        default: throw APIError("Parameter 'length_unit' must be metric or imperial. Given: \(APIError.echo(text))")
        }
    }

    /// forecast_days, past_days, forecast_hours, past_hours, start/end dates and hours.
    private mutating func parseTimeRange(_ values: QueryValues) throws(APIError) {
        // Each limited on its own, as Open-Meteo limits them (Sources/App/Helper/ForecastapiQuery.swift,
        // `forecastTimeRange2`: past steps against pastStepsMax, forecast steps against forecastStepsMax).
        let forecastDays = try values.integer("forecast_days", 0...Self.maxDays)
        times.forecastDays = forecastDays ?? 7
        times.forecastDaysGiven = forecastDays != nil
        times.forecastMinutely15 = try values.integer("forecast_minutely_15", 0...(Self.maxDays * 96))
        times.pastMinutely15 = try values.integer("past_minutely_15", 0...(Self.maxPastDays * 96))
        times.pastDays = try values.integer("past_days", 0...Self.maxPastDays) ?? 0
        times.forecastHours = try values.integer("forecast_hours", 0...(Self.maxDays * 24))
        times.pastHours = try values.integer("past_hours", 0...(Self.maxPastDays * 24))
        // Open-Meteo takes any integer; bounded here to the hours a range can reach.
        times.initialHours = try values.integer("initial_hours", -(Self.maxPastDays * 24)...(Self.maxDays * 24))
        times.initialMinutely15 = try values.integer("initial_minutely_15", -(Self.maxPastDays * 96)...(Self.maxDays * 96))
        if let text = values.single("temporal_resolution") {
            guard let resolution = TemporalResolution(rawValue: text) else {
                throw APIError("Cannot initialize ApiTemporalResolution from invalid String value \(APIError.echo(text)) for key temporal_resolution (\(TemporalResolution.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            times.temporalResolution = resolution
        }
        // Each range parameter may be a list (Open-Meteo's ForecastapiQuery.swift,
        // `getStartEndDates`): the n-th ranges of the three pairs make the n-th time selection.
        // At most one range a place (a single place or a box: at most as many as places a
        // request), counted before any date is parsed (43,000 ranges cost 1.25 s parsed first).
        let rangeLimit = boundingBox == nil && latitudes.count > 1 ? latitudes.count : Self.maxPlaces
        let tooManyRanges = { (count: Int) in
            rangeLimit == Self.maxPlaces ? "At most \(Self.maxPlaces) time ranges a request; given \(count)"
                : "Parameter 'start_date' and 'end_date' must have the same number of elements as coordinates"
        }
        let dates = try Self.spans(values, "start_date", "end_date", parse: Self.date, limit: Self.maxDays * 24 - 24, atMost: rangeLimit, tooManyRanges)
        let hours = try Self.spans(values, "start_hour", "end_hour", parse: Self.hour, limit: Self.maxDays * 24, atMost: rangeLimit, tooManyRanges)
        let quarters = try Self.spans(values, "start_minutely_15", "end_minutely_15", parse: Self.hour, limit: Self.maxDays * 24,
                                      atMost: rangeLimit, tooManyRanges)
        times.dates = dates.first
        times.hours = hours.first
        times.minutely15 = quarters.first
        let count = max(dates.count, hours.count, quarters.count)
        if count > 1 {
            ranges = (0..<count).map { k in
                var selection = times
                selection.dates = k < dates.count ? dates[k] : nil
                selection.hours = k < hours.count ? hours[k] : nil
                selection.minutely15 = k < quarters.count ? quarters[k] : nil
                return selection
            }
            // One place and several ranges: the place once per range; otherwise one range per place.
            guard boundingBox != nil || latitudes.count == 1 || count == latitudes.count else {
                throw APIError("Parameter 'start_date' and 'end_date' must have the same number of elements as coordinates")
            }
        }
        if times.dates != nil || times.hours != nil || times.minutely15 != nil {
            // Open-Meteo refuses any step count other than 0 beside any range, in this order
            // (ForecastapiQuery.swift, getStartEndDates).
            let counts: [(String, Int?)] = [("past_days", times.pastDays), ("forecast_days", forecastDays), ("past_hours", times.pastHours),
                          ("forecast_hours", times.forecastHours), ("past_minutely_15", times.pastMinutely15),
                          ("forecast_minutely_15", times.forecastMinutely15)]
            for (name, steps) in counts where (steps ?? 0) != 0 {
                throw APIError("Parameter '\(name)' is mutually exclusive with 'start_date' and 'end_date'")
            }
        }
    }

    private static func coordinates(_ texts: [String]?, name: String, limit: Double) throws(APIError) -> [Double] {
        guard let texts else { return [] }
        var result: [Double] = []
        result.reserveCapacity(texts.count)
        for text in texts {
            guard let value = Double(text), value.isFinite else {
                throw APIError("Parameter '\(name)' must be a number. Given: \(APIError.echo(text))")
            }
            // Longitudes 180..360 are accepted as the command line accepts them.
            let range = name == "longitude" ? -180.0...360.0 : -limit...limit
            guard range.contains(value) else {
                throw APIError("\(name.prefix(1).uppercased() + name.dropFirst()) must be in range of \(Int(range.lowerBound)) to \(Int(range.upperBound))°. Given: \(APIError.echo(text)).")
            }
            result.append(value)
        }
        return result
    }

    /// The text without leading or trailing spaces and tabs (the standard library's string
    /// operations: Foundation's trimming bridges through NSString, a visible cost per request).
    static func trimmed<S: StringProtocol>(_ text: S) -> String {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = text.firstIndex(where: { !blank($0) }), let last = text.lastIndex(where: { !blank($0) }) else { return "" }
        return String(text[first...last])
    }

    /// Open-Meteo's booleans as its framework reads them: 1, true, on / 0, false in any case
    /// (Vapor's Sources/Vapor/URLEncodedForm/URLQueryFragmentConvertible.swift, `Bool`), and a
    /// bare `name` without a value as true (URLEncodedFormDecoder.swift, `boolFlags`). An empty
    /// value reads as the bare flag: the query parser gives both as "".
    static func boolean(_ text: String, name: String) throws(APIError) -> Bool {
        switch text.lowercased() {
        case "", "1", "true", "on": return true
        case "0", "false": return false
        default: throw APIError("Parameter '\(name)' must be true or false (or 1, 0). Given: \(APIError.echo(text))")
        }
    }

    /// Hourly or current names: TileCast's own, Open-Meteo's older spellings
    /// (`OpenMeteoNames.hourlyAliases`), and names Open-Meteo knows that are never served here
    /// (a null column); anything else is refused as Open-Meteo refuses it. A name given twice
    /// is one column.
    private static func hourlyColumns(_ names: [String], key: String) throws(APIError) -> [RequestedColumn<ForecastVariable>] {
        var columns: [RequestedColumn<ForecastVariable>] = []
        var seen: Set<String> = []
        for name in names where seen.insert(name).inserted {
            if let variable = ForecastVariable.output(named: name) ?? ForecastVariable.openMeteoAlias(name) {
                columns.append(RequestedColumn(name: name, variable: variable, unserved: nil))
            } else if let reason = OpenMeteoNames.unservedReason(hourly: name) {
                columns.append(RequestedColumn(name: name, variable: nil, unserved: reason))
            } else {
                throw APIError("Cannot initialize ForecastVariable from invalid String value \(APIError.echo(name)) for key \(key)")
            }
        }
        return columns
    }

    /// Daily names as the library parses them (wind_direction_10m_dominant included: one
    /// vector-mean path for the command line and the API), after Open-Meteo's old spellings.
    private static func dailyColumns(_ names: [String]) throws(APIError) -> [RequestedColumn<DailyVariable>] {
        var columns: [RequestedColumn<DailyVariable>] = []
        var seen: Set<String> = []
        for name in names where seen.insert(name).inserted {
            if let daily = DailyVariable.parse(name) ?? OpenMeteoNames.dailyAliases[name].flatMap(DailyVariable.parse) {
                columns.append(RequestedColumn(name: name, variable: daily, unserved: nil))
            } else if let reason = OpenMeteoNames.unservedReason(daily: name) {
                columns.append(RequestedColumn(name: name, variable: nil, unserved: reason))
            } else {
                throw APIError("Cannot initialize ForecastVariableDaily from invalid String value \(APIError.echo(name)) for key daily")
            }
        }
        return columns
    }

    /// The columns' served variables, each once, in order.
    private static func served<Variable: Hashable & Sendable>(_ columns: [RequestedColumn<Variable>]) -> [Variable] {
        var variables: [Variable] = []
        for column in columns { if let variable = column.variable, !variables.contains(variable) { variables.append(variable) } }
        return variables
    }

    /// The digits of `yyyy-MM-dd` (and `THH:mm` when `withTime`) read from the bytes, nil when
    /// the text is not exactly that shape: the general parsers below then decide (and word
    /// any refusal), so both paths accept and refuse the same texts.
    private static func canonical(_ text: String, withTime: Bool) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int)? {
        var text = text
        return text.withUTF8 { bytes -> (year: Int, month: Int, day: Int, hour: Int, minute: Int)? in
            guard bytes.count == (withTime ? 16 : 10) else { return nil }
            func number(_ range: Range<Int>) -> Int? {
                var value = 0
                for k in range {
                    let digit = Int(bytes[k]) - 48
                    guard (0...9).contains(digit) else { return nil }
                    value = value * 10 + digit
                }
                return value
            }
            guard bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
                  let year = number(0..<4), let month = number(5..<7), let day = number(8..<10) else { return nil }
            guard withTime else { return (year, month, day, 0, 0) }
            guard bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"), let hour = number(11..<13), let minute = number(14..<16)
            else { return nil }
            return (year, month, day, hour, minute)
        }
    }

    /// A canonical text's components when every field is in range and the day exists (the
    /// general parsers' checks); nil sends the text to them.
    private static func canonicalComponents(_ text: String, withTime: Bool) -> DateComponents? {
        guard let c = canonical(text, withTime: withTime), (1...12).contains(c.month), (1...31).contains(c.day),
              (1900...2200).contains(c.year), (0...23).contains(c.hour), (0...59).contains(c.minute),
              ModelTime.seconds(year: c.year, month: c.month, day: c.day) != nil else { return nil }
        return DateComponents(year: c.year, month: c.month, day: c.day, hour: c.hour, minute: c.minute)
    }

    private static func date(_ text: String, _ name: String) throws(APIError) -> DateComponents {
        if let components = canonicalComponents(text, withTime: false) { return components }
        let parts = text.split(separator: "-").map { Int($0) }
        guard parts.count == 3, let y = parts[0], let m = parts[1], let d = parts[2], text.count == 10,
              (1...12).contains(m), (1...31).contains(d), (1900...2200).contains(y) else {
            throw APIError("Parameter '\(name)' must be a date as yyyy-MM-dd. Given: \(APIError.echo(text))")
        }
        // A day the month does not have is refused, not rolled over into the next month (the
        // calendar would answer 2026-11-31 as December 1st).
        guard ModelTime.seconds(year: y, month: m, day: d) != nil else {
            throw APIError("Parameter '\(name)' is not a day of the calendar: \(APIError.echo(text)) (that month has fewer days)")
        }
        return DateComponents(year: y, month: m, day: d, hour: 0, minute: 0)
    }

    private static func hour(_ text: String, _ name: String) throws(APIError) -> DateComponents {
        if let components = canonicalComponents(text, withTime: true) { return components }
        let pieces = text.split(separator: "T", maxSplits: 1)
        guard pieces.count == 2 else { throw APIError("Parameter '\(name)' must be a time as yyyy-MM-ddTHH:mm. Given: \(APIError.echo(text))") }
        var components = try date(String(pieces[0]), name)
        let clock = pieces[1].split(separator: ":").map { Int($0) }
        guard clock.count == 2, let h = clock[0], let m = clock[1], (0...23).contains(h), (0...59).contains(m) else {
            throw APIError("Parameter '\(name)' must be a time as yyyy-MM-ddTHH:mm. Given: \(APIError.echo(text))")
        }
        components.hour = h
        components.minute = m
        return components
    }

    /// Pairs of local dates or times (start_date/end_date, start_hour/end_hour,
    /// start_minutely_15/end_minutely_15): both or neither, as many starts as ends, each pair
    /// at most `limit` hours apart.
    private static func spans(_ values: QueryValues, _ startName: String, _ endName: String,
                              parse: (String, String) throws(APIError) -> DateComponents,
                              limit: Int, atMost count: Int, _ refusal: (Int) -> String) throws(APIError) -> [(start: DateComponents, end: DateComponents)] {
        let starts = try values.list(startName, atMost: count, refusal) ?? [], ends = try values.list(endName, atMost: count, refusal) ?? []
        if starts.isEmpty && ends.isEmpty { return [] }
        guard !starts.isEmpty, !ends.isEmpty else { throw APIError("Parameter '\(startName)' and '\(endName)' must both be set") }
        guard starts.count == ends.count else {
            throw APIError("Parameter '\(startName)' and '\(endName)' must have the same number of elements")
        }
        var spans: [(start: DateComponents, end: DateComponents)] = []
        for (start, end) in zip(starts, ends) {
            let first = try parse(start, startName), last = try parse(end, endName)
            try checkSpan(first, last, limit: limit, what: "\(startName) and \(endName)")
            spans.append((first, last))
        }
        return spans
    }

    /// Refuses a range that ends before it starts or spans more than `limit` hours.
    private static func checkSpan(_ first: DateComponents, _ last: DateComponents, limit: Int, what: String) throws(APIError) {
        // Calendar arithmetic without a Calendar (one per request was a visible cost, S1).
        func seconds(_ c: DateComponents) -> Int64? {
            guard let year = c.year, let month = c.month, let day = c.day else { return nil }
            return ModelTime.seconds(year: year, month: month, day: day, hour: c.hour ?? 0, minute: c.minute ?? 0)
        }
        guard let a = seconds(first), let b = seconds(last) else { throw APIError("Parameter \(what): invalid date") }
        let hours = Double(b - a) / 3600
        guard hours >= 0 else { throw APIError("Parameter \(what): the end is before the start") }
        guard hours <= Double(limit) else { throw APIError("At most \(maxDays) days a request: \(what) span \(Int(hours / 24) + 1) days") }
    }
}
