import Catalog
import Meteorology
import PointQuery

/// One JSON object written in order; a field whose value is nil is left out (OpenWeatherMap
/// leaves out what it has not: `rain`, `snow`, `wind.gust`, `visibility`).
struct OpenWeatherMapObject {
    private var fields: [String] = []

    mutating func add(_ key: String, _ raw: String?) {
        guard let raw else { return }
        fields.append(JSONText.quoted(key) + ":" + raw)
    }

    /// A field that is always written: null when unknown (a key the clients read unguarded).
    mutating func always(_ key: String, _ raw: String?) { add(key, raw ?? "null") }

    mutating func add(_ key: String, _ object: OpenWeatherMapObject?) { add(key, object.map(\.text)) }

    var isEmpty: Bool { fields.isEmpty }
    var text: String { "{" + fields.joined(separator: ",") + "}" }
}

/// One row of an answer (now, or one step of a forecast) and its numbers as OpenWeatherMap
/// writes them: each value `/v1/forecast`'s printed value (`ForecastRenderer.formatted`, the same
/// decimals), converted only where OpenWeatherMap's unit or type differs: Kelvin (`standard`)
/// from the Celsius value, to 0.01 K; pressure, humidity, cloud cover, direction and visibility
/// as whole numbers (its integers), visibility at most 10,000 m (its ceiling).
struct OpenWeatherMapRow {
    let time: Int64
    let values: [ForecastVariable: Float]
    let units: OpenWeatherMapUnits
    let latitude: Double
    let longitude: Double

    private var output: OutputUnits { units.forecastUnits }

    func value(_ variable: ForecastVariable) -> Float { values[variable] ?? .nan }

    /// `/v1/forecast`'s text of the value; nil when unknown.
    func printed(_ variable: ForecastVariable) -> String? { ForecastRenderer.formatted(value(variable), variable, output) }

    func number(_ variable: ForecastVariable) -> Double? { printed(variable).flatMap(Double.init) }

    /// A temperature in the request's units (Kelvin made from the printed Celsius, exactly).
    func temperature(_ variable: ForecastVariable) -> String? {
        guard let text = printed(variable) else { return nil }
        guard units == .standard, let celsius = Double(text) else { return text }
        return Self.hundredths(Int64((celsius * 100).rounded()) + 27_315)
    }

    func whole(_ variable: ForecastVariable) -> String? { number(variable).map { String(Int64($0.rounded())) } }

    var visibility: String? { number(.visibility).map { String(min(10_000, Int64($0.rounded()))) } }

    /// OpenWeatherMap's `pop`, a fraction 0-1: `/v1/forecast`'s printed precipitation_probability
    /// (whole percent) over 100; nil when unknown.
    var pop: String? { number(.precipitationProbability).map { Self.hundredths(Int64($0.rounded())) } }

    /// Liquid precipitation over the row's window: `precipitation` less the snow's water
    /// (`snowfall_water_equivalent`, 0 when the run has no snow), as printed, so `rain` + `snow`
    /// is the row's precipitation and a row whose code says drizzle shows its drizzle (`rain` +
    /// `showers`, each rounded apart, lost a 0.01 mm); nil when none fell.
    var rain: String? {
        guard let all = number(.precipitation) else { return nil }
        let amount = Int64((all * 100).rounded()) - Int64(((number(.snowfallWaterEquivalent) ?? 0) * 100).rounded())
        return amount > 0 ? Self.hundredths(amount) : nil
    }

    /// Snow's water equivalent over the row's window (OpenWeatherMap's `snow` is in mm of
    /// water); nil when none fell or the run has no snow.
    var snow: String? {
        guard let amount = number(.snowfallWaterEquivalent), amount > 0 else { return nil }
        return Self.hundredths(Int64((amount * 100).rounded()))
    }

    /// Day by `is_day` (the sun above the sunrise/sunset line at the row's time).
    var isDay: Bool {
        let flag = value(.isDay)
        return flag.isFinite ? flag > 0.5 : SolarPosition.isDay(latitude: latitude, longitude: longitude, time: Double(time)) > 0.5
    }

    /// The row's condition, its cloud classes by the whole percent `clouds.all` shows, so the two agree.
    var condition: SkyCondition? {
        SkyCondition.of(weatherCode: value(.weatherCode), cloudCover: whole(.cloudCover).flatMap(Float.init) ?? .nan)
    }

    /// `weather`: the row's condition, or an empty list when the run cannot say (no cloud
    /// cover: no code, as `/v1/forecast` answers `weather_code` null).
    var weather: String {
        guard let condition, let owm = WeatherConditions.openWeatherMap[condition] else { return "[]" }
        var item = OpenWeatherMapObject()
        item.add("id", String(owm.code))
        item.add("main", JSONText.quoted(owm.group))
        item.add("description", JSONText.quoted(owm.text))
        item.add("icon", JSONText.quoted(owm.icon + (isDay ? "d" : "n")))
        return "[" + item.text + "]"
    }

    var wind: OpenWeatherMapObject {
        var wind = OpenWeatherMapObject()
        wind.always("speed", printed(.windSpeed10m))
        wind.always("deg", whole(.windDirection10m))
        wind.add("gust", printed(.windGusts10m))
        return wind
    }

    /// `main` of the current weather and of a 3-hour step. `temp_min`/`temp_max` are
    /// OpenWeatherMap's spread of observations over a city, which a point forecast has not:
    /// both are the temperature itself.
    var main: OpenWeatherMapObject {
        var main = OpenWeatherMapObject()
        let temperature = temperature(.temperature2m)
        main.always("temp", temperature)
        main.always("feels_like", self.temperature(.apparentTemperature))
        main.always("temp_min", temperature)
        main.always("temp_max", temperature)
        main.always("pressure", whole(.pressureMSL))
        main.always("humidity", whole(.relativeHumidity2m))
        main.add("sea_level", whole(.pressureMSL))
        main.add("grnd_level", whole(.surfacePressure))
        return main
    }

    /// A number of hundredths as a decimal ("-0.05", "283.85").
    static func hundredths(_ value: Int64) -> String {
        let sign = value < 0 ? "-" : "", magnitude = value.magnitude
        let fraction = magnitude % 100
        return "\(sign)\(magnitude / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    /// Seconds since 1970 as OpenWeatherMap's `dt_txt`, "2026-11-22 03:00:00" (UTC).
    static func dateText(_ time: Int64) -> String {
        let minutes = ModelTime.isoMinutes(time)
        return String(minutes.prefix(10)) + " " + String(minutes.dropFirst(11).prefix(5)) + ":00"
    }
}
