#!/usr/bin/env python3
"""Four WRF runs 6 hours apart with one designed shower, for the chance-of-rain decisions (issue 46).

Each run is the sample d01 (SampleGrids/wrfout_d01_2026-11-22_00:00:00) with its precipitation
replaced: RAINC, RAINSH, SNOWNC (and GRAUPELNC, HAILNC where present) are 0 at every frame,
and RAINNC, accumulated from the start, gains 2 mm every hour at every cell within 5 cells
(Euclidean, in cells) of the shower's centre and nothing elsewhere. The centre of run m (m =
0..3) is (i, j) = (20 + MOVE m, 21): it moves MOVE cells east from one run to the next. Run m
is then filed 6 m hours after 2026-11-22T00Z by Scripts/shift_run.py, in OUTDIR/run-<6m>. With
--snow the shower falls as snow: SNOWNC is the same as RAINNC (all of it frozen). With --cold the
2 m air is -5 °C everywhere (T2 = 268.15 K): the rain shower is freezing rain.
Written through netCDF4-python (libnetcdf); deterministic.

Prints JSON: the folders, the centres, and [latitude, longitude] of "centre" (run 0's centre
cell), "far" (a cell more than 15 cells from every centre, 4 cells inside the grid), and
"between" (with MOVE > 0: a cell inside run 0's shower that the later runs' showers miss).

    python3 make_shower_runs.py OUTDIR --move CELLS [--snow] [--cold]
"""
import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path

import netCDF4
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "SampleGrids" / "wrfout_d01_2026-11-22_00:00:00"
RADIUS = 5
RATE = 2.0
CENTRE_J = 21


def centres(move, runs=4):
    return [(20 + move * m, CENTRE_J) for m in range(runs)]


def write_run(path, centre, snow=False, cold=False):
    shutil.copyfile(SOURCE, path)
    with netCDF4.Dataset(path, "r+") as d:
        frames, ny, nx = d["RAINNC"].shape
        jj, ii = np.mgrid[0:ny, 0:nx]
        inside = (ii - centre[0]) ** 2 + (jj - centre[1]) ** 2 <= RADIUS * RADIUS
        for name in ("RAINC", "RAINSH", "SNOWNC", "GRAUPELNC", "HAILNC"):
            if name in d.variables:
                d[name][:] = np.zeros(d[name].shape, dtype=np.float32)
        d["RAINNC"][:] = np.stack([np.where(inside, RATE * k, 0).astype(np.float32) for k in range(frames)])
        if snow:
            d["SNOWNC"][:] = d["RAINNC"][:]
        if cold:
            d["T2"][:] = np.full(d["T2"].shape, 268.15, dtype=np.float32)
        # XLAT/XLONG with or without a Time dimension: the first frame's.
        lat = np.asarray(d["XLAT"][:]).reshape(-1, ny, nx)[0]
        lon = np.asarray(d["XLONG"][:]).reshape(-1, ny, nx)[0]
    return lat, lon


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("outdir")
    parser.add_argument("--move", type=int, required=True)
    parser.add_argument("--every", type=int, default=6)
    parser.add_argument("--snow", action="store_true")
    parser.add_argument("--cold", action="store_true")
    args = parser.parse_args()
    out = Path(args.outdir)
    out.mkdir(parents=True, exist_ok=True)
    shift = ROOT / "Scripts" / "shift_run.py"
    folders, lat, lon = [], None, None
    for m, centre in enumerate(centres(args.move)):
        base = out / f"base-{m}"
        base.mkdir(exist_ok=True)
        path = base / SOURCE.name
        lat, lon = write_run(path, centre, snow=args.snow, cold=args.cold)
        folder = out / f"run-{args.every * m}"
        if folder.exists():
            shutil.rmtree(folder)
        subprocess.run([sys.executable, str(shift), str(path), str(folder), str(args.every * m)], check=True, stdout=subprocess.DEVNULL)
        shutil.rmtree(base)
        folders.append(str(folder))
    ny, nx = lat.shape
    spots = centres(args.move)

    def where(i, j):
        return [round(float(lat[j, i]), 5), round(float(lon[j, i]), 5)]

    def distance(i, j, c):
        return ((i - c[0]) ** 2 + (j - c[1]) ** 2) ** 0.5

    far = next((i, j) for j in range(4, ny - 4) for i in range(4, nx - 4) if all(distance(i, j, c) > RADIUS + 10 for c in spots))
    summary = {"folders": folders, "centres": spots, "centre": where(*spots[0]), "far": where(*far)}
    if args.move > 0:
        # West of run 0's centre, so run 0's shower covers it and the later ones (moved east) do not.
        summary["between"] = where(spots[0][0] - 3, CENTRE_J)
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
