#!/usr/bin/env python3
"""Reference `_spread` (issue 46) from raw WRF files, with numpy and pyproj only.

The definition, written from the issue and the README, not from the engine:
1. A member is a cycle (a file, ordered by its first frame's time) covering hour h: its first
   frame < h <= its last. The members of h are the newest N covering it.
2. A member's value at a place and hour is the bilinear interpolation of its own raw field at
   the frame at h (hourly files: frame times are whole hours), the place's grid position found
   with pyproj as in precipitation_probability_reference.py (whose projection, corners and
   bilinear this reuses, selftested there):
     temperature_2m    T2 - 273.15 (degC)
     surface_pressure  PSFC / 100 (hPa)
     wind_speed_10m    |(u, v)| of the bilinear earth-relative components (m/s), each cell's
                       rotated from the grid's with WRF's COSALPHA/SINALPHA:
                       u = U10 cos - V10 sin, v = V10 cos + U10 sin
     precipitation     (RAINC + RAINNC + RAINSH)[k] - (...)[k-1], at least 0 (mm in the hour)
3. The spread is numpy.std(values, ddof=1) (the sample standard deviation) over the members;
   fewer than two members: none.

Reads JSON {"places": [[lat, lon], ...], "hours": ["2026-11-22T19:00Z", ...], "quantities":
[...]} on stdin and prints {"answers": [{"latitude", "longitude", "hour", "members", and per
quantity {"spread", "values" (newest member first)}}]}, place after place, hour after hour.

    python3 spread_reference.py --members 4 CYCLE_FILE... < places.json
    python3 spread_reference.py --selftest
"""
import argparse
import datetime as dt
import json
import sys
from pathlib import Path

import netCDF4
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from precipitation_probability_reference import bilinear, corners, projection, read, times_of  # noqa: E402

QUANTITIES = ("temperature_2m", "surface_pressure", "wind_speed_10m", "precipitation")


def fields(d):
    """Per quantity, the frames' fields (a list indexed by frame; None where a frame has none)."""
    t2, psfc = read(d, "T2").astype(np.float64), read(d, "PSFC").astype(np.float64)
    u10, v10 = read(d, "U10").astype(np.float64), read(d, "V10").astype(np.float64)
    cos, sin = read(d, "COSALPHA").astype(np.float64), read(d, "SINALPHA").astype(np.float64)
    if cos.ndim == 2:  # without a Time dimension: the same rotation at every frame
        cos, sin = np.broadcast_to(cos, u10.shape), np.broadcast_to(sin, u10.shape)
    total = read(d, "RAINC") + read(d, "RAINNC")
    if "RAINSH" in d.variables:
        total = total + read(d, "RAINSH")
    hourly = [None] + [np.maximum(total[k] - total[k - 1], np.float32(0)).astype(np.float64) for k in range(1, total.shape[0])]
    return {
        "temperature_2m": t2 - 273.15,
        "surface_pressure": psfc / 100,
        "wind": (u10 * cos - v10 * sin, v10 * cos + u10 * sin),
        "precipitation": hourly,
    }


class Cycle:
    def __init__(self, path):
        self.path = path
        with netCDF4.Dataset(path) as d:
            self.times = times_of(d)
            self.fields = fields(d)
            lat = np.asarray(d["XLAT"][:], dtype=np.float64)
            lon = np.asarray(d["XLONG"][:], dtype=np.float64)
            if lat.ndim == 3:
                lat, lon = lat[0], lon[0]
            self.proj = projection(d)
            self.dx, self.dy = float(d.DX), float(d.DY)
        self.shape = lat.shape
        self.x0, self.y0 = self.proj(lon[0, 0], lat[0, 0])

    def covers(self, hour):
        return self.times[0] < hour <= self.times[-1]

    def at(self, lat, lon, hour, quantity):
        """The member's value at the place and hour (None outside the grid or off a frame)."""
        if hour not in self.times:
            return None
        k = self.times.index(hour)
        x, y = self.proj(lon, lat)
        ny, nx = self.shape
        around = corners((x - self.x0) / self.dx, (y - self.y0) / self.dy, nx, ny)
        if around is None:
            return None
        if quantity == "wind_speed_10m":
            u, v = self.fields["wind"]
            return float(np.hypot(bilinear(u[k], around), bilinear(v[k], around)))
        field = self.fields[quantity][k]
        return None if field is None else bilinear(field, around)


def spread(values):
    return float(np.std(values, ddof=1)) if len(values) > 1 else None


def selftest():
    failures = []
    # 1, 2, 3, 4: mean 2.5, squares 2.25 + 0.25 + 0.25 + 2.25 = 5, / 3 -> sqrt(5/3) = 1.29099.
    if abs(spread([1, 2, 3, 4]) - (5 / 3) ** 0.5) > 1e-12:
        failures.append("sample std of 1..4")
    # Two members 10 and 12: (1 + 1) / 1 -> sqrt 2; one member: none.
    if abs(spread([10, 12]) - 2 ** 0.5) > 1e-12 or spread([5]) is not None:
        failures.append("two members sqrt 2, one none")
    # The rotation: alpha = 90 deg (cos 0, sin 1) turns grid (1, 0) into earth (0, 1).
    u, v = np.array([1.0]), np.array([0.0])
    if not (abs((u * 0 - v * 1)[0]) < 1e-12 and abs((v * 0 + u * 1)[0] - 1) < 1e-12):
        failures.append("rotation")
    if failures:
        print("selftest FAILED: " + "; ".join(failures), file=sys.stderr)
        sys.exit(1)
    print("selftest passed")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--members", type=int, default=4)
    parser.add_argument("--selftest", action="store_true")
    parser.add_argument("files", nargs="*")
    args = parser.parse_args()
    if args.selftest:
        selftest()
        return
    cycles = sorted((Cycle(path) for path in args.files), key=lambda c: c.times[0], reverse=True)
    request = json.load(sys.stdin)
    quantities = request.get("quantities", list(QUANTITIES))
    hours = [int(dt.datetime.strptime(h, "%Y-%m-%dT%H:%MZ").replace(tzinfo=dt.timezone.utc).timestamp()) for h in request["hours"]]
    answers = []
    for lat, lon in request["places"]:
        for text, hour in zip(request["hours"], hours):
            members = [c for c in cycles if c.covers(hour)][:args.members]
            answer = {"latitude": lat, "longitude": lon, "hour": text, "members": len(members)}
            for quantity in quantities:
                values = [v for v in (c.at(lat, lon, hour, quantity) for c in members) if v is not None and not np.isnan(v)]
                answer[quantity] = {"spread": spread(values), "values": values}
            answers.append(answer)
    print(json.dumps({"members": args.members, "answers": answers}))


if __name__ == "__main__":
    main()
