#!/usr/bin/env python3
"""Independent reference for global_tilted_irradiance (issue 28), from a WRF history file and
pvlib, written from the published definitions (not from TileCast's Swift code):

  * the sun's zenith (no refraction) and azimuth: pvlib's SPA (get_solarposition, nrel_numpy);
  * the plane: Open-Meteo's tilt (0 flat .. 90 vertical) and azimuth (0 south, -90 east,
    90 west), so pvlib's surface_azimuth (from north) is 180 + azimuth; "nan" tracks the sun
    (tilt = the zenith, at most 90; azimuth = the sun's);
  * with SWDDIR and SWDDIF in the file: GHI = SWDDIR + SWDDIF, DHI = SWDDIF, DNI = SWDDIR /
    cos(zenith), 0 beyond 87 degrees; without them: SWDOWN split by pvlib.irradiance.erbs
    (max_zenith 87, the UTC day of year);
  * GTI = pvlib.irradiance.get_total_irradiance(model="isotropic", albedo=0.2)["poa_global"]
    (Open-Meteo's transposition: isotropic sky, ground albedo 0.2).

Rows: every mass node at every frame time, then --places seeded places between nodes at
half-hour times between frames (inputs bilinear in grid-index space on the file's own grid,
the place projected with pyproj on WRF's sphere, then linear in time), as the other references.

Each row also gets a tolerance: the reference's own spread when each radiation input moves by
half its stored step (0.5 W/m2; the store keeps radiation to 1 W/m2 and interpolating
quantised values errs by no more) and the sun by 0.05 degrees in zenith and azimuth (what
separates NOAA's solar calculator, the engine's, from SPA), plus 0.5 for the printed whole
W/m2. Near the 87 degree cut-off the spread includes the step it makes.

Usage: tilted_irradiance_reference.py WRFOUT --orientations 0:0,35:-20,90:90,nan:nan [--random-orientations N]
       [--seed N] [--places N]
Prints CSV: latitude,longitude,time, then gti_T:A,tolerance_T:A for each orientation (tilt T, azimuth A).
"""
import argparse
import datetime as dt
import itertools
import math
import os
import sys

import numpy as np
import pandas as pd
import pvlib
from netCDF4 import Dataset

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from moving_nest_reference import bilinear, half_way_between_frames, place_between_nodes, projection  # noqa: E402  (WRF's projections, bilinear in index space)

MAX_ZENITH = 87.0
HALF_STEP = 0.5       # W/m2: half the stored precision of the radiation fields
SUN_SLACK = 0.05      # degrees
PRINTED = 0.5         # W/m2: answers print whole W/m2


def gti(inputs, zenith, azimuth, doy, tilt, facing):
    """pvlib's isotropic POA global for one row. inputs: (ghi,) or (direct, diffuse)."""
    if any(not math.isfinite(v) for v in inputs):
        return float("nan")
    if len(inputs) == 2:
        direct, diffuse = inputs
        ghi, dhi = direct + diffuse, diffuse
        dni = direct / math.cos(math.radians(zenith)) if zenith <= MAX_ZENITH and direct > 0 else 0.0
    else:
        ghi = inputs[0]
        split = pvlib.irradiance.erbs(np.array([ghi]), np.array([zenith]), np.array([doy]), max_zenith=MAX_ZENITH)
        dni, dhi = float(split["dni"][0]), float(split["dhi"][0])
    if ghi <= 0 and dhi <= 0 and dni <= 0:
        return 0.0
    surface_tilt = min(max(zenith, 0.0), 90.0) if math.isnan(tilt) else tilt
    surface_azimuth = azimuth if math.isnan(facing) else 180.0 + facing
    poa = pvlib.irradiance.get_total_irradiance(surface_tilt, surface_azimuth, zenith, azimuth,
                                                max(dni, 0.0), max(ghi, 0.0), max(dhi, 0.0),
                                                albedo=0.2, model="isotropic")
    return float(poa["poa_global"])


def with_tolerance(inputs, zenith, azimuth, doy, tilt, facing):
    value = gti(inputs, zenith, azimuth, doy, tilt, facing)
    if math.isnan(value):
        return value, float("nan")
    spread = 0.0
    shifts = itertools.product(*([(-HALF_STEP, 0.0, HALF_STEP)] * len(inputs)), (-SUN_SLACK, 0.0, SUN_SLACK), (-SUN_SLACK, SUN_SLACK))
    for shift in shifts:
        moved = tuple(max(v + d, 0.0) for v, d in zip(inputs, shift[:len(inputs)]))
        other = gti(moved, zenith + shift[-2], azimuth + shift[-1], doy, tilt, facing)
        spread = max(spread, abs(other - value))
    return value, spread + PRINTED


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--orientations", required=True, help="tilt:azimuth pairs, comma-separated (nan tracks the sun)")
    ap.add_argument("--seed", type=int, default=20261127)
    ap.add_argument("--places", type=int, default=200)
    ap.add_argument("--random-orientations", type=int, default=0, help="this many more, seeded: tilt 0..90, azimuth -180..180")
    args = ap.parse_args()
    orientations = [tuple(float(x) for x in pair.split(":")) for pair in args.orientations.split(",")]
    orientation_rng = np.random.default_rng(args.seed + 1)
    for _ in range(args.random_orientations):
        orientations.append((round(float(orientation_rng.uniform(0, 90)), 1), round(float(orientation_rng.uniform(-180, 180)), 1)))
    with Dataset(args.file) as ds:
        ds.set_auto_mask(False)
        attributes = {k: ds.getncattr(k) for k in ("MAP_PROJ", "TRUELAT1", "TRUELAT2", "STAND_LON", "MOAD_CEN_LAT", "DX")}
        times = [dt.datetime.strptime(b"".join(t).decode(), "%Y-%m-%d_%H:%M:%S") for t in ds["Times"][:]]
        lat = np.asarray(ds["XLAT"][:], dtype=np.float64)
        lon = np.asarray(ds["XLONG"][:], dtype=np.float64)
        lat, lon = (lat[0], lon[0]) if lat.ndim == 3 else (lat, lon)
        split = "SWDDIR" in ds.variables and "SWDDIF" in ds.variables
        names = ["SWDDIR", "SWDDIF"] if split else ["SWDOWN"]
        fields = [np.asarray(ds[name][:], dtype=np.float64) for name in names]

    p = projection(attributes)
    x0, y0 = p(lon[0, 0], lat[0, 0])
    dx = float(attributes["DX"])
    ny, nx = lat.shape
    rows = []
    for k, when in enumerate(times):
        for j in range(ny):
            for i in range(nx):
                rows.append(((float(lat[j, i]), float(lon[j, i])), when, tuple(f[k, j, i] for f in fields)))
    rng = np.random.default_rng(args.seed)
    for _ in range(args.places):
        place, i, j = place_between_nodes(rng, p, x0, y0, dx, nx, ny)
        k, when = half_way_between_frames(rng, times)
        rows.append((place, when, tuple(0.5 * (bilinear(f[k], i, j) + bilinear(f[k + 1], i, j)) for f in fields)))

    header = ["latitude", "longitude", "time"]
    for tilt, facing in orientations:
        header += [f"gti_{tilt:g}:{facing:g}", f"tolerance_{tilt:g}:{facing:g}"]
    print(",".join(header))
    for place, when, inputs in rows:
        sun = pvlib.solarposition.get_solarposition(pd.DatetimeIndex([when], tz="UTC"), place[0], place[1], method="nrel_numpy")
        zenith, azimuth = float(sun["zenith"].iloc[0]), float(sun["azimuth"].iloc[0])
        doy = when.timetuple().tm_yday
        cells = []
        for tilt, facing in orientations:
            value, tolerance = with_tolerance(inputs, zenith, azimuth, doy, tilt, facing)
            cells += [f"{value:.4f}", f"{tolerance:.4f}"]
        print(f"{place[0]!r},{place[1]!r},{when.strftime('%Y-%m-%dT%H:%MZ')}," + ",".join(cells))


if __name__ == "__main__":
    main()
