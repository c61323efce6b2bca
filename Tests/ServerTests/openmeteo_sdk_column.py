"""Reads issue 28's column quantities and the moon's daily fields from tilecast serve's
format=flatbuffers with the official Open-Meteo SDK (unmodified): each column's Variable and
Unit against the SDK's own enums looked up by name, its values against the same request's JSON
(moonrise/moonset as unix seconds in values_int64, as sunrise). Prints one JSON object;
ServerTests.ColumnAndMoonAPITests checks it. Argument: the server's base URL."""
import sys, json, urllib.request, openmeteo_requests
from openmeteo_sdk.Variable import Variable
from openmeteo_sdk.Unit import Unit
base = sys.argv[1]
hourly = [
    ("total_column_integrated_water_vapour", "total_column_integrated_water_vapour", "kilogram_per_square_metre"),
    ("freezing_level_height", "freezing_level_height", "metre"),
    ("updraft", "updraft", "metre_per_second_not_unit_converted"),
    ("k_index", "k_index", "dimensionless"),
]
daily = [("moonrise", "moonrise", "unix_time"), ("moonset", "moonset", "unix_time"), ("moon_phase", "moon_phase", "fraction")]
params = {"latitude": 29.865, "longitude": 86.8444, "hourly": [h[0] for h in hourly], "daily": [d[0] for d in daily],
          "models": "wrf", "start_date": "2005-09-21", "end_date": "2005-09-21", "timeformat": "unixtime"}
response = openmeteo_requests.Client().weather_api(base + "/v1/forecast", params=dict(params))[0]
q = "&".join(f"{k}={','.join(v) if isinstance(v, list) else v}" for k, v in params.items())
js = json.load(urllib.request.urlopen(base + "/v1/forecast?" + q))


def same(values, reference):
    return len(values) == len(reference) and all(
        (b is None and a != a) or (b is not None and abs(a - b) < 1e-4) for a, b in zip(values, reference))


out = {"hourly": [], "daily": []}
h, d = response.Hourly(), response.Daily()
for i, (name, variable, unit) in enumerate(hourly):
    v = h.Variables(i)
    values = [v.Values(k) for k in range(v.ValuesLength())]
    out["hourly"].append({"name": name, "variable_ok": v.Variable() == getattr(Variable, variable), "unit_ok": v.Unit() == getattr(Unit, unit),
                          "same_as_json": same(values, js["hourly"][name]), "known": sum(b is not None for b in js["hourly"][name])})
for i, (name, variable, unit) in enumerate(daily):
    v = d.Variables(i)
    if unit == "unix_time":
        values = [v.ValuesInt64(k) for k in range(v.ValuesInt64Length())]
        ok = values == js["daily"][name]
    else:
        values = [v.Values(k) for k in range(v.ValuesLength())]
        ok = same(values, js["daily"][name])
    out["daily"].append({"name": name, "variable_ok": v.Variable() == getattr(Variable, variable), "unit_ok": v.Unit() == getattr(Unit, unit),
                         "same_as_json": ok, "values": values})
print(json.dumps(out))
