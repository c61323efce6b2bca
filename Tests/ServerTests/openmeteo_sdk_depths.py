"""Reads soil layers and sunrise/sunset from tilecast serve's format=flatbuffers with the
official Open-Meteo SDK (unmodified) and the same request as JSON with timeformat=unixtime.
Prints one JSON object; ServerTests.FlatBuffersTests checks it. Argument: the server's base URL."""
import sys, json, urllib.request, openmeteo_requests
base = sys.argv[1]
hourly = ["soil_temperature_0_to_10cm", "soil_temperature_10_to_40cm", "soil_moisture_40_to_100cm",
          "soil_moisture_100_to_200cm", "temperature_2m"]
daily = ["sunrise", "sunset"]
params = {"latitude": 29.865, "longitude": 86.8444, "hourly": hourly, "daily": daily, "models": "wrf",
          "start_date": "2005-09-21", "end_date": "2005-09-21", "timeformat": "unixtime"}
response = openmeteo_requests.Client().weather_api(base + "/v1/forecast", params=dict(params))[0]
q = "&".join(f"{k}={','.join(v) if isinstance(v, list) else v}" for k, v in params.items())
js = json.load(urllib.request.urlopen(base + "/v1/forecast?" + q))
h, d = response.Hourly(), response.Daily()
out = {"hourly": [], "daily": []}
for i, name in enumerate(hourly):
    v = h.Variables(i)
    values = [v.Values(k) for k in range(v.ValuesLength())]
    same = all(b is None or abs(a - b) < 1e-4 for a, b in zip(values, js["hourly"][name])) and len(values) == len(js["hourly"][name])
    out["hourly"].append({"name": name, "variable": v.Variable(), "depth": v.Depth(), "depth_to": v.DepthTo(),
                          "altitude": v.Altitude(), "same_as_json": same, "known": sum(b is not None for b in js["hourly"][name])})
for i, name in enumerate(daily):
    v = d.Variables(i)
    out["daily"].append({"name": name, "variable": v.Variable(), "int64": [v.ValuesInt64(k) for k in range(v.ValuesInt64Length())],
                         "json": js["daily"][name]})
print(json.dumps(out))
