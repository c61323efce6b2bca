#!/usr/bin/env python3
"""Write a small WRF run with a 15-minute auxiliary history stream into SampleGrids/auxhist-runs/.

Usage
    pip install -r Scripts/requirements.txt
    python3 Scripts/make_auxhist_run.py        # (re)writes SampleGrids/auxhist-runs/ (about 0.3 MB)

  fifteen-minutes/  d01 15 km (10 x 8) and d02 5 km (ratio 3, 15 x 15): hourly wrfout files (7 frames,
                    06Z .. 12Z of a run started at 00Z, its rainy hours: every field make_sample_grids.py
                    writes) and, for d02 only, the surface fields every 15 minutes in
                    `auxhist2_d02_2026-11-22_06:00:00` (25 frames), as WRF
                    writes an auxiliary stream set up with
                        auxhist2_interval = 15, frames_per_auxhist2 = 1000, io_form_auxhist2 = 2,
                        iofields_filename = "my_iofields.txt"   (+:h:2:T2,Q2,PSFC,U10,V10,RAINC,RAINNC,
                                                                  SWDOWN,XLAT,XLONG,HGT,COSALPHA,SINALPHA)
                    Its file holds the same global attributes as the history file, its own Times and
                    XTIME (minutes since the simulation start), and no 3-D field.
  disagreeing/      the auxiliary stream alone, its T2 2 K warmer at every frame: given with the history
                    files of fifteen-minutes/, frames of two streams at the same time that disagree.

The weather is make_sample_grids.py's analytic field of (lat, lon, t), evaluated at the quarter hours
(its accumulations integrate four steps an hour, so the 15-minute totals are its own). A short
oscillation of 1 K with a one-hour period, zero at whole hours, is added to both streams' T2 (the
hourly frames are unchanged by it): the kind of sub-hourly change an hourly series cannot show, so a
15-minute answer interpolated from the hourly frames misses it by up to 1 K and one read from the
stream does not. Deterministic. Shares nothing with the Swift engine.
"""

from __future__ import annotations

import datetime as dt
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import make_sample_grids as msg  # noqa: E402
from make_nested_runs import HEIGHTS, WEATHER, nest, parent_domain  # noqa: E402
from make_sample_grids import SIM_START, build_wrf_file, domain_surface, wrf_time_string  # noqa: E402

OUT = msg.ROOT / "SampleGrids" / "auxhist-runs"
HOURS = list(range(6, 13))                                   # the file of a split run holding its rainy hours
QUARTERS = [HOURS[0] + k / 4 for k in range(4 * (HOURS[-1] - HOURS[0]) + 1)]
AUX_FIELDS = ["T2", "Q2", "PSFC", "U10", "V10", "RAINC", "RAINNC", "SWDOWN", "XLAT", "XLONG", "HGT", "COSALPHA",
              "SINALPHA"]


def wiggle(hours):
    """1 K with a one-hour period: zero at every whole hour, +1 K at :15, -1 K at :45."""
    return msg.np.sin(2 * msg.np.pi * msg.np.asarray(hours, dtype=float))


def with_wiggle(fields, hours):
    out = dict(fields)
    out["T2"] = msg.np.asarray(fields["T2"]) + wiggle(hours)[:, None, None]
    return out


def file_name(stream, dom):
    return f"{stream}_d{dom.grid_id:02d}_{wrf_time_string(SIM_START + dt.timedelta(hours=HOURS[0]))}"


def write_run(folder: Path, aux_t2_offset: float, history=True):
    folder.mkdir(parents=True)
    d01 = parent_domain(10, 8, 15000.0)
    d02 = nest(d01, 2, 3, 2, 3, 15)
    for dom in (d01, d02) if history else ():
        hourly = with_wiggle(domain_surface(dom, WEATHER, HOURS, HEIGHTS), HOURS)
        build_wrf_file(dom, HOURS, hourly).write(folder / file_name("wrfout", dom))
    every = with_wiggle(domain_surface(d02, WEATHER, QUARTERS, HEIGHTS), QUARTERS)
    aux = {name: every[name] for name in AUX_FIELDS}
    aux["T2"] = msg.np.asarray(aux["T2"]) + aux_t2_offset
    build_wrf_file(d02, QUARTERS, aux, nz=2).write(folder / file_name("auxhist2", d02))


def main():
    if OUT.exists():
        shutil.rmtree(OUT)
    OUT.mkdir(parents=True)
    write_run(OUT / "fifteen-minutes", 0.0)
    write_run(OUT / "disagreeing", 2.0, history=False)
    files = [p for p in OUT.rglob("*") if p.is_file()]
    print(f"auxhist runs: {len(files)} files, {sum(p.stat().st_size for p in files):,} bytes in {OUT}")


if __name__ == "__main__":
    sys.exit(main())
