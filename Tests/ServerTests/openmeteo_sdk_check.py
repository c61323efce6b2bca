"""Reads tilecast serve's format=flatbuffers with the official Open-Meteo SDK (openmeteo-requests
and openmeteo-sdk, unmodified) and compares every value with the JSON answer of the same
request. Prints one JSON object per place; ServerTests.FlatBuffersTests checks them."""
import sys, json, urllib.request, openmeteo_requests
base = sys.argv[1]
params = {"latitude": [38.7223, 39.5], "longitude": [-9.1393, -8.0], "hourly": ["temperature_2m", "precipitation", "wind_speed_10m"],
          "daily": ["temperature_2m_max", "precipitation_sum", "wind_direction_10m_dominant"], "current": ["temperature_2m"],
          "models": "wrf", "start_date": "2026-11-22", "end_date": "2026-11-22"}
responses = openmeteo_requests.Client().weather_api(base + "/v1/forecast", params=dict(params))
q = "&".join(f"{k}={','.join(map(str, v)) if isinstance(v, list) else v}" for k, v in params.items())
js = json.load(urllib.request.urlopen(base + "/v1/forecast?" + q))
out = []
for r, j in zip(responses, js):
    h = r.Hourly(); d = r.Daily()
    def values(block, i):  # without numpy (ValuesAsNumpy needs it)
        v = block.Variables(i)
        return [v.Values(k) for k in range(v.ValuesLength())]
    hv = {name: values(h, i) for i, name in enumerate(params["hourly"])}
    dv = {name: values(d, i) for i, name in enumerate(params["daily"])}
    same = all(abs(a - b) < 1e-4 for name in params["hourly"] for a, b in zip(hv[name], j["hourly"][name]) if b is not None)
    dsame = all(abs(a - b) < 1e-4 for name in params["daily"] for a, b in zip(dv[name], j["daily"][name]) if b is not None)
    out.append({"lat": r.Latitude(), "lon": r.Longitude(), "elev": r.Elevation(), "tz": r.Timezone().decode(), "offset": r.UtcOffsetSeconds(),
                "hourly_time": [h.Time(), h.TimeEnd(), h.Interval()], "n": len(hv["temperature_2m"]), "hourly_same": same, "daily_same": dsame,
                "var0": [h.Variables(0).Variable(), h.Variables(0).Altitude(), h.Variables(0).Unit()], "agg": d.Variables(0).Aggregation(),
                "current": r.Current().Variables(0).Value(), "json_current": j["current"]["temperature_2m"], "location": r.LocationId(),
                "current_time": r.Current().Time()})
print(json.dumps(out))
