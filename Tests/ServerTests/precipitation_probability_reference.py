#!/usr/bin/env python3
"""Reference chance of rain (issue 46) from raw WRF files, with numpy, scipy and pyproj only.

The definition, written from the issue and docs/VARIABLES.md, not from the engine:
1. A cell is wet in the interval ending at frame k (k >= 1) when its precipitation over it,
   (RAINC + RAINNC + RAINSH)[k] - (...)[k-1] (float32, summed in that order, at least 0),
   divided by the interval's hours, is at least 0.1 mm. Frame 0 has no interval (unknown).
2. The neighbourhood fraction at a cell is 100 x (wet cells) / (cells) within the disk
   di^2 + dj^2 <= R^2, counting only cells of the grid: scipy.ndimage.convolve of the wet mask
   and of a ones mask with the disk footprint, mode='constant', cval=0.
3. A place's fraction is the bilinear interpolation of the four cells around its grid position,
   found with pyproj (WRF's Lambert conformal on a sphere of radius 6,370 km, DX, and the
   south-west mass point's XLAT/XLONG).
4. A cycle covers hour h when its first frame < h <= its last frame; the frame answering h is
   the first at or after h. The probability is the mean over the newest N covering cycles.

Reads JSON {"places": [[lat, lon], ...], "hours": ["2026-11-22T19:00Z", ...]} on stdin and
prints {"answers": [{"latitude", "longitude", "hour", "probability", "members", "fractions",
"borderline"}]} (every place at every hour, place after place). `borderline` marks an answer
one of whose corner cells has, in a frame used, a cell within 1e-4 mm/h of the threshold in
its disk: float arithmetic in another order may put that cell on the other side.

    python3 precipitation_probability_reference.py --radius 3 --members 4 CYCLE_FILE... < places.json
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


def disk(radius):
    reach = int(np.floor(radius))
    dj, di = np.mgrid[-reach:reach + 1, -reach:reach + 1]
    return (di * di + dj * dj <= radius * radius).astype(np.float64)


def times_of(d):
    text = [b"".join(row).decode() for row in np.asarray(d["Times"][:])]
    return [int(dt.datetime.strptime(t, "%Y-%m-%d_%H:%M:%S").replace(tzinfo=dt.timezone.utc).timestamp()) for t in text]


class Cycle:
    def __init__(self, path, radius):
        with netCDF4.Dataset(path) as d:
            self.times = times_of(d)
            total = np.asarray(d["RAINC"][:], dtype=np.float32) + np.asarray(d["RAINNC"][:], dtype=np.float32)
            if "RAINSH" in d.variables:
                total = total + np.asarray(d["RAINSH"][:], dtype=np.float32)
            lat0 = float(np.asarray(d["XLAT"][:]).reshape(-1, *total.shape[1:])[0][0, 0])
            lon0 = float(np.asarray(d["XLONG"][:]).reshape(-1, *total.shape[1:])[0][0, 0])
            assert int(d.MAP_PROJ) == 1, "Lambert conformal only"
            self.proj = pyproj.Proj(proj="lcc", lat_1=float(d.TRUELAT1), lat_2=float(d.TRUELAT2), lat_0=float(d.TRUELAT1),
                                    lon_0=float(d.STAND_LON), a=6370000, b=6370000)
            self.dx, self.dy = float(d.DX), float(d.DY)
        self.x0, self.y0 = self.proj(lon0, lat0)
        footprint = disk(radius)
        self.fractions, self.borderline = [None], [None]
        for k in range(1, total.shape[0]):
            amount = np.maximum(total[k] - total[k - 1], np.float32(0))
            hours = np.float32((self.times[k] - self.times[k - 1]) / 3600)
            rate = amount / hours
            known = ~np.isnan(rate)
            wet = (known & (rate >= THRESHOLD)).astype(np.float64)
            count = ndimage.convolve(known.astype(np.float64), footprint, mode="constant", cval=0)
            wet_count = ndimage.convolve(wet, footprint, mode="constant", cval=0)
            with np.errstate(invalid="ignore", divide="ignore"):
                self.fractions.append(np.where(count > 0, 100 * wet_count / count, np.nan))
            near = (known & (np.abs(rate - THRESHOLD) < 1e-4)).astype(np.float64)
            self.borderline.append(ndimage.convolve(near, footprint, mode="constant", cval=0) > 0)
        self.shape = total.shape[1:]

    def covers(self, hour):
        return self.times[0] < hour <= self.times[-1]

    def at(self, lat, lon, hour):
        """The place's bilinear fraction at the frame holding `hour`, and whether it is borderline."""
        x, y = self.proj(lon, lat)
        fi, fj = (x - self.x0) / self.dx, (y - self.y0) / self.dy
        ny, nx = self.shape
        if not (0 <= fi <= nx - 1 and 0 <= fj <= ny - 1):
            return None, False
        k = next(k for k, t in enumerate(self.times) if t >= hour)
        field, near = self.fractions[k], self.borderline[k]
        i0, j0 = min(int(np.floor(fi)), nx - 2), min(int(np.floor(fj)), ny - 2)
        a, b = fi - i0, fj - j0
        corners = [(j0, i0, (1 - a) * (1 - b)), (j0, i0 + 1, a * (1 - b)), (j0 + 1, i0, (1 - a) * b), (j0 + 1, i0 + 1, a * b)]
        value = sum(w * field[j, i] for j, i, w in corners if w > 0)
        return float(value), any(bool(near[j, i]) for j, i, w in corners if w > 0)


def selftest():
    # A 5 x 5 grid, radius 1 (a plus of 5 cells), one wet cell in the middle: the middle and
    # its four neighbours see 1 wet of 5 cells (20 %), a corner cell sees 3 cells of which
    # none is wet (0 %), an edge cell next to the middle's neighbour (0, 2) sees 4 cells.
    wet = np.zeros((5, 5))
    wet[2, 2] = 1
    footprint = disk(1)
    assert footprint.sum() == 5
    count = ndimage.convolve(np.ones((5, 5)), footprint, mode="constant", cval=0)
    fraction = 100 * ndimage.convolve(wet, footprint, mode="constant", cval=0) / count
    assert count[0, 0] == 3 and count[0, 2] == 4 and count[2, 2] == 5
    assert fraction[2, 2] == 20 and fraction[1, 2] == 20 and fraction[0, 0] == 0 and fraction[1, 1] == 0
    # Radius 3: 29 cells (1 + 4 x 3 on the axes + 4 x (2 + 2 + 1 + 1... ) = the lattice points in the disk).
    assert disk(3).sum() == 29
    print("selftest passed")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--radius", type=float, default=3)
    parser.add_argument("--members", type=int, default=4)
    parser.add_argument("--selftest", action="store_true")
    parser.add_argument("files", nargs="*")
    args = parser.parse_args()
    if args.selftest:
        selftest()
        return
    cycles = sorted((Cycle(path, args.radius) for path in args.files), key=lambda c: c.times[0], reverse=True)
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
    print(json.dumps({"radius": args.radius, "members": args.members, "answers": answers}))


if __name__ == "__main__":
    main()
