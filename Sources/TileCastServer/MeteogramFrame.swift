import Catalog
import Foundation
import Meteorology
import PointQuery

/// One meteogram's geometry and series: where each hour, row and value goes. Each drawing
/// function returns its SVG elements, each with its `<title>`.
struct MeteogramFrame {
    static let hourWidth = 16.0
    static let left = 56.0, right = 60.0
    static let dayRow = 14.0, symbolTop = 20.0, symbolSize = 28.0
    static let cloudTop = 52.0, cloudHeight = 10.0
    static let plotTop = 84.0, plotBottom = 240.0
    static let arrowRow = 258.0, windTop = 272.0, windBottom = 308.0
    static let hourRow = 324.0, zoneRow = 340.0, legendRow = 362.0, height = 376.0

    let place: PlaceForecast
    let units: OutputUnits
    let now: Int64
    let times: [Int64]
    /// Each hour's local time as seconds (UTC seconds plus the zone's offset then).
    let local: [Int64]
    let temperature, dewPoint, precipitation, snowfall, windSpeed, windDirection, cloudCover, weatherCode, isDay: [Float]
    let temperatureScale, precipitationScale, windScale: MeteogramScale

    init(place: PlaceForecast, units: OutputUnits, now: Int64) {
        self.place = place
        self.units = units
        self.now = now
        times = place.times.hourly
        let zone = place.times.zone
        local = times.map { $0 + Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval($0)))) }
        func series(_ variable: ForecastVariable) -> [Float] {
            let values = place.hourly.values[variable] ?? []
            return values.count == place.times.hourly.count ? values : Array(repeating: .nan, count: place.times.hourly.count)
        }
        (temperature, dewPoint, precipitation, snowfall) = (series(.temperature2m), series(.dewPoint2m), series(.precipitation), series(.snowfall))
        (windSpeed, windDirection, cloudCover) = (series(.windSpeed10m), series(.windDirection10m), series(.cloudCover))
        (weatherCode, isDay) = (series(.weatherCode), series(.isDay))
        let temperatureSpan = units.temperature == .fahrenheit ? 10.0 : 5.0
        temperatureScale = MeteogramScale(values: temperature + dewPoint, top: Self.plotTop + 6, bottom: Self.plotBottom,
                                          minimumSpan: temperatureSpan, fromZero: false)
        precipitationScale = MeteogramScale(values: precipitation, top: Self.plotTop + 6, bottom: Self.plotBottom,
                                            minimumSpan: units.precipitation == .inch ? 0.1 : 2, fromZero: true)
        windScale = MeteogramScale(values: windSpeed, top: Self.windTop, bottom: Self.windBottom, minimumSpan: 10, fromZero: true)
    }

    var width: Double { Self.left + Self.hourWidth * Double(times.count) + Self.right }
    var plotRight: Double { Self.left + Self.hourWidth * Double(times.count) }

    /// The x of an instant: the first hour one hour-width in, so that the bar of the hour that
    /// ends at it (precipitation is the amount of the hour before) stays inside the plot.
    func x(_ time: Int64) -> Double {
        Self.left + Self.hourWidth * (1 + Double(time - (times.first ?? time)) / 3600)
    }

    func unit(_ variable: ForecastVariable) -> String { units.symbol(variable) }

    /// "14:00" local.
    func clock(_ k: Int) -> String { String(RequestTimes.label(local[k], offset: 0).suffix(5)) }

    /// "Sun 22 Nov" for a local time in seconds.
    static func day(_ localSeconds: Int64) -> String {
        let days = Int((localSeconds >= 0 ? localSeconds : localSeconds - 86_399) / 86_400)
        let weekday = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"][((days % 7) + 7) % 7]
        let iso = RequestTimes.label(localSeconds, offset: 0)
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let month = Int(iso.dropFirst(5).prefix(2)) ?? 1
        let dayOfMonth = Int(iso.dropFirst(8).prefix(2)) ?? 1
        return "\(weekday) \(dayOfMonth) \(months[max(0, min(11, month - 1))])"
    }

    func localHour(_ k: Int) -> Int { Int(((local[k] % 86_400) + 86_400) % 86_400 / 3600) }

    /// The hours that get a symbol and a wind arrow: every third local hour (00, 03, ...).
    var everyThirdHour: [Int] { times.indices.filter { localHour($0) % 3 == 0 } }

    func header() -> String {
        let f = Meteogram.f
        let zone = place.times.zoneName
        let first = times.isEmpty ? "" : " from \(Self.day(local[0])) \(clock(0))"
        let title = "Meteogram for \(Self.coordinate(place.forecast.latitude, "N", "S")), \(Self.coordinate(place.forecast.longitude, "E", "W")): "
            + "\(times.count) hours\(first), local time (\(zone))"
        var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"meteogram\" width=\"\(Int(width))\" height=\"\(Int(Self.height))\" "
        out += "viewBox=\"0 0 \(Int(width)) \(Int(Self.height))\" role=\"img\" aria-labelledby=\"mg-title mg-desc\" "
        out += "font-family=\"sans-serif\" font-size=\"11\" fill=\"#222\">"
        out += "<title id=\"mg-title\">\(Meteogram.escape(title))</title>"
        out += "<desc id=\"mg-desc\">\(Meteogram.escape(summary()))</desc>"
        out += "<rect width=\"\(f(width))\" height=\"\(f(Self.height))\" fill=\"#fff\"/>"
        return out
    }

    static func coordinate(_ value: Double, _ positive: String, _ negative: String) -> String {
        "\(String(format: "%.2f", abs(value)))° \(value < 0 ? negative : positive)"
    }

    /// The description: each series' range in words, where the numbers came from, what is missing.
    func summary() -> String {
        func range(_ values: [Float], _ name: String, _ variable: ForecastVariable, _ decimals: Int) -> String? {
            let finite = values.filter(\.isFinite)
            guard let low = finite.min(), let high = finite.max() else { return nil }
            return "\(name) \(Meteogram.reading(low, decimals, "")) to \(Meteogram.reading(high, decimals, unit(variable)))"
        }
        var parts: [String] = []
        parts += [range(temperature, "temperature", .temperature2m, 1), range(dewPoint, "dew point", .dewPoint2m, 1)].compactMap { $0 }
        let wet = precipitation.filter { $0.isFinite && $0 > 0 }
        if precipitation.contains(where: \.isFinite) {
            parts.append("precipitation \(Meteogram.reading(wet.reduce(0, +), 1, unit(.precipitation))) in total, in \(wet.count) hours")
        }
        let snowy = snowfall.filter { $0.isFinite && $0 > 0 }
        if !snowy.isEmpty { parts.append("snowfall \(Meteogram.reading(snowy.reduce(0, +), 1, unit(.snowfall))) in total") }
        parts += [range(windSpeed, "wind", .windSpeed10m, 0), range(cloudCover, "cloud cover", .cloudCover, 0)].compactMap { $0 }
        let covered = temperature.filter(\.isFinite).count
        let p = place.forecast.provenance
        let joined = parts.joined(separator: "; ")
        var text = parts.isEmpty ? "No values: the run does not cover these hours." : joined.prefix(1).uppercased() + joined.dropFirst() + "."
        text += " \(covered) of \(times.count) hours covered by \(p.model.uppercased()) \(p.domain) (\(JSONText.short(p.gridSpacingKilometres)) km), run of \(ModelTime.parseUser(p.cycle).map(CycleStatus.spoken) ?? p.cycle)."
        return text
    }
}
