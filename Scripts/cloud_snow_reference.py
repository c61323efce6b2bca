#!/usr/bin/env python3
"""Independent reference for more of issue 28's variables from a WRF history file, written from
the published definitions (not from TileCast's Swift code):

  * cloud_base, cloud_top (m above ground): ECMWF's cloud base height rule (IFS cbh): a mass
    level is cloudy where CLDFRA > 0.01 and QCLOUD + QICE > 1e-6 kg/kg; the base is the smallest
    and the top the largest height above ground of a cloudy level (numpy nanmin / nanmax over the
    levels), heights = mean of the two staggered (PH + PHB) / 9.81 around the level, less HGT.
    nan for a column without a cloudy level.
  * snow_density (kg/m3): SNOW / SNOWH where both are above 0, else nan.
  * direct_normal_irradiance (and _instant), shortwave_radiation_clear_sky, lightning_potential,
    roughness_length: the file's SWDDNI, SWDNBC, LPI and ZNT as netCDF4 reads them (only when
    the file has them; Scripts/add_wrf_diagnostics.py writes a copy that does).

Usage: cloud_snow_reference.py WRFOUT [--seed N] [--places N]

Rows: every mass node at every frame (the cell's own values: compare with the store's nearest
cell, since XLAT/XLONG project a little off the node, where a null neighbour would count), then --places seeded places between nodes at half-hour
times between frames (with --on-frames, at the frames' times: a cloud boundary between frames
needs all eight values around it cloudy, which few places of the sample have) (bilinear in grid-index space on the file's grid, the place projected with
pyproj on WRF's 6370 km sphere, then linear in time; nan when a value around it is nan).
Prints CSV: latitude,longitude,time, then one column per variable ("nan" where undefined).
"""
import argparse
import datetime as dt
import os
import sys

import numpy as np
from netCDF4 import Dataset

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from moving_nest_reference import half_way_between_frames, place_between_nodes, projection  # noqa: E402

G = 9.81
FIELDS = {"direct_normal_irradiance": "SWDDNI", "direct_normal_irradiance_instant": "SWDDNI",
          "shortwave_radiation_clear_sky": "SWDNBC", "lightning_potential": "LPI", "roughness_length": "ZNT"}


def bilinear(field, i, j):
    """Bilinear in grid-index space by the store's documented rules (docs/STORE-FORMAT.md,
    README's query rules): a position up to the edge is clamped onto it, and a corner whose
    weight is exactly 0 is not read, so a missing (nan) neighbour reaches a value only through
    a weight above 0; any nan corner with weight makes the value nan."""
    ny, nx = field.shape
    i, j = min(max(i, 0.0), nx - 1.0), min(max(j, 0.0), ny - 1.0)
    i0, j0 = min(int(np.floor(i)), nx - 2), min(int(np.floor(j)), ny - 2)
    fi, fj = i - i0, j - j0
    total = 0.0
    for (dj, di), weight in (((0, 0), (1 - fi) * (1 - fj)), ((0, 1), fi * (1 - fj)), ((1, 0), (1 - fi) * fj), ((1, 1), fi * fj)):
        if weight != 0:
            total += weight * field[j0 + dj, i0 + di]
    return total


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--seed", type=int, default=20261127)
    ap.add_argument("--places", type=int, default=500)
    ap.add_argument("--on-frames", action="store_true",
                    help="the seeded places at the frames' own times (space alone), not half-way between frames")
    args = ap.parse_args()
    with Dataset(args.file) as ds:
        ds.set_auto_mask(False)
        attributes = {k: ds.getncattr(k) for k in ("MAP_PROJ", "TRUELAT1", "TRUELAT2", "STAND_LON", "MOAD_CEN_LAT", "DX")}
        times = [dt.datetime.strptime(b"".join(t).decode(), "%Y-%m-%d_%H:%M:%S") for t in ds["Times"][:]]
        lat = np.asarray(ds["XLAT"][:], dtype=np.float64)
        lon = np.asarray(ds["XLONG"][:], dtype=np.float64)
        lat, lon = (lat[0], lon[0]) if lat.ndim == 3 else (lat, lon)

        def f(name):
            return np.asarray(ds[name][:], dtype=np.float64)

        zs = (f("PH") + f("PHB")) / G
        hgt = f("HGT")
        hgt = hgt if hgt.ndim == 3 else np.broadcast_to(hgt, (len(times),) + hgt.shape)
        cloudy = (f("CLDFRA") > 0.01) & (f("QCLOUD") + f("QICE") > 1e-6)
        snow, depth = f("SNOW"), f("SNOWH")
        direct = {name: f(field) for name, field in FIELDS.items() if field in ds.variables}
    above = (zs[:, 1:] + zs[:, :-1]) / 2 - hgt[:, None]
    heights = np.where(cloudy, above, np.nan)
    with np.errstate(invalid="ignore", divide="ignore"):
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            base, top = np.nanmin(heights, axis=1), np.nanmax(heights, axis=1)
        density = np.where((snow > 0) & (depth > 0), snow / np.where(depth > 0, depth, 1), np.nan)
    fields = {"cloud_base": base, "cloud_top": top, "snow_density": density, **direct}
    columns = list(fields)

    nt, ny, nx = base.shape
    pr = projection(attributes)
    x0, y0 = pr(lon[0, 0], lat[0, 0])
    dx = float(attributes["DX"])
    rows = []
    for k, when in enumerate(times):
        for j in range(ny):
            for i in range(nx):
                # The cell's own values: the test asks the store for the nearest cell here.
                rows.append(((float(lat[j, i]), float(lon[j, i])), when, {c: fields[c][k, j, i] for c in columns}))
    rng = np.random.default_rng(args.seed)
    for _ in range(args.places):
        place, i, j = place_between_nodes(rng, pr, x0, y0, dx, nx, ny)
        if args.on_frames:
            k = int(rng.integers(0, len(times)))
            rows.append((place, times[k], {c: bilinear(fields[c][k], i, j) for c in columns}))
            continue
        k, when = half_way_between_frames(rng, times)
        rows.append((place, when, {c: 0.5 * (bilinear(fields[c][k], i, j) + bilinear(fields[c][k + 1], i, j)) for c in columns}))
    print("latitude,longitude,time," + ",".join(columns))
    for place, when, values in rows:
        print(f"{place[0]!r},{place[1]!r},{when.strftime('%Y-%m-%dT%H:%MZ')}," + ",".join(f"{values[c]:.6f}" for c in columns))


if __name__ == "__main__":
    main()
