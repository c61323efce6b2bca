/// The page's script: asks this server only (`/v1/cycles`, `/v1/forecast`, `/v1/meteogram.svg`, `/v1/search`),
/// never another host. "Now" is the server's (the forecast's `current` time and `/v1/cycles`'
/// `now`), not the browser's clock, so that a page and its numbers agree and tests can fix it.
enum PageScript {
    static let javascript = #"""
const $ = id => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const HOURLY = ["temperature_2m", "apparent_temperature", "precipitation", "weather_code", "is_day", "wind_speed_10m", "wind_direction_10m"];
const DAILY = ["weather_code", "temperature_2m_max", "temperature_2m_min", "precipitation_sum", "wind_speed_10m_max"];
const CURRENT = ["temperature_2m", "apparent_temperature", "relative_humidity_2m", "precipitation", "weather_code", "is_day",
  "cloud_cover", "wind_speed_10m", "wind_direction_10m", "pressure_msl"];
let generation = 0;
// The "Aloft" table's column headings; /v1/cycles says which of these the cycle holds.
const ALOFT = {wind_speed_100m: "Wind 100 m", temperature_850hPa: "850 hPa", wind_speed_850hPa: "Wind 850 hPa",
  temperature_700hPa: "700 hPa", temperature_500hPa: "500 hPa", freezing_level_height: "0 °C level", cape: "CAPE"};

function element(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = text;
  if (className) node.className = className;
  return node;
}

function number(value, decimals) {
  return value === null || value === undefined || !isFinite(value) ? "–" : Number(value).toFixed(decimals);
}

function compass(degrees) {
  if (degrees === null || degrees === undefined) return "";
  return ["N", "NE", "E", "SE", "S", "SW", "W", "NW"][Math.round(degrees / 45) % 8];
}

function weatherWords(code) {
  const known = code === null || code === undefined ? null : WEATHER[String(Math.round(code))];
  return known ? known.words : "No value";
}

/** The weather symbol, drawn from the page's copy of the meteogram's symbols. */
function symbol(code, isDay) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("class", "symbol");
  svg.setAttribute("viewBox", "0 0 32 32");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const known = code === null || code === undefined ? null : WEATHER[String(Math.round(code))];
  for (const part of known ? (isDay === 0 ? known.night : known.day) : []) {
    const use = document.createElementNS(SVG, "use");
    use.setAttribute("href", "#pg-" + part);
    svg.appendChild(use);
  }
  return svg;
}

function header(row, name, unit) {
  const cell = element("th", name);
  cell.scope = "col";
  if (unit) cell.appendChild(element("span", unit, "unit"));
  row.appendChild(cell);
}

/** "Sunday 22 November" for a local date. */
function dayName(date) {
  return new Date(date + "T12:00:00Z").toLocaleDateString("en-GB", {weekday: "long", day: "numeric", month: "long", timeZone: "UTC"});
}

function coordinates(latitude, longitude) {
  return Math.abs(latitude).toFixed(2) + "° " + (latitude < 0 ? "S" : "N") + ", " + Math.abs(longitude).toFixed(2) + "° " + (longitude < 0 ? "W" : "E");
}

function offsetText(seconds) {
  const sign = seconds < 0 ? "−" : "+", hours = Math.floor(Math.abs(seconds) / 3600), minutes = Math.abs(seconds) % 3600 / 60;
  return "UTC" + sign + hours + (minutes ? ":" + String(minutes).padStart(2, "0") : "");
}

/** A number as people type it: "38.72", "38,72" (a decimal comma) or "−9.14"; NaN otherwise. */
function typedNumber(text) {
  const t = String(text).trim().replace("−", "-");
  return /^[-+]?\d+([.,]\d+)?$/.test(t) ? Number(t.replace(",", ".")) : NaN;
}

/** Coordinates typed as a name: "38.72, -9.14", "38,72, -9,14", "38,72 -9,14"; else null. */
function typedCoordinates(text) {
  const match = String(text).trim().replace(/−/g, "-").match(/^([-+]?\d+(?:[.,]\d+)?)\s*[,;\s]\s*([-+]?\d+(?:[.,]\d+)?)$/);
  if (!match) return null;
  const latitude = typedNumber(match[1]), longitude = typedNumber(match[2]);
  return Math.abs(latitude) <= 90 && Math.abs(longitude) <= 180 ? {name: null, latitude: latitude, longitude: longitude} : null;
}

/** A name as searches compare it: lower case, accents dropped (the server's folding). */
function folded(text) {
  return String(text).trim().normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
}

/** "Lisbon, Portugal": a search result as the page names it. */
function resultLabel(result) {
  return result.country ? result.name + ", " + result.country : result.name;
}

// The last search's text and results (`/v1/search`), and the timer of the search being typed.
let searched = {text: null, results: []};
let searchTimer = null;

/** The places whose names start with `text` (Open-Meteo's Geocoding API of this server). */
async function searchPlaces(text) {
  if (searched.text === text) return searched.results;
  const answer = await getJSON("/v1/search?" + new URLSearchParams({name: text, count: "8", language: "en", format: "json"}));
  searched = {text: text, results: answer.results || []};
  return searched.results;
}

/** The search results under the field, as buttons: choosing one shows its forecast. */
function offer(results) {
  const box = $("suggestions");
  box.textContent = "";
  for (const result of results) {
    const button = element("button", result.name, "suggestion");
    button.type = "button";
    if (result.country) button.appendChild(element("span", result.country, "hint"));
    button.addEventListener("click", () => {
      $("q").value = resultLabel(result);
      hideSuggestions();
      show(null, {name: result.name, latitude: result.latitude, longitude: result.longitude});
    });
    box.appendChild(button);
  }
  box.hidden = results.length === 0;
  $("suggestions-status").textContent = results.length ? results.length + " places found" : "";
}

function hideSuggestions() {
  $("suggestions").hidden = true;
  $("suggestions").textContent = "";
}

/** Typing: a search once the typing pauses (a request per pause, not per key). */
function typed() {
  clearTimeout(searchTimer);
  const text = $("q").value.trim();
  if (folded(text).length < 2 || typedCoordinates(text)) { hideSuggestions(); return; }
  searchTimer = setTimeout(async () => {
    try {
      const results = await searchPlaces(text);
      if ($("q").value.trim() === text) offer(results);
    } catch (error) { $("suggestions-status").textContent = error.message; }
  }, 250);
}

/** The place the form names: coordinates typed in the search field, a named place of this
 *  server, the search's first result, or else the latitude and longitude fields. */
async function chosenPlace() {
  const typed = $("q").value.trim();
  if (typed) {
    const at = typedCoordinates(typed);
    if (at) {
      $("lat").value = String(at.latitude);
      $("lon").value = String(at.longitude);
      return at;
    }
    const wanted = folded(typed);
    let place = places.find(p => folded(p.name) === wanted) || null;
    if (!place) {
      // "Lisbon, Portugal" as offered: the search is for the name before the comma.
      const name = typed.includes(",") ? typed.slice(0, typed.indexOf(",")).trim() : typed;
      const results = await searchPlaces(name);
      place = results.find(r => folded(resultLabel(r)) === wanted || folded(r.name) === wanted) || results[0] || null;
    }
    if (!place) {
      throw new Error("No place called “" + typed + "” in the area this server forecasts for. Try the start of the name, " +
        "or type coordinates such as 38.72, -9.14.");
    }
    $("lat").value = String(place.latitude);
    $("lon").value = String(place.longitude);
    return {name: place.name, latitude: place.latitude, longitude: place.longitude};
  }
  const latitude = typedNumber($("lat").value), longitude = typedNumber($("lon").value);
  if (!isFinite(latitude) || Math.abs(latitude) > 90) {
    throw new Error("Latitude must be a number from −90 to 90, such as 38.7223 (or 38,7223). Given: “" + $("lat").value + "”.");
  }
  if (!isFinite(longitude) || Math.abs(longitude) > 180) {
    throw new Error("Longitude must be a number from −180 to 180, such as −9.1393 (or −9,1393). Given: “" + $("lon").value + "”.");
  }
  return {name: null, latitude: latitude, longitude: longitude};
}

function units() {
  return {temperature_unit: $("tunit").value, wind_speed_unit: $("wunit").value, precipitation_unit: $("punit").value};
}

// A server run with --api-keys wants the key on every API request: the page passes on the one
// its own address carries (http://host:8080/?apikey=KEY).
function withKey(url) {
  const key = new URLSearchParams(location.search).get("apikey");
  if (!key) return url;
  return url + (url.includes("?") ? "&" : "?") + "apikey=" + encodeURIComponent(key);
}

async function getJSON(url) {
  const reply = await fetch(withKey(url));
  let body = null;
  try { body = await reply.json(); } catch (e) { body = null; }
  if (!reply.ok || !body || body.error) throw new Error(body && body.reason ? body.reason : "The server answered " + reply.status + ".");
  return body;
}

async function getSVG(url) {
  const reply = await fetch(withKey(url));
  const text = await reply.text();
  if (!reply.ok) {
    let reason = null;
    try { reason = JSON.parse(text).reason; } catch (e) { reason = null; }
    throw new Error(reason || "The server answered " + reply.status + ".");
  }
  const root = new DOMParser().parseFromString(text, "image/svg+xml").documentElement;
  if (root.nodeName !== "svg") throw new Error("The meteogram could not be read.");
  return document.importNode(root, true);
}

/** The warnings at the place (`/v1/warnings`, asked only of a server with warning rules). */
function getWarnings(place) {
  return getJSON("/v1/warnings?" + new URLSearchParams({latitude: place.latitude, longitude: place.longitude}));
}

/** "Orange warning: Heavy rain, Sun 22 02:00 to 05:00 (local)": most severe first, above the meteogram. */
function renderAlerts(answer, offset) {
  const warnings = answer ? answer.warnings : [];
  for (const warning of warnings) {
    const level = warning.level.charAt(0).toUpperCase() + warning.level.slice(1);
    const line = element("p", level + " warning: " + warning.event + ", " + localSpan(warning.onset, warning.expires, offset) +
                         (warning.in_force ? " (in force)" : "") + ".");
    line.className = warning.level;
    $("alerts").appendChild(line);
  }
  $("alerts").hidden = warnings.length === 0;
  if (warnings.length) $("alerts").setAttribute("role", "alert");
}

/** A warning's span in the place's local time: "Sun 22 02:00 to 05:00", the day repeated when it changes. */
function localSpan(onset, expires, offset) {
  const at = text => new Date(Date.parse(text) + offset * 1000);
  const day = d => d.toLocaleDateString("en-GB", {weekday: "short", day: "numeric", timeZone: "UTC"});
  const time = d => d.toISOString().slice(11, 16);
  const from = at(onset), to = at(expires);
  return day(from) + " " + time(from) + " to " + (day(to) === day(from) ? "" : day(to) + " ") + time(to);
}

/** Empties everything a place showed, so that nothing of it stays beside an error. */
function clearContent() {
  for (const id of ["place-name", "zone", "source", "warning", "alerts", "now-body", "meteogram", "domains", "days-note"]) $(id).textContent = "";
  for (const id of ["hours", "days", "aloft-table"]) for (const part of $(id).querySelectorAll("thead, tbody")) part.textContent = "";
  $("aloft-note").textContent = "";
  $("warning").hidden = true;
  $("alerts").hidden = true;
  $("aloft").hidden = true;
}

function fail(message) {
  clearContent();
  $("content").hidden = true;
  $("loading").hidden = true;
  $("error").textContent = message;
  $("error").hidden = false;
}

async function show(event, picked) {
  if (event) event.preventDefault();
  // A search still waiting for the typing to pause is not wanted once the form is sent.
  clearTimeout(searchTimer);
  const mine = ++generation;
  // Loading from the start: a name may first need its search.
  $("loading").hidden = false;
  try {
    const place = picked || await chosenPlace();
    if (mine !== generation) return;
    hideSuggestions();
    const common = new URLSearchParams(Object.assign({latitude: place.latitude, longitude: place.longitude, timezone: "auto"}, units()));
    const query = new URLSearchParams(common);
    query.set("forecast_hours", "48");
    query.set("forecast_days", "7");
    query.set("hourly", HOURLY.join(","));
    query.set("daily", DAILY.join(","));
    query.set("current", CURRENT.join(","));
    const chart = new URLSearchParams(common);
    chart.set("forecast_hours", "48");
    $("loading").hidden = false;
    const [state, forecast, picture] = await Promise.all([getJSON("/v1/cycles"), getJSON("/v1/forecast?" + query),
                                                          getSVG("/v1/meteogram.svg?" + chart)]);
    if (mine !== generation) return;
    // The warnings, where the server has rules for them.
    const alerts = state.warning_rules ? await getWarnings(place) : null;
    if (mine !== generation) return;
    // Levels and column quantities, asked for only when the cycle holds them (--set all).
    const model = state.models.find(m => m.model === forecast.tilecast.model) || null;
    const aloftNames = model && model.aloft ? model.aloft : [];
    let aloft = null;
    if (aloftNames.length) {
      const above = new URLSearchParams(common);
      above.set("forecast_hours", "48");
      above.set("hourly", aloftNames.join(","));
      aloft = await getJSON("/v1/forecast?" + above);
      if (mine !== generation) return;
    }
    clearContent();
    render(place, state, forecast, picture);
    renderAlerts(alerts, forecast.utc_offset_seconds);
    if (aloft) renderAloft(aloft, aloftNames);
    $("api-link").href = "/v1/forecast?" + query;
    // The same place through the other services' APIs this server answers (README: apps written for other services).
    const key = new URLSearchParams(location.search).get("apikey");
    const owm = new URLSearchParams({lat: place.latitude, lon: place.longitude, units: "metric"});
    if (key) owm.set("appid", key);
    $("owm-link").href = "/data/2.5/weather?" + owm;
    const qweather = new URLSearchParams({location: place.longitude + "," + place.latitude, lang: "en"});
    if (key) qweather.set("key", key);
    $("qweather-link").href = "/v7/weather/24h?" + qweather;
    // Caiyun's token is in its path: the page's key, or a word any server without keys accepts.
    $("caiyun-link").href = "/v2.5/" + encodeURIComponent(key || "TOKEN") + "/" + place.longitude + "," + place.latitude + "/weather?lang=en_US";
    keepInAddress(place);
    $("error").hidden = true;
    $("loading").hidden = true;
    $("content").hidden = false;
  } catch (error) {
    if (mine === generation) fail(error.message);
  }
}

function render(place, state, forecast, picture) {
  const model = state.models.find(m => m.model === forecast.tilecast.model) || null;
  $("place-name").textContent = place.name ? place.name : coordinates(place.latitude, place.longitude);
  $("zone").textContent = (place.name ? coordinates(place.latitude, place.longitude) + ". " : "") +
    "Times are local: " + forecast.timezone + " (" + forecast.timezone_abbreviation + ", " + offsetText(forecast.utc_offset_seconds) + ")." +
    (forecast.elevation !== null ? " Elevation " + forecast.elevation + " m." : "");
  $("source").textContent = source(forecast.tilecast, model, state.now_unixtime);
  const warnings = model ? model.warnings.slice() : [];
  if (!forecast.hourly.temperature_2m.some(v => v !== null)) warnings.push("The run has no values for the next 48 hours here.");
  for (const text of warnings) $("warning").appendChild(element("p", text));
  $("warning").hidden = warnings.length === 0;
  if (warnings.length) $("warning").setAttribute("role", "alert");
  renderNow(forecast);
  $("meteogram").appendChild(picture);
  renderHours(forecast);
  renderDays(forecast, model);
  renderDomains(model, forecast, place);
}

/** "WRF 3 km (domain d02), run of today 00 UTC, 6 h ago." */
function source(tilecast, model, now) {
  const cycle = Date.parse(tilecast.cycle) / 1000;
  const nowDay = Math.floor(now / 86400), cycleDay = Math.floor(cycle / 86400);
  const date = new Date(cycle * 1000);
  const day = cycleDay === nowDay ? "today" : cycleDay === nowDay - 1 ? "yesterday"
    : date.toLocaleDateString("en-GB", {day: "numeric", month: "short", timeZone: "UTC"});
  const hour = String(date.getUTCHours()).padStart(2, "0");
  const age = now - cycle;
  const ago = age < 3600 ? "less than an hour ago" : age < 48 * 3600 ? Math.floor(age / 3600) + " h ago" : Math.floor(age / 86400) + " days ago";
  return tilecast.model.toUpperCase() + " " + tilecast.grid_spacing_km + " km (domain " + tilecast.domain + ")" +
    ", run of " + day + " " + hour + " UTC, " + ago + ".";
}

function renderNow(forecast) {
  const now = forecast.current || {}, u = forecast.current_units || {};
  $("now-title").textContent = "Now, " + (now.time ? now.time.slice(11, 16) : "") + " local time";
  const body = $("now-body");
  if (now.temperature_2m === null || now.temperature_2m === undefined) {
    body.appendChild(element("p", "The run has no values for now."));
    return;
  }
  const card = element("div", null, "now-card");
  const main = element("div", null, "now-main");
  main.appendChild(symbol(now.weather_code, now.is_day));
  main.appendChild(element("span", number(now.temperature_2m, 1) + " " + u.temperature_2m, "now-temp"));
  main.appendChild(element("span", weatherWords(now.weather_code)));
  card.appendChild(main);
  const list = element("dl");
  const rows = [["Feels like", number(now.apparent_temperature, 1) + " " + u.apparent_temperature],
    ["Wind", number(now.wind_speed_10m, 0) + " " + u.wind_speed_10m + " from " + compass(now.wind_direction_10m)],
    ["Rain (last hour)", number(now.precipitation, 1) + " " + u.precipitation],
    ["Humidity", number(now.relative_humidity_2m, 0) + " " + u.relative_humidity_2m],
    ["Cloud cover", number(now.cloud_cover, 0) + " " + u.cloud_cover],
    ["Pressure", number(now.pressure_msl, 0) + " " + u.pressure_msl]];
  for (const [name, value] of rows) { list.appendChild(element("dt", name)); list.appendChild(element("dd", value)); }
  card.appendChild(list);
  body.appendChild(card);
}

/** The next 48 hours from the current local hour; a row per hour the run covers. */
function renderHours(forecast) {
  const h = forecast.hourly, u = forecast.hourly_units;
  const head = $("hours").tHead.insertRow();
  header(head, "Time", null);
  header(head, "Weather", null);
  header(head, "Temperature", u.temperature_2m);
  header(head, "Feels like", u.apparent_temperature);
  header(head, "Rain", u.precipitation);
  header(head, "Wind", u.wind_speed_10m);
  const body = $("hours").tBodies[0];
  let day = null, shown = 0;
  for (let k = 0; k < h.time.length; k++) {
    if (h.temperature_2m[k] === null) continue;
    const date = h.time[k].slice(0, 10);
    if (date !== day) {
      day = date;
      const row = body.insertRow();
      row.className = "day";
      const cell = element("th", dayName(date));
      cell.colSpan = 6;
      cell.scope = "colgroup";
      row.appendChild(cell);
    }
    const row = body.insertRow();
    row.dataset.time = h.time[k];
    const time = element("th", h.time[k].slice(11, 16));
    time.scope = "row";
    row.appendChild(time);
    const weather = element("td", null, "weather");
    weather.appendChild(symbol(h.weather_code[k], h.is_day[k]));
    weather.appendChild(element("span", weatherWords(h.weather_code[k]), "words"));
    row.appendChild(weather);
    // Whole degrees, as forecasts for people print them (the meteogram and the API keep tenths).
    row.appendChild(element("td", number(h.temperature_2m[k], 0) + "°"));
    row.appendChild(element("td", number(h.apparent_temperature[k], 0) + "°"));
    row.appendChild(element("td", number(h.precipitation[k], 1)));
    row.appendChild(element("td", number(h.wind_speed_10m[k], 0) + " " + compass(h.wind_direction_10m[k]), "wind"));
    shown++;
  }
  const rest = h.time.length - shown;
  if (rest > 0) {
    const row = body.insertRow();
    const cell = element("td", shown ? rest + " of the next 48 hours lie beyond the run." : "The run has no values for the next 48 hours.");
    cell.colSpan = 6;
    row.appendChild(cell);
  }
}

/** Every third local hour of the next 48 the run covers: winds and temperatures aloft, the
 *  freezing level and CAPE, as far as the cycle holds them (a direction beside its speed). */
function renderAloft(answer, names) {
  const h = answer.hourly, u = answer.hourly_units;
  const columns = names.filter(name => ALOFT[name]);
  const head = $("aloft-table").tHead.insertRow();
  header(head, "Time", null);
  for (const name of columns) header(head, ALOFT[name], u[name]);
  const body = $("aloft-table").tBodies[0];
  let shown = 0;
  for (let k = 0; k < h.time.length; k++) {
    if (Number(h.time[k].slice(11, 13)) % 3 !== 0 || columns.every(name => h[name][k] === null)) continue;
    const row = body.insertRow();
    row.dataset.time = h.time[k];
    const day = new Date(h.time[k].slice(0, 10) + "T12:00:00Z").toLocaleDateString("en-GB", {weekday: "short", timeZone: "UTC"});
    const time = element("th", day + " " + h.time[k].slice(11, 16));
    time.scope = "row";
    row.appendChild(time);
    for (const name of columns) {
      const value = h[name][k];
      if (name.startsWith("wind_speed_")) {
        const direction = h[name.replace("wind_speed_", "wind_direction_")];
        row.appendChild(element("td", number(value, 0) + (value === null || !direction ? "" : " " + compass(direction[k])), "wind"));
      } else {
        row.appendChild(element("td", number(value, 0) + (name.startsWith("temperature_") && value !== null ? "°" : "")));
      }
    }
    shown++;
  }
  if (!shown) return;
  const levels = columns.filter(name => name.endsWith("hPa"));
  $("aloft-note").textContent = (levels.length ? "hPa columns: the air at that pressure level; a dash where the level lies below the ground. " : "") +
    (columns.includes("freezing_level_height") ? "0 °C level: height above sea level. " : "") +
    (columns.includes("cape") ? "CAPE: energy for thunderstorms, above about 1000 J/kg worth watching." : "");
  $("aloft").hidden = false;
}

/** The answering domain's first and last times, in seconds. */
function reach(model, domain) {
  const known = model ? (model.domains.find(d => d.domain === domain) || model) : null;
  return known ? {first: Date.parse(known.first) / 1000, last: Date.parse(known.last) / 1000} : null;
}

/** Seconds east of UTC in the answer's zone at the instant `t` (seconds): the browser's own
 *  zone rules (Intl); the answer's one offset when the browser does not know the zone. */
function zoneOffset(forecast, t) {
  try {
    const format = new Intl.DateTimeFormat("en-US", {timeZone: forecast.timezone, hourCycle: "h23", year: "numeric",
      month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit"});
    const p = Object.fromEntries(format.formatToParts(new Date(t * 1000)).map(part => [part.type, Number(part.value)]));
    return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) / 1000 - t;
  } catch (e) {
    return forecast.utc_offset_seconds;
  }
}

/** The instant (UTC seconds) of local midnight starting `date` (YYYY-MM-DD) in the answer's zone. */
function localMidnight(date, forecast) {
  const wall = Date.parse(date + "T00:00:00Z") / 1000;
  // Twice: the offset of a first guess, then the offset at the midnight it gives.
  const guess = wall - zoneOffset(forecast, wall);
  return wall - zoneOffset(forecast, guess);
}

/** The date after `date` (YYYY-MM-DD). */
function nextDate(date) {
  return new Date(Date.parse(date + "T00:00:00Z") + 86400000).toISOString().slice(0, 10);
}

/** Days the run covers: all of them, or marked partial with the local hours it has. */
function renderDays(forecast, model) {
  const d = forecast.daily, u = forecast.daily_units, span = reach(model, forecast.tilecast.domain);
  const head = $("days").tHead.insertRow();
  header(head, "Day", null);
  header(head, "Weather", null);
  header(head, "High", u.temperature_2m_max);
  header(head, "Low", u.temperature_2m_min);
  header(head, "Rain", u.precipitation_sum);
  header(head, "Wind", u.wind_speed_10m_max);
  const body = $("days").tBodies[0];
  let left = 0, partial = 0;
  for (let k = 0; k < d.time.length; k++) {
    // Local midnights in UTC seconds: a day on which daylight saving time changes has 23 or
    // 25 hours.
    const start = localMidnight(d.time[k], forecast), end = localMidnight(nextDate(d.time[k]), forecast);
    const from = span ? Math.max(start, span.first) : start, to = span ? Math.min(end, span.last) : end;
    if (to <= from) { left++; continue; }
    const row = body.insertRow();
    row.dataset.date = d.time[k];
    const name = element("th", dayName(d.time[k]));
    name.scope = "row";
    if (from > start || to < end) {
      partial++;
      row.dataset.partial = "true";
      const clock = t => new Date((t + zoneOffset(forecast, t)) * 1000).toISOString().slice(11, 16);
      name.appendChild(element("span", "partial: " + clock(from) + "–" + (to === end ? "24:00" : clock(to)) + " only", "partial"));
    }
    row.appendChild(name);
    const weather = element("td", null, "weather");
    weather.appendChild(symbol(d.weather_code[k], 1));
    weather.appendChild(element("span", weatherWords(d.weather_code[k]), "words"));
    row.appendChild(weather);
    for (const [value, decimals, mark] of [[d.temperature_2m_max[k], 0, "°"], [d.temperature_2m_min[k], 0, "°"],
                                           [d.precipitation_sum[k], 1, ""], [d.wind_speed_10m_max[k], 0, ""]]) {
      row.appendChild(element("td", number(value, decimals) + (value === null ? "" : mark)));
    }
  }
  const notes = [];
  if (partial) notes.push("A partial day's rain, like any total or average, is unknown (–); its high and low are those of the hours the run covers, and unknown on the day the run ends.");
  if (left) notes.push(left + " of the next " + d.time.length + " days lie beyond the run and are left out.");
  $("days-note").textContent = notes.join(" ");
}
"""# + domainScript

    /// The picture of where the model is, and the page's start.
    static let domainScript = #"""

/** Outlines of the answering model's domains in longitude/latitude, the place marked. */
function renderDomains(model, forecast, place) {
  if (!model || !model.domains.length) return;
  const points = model.domains.flatMap(d => d.outline).concat([[place.longitude, place.latitude]]);
  const lons = points.map(p => p[0]), lats = points.map(p => p[1]);
  let west = Math.min(...lons), east = Math.max(...lons), south = Math.min(...lats), north = Math.max(...lats);
  const padX = (east - west) * 0.06 + 0.05, padY = (north - south) * 0.06 + 0.05;
  west -= padX; east += padX; south -= padY; north += padY;
  const squeeze = Math.cos((south + north) / 2 * Math.PI / 180);
  const width = 320, height = Math.max(120, Math.min(300, Math.round(width * (north - south) / ((east - west) * squeeze))));
  const x = lon => ((lon - west) / (east - west) * width).toFixed(1), y = lat => ((north - lat) / (north - south) * height).toFixed(1);
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 " + width + " " + height);
  svg.setAttribute("width", width);
  svg.setAttribute("height", height);
  svg.setAttribute("role", "img");
  const described = model.domains.map(d => {
    const la = d.outline.map(p => p[1]), lo = d.outline.map(p => p[0]);
    return d.domain + " (" + d.grid_spacing_km + " km): latitude " + Math.min(...la).toFixed(1) + " to " + Math.max(...la).toFixed(1) +
      ", longitude " + Math.min(...lo).toFixed(1) + " to " + Math.max(...lo).toFixed(1);
  });
  const title = document.createElementNS(SVG, "title");
  title.textContent = "Domains of " + model.model.toUpperCase() + ": " + described.join("; ") + ". The place, " +
    coordinates(place.latitude, place.longitude) + ", is answered by " + forecast.tilecast.domain + ".";
  svg.appendChild(title);
  for (const d of model.domains) {
    const shape = document.createElementNS(SVG, "polygon");
    shape.setAttribute("points", d.outline.map(p => x(p[0]) + "," + y(p[1])).join(" "));
    const chosen = d.domain === forecast.tilecast.domain;
    shape.setAttribute("fill", chosen ? "#d6eaf8" : "none");
    shape.setAttribute("fill-opacity", "0.6");
    shape.setAttribute("stroke", chosen ? "#0b57a4" : "#545454");
    shape.setAttribute("stroke-width", chosen ? "2" : "1");
    shape.setAttribute("class", "domain-outline");
    svg.appendChild(shape);
    const corner = d.outline.reduce((best, p) => (p[1] - p[0] > best[1] - best[0] ? p : best), d.outline[0]);
    const label = document.createElementNS(SVG, "text");
    label.setAttribute("x", Number(x(corner[0])) + 3);
    label.setAttribute("y", Number(y(corner[1])) + 12);
    label.setAttribute("font-size", "11");
    label.setAttribute("fill", "#1b1b1b");
    label.textContent = d.domain + " " + d.grid_spacing_km + " km";
    svg.appendChild(label);
  }
  const dot = document.createElementNS(SVG, "circle");
  dot.setAttribute("cx", x(place.longitude));
  dot.setAttribute("cy", y(place.latitude));
  dot.setAttribute("r", "5");
  dot.setAttribute("fill", "#c0392b");
  dot.setAttribute("stroke", "#fff");
  dot.setAttribute("class", "place");
  svg.appendChild(dot);
  $("domains").appendChild(svg);
  $("domains").appendChild(element("p", title.textContent, "hint"));
}

/** The address keeps the place and units, so that a link opens the same forecast. */
function keepInAddress(place) {
  const query = new URLSearchParams();
  if (place.name) query.set("place", place.name);
  query.set("lat", String(place.latitude));
  query.set("lon", String(place.longitude));
  const chosen = units(), defaults = {temperature_unit: "celsius", wind_speed_unit: "kmh", precipitation_unit: "mm"};
  for (const key of Object.keys(chosen)) if (chosen[key] !== defaults[key]) query.set(key, chosen[key]);
  history.replaceState(null, "", "?" + query.toString());
}

/** The finest domain's centre, for a server without named places. */
async function defaultPlace() {
  const state = await getJSON("/v1/cycles");
  const domains = state.models.flatMap(m => m.domains).sort((a, b) => a.grid_spacing_km - b.grid_spacing_km);
  if (!domains.length) throw new Error("The store holds no cycle yet.");
  const outline = domains[0].outline;
  const mean = k => outline.reduce((sum, p) => sum + p[k], 0) / outline.length;
  return {latitude: Number(mean(1).toFixed(4)), longitude: Number(mean(0).toFixed(4))};
}

async function start() {
  const address = new URLSearchParams(location.search);
  for (const [key, id] of [["temperature_unit", "tunit"], ["wind_speed_unit", "wunit"], ["precipitation_unit", "punit"]]) {
    if (address.has(key) && [...$(id).options].some(o => o.value === address.get(key))) $(id).value = address.get(key);
  }
  const latitude = typedNumber(address.get("lat") || ""), longitude = typedNumber(address.get("lon") || "");
  if (address.has("place") && isFinite(latitude) && isFinite(longitude)) {
    // A shared link: the name it was made with, at its coordinates (no search).
    $("q").value = address.get("place");
    $("lat").value = String(latitude);
    $("lon").value = String(longitude);
    show(null, {name: address.get("place"), latitude: latitude, longitude: longitude});
    return;
  }
  if (address.has("place")) {
    $("q").value = address.get("place");
  } else if (address.has("lat") || address.has("lon")) {
    $("lat").value = address.get("lat") || "";
    $("lon").value = address.get("lon") || "";
  } else if (places.length) {
    $("q").value = places[0].name;
  } else {
    try {
      const place = await defaultPlace();
      $("lat").value = String(place.latitude);
      $("lon").value = String(place.longitude);
    } catch (error) { fail(error.message); return; }
  }
  show();
}

// Enter in the search field sends the form once: the field has no "change" handler of its
// own (it had one, and Enter then asked for every forecast twice).
$("find").addEventListener("submit", show);
$("q").addEventListener("input", typed);
for (const id of ["lat", "lon"]) $(id).addEventListener("input", () => { $("q").value = ""; hideSuggestions(); });
for (const id of ["tunit", "wunit", "punit"]) $(id).addEventListener("change", () => show());
$("locate").addEventListener("click", () => {
  const status = $("locate-status");
  if (!navigator.geolocation) { status.textContent = "This browser cannot tell where it is."; return; }
  status.textContent = "Asking the browser where you are…";
  navigator.geolocation.getCurrentPosition(position => {
    $("q").value = "";
    $("lat").value = position.coords.latitude.toFixed(4);
    $("lon").value = position.coords.longitude.toFixed(4);
    status.textContent = "";
    show();
  }, error => { status.textContent = "No location from the browser: " + error.message; }, {timeout: 15000});
});
start();
"""#
}
