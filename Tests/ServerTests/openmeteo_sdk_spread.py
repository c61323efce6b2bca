"""Reads `_spread` columns from tilecast serve's format=flatbuffers with the official Open-Meteo
SDK (unmodified). Prints one JSON object per column (variable, unit, aggregation, altitude,
values with NaN as null); ServerTests.SpreadTests checks it against openmeteo-sdk's
flatbuffers/weather_api.fbs codes and against the JSON answer. Arguments: base URL, latitude,
longitude."""
import sys, json, math, openmeteo_requests
base, latitude, longitude = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
hourly = ["temperature_2m_spread", "precipitation_spread", "wind_speed_10m_spread"]
params = {"latitude": latitude, "longitude": longitude, "hourly": hourly, "wind_speed_unit": "ms", "timezone": "GMT",
          "start_hour": "2026-11-22T19:00", "end_hour": "2026-11-23T00:00", "elevation": "nan"}
h = openmeteo_requests.Client().weather_api(base + "/v1/forecast", params=dict(params))[0].Hourly()
columns = []
for i in range(len(hourly)):
    v = h.Variables(i)
    values = [v.Values(k) for k in range(v.ValuesLength())]
    columns.append({"variable": v.Variable(), "unit": v.Unit(), "aggregation": v.Aggregation(), "altitude": v.Altitude(),
                    "values": [None if math.isnan(x) else x for x in values]})
print(json.dumps(columns))
