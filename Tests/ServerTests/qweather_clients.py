"""QWeather's Python client from PyPI, unmodified, against tilecast serve's /v7 paths.

qweatherPyAPI 0.1.4 has no base-URL option: its QWeatherPy object keeps one URL attribute a
path (url_weather_api_now, ...), set here to the server's. Its response models (WeatherData:
NowData, HourlyData, DailyDetail) read every field of `now` (get_weather_now), 24 and 72 hours
(get_weather_24h, get_weather_72h) and 3 and 7 days (get_weather_3d, get_weather_7d), in both
units (m, i) and both languages (zh, en).

Every value the models parsed is held against the server's own /v1/forecast (plain urllib) for
the same place and time, converted here to QWeather's documented forms: strings, whole numbers
rounded half away from zero, precipitation to 0.1 mm, visibility in km or miles, the Beaufort
force of the whole speed shown (WMO's bands in km/h or mph), the 16-point direction, the icon and text from
/v1/forecast's weather code and cloud cover by QWeather's icon table (an independent statement
of Conditions/WeatherConditions.swift's QWeather column), day halves 06-18 local.

Arguments: the server's base URL and its clock (unix seconds). Output (stdout): a JSON summary
{"versions", "checked": {call: values compared}, "mismatches": [...]}.
"""
import json, math, sys, urllib.parse, urllib.request
from decimal import Decimal, ROUND_HALF_UP
from importlib.metadata import version

from qweatherpyapi.qweather import QWeatherPy

BASE, NOW = sys.argv[1], int(sys.argv[2])
PLACES = [(38.7223, -9.1393), (39.5, -8.0)]
VARIABLES = ("temperature_2m,apparent_temperature,relative_humidity_2m,dew_point_2m,pressure_msl,cloud_cover,"
             "wind_speed_10m,wind_direction_10m,visibility,precipitation,weather_code,is_day,precipitation_probability")
# QWeather's icons (its "Icons" page): by day, by night, Chinese and English texts (night English where it differs).
ICONS = {"clear": (100, 150), "few": (102, 152), "scattered": (103, 153), "broken": (101, 151), "overcast": (104, 104)}
WET = {45: 501, 48: 501, 51: 309, 53: 309, 55: 309, 56: 313, 57: 313, 66: 313, 67: 313, 61: 305, 63: 306, 65: 307,
       71: 400, 73: 401, 75: 402, 95: 302, 96: 304, 99: 304}
NIGHT_SHOWERS = {80: (300, 350), 81: (300, 350), 82: (301, 351), 85: (407, 457), 86: (407, 457)}
TEXTS = {100: ("晴", "Sunny"), 150: ("晴", "Clear"), 101: ("多云", "Cloudy"), 151: ("多云", "Cloudy"), 102: ("少云", "Few Clouds"),
         152: ("少云", "Few Clouds"), 103: ("晴间多云", "Partly Cloudy"), 153: ("晴间多云", "Partly Cloudy"), 104: ("阴", "Overcast"),
         501: ("雾", "Foggy"), 309: ("毛毛雨/细雨", "Drizzle Rain"), 313: ("冻雨", "Freezing Rain"), 305: ("小雨", "Light Rain"),
         306: ("中雨", "Moderate Rain"), 307: ("大雨", "Heavy Rain"), 300: ("阵雨", "Shower Rain"), 350: ("阵雨", "Shower Rain"),
         301: ("强阵雨", "Heavy Shower Rain"), 351: ("强阵雨", "Heavy Shower Rain"), 400: ("小雪", "Light Snow"),
         401: ("中雪", "Moderate Snow"), 402: ("大雪", "Heavy Snow"), 407: ("阵雪", "Snow Flurry"), 457: ("阵雪", "Snow Flurry"),
         302: ("雷阵雨", "Thundershower"), 304: ("雷阵雨伴有冰雹", "Thundershower with Hail"), 999: ("未知", "Unknown")}
# WMO codes from least to most severe (Open-Meteo's daily rule as TileCast documents it).
SEVERITY = [0, 1, 2, 3, 45, 48, 51, 53, 55, 56, 57, 80, 61, 85, 71, 66, 81, 63, 73, 82, 65, 86, 75, 67, 95, 96, 99]
DIRECTIONS = {"zh": ["北风", "东北偏北风", "东北风", "东北偏东风", "东风", "东南偏东风", "东南风", "东南偏南风", "南风", "西南偏南风",
                     "西南风", "西南偏西风", "西风", "西北偏西风", "西北风", "西北偏北风"],
              "en": ["N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW"]}
MOON = {"zh": ["新月", "蛾眉月", "上弦月", "盈凸月", "满月", "亏凸月", "下弦月", "残月"],
        "en": ["New Moon", "Waxing Crescent", "First Quarter", "Waxing Gibbous", "Full Moon", "Waning Gibbous", "Last Quarter",
               "Waning Crescent"]}

checked, mismatches = {}, []


def v1(params):
    with urllib.request.urlopen(BASE + "/v1/forecast?" + urllib.parse.urlencode(params), timeout=30) as reply:
        return json.load(reply)


def half_up(x, places=0):
    """A printed number rounded half away from zero (decimal digits, as QWeather's strings)."""
    if x is None:
        return ""
    return str(Decimal(repr(x)).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)).replace("-0.0", "0.0").lstrip("+") \
        if places else str(int(Decimal(repr(x)).quantize(Decimal(1), rounding=ROUND_HALF_UP)))


def beaufort(speed, unit):
    """WMO's Beaufort bands in the unit shown: km/h (m) or mph (i), of the whole speed."""
    if speed == "":
        return ""
    lowest = [1, 6, 12, 20, 29, 39, 50, 62, 75, 89, 103, 118] if unit == "m" else [1, 4, 8, 13, 19, 25, 32, 39, 47, 55, 64, 73]
    return str(sum(1 for bound in lowest if int(speed) >= bound))


def direction(degrees, lang):
    return "" if degrees == "" else DIRECTIONS[lang][int(round(int(degrees) / 22.5)) % 16]


def icon_of(code, cloud, day):
    """QWeather's icon of a WMO code and a whole cloud cover (%), by day or night."""
    if code is None:
        return 999
    code = int(code)
    if code <= 3:
        band = "clear" if cloud <= 10 else "few" if cloud <= 25 else "scattered" if cloud <= 50 else "broken" if cloud <= 84 else "overcast"
        return ICONS[band][0 if day else 1]
    if code in NIGHT_SHOWERS:
        return NIGHT_SHOWERS[code][0 if day else 1]
    return WET[code]


def text_of(icon, lang):
    return TEXTS[icon][0 if lang == "zh" else 1]


def visibility(metres, unit):
    return "" if metres is None else str(int(math.floor(metres / (1000 if unit == "m" else 1609.344) + 0.5)))


def offset_text(seconds):
    sign = "-" if seconds < 0 else "+"
    minutes = abs(seconds) // 60
    return f"{sign}{minutes // 60:02d}:{minutes % 60:02d}"


def units_of(unit):
    return {"temperature_unit": "celsius" if unit == "m" else "fahrenheit", "wind_speed_unit": "kmh" if unit == "m" else "mph"}


def expected_row(row, lang, unit):
    cloud = half_up(row["cloud_cover"])
    icon = icon_of(row["weather_code"], int(cloud) if cloud != "" else None, row["is_day"] == 1)
    wind360 = half_up(row["wind_direction_10m"])
    return {"temp": half_up(row["temperature_2m"]), "icon": str(icon), "text": text_of(icon, lang), "wind360": wind360,
            "wind_dir": direction(wind360, lang), "wind_scale": beaufort(half_up(row["wind_speed_10m"]), unit),
            "wind_speed": half_up(row["wind_speed_10m"]),
            "humidity": half_up(row["relative_humidity_2m"]), "precip": half_up(row["precipitation"], 1),
            "pressure": half_up(row["pressure_msl"]), "cloud": cloud, "dew": half_up(row["dew_point_2m"])}


def compare(call, got, want):
    for key, value in want.items():
        checked[call] = checked.get(call, 0) + 1
        if got.get(key) != value:
            mismatches.append(f"{call} {key}: got {got.get(key)!r}, /v1/forecast {value!r}")


def local(time_text, offset):
    return time_text + offset_text(offset)


def reference_hours(lat, lon, lang, unit, count):
    # The server's own query (QWeatherPath.query): the hours from the current one.
    answer = v1({"latitude": lat, "longitude": lon, "hourly": VARIABLES, "forecast_hours": count + 1, "timezone": "auto", **units_of(unit)})
    times = v1({"latitude": lat, "longitude": lon, "hourly": "wind_speed_10m", "forecast_hours": count + 1, "timezone": "auto",
                "timeformat": "unixtime"})["hourly"]["time"]
    hourly, rows = answer["hourly"], []
    for k, time in enumerate(times):
        if time <= NOW or len(rows) == count:
            continue
        if hourly["temperature_2m"][k] is None:
            break
        row = expected_row({name: hourly[name][k] for name in hourly}, lang, unit)
        row.update(pop=half_up(hourly["precipitation_probability"][k]), fx_time=local(hourly["time"][k], answer["utc_offset_seconds"]))
        rows.append(row)
    return rows


def reference_now(lat, lon, lang, unit):
    """`now` with QWeather's precip of the past hour: the hourly row at the current time holds
    the hour before it (and the icon made from it)."""
    common = {"latitude": lat, "longitude": lon, "forecast_days": 1, "timezone": "auto"}
    answer = v1({**common, "current": VARIABLES, "hourly": "precipitation,weather_code", **units_of(unit)})
    row = dict(answer["current"])
    k = answer["hourly"]["time"].index(row["time"])
    row["precipitation"], row["weather_code"] = answer["hourly"]["precipitation"][k], answer["hourly"]["weather_code"][k]
    want = expected_row(row, lang, unit)
    want.update(feels_like=half_up(row["apparent_temperature"]), vis=visibility(row["visibility"], unit),
                obs_time=local(row["time"], answer["utc_offset_seconds"]))
    return want


def most_severe(codes):
    return max(codes, key=lambda c: SEVERITY.index(int(c)))


def reference_days(lat, lon, lang, unit, count):
    daily_names = ("temperature_2m_max,temperature_2m_min,relative_humidity_2m_mean,precipitation_sum,pressure_msl_mean,"
                   "visibility_mean,cloud_cover_mean,sunrise,sunset,moonrise,moonset,moon_phase")
    answer = v1({"latitude": lat, "longitude": lon, "hourly": VARIABLES, "daily": daily_names, "forecast_days": count + 1,
                 "timezone": "auto", **units_of(unit)})
    hourly, daily, days = answer["hourly"], answer["daily"], []
    index = {t: k for k, t in enumerate(hourly["time"])}
    for d, date in enumerate(daily["time"][:count]):
        def at(hour):
            text = date + f"T{hour:02d}:00" if hour < 24 else (daily["time"][d + 1] + "T00:00" if d + 1 < len(daily["time"]) else None)
            return index.get(text)
        halves = {"day": [at(h) for h in range(7, 19)], "night": [at(h) for h in list(range(1, 7)) + list(range(19, 25))]}
        if daily["temperature_2m_max"][d] is None or any(k is None or hourly["temperature_2m"][k] is None
                                                          for rows in halves.values() for k in rows):
            break
        want = {"fx_date": date, "temp_max": half_up(daily["temperature_2m_max"][d]), "temp_min": half_up(daily["temperature_2m_min"][d]),
                "humidity": half_up(daily["relative_humidity_2m_mean"][d]), "precip": half_up(daily["precipitation_sum"][d], 1),
                "pressure": half_up(daily["pressure_msl_mean"][d]), "vis": visibility(daily["visibility_mean"][d], unit),
                "cloud": half_up(daily["cloud_cover_mean"][d]), "uv_index": ""}
        for name in ("sunrise", "sunset", "moonrise", "moonset"):
            value = daily[name][d]
            want[name] = "" if value is None else value[11:16]
        phase = MOON[lang][int(math.floor(daily["moon_phase"][d] * 8 + 0.5)) % 8]
        want.update(moon_phase=phase, moon_phase_icon=str(800 + MOON[lang].index(phase)))
        for name, rows in halves.items():
            is_day = name == "day"
            code = most_severe([hourly["weather_code"][k] for k in rows])
            clouds = [int(half_up(hourly["cloud_cover"][k])) for k in rows]
            icon = icon_of(code, int(math.floor(sum(clouds) / len(clouds) + 0.5)), is_day)
            suffix = "day" if is_day else "night"
            want[f"icon_{suffix}"], want[f"text_{suffix}"] = str(icon), text_of(icon, lang)
            speeds = [hourly["wind_speed_10m"][k] for k in rows]
            # The strongest hour; hours as strong when printed are each a right answer.
            strongest = [k for k in rows if hourly["wind_speed_10m"][k] == max(speeds)]
            want[f"wind_{suffix}"] = [(half_up(hourly["wind_direction_10m"][k]), direction(half_up(hourly["wind_direction_10m"][k]), lang),
                                       half_up(hourly["wind_speed_10m"][k]), beaufort(half_up(hourly["wind_speed_10m"][k]), unit)) for k in strongest]
        days.append(want)
    return days


def hourly_got(h):
    got = {"temp": h.temp, "icon": h.icon, "text": h.text, "wind360": h.wind_360, "wind_dir": h.wind_dir,
           "wind_scale": h.wind_scale, "wind_speed": h.wind_speed, "humidity": h.humidity, "precip": h.precip,
           "pressure": h.pressure, "cloud": h.cloud, "dew": h.dew}
    if hasattr(h, "fx_time"):  # HourlyData (NowData has neither)
        got.update(pop=h.pop, fx_time=h.fx_time)
    return got


def day_got(day):
    got = {name: getattr(day, name) for name in ("fx_date", "temp_max", "temp_min", "humidity", "precip", "pressure", "vis", "cloud",
                                                 "uv_index", "sunrise", "sunset", "moonrise", "moonset", "moon_phase", "moon_phase_icon",
                                                 "icon_day", "text_day", "icon_night", "text_night")}
    for suffix in ("day", "night"):
        got[f"wind_{suffix}"] = (getattr(day, f"wind_360_{suffix}"), getattr(day, f"wind_dir_{suffix}"),
                                 getattr(day, f"wind_speed_{suffix}"), getattr(day, f"wind_scale_{suffix}"))
    return got


def compare_day(call, got, want, lang):
    for key, value in want.items():
        checked[call] = checked.get(call, 0) + 1
        if key.startswith("wind_"):
            if got[key] not in value:
                mismatches.append(f"{call} {key}: got {got[key]!r}, /v1/forecast's strongest hours {value!r}")
        elif got.get(key) != value:
            mismatches.append(f"{call} {key}: got {got.get(key)!r}, /v1/forecast {value!r}")


def main():
    client = QWeatherPy("any-key")
    for name in [n for n in vars(client) if n.startswith("url_")]:
        setattr(client, name, getattr(client, name).replace("https://devapi.qweather.com", BASE))
    cycle_start = None
    for lat, lon in PLACES:
        location = f"{lon},{lat}"
        for lang in ("zh", "en"):
            for unit in ("m", "i"):
                tag = f"{lang}.{unit}"
                now = client.get_weather_now(location, lang=lang, unit=unit)
                if now.code != "200" or now.now is None:
                    mismatches.append(f"now.{tag}: code {now.code}")
                    continue
                n = now.now
                got = hourly_got(n) | {"feels_like": n.feels_like, "vis": n.vis, "obs_time": n.obs_time}
                compare(f"now.{tag}", got, reference_now(lat, lon, lang, unit))
                for hours, call in ((24, client.get_weather_24h), (72, client.get_weather_72h)):
                    answer = call(location, lang=lang, unit=unit)
                    want = reference_hours(lat, lon, lang, unit, hours)
                    got = [hourly_got(h) for h in answer.hourly or []]
                    if len(got) != len(want):
                        mismatches.append(f"{hours}h.{tag}: {len(got)} hours, /v1/forecast covers {len(want)}")
                    for g, w in zip(got, want):
                        compare(f"{hours}h.{tag}", g, w)
                for days, call in ((3, client.get_weather_3d), (7, client.get_weather_7d)):
                    answer = call(location, lang=lang, unit=unit)
                    want = reference_days(lat, lon, lang, unit, days)
                    got = [day_got(d) for d in answer.daily or []]
                    if len(got) != len(want) or not want:
                        mismatches.append(f"{days}d.{tag}: {len(got)} days, /v1/forecast covers {len(want)} whole")
                    for g, w in zip(got, want):
                        compare_day(f"{days}d.{tag}", g, w, lang)
                    checked[f"{days}d.{tag}.update_time"] = 1
                    if cycle_start is None:
                        cycle_start = answer.update_time
                    elif answer.update_time != cycle_start:
                        mismatches.append(f"updateTime {answer.update_time} differs from {cycle_start}")
    print(json.dumps({"versions": {"qweatherPyAPI": version("qweatherPyAPI")}, "checked": checked, "mismatches": mismatches,
                      "update_time": cycle_start}))


main()
