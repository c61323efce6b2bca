/// `GET /`: one self-contained page for people (no CDN, fonts or external scripts): a place,
/// the next 24 hours, the coming days, and a chart of one chosen metric (the meteogram SVG).
enum Page {
    /// The page, with the named places (if any) offered in a list; the first one is shown first.
    static func html(places: [NamedPlace]) -> String {
        let list = "[" + places.map { place in
            "{\"name\":\(JSONText.quoted(place.name)),\"latitude\":\(JSONText.number(place.latitude)),\"longitude\":\(JSONText.number(place.longitude))}"
        }.joined(separator: ",") + "]"
        return template.replacingOccurrences(of: "/*PLACES*/[]", with: scriptSafe(list))
    }

    /// JSON made safe inside a `<script>` element: no `<`, `>` or `&` at all (escaped as
    /// \u003c, \u003e, \u0026, the same string to JavaScript), so that no name can close the
    /// element (`</script>`) or switch the HTML tokenizer into its escaped states (`<!--`
    /// followed by `<script>` swallowed the rest of the page, issue 27 item 8); U+2028 and
    /// U+2029 escaped too (line terminators inside strings for older JavaScript). These
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
<style>
body { font-family: sans-serif; margin: 1.5em; color: #222; }
form { display: flex; flex-wrap: wrap; gap: .6em; align-items: end; margin-bottom: 1em; }
label { display: flex; flex-direction: column; font-size: .85em; }
input { width: 8em; }
table { border-collapse: collapse; font-size: .85em; margin: .5em 0 1.5em; }
th, td { border-bottom: 1px solid #ddd; padding: .2em .6em; text-align: right; }
#error { color: #a00; }
#source { color: #666; font-size: .85em; }
</style>
</head>
<body>
<h1>TileCast forecast</h1>
<form id="place">
  <label id="named" hidden>Place <select id="places"></select></label>
  <label>Latitude <input id="lat" value="38.7223"></label>
  <label>Longitude <input id="lon" value="-9.1393"></label>
  <label>Chart <select id="metric">
    <option value="temperature_2m">temperature</option>
    <option value="precipitation">precipitation</option>
    <option value="wind_speed_10m">wind speed</option>
    <option value="relative_humidity_2m">humidity</option>
  </select></label>
  <label>Temperature <select id="tunit"><option>celsius</option><option>fahrenheit</option></select></label>
  <label>Wind <select id="wunit"><option>kmh</option><option>ms</option><option>mph</option><option>kn</option></select></label>
  <button type="submit">Show</button>
</form>
<p id="error"></p>
<p id="source"></p>
<h2>Chart</h2>
<div><img id="chart" alt="chart of the chosen metric" width="800" height="320"></div>
<h2>Next 24 hours</h2>
<table id="hours"></table>
<h2>Coming days</h2>
<table id="days"></table>
<script>
"use strict";
const places = /*PLACES*/[];
const hourly = ["temperature_2m", "precipitation", "wind_speed_10m", "relative_humidity_2m"];
const daily = ["temperature_2m_max", "temperature_2m_min", "precipitation_sum"];
let startDate = null;

function cell(row, text, header) {
  const c = document.createElement(header ? "th" : "td");
  c.textContent = text === null || text === undefined ? "-" : String(text);
  row.appendChild(c);
}

function fill(table, times, columns, units, limit) {
  table.textContent = "";
  const head = table.insertRow();
  cell(head, "time", true);
  for (const name of columns) cell(head, name + " (" + units[name] + ")", true);
  let shown = 0;
  for (let k = 0; k < times.length && shown < limit; k++) {
    if (columns.every(name => columns.length && (arguments[5][name] || [])[k] === null)) continue;
    const row = table.insertRow();
    cell(row, times[k]);
    for (const name of columns) cell(row, arguments[5][name][k]);
    shown++;
  }
}

async function cycleStart() {
  const reply = await fetch("/health");
  const body = await reply.json();
  const cycles = Object.values(body.cycles || {}).sort();
  return cycles.length ? cycles[cycles.length - 1].slice(0, 10) : null;
}

function addDays(date, days) {
  const d = new Date(date + "T00:00:00Z");
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

async function show(event) {
  if (event) event.preventDefault();
  const error = document.getElementById("error");
  error.textContent = "";
  if (!startDate) startDate = await cycleStart();
  if (!startDate) { error.textContent = "The store holds no cycle yet."; return; }
  const common = new URLSearchParams({
    latitude: document.getElementById("lat").value, longitude: document.getElementById("lon").value,
    temperature_unit: document.getElementById("tunit").value, wind_speed_unit: document.getElementById("wunit").value,
    start_date: startDate, end_date: addDays(startDate, 6)
  });
  const query = new URLSearchParams(common);
  query.set("hourly", hourly.join(","));
  query.set("daily", daily.join(","));
  const reply = await fetch("/v1/forecast?" + query);
  const body = await reply.json();
  if (body.error) { error.textContent = body.reason; return; }
  const p = body.tilecast;
  const chosen = document.getElementById("places");
  const named = places.length && chosen.value !== "" ? places[Number(chosen.value)] : null;
  const here = named && String(named.latitude) === document.getElementById("lat").value
    && String(named.longitude) === document.getElementById("lon").value ? named.name + ": " : "";
  document.getElementById("source").textContent = here +
    p.model + " cycle " + p.cycle + ", " + p.domain + " (" + p.grid_spacing_km + " km), elevation " + body.elevation + " m";
  fill(document.getElementById("hours"), body.hourly.time, hourly, body.hourly_units, 24, body.hourly);
  fill(document.getElementById("days"), body.daily.time, daily, body.daily_units, 16, body.daily);
  const chart = new URLSearchParams(common);
  chart.set("hourly", document.getElementById("metric").value);
  chart.set("end_date", addDays(startDate, 1));
  document.getElementById("chart").src = "/v1/meteogram.svg?" + chart;
}

function choosePlace() {
  const place = places[Number(document.getElementById("places").value)];
  if (!place) return;
  document.getElementById("lat").value = String(place.latitude);
  document.getElementById("lon").value = String(place.longitude);
}

if (places.length) {
  const list = document.getElementById("places");
  places.forEach((place, k) => {
    const option = document.createElement("option");
    option.value = String(k);
    option.textContent = place.name;
    list.appendChild(option);
  });
  document.getElementById("named").hidden = false;
  choosePlace();
  list.addEventListener("change", () => { choosePlace(); show(); });
}
document.getElementById("place").addEventListener("submit", show);
document.getElementById("metric").addEventListener("change", show);
show();
</script>
</body>
</html>
"""#
}
