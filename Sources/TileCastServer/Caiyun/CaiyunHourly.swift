import Catalog
import PointQuery

/// Caiyun's `hourly` block: `hourlysteps` hours from the current one (or `begin`'s), each list
/// of `{datetime, value}` (wind `{datetime, speed, direction}`). The lists end where the runs
/// end; a quantity the run lacks is an empty list. Precipitation's `probability` is the hour's chance from the lagged members (issue 46); `air_quality`'s `aqi`
/// and `pm25` are empty lists (the runs hold no chemistry).
struct CaiyunHourly {
    let forecast: CaiyunForecast
    let units: CaiyunUnits
    /// Each hourly time's index.
    private let hourIndex: [Int64: Int]

    init(_ forecast: CaiyunForecast, units: CaiyunUnits) {
        self.forecast = forecast
        self.units = units
        var index: [Int64: Int] = [:]
        for (k, time) in forecast.place.hourly.times.enumerated() { index[time] = k }
        hourIndex = index
    }

    /// The row at an hourly time; nil when the hourly block has not that time.
    func row(at time: Int64) -> CaiyunRow? {
        let hourly = forecast.place.hourly
        guard let k = hourIndex[time] else { return nil }
        return CaiyunRow(time: time, values: hourly.values.compactMapValues { k < $0.count ? $0[k] : nil }, units: units,
                         latitude: hourly.latitude, longitude: hourly.longitude)
    }

    /// Up to `count` known hours from `start`'s hour.
    func rows(from start: Int64, count: Int) -> [CaiyunRow] {
        let first = (start >= 0 ? start : start - 3599) / 3600 * 3600
        var rows: [CaiyunRow] = []
        for k in 0..<count {
            guard let row = row(at: first + Int64(k) * 3600), row.isKnown else { break }
            rows.append(row)
        }
        return rows
    }

    func block(_ request: CaiyunRequest, now: Int64) -> CaiyunObject {
        let rows = rows(from: request.begin ?? now, count: request.hourlySteps)
        // A quantity the run lacks (nil every hour) is an empty list, which Caiyun's clients decode.
        func series(_ value: (CaiyunRow) -> String?, probability: ((CaiyunRow) -> String?)? = nil) -> String {
            guard rows.contains(where: { value($0) != nil }) else { return "[]" }
            return CaiyunObject.list(rows.map { row in
                var item = CaiyunObject()
                item.add("datetime", JSONText.quoted(forecast.dateTime(row.time)))
                item.add("value", value(row))
                if let probability { item.add("probability", probability(row)) }
                return item.text
            })
        }
        var out = CaiyunObject()
        out.add("status", "\"ok\"")
        out.add("description", JSONText.quoted(CaiyunTexts.nextDay(rows.prefix(24).compactMap(\.skycon), request.language)))
        // With Caiyun v2.6's `probability` (whole percent): the lagged members' chance (issue 46).
        out.add("precipitation", series({ $0.precipitation(.hourly) }, probability: { row in
            ForecastRenderer.formatted(row.value(.precipitationProbability), .precipitationProbability, OutputUnits())
        }))
        out.add("temperature", series(\.temperature))
        out.add("apparent_temperature", series(\.apparentTemperature))
        out.add("wind", CaiyunObject.list(rows.map { $0.wind(datetime: forecast.dateTime($0.time)).text }))
        out.add("humidity", series(\.humidity))
        out.add("cloudrate", series(\.cloudRate))
        out.add("skycon", series { $0.skycon.map(JSONText.quoted) })
        out.add("pressure", series(\.pressure))
        out.add("visibility", series(\.visibility))
        out.add("dswrf", series(\.dswrf))
        var air = CaiyunObject()
        air.add("aqi", "[]")
        air.add("pm25", "[]")
        out.add("air_quality", air)
        return out
    }
}
