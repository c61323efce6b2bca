import Catalog
import Foundation
import Meteorology
import PointQuery

/// `GET /v1/meteogram.svg`: several variables of one place in one picture, self-contained SVG
/// (no fonts, scripts or images: it must work offline behind a firewall) that a page can embed:
/// weather symbols every 3 local hours (from `weather_code` and `is_day`), a cloud-cover band,
/// temperature and dew point lines, precipitation bars per hour (rain and snow apart), wind
/// speed with arrows, day boundaries in local time and a "now" line. Every element carries a
/// `<title>` (its text alternative), the picture a title and a description. Hours the cycle does
/// not cover are shaded and named, never drawn as values.
enum Meteogram {
    /// What the picture is drawn from (the request's `hourly` is not used).
    static let variables: [ForecastVariable] = [.temperature2m, .dewPoint2m, .precipitation, .snowfall, .windSpeed10m,
                                              .windDirection10m, .cloudCover, .weatherCode, .isDay]

    /// Hours drawn when the request names no times.
    static let defaultHours = 48

    static func svg(place: PlaceForecast, units: OutputUnits, now: Int64) -> String {
        let frame = MeteogramFrame(place: place, units: units, now: now)
        var out = frame.header()
        out += MeteogramSymbols.definitions
        out += frame.dayBoundaries()
        out += frame.uncovered()
        out += frame.symbols()
        out += frame.clouds()
        out += frame.axes()
        out += frame.precipitationBars()
        out += frame.line(frame.temperature, scale: frame.temperatureScale, kind: "temperature", colour: "#c0392b", dashed: false)
        out += frame.line(frame.dewPoint, scale: frame.temperatureScale, kind: "dew-point", colour: "#1e8449", dashed: true)
        out += frame.wind()
        out += frame.nowLine()
        out += frame.hourLabels()
        out += frame.legend()
        return out + "</svg>\n"
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    static func f(_ value: Double) -> String { String(format: "%.1f", value) }

    /// A value as the tables print it, with its unit ("12.3 °C"); "no value" for NaN.
    static func reading(_ value: Float, _ decimals: Int, _ unit: String) -> String {
        guard let text = ForecastRenderer.number(value, decimals) else { return "no value" }
        return unit.isEmpty ? text : "\(text) \(unit)"
    }

    /// The compass point a wind blows from, in words people use on a forecast ("NW").
    static func compass(_ degrees: Float) -> String {
        guard degrees.isFinite else { return "" }
        let points = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
        let index = Int((Double(degrees) / 45).rounded()) % 8
        return points[(index + 8) % 8]
    }
}

/// A linear mapping from values to the picture's y, with the ticks to label.
struct MeteogramScale {
    let low: Double, high: Double, top: Double, bottom: Double

    /// A range around the finite values that includes `floor` values and never collapses.
    init(values: [Float], top: Double, bottom: Double, minimumSpan: Double, fromZero: Bool) {
        let finite = values.filter(\.isFinite).map(Double.init)
        var low = fromZero ? 0 : (finite.min() ?? 0), high = finite.max() ?? minimumSpan
        if high - low < minimumSpan {
            let middle = (high + low) / 2
            (low, high) = fromZero ? (0, max(high, minimumSpan)) : (middle - minimumSpan / 2, middle + minimumSpan / 2)
        }
        let step = MeteogramScale.niceStep((high - low) / 4)
        self.low = fromZero ? 0 : (low / step).rounded(.down) * step
        self.high = (high / step).rounded(.up) * step
        self.top = top
        self.bottom = bottom
    }

    func y(_ value: Float) -> Double {
        bottom - (Double(value) - low) / max(high - low, 1e-9) * (bottom - top)
    }

    var ticks: [Double] {
        let step = MeteogramScale.niceStep((high - low) / 4)
        return Array(stride(from: low, through: high + step / 1000, by: step))
    }

    /// 1, 2 or 5 times a power of ten, at least `raw`.
    static func niceStep(_ raw: Double) -> Double {
        guard raw.isFinite, raw > 0 else { return 1 }
        let power = pow(10, (log10(raw)).rounded(.down))
        for factor in [1.0, 2, 5, 10] where factor * power >= raw { return factor * power }
        return 10 * power
    }
}
