import Catalog
import PointQuery

/// The JSON of each OpenWeatherMap path, from the runner's forecast (`OpenWeatherMapForecast`).
/// Field names, order and types follow OpenWeatherMap's API documentation ("Current weather
/// data", "5 day / 3 hour forecast"). What a point forecast has not is OpenWeatherMap's own
/// "nothing": `pop` where no member knows it and `rain`/`snow` without precipitation are left
/// out; `id` is 0 and `name`/`country` empty (no geocoder: the place is its coordinates).
enum OpenWeatherMapAnswers {
    /// `/data/2.5/weather`: the values now.
    ///
    /// - Throws: `OpenWeatherMapError` 404 when no cycle covers the current time at the place
    ///   (OpenWeatherMap's "not found", which pyowm reads as no data).
    static func current(_ forecast: OpenWeatherMapForecast, units: OpenWeatherMapUnits) throws(OpenWeatherMapError) -> String {
        let place = forecast.place
        let now = place.times.current
        let row = OpenWeatherMapRow(time: now, values: place.current, units: units, latitude: place.forecast.latitude,
                                    longitude: place.forecast.longitude)
        guard row.value(.temperature2m).isFinite else {
            throw OpenWeatherMapError(.notFound, "no forecast cycle of this server covers the current time at this place")
        }
        var out = OpenWeatherMapObject()
        out.add("coord", coordinates(place))
        out.add("weather", row.weather)
        out.add("base", JSONText.quoted("model"))
        out.add("main", row.main)
        out.add("visibility", row.visibility)
        out.add("wind", row.wind)
        out.add("rain", amount("1h", row.rain))
        out.add("snow", amount("1h", row.snow))
        out.add("clouds", clouds(row))
        out.add("dt", String(now))
        var sys = OpenWeatherMapObject()
        sys.add("country", "\"\"")
        addSun(forecast.sun(on: now), to: &sys)
        out.add("sys", sys)
        out.add("timezone", String(forecast.offset))
        out.add("id", "0")
        out.add("name", "\"\"")
        out.add("cod", "200")
        out.add("tilecast", provenance(place))
        return out.text
    }

    /// `/data/2.5/forecast`: every 3 hours (00, 03, ... 21 UTC) after now that a cycle covers,
    /// at most `count` (OpenWeatherMap's 40, five days); the list ends where the runs end.
    static func threeHourly(_ forecast: OpenWeatherMapForecast, units: OpenWeatherMapUnits, now: Int64, count: Int?) -> String {
        let place = forecast.place
        let hourly = place.hourly
        var items: [String] = []
        for (k, time) in hourly.times.enumerated() where time > now && items.count < (count ?? 40) {
            let values = hourly.values.compactMapValues { k < $0.count ? $0[k] : nil }
            let row = OpenWeatherMapRow(time: time, values: values, units: units, latitude: place.forecast.latitude,
                                        longitude: place.forecast.longitude)
            // An hour no cycle covers ends the list (OpenWeatherMap has no null steps).
            guard row.value(.temperature2m).isFinite else { break }
            var item = OpenWeatherMapObject()
            item.add("dt", String(time))
            item.add("main", row.main)
            item.add("weather", row.weather)
            item.add("clouds", clouds(row))
            item.add("wind", row.wind)
            item.add("visibility", row.visibility)
            // The largest hourly chance in the 3 hours (`ForecastEngine.steppedProbabilities`).
            item.add("pop", row.pop)
            item.add("rain", amount("3h", row.rain))
            item.add("snow", amount("3h", row.snow))
            item.add("sys", "{\"pod\":\"\(row.isDay ? "d" : "n")\"}")
            item.add("dt_txt", JSONText.quoted(OpenWeatherMapRow.dateText(time)))
            items.append(item.text)
        }
        var city = OpenWeatherMapObject()
        city.add("id", "0")
        city.add("name", "\"\"")
        city.add("coord", coordinates(place))
        city.add("country", "\"\"")
        city.add("population", "0")
        city.add("timezone", String(forecast.offset))
        addSun(forecast.sun(on: now), to: &city)
        var out = OpenWeatherMapObject()
        out.add("cod", "\"200\"")
        out.add("message", "0")
        out.add("cnt", String(items.count))
        out.add("list", "[" + items.joined(separator: ",") + "]")
        out.add("city", city)
        out.add("tilecast", provenance(place))
        return out.text
    }

    static func coordinates(_ place: PlaceForecast) -> OpenWeatherMapObject {
        var coord = OpenWeatherMapObject()
        coord.add("lon", JSONText.short(place.forecast.longitude))
        coord.add("lat", JSONText.short(place.forecast.latitude))
        return coord
    }

    static func clouds(_ row: OpenWeatherMapRow) -> OpenWeatherMapObject {
        var clouds = OpenWeatherMapObject()
        clouds.always("all", row.whole(.cloudCover))
        return clouds
    }

    /// `{"1h": 0.25}`; nil (the key left out) when nothing fell.
    static func amount(_ key: String, _ value: String?) -> OpenWeatherMapObject? {
        guard let value else { return nil }
        var object = OpenWeatherMapObject()
        object.add(key, value)
        return object
    }

    /// `sunrise` and `sunset`; left out in polar day and night (the sun neither rises nor sets).
    static func addSun(_ sun: (sunrise: Int64, sunset: Int64)?, to object: inout OpenWeatherMapObject) {
        guard let sun else { return }
        object.add("sunrise", String(sun.sunrise))
        object.add("sunset", String(sun.sunset))
    }

    /// Where the numbers came from, as `/v1/forecast`'s `tilecast` key says it.
    static func provenance(_ place: PlaceForecast) -> OpenWeatherMapObject {
        let source = place.forecast.provenance
        var out = OpenWeatherMapObject()
        out.add("model", JSONText.quoted(source.model))
        out.add("cycle", JSONText.quoted(source.cycle))
        out.add("domain", JSONText.quoted(source.domain))
        out.add("grid_spacing_km", JSONText.short(source.gridSpacingKilometres))
        return out
    }
}
