import Catalog
import Meteorology
import PointQuery

/// One row (now, or one hour) and its numbers as QWeather writes them: every value a string,
/// each `/v1/forecast`'s printed value (`ForecastRenderer.formatted`) rounded half away from
/// zero to QWeather's decimals (whole degrees, km/h, %, hPa; precipitation to 0.1 mm), and
/// visibility from metres to km or miles. An unknown value is "" (QWeather's "may be empty").
struct QWeatherRow {
    let time: Int64
    /// The block's series (shared, not copied: a row is an index into them).
    let series: [ForecastVariable: [Float]]
    let index: Int
    let request: QWeatherRequest
    let latitude: Double
    let longitude: Double

    init(time: Int64, series: [ForecastVariable: [Float]], index: Int, request: QWeatherRequest, latitude: Double, longitude: Double) {
        self.time = time
        self.series = series
        self.index = index
        self.request = request
        self.latitude = latitude
        self.longitude = longitude
    }

    /// A row of single values (`current`).
    init(time: Int64, values: [ForecastVariable: Float], request: QWeatherRequest, latitude: Double, longitude: Double) {
        self.init(time: time, series: values.mapValues { [$0] }, index: 0, request: request, latitude: latitude, longitude: longitude)
    }

    func value(_ variable: ForecastVariable) -> Float {
        guard let values = series[variable], index < values.count else { return .nan }
        return values[index]
    }

    func printed(_ variable: ForecastVariable) -> String? {
        ForecastRenderer.formatted(value(variable), variable, request.units.forecastUnits)
    }

    /// The printed value to whole units; "" when unknown.
    func whole(_ variable: ForecastVariable) -> String { printed(variable).map { QWeatherNumber.rounded($0, to: 0) } ?? "" }

    /// Precipitation over the row's hour, to 0.1 mm.
    var precip: String { printed(.precipitation).map { QWeatherNumber.rounded($0, to: 1) } ?? "" }

    var visibility: String { QWeatherNumber.visibility(printed(.visibility), units: request.units) }

    var windScale: String { QWeatherNumber.beaufort(whole(.windSpeed10m), units: request.units) }

    var windDirection: String { QWeatherNumber.direction(whole(.windDirection10m), language: request.language) }

    /// Day by `is_day` (the sun above the sunrise/sunset line at the row's time).
    var isDay: Bool {
        let flag = value(.isDay)
        return flag.isFinite ? flag > 0.5 : SolarPosition.isDay(latitude: latitude, longitude: longitude, time: Double(time)) > 0.5
    }

    /// The row's condition, its cloud classes by the whole percent `cloud` shows.
    var condition: QWeatherCondition? {
        let sky = SkyCondition.of(weatherCode: value(.weatherCode), cloudCover: Float(whole(.cloudCover)) ?? .nan)
        return sky.flatMap { WeatherConditions.qWeather[$0] }
    }

    /// `icon` and `text`: QWeather's 999 "unknown" when the run cannot say (no cloud cover).
    var iconAndText: (icon: String, text: String) {
        guard let condition else { return ("999", QWeatherNumber.unknown(request.language)) }
        let isDay = self.isDay
        return (String(condition.icon(isDay: isDay)), condition.text(request.language, isDay: isDay))
    }
}

/// QWeather's number forms.
enum QWeatherNumber {
    /// A printed decimal rounded half away from zero to `decimals` places, in decimal digits
    /// (no binary fractions: "0.25" to one place is "0.3", "-2.5" to none is "-3").
    static func rounded(_ text: String, to decimals: Int) -> String {
        // One pass over the digits: the kept ones into `scaled`, the first dropped one decides.
        var scaled: Int64 = 0, negative = false, fractionDigits = -1, roundUp = false
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "-"): negative = true
            case UInt8(ascii: "."): fractionDigits = 0
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if fractionDigits < decimals {
                    scaled = scaled &* 10 &+ Int64(byte - UInt8(ascii: "0"))
                    if fractionDigits >= 0 { fractionDigits += 1 }
                } else if fractionDigits == decimals {
                    roundUp = byte >= UInt8(ascii: "5")
                    fractionDigits += 1
                }
            default: break
            }
        }
        for _ in max(0, fractionDigits)..<max(decimals, max(0, fractionDigits)) { scaled &*= 10 }
        if roundUp { scaled += 1 }
        let sign = negative && scaled != 0 ? "-" : ""
        guard decimals > 0 else { return sign + String(scaled) }
        var digits = String(scaled)
        if digits.count <= decimals { digits = String(repeating: "0", count: decimals + 1 - digits.count) + digits }
        digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -decimals))
        return sign + digits
    }

    /// Visibility from printed metres: whole km (`m`) or whole miles (`i`); "" when unknown.
    static func visibility(_ metres: String?, units: QWeatherUnits) -> String {
        guard let metres, let value = Double(metres) else { return "" }
        return String(Int64((value / (units == .metric ? 1000 : 1609.344)).rounded()))
    }

    /// Beaufort force of the wind speed as the answer shows it (whole km/h or mph), by WMO's
    /// bands in those units (force 1 from 1 km/h or 1 mph, ... 12 from 118 km/h or 73 mph), so
    /// `windScale` always agrees with `windSpeed`; "" when unknown.
    static func beaufort(_ speed: String, units: QWeatherUnits) -> String {
        guard let whole = Int(speed) else { return "" }
        let lowest = units == .metric ? [1, 6, 12, 20, 29, 39, 50, 62, 75, 89, 103, 118] : [1, 4, 8, 13, 19, 25, 32, 39, 47, 55, 64, 73]
        return String(lowest.filter { whole >= $0 }.count)
    }

    static let directionsZH = ["北风", "东北偏北风", "东北风", "东北偏东风", "东风", "东南偏东风", "东南风", "东南偏南风",
                               "南风", "西南偏南风", "西南风", "西南偏西风", "西风", "西北偏西风", "西北风", "西北偏北风"]
    static let directionsEN = ["N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW"]

    /// The 16-point direction the wind blows from, of whole degrees; "" when unknown.
    static func direction(_ degrees: String, language: QWeatherLanguage) -> String {
        guard let value = Double(degrees) else { return "" }
        let point = Int((value / 22.5).rounded()) % 16
        return (language == .zh ? directionsZH : directionsEN)[point]
    }

    static func unknown(_ language: QWeatherLanguage) -> String { language == .zh ? "未知" : "Unknown" }

    /// A time in the place's zone as QWeather writes it: "2021-02-16T15:00+08:00".
    static func localTime(_ time: Int64, offset: Int) -> String {
        String(ModelTime.isoMinutes(time + Int64(offset)).prefix(16)) + offsetText(offset)
    }

    static func offsetText(_ offset: Int) -> String {
        let minutes = abs(offset) / 60
        let hours = minutes / 60, rest = minutes % 60
        return (offset < 0 ? "-" : "+") + (hours < 10 ? "0" : "") + String(hours) + ":" + (rest < 10 ? "0" : "") + String(rest)
    }

    /// The moon's phase name and QWeather's phase icon (800 new moon ... 807 waning crescent)
    /// from the phase fraction (0 new, 0.25 first quarter, 0.5 full, 0.75 last quarter), each
    /// name over its eighth of the cycle.
    static func moonPhase(_ fraction: Float, language: QWeatherLanguage) -> (name: String, icon: String) {
        guard fraction.isFinite else { return ("", "") }
        let zh = ["新月", "蛾眉月", "上弦月", "盈凸月", "满月", "亏凸月", "下弦月", "残月"]
        let en = ["New Moon", "Waxing Crescent", "First Quarter", "Waxing Gibbous", "Full Moon", "Waning Gibbous", "Last Quarter", "Waning Crescent"]
        let k = Int((Double(fraction) * 8).rounded()) % 8
        return ((language == .zh ? zh : en)[k], String(800 + k))
    }
}
