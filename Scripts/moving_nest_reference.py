#!/usr/bin/env python3
"""Independent reference for a moving nest: T2 at seeded places and half-hour times, computed
frame by frame on each frame's own XLAT/XLONG, as a reader that knew nothing of covering grids
would compute it.

Usage: moving_nest_reference.py RUN [--seed N] [--places N] [--margin CELLS] [--precipitation]

RUN is a folder holding wrfout_d01_* and a moving wrfout_d02_*, or a moving nest's file alone
(then a place the nest did not hold is answered by nothing: domain "none").

For each place and time between two frames it decides which domain should answer: the nest
(wrfout_d02_*) when its grid held the four cells around the place, at least MARGIN cells inside
its edges, at both frames; otherwise the parent (wrfout_d01_*). The value is the bilinear
interpolation in grid-index space of each bracketing frame (the place projected with pyproj on
WRF's 6370 km sphere, relative to that frame's own south-west mass point), then linear in time.
Prints CSV rows: latitude,longitude,time,domain,temperature_2m (degrees C). With
--precipitation the times are frame times instead, and the value is the precipitation (mm) of
the hour ending there (the interval's amount spread evenly over its hours): the difference of RAINC + RAINNC + RAINSH interpolated at the place
on each of the two frames' own grids (the nest must hold the place at both).
"""
import argparse
import datetime as dt
import glob
import math
import os

import numpy as np
import pyproj
from netCDF4 import Dataset


def read(path):
    with Dataset(path) as ds:
        ds.set_auto_mask(False)
        a = {k: ds.getncattr(k) for k in ("MAP_PROJ", "TRUELAT1", "TRUELAT2", "STAND_LON", "MOAD_CEN_LAT", "DX")}
        times = [dt.datetime.strptime(b"".join(t).decode(), "%Y-%m-%d_%H:%M:%S") for t in ds["Times"][:]]
        total = sum(ds[n][:].astype(np.float64) for n in ("RAINC", "RAINNC", "RAINSH") if n in ds.variables)
        return (a, times, ds["XLAT"][:].astype(np.float64), ds["XLONG"][:].astype(np.float64), ds["T2"][:].astype(np.float64),
                total)


def projection(a):
    """WRF's Lambert conformal (MAP_PROJ 1) or Mercator (3) on its 6370 km sphere."""
    if int(a["MAP_PROJ"]) == 3:
        return pyproj.Proj(proj="merc", lat_ts=a["TRUELAT1"], lon_0=a["STAND_LON"], a=6370000.0, b=6370000.0)
    return pyproj.Proj(proj="lcc", lat_1=a["TRUELAT1"], lat_2=a["TRUELAT2"], lat_0=a["MOAD_CEN_LAT"],
                       lon_0=a["STAND_LON"], a=6370000.0, b=6370000.0)


def position(p, a, lat, lon, frame, place):
    """Fractional (i, j) of place on the frame's own grid."""
    x0, y0 = p(lon[frame, 0, 0], lat[frame, 0, 0])
    x, y = p(place[1], place[0])
    return (x - x0) / a["DX"], (y - y0) / a["DX"]


def bilinear(field, i, j):
    i0, j0 = min(int(math.floor(i)), field.shape[1] - 2), min(int(math.floor(j)), field.shape[0] - 2)
    fi, fj = i - i0, j - j0
    return ((1 - fi) * (1 - fj) * field[j0, i0] + fi * (1 - fj) * field[j0, i0 + 1]
            + (1 - fi) * fj * field[j0 + 1, i0] + fi * fj * field[j0 + 1, i0 + 1])


def place_between_nodes(rng, p, x0, y0, dx, nx, ny):
    """A seeded place between a grid's nodes: a fractional position drawn inside the grid,
    turned into latitude and longitude rounded to 5 decimals (as the query echoes them), and
    the rounded place's own position (i along west_east, j along south_north)."""
    i, j = rng.uniform(0, nx - 1), rng.uniform(0, ny - 1)
    plon, plat = p(x0 + i * dx, y0 + j * dx, inverse=True)
    place = (round(float(plat), 5), round(float(plon), 5))
    x, y = p(place[1], place[0])
    return place, (x - x0) / dx, (y - y0) / dx


def half_way_between_frames(rng, times):
    """A seeded frame k (not the last) and the time half way to frame k + 1."""
    k = int(rng.integers(0, len(times) - 1))
    return k, times[k] + (times[k + 1] - times[k]) / 2


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("folder")
    ap.add_argument("--seed", type=int, default=20261122)
    ap.add_argument("--places", type=int, default=500)
    ap.add_argument("--margin", type=float, default=5.0)
    ap.add_argument("--precipitation", action="store_true")
    args = ap.parse_args()
    if os.path.isdir(args.folder):
        parent = read(sorted(glob.glob(os.path.join(args.folder, "wrfout_d01_*")))[0])
        nest = read(sorted(glob.glob(os.path.join(args.folder, "wrfout_d02_*")))[0])
    else:
        parent, nest = None, read(args.folder)
    pp, np_ = projection(parent[0]) if parent else None, projection(nest[0])
    times = nest[1]
    rng = np.random.default_rng(args.seed)
    lat_range = (nest[2].min(), nest[2].max())
    lon_range = (nest[3].min(), nest[3].max())
    print("latitude,longitude,time,domain," + ("precipitation" if args.precipitation else "temperature_2m"))
    for n in range(args.places):
        k = int(rng.integers(0, len(times) - 1))
        if n % 2:
            place = (round(rng.uniform(*lat_range), 4), round(rng.uniform(*lon_range), 4))
        else:
            # Half the places inside the nest's grid at one of the two frames, near where it
            # moves: inside at both, or left behind or not yet reached.
            a, _, lat, lon, _, _ = nest
            frame = k + int(rng.integers(0, 2))
            x0, y0 = np_(lon[frame, 0, 0], lat[frame, 0, 0])
            i, j = rng.uniform(4.5, lat.shape[2] - 5.5), rng.uniform(4.5, lat.shape[1] - 5.5)
            plon, plat = np_(x0 + i * a["DX"], y0 + j * a["DX"], inverse=True)
            place = (round(float(plat), 4), round(float(plon), 4))
        when = times[k + 1] if args.precipitation else times[k] + (times[k + 1] - times[k]) / 2
        a, _, lat, lon, t2, rain = nest
        field = rain if args.precipitation else t2
        ny, nx = t2.shape[1:]
        inside = True
        values = []
        for frame in (k, k + 1):
            i, j = position(np_, a, lat, lon, frame, place)
            m = args.margin
            if not (m <= i <= nx - 1 - m and m <= j <= ny - 1 - m):
                inside = False
                break
            values.append(bilinear(field[frame], i, j))
        domain = "d02"
        if not inside and parent is None:
            print(f"{place[0]},{place[1]},{when.strftime('%Y-%m-%dT%H:%MZ')},none,")
            continue
        if not inside:
            a, _, lat, lon, t2, rain = parent
            field = rain if args.precipitation else t2
            domain = "d01"
            values = [bilinear(field[frame], *position(pp, a, lat, lon, frame, place)) for frame in (k, k + 1)]
        # Precipitation is answered per hour (the preceding hour's amount): an interval of
        # several hours is spread evenly over them.
        hours = (times[k + 1] - times[k]).total_seconds() / 3600
        value = (values[1] - values[0]) / hours if args.precipitation else 0.5 * (values[0] + values[1]) - 273.15
        print(f"{place[0]},{place[1]},{when.strftime('%Y-%m-%dT%H:%MZ')},{domain},{value:.6f}")


if __name__ == "__main__":
    main()
