import ArgumentParser
import Catalog
import Foundation
import Meteorology
import PointQuery

/// `tilecast query`'s options and their checks, shared by `tilecast` and `tilecast-remote`
/// (which answers a remote store), so both parse, refuse and explain alike.
package struct QueryOptions: ParsableArguments {
    /// The command's name, summary and `--help` text; each executable's query command uses it.
    package static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Point forecasts from the store, by latitude and longitude.",
        discussion: """
        Picks the finest domain whose interior holds the place (the edge cells of a nest inside a coarser domain are left out; an outermost domain answers to its edge, and up to 0.01 cell beyond it, as coordinates typed to 4 decimals land), interpolates bilinearly in grid space and linearly in time, and says where the answer came from (model, cycle, domain, grid spacing, grid position).

        Without --model, each place is answered by the best match: the finest domain of any model in the store that holds the place and every requested time; the answer names the model. --model pins one. With several models and no --variables, the defaults every model stores are answered.

        Times are UTC unless they carry an offset (+HH:MM), to the minute. Without --time or --start: 24 hours from the current hour when the run covers it, otherwise from the run's first time. Precipitation and snowfall are amounts over the hour ending at each time. Without --variables: every variable the cycle stores; asking for one it does not store is an error listing what it holds.

        Daily summaries (--daily) use local days of --timezone (UTC by default): NAME_max, NAME_min, NAME_mean, NAME_sum for any variable, and weather_code (the day's most severe code). Each day is summarised over every hour of it the run holds, not only the hours asked for; a sum or mean is null when the run lacks one of them, a max, min or weather_code when it lacks the day's last hour (Open-Meteo's rule). With --format csv they follow the hourly rows as a second table, after a blank line.

        Exit codes: 0 success, 1 the answer could not be written (standard output full or closed), 2 bad usage, 4 place or time outside the store, 5 store missing or damaged.

        Examples:
          tilecast query --store /tmp/s --lat 38.7223 --lon -9.1393 --format table
          tilecast query --store /tmp/s --lat 38.7223 --lon -9.1393 --start 2026-11-22T06Z --hours 12 \\
              --variables temperature_2m,precipitation --daily temperature_2m_max,precipitation_sum \\
              --timezone Europe/Lisbon --temperature-unit fahrenheit
          tilecast query --store /tmp/s --points places.csv --format csv
          tilecast query --store /tmp/s --points - --cycle 2026-11-22T00:00Z < places.csv
          tilecast query --store https://example.org/store --model wrf --lat 38.72 --lon -9.14
          tilecast query --store s3://bucket/store --model wrf --lat 38.72 --lon -9.14

        A remote store (s3://BUCKET/PREFIX, or http(s):// for a store folder behind a web server) is read with ranged requests by tilecast-remote, installed beside tilecast; --model is then required. S3 credentials and region come from the AWS environment variables or shared files.
        """
    )

    package init() {}

    @Option(help: "The store folder, or a remote store: s3://BUCKET/PREFIX, https://HOST/PATH.")
    package var store: String

    // `.unconditional` so that negative numbers ("--lon -9.1393") are taken as values.
    @Option(parsing: .unconditional, help: "Latitude, degrees north (-90..90).")
    package var lat: Double?

    @Option(parsing: .unconditional, help: "Longitude, degrees east (-180..180 or 0..360).")
    package var lon: Double?

    @Option(help: "A CSV of places (UTF-8; - for standard input): a header with lat,lon and optionally time, name and elevation.")
    package var points: String?

    // `.unconditional` so that "--elevation -20" is taken as a value.
    @Option(parsing: .unconditional, help: "Elevation of the place, metres (-500..9000; nan: the model terrain): temperatures and surface pressure are moved to it from the model terrain by the standard lapse rate (docs/VARIABLES.md).")
    package var elevation: String?

    @Option(help: "One time (ISO 8601, e.g. 2026-11-22T06:00Z).")
    package var time: String?

    @Option(help: "First time of an hourly series (ISO 8601).")
    package var start: String?

    // `.unconditional` so that "--hours -1" reaches validate() and its message.
    @Option(parsing: .unconditional, help: "Number of hourly times, 1..960 (default 24; 1 with a per-row time in --points).")
    package var hours: Int?

    @Option(parsing: .unconditional, help: "Minutes between the series' times: 60 (default), 30 or 15. Below 60, what a run's 15-minute stream (WRF auxhist) holds is read from it; other variables are interpolated in time; precipitation is the amount over each interval.")
    package var every: Int = 60

    @Option(help: "Variables, comma-separated (default: all). Raw WRF names (T2, U10, ...) are accepted.")
    package var variables: String?

    @Option(help: "Daily summaries, comma-separated: e.g. temperature_2m_max,precipitation_sum,weather_code.")
    package var daily: String?

    @Option(help: "IANA time zone for local times and daily summaries, e.g. Europe/Lisbon.")
    package var timezone: String?

    @Option(help: "Temperature unit.")
    package var temperatureUnit: TemperatureUnit = .celsius

    @Option(help: "Wind speed unit.")
    package var windSpeedUnit: WindSpeedUnit = .kmh

    @Option(help: "Precipitation unit (snowfall: cm, or inch with inch).")
    package var precipitationUnit: PrecipitationUnit = .mm

    @Option(help: "Which grid values answer a place: land or sea (default land; both interpolate bilinearly between the four cells around it, the store keeps no land-sea mask), or nearest (the nearest grid cell's values, and that cell's coordinates and terrain height reported).")
    package var cellSelection: CellSelection = .land

    // `.unconditional` so that "--azimuth -90" is taken as a value.
    @Option(parsing: .unconditional, help: "Tilt of the plane global_tilted_irradiance is computed for, degrees from the horizontal: 0 flat (default) to 90 vertical; nan follows the sun up and down (Open-Meteo's tilt).")
    package var tilt: String?

    @Option(parsing: .unconditional, help: "Direction the plane faces, degrees: 0 south (default), -90 east, 90 west, -180 or 180 north; nan follows the sun round (Open-Meteo's azimuth, not a compass bearing).")
    package var azimuth: String?

    @Option(help: "Output format.")
    package var format: ForecastRenderer.Format = .json

    @Option(parsing: .unconditional, help: "Cycles precipitation_probability is the mean of: the newest N kept cycles of the model covering each hour, from the one read (a lagged ensemble, 1..64; 1: that run's own neighbourhood chance). A remote store gives its one cycle.")
    package var members: Int = 4

    @Option(help: "Cycle to read, e.g. 2026-11-22T00Z (default: latest).", transform: parseCycleOption)
    package var cycle: CycleSelector = .latest

    @Option(help: "Model in the store (default: the best match, the finest domain of any model holding the place and times).")
    package var model: String?

    @Option(parsing: .unconditional, help: "Cells left out along the edges of a nest inside a coarser domain (WRF's relaxation zone), 0 or more.")
    package var nestMargin: Double = 5

    @Option(help: "S3 endpoint of an s3:// store (default: AWS_ENDPOINT_URL, else AWS's own).")
    package var s3Endpoint: String?

    @Option(help: "S3 region of an s3:// store (default: AWS_REGION, the shared config, us-east-1).")
    package var s3Region: String?

    package func validate() throws {
        if !(1...64).contains(members) { throw ValidationError("--members \(members): expected 1 to 64 cycles") }
        if points == nil && (lat == nil || lon == nil) { throw ValidationError("give --lat and --lon, or --points FILE.csv") }
        if points != nil && (lat != nil || lon != nil) { throw ValidationError("give either --lat/--lon or --points, not both") }
        if time != nil && (start != nil || hours != nil) { throw ValidationError("--time asks for one time; do not combine it with --start or --hours") }
        if let hours, hours < 1 || hours > 24 * 40 { throw ValidationError("--hours \(hours): expected a number of hours, 1..960") }
        if ![15, 30, 60].contains(every) { throw ValidationError("--every \(every): expected 60, 30 or 15 minutes") }
        if let timezone, TimeZone(identifier: timezone) == nil { throw ValidationError("--timezone \(timezone): not an IANA time zone (e.g. Europe/Lisbon)") }
        for (option, text) in [("--time", time), ("--start", start)] {
            if let text, TimeParsing.parse(text) == nil { throw ValidationError("\(option) \(text): \(TimeParsing.problem(text))") }
        }
        if !(nestMargin.isFinite && nestMargin >= 0) { throw ValidationError("--nest-margin \(nestMargin): expected a number of cells, 0 or more") }
        if let lat, !QueryPoint.isValid(latitude: lat) { throw ValidationError("--lat \(lat): expected -90..90") }
        if let lon, !QueryPoint.isValid(longitude: lon) { throw ValidationError("--lon \(lon): expected -180..360") }
        if elevation != nil && points != nil { throw ValidationError("--elevation is for --lat/--lon; give a points file an elevation column instead") }
        _ = try parsedElevation()
        _ = try parsedPanel()
        _ = try parsedVariables()
        _ = try parsedDaily()
    }

    /// The requested elevation in metres; nil when not given or "nan" (the model terrain).
    package func parsedElevation() throws -> Double? {
        guard let elevation else { return nil }
        switch QueryPoint.parseElevation(elevation) {
        case .success(let value): return value
        case .failure(let error): throw ValidationError("--\(error.description)")
        }
    }

    /// The plane of global_tilted_irradiance (flat when neither option is given).
    package func parsedPanel() throws -> PanelOrientation {
        var panel = PanelOrientation.flat
        for (option, text, isTilt) in [("--tilt", tilt, true), ("--azimuth", azimuth, false)] {
            guard let text else { continue }
            switch PanelOrientation.parse(text, tilt: isTilt) {
            case .success(let degrees): if isTilt { panel.tilt = degrees } else { panel.azimuth = degrees }
            case .failure:
                let range = isTilt ? "0..90 degrees from the horizontal (0 flat, 90 vertical)"
                    : "-180..180 degrees, 0 south, -90 east, 90 west (not a compass bearing)"
                throw ValidationError("\(option) \(text): expected \(range), or nan to follow the sun")
            }
        }
        return panel
    }

    /// The variables asked for; nil when not given (the cycle's defaults).
    package func parsedVariables() throws -> [ForecastVariable]? {
        guard let variables else { return nil }
        var result: [ForecastVariable] = []
        for name in variables.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !name.isEmpty {
            if let refusal = ForecastVariable.refusal(name) { throw ValidationError("--variables: \(refusal)") }
            guard let parsed = ForecastVariable.parse(name) else {
                let known = ForecastVariable.outputs.map(\.rawValue)
                throw ValidationError("--variables: unknown variable \"\(name)\""
                                      + Suggestions.sentence(for: name, among: known, listedBy: "docs/VARIABLES.md (or `tilecast inspect STORE`)"))
            }
            for variable in parsed where !result.contains(variable) { result.append(variable) }
        }
        if result.isEmpty { throw ValidationError("--variables: no variable named; leave the option out for all the cycle holds") }
        return result
    }

    /// The daily summaries asked for; empty when none.
    package func parsedDaily() throws -> [DailyVariable] {
        guard let daily else { return [] }
        return try daily.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.map { name in
            if let refusal = ForecastVariable.refusal(name) { throw ValidationError("--daily: \(refusal)") }
            guard let parsed = DailyVariable.parse(name) else {
                throw ValidationError("--daily: unknown summary \"\(name)\"; use VARIABLE_max, _min, _mean, _sum, weather_code, precipitation_hours, daylight_duration, sunrise, sunset, moonrise, moonset, moon_phase or wind_direction_10m_dominant")
            }
            return parsed
        }
    }
}

// The query's unit and format options as enums ArgumentParser parses and lists in --help
// (an unknown value is exit 2 naming the option and the choices). The types live in
// PointQuery and Meteorology; only their command-line parsing is declared here (the units'
// `allValueStrings` are public: a public type's conformance to a public protocol).
//
// Each spells out `allValueStrings`: ArgumentParser's default for raw-value enums maps
// `allCases` through a generic key path, which the runtime instantiates by looking the types
// up by mangled name, scanning every protocol conformance in the binary, and it does so each
// time it builds the argument set (several times a parse): about 1 ms of `tilecast query`'s
// start-up, measured with perf. A closure does the same without the key path.
extension TemperatureUnit: ExpressibleByArgument {
    public static var allValueStrings: [String] { allCases.map { $0.rawValue } }
}
extension WindSpeedUnit: ExpressibleByArgument {
    public static var allValueStrings: [String] { allCases.map { $0.rawValue } }
}
extension CellSelection: ExpressibleByArgument {
    public static var allValueStrings: [String] { allCases.map { $0.rawValue } }
}
extension PrecipitationUnit: ExpressibleByArgument {
    public static var allValueStrings: [String] { allCases.map { $0.rawValue } }
}
extension ForecastRenderer.Format: ExpressibleByArgument {
    package static var allValueStrings: [String] { allCases.map { $0.rawValue } }
}

/// `--cycle`'s text as a cycle, where the command line parses it (query and publish alike).
package func parseCycleOption(_ text: String) throws -> CycleSelector {
    guard let selector = CycleSelector(parsing: text) else {
        throw ValidationError("expected latest or a UTC time such as 2026-11-22T00Z")
    }
    return selector
}
