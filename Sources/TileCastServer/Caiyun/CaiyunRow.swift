import Catalog
import Meteorology
import PointQuery

/// One JSON object written in order. Every key is written, null when unknown: Caiyun's
/// clients decode its blocks with fixed fields.
struct CaiyunObject {
    private var fields: [String] = []

    mutating func add(_ key: String, _ raw: String?) { fields.append(JSONText.quoted(key) + ":" + (raw ?? "null")) }

    mutating func add(_ key: String, _ object: CaiyunObject) { add(key, object.text) }

    var text: String { "{" + fields.joined(separator: ",") + "}" }

    static func list(_ items: [String]) -> String { "[" + items.joined(separator: ",") + "]" }
}

/// One hour (or now) of a Caiyun answer: each value `/v1/forecast`'s printed value
/// (`ForecastRenderer.formatted`) in the request's units (`CaiyunNumbers`).
struct CaiyunRow {
    let time: Int64
    let values: [ForecastVariable: Float]
    let units: CaiyunUnits
    let latitude: Double
    let longitude: Double

    func value(_ variable: ForecastVariable) -> Float { values[variable] ?? .nan }

    func printed(_ variable: ForecastVariable) -> String? { ForecastRenderer.formatted(value(variable), variable, units.forecastUnits) }

    var isKnown: Bool { value(.temperature2m).isFinite }

    var temperature: String? { CaiyunNumbers.temperature(printed(.temperature2m), units: units) }
    var apparentTemperature: String? { CaiyunNumbers.temperature(printed(.apparentTemperature), units: units) }
    var humidity: String? { CaiyunNumbers.fraction(printed(.relativeHumidity2m)) }
    var cloudRate: String? { CaiyunNumbers.fraction(printed(.cloudCover)) }
    /// Caiyun's pressure is the surface's ("地面气压"), not the sea level's.
    var pressure: String? { CaiyunNumbers.pascals(printed(.surfacePressure)) }
    var visibility: String? { CaiyunNumbers.visibility(printed(.visibility), units: units) }
    var dswrf: String? { printed(.shortwaveRadiation) }
    var windSpeed: String? { printed(.windSpeed10m) }
    var windDirection: String? { printed(.windDirection10m) }

    /// The row's precipitation rate in the request's unit for `block`: an hour's amount is
    /// mm/h; a quarter hour's (`realtime`, `perHour` 4) is its amount x 4.
    func precipitation(_ block: CaiyunNumbers.Block, perHour: Double = 1) -> String? {
        guard let amount = printed(.precipitation).flatMap(Double.init) else { return nil }
        return CaiyunNumbers.precipitation(amount * perHour, units: units, block: block)
    }

    /// `{speed, direction}` (hourly's wind adds its `datetime` before them).
    func wind(datetime: String? = nil) -> CaiyunObject {
        var wind = CaiyunObject()
        if let datetime { wind.add("datetime", JSONText.quoted(datetime)) }
        wind.add("speed", windSpeed)
        wind.add("direction", windDirection)
        return wind
    }

    /// Day by `is_day` (the sun above the sunrise/sunset line at the row's time).
    var isDay: Bool {
        let flag = value(.isDay)
        return flag.isFinite ? flag > 0.5 : SolarPosition.isDay(latitude: latitude, longitude: longitude, time: Double(time)) > 0.5
    }

    /// The row's condition, its cloud classes by the whole percent `/v1/forecast` prints.
    var condition: SkyCondition? {
        SkyCondition.of(weatherCode: value(.weatherCode), cloudCover: printed(.cloudCover).flatMap(Float.init) ?? .nan)
    }

    /// The skycon, `_NIGHT` while the sun is down; nil when the run cannot say (no code).
    var skycon: String? { condition.map { CaiyunSky.name($0, isDay: isDay) } }
}

/// The skycon of a class (`WeatherConditions.caiyun`) by day or night.
enum CaiyunSky {
    static func name(_ condition: SkyCondition, isDay: Bool) -> String {
        let name = WeatherConditions.caiyun[condition] ?? "CLOUDY"
        guard !isDay, name.hasSuffix("_DAY") else { return name }
        return String(name.dropLast(4)) + "_NIGHT"
    }

    /// Whether a skycon says something falls (the test of a row's precipitation).
    static func isWet(_ name: String) -> Bool { name.hasSuffix("_RAIN") || name.hasSuffix("_SNOW") }
}
