#!/usr/bin/env python3
"""Four WRF runs 6 hours apart with one designed shower, for the chance-of-rain decisions (issue 46).

Each run is the sample d01 (SampleGrids/wrfout_d01_2026-11-22_00:00:00) with its precipitation
replaced: RAINC, RAINSH, SNOWNC (and GRAUPELNC, HAILNC where present) are 0 at every frame,
and RAINNC, accumulated from the start, gains 2 mm every hour at every cell within 5 cells
(Euclidean, in cells) of the shower's centre and nothing elsewhere. The centre of run m (m =
0..CYCLES-1, default 4) is (i, j) = (20 + MOVE m, 21): it moves MOVE cells east from one run
to the next. Run m is then filed EVERY m hours (default 6) after 2026-11-22T00Z by
Scripts/shift_run.py, in OUTDIR/run-<EVERY m>, and its Times are checked to start there. With
--snow the shower falls as snow: SNOWNC is the same as RAINNC (all of it frozen). With --cold the
2 m air is -5 °C everywhere (T2 = 268.15 K): the rain shower is freezing rain.
Written through netCDF4-python (libnetcdf); deterministic.

Prints JSON: the folders, the starts, the centres, and [latitude, longitude] (XLAT/XLONG) of
"centre" (run 0's centre cell), "far" (a cell more than 15 cells from every centre, at least 4
cells inside the grid), and "between" (with MOVE > 0: a cell inside run 0's shower that the
last run's shower misses), each cell's (i, j) in "cells" and, per cell, which runs rain on it.

    python3 make_shower_runs.py OUTDIR --move CELLS [--cycles 4] [--every 6] [--snow] [--cold]
"""
import argparse
import datetime as dt
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
START = dt.datetime(2026, 11, 22)  # the sample's first frame


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
    parser.add_argument("--cycles", type=int, default=4)
    parser.add_argument("--every", type=int, default=6)
    parser.add_argument("--snow", action="store_true")
    parser.add_argument("--cold", action="store_true")
    args = parser.parse_args()
    out = Path(args.outdir)
    out.mkdir(parents=True, exist_ok=True)
    shift = ROOT / "Scripts" / "shift_run.py"
    folders, lat, lon = [], None, None
    starts = []
    for m, centre in enumerate(centres(args.move, args.cycles)):
        base = out / f"base-{m}"
        base.mkdir(exist_ok=True)
        path = base / SOURCE.name
        lat, lon = write_run(path, centre, snow=args.snow, cold=args.cold)
        folder = out / f"run-{args.every * m}"
        if folder.exists():
            shutil.rmtree(folder)
        subprocess.run([sys.executable, str(shift), str(path), str(folder), str(args.every * m)], check=True, stdout=subprocess.DEVNULL)
        shutil.rmtree(base)
        start = START + dt.timedelta(hours=args.every * m)
        made = sorted(folder.iterdir())
        name = "wrfout_d01_" + start.strftime("%Y-%m-%d_%H:%M:%S")
        if [p.name for p in made] != [name]:
            sys.exit(f"{folder}: expected only {name}, found {[p.name for p in made]}")
        with netCDF4.Dataset(made[0]) as d:
            times = [b"".join(row).decode() for row in np.asarray(d["Times"][:])]
            stamp = start.strftime("%Y-%m-%d_%H:%M:%S")
            if times[0] != stamp or d.START_DATE != stamp or d.SIMULATION_START_DATE != stamp:
                sys.exit(f"{made[0]}: Times start {times[0]}, START_DATE {d.START_DATE}, expected {stamp}")
        folders.append(str(folder))
        starts.append(start.strftime("%Y-%m-%dT%H:%MZ"))
    ny, nx = lat.shape
    spots = centres(args.move, args.cycles)

    def where(i, j):
        return [round(float(lat[j, i]), 5), round(float(lon[j, i]), 5)]

    def distance(i, j, c):
        return ((i - c[0]) ** 2 + (j - c[1]) ** 2) ** 0.5

    far = next(((i, j) for j in range(4, ny - 4) for i in range(4, nx - 4) if all(distance(i, j, c) > RADIUS + 10 for c in spots)), None)
    if far is None:
        sys.exit("no cell is 15 cells from every centre and 4 cells inside the grid")
    cells = {"centre": spots[0], "far": far}
    if args.move > 0 and args.cycles > 1:
        # West of run 0's centre, so run 0's shower covers it and the last one (moved east) does
        # not: 3 cells west, or 4 or 5 where the shower moves too little for 3 to leave it
        # (5 + MOVE (CYCLES - 1) > 5 always does).
        cells["between"] = next((spots[0][0] - d, CENTRE_J) for d in (3, 4, 5)
                                if distance(spots[0][0] - d, CENTRE_J, spots[-1]) > RADIUS)
    summary = {"folders": folders, "starts": starts, "centres": spots}
    for key, (i, j) in cells.items():
        summary[key] = where(i, j)
    summary["cells"] = {key: list(cell) for key, cell in cells.items()}
    summary["wet_runs"] = {key: [m for m, c in enumerate(spots) if distance(*cell, c) <= RADIUS] for key, cell in cells.items()}
    if "between" in cells:
        wet = summary["wet_runs"]["between"]
        assert 0 in wet and len(wet) < len(spots), wet
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
