#!/usr/bin/env python3
"""Reference chance of rain (issue 46) from raw WRF files, with numpy, scipy and pyproj only.

The definition, written from the issue and docs/VARIABLES.md, not from the engine:
1. A cell is wet in the interval ending at frame k (k >= 1) when its precipitation over it,
   (RAINC + RAINNC + RAINSH)[k] - (...)[k-1] (float32, summed in that order, RAINSH only where
   the file has it, at least 0), divided by the interval's hours (from `Times`), is at least
   0.1 mm, compared in float32. Frame 0 has no interval (unknown). With --quantity snowfall the
   amount is SNOWNC de-accumulated likewise (mm of water) times 0.7 cm per mm, the engine's
   documented rule (Sources/Meteorology/Accumulation.swift, `snowCentimetresPerWaterMillimetre`:
   open-meteo's "divide by 7", not 10:1), and a cell is wet at 0.1 cm an hour or more.
2. The neighbourhood fraction at a cell is 100 x (wet cells) / (cells) within the disk
   di^2 + dj^2 <= R^2, counting only cells of the grid: scipy.ndimage.convolve of the wet mask
   and of a known-cells mask with the disk footprint, mode='constant', cval=0. A cell whose
   amount is unknown (NaN, or a masked value) counts in neither; a disk without a known cell
   is unknown.
3. A place's fraction is the bilinear interpolation of the four cells around its grid position,
   found with pyproj (WRF's sphere of radius 6,370 km; MAP_PROJ 1 Lambert, 2 polar
   stereographic, 3 Mercator; TRUELAT1/2, STAND_LON, DX/DY, and the mass point [0, 0]'s
   XLAT/XLONG). Outside the grid: no fraction. An unknown corner with a non-zero weight makes
   the place's fraction unknown.
4. A cycle (ordered by its first frame's time) covers hour h when its first frame < h <= its
   last frame; the frame answering h is the first at or after h. The probability is the mean
   over the newest N covering cycles of their fractions (cycles whose fraction is unknown there
   are left out; `members` counts those averaged). With --quantity snowfall a file without
   SNOWNC is no candidate at all.

Reads JSON {"places": [[lat, lon], ...], "hours": ["2026-11-22T19:00Z", ...]} on stdin and
prints {"radius", "members", "quantity", "answers": [{"latitude", "longitude", "hour",
"probability", "members", "fractions" (newest first), "borderline"}], "cycles": [{"file",
"start", "borderline_cells" (per frame, null at frame 0)}]} (every place at every hour, place
after place). `borderline` marks an answer one of whose corner cells (with a non-zero weight)
has, in a frame used, a cell within 1e-4 (mm or cm an hour) of the threshold in its disk: float
arithmetic in another order may put that cell on the other side.

    python3 precipitation_probability_reference.py --radius 3 --members 4 [--quantity precipitation|snowfall] CYCLE_FILE... < places.json
    python3 precipitation_probability_reference.py --selftest
"""
import argparse
import datetime as dt
import json
import sys

import netCDF4
import numpy as np
import pyproj
from scipy import ndimage

THRESHOLD = np.float32(0.1)
BORDERLINE = 1e-4
SNOW_CM_PER_MM = np.float32(0.7)
EARTH_RADIUS = 6370000


def disk(radius):
    reach = int(np.floor(radius))
    dj, di = np.mgrid[-reach:reach + 1, -reach:reach + 1]
    return (di * di + dj * dj <= radius * radius).astype(np.float64)


def times_of(d):
    text = [b"".join(row).decode() for row in np.asarray(d["Times"][:])]
    return [int(dt.datetime.strptime(t, "%Y-%m-%d_%H:%M:%S").replace(tzinfo=dt.timezone.utc).timestamp()) for t in text]


def read(d, name):
    """A variable as float32 with masked (fill) values as NaN."""
    return np.ma.filled(np.ma.asarray(d[name][:]).astype(np.float32), np.nan)


def projection(d):
    code = int(d.MAP_PROJ)
    lat1, lat2, lon0 = float(d.TRUELAT1), float(d.TRUELAT2), float(d.STAND_LON)
    sphere = dict(a=EARTH_RADIUS, b=EARTH_RADIUS)
    if code == 1:
        return pyproj.Proj(proj="lcc", lat_1=lat1, lat_2=lat2, lat_0=lat1, lon_0=lon0, **sphere)
    if code == 2:
        return pyproj.Proj(proj="stere", lat_0=90.0 if lat1 >= 0 else -90.0, lat_ts=lat1, lon_0=lon0, **sphere)
    if code == 3:
        return pyproj.Proj(proj="merc", lat_ts=lat1, lon_0=lon0, **sphere)
    raise SystemExit(f"MAP_PROJ {code} is not handled by this reference")


def rates(total, times, per_mm=None):
    """Per interval k >= 1: the amount (float32, at least 0, times `per_mm` if given) per hour."""
    out = [None]
    for k in range(1, total.shape[0]):
        amount = np.maximum(total[k] - total[k - 1], np.float32(0))  # NaN stays NaN
        if per_mm is not None:
            amount = amount * per_mm
        hours = np.float32((times[k] - times[k - 1]) / 3600)
        out.append(amount / hours)
    return out


def neighbourhood(rate, footprint):
    """(fraction in percent, NaN where unknown; disk holds a borderline cell; borderline cells)."""
    known = ~np.isnan(rate)
    with np.errstate(invalid="ignore"):
        wet = (known & (rate >= THRESHOLD)).astype(np.float64)
        near = known & (np.abs(rate.astype(np.float64) - float(THRESHOLD)) < BORDERLINE)
    count = ndimage.convolve(known.astype(np.float64), footprint, mode="constant", cval=0)
    wet_count = ndimage.convolve(wet, footprint, mode="constant", cval=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        fraction = np.where(count > 0, 100 * wet_count / count, np.nan)
    touched = ndimage.convolve(near.astype(np.float64), footprint, mode="constant", cval=0) > 0
    return fraction, touched, int(near.sum())


def corners(fi, fj, nx, ny):
    """The four cells around grid position (fi, fj) with their bilinear weights, or None outside."""
    if not (0 <= fi <= nx - 1 and 0 <= fj <= ny - 1):
        return None
    i0, j0 = min(int(np.floor(fi)), nx - 2), min(int(np.floor(fj)), ny - 2)
    a, b = fi - i0, fj - j0
    return [(j0, i0, (1 - a) * (1 - b)), (j0, i0 + 1, a * (1 - b)), (j0 + 1, i0, (1 - a) * b), (j0 + 1, i0 + 1, a * b)]


def bilinear(field, around):
    return float(sum(w * field[j, i] for j, i, w in around if w > 0))


class Cycle:
    def __init__(self, path, radius, quantity):
        self.path = path
        with netCDF4.Dataset(path) as d:
            self.times = times_of(d)
            if quantity == "snowfall":
                self.usable = "SNOWNC" in d.variables
                total = read(d, "SNOWNC") if self.usable else None
            else:
                self.usable = True
                total = read(d, "RAINC") + read(d, "RAINNC")
                if "RAINSH" in d.variables:
                    total = total + read(d, "RAINSH")
            lat = np.asarray(d["XLAT"][:], dtype=np.float64)
            lon = np.asarray(d["XLONG"][:], dtype=np.float64)
            if lat.ndim == 3:  # XLAT/XLONG with Time: the first frame's
                lat, lon = lat[0], lon[0]
            self.proj = projection(d)
            self.dx, self.dy = float(d.DX), float(d.DY)
        self.shape = lat.shape
        self.x0, self.y0 = self.proj(lon[0, 0], lat[0, 0])
        self.fractions, self.borderline, self.borderline_cells = [None], [None], [None]
        if not self.usable:
            return
        footprint = disk(radius)
        for rate in rates(total, self.times, SNOW_CM_PER_MM if quantity == "snowfall" else None)[1:]:
            fraction, touched, n = neighbourhood(rate, footprint)
            self.fractions.append(fraction)
            self.borderline.append(touched)
            self.borderline_cells.append(n)

    def covers(self, hour):
        return self.usable and self.times[0] < hour <= self.times[-1]

    def at(self, lat, lon, hour):
        """The place's bilinear fraction at the frame holding `hour` (None outside the grid, NaN
        unknown), and whether it is borderline."""
        x, y = self.proj(lon, lat)
        ny, nx = self.shape
        around = corners((x - self.x0) / self.dx, (y - self.y0) / self.dy, nx, ny)
        if around is None:
            return None, False
        k = next(k for k, t in enumerate(self.times) if t >= hour)
        field, near = self.fractions[k], self.borderline[k]
        return bilinear(field, around), any(bool(near[j, i]) for j, i, w in around if w > 0)


def selftest():
    failures = []

    def check(what, ok):
        if not ok:
            failures.append(what)

    # Radius 1 (a plus of 5 cells) on 5 x 5, one wet cell in the middle (2, 2): the middle and
    # its four neighbours see 1 wet of 5 (20 %); corner (0, 0) sees itself, (0, 1), (1, 0): 3
    # cells, none wet (0 %); edge cell (0, 2) sees 4 cells; (1, 1) is diagonal to the middle: 0 %.
    rate = np.zeros((5, 5), dtype=np.float32)
    rate[2, 2] = 1
    check("disk(1) has 5 cells", disk(1).sum() == 5)
    f, _, _ = neighbourhood(rate, disk(1))
    count = ndimage.convolve(np.ones((5, 5)), disk(1), mode="constant", cval=0)
    check("R=1 counts 3/4/5", count[0, 0] == 3 and count[0, 2] == 4 and count[2, 2] == 5)
    check("R=1 fractions", f[2, 2] == 20 and f[1, 2] == 20 and f[2, 3] == 20 and f[0, 0] == 0 and f[1, 1] == 0)
    # Radius 3: lattice points with di^2 + dj^2 <= 9: di = 0: |dj| <= 3, 7 cells; di = +-1:
    # |dj| <= 2, 5 each; di = +-2: dj^2 <= 5, |dj| <= 2, 5 each; di = +-3: dj = 0, 1 each.
    # 7 + 10 + 10 + 2 = 29. The quarter at a corner (di, dj >= 0): dj = 0: di 0..3 (4);
    # dj = 1: 0..2 (3); dj = 2: 0..2 (3); dj = 3: 0 (1): 11. The half at an edge (dj >= 0):
    # 7 + 5 + 5 + 1 = 18.
    check("disk(3) has 29 cells", disk(3).sum() == 29)
    count = ndimage.convolve(np.ones((9, 9)), disk(3), mode="constant", cval=0)
    check("R=3 corner 11, edge 18, inside 29", count[0, 0] == 11 and count[0, 4] == 18 and count[4, 0] == 18 and count[4, 4] == 29)
    # 9 x 9, R=3, the corner (0, 0) wet: the corner sees 1 of 11 (100/11 = 9.0909 %); (j, i) =
    # (0, 3) has it at di = -3, dj = 0 (inside) and sees the edge half, 18 cells (di >= -3 cuts
    # nothing): 100/18 = 5.5556 %; (2, 2) has it at distance sqrt 8 (inside) and loses only
    # (di, dj) = (-3, 0) and (0, -3) to the edges: 29 - 2 = 27 cells, 100/27 = 3.7037 %;
    # (3, 3) has it at sqrt 18 > 3: 0 %.
    rate = np.zeros((9, 9), dtype=np.float32)
    rate[0, 0] = 1
    f, _, _ = neighbourhood(rate, disk(3))
    check("R=3 corner 100/11", abs(f[0, 0] - 100 / 11) < 1e-12)
    check("R=3 edge 100/18", abs(f[0, 3] - 100 / 18) < 1e-12)
    check("R=3 (2,2) 100/27", abs(f[2, 2] - 100 / 27) < 1e-12)
    check("R=3 (3,3) 0", f[3, 3] == 0)
    # An unknown cell (NaN) next to the corner counts in neither: the corner then sees 1 of 10.
    rate[0, 1] = np.nan
    f, _, _ = neighbourhood(rate, disk(3))
    check("unknown cell left out: 10 %", abs(f[0, 0] - 10) < 1e-12)
    # All unknown: unknown fraction.
    f, _, _ = neighbourhood(np.full((3, 3), np.nan, dtype=np.float32), disk(3))
    check("all unknown -> NaN", bool(np.isnan(f).all()))
    # Threshold in float32: accumulations 0.2 then 0.3 mm over an hour: float32(0.3) -
    # float32(0.2) = 0.100000009 (exact, Sterbenz) >= float32(0.1) = 0.100000001: wet, and
    # borderline (within 1e-4). Over 2 hours (0.05 mm/h): dry. A decrease (0.3 -> 0.2) is 0.
    total = np.array([[[0.2]], [[0.3]], [[0.2]]], dtype=np.float32)
    r = rates(total, [0, 3600, 7200])
    check("0.3 - 0.2 in an hour is wet", bool(r[1][0, 0] >= THRESHOLD))
    check("a decrease is 0", r[2][0, 0] == 0)
    _, touched, n = neighbourhood(r[1], disk(3))
    check("0.1000000 mm/h is borderline", n == 1 and bool(touched[0, 0]))
    r = rates(total[:2], [0, 7200])
    check("0.1 mm in 2 h is dry", bool(r[1][0, 0] < THRESHOLD))
    # Snow: 0.15 mm water -> 0.105 cm (wet); 0.14 mm -> 0.098 cm (dry); 1/7 mm -> 0.1 cm (wet,
    # float32(1/7) x float32(0.7) rounds to float32(0.1) exactly).
    snow = np.array([[[0.0, 0.0, 0.0]], [[0.15, 0.14, 1 / 7]]], dtype=np.float32)
    r = rates(snow, [0, 3600], SNOW_CM_PER_MM)[1][0]
    check("snow 0.15/0.14/(1/7) mm -> wet/dry/wet", bool(r[0] >= THRESHOLD) and bool(r[1] < THRESHOLD) and bool(r[2] >= THRESHOLD))
    # Bilinear: field [[0, 100], [100, 100]] (row j, column i) at (fi, fj) = (0.25, 0.5):
    # 0.375 x 0 + 0.125 x 100 + 0.375 x 100 + 0.125 x 100 = 62.5. Exactly on a node: its value.
    # On the last column/row (fi = 1): the last cells. Outside: None.
    field = np.array([[0.0, 100.0], [100.0, 100.0]])
    check("bilinear 62.5", abs(bilinear(field, corners(0.25, 0.5, 2, 2)) - 62.5) < 1e-12)
    check("bilinear on a node", bilinear(field, corners(0, 0, 2, 2)) == 0 and bilinear(field, corners(1, 0, 2, 2)) == 100)
    check("bilinear outside", corners(-0.01, 0, 2, 2) is None and corners(0, 1.01, 2, 2) is None)
    field[1, 1] = np.nan  # an unknown corner with weight 0 does not matter, with weight > 0 it does
    check("unknown corner", bilinear(field, corners(0.5, 0, 2, 2)) == 50 and np.isnan(bilinear(field, corners(0.5, 0.5, 2, 2))))
    if failures:
        print("selftest FAILED: " + "; ".join(failures), file=sys.stderr)
        sys.exit(1)
    print("selftest passed")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--radius", type=float, default=3)
    parser.add_argument("--members", type=int, default=4)
    parser.add_argument("--quantity", choices=["precipitation", "snowfall"], default="precipitation")
    parser.add_argument("--selftest", action="store_true")
    parser.add_argument("files", nargs="*")
    args = parser.parse_args()
    if args.selftest:
        selftest()
        return
    cycles = sorted((Cycle(path, args.radius, args.quantity) for path in args.files), key=lambda c: c.times[0], reverse=True)
    request = json.load(sys.stdin)
    hours = [int(dt.datetime.strptime(h, "%Y-%m-%dT%H:%MZ").replace(tzinfo=dt.timezone.utc).timestamp()) for h in request["hours"]]
    answers = []
    for lat, lon in request["places"]:
        for text, hour in zip(request["hours"], hours):
            members = [c for c in cycles if c.covers(hour)][:args.members]
            values = [c.at(lat, lon, hour) for c in members]
            fractions = [v for v, _ in values if v is not None and not np.isnan(v)]
            answers.append({"latitude": lat, "longitude": lon, "hour": text,
                            "probability": float(np.mean(fractions)) if fractions else None,
                            "members": len(fractions), "fractions": fractions,
                            "borderline": any(near for _, near in values)})
    described = [{"file": c.path, "start": dt.datetime.fromtimestamp(c.times[0], dt.timezone.utc).strftime("%Y-%m-%dT%H:%MZ"),
                  "borderline_cells": c.borderline_cells} for c in cycles]
    print(json.dumps({"radius": args.radius, "members": args.members, "quantity": args.quantity,
                      "answers": answers, "cycles": described}))


if __name__ == "__main__":
    main()
