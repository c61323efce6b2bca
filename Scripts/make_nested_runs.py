#!/usr/bin/env python3
"""Write small WRF runs of the shapes centres use into SampleGrids/nested-runs/.

Usage
    pip install -r Scripts/requirements.txt
    python3 Scripts/make_nested_runs.py        # (re)writes SampleGrids/nested-runs/ (well under 2 MB)

  three-level/   d01 27 km (12 x 10), d02 9 km (ratio 3, 19 x 19), d03 1.8 km (ratio 5, 21 x 21,
                 nested in d02): three levels of nesting with ratios that differ; 4 hourly frames.
  hourly-files/  d01 15 km (10 x 8) and d02 5 km (ratio 3, 15 x 15), 25 hourly frames written as WRF
                 does with frames_per_outfile = 1: one file per output time and domain (50 files).
  moving-nest/   d01 15 km (16 x 12) and a d02 5 km (ratio 3, 18 x 18) that follows a storm: it moves by
                 whole parent cells, (4, 3) -> (5, 3) -> (6, 3) -> (6, 4) -> (7, 4) -> (8, 5), one frame an hour
                 from 06Z (the file of a split run holding its rainy hours).

Files follow the real wrfout conventions (attributes, Times, XTIME, WRF's 6370 km sphere) through
make_sample_grids.py's writer; the weather is its analytic field of (lat, lon, t), so domains
agree where they overlap. Deterministic. Shares nothing with the Swift engine.
"""

from __future__ import annotations

import datetime as dt
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import make_sample_grids as msg  # noqa: E402
from make_sample_grids import (Domain, MassGrid, Projection, SIM_START, Weather, build_wrf_file,  # noqa: E402
                               domain_surface, nest_grid, wrf_time_string)

OUT = msg.ROOT / "SampleGrids" / "nested-runs"
WEATHER = Weather(msg.SEED)
HEIGHTS = msg.SAMPLE_CLOUD_HEIGHTS


def parent_domain(nx, ny, dx):
    p = Projection(1, 37.0, 42.0, -8.0, 39.3)
    g = MassGrid.centred(p, nx, ny, dx, 39.3, -8.3)
    return Domain(g, grid_id=1, parent_id=1, cen_lat=39.3, cen_lon=-8.3, moad_cen_lat=39.3, dt_s=6.0 * dx / 1000.0)


def nest(parent: Domain, grid_id, i0, j0, ratio, n):
    g = nest_grid(parent.grid, i0, j0, ratio, n, n)
    return Domain(g, grid_id=grid_id, parent_id=parent.grid_id, i_parent_start=i0, j_parent_start=j0, ratio=ratio,
                  moad_cen_lat=parent.moad_cen_lat, dt_s=parent.dt_s / ratio)


def file_name(dom: Domain, hour):
    return f"wrfout_d{dom.grid_id:02d}_{wrf_time_string(SIM_START + dt.timedelta(hours=hour))}"


def three_level():
    folder = OUT / "three-level"
    folder.mkdir(parents=True)
    hours = [0, 1, 2, 3]
    d01 = parent_domain(12, 10, 27000.0)
    d02 = nest(d01, 2, 4, 3, 3, 19)
    d03 = nest(d02, 3, 8, 8, 5, 21)
    for dom in (d01, d02, d03):
        build_wrf_file(dom, hours, domain_surface(dom, WEATHER, hours, HEIGHTS)).write(folder / file_name(dom, 0))


def hourly_files():
    folder = OUT / "hourly-files"
    folder.mkdir(parents=True)
    hours = list(range(25))
    d01 = parent_domain(10, 8, 15000.0)
    d02 = nest(d01, 2, 3, 2, 3, 15)
    for dom in (d01, d02):
        every = domain_surface(dom, WEATHER, hours, HEIGHTS)
        for k, hour in enumerate(hours):
            one = {}
            for name, values in every.items():
                a = msg.np.asarray(values)
                one[name] = a[k:k + 1] if a.ndim >= 3 and a.shape[0] == len(hours) else a
            build_wrf_file(dom, [hour], one).write(folder / file_name(dom, hour))


def moving_nest():
    """A vortex-following nest as WRF moves one: by whole parent cells, its XLAT/XLONG and static
    fields per frame, I_PARENT_START/J_PARENT_START its first position. Each frame holds the
    weather at the nest's position then (the analytic field is one function of place and time,
    so a place the nest covers at two frames has one history, as in WRF, which shifts its
    arrays with the move)."""
    folder = OUT / "moving-nest"
    folder.mkdir(parents=True)
    hours = [6, 7, 8, 9, 10, 11]                                     # a file of the run's rainy hours
    d01 = parent_domain(16, 12, 15000.0)
    build_wrf_file(d01, hours, domain_surface(d01, WEATHER, hours, HEIGHTS)).write(folder / file_name(d01, 0))
    track = [(4, 3), (5, 3), (6, 3), (6, 4), (7, 4), (8, 5)]       # parent cells: east, then north-east
    per_frame = [domain_surface(nest(d01, 2, i, j, 3, 18), WEATHER, hours, HEIGHTS) for i, j in track]
    fields = {}
    for key in per_frame[0]:
        stacked = [msg.np.asarray(per_frame[k][key]) for k in range(len(hours))]
        if stacked[0].ndim >= 3 and stacked[0].shape[0] == len(hours):
            fields[key] = msg.np.stack([stacked[k][k] for k in range(len(hours))])   # frame k at position k
        else:
            fields[key] = msg.np.stack(stacked)                                   # static: one per position
    first = nest(d01, 2, *track[0], 3, 18)
    build_wrf_file(first, hours, fields).write(folder / file_name(first, 0))


def main():
    if OUT.exists():
        shutil.rmtree(OUT)
    OUT.mkdir(parents=True)
    three_level()
    hourly_files()
    moving_nest()
    files = [p for p in OUT.rglob("*") if p.is_file()]
    print(f"nested runs: {len(files)} files, {sum(p.stat().st_size for p in files):,} bytes in {OUT}")


if __name__ == "__main__":
    sys.exit(main())
