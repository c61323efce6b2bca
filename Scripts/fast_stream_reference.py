#!/usr/bin/env python3
"""Independent reference for 15-minute answers: T2 and the precipitation of each 15 minutes at
seeded places, from one WRF file's own frames.

Usage: fast_stream_reference.py FILE [--seed N] [--places N] [--margin CELLS] [--every MINUTES]

FILE is a wrfout or auxhist file. Places are drawn uniformly (seeded) inside its grid, MARGIN
cells in from its edges; times run every MINUTES from its first frame to its last. Each value is
the bilinear interpolation in grid-index space of a frame (the place projected with pyproj on
WRF's 6370 km sphere, relative to the file's south-west mass point), linear in time between the
two frames around a time that is not a frame. The precipitation at a time is RAINC + RAINNC
(+ RAINSH) at the place at that time minus the same MINUTES before (0 at the first time, whose
interval the file does not hold). Prints CSV rows: latitude,longitude,time,temperature_2m
(degrees C),precipitation (mm). Shares nothing with the Swift engine (moving_nest_reference.py
holds the projection and bilinear steps).
"""
import argparse
import bisect
import datetime as dt
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from moving_nest_reference import bilinear, position, projection, read  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--seed", type=int, default=20261127)
    ap.add_argument("--places", type=int, default=100)
    ap.add_argument("--margin", type=float, default=5.0)
    ap.add_argument("--every", type=int, default=15)
    args = ap.parse_args()
    a, times, lat, lon, t2, total = read(args.file)
    p = projection(a)
    ny, nx = lat.shape[1], lat.shape[2]
    rng = random.Random(args.seed)
    seconds = [(t - times[0]).total_seconds() for t in times]
    step = args.every * 60

    def at(field, i, j, s):
        """The field at the place, linear in time between the frames around s (seconds)."""
        k = bisect.bisect_left(seconds, s)
        if k < len(seconds) and seconds[k] == s:
            return bilinear(field[k], i, j)
        w = (s - seconds[k - 1]) / (seconds[k] - seconds[k - 1])
        return (1 - w) * bilinear(field[k - 1], i, j) + w * bilinear(field[k], i, j)

    print("latitude,longitude,time,temperature_2m,precipitation")
    for _ in range(args.places):
        # A place inside the grid, away from the edges: drawn in grid space, then located.
        gi = rng.uniform(args.margin, nx - 1 - args.margin)
        gj = rng.uniform(args.margin, ny - 1 - args.margin)
        x0, y0 = p(lon[0, 0, 0], lat[0, 0, 0])
        place_lon, place_lat = p(x0 + gi * a["DX"], y0 + gj * a["DX"], inverse=True)
        place = (round(place_lat, 4), round(place_lon, 4))
        i, j = position(p, a, lat, lon, 0, place)
        s = 0.0
        while s <= seconds[-1]:
            when = times[0] + dt.timedelta(seconds=s)
            temperature = at(t2, i, j, s) - 273.15
            rain = 0.0 if s == 0 else at(total, i, j, s) - at(total, i, j, s - step)
            print(f"{place[0]},{place[1]},{when:%Y-%m-%dT%H:%M}Z,{temperature:.4f},{rain:.4f}")
            s += step


if __name__ == "__main__":
    main()
