"""Reads columns of nulls (names Open-Meteo knows that the run cannot give) from tilecast serve's
format=flatbuffers with the official Open-Meteo SDK (unmodified): the request a typical weather
app sends. Prints one JSON object; ServerTests.FlatBuffersTests checks it. Argument: base URL."""
import sys, json, math, openmeteo_requests
base = sys.argv[1]
hourly = ["temperature_2m", "precipitation_probability", "snow_depth", "weathercode"]
daily = ["temperature_2m_max", "precipitation_probability_max", "uv_index_max"]
params = {"latitude": 39.3, "longitude": -8, "hourly": hourly, "daily": daily, "current": ["uv_index", "temperature_2m"],
          "start_date": "2026-11-22", "end_date": "2026-11-22"}
response = openmeteo_requests.Client().weather_api(base + "/v1/forecast", params=dict(params))[0]
def column(block, i):
    v = block.Variables(i)
    values = [v.Values(k) for k in range(v.ValuesLength())]
    return {"variable": v.Variable(), "unit": v.Unit(), "aggregation": v.Aggregation(), "count": len(values),
            "nan": sum(math.isnan(x) for x in values)}
h, d, c = response.Hourly(), response.Daily(), response.Current()
print(json.dumps({"hourly": [column(h, i) for i in range(len(hourly))], "daily": [column(d, i) for i in range(len(daily))],
                  "current": [{"variable": c.Variables(i).Variable(), "unit": c.Variables(i).Unit(),
                               "nan": math.isnan(c.Variables(i).Value())} for i in range(2)]}))
