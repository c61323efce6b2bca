"""S6 (issue 45): the server CPU of each request of another service's API (OpenWeatherMap,
QWeather, Caiyun) against the equivalent /v1/forecast request (the same place, hours and variables: the
query its renderer derives, OpenWeatherMapForecast.query and QWeatherPath.query), measured in
one run from the server's own CPU time (/proc/PID/stat utime + stime) over interleaved rounds on
one kept-alive connection.

    python3 benchmarks/dialect_cpu_bench.py http://127.0.0.1:PORT SERVER_PID [REQUESTS_PER_ROUND] [ROUNDS] [API,...]

API is openweathermap, qweather and/or caiyun (all by default).

The store must cover now at the places (e.g. the sample run moved to today with
Scripts/shift_run.py). Prints one line per pair: CPU per request of each and their ratio
(target: at most 1.2x).
"""
import http.client, os, random, sys, urllib.parse

BASE, PID = sys.argv[1], int(sys.argv[2])
N = int(sys.argv[3]) if len(sys.argv) > 3 else 200
ROUNDS = int(sys.argv[4]) if len(sys.argv) > 4 else 5
TICK = os.sysconf("SC_CLK_TCK")
VARIABLES = ("temperature_2m,apparent_temperature,relative_humidity_2m,dew_point_2m,pressure_msl,surface_pressure,cloud_cover,"
             "wind_speed_10m,wind_direction_10m,wind_gusts_10m,visibility,precipitation,snowfall_water_equivalent,"
             "weather_code,is_day")
DAILY = ("temperature_2m_min,temperature_2m_max,weather_code,cloud_cover_mean,relative_humidity_2m_mean,pressure_msl_mean,"
         "dew_point_2m_mean,wind_speed_10m_max,wind_direction_10m_dominant,wind_gusts_10m_max,"
         "precipitation_sum,snowfall_water_equivalent_sum,moonrise,moonset,moon_phase")
UNITS = {"temperature_unit": "celsius", "wind_speed_unit": "ms", "precipitation_unit": "mm"}
QW_VARIABLES = ("temperature_2m,apparent_temperature,relative_humidity_2m,dew_point_2m,pressure_msl,cloud_cover,"
                "wind_speed_10m,wind_direction_10m,visibility,precipitation,weather_code,is_day")
QW_DAILY = ("temperature_2m_max,temperature_2m_min,relative_humidity_2m_mean,precipitation_sum,pressure_msl_mean,visibility_mean,"
            "cloud_cover_mean,sunrise,sunset,moonrise,moonset,moon_phase")
QW_UNITS = {"temperature_unit": "celsius", "wind_speed_unit": "kmh", "precipitation_unit": "mm", "timezone": "auto"}
APIS = sys.argv[5].split(",") if len(sys.argv) > 5 else ["openweathermap", "qweather", "caiyun"]
CY_VARIABLES = ("temperature_2m,apparent_temperature,relative_humidity_2m,surface_pressure,cloud_cover,wind_speed_10m,"
                "wind_direction_10m,visibility,shortwave_radiation,precipitation,weather_code,is_day")
CY_DAILY = ",".join([f"{v}_{s}" for v in ("temperature_2m", "precipitation", "relative_humidity_2m", "cloud_cover", "surface_pressure",
                                          "visibility", "shortwave_radiation", "wind_speed_10m") for s in ("max", "min", "mean")]
                    + ["wind_direction_10m_dominant", "weather_code", "sunrise", "sunset"])
# Every Caiyun part is made from one query (CaiyunForecast.query: 48 hours and 5 days by default).
CY_BLOCKS = {"current": CY_VARIABLES, "hourly": CY_VARIABLES, "daily": CY_DAILY, "minutely_15": "precipitation",
             "forecast_minutely_15": 10, "forecast_days": 6, "past_days": 0}
# name: (path, its own parameters of a place, the /v1/forecast blocks; the /v1 units), by API.
QWEATHER = {
    "now": ("/v7/weather/now", {"current": QW_VARIABLES}),
    "24h": ("/v7/weather/24h", {"hourly": QW_VARIABLES, "forecast_hours": 25}),
    "7d": ("/v7/weather/7d", {"hourly": QW_VARIABLES, "daily": QW_DAILY, "forecast_days": 8}),
    "5m": ("/v7/minutely/5m", {"minutely_15": "precipitation,snowfall_water_equivalent", "forecast_minutely_15": 11}),
}
PAIRS = {
    "weather": ("/data/2.5/weather", {}, {"current": VARIABLES, "timezone": "auto"}),
    "forecast": ("/data/2.5/forecast", {}, {"hourly": VARIABLES, "temporal_resolution": "hourly_3", "forecast_days": 6, "timezone": "GMT"}),
    "forecast/daily": ("/data/2.5/forecast/daily", {}, {"hourly": VARIABLES, "daily": DAILY, "forecast_days": 7, "timezone": "auto"}),
    "onecall": ("/data/3.0/onecall", {}, {"current": VARIABLES, "hourly": VARIABLES, "daily": DAILY, "minutely_15": "precipitation",
                                          "forecast_minutely_15": 7, "forecast_days": 8, "timezone": "auto"}),
}


def cpu():
    with open(f"/proc/{PID}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def run(connection, targets):
    start = cpu()
    for target in targets:
        connection.request("GET", target)
        reply = connection.getresponse()
        reply.read()
        assert reply.status == 200, (target, reply.status)
    return (cpu() - start) / len(targets)


def main():
    url = urllib.parse.urlsplit(BASE)
    connection = http.client.HTTPConnection(url.hostname, url.port)
    generator = random.Random(45)
    # Places inside the sample run's d01, away from its edges.
    places = [(round(generator.uniform(37.5, 41.5), 4), round(generator.uniform(-9.3, -7.0), 4)) for _ in range(N)]
    pairs = []
    if "openweathermap" in APIS:
        for name, (path, extra, blocks) in PAIRS.items():
            pairs.append(("OpenWeatherMap " + name,
                          [f"{path}?" + urllib.parse.urlencode({"lat": lat, "lon": lon, "units": "metric", **extra}) for lat, lon in places],
                          ["/v1/forecast?" + urllib.parse.urlencode({"latitude": lat, "longitude": lon, **UNITS, **blocks}) for lat, lon in places]))
    if "qweather" in APIS:
        for name, (path, blocks) in QWEATHER.items():
            pairs.append(("QWeather " + name,
                          [f"{path}?" + urllib.parse.urlencode({"location": f"{lon},{lat}", "lang": "en"}) for lat, lon in places],
                          ["/v1/forecast?" + urllib.parse.urlencode({"latitude": lat, "longitude": lon, **QW_UNITS, **blocks}) for lat, lon in places]))
    if "caiyun" in APIS:
        for part in ("realtime", "weather"):
            pairs.append(("Caiyun " + part,
                          [f"/v2.5/TOKEN/{lon},{lat}/{part}" for lat, lon in places],
                          ["/v1/forecast?" + urllib.parse.urlencode({"latitude": lat, "longitude": lon, **QW_UNITS, **CY_BLOCKS}) for lat, lon in places]))
    for name, dialect, v1 in pairs:
        run(connection, dialect[:20] + v1[:20])  # warm the page cache and the server's caches
        totals = [0.0, 0.0]
        for _ in range(ROUNDS):
            totals[0] += run(connection, dialect)
            totals[1] += run(connection, v1)
        print(f"{name}: {totals[0] / ROUNDS * 1e3:.3f} ms CPU/request, /v1/forecast {totals[1] / ROUNDS * 1e3:.3f} ms, "
              f"ratio {totals[0] / totals[1]:.2f}x ({ROUNDS} rounds x {N} requests)")


main()
