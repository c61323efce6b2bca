"""The official Open-Meteo SDK (PyPI openmeteo-requests with openmeteo-sdk, unmodified) against
tilecast serve: `Client().weather_api(url, params)` takes the URL, here the test server's
/v1/forecast, and reads format=flatbuffers. Many places are one request with lists of
coordinates, as the SDK's documentation shows; values are float32, so they are compared with
the JSON within 1e-4. Arguments: the server's base URL. Output: see openmeteo_clients_common.py."""
import openmeteo_requests

import openmeteo_clients_common as common


def times(block):
    return list(range(block.Time(), block.TimeEnd(), block.Interval()))


def parsed(response):
    """What the SDK read, in the shape common.summarize reads (variables come in the order asked)."""
    out = {"latitude": response.Latitude(), "longitude": response.Longitude()}
    for section, block, names in (("hourly", response.Hourly(), common.HOURLY), ("daily", response.Daily(), common.DAILY)):
        out[section] = {"time": times(block)}
        for index, name in enumerate(names):
            variable = block.Variables(index)
            out[section][name] = [variable.Values(k) for k in range(variable.ValuesLength())]
    current = response.Current()
    out["current"] = {"time": current.Time()}
    for index, name in enumerate(common.CURRENT):
        out["current"][name] = current.Variables(index).Value()
    return out


def request(places):
    params = {"latitude": [lat for lat, _ in places], "longitude": [lon for _, lon in places],
              "hourly": common.HOURLY, "daily": common.DAILY, "current": common.CURRENT,
              "forecast_days": common.FORECAST_DAYS, "timezone": common.TIMEZONE}
    return openmeteo_requests.Client().weather_api(common.base_url() + "/v1/forecast", params=params)


single_place = common.PLACES[:1]
single, many = request(single_place), request(common.PLACES)
single_json, many_json = common.reference(single_place), common.reference(common.PLACES)
common.report("openmeteo-requests (official SDK)", ["openmeteo-requests", "openmeteo-sdk"],
              [common.summarize(p, parsed(r), j, 1e-4) for p, r, j in zip(single_place, single, single_json)],
              [common.summarize(p, parsed(r), j, 1e-4) for p, r, j in zip(common.PLACES, many, many_json)])
