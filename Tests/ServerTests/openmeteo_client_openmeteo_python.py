"""openmeteo-python (PyPI, unmodified; module `openmeteo`) against tilecast serve:
`ForecastClient.get` sends its request to the client's BASE_URL (a class attribute,
https://api.open-meteo.com/v1/forecast), set here on the instance to the test server's
/v1/forecast. It parses JSON into a WeatherResponse of one place (a list of coordinates would
bring Open-Meteo's array of places, which it does not read), so many places are one call each.
Arguments: the server's base URL. Output: see openmeteo_clients_common.py."""
from openmeteo import ForecastClient

import openmeteo_clients_common as common


def parsed(response):
    """What the library parsed (Location, TimeSeriesData, CurrentData), in the shape common.summarize reads."""
    offset = response.location.utc_offset_seconds
    out = {"latitude": response.location.latitude, "longitude": response.location.longitude}
    for section, series in (("hourly", response.hourly), ("daily", response.daily)):
        out[section] = dict(series.data)
        out[section]["time"] = [common.unix_seconds(t, offset) for t in series.time]
    out["current"] = dict(response.current.data)
    out["current"]["time"] = common.unix_seconds(response.current.time, offset)
    return out


def one(client, place):
    return client.get(latitude=place[0], longitude=place[1], hourly=common.HOURLY, daily=common.DAILY,
                      current=common.CURRENT, forecast_days=common.FORECAST_DAYS, timezone=common.TIMEZONE)


client = ForecastClient()
client.BASE_URL = common.base_url() + "/v1/forecast"
single_place = common.PLACES[:1]
single = [one(client, place) for place in single_place]
many = [one(client, place) for place in common.PLACES]
single_json, many_json = common.reference(single_place), common.reference(common.PLACES)
common.report("openmeteo-python", ["openmeteo-python"],
              [common.summarize(p, parsed(r), j) for p, r, j in zip(single_place, single, single_json)],
              [common.summarize(p, parsed(r), j) for p, r, j in zip(common.PLACES, many, many_json)])
