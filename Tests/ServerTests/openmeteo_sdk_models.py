"""Reads tilecast serve's format=flatbuffers for `models=wrf,mm5` (and `temporal_resolution`)
with the official Open-Meteo SDK (openmeteo-requests and openmeteo-sdk, unmodified) and
compares each model's message with the JSON answer's suffixed columns of the same request.
Prints one JSON object per message; ServerTests.OpenMeteoRequestShapesTests checks them."""
import json
import sys
import urllib.request

import openmeteo_requests

base, resolution = sys.argv[1], sys.argv[2]
params = {"latitude": 38.7223, "longitude": -9.1393, "hourly": ["temperature_2m", "precipitation"], "models": "wrf,mm5",
          "start_date": "2026-11-22", "end_date": "2026-11-22", "temporal_resolution": resolution}
responses = openmeteo_requests.Client().weather_api(base + "/v1/forecast", params=dict(params))
q = "&".join(f"{k}={','.join(map(str, v)) if isinstance(v, list) else v}" for k, v in params.items())
js = json.load(urllib.request.urlopen(base + "/v1/forecast?" + q))
out = []
for r, model in zip(responses, ["wrf", "mm5"]):
    h = r.Hourly()
    same = True
    for i, name in enumerate(params["hourly"]):
        v = h.Variables(i)
        mine = [v.Values(k) for k in range(v.ValuesLength())]
        theirs = js["hourly"][f"{name}_{model}"]
        same = same and len(mine) == len(theirs) and all((b is None and a != a) or (b is not None and abs(a - b) < 1e-4) for a, b in zip(mine, theirs))
    out.append({"model": model, "location": r.LocationId(), "interval": h.Interval(), "n": h.Variables(0).ValuesLength(), "same": same})
print(json.dumps({"messages": len(responses), "answers": out}))
