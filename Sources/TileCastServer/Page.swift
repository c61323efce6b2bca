import Catalog
import Meteorology

/// `GET /`: one self-contained page for people (no CDN, fonts, images or external scripts: it
/// works offline behind a firewall). Now first, in the place's own time zone: the current
/// conditions, the meteogram and the next 48 hours, then the coming days; the run, its age and
/// the answering domain in words, with a warning when the run is late or ends before now;
/// errors replace what was shown. Phones first (no sideways scrolling at 360 px). The script
/// and style live in `PageScript` and `PageStyle`.
enum Page {
    /// The page, with the named places (if any) known without a search; the first one is shown
    /// first. Other names are searched as they are typed (`/v1/search`).
    static func html(places: [NamedPlace]) -> String {
        let list = "[" + places.map { place in
            "{\"name\":\(JSONText.quoted(place.name)),\"latitude\":\(JSONText.number(place.latitude)),\"longitude\":\(JSONText.number(place.longitude))}"
        }.joined(separator: ",") + "]"
        return template
            .replacingOccurrences(of: "/*STYLE*/", with: PageStyle.css)
            .replacingOccurrences(of: "<!--SYMBOLS-->", with: symbols)
            .replacingOccurrences(of: "/*SCRIPT*/", with: PageScript.javascript)
            .replacingOccurrences(of: "/*WEATHER*/{}", with: weather)
            .replacingOccurrences(of: "/*PLACES*/[]", with: scriptSafe(list))
    }

    /// What the page's "Aloft" table offers, in its column order: hub-height wind, the 850,
    /// 700 and 500 hPa temperatures and the 850 hPa wind (pilots' and paragliders' levels), the
    /// freezing level and CAPE. Directions share their speed's column.
    static let aloftCandidates: [ForecastVariable] = [.windSpeed100m, .windDirection100m, .temperature850hPa, .windSpeed850hPa,
                                                      .windDirection850hPa, .temperature700hPa, .temperature500hPa,
                                                      .freezingLevelHeight, .cape]

    /// The `aloftCandidates` a cycle holds, for `/v1/cycles`' `aloft`: none unless it holds one
    /// that only `tilecast extract --set all` stores, so that a surface cycle (whose file may
    /// carry CAPE) keeps its page as it was and asks for nothing more.
    static func aloft(held: [ForecastVariable]) -> [ForecastVariable] {
        let shown = aloftCandidates.filter(held.contains)
        return shown.contains { $0.spec.set == .all } ? shown : []
    }

    /// The meteogram's symbols, once more for the page's own (current conditions, tables).
    static let symbols = "<svg class=\"defs\" aria-hidden=\"true\" focusable=\"false\" width=\"0\" height=\"0\">"
        + MeteogramSymbols.definitions.replacingOccurrences(of: "id=\"mg-", with: "id=\"pg-") + "</svg>"

    /// Each weather code's words and symbol parts by day and night, from the one table the
    /// meteogram uses (`WeatherCode.summary`, `MeteogramSymbols.parts`).
    static let weather: String = {
        let entries = WeatherCode.allCases.map { code in
            func parts(_ day: Bool) -> String { "[" + MeteogramSymbols.parts(code: code, isDay: day).map(JSONText.quoted).joined(separator: ",") + "]" }
            return "\"\(code.rawValue)\":{\"words\":\(JSONText.quoted(code.summary)),\"day\":\(parts(true)),\"night\":\(parts(false))}"
        }
        return "{" + entries.joined(separator: ",") + "}"
    }()

    /// JSON made safe inside a `<script>` element: no `<`, `>` or `&` at all (escaped as
    /// \u003c, \u003e, \u0026, the same string to JavaScript), so that no name can close the
    /// element (`</script>`) or switch the HTML tokenizer into its escaped states (`<!--`
    /// followed by `<script>` swallows the rest of the page); U+2028 and U+2029 escaped too
    /// (line terminators inside strings for older JavaScript). These
    /// characters only occur inside the JSON's strings, so the text stays the same JSON.
    static func scriptSafe(_ json: String) -> String {
        var out = ""
        out.unicodeScalars.reserveCapacity(json.unicodeScalars.count)
        for scalar in json.unicodeScalars {
            switch scalar {
            case "<": out += "\\u003c"
            case ">": out += "\\u003e"
            case "&": out += "\\u0026"
            case "\u{2028}": out += "\\u2028"
            case "\u{2029}": out += "\\u2029"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static let template = #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>TileCast forecast</title>
<link rel="icon" href="data:,">
<style>
/*STYLE*/
</style>
</head>
<body>
<!--SYMBOLS-->
<header><h1>TileCast forecast</h1></header>
<main>
<form id="find" role="search" aria-label="Choose a place">
  <div class="field" id="named">
    <label for="q">Place</label>
    <input id="q" autocomplete="off" placeholder="Type a name, or 38.72, -9.14" aria-describedby="q-hint" aria-controls="suggestions">
    <span id="q-hint" class="hint">Places in the area this server forecasts for, searched as you type</span>
    <div id="suggestions" class="suggestions" role="group" aria-label="Places found" hidden></div>
    <span id="suggestions-status" class="sr-only" role="status"></span>
  </div>
  <div class="coordinates">
    <div class="field"><label for="lat">Latitude</label><input id="lat" inputmode="decimal" autocomplete="off"></div>
    <div class="field"><label for="lon">Longitude</label><input id="lon" inputmode="decimal" autocomplete="off"></div>
  </div>
  <div class="buttons">
    <button type="submit">Show forecast</button>
    <button type="button" id="locate">Use my location</button>
  </div>
  <fieldset class="units">
    <legend>Units</legend>
    <div class="field"><label for="tunit">Temperature</label><select id="tunit"><option value="celsius">°C</option><option value="fahrenheit">°F</option></select></div>
    <div class="field"><label for="wunit">Wind</label><select id="wunit"><option value="kmh">km/h</option><option value="ms">m/s</option><option value="mph">mph</option><option value="kn">knots</option></select></div>
    <div class="field"><label for="punit">Rain</label><select id="punit"><option value="mm">mm</option><option value="inch">inch</option></select></div>
  </fieldset>
  <p id="locate-status" class="hint" role="status"></p>
</form>
<div id="error" class="error" role="alert" hidden></div>
<div id="loading" class="hint" hidden>Loading the forecast…</div>
<div id="content" hidden>
  <section aria-labelledby="place-name">
    <h2 id="place-name"></h2>
    <p id="zone" class="hint"></p>
    <p id="source"></p>
    <div id="warning" class="warning" hidden></div>
  </section>
  <section aria-labelledby="now-title" id="now">
    <h2 id="now-title">Now</h2>
    <div id="now-body"></div>
  </section>
  <section aria-labelledby="meteogram-title">
    <h2 id="meteogram-title">Next 48 hours</h2>
    <div id="alerts" class="alerts" hidden></div>
    <div id="meteogram" class="scrollbox" tabindex="0" role="region" aria-label="Meteogram of the next 48 hours (scrolls sideways)"></div>
    <div class="scrollbox" tabindex="0" role="region" aria-labelledby="hours-caption">
      <table id="hours"><caption id="hours-caption">Hour by hour</caption><thead></thead><tbody></tbody></table>
    </div>
  </section>
  <section aria-labelledby="aloft-title" id="aloft" hidden>
    <h2 id="aloft-title">Aloft</h2>
    <div class="scrollbox" tabindex="0" role="region" aria-labelledby="aloft-caption">
      <table id="aloft-table"><caption id="aloft-caption">Every third hour, above the ground</caption><thead></thead><tbody></tbody></table>
    </div>
    <p id="aloft-note" class="hint"></p>
  </section>
  <section aria-labelledby="days-title">
    <h2 id="days-title">Coming days</h2>
    <div class="scrollbox" tabindex="0" role="region" aria-labelledby="days-title">
      <table id="days"><thead></thead><tbody></tbody></table>
    </div>
    <p id="days-note" class="hint"></p>
  </section>
  <section aria-labelledby="domains-title">
    <h2 id="domains-title">Where the model is</h2>
    <div id="domains"></div>
  </section>
</div>
</main>
<footer class="hint">Forecasts from the model runs this server holds. The same numbers: <a id="api-link" href="/v1/forecast">/v1/forecast</a> (Open-Meteo's API), <a id="owm-link" href="/data/2.5/weather">/data/2.5/weather</a> (OpenWeatherMap's), <a id="qweather-link" href="/v7/weather/24h">/v7/weather/24h</a> (QWeather's), <a id="caiyun-link" href="/v2.5/TOKEN/0,0/weather">/v2.5/TOKEN/…/weather</a> (Caiyun's).</footer>
<script>
"use strict";
const places = /*PLACES*/[];
const WEATHER = /*WEATHER*/{};
/*SCRIPT*/
</script>
</body>
</html>
"""#
}
