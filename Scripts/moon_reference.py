#!/usr/bin/env python3
"""Independent reference for the daily moonrise, moonset and moon_phase: astral's moon
(astral.moon, its own lunar series and rise/set search; nothing shared with TileCast's Swift).

Usage: moon_reference.py [--seed N] [--days N] [--max-latitude DEGREES]

Prints CSV rows "lat,lon,date,moonrise,moonset,phase" for --days seeded places (latitude
within --max-latitude degrees of the equator, default 60; any longitude) and UTC dates in 2000-2040: the rise and set in
that UTC day as seconds since 1970 (astral rounds them to the nearest minute), "none" when astral
finds none that day, and astral's phase (0-27.99 days of its 28-day scale) divided by 28.
"""
import argparse
import datetime

import numpy as np
from astral import Observer, moon


def event(function, observer, day):
    try:
        when = function(observer, day, datetime.timezone.utc)
    except ValueError:  # astral: the moon never rises (sets) on this date
        return "none"
    return "none" if when is None else str(int(when.timestamp()))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=20261127)
    ap.add_argument("--days", type=int, default=300)
    ap.add_argument("--max-latitude", type=float, default=60)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    print("lat,lon,date,moonrise,moonset,phase")
    first = datetime.date(2000, 1, 1)
    for _ in range(args.days):
        lat, lon = round(float(rng.uniform(-args.max_latitude, args.max_latitude)), 4), round(float(rng.uniform(-180, 180)), 4)
        day = first + datetime.timedelta(days=int(rng.integers(0, 40 * 365)))
        observer = Observer(lat, lon)
        print(f"{lat},{lon},{day.isoformat()},{event(moon.moonrise, observer, day)},{event(moon.moonset, observer, day)},"
              f"{moon.phase(day) / 28:.6f}")


if __name__ == "__main__":
    main()
