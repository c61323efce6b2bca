import Foundation

/// Caiyun's numbers from `/v1/forecast`'s printed values, converted only where Caiyun's unit
/// differs: fractions from percents, Pa from hPa, km or miles from metres, the precipitation
/// rate as Caiyun's radar intensity or in/h or m/s from mm/h, Kelvin from Celsius.
package enum CaiyunNumbers {
    /// A number rounded to `places` decimals, written shortest ("0.58", "92050", "-3.5").
    static func decimal(_ value: Double, _ places: Int) -> String {
        let scale = pow(10, Double(places))
        return JSONText.short((value * scale).rounded() / scale)
    }

    /// Which of Caiyun's two tables turns a rate into its radar intensity (its "降水强度" page,
    /// v2.4 onwards): realtime and minutely rates by the radar's column, hourly and daily by
    /// the column for hourly amounts (`metric:v1` only).
    package enum Block {
        case radar, hourly

        /// (intensity, mm/h) at the bounds of "light", "moderate", "heavy" and "storm".
        var table: [(intensity: Double, rate: Double)] {
            switch self {
            case .radar: return [(0.031, 0.0606), (0.25, 0.8989), (0.35, 2.87), (0.48, 12.8638)]
            case .hourly: return [(0.031, 0.08), (0.25, 3.44), (0.35, 11.33), (0.48, 51.30)]
            }
        }
    }

    /// A precipitation rate in mm/h in the request's unit for that block.
    static func precipitation(_ rate: Double, units: CaiyunUnits, block: Block) -> String {
        switch units {
        case .metricV2: return decimal(rate, 2)
        case .metric where block == .hourly: return decimal(rate, 2)
        case .metric, .metricV1: return decimal(intensity(rate, block: block), 4)
        case .imperial: return decimal(rate / 25.4, 4)
        // m/s: a rain of 1 mm/h is 2.8e-7 m/s; kept to 0.1 µm/h.
        case .si: return decimal(rate / 3_600_000, 10)
        }
    }

    /// Caiyun's radar intensity (0-1) of a rate: the documented bounds exactly, log-linear
    /// between them (the rates grow about tenfold a tenth of intensity), linear from 0 below
    /// the first, the last step's slope above the last, at most 1.
    package static func intensity(_ rate: Double, block: Block) -> Double {
        let table = block.table
        guard rate > 0, let first = table.first, let last = table.last else { return 0 }
        if rate <= first.rate { return first.intensity * rate / first.rate }
        for k in 1..<table.count where rate <= table[k].rate {
            let a = table[k - 1], b = table[k]
            return a.intensity + (log(rate) - log(a.rate)) / (log(b.rate) - log(a.rate)) * (b.intensity - a.intensity)
        }
        let before = table[table.count - 2]
        let slope = (last.intensity - before.intensity) / (log(last.rate) - log(before.rate))
        return min(1, last.intensity + slope * (log(rate) - log(last.rate)))
    }

    /// A temperature as printed by `/v1/forecast` (°C or °F); Kelvin (`si`) from the Celsius text, to 0.01 K.
    static func temperature(_ text: String?, units: CaiyunUnits) -> String? {
        guard let text, units == .si, let celsius = Double(text) else { return text }
        return decimal(celsius + 273.15, 2)
    }

    /// A percent as Caiyun's fraction ("58" -> "0.58").
    static func fraction(_ text: String?) -> String? { text.flatMap(Double.init).map { decimal($0 / 100, 4) } }

    /// Pressure in Pa from `/v1/forecast`'s hPa.
    static func pascals(_ text: String?) -> String? { text.flatMap(Double.init).map { decimal($0 * 100, 2) } }

    /// Visibility from metres: km (metric), miles (imperial), metres (si).
    static func visibility(_ text: String?, units: CaiyunUnits) -> String? {
        guard let metres = text.flatMap(Double.init) else { return nil }
        switch units {
        case .imperial: return decimal(metres / 1609.344, 2)
        case .si: return decimal(metres, 0)
        default: return decimal(metres / 1000, 2)
        }
    }
}
