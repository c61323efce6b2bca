import Foundation
import PointQuery

/// `GET /v1/meteogram.svg`: one hourly variable of one place as a line chart, self-contained
/// SVG (no fonts or scripts), so it can be embedded anywhere. One point per hour the cycle
/// covers; hours it does not cover break the line.
enum Meteogram {
    static let width = 800.0, height = 320.0
    static let left = 60.0, right = 20.0, top = 30.0, bottom = 50.0

    static func svg(parameters: ForecastParameters, times requestTimes: RequestTimes, values: [Float], place: PlaceForecast) throws(APIError) -> String {
        let times = requestTimes.hourly
        guard let variable = parameters.hourly.first else { throw APIError("Parameter 'hourly' must name one variable for the chart") }
        let units = parameters.units
        let finite = values.filter(\.isFinite)
        let low = Double(finite.min() ?? 0), high = Double(finite.max() ?? 1)
        let span = high - low > 1e-9 ? high - low : 1
        let plotWidth = width - left - right, plotHeight = height - top - bottom
        func x(_ k: Int) -> Double { left + (times.count > 1 ? Double(k) / Double(times.count - 1) : 0.5) * plotWidth }
        func y(_ v: Float) -> Double { top + (1 - (Double(v) - low) / span) * plotHeight }
        func f(_ v: Double) -> String { String(format: "%.1f", v) }

        // Runs of covered hours, each one polyline.
        var lines: [String] = []
        var run: [String] = []
        for (k, value) in values.enumerated() {
            if value.isFinite {
                run.append("\(f(x(k))),\(f(y(value)))")
            } else if !run.isEmpty {
                lines.append(run.joined(separator: " "))
                run = []
            }
        }
        if !run.isEmpty { lines.append(run.joined(separator: " ")) }

        let title = "\(variable.rawValue) (\(units.symbol(variable))) at \(place.forecast.latitude), \(place.forecast.longitude): "
            + "\(place.forecast.provenance.model) \(place.forecast.provenance.cycle) \(place.forecast.provenance.domain)"
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" font-family=\"sans-serif\" font-size=\"12\">"
        svg += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>"
        svg += "<text x=\"\(f(left))\" y=\"18\">\(escape(title))</text>"
        svg += "<line x1=\"\(f(left))\" y1=\"\(f(top + plotHeight))\" x2=\"\(f(left + plotWidth))\" y2=\"\(f(top + plotHeight))\" stroke=\"#888\"/>"
        svg += "<line x1=\"\(f(left))\" y1=\"\(f(top))\" x2=\"\(f(left))\" y2=\"\(f(top + plotHeight))\" stroke=\"#888\"/>"
        for tick in 0...4 {
            let value = low + span * Double(tick) / 4
            let yy = top + (1 - Double(tick) / 4) * plotHeight
            svg += "<text x=\"\(f(left - 6))\" y=\"\(f(yy + 4))\" text-anchor=\"end\">\(ForecastRenderer.number(Float(value), 1) ?? "")</text>"
        }
        let offset = requestTimes.zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(times.first ?? 0)))
        let step = max(1, times.count / 8)
        for k in stride(from: 0, to: times.count, by: step) {
            let label = RequestTimes.label(times[k], offset: offset)
            svg += "<text x=\"\(f(x(k)))\" y=\"\(f(top + plotHeight + 18))\" text-anchor=\"middle\">\(escape(String(label.suffix(11))))</text>"
        }
        for points in lines {
            svg += "<polyline class=\"series\" fill=\"none\" stroke=\"#1f6fb2\" stroke-width=\"2\" points=\"\(points)\"/>"
        }
        return svg + "</svg>\n"
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}
