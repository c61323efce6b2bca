"""Two OpenWeatherMap client libraries from PyPI, unmodified, against tilecast serve.

- pyowm 3.5: its documented configuration sends its requests through an HTTP proxy
  (`connection.use_proxy` with `proxies`, `use_ssl` off); the proxy given is the test's server,
  which so receives pyowm's own requests (absolute URLs of api.openweathermap.org: their path
  and every parameter are pyowm's). Current weather, the 3-hour forecast (and One Call when the
  server answers it), in pyowm's default units (standard: Kelvin, m/s).
- pyopenweathermap 0.3 (Home Assistant's): it has no base-URL option; its modules' URL
  constants (free_client.CURRENT_WEATHER_API_URL, FORECAST_API_URL, onecall_client.API_URL) are
  set to the server's. Both its modes: the free API ('current', 'forecast') and One Call
  ('v3.0'), in metric and imperial units.

Every value a library parsed is held against the server's own /v1/forecast (fetched with plain
urllib) for the same place and time, converted here to OpenWeatherMap's units and types by
OpenWeatherMap's documented rules, and the condition id derived here from /v1/forecast's
weather_code and cloud cover by OpenWeatherMap's table of condition codes (an independent
statement of tilecast's Conditions/WeatherConditions.swift).

Arguments: the server's base URL, the server's clock (unix seconds), and "onecall" to include
One Call. Output (stdout): a JSON summary {"versions", "checked": {call: values compared},
"mismatches": [...]}.
"""
import asyncio, json, math, sys, urllib.parse, urllib.request
from importlib.metadata import version

BASE, NOW = sys.argv[1], int(sys.argv[2])
ONECALL = len(sys.argv) > 3 and sys.argv[3] == "onecall"
PLACES = [(38.7223, -9.1393), (39.5, -8.0)]
VARIABLES = ("precipitation_probability,temperature_2m,apparent_temperature,relative_humidity_2m,dew_point_2m,pressure_msl,surface_pressure,"
             "cloud_cover,wind_speed_10m,wind_direction_10m,wind_gusts_10m,visibility,precipitation,"
             "snowfall_water_equivalent,weather_code,is_day")
WMO_TO_OWM = {45: 741, 48: 741, 51: 300, 53: 301, 55: 302, 56: 511, 57: 511, 61: 500, 63: 501, 65: 502, 66: 511,
              67: 511, 71: 600, 73: 601, 75: 602, 80: 520, 81: 521, 82: 522, 85: 620, 86: 621, 95: 211, 96: 212, 99: 212}
GROUPS = {2: "Thunderstorm", 3: "Drizzle", 5: "Rain", 6: "Snow", 7: "Fog", 8: "Clouds"}
ICONS = {800: "01", 801: "02", 802: "03", 803: "04", 804: "04", 741: "50", 511: "13"}

checked, mismatches = {}, []


def v1(params):
    """The server's /v1/forecast answer (plain urllib: another path than the libraries')."""
    with urllib.request.urlopen(BASE + "/v1/forecast?" + urllib.parse.urlencode(params), timeout=30) as reply:
        return json.load(reply)


def whole(x):
    return None if x is None else int(math.floor(x + 0.5))


def kelvin(c):
    return None if c is None else (round(c * 100) + 27315) / 100


def expected_row(row, units):
    """OpenWeatherMap's values of one /v1/forecast row (a dict of its columns at one time)."""
    temp = (lambda c: kelvin(c)) if units == "standard" else (lambda c: c)
    code, clouds = row["weather_code"], whole(row["cloud_cover"])
    if code is None:
        condition = None
    else:
        code = int(code)
        if code <= 3:
            oid = 800 if clouds <= 10 else 801 if clouds <= 25 else 802 if clouds <= 50 else 803 if clouds <= 84 else 804
        else:
            oid = WMO_TO_OWM[code]
        group = "Clear" if oid == 800 else GROUPS[oid // 100]
        icon = ICONS.get(oid) or {2: "11", 3: "09", 6: "13"}.get(oid // 100) or ("09" if 520 <= oid <= 531 else "10")
        condition = (oid, group, icon + ("d" if row["is_day"] == 1 else "n"))
    snow = row["snowfall_water_equivalent"]
    liquid = None if row["precipitation"] is None else round(row["precipitation"] - (snow or 0), 2)
    return {
        "temp": temp(row["temperature_2m"]), "feels_like": temp(row["apparent_temperature"]),
        "pressure": whole(row["pressure_msl"]), "grnd_level": whole(row["surface_pressure"]),
        "humidity": whole(row["relative_humidity_2m"]), "clouds": clouds,
        "wind_speed": row["wind_speed_10m"], "wind_deg": whole(row["wind_direction_10m"]),
        "wind_gust": row["wind_gusts_10m"],
        "visibility": None if row["visibility"] is None else min(10000, whole(row["visibility"])),
        "rain": liquid if liquid and liquid > 0 else None, "snow": snow if snow else None, "condition": condition,
    }


def pop(percent):
    """OpenWeatherMap's pop (0-1) of /v1/forecast's precipitation_probability (whole percent)."""
    return None if percent is None else round(percent / 100, 2)


def reference_units(units):
    return {"temperature_unit": "fahrenheit" if units == "imperial" else "celsius",
            "wind_speed_unit": "mph" if units == "imperial" else "ms", "precipitation_unit": "mm", "timeformat": "unixtime"}


HOUR_AMOUNTS = ("precipitation", "snowfall_water_equivalent", "weather_code")


def over_the_hour(answer):
    """`current` with OpenWeatherMap's rain.1h and snow.1h, the last hour's (/v1/forecast's
    current amounts are the quarter hour's), and the weather code made from them: the hourly
    row at the current time, whose amounts are the hour's before it (NOW is on a quarter hour
    that is a whole hour, so that row exists)."""
    row = dict(answer["current"])
    k = answer["hourly"]["time"].index(row["time"])
    for name in HOUR_AMOUNTS:
        row[name] = answer["hourly"][name][k]
    return row


def reference_current(lat, lon, units):
    answer = v1({"latitude": lat, "longitude": lon, "current": VARIABLES, "hourly": ",".join(HOUR_AMOUNTS),
                 "daily": "sunrise,sunset", "forecast_days": 1, "timezone": "auto", **reference_units(units)})
    row = expected_row(over_the_hour(answer), units)
    row.update(dt=answer["current"]["time"], sunrise=answer["daily"]["sunrise"][0], sunset=answer["daily"]["sunset"][0],
               offset=answer["utc_offset_seconds"])
    return row


def reference_three_hourly(lat, lon, units):
    answer = v1({"latitude": lat, "longitude": lon, "hourly": VARIABLES, "temporal_resolution": "hourly_3",
                 "forecast_days": 6, "timezone": "GMT", **reference_units(units)})
    hourly, rows = answer["hourly"], []
    for k, time in enumerate(hourly["time"]):
        if time <= NOW or len(rows) == 40:
            continue
        if hourly["temperature_2m"][k] is None:
            break
        row = expected_row({name: hourly[name][k] for name in hourly}, units)
        row["dt"] = time
        row["pop"] = pop(hourly["precipitation_probability"][k])
        rows.append(row)
    return rows


DAILY = ("temperature_2m_min,temperature_2m_max,weather_code,cloud_cover_mean,relative_humidity_2m_mean,pressure_msl_mean,"
         "dew_point_2m_mean,wind_speed_10m_max,wind_direction_10m_dominant,precipitation_sum,snowfall_water_equivalent_sum,moon_phase,"
         "precipitation_probability_max")
SKY = {0: 800, 1: 801, 2: 802, 3: 804}


def reference_one_call(lat, lon, units):
    """One Call's current, minutely, hourly and daily from /v1/forecast (the place's zone)."""
    temp = kelvin if units == "standard" else (lambda c: c)
    answer = v1({"latitude": lat, "longitude": lon, "current": VARIABLES, "hourly": VARIABLES, "daily": DAILY,
                 "minutely_15": "precipitation", "forecast_minutely_15": 7, "forecast_days": 8, "timezone": "auto",
                 **reference_units(units)})
    current = expected_row(over_the_hour(answer), units)
    current.update(dt=answer["current"]["time"], dew_point=temp(answer["current"]["dew_point_2m"]))
    hourly, by_time = answer["hourly"], {}
    for k, time in enumerate(hourly["time"]):
        by_time[time] = {name: hourly[name][k] for name in hourly}
    hours = []
    for k in range(48):
        time = NOW // 3600 * 3600 + k * 3600
        if time not in by_time or by_time[time]["temperature_2m"] is None:
            break
        row = expected_row(by_time[time], units)
        row.update(dt=time, dew_point=temp(by_time[time]["dew_point_2m"]), pop=pop(by_time[time]["precipitation_probability"]))
        hours.append(row)
    quarters = dict(zip(answer["minutely_15"]["time"], answer["minutely_15"]["precipitation"]))
    minutes = []
    for k in range(60):
        minute = NOW // 60 * 60 + k * 60
        amount = quarters.get((minute + 60 + 899) // 900 * 900)
        if amount is None:
            break
        minutes.append({"dt": minute, "precipitation": round(amount * 4, 2)})
    daily, days = answer["daily"], []
    for d, start in enumerate(daily["time"][:8]):
        parts = {h: by_time.get(start + h * 3600, {}).get("temperature_2m") for h in (0, 6, 12, 18)}
        feels = {h: by_time.get(start + h * 3600, {}).get("apparent_temperature") for h in (0, 6, 12, 18)}
        if daily["temperature_2m_max"][d] is None or daily["weather_code"][d] is None or None in parts.values():
            break
        code = int(daily["weather_code"][d])
        oid = SKY.get(code) or WMO_TO_OWM[code]
        liquid = round(daily["precipitation_sum"][d] - (daily["snowfall_water_equivalent_sum"][d] or 0), 2)
        days.append({"dt": start + 43200, "temp": {"day": temp(parts[12]), "min": temp(daily["temperature_2m_min"][d]),
                     "max": temp(daily["temperature_2m_max"][d]), "night": temp(parts[0]), "eve": temp(parts[18]),
                     "morn": temp(parts[6])}, "feels_day": temp(feels[12]), "pressure": whole(daily["pressure_msl_mean"][d]),
                     "humidity": whole(daily["relative_humidity_2m_mean"][d]), "dew_point": temp(daily["dew_point_2m_mean"][d]),
                     "wind_speed": daily["wind_speed_10m_max"][d], "wind_deg": whole(daily["wind_direction_10m_dominant"][d]),
                     "clouds": whole(daily["cloud_cover_mean"][d]), "rain": liquid if liquid and liquid > 0 else None, "id": oid,
                     "pop": pop(daily["precipitation_probability_max"][d])})
    return current, minutes, hours, days


def compare_all(call, got_rows, want_rows):
    if len(got_rows) != len(want_rows) or not want_rows:
        mismatches.append(f"{call}: {len(got_rows)} entries, /v1/forecast covers {len(want_rows)}")
    for got, want in zip(got_rows, want_rows):
        compare(call, got, want)


def compare(call, got, want):
    """Each field's parsed value against the reference (numbers to 1e-9: the same decimals)."""
    checked[call] = checked.get(call, 0)
    for name, value in want.items():
        if name not in got:
            continue
        mine = got[name]
        checked[call] += 1
        same = (mine is None and value is None) or (
            mine is not None and value is not None and (
                abs(mine - value) < 1e-9 if isinstance(value, (int, float)) and not isinstance(value, bool) else mine == value))
        if not same:
            mismatches.append(f"{call} {name}: parsed {mine!r}, /v1/forecast gives {value!r}")


def pyowm_weather(w, dt_only=False):
    """What pyowm parsed of one Weather, in the reference's names."""
    rain = w.rain.get("1h", w.rain.get("3h")) if w.rain else None
    snow = w.snow.get("1h", w.snow.get("3h")) if w.snow else None
    return {"dt": w.reference_time(), "temp": w.temp.get("temp"), "feels_like": w.temp.get("feels_like"),
            "pressure": w.pressure.get("press"), "humidity": w.humidity, "clouds": w.clouds,
            "wind_speed": w.wnd.get("speed"), "wind_deg": w.wnd.get("deg"), "wind_gust": w.wnd.get("gust"),
            "visibility": w.visibility_distance, "rain": rain, "snow": snow,
            "condition": (w.weather_code, w.status, w.weather_icon_name), "pop": w.precipitation_probability}


def pyowm_day(w):
    t = w.temp
    return {"dt": w.reference_time(), "temp": {k: t.get(k) for k in ("day", "min", "max", "night", "eve", "morn")},
            "feels_day": t.get("feels_like_day"), "pressure": w.pressure.get("press"), "humidity": w.humidity,
            "dew_point": w.dewpoint, "wind_speed": w.wnd.get("speed"), "wind_deg": w.wnd.get("deg"), "clouds": w.clouds,
            "rain": w.rain.get("all") if w.rain else None, "id": w.weather_code, "pop": w.precipitation_probability}


def run_pyowm_one_call(manager):
    for lat, lon in PLACES:
        one = manager.one_call(lat, lon)
        current, minutes, hours, days = reference_one_call(lat, lon, "standard")
        got = pyowm_weather(one.current)
        got["dew_point"] = one.current.dewpoint
        compare("pyowm.one_call.current", got, current)
        compare_all("pyowm.one_call.minutely", [{"dt": w.reference_time(), "precipitation": w.rain.get("all")}
                                                 for w in one.forecast_minutely], minutes)
        compare_all("pyowm.one_call.hourly", [dict(pyowm_weather(w), dew_point=w.dewpoint) for w in one.forecast_hourly], hours)
        compare_all("pyowm.one_call.daily", [pyowm_day(w) for w in one.forecast_daily], days)


def run_pyowm():
    from pyowm import OWM
    from pyowm.utils.config import get_default_config
    config = get_default_config()
    config["connection"]["use_ssl"] = False
    config["connection"]["use_proxy"] = True
    config["proxies"] = {"http": BASE, "https": BASE}
    manager = OWM("any-key", config).weather_manager()
    for lat, lon in PLACES:
        observation = manager.weather_at_coords(lat, lon)
        want = reference_current(lat, lon, "standard")
        got = pyowm_weather(observation.weather)
        got.update(sunrise=observation.weather.sunrise_time(), sunset=observation.weather.sunset_time(),
                   offset=observation.weather.utc_offset)
        compare("pyowm.weather_at_coords", got, want)
        weathers = manager.forecast_at_coords(lat, lon, "3h").forecast.weathers
        rows = reference_three_hourly(lat, lon, "standard")
        if len(weathers) != len(rows) or not rows:
            mismatches.append(f"pyowm.forecast_at_coords: {len(weathers)} steps, /v1/forecast covers {len(rows)}")
        for w, want in zip(weathers, rows):
            compare("pyowm.forecast_at_coords", pyowm_weather(w), want)
    if ONECALL:
        run_pyowm_one_call(manager)
        for lat, lon in PLACES:
            # /data/2.5/forecast/daily: One Call's days, less dew_point (the daily forecast has none).
            days = [{k: v for k, v in pyowm_day(w).items() if k != "dew_point"}
                    for w in manager.forecast_at_coords(lat, lon, "daily").forecast.weathers]
            compare_all("pyowm.forecast_at_coords.daily", days, reference_one_call(lat, lon, "standard")[3])


def pyopen_weather(w):
    c = w.condition
    rain, snow = w.rain, w.snow
    return {"dt": int(w.date_time.timestamp()), "temp": w.temperature, "feels_like": w.feels_like, "pressure": w.pressure,
            "humidity": w.humidity, "clouds": w.cloud_coverage, "wind_speed": w.wind_speed, "wind_deg": w.wind_bearing,
            "wind_gust": w.wind_gust, "visibility": w.visibility,
            "rain": (rain.get("1h", rain.get("3h")) if isinstance(rain, dict) else rain) or None,
            "snow": (snow.get("1h", snow.get("3h")) if isinstance(snow, dict) else snow) or None,
            "condition": (c.id, c.main, c.icon), "pop": getattr(w, "precipitation_probability", None)}


async def run_pyopenweathermap():
    from pyopenweathermap import create_owm_client
    from pyopenweathermap.client import free_client
    free_client.CURRENT_WEATHER_API_URL = BASE + "/data/2.5/weather"
    free_client.FORECAST_API_URL = BASE + "/data/2.5/forecast"
    for (lat, lon), units in zip(PLACES, ("metric", "imperial")):
        report = await create_owm_client("any-key", "current", units=units).get_weather(lat, lon)
        compare(f"pyopenweathermap.current.{units}", pyopen_weather(report.current), reference_current(lat, lon, units))
        report = await create_owm_client("any-key", "forecast", units=units).get_weather(lat, lon)
        rows = reference_three_hourly(lat, lon, units)
        if len(report.hourly_forecast) != len(rows) or not rows:
            mismatches.append(f"pyopenweathermap.forecast.{units}: {len(report.hourly_forecast)} steps, /v1/forecast covers {len(rows)}")
        for w, want in zip(report.hourly_forecast, rows):
            compare(f"pyopenweathermap.forecast.{units}", pyopen_weather(w), want)
    if ONECALL:
        await run_pyopenweathermap_one_call()


def pyopen_day(w):
    t = w.temperature
    return {"dt": int(w.date_time.timestamp()), "temp": {"day": t.day, "min": t.min, "max": t.max, "night": t.night,
            "eve": t.evening, "morn": t.morning}, "feels_day": w.feels_like.day, "pressure": w.pressure, "humidity": w.humidity,
            "dew_point": w.dew_point, "wind_speed": w.wind_speed, "wind_deg": w.wind_bearing, "clouds": w.cloud_coverage,
            "rain": w.rain or None, "id": w.condition.id, "pop": w.precipitation_probability}


async def run_pyopenweathermap_one_call():
    from pyopenweathermap import create_owm_client
    from pyopenweathermap.client import onecall_client
    onecall_client.API_URL = BASE + "/data/3.0/onecall"
    for (lat, lon), units in zip(PLACES, ("imperial", "metric")):
        report = await create_owm_client("any-key", "v3.0", units=units).get_weather(lat, lon)
        current, minutes, hours, days = reference_one_call(lat, lon, units)
        got = pyopen_weather(report.current)
        got["dew_point"] = report.current.dew_point
        compare(f"pyopenweathermap.v3.0.current.{units}", got, current)
        compare_all(f"pyopenweathermap.v3.0.minutely.{units}", [{"dt": int(m.date_time.timestamp()), "precipitation": m.precipitation}
                                                                for m in report.minutely_forecast], minutes)
        compare_all(f"pyopenweathermap.v3.0.hourly.{units}",
                    [dict(pyopen_weather(w), dew_point=w.dew_point) for w in report.hourly_forecast], hours)
        compare_all(f"pyopenweathermap.v3.0.daily.{units}", [pyopen_day(w) for w in report.daily_forecast], days)


run_pyowm()
asyncio.run(run_pyopenweathermap())
print(json.dumps({"versions": {"pyowm": version("pyowm"), "pyopenweathermap": version("pyopenweathermap")},
                  "checked": checked, "mismatches": mismatches}))
