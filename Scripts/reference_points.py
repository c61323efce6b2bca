#!/usr/bin/env python3
"""Independent reference values for TileCast point queries (issue 5, "Independent cross-check").

Shares no code with the engine: it reads each WRF file with netCDF4, projects places with
pyproj on WRF's sphere, and interpolates in float64 with numpy. For every input it writes a
golden CSV to SampleGrids/reference/<name>.csv; Tests/PointQueryTests/ReferenceCrossCheckTests
extracts the same input into a store and checks that `PointForecaster` agrees with every row
within the stored precision (SPEC section 3).

What one row holds (see SampleGrids/reference/README.md):
  * a place drawn inside the grid: a fractional mass-grid position (i along west_east, j along
    south_north, 0-based) turned into latitude/longitude by the inverse projection, then
    rounded to 4 decimals (TileCast rounds queries to 4 decimals) and projected again, so
    i and j are those of the rounded coordinates: position = ((x - x00) / DX, (y - y00) / DY)
    with (x00, y00) the projection of XLAT/XLONG[0, 0] (frame 0);
  * a time drawn uniformly (whole seconds) between the first and the last frame;
  * expected values, bilinear in grid-index space and linear in time between the two
    bracketing frames, of
      temperature_2m       T2 - 273.15                      (deg C)
      relative_humidity_2m wrf-python's rh2 from Q2, T2, PSFC, computed at the nodes (%)
      surface_pressure     PSFC / 100                       (hPa)
      wind_u_10m/_v_10m    U10/V10 rotated to earth-relative at the nodes with COSALPHA and
                           SINALPHA: u_e = u cos - v sin, v_e = v cos + u sin   (m/s)
      wind_speed_10m       hypot of the interpolated earth-relative u and v     (m/s)
    A variable whose sources the file lacks is left empty.

Usage: python3 Scripts/reference_points.py   (from anywhere; paths are found from this file)
"""

from __future__ import annotations

import csv
import datetime as dt
import os
import sys

import netCDF4
import numpy as np
import pyproj

# The seed of every random draw; each input gets its own stream, numpy.random.default_rng([SEED, k]).
SEED = 20261122
# Random places and times per input, on top of the special rows (nodes, edges, corners).
RANDOM_ROWS = 220
# One row in this many puts a random place's time exactly on a frame.
ON_FRAME_EVERY = 8
# WRF's sphere.
EARTH_RADIUS = 6370000.0

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUTPUT = os.path.join(ROOT, "SampleGrids", "reference")
SHARED = os.path.join(os.path.dirname(ROOT), "shared", "wrf-samples")

# (stream index, csv name, input path, is a shared sample). The stream index keeps each
# input's draws unchanged when another input is added, removed or absent.
INPUTS = [
    (0, "sample_d01", os.path.join(ROOT, "SampleGrids", "wrfout_d01_2026-11-22_00:00:00"), False),
    (1, "sample_d02", os.path.join(ROOT, "SampleGrids", "wrfout_d02_2026-11-22_00:00:00"), False),
    (2, "wrf_d01_allvars_cropped", os.path.join(SHARED, "wrf_d01_allvars_cropped.nc"), True),
    (3, "wrf_cropped", os.path.join(SHARED, "wrf_cropped.nc"), True),
    # ci_test_file.nc (a moving nest) is refused by TileCast by design: nothing to compare.
]

COLUMNS = ["file", "kind", "lat", "lon", "time", "i", "j",
           "temperature_2m", "relative_humidity_2m", "surface_pressure",
           "wind_u_10m", "wind_v_10m", "wind_speed_10m"]


# ---------------------------------------------------------------------------------------------
# Projection
# ---------------------------------------------------------------------------------------------

def projection(ds: netCDF4.Dataset) -> pyproj.Proj:
    """The file's map projection on WRF's sphere (false origin irrelevant: we anchor at [0, 0])."""
    code = int(ds.getncattr("MAP_PROJ"))
    lat1 = float(ds.getncattr("TRUELAT1"))
    lat2 = float(ds.getncattr("TRUELAT2"))
    lon0 = float(ds.getncattr("STAND_LON"))
    sphere = f"+a={EARTH_RADIUS:.0f} +b={EARTH_RADIUS:.0f} +units=m +no_defs"
    if code == 1:
        return pyproj.Proj(f"+proj=lcc +lat_1={lat1!r} +lat_2={lat2!r} +lat_0={lat1!r} +lon_0={lon0!r} {sphere}")
    if code == 2:
        pole = 90.0 if lat1 >= 0 else -90.0
        return pyproj.Proj(f"+proj=stere +lat_0={pole!r} +lat_ts={lat1!r} +lon_0={lon0!r} {sphere}")
    if code == 3:
        return pyproj.Proj(f"+proj=merc +lat_ts={lat1!r} +lon_0={lon0!r} {sphere}")
    raise SystemExit(f"MAP_PROJ {code} is not handled by this reference script")


class Grid:
    """Fractional mass-grid positions of places, anchored at the file's XLAT/XLONG[0, 0]."""

    def __init__(self, ds: netCDF4.Dataset):
        self.proj = projection(ds)
        self.dx = float(ds.getncattr("DX"))
        self.dy = float(ds.getncattr("DY"))
        lat = np.asarray(ds.variables["XLAT"][:], dtype=np.float64)
        lon = np.asarray(ds.variables["XLONG"][:], dtype=np.float64)
        if lat.ndim == 3:  # frame 0's coordinates
            lat, lon = lat[0], lon[0]
        self.nj, self.ni = lat.shape
        self.x00, self.y00 = self.proj(lon[0, 0], lat[0, 0])

    def position(self, lat: float, lon: float) -> tuple[float, float]:
        x, y = self.proj(lon, lat)
        return (x - self.x00) / self.dx, (y - self.y00) / self.dy

    def place(self, i: float, j: float) -> tuple[float, float]:
        lon, lat = self.proj(self.x00 + i * self.dx, self.y00 + j * self.dy, inverse=True)
        return lat, lon

    def inside(self, i: float, j: float, slack: float) -> bool:
        return slack <= i <= self.ni - 1 - slack and slack <= j <= self.nj - 1 - slack

    def rounded_place(self, i: float, j: float) -> tuple[float, float, float, float]:
        """The 4-decimal latitude/longitude nearest (in cells) to position (i, j) that lies
        inside the grid (by a millionth of a cell, so any correct projection agrees), with
        its own exact position."""
        lat, lon = self.place(i, j)
        lat_r, lon_r = round(lat, 4), round(lon, 4)
        best = None
        for a in range(-3, 4):
            for b in range(-3, 4):
                la = float(f"{lat_r + a * 1e-4:.4f}")
                lo = float(f"{lon_r + b * 1e-4:.4f}")
                pi, pj = self.position(la, lo)
                if not self.inside(pi, pj, 1e-6):
                    continue
                distance = max(abs(pi - i), abs(pj - j))
                if best is None or distance < best[0]:
                    best = (distance, la, lo, pi, pj)
        if best is None:
            raise RuntimeError(f"no 4-decimal place inside the grid near ({i}, {j})")
        return best[1], best[2], best[3], best[4]


# ---------------------------------------------------------------------------------------------
# Fields at the nodes (float64)
# ---------------------------------------------------------------------------------------------

def frame_times(ds: netCDF4.Dataset) -> np.ndarray:
    """Seconds since 1970 UTC of every frame, from Times."""
    texts = netCDF4.chartostring(ds.variables["Times"][:])
    out = []
    for text in np.atleast_1d(texts):
        t = dt.datetime.strptime(str(text).strip(), "%Y-%m-%d_%H:%M:%S").replace(tzinfo=dt.timezone.utc)
        out.append(int(t.timestamp()))
    return np.asarray(out, dtype=np.int64)


def read(ds: netCDF4.Dataset, name: str) -> np.ndarray | None:
    if name not in ds.variables:
        return None
    values = ds.variables[name][:]
    return np.ma.filled(np.ma.asarray(values, dtype=np.float64), np.nan)


def rh2(q2: np.ndarray, t2: np.ndarray, psfc: np.ndarray) -> np.ndarray:
    """wrf-python's rh2: saturation vapour pressure (hPa) by Bolton's form with WRF's
    constants, saturation mixing ratio at PSFC, ratio clipped to 0..100 %."""
    es = 6.112 * np.exp(17.67 * (t2 - 273.15) / (t2 - 29.65))
    qvs = 0.622 * es / (0.01 * psfc - (1.0 - 0.622) * es)
    return 100.0 * np.clip(q2 / qvs, 0.0, 1.0)


def node_fields(ds: netCDF4.Dataset) -> dict[str, np.ndarray]:
    """Each variable as [time, south_north, west_east] in output units, at the nodes."""
    t2, q2, psfc = read(ds, "T2"), read(ds, "Q2"), read(ds, "PSFC")
    u10, v10 = read(ds, "U10"), read(ds, "V10")
    cosa, sina = read(ds, "COSALPHA"), read(ds, "SINALPHA")
    fields: dict[str, np.ndarray] = {}
    if t2 is not None:
        fields["temperature_2m"] = t2 - 273.15
    if t2 is not None and q2 is not None and psfc is not None:
        fields["relative_humidity_2m"] = rh2(q2, t2, psfc)
    if psfc is not None:
        fields["surface_pressure"] = psfc / 100.0
    if u10 is not None and v10 is not None:
        if cosa is None or sina is None:
            print("  note: U10/V10 without COSALPHA/SINALPHA: wind left out", file=sys.stderr)
        else:
            # COSALPHA/SINALPHA with or without a Time dimension: broadcast either way.
            fields["wind_u_10m"] = u10 * cosa - v10 * sina
            fields["wind_v_10m"] = v10 * cosa + u10 * sina
    return fields


# ---------------------------------------------------------------------------------------------
# Interpolation
# ---------------------------------------------------------------------------------------------

def bilinear(field2d: np.ndarray, i: float, j: float) -> float:
    """Bilinear in grid-index space; the last row/column use the pair ending on them."""
    nj, ni = field2d.shape
    i0 = min(int(np.floor(i)), ni - 2) if ni > 1 else 0
    j0 = min(int(np.floor(j)), nj - 2) if nj > 1 else 0
    fi, fj = i - i0, j - j0
    i1, j1 = min(i0 + 1, ni - 1), min(j0 + 1, nj - 1)
    return float((1 - fi) * (1 - fj) * field2d[j0, i0] + fi * (1 - fj) * field2d[j0, i1]
                 + (1 - fi) * fj * field2d[j1, i0] + fi * fj * field2d[j1, i1])


def at(field: np.ndarray, times: np.ndarray, t: int, i: float, j: float) -> float:
    """Bilinear at both bracketing frames, then linear in time."""
    if t == times[-1]:
        return bilinear(field[-1], i, j)
    k = int(np.searchsorted(times, t, side="right")) - 1
    w = (t - times[k]) / (times[k + 1] - times[k])
    lower = bilinear(field[k], i, j)
    if w == 0:
        return lower
    return (1 - w) * lower + w * bilinear(field[k + 1], i, j)


# ---------------------------------------------------------------------------------------------
# Draws
# ---------------------------------------------------------------------------------------------

def draws(rng: np.random.Generator, grid: Grid, times: np.ndarray) -> list[tuple[str, float, float, int]]:
    """(kind, i, j, time) targets: corners, edges (first/last row and column), nodes, then
    uniform random places; times uniform in whole seconds, some exactly on frames."""
    ni, nj = grid.ni, grid.nj
    first, last = int(times[0]), int(times[-1])

    def random_time() -> int:
        return int(rng.integers(first, last, endpoint=True))

    def frame_time() -> int:
        return int(times[int(rng.integers(0, len(times)))])

    out: list[tuple[str, float, float, int]] = []
    # The four corner nodes, at the first frame, the last frame, and two random times.
    for (ci, cj), t in zip([(0, 0), (ni - 1, 0), (0, nj - 1), (ni - 1, nj - 1)],
                           [first, last, random_time(), random_time()]):
        out.append(("corner", float(ci), float(cj), t))
    # Last column, last row, first column, first row: twice each, off-node along the edge.
    for _ in range(2):
        out.append(("last_column", float(ni - 1), float(rng.uniform(0, nj - 1)), random_time()))
        out.append(("last_row", float(rng.uniform(0, ni - 1)), float(nj - 1), random_time()))
        out.append(("first_column", 0.0, float(rng.uniform(0, nj - 1)), frame_time()))
        out.append(("first_row", float(rng.uniform(0, ni - 1)), 0.0, random_time()))
    # Interior nodes: half on frames, half between.
    for k in range(8):
        ii = int(rng.integers(1, ni - 1)) if ni > 2 else 0
        jj = int(rng.integers(1, nj - 1)) if nj > 2 else 0
        out.append(("node", float(ii), float(jj), frame_time() if k % 2 == 0 else random_time()))
    # Uniform random places and times.
    for k in range(RANDOM_ROWS):
        i = float(rng.uniform(0, ni - 1))
        j = float(rng.uniform(0, nj - 1))
        t = frame_time() if k % ON_FRAME_EVERY == 0 else random_time()
        out.append(("random", i, j, t))
    return out


def iso(seconds: int) -> str:
    return dt.datetime.fromtimestamp(seconds, dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def reference(stream: int, name: str, path: str) -> int:
    with netCDF4.Dataset(path) as ds:
        grid = Grid(ds)
        times = frame_times(ds)
        fields = node_fields(ds)
    rng = np.random.default_rng([SEED, stream])
    rows = []
    for kind, ti, tj, t in draws(rng, grid, times):
        lat, lon, i, j = grid.rounded_place(ti, tj)
        values: dict[str, float] = {key: at(field, times, t, i, j) for key, field in fields.items()}
        if "wind_u_10m" in values:
            values["wind_speed_10m"] = float(np.hypot(values["wind_u_10m"], values["wind_v_10m"]))
        row = {"file": os.path.basename(path), "kind": kind, "lat": f"{lat:.4f}", "lon": f"{lon:.4f}",
               "time": iso(t), "i": f"{i:.6f}", "j": f"{j:.6f}"}
        for column in COLUMNS[7:]:
            row[column] = f"{values[column]:.6f}" if column in values else ""
        rows.append(row)
    out = os.path.join(OUTPUT, name + ".csv")
    with open(out, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    print(f"{os.path.relpath(out, ROOT)}: {len(rows)} rows from {os.path.basename(path)} "
          f"({grid.ni} x {grid.nj}, {len(times)} frames; {', '.join(fields) or 'no variables'})")
    return len(rows)


def main() -> int:
    os.makedirs(OUTPUT, exist_ok=True)
    for stream, name, path, shared in INPUTS:
        if not os.path.exists(path):
            if shared:
                print(f"skipped {name}: {path} is absent (shared samples not available)", file=sys.stderr)
                continue
            raise SystemExit(f"missing input {path}")
        reference(stream, name, path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
