"""Home Assistant's Open-Meteo client (PyPI `open-meteo`, unmodified) against tilecast serve.

The library has no base-URL option: `OpenMeteo.forecast` always asks for
https://api.open-meteo.com/v1/forecast through the aiohttp session it is given (its `session`
argument, which Home Assistant fills with its own). The session given here sends that request
to the test's server instead, changing only scheme, host and port: the path and every parameter
are the library's own. One place per call (the library takes one latitude and longitude), so many
places are several calls at once, as an app with several places makes them.
Arguments: the server's base URL. Output: see openmeteo_clients_common.py."""
import asyncio, warnings
from datetime import date, datetime, timezone

# aiohttp discourages subclassing ClientSession, with a warning; the subclass below only rebases URLs.
warnings.simplefilter("ignore", DeprecationWarning)
import aiohttp
from yarl import URL
from open_meteo import OpenMeteo

import openmeteo_clients_common as common


class RebasedSession(aiohttp.ClientSession):
    """The library's requests, sent to another scheme, host and port."""

    def __init__(self, base):
        super().__init__()
        self.base = URL(base)

    def get(self, url, **kwargs):
        url = URL(url)
        return super().get(url.with_scheme(self.base.scheme).with_host(self.base.host).with_port(self.base.port), **kwargs)


def seconds(value, offset):
    """The library's datetimes and dates (local time, naive or with a zone) as unix seconds."""
    if isinstance(value, datetime):
        if value.tzinfo is not None:
            return int(value.timestamp())
        return int(value.replace(tzinfo=timezone.utc).timestamp()) - offset
    if isinstance(value, date):
        return int(datetime(value.year, value.month, value.day, tzinfo=timezone.utc).timestamp()) - offset
    raise TypeError(f"not a time: {value!r}")


def parsed(forecast):
    """What the library parsed, in the shape common.summarize reads."""
    offset = forecast.utc_offset_seconds
    out = {"latitude": forecast.latitude, "longitude": forecast.longitude}
    for section, names in (("hourly", common.HOURLY), ("daily", common.DAILY)):
        block = getattr(forecast, section)
        out[section] = {"time": [seconds(t, offset) for t in block.time]}
        for name in names:
            values = getattr(block, name, None)
            if values is not None:
                out[section][name] = values
    current = forecast.current
    out["current"] = {"time": seconds(current.time, offset)}
    for name in common.CURRENT:
        out["current"][name] = getattr(current, name)
    return out


async def one(client, place):
    return await client.forecast(latitude=place[0], longitude=place[1], hourly=common.HOURLY, daily=common.DAILY,
                                 current=common.CURRENT, forecast_days=common.FORECAST_DAYS, timezone=common.TIMEZONE)


async def main():
    async with RebasedSession(common.base_url()) as session:
        client = OpenMeteo(session=session)
        single_place = common.PLACES[:1]
        single = [await one(client, place) for place in single_place]
        many = await asyncio.gather(*(one(client, place) for place in common.PLACES))
    single_json, many_json = common.reference(single_place), common.reference(common.PLACES)
    common.report("open-meteo (Home Assistant)", ["open-meteo"],
                  [common.summarize(p, parsed(f), j) for p, f, j in zip(single_place, single, single_json)],
                  [common.summarize(p, parsed(f), j) for p, f, j in zip(common.PLACES, many, many_json)])


asyncio.run(main())
