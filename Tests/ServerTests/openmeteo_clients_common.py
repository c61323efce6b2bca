"""What the client-library scripts (openmeteo_client_*.py) share: the request a weather app
sends, and the reference they check a library against. The reference is the server's own JSON
for the same request, fetched with plain urllib and json, so a library's parsing is compared
with a path that shares none of its code. ServerTests.ClientLibrariesTests runs the scripts.

Each script prints one JSON object: the library's name and installed version, and for the
request for one place and the request for many places one summary per place (its coordinates,
the number of values and of nulls in every column the library parsed, and every difference from
the reference). A script exits 1 when the library raised or differed; the summary says where."""
import json, math, sys, urllib.parse, urllib.request
from datetime import datetime, timezone
from importlib.metadata import version

# Lisbon (inside WRF's 3 km nest d02), a place in WRF's 9 km d01 only, and Madrid (outside
# WRF: only the MM5 run covers it, and it has no cloud cover, so no weather_code).
PLACES = [(38.7223, -9.1393), (39.5, -8.0), (40.4168, -3.7038)]
HOURLY = ["temperature_2m", "precipitation", "wind_speed_10m", "wind_direction_10m", "weather_code", "wind_gusts_10m",
          "precipitation_probability"]
DAILY = ["temperature_2m_max", "temperature_2m_min", "precipitation_sum", "precipitation_probability_max", "uv_index_max"]
CURRENT = ["temperature_2m", "wind_gusts_10m"]
# Known to Open-Meteo, absent from the sample run: they must come back as columns of nulls.
# (precipitation_probability_max is served since issue 46: one cycle's neighbourhood fraction.)
MISSING = {"hourly": ["wind_gusts_10m"], "daily": ["uv_index_max"],
           "current": ["wind_gusts_10m"]}
# Today only: the test's server clock is 2026-11-22T02:10Z, inside the sample run.
FORECAST_DAYS = 1
TIMEZONE = "UTC"


def base_url():
    return sys.argv[1].rstrip("/")


def reference(places):
    """The server's JSON for the same request, one object per place (urllib + json only)."""
    query = {"latitude": ",".join(str(lat) for lat, _ in places),
             "longitude": ",".join(str(lon) for _, lon in places),
             "hourly": ",".join(HOURLY), "daily": ",".join(DAILY), "current": ",".join(CURRENT),
             "forecast_days": FORECAST_DAYS, "timezone": TIMEZONE}
    with urllib.request.urlopen(base_url() + "/v1/forecast?" + urllib.parse.urlencode(query)) as answer:
        body = json.load(answer)
    return body if isinstance(body, list) else [body]


def is_null(value):
    return value is None or (isinstance(value, float) and math.isnan(value))


def unix_seconds(iso_time, utc_offset_seconds):
    """Open-Meteo's local ISO times ("2026-11-22T00:00" or a bare date) as unix seconds."""
    text = iso_time if "T" in iso_time else iso_time + "T00:00"
    local = datetime.strptime(text, "%Y-%m-%dT%H:%M").replace(tzinfo=timezone.utc)
    return int(local.timestamp()) - utc_offset_seconds


def compare_column(where, got, want, tolerance, mismatches):
    """One column: same length, nulls where the reference has null, equal values elsewhere."""
    got = list(got)
    if len(got) != len(want):
        mismatches.append(f"{where}: {len(got)} values, the JSON has {len(want)}")
        return
    for index, (a, b) in enumerate(zip(got, want)):
        if is_null(a) != is_null(b) or (not is_null(b) and abs(float(a) - float(b)) > tolerance):
            mismatches.append(f"{where}[{index}]: library {a!r}, JSON {b!r}")
            return


def summarize(place, parsed, json_place, tolerance=0.0):
    """A place's summary. `parsed` is what the library gave: latitude, longitude, and for
    "hourly" and "daily" {"time": [unix seconds], name: [values]}, for "current" {"time": unix
    seconds, name: value}; every requested name must be there (a missing one is a difference)."""
    mismatches, columns = [], {}
    offset = json_place["utc_offset_seconds"]
    for coordinate, asked in zip(("latitude", "longitude"), place):
        if abs(parsed[coordinate] - json_place[coordinate]) > 1e-4 or abs(parsed[coordinate] - asked) > 1e-4:
            mismatches.append(f"{coordinate}: library {parsed[coordinate]}, JSON {json_place[coordinate]}, asked {asked}")
    for section, names in (("hourly", HOURLY), ("daily", DAILY)):
        block = parsed.get(section) or {}
        want_times = [unix_seconds(t, offset) for t in json_place[section]["time"]]
        if list(block.get("time", [])) != want_times:
            mismatches.append(f"{section}.time: library {list(block.get('time', []))[:3]}..., JSON {want_times[:3]}...")
        for name in names:
            if name not in block:
                mismatches.append(f"{section}.{name}: not parsed by the library")
                continue
            values = list(block[name])
            compare_column(f"{section}.{name}", values, json_place[section][name], tolerance, mismatches)
            columns[f"{section}.{name}"] = {"n": len(values), "null": sum(is_null(v) for v in values)}
    current = parsed.get("current") or {}
    if current.get("time") != unix_seconds(json_place["current"]["time"], offset):
        mismatches.append(f"current.time: library {current.get('time')}, JSON {json_place['current']['time']}")
    for name in CURRENT:
        if name not in current:
            mismatches.append(f"current.{name}: not parsed by the library")
            continue
        compare_column(f"current.{name}", [current[name]], [json_place["current"][name]], tolerance, mismatches)
        columns[f"current.{name}"] = {"n": 1, "null": int(is_null(current[name]))}
    return {"latitude": parsed["latitude"], "longitude": parsed["longitude"], "columns": columns, "mismatches": mismatches}


def report(library, distributions, single, many):
    """Prints the summary and exits 1 when anything differed."""
    out = {"library": library, "versions": {name: version(name) for name in distributions},
           "single": single, "many": many}
    print(json.dumps(out))
    bad = [m for place in single + many for m in place["mismatches"]]
    if bad:
        print(f"{library}: {len(bad)} differences from the server's JSON:\n" + "\n".join(bad), file=sys.stderr)
        sys.exit(1)
