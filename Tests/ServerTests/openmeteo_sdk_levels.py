"""Reads height and pressure levels from tilecast serve's format=flatbuffers with the official
Open-Meteo SDK (unmodified) and the same request as JSON. Prints one JSON object;
ServerTests.LevelsAPITests checks it. Arguments: the server's base URL, latitude, longitude."""
import sys, json, math, urllib.request, openmeteo_requests
base, latitude, longitude = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
hourly = ["temperature_850hPa", "wind_speed_80m", "temperature_500hPa", "geopotential_height_300hPa", "wind_direction_100m"]
params = {"latitude": latitude, "longitude": longitude, "hourly": hourly, "models": "wrf",
          "start_hour": "2005-09-21T03:00", "end_hour": "2005-09-21T06:00", "wind_speed_unit": "ms"}
response = openmeteo_requests.Client().weather_api(base + "/v1/forecast", params=dict(params))[0]
q = "&".join(f"{k}={','.join(v) if isinstance(v, list) else v}" for k, v in params.items())
js = json.load(urllib.request.urlopen(base + "/v1/forecast?" + q))
h = response.Hourly()
out = []
for i, name in enumerate(hourly):
    v = h.Variables(i)
    values = [v.Values(k) for k in range(v.ValuesLength())]
    same = len(values) == len(js["hourly"][name]) and all(
        (b is None and math.isnan(a)) or (b is not None and abs(a - b) < 1e-3) for a, b in zip(values, js["hourly"][name]))
    out.append({"name": name, "variable": v.Variable(), "altitude": v.Altitude(), "pressure_level": v.PressureLevel(),
                "same_as_json": same, "known": sum(b is not None for b in js["hourly"][name])})
print(json.dumps(out))
