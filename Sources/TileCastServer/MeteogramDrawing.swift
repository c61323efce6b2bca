import Catalog
import Foundation
import Meteorology
import PointQuery

/// The meteogram's layers, each a `<g>` of elements with their titles.
extension MeteogramFrame {
    static let snowWaterPerCentimetre = 10.0 / 7   // mm of water per cm of snow (Open-Meteo's ratio, WeatherCode's 0.7)

    /// Local midnights as vertical lines, each day named at the top.
    func dayBoundaries() -> String {
        let f = Meteogram.f
        var out = "<g class=\"days\">"
        var starts = times.indices.filter { localHour($0) == 0 && local[$0] % 3600 == 0 }
        if let first = times.indices.first, starts.first != first { starts.insert(first, at: 0) }
        for k in starts {
            let xx = localHour(k) == 0 ? x(times[k]) : Self.left
            if localHour(k) == 0 {
                out += "<line class=\"day-boundary\" x1=\"\(f(xx))\" y1=\"\(f(Self.symbolTop))\" x2=\"\(f(xx))\" y2=\"\(f(Self.windBottom))\" stroke=\"#999\">"
                out += "<title>Midnight, start of \(Self.day(local[k])) (local time)</title></line>"
            }
            out += "<text x=\"\(f(xx + 4))\" y=\"\(f(Self.dayRow))\" font-weight=\"bold\">\(Self.day(local[k]))</text>"
        }
        return out + "</g>"
    }

    /// Runs of hours without a value shaded and named, so a gap never looks like "zero".
    func uncovered() -> String {
        let f = Meteogram.f
        var out = "<g class=\"uncovered\">"
        var k = 0
        while k < times.count {
            guard !temperature[k].isFinite else { k += 1; continue }
            var end = k
            while end + 1 < times.count, !temperature[end + 1].isFinite { end += 1 }
            let from = x(times[k]) - Self.hourWidth / 2, to = x(times[end]) + Self.hourWidth / 2
            out += "<rect x=\"\(f(max(Self.left, from)))\" y=\"\(f(Self.symbolTop))\" width=\"\(f(min(plotRight, to) - max(Self.left, from)))\" "
            out += "height=\"\(f(Self.windBottom - Self.symbolTop))\" fill=\"#eee\"><title>\(clock(k))-\(clock(end)): not covered by the run</title></rect>"
            k = end + 1
        }
        return out + "</g>"
    }

    /// A weather symbol every third local hour, from that hour's weather code and day or night.
    func symbols() -> String {
        let f = Meteogram.f
        var out = "<g class=\"symbols\">"
        for k in everyThirdHour where weatherCode[k].isFinite {
            let code = WeatherCode(rawValue: Int(weatherCode[k]))
            let day = !(isDay[k].isFinite && isDay[k] < 0.5)
            let words = code?.summary ?? "Weather code \(Int(weatherCode[k]))"
            let xx = x(times[k]) - Self.symbolSize / 2
            out += "<g class=\"symbol\" data-code=\"\(Int(weatherCode[k]))\"><title>\(clock(k)): \(words)\(day ? "" : " (night)")</title>"
            for part in MeteogramSymbols.parts(code: code, isDay: day) {
                out += "<use href=\"#mg-\(part)\" x=\"\(f(xx))\" y=\"\(f(Self.symbolTop))\" width=\"\(f(Self.symbolSize))\" height=\"\(f(Self.symbolSize))\"/>"
            }
            out += "</g>"
        }
        return out + "</g>"
    }

    /// Cloud cover as a grey band, darker for more cloud.
    func clouds() -> String {
        let f = Meteogram.f
        var out = "<g class=\"clouds\"><text x=\"\(f(Self.left - 4))\" y=\"\(f(Self.cloudTop + 9))\" text-anchor=\"end\">Cloud</text>"
        for k in times.indices where cloudCover[k].isFinite {
            let opacity = max(0, min(1, Double(cloudCover[k]) / 100))
            out += "<rect class=\"cloud\" x=\"\(f(x(times[k]) - Self.hourWidth / 2))\" y=\"\(f(Self.cloudTop))\" width=\"\(f(Self.hourWidth))\" "
            out += "height=\"\(f(Self.cloudHeight))\" fill=\"#5d6d7e\" fill-opacity=\"\(String(format: "%.2f", opacity))\">"
            out += "<title>\(clock(k)): cloud cover \(Meteogram.reading(cloudCover[k], 0, "%"))</title></rect>"
        }
        return out + "</g>"
    }

    /// Axes: temperature on the left, precipitation on the right, wind below, with grid lines.
    func axes() -> String {
        let f = Meteogram.f
        var out = "<g class=\"axes\">"
        for tick in temperatureScale.ticks {
            let yy = temperatureScale.y(Float(tick))
            out += "<line x1=\"\(f(Self.left))\" y1=\"\(f(yy))\" x2=\"\(f(plotRight))\" y2=\"\(f(yy))\" stroke=\"#e3e3e3\"/>"
            out += "<text x=\"\(f(Self.left - 4))\" y=\"\(f(yy + 4))\" text-anchor=\"end\">\(JSONText.short(tick))</text>"
        }
        out += "<text x=\"\(f(Self.left - 4))\" y=\"\(f(Self.plotTop - 2))\" text-anchor=\"end\">\(Meteogram.escape(unit(.temperature2m)))</text>"
        for tick in precipitationScale.ticks {
            out += "<text x=\"\(f(plotRight + 4))\" y=\"\(f(precipitationScale.y(Float(tick)) + 4))\">\(JSONText.short(tick))</text>"
        }
        out += "<text x=\"\(f(plotRight + 4))\" y=\"\(f(Self.plotTop - 2))\">\(Meteogram.escape(unit(.precipitation)))</text>"
        out += "<text x=\"\(f(Self.left - 4))\" y=\"\(f(Self.windTop + 8))\" text-anchor=\"end\">\(JSONText.short(windScale.high))</text>"
        out += "<text x=\"\(f(Self.left - 4))\" y=\"\(f(Self.windBottom))\" text-anchor=\"end\">0</text>"
        out += "<text x=\"\(f(plotRight + 4))\" y=\"\(f(Self.windBottom))\">\(Meteogram.escape(unit(.windSpeed10m)))</text>"
        for yy in [Self.plotBottom, Self.windBottom] {
            out += "<line x1=\"\(f(Self.left))\" y1=\"\(f(yy))\" x2=\"\(f(plotRight))\" y2=\"\(f(yy))\" stroke=\"#888\"/>"
        }
        return out + "</g>"
    }

    /// One bar per hour the run covers (the amount of the hour that ends then), its snow part
    /// (snowfall as water) drawn apart from the rain; a dry hour's bar has no height.
    func precipitationBars() -> String {
        let f = Meteogram.f
        let perUnit = units.precipitation == .inch ? Self.snowWaterPerCentimetre / 10 : Self.snowWaterPerCentimetre
        var out = "<g class=\"precipitation\">"
        for k in times.indices where precipitation[k].isFinite {
            let total = max(0, precipitation[k])
            let snowWater = snowfall[k].isFinite ? min(Double(total), Double(max(0, snowfall[k])) * perUnit) : 0
            let left = x(times[k]) - Self.hourWidth + 2, barWidth = Self.hourWidth - 4
            let top = precipitationScale.y(total), split = precipitationScale.y(Float(snowWater))
            let snowText = snowWater > 0 ? ", of which snow \(Meteogram.reading(snowfall[k], 1, unit(.snowfall)))" : ""
            let label = "\(clock(k > 0 ? k - 1 : k))-\(clock(k)): \(Meteogram.reading(total, 1, unit(.precipitation)))\(snowText)"
            out += "<g class=\"bar\"><title>\(label)</title>"
            out += "<rect class=\"rain\" x=\"\(f(left))\" y=\"\(f(top))\" width=\"\(f(barWidth))\" height=\"\(f(max(0, split - top)))\" fill=\"#2e86c1\"/>"
            out += "<rect class=\"snow\" x=\"\(f(left))\" y=\"\(f(split))\" width=\"\(f(barWidth))\" height=\"\(f(max(0, Self.plotBottom - split)))\" "
            out += "fill=\"#aed6f1\" stroke=\"#2e86c1\" stroke-width=\"\(snowWater > 0 ? "0.8" : "0")\"/></g>"
        }
        return out + "</g>"
    }

    /// A series as a polyline per run of hours with values, each point titled.
    func line(_ values: [Float], scale: MeteogramScale, kind: String, colour: String, dashed: Bool) -> String {
        let f = Meteogram.f
        let variable: ForecastVariable = kind == "temperature" ? .temperature2m : kind == "dew-point" ? .dewPoint2m : .windSpeed10m
        let name = kind == "temperature" ? "Temperature" : kind == "dew-point" ? "Dew point" : "Wind"
        var out = "<g class=\"\(kind)\"><title>\(name) (\(Meteogram.escape(unit(variable))))</title>"
        var run: [String] = []
        func flush() {
            guard !run.isEmpty else { return }
            out += "<polyline class=\"series\" fill=\"none\" stroke=\"\(colour)\" stroke-width=\"2\"\(dashed ? " stroke-dasharray=\"5 3\"" : "") points=\"\(run.joined(separator: " "))\"/>"
            run = []
        }
        for k in values.indices {
            if values[k].isFinite { run.append("\(f(x(times[k]))),\(f(scale.y(values[k])))") } else { flush() }
        }
        flush()
        return out + "</g>"
    }
}

/// Wind, the "now" line, the time axis and the legend.
extension MeteogramFrame {
    /// Wind speed as a line in its band, and every third hour an arrow pointing where the
    /// wind blows to, with the speed beside it.
    func wind() -> String {
        let f = Meteogram.f
        var out = line(windSpeed, scale: windScale, kind: "wind", colour: "#7d3c98", dashed: false)
        out += "<g class=\"wind-arrows\">"
        for k in everyThirdHour where windSpeed[k].isFinite && windDirection[k].isFinite {
            let xx = x(times[k])
            // The arrow is drawn pointing down (south, wind from the north) and turned by the
            // direction the wind comes from.
            let turn = Double(windDirection[k])
            let words = "\(clock(k)): wind \(Meteogram.reading(windSpeed[k], 0, unit(.windSpeed10m))) from \(Meteogram.compass(windDirection[k])) (\(Int(turn.rounded()))°)"
            out += "<g class=\"arrow\"><title>\(Meteogram.escape(words))</title>"
            out += "<path d=\"M0,-6 L0,6 M-3.5,2 L0,6 L3.5,2\" fill=\"none\" stroke=\"#7d3c98\" stroke-width=\"1.6\" "
            out += "transform=\"translate(\(f(xx)),\(f(Self.arrowRow - 4))) rotate(\(f(turn)))\"/>"
            out += "<text x=\"\(f(xx + 7))\" y=\"\(f(Self.arrowRow))\" font-size=\"9\">\(ForecastRenderer.number(windSpeed[k], 0) ?? "")</text></g>"
        }
        return out + "</g>"
    }

    /// A red line at the server's now, when it falls inside the picture.
    func nowLine() -> String {
        let f = Meteogram.f
        guard let first = times.first, now >= first - 3600, now <= (times.last ?? first) else { return "" }
        let xx = x(now)
        let offset = place.times.zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(now)))
        let label = String(RequestTimes.label(now, offset: offset).suffix(5))
        var out = "<g class=\"now\"><title>Now, \(label) local time</title>"
        out += "<line x1=\"\(f(xx))\" y1=\"\(f(Self.symbolTop))\" x2=\"\(f(xx))\" y2=\"\(f(Self.windBottom))\" stroke=\"#e74c3c\" stroke-width=\"1.5\"/>"
        out += "<text x=\"\(f(xx + 3))\" y=\"\(f(Self.plotTop - 2))\" fill=\"#b03a2e\">now</text></g>"
        return out
    }

    /// Local hours every third hour, and the zone they are in.
    func hourLabels() -> String {
        let f = Meteogram.f
        var out = "<g class=\"hours\">"
        for k in everyThirdHour {
            out += "<text x=\"\(f(x(times[k])))\" y=\"\(f(Self.hourRow))\" text-anchor=\"middle\">\(clock(k).prefix(2))</text>"
        }
        let zone = place.times
        let offset = zone.utcOffset
        let sign = offset < 0 ? "-" : "+"
        let hours = abs(offset) / 3600, minutes = abs(offset) % 3600 / 60
        let utc = "UTC\(sign)\(hours)" + (minutes == 0 ? "" : String(format: ":%02d", minutes))
        out += "<text x=\"\(f(Self.left))\" y=\"\(f(Self.zoneRow))\">Local time, \(Meteogram.escape(zone.zoneName)) (\(Meteogram.escape(zone.abbreviation)), \(utc))</text>"
        return out + "</g>"
    }

    func legend() -> String {
        let f = Meteogram.f
        let entries: [(String, String)] = [
            ("<line x1=\"0\" y1=\"-4\" x2=\"14\" y2=\"-4\" stroke=\"#c0392b\" stroke-width=\"2\"/>", "Temperature"),
            ("<line x1=\"0\" y1=\"-4\" x2=\"14\" y2=\"-4\" stroke=\"#1e8449\" stroke-width=\"2\" stroke-dasharray=\"5 3\"/>", "Dew point"),
            ("<rect x=\"2\" y=\"-9\" width=\"10\" height=\"9\" fill=\"#2e86c1\"/>", "Rain"),
            ("<rect x=\"2\" y=\"-9\" width=\"10\" height=\"9\" fill=\"#aed6f1\" stroke=\"#2e86c1\" stroke-width=\"0.8\"/>", "Snow (as water)"),
            ("<line x1=\"0\" y1=\"-4\" x2=\"14\" y2=\"-4\" stroke=\"#7d3c98\" stroke-width=\"2\"/>", "Wind"),
            ("<rect x=\"2\" y=\"-9\" width=\"10\" height=\"9\" fill=\"#5d6d7e\" fill-opacity=\"0.6\"/>", "Cloud cover"),
            ("<line x1=\"7\" y1=\"-10\" x2=\"7\" y2=\"2\" stroke=\"#e74c3c\" stroke-width=\"1.5\"/>", "Now"),
        ]
        var out = "<g class=\"legend\">"
        var xx = Self.left
        for (mark, name) in entries {
            out += "<g transform=\"translate(\(f(xx)),\(f(Self.legendRow)))\">\(mark)<text x=\"18\" y=\"0\">\(name)</text></g>"
            xx += 26 + Double(name.count) * 6
        }
        return out + "</g>"
    }
}
