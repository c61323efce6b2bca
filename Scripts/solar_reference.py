#!/usr/bin/env python3
"""Independent reference for sunrise, sunset and daylight: astral's implementation of NOAA's
solar calculator (astral.sun.time_of_transit), for the sun's centre at zenith 90.833 degrees
without astral's own refraction term (the NOAA spreadsheet's and Open-Meteo's definition;
astral's `sunrise` uses 90.789 degrees, a refraction of 0.522 instead of 0.567 degrees, which
moves every rise and set by 20-40 s).

Usage: solar_reference.py LAT,LON,YYYY-MM-DD,OFFSET_HOURS ...
Prints CSV rows "lat,lon,date,sunrise,sunset,noon_elevation": the rise and set around local
noon of the date at that UTC offset, in seconds since 1970 UTC, or "up"/"down" when the sun
does not cross that line (polar day/night: astral raises ValueError; the sun's elevation at
noon tells which). noon_elevation is astral's geometric elevation (no refraction) at its solar
noon, degrees: astral finds no crossing on a few days whose noon sun is just above the line
(it evaluates the hour angle at one time of the day), so a test can tell that edge from a real
disagreement.
"""
import datetime
import sys

from astral import Observer
from astral.sun import SunDirection, elevation, noon, time_of_transit

ZENITH = 90.833


def crossing(observer, local_noon, direction):
    """The crossing nearest local noon's day, trying the neighbouring UTC dates."""
    best = None
    for shift in (-1, 0, 1):
        day = (local_noon + datetime.timedelta(days=shift)).date()
        when = time_of_transit(observer, day, ZENITH, direction, with_refraction=False)
        gap = abs((when - local_noon).total_seconds())
        if gap < 86_400 * 0.75 and (best is None or gap < best[0]):
            best = (gap, when)
    return best[1].timestamp()


def main(args):
    print("lat,lon,date,sunrise,sunset,noon_elevation")
    for arg in args:
        lat, lon, date, offset = arg.split(",")
        observer = Observer(latitude=float(lat), longitude=float(lon), elevation=0)
        zone = datetime.timezone(datetime.timedelta(hours=float(offset)))
        day = datetime.date.fromisoformat(date)
        local_noon = datetime.datetime(day.year, day.month, day.day, 12, tzinfo=zone).astimezone(datetime.timezone.utc)
        lift = elevation(observer, noon(observer, day), with_refraction=False)
        try:
            rise = crossing(observer, local_noon, SunDirection.RISING)
            sets = crossing(observer, local_noon, SunDirection.SETTING)
            print(f"{lat},{lon},{date},{rise:.1f},{sets:.1f},{lift:.4f}")
        except ValueError:
            # Up all day when even the midnight sun is above the line; otherwise down (on the
            # edge days above, "down" with a noon elevation above the line).
            midnight = noon(observer, day) + datetime.timedelta(hours=12)
            up = elevation(observer, midnight, with_refraction=False) > 90 - ZENITH
            print(f"{lat},{lon},{date},{'up' if up else 'down'},{'up' if up else 'down'},{lift:.4f}")


if __name__ == "__main__":
    main(sys.argv[1:])
