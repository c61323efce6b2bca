import Catalog
import PointQuery

/// Caiyun's `realtime` and `minutely` blocks. Where Caiyun's data come from a radar, a point
/// forecast has the run: `datasource` names the model (Caiyun writes "gfs" when it answers
/// from a model). What the run cannot give is written as Caiyun's clients read "none", never
/// as a number: `precipitation.nearest` (the distance to the nearest radar echo) is null;
/// `air_quality`'s fields are null (the runs hold no chemistry); `life_index`'s `ultraviolet`
/// and `comfort` are null (no UV index; Caiyun's comfort scale is its own); `probability` is
/// an empty list (no ensemble yet, issue 46). A quantity the run lacks (visibility without
/// the fog fields, radiation) is -1 (`missing`): Caiyun's clients decode these fields as
/// numbers, and -1 is no visibility, radiation, humidity, cloud fraction, pressure or speed.
enum CaiyunNow {
    /// The documented placeholder of a realtime quantity the run lacks (README "Caiyun").
    static let missing = "-1"

    /// `realtime`: the values now (the current quarter hour).
    ///
    /// - Throws: `CaiyunError` 404 when no cycle covers the current time at the place.
    static func realtime(_ forecast: CaiyunForecast, units: CaiyunUnits) throws(CaiyunError) -> CaiyunObject {
        let place = forecast.place
        let row = CaiyunRow(time: place.times.current, values: place.current, units: units,
                            latitude: place.forecast.latitude, longitude: place.forecast.longitude)
        guard row.isKnown else { throw CaiyunError(.notFound, "no forecast cycle of this server covers the current time at this place") }
        var out = CaiyunObject()
        out.add("status", "\"ok\"")
        out.add("temperature", row.temperature)
        out.add("humidity", row.humidity ?? missing)
        out.add("cloudrate", row.cloudRate ?? missing)
        out.add("skycon", row.skycon.map(JSONText.quoted))
        out.add("visibility", row.visibility ?? missing)
        out.add("dswrf", row.dswrf ?? missing)
        out.add("wind", row.wind())
        out.add("pressure", row.pressure ?? missing)
        out.add("apparent_temperature", row.apparentTemperature)
        var local = CaiyunObject()
        local.add("status", "\"ok\"")
        local.add("datasource", JSONText.quoted(datasource(place)))
        local.add("intensity", row.precipitation(.radar, perHour: 4))
        var precipitation = CaiyunObject()
        precipitation.add("local", local)
        precipitation.add("nearest", nil)
        out.add("precipitation", precipitation)
        var air = CaiyunObject()
        for name in ["pm25", "pm10", "o3", "so2", "no2", "co", "aqi", "description"] { air.add(name, nil) }
        out.add("air_quality", air)
        var life = CaiyunObject()
        life.add("ultraviolet", nil)
        life.add("comfort", nil)
        out.add("life_index", life)
        return out
    }

    /// Where the numbers come from, as Caiyun's `datasource`: the model's name ("wrf").
    static func datasource(_ place: PlaceForecast) -> String { place.forecast.provenance.model.lowercased() }

    /// 120 one-minute rates (mm/h) from the current minute: each minute's is that of the
    /// `/v1/forecast` `minutely_15` quarter hour holding it (its amount x 4), as OpenWeatherMap's
    /// One Call `minutely`; the list ends where the runs end.
    static func minuteRates(_ place: PlaceForecast, now: Int64) -> [Double] {
        guard let quarters = place.minutely15, let amounts = quarters.values[.precipitation] else { return [] }
        var byEnd: [Int64: Float] = [:]
        for (k, time) in quarters.times.enumerated() where k < amounts.count { byEnd[time] = amounts[k] }
        let first = now / 60 * 60
        var rates: [Double] = []
        for k in 0..<120 {
            let minute = first + Int64(k) * 60
            // The quarter hour ending at or after the minute's end holds it.
            let end = (minute + 60 + 899) / 900 * 900
            guard let amount = byEnd[end], let text = ForecastRenderer.formatted(amount, .precipitation, OutputUnits()),
                  let value = Double(text) else { break }
            rates.append(value * 4)
        }
        return rates
    }

    /// `minutely`: the next 120 and 60 minutes' rates in the request's unit (radar intensity
    /// by default), and their description.
    static func minutely(_ forecast: CaiyunForecast, request: CaiyunRequest, rates: [Double]) -> CaiyunObject {
        let written = rates.map { CaiyunNumbers.precipitation($0, units: request.units, block: .radar) }
        var out = CaiyunObject()
        out.add("status", "\"ok\"")
        out.add("datasource", JSONText.quoted(datasource(forecast.place)))
        out.add("precipitation_2h", CaiyunObject.list(written))
        out.add("precipitation", CaiyunObject.list(Array(written.prefix(60))))
        out.add("probability", "[]")
        out.add("description", JSONText.quoted(CaiyunTexts.nextTwoHours(rates, request.language)))
        return out
    }
}
