"""pyopenmeteo (PyPI, unmodified) against tilecast serve: `ForecastAPI.get` sends its request to
the client's BASE_URL (a class attribute, https://api.open-meteo.com/v1/forecast), set here on
the instance to the test server's /v1/forecast. One place per call (`location` is one
latitude/longitude pair), so many places are one call each, on one client.
Arguments: the server's base URL. Output: see openmeteo_clients_common.py."""
from pyopenmeteo.api.forecast import ForecastAPI

import openmeteo_clients_common as common


def parsed(response):
    """What the library parsed (its WeatherResponse), in the shape common.summarize reads."""
    offset = response.utc_offset_seconds
    out = {"latitude": response.latitude, "longitude": response.longitude}
    for section, block in (("hourly", response.hourly), ("daily", response.daily)):
        out[section] = {name: values for name, values in block.items()}
        out[section]["time"] = [common.unix_seconds(t, offset) for t in block["time"]]
    out["current"] = dict(response.current)
    out["current"]["time"] = common.unix_seconds(response.current["time"], offset)
    return out


def one(api, place):
    return api.get(place, hourly=common.HOURLY, daily=common.DAILY, current=common.CURRENT,
                   forecast_days=common.FORECAST_DAYS, timezone=common.TIMEZONE)


api = ForecastAPI()
api.BASE_URL = common.base_url() + "/v1/forecast"
single_place = common.PLACES[:1]
single = [one(api, place) for place in single_place]
many = [one(api, place) for place in common.PLACES]
single_json, many_json = common.reference(single_place), common.reference(common.PLACES)
common.report("pyopenmeteo", ["pyopenmeteo"],
              [common.summarize(p, parsed(r), j) for p, r, j in zip(single_place, single, single_json)],
              [common.summarize(p, parsed(r), j) for p, r, j in zip(common.PLACES, many, many_json)])
