#!/usr/bin/env python3
"""Independent reference for fields a WRF run stores as they are: surface_temperature (TSK,
in degrees C), boundary_layer_height (PBLH, m), snow_depth_water_equivalent (SNOW, mm) and albedo
(ALBEDO, a fraction, in %).

Usage: surface_fields_reference.py WRFOUT [--seed N] [--places N]

Rows at seeded places and times: half of them exactly on a mass node at a frame time (the
node's value), half between nodes at half-hour times between frames (bilinear in grid-index
space on the file's own grid, the place projected with pyproj on WRF's 6370 km sphere, then
linear in time). Prints CSV: latitude,longitude,time,surface_temperature,boundary_layer_height,
snow_depth_water_equivalent,albedo. Shares nothing with the Swift engine.
"""
import argparse
import datetime as dt
import os
import sys

import numpy as np
from netCDF4 import Dataset

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from moving_nest_reference import bilinear, half_way_between_frames, place_between_nodes, projection  # noqa: E402  (WRF's projections, bilinear in index space)

# (name, scale, offset): the file's value times scale plus offset is the served value.
FIELDS = [("TSK", 1.0, -273.15), ("PBLH", 1.0, 0.0), ("SNOW", 1.0, 0.0), ("ALBEDO", 100.0, 0.0)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--seed", type=int, default=20261122)
    ap.add_argument("--places", type=int, default=500)
    args = ap.parse_args()
    with Dataset(args.file) as ds:
        ds.set_auto_mask(False)
        attributes = {k: ds.getncattr(k) for k in ("MAP_PROJ", "TRUELAT1", "TRUELAT2", "STAND_LON", "MOAD_CEN_LAT", "DX")}
        p = projection(attributes)
        dx = float(attributes["DX"])
        times = [dt.datetime.strptime(b"".join(t).decode(), "%Y-%m-%d_%H:%M:%S") for t in ds["Times"][:]]
        lat = np.asarray(ds["XLAT"][:], dtype=np.float64)
        lon = np.asarray(ds["XLONG"][:], dtype=np.float64)
        lat, lon = (lat[0], lon[0]) if lat.ndim == 3 else (lat, lon)
        fields = [np.asarray(ds[name][:], dtype=np.float64) * scale + offset for name, scale, offset in FIELDS]
    x0, y0 = p(lon[0, 0], lat[0, 0])
    ny, nx = lat.shape
    rng = np.random.default_rng(args.seed)
    print("latitude,longitude,time,surface_temperature,boundary_layer_height,snow_depth_water_equivalent,albedo")
    for n in range(args.places):
        if n % 2 == 0:
            j, i, k = int(rng.integers(0, ny)), int(rng.integers(0, nx)), int(rng.integers(0, len(times)))
            place, when = (float(lat[j, i]), float(lon[j, i])), times[k]
            values = [f[k, j, i] for f in fields]
        else:
            place, i, j = place_between_nodes(rng, p, x0, y0, dx, nx, ny)
            k, when = half_way_between_frames(rng, times)
            values = [0.5 * (bilinear(f[k], i, j) + bilinear(f[k + 1], i, j)) for f in fields]
        print(f"{place[0]!r},{place[1]!r},{when.strftime('%Y-%m-%dT%H:%MZ')}," + ",".join(f"{v:.6f}" for v in values))


if __name__ == "__main__":
    main()
