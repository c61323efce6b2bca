#!/usr/bin/env python3
"""Independent reference for issue 28's height and pressure levels, from a WRF history file,
written in numpy from wrf-python's documented algorithms (not from TileCast's Swift code;
wrf-python itself does not build here):

  * the vertical interpolation is wrf-python's interplevel (Fortran DINTERP3DZ, fortran/
    wrf_user.f90): linear in the vertical coordinate between the two levels that strictly
    enclose the wanted one, scanning the column from the top; missing (nan) where no two
    levels enclose it (below the lowest mass level, so below the ground, or above the top).
    Heights: the coordinate is wrf-python's height_agl, destagger((PH + PHB) / 9.81) - HGT.
    Pressure levels: the coordinate is P + PB in Pa, linear in pressure (interplevel, not
    vinterp's log-pressure option).
  * temperature: tk = (T + 300) (p / 100000)^(Rd/cp), Rd = 287, cp = 7 Rd / 2 (DCOMPUTETK).
  * relative humidity: DCOMPUTERH, es = 6.112 exp(17.67 (T - 273.15) / (T - 29.65)),
    qvs = 0.622 es / (0.01 p - 0.378 es), rh = 100 clip(max(qv, 0) / qvs, 0, 1).
  * dew point: DCOMPUTETD, e = max(qv, 0) p_hPa / (0.622 + max(qv, 0)) floored at 0.001,
    td = (243.5 ln e - 440.8) / (19.48 - ln e).
  * geopotential height: destagger((PH + PHB) / 9.81) (wrf-python z), m above sea level.
  * cloud cover: 100 CLDFRA; vertical velocity: W de-staggered (mean of the faces).
  * wind: U and V de-staggered to the mass points, interpolated, then rotated to
    earth-relative with the file's COSALPHA/SINALPHA (u cos - v sin, v cos + u sin); speed and
    direction (the direction the wind blows from, degrees) from the components.

Usage: levels_reference.py WRFOUT [--seed N] [--places N]

Rows: every mass node at every frame time, then --places seeded places between nodes at
half-hour times between frames: bilinear in grid-index space of the node values, the place
projected with pyproj on WRF's 6370 km sphere, then linear in time; the wind's speed and
direction from the interpolated components. A level null at a corner with a non-zero weight
makes the place null (part of the cell has it below the ground); a zero-weight corner (a place
on a node or grid line) does not count. Node rows are the node's own value (row order: frame,
then south_north, then west_east). Prints CSV: latitude,longitude,time, then one
column per variable (nan where missing).
"""
import argparse
import datetime as dt
import math
import os
import sys

import numpy as np
from netCDF4 import Dataset

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from moving_nest_reference import half_way_between_frames, place_between_nodes, projection  # noqa: E402  (WRF's projections)

HEIGHTS = [80, 100, 120, 180]
PRESSURES = [1000, 925, 850, 700, 500, 300, 250, 200]
PRESSURE_QUANTITIES = ["temperature", "relative_humidity", "dew_point", "geopotential_height", "cloud_cover", "vertical_velocity"]
G, RD = 9.81, 287.0
CP = 3.5 * RD


def interplevel(field, vert, level):
    """DINTERP3DZ on (nz, ny, nx): the first pair from the top that strictly encloses level."""
    nz = vert.shape[0]
    out = np.full(vert.shape[1:], np.nan)
    decreasing = vert[0, 0, 0] > vert[nz - 1, 0, 0]
    ip, im = (1, 0) if decreasing else (0, 1)
    for j in range(vert.shape[1]):
        for i in range(vert.shape[2]):
            for kp in range(nz - 1, 0, -1):  # Fortran kp = nz..2, 1-based
                lo, hi = vert[kp - im, j, i], vert[kp - ip, j, i]
                if lo < level < hi:
                    w2 = (level - lo) / (hi - lo)
                    out[j, i] = (1 - w2) * field[kp - im, j, i] + w2 * field[kp - ip, j, i]
                    break
    return out


def corners(field, i, j):
    """Bilinear in index space where a level is null at some cells: a corner with weight 0
    (the place on a node or grid line, to within 2^-30 cells) does not count, any other null
    corner makes the place null (part of the cell has the level below the ground)."""
    ny, nx = field.shape

    def axis(x, n):
        lower = min(int(math.floor(x)), n - 2)
        fraction = x - lower
        if fraction < 2 ** -30:
            return lower, 0.0
        if fraction > 1 - 2 ** -30:
            return lower, 1.0
        return lower, fraction

    i0, fi = axis(i, nx)
    j0, fj = axis(j, ny)
    total = 0.0
    for di, dj, weight in ((0, 0, (1 - fi) * (1 - fj)), (1, 0, fi * (1 - fj)), (0, 1, (1 - fi) * fj), (1, 1, fi * fj)):
        if weight > 0:
            total += weight * field[j0 + dj, i0 + di]
    return total


def direction(u, v):
    d = np.degrees(np.arctan2(-u, -v)) % 360.0
    return d


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--seed", type=int, default=20261127)
    ap.add_argument("--places", type=int, default=500)
    args = ap.parse_args()
    with Dataset(args.file) as ds:
        ds.set_auto_mask(False)
        attributes = {k: ds.getncattr(k) for k in ("MAP_PROJ", "TRUELAT1", "TRUELAT2", "STAND_LON", "MOAD_CEN_LAT", "DX")}
        texts = [b"".join(t).decode() for t in ds["Times"][:]]
        times = [dt.datetime.strptime(t, "%Y-%m-%d_%H:%M:%S") for t in texts]

        def f(name):
            return np.asarray(ds[name][:], dtype=np.float64)

        def g(name):
            # A field the file lacks: the quantities made from it are left out (a file with
            # only T, P, PB, PH, PHB and QVAPOR still has its pressure-level temperatures).
            return f(name) if name in ds.variables else None

        def static(name):
            value = g(name)
            return value[0] if value is not None and value.ndim == 3 else value

        lat, lon = static("XLAT"), static("XLONG")
        hgt, cosa, sina = static("HGT"), static("COSALPHA"), static("SINALPHA")
        ph, phb, p, pb, theta = f("PH"), f("PHB"), f("P"), f("PB"), f("T")
        qv, cldfra, u, v, w = f("QVAPOR"), g("CLDFRA"), g("U"), g("V"), g("W")
    winds = u is not None and v is not None and cosa is not None

    frames = len(times)
    fields = {}  # name -> (frames, ny, nx)
    for t in range(frames):
        z = (ph[t] + phb[t]) / G
        z_mass = 0.5 * (z[:-1] + z[1:])
        pressure = p[t] + pb[t]
        tk = (theta[t] + 300.0) * (pressure / 100000.0) ** (RD / CP)
        q = np.maximum(qv[t], 0.0)
        es = 6.112 * np.exp(17.67 * (tk - 273.15) / (tk - 29.65))
        qvs = 0.622 * es / (0.01 * pressure - (1 - 0.622) * es)
        rh = 100.0 * np.clip(q / qvs, 0.0, 1.0)
        e = np.maximum(q * (pressure / 100.0) / (0.622 + q), 0.001)
        td = (243.5 * np.log(e) - 440.8) / (19.48 - np.log(e))
        if winds:
            um = 0.5 * (u[t][:, :, :-1] + u[t][:, :, 1:])
            vm = 0.5 * (v[t][:, :-1, :] + v[t][:, 1:, :])
        per = {}
        for h in HEIGHTS if hgt is not None else []:
            height_agl = z_mass - hgt
            per[f"temperature_{h}m"] = interplevel(tk, height_agl, h) - 273.15
            if winds:
                uu, vv = interplevel(um, height_agl, h), interplevel(vm, height_agl, h)
                per[f"wind_u_component_{h}m"] = uu * cosa - vv * sina
                per[f"wind_v_component_{h}m"] = vv * cosa + uu * sina
        for level in PRESSURES:
            pa = level * 100.0
            per[f"temperature_{level}hPa"] = interplevel(tk, pressure, pa) - 273.15
            per[f"relative_humidity_{level}hPa"] = interplevel(rh, pressure, pa)
            per[f"dew_point_{level}hPa"] = interplevel(td, pressure, pa)
            per[f"geopotential_height_{level}hPa"] = interplevel(z_mass, pressure, pa)
            if cldfra is not None:
                per[f"cloud_cover_{level}hPa"] = interplevel(100.0 * cldfra[t], pressure, pa)
            if w is not None:
                per[f"vertical_velocity_{level}hPa"] = interplevel(0.5 * (w[t][:-1] + w[t][1:]), pressure, pa)
            if winds:
                uu, vv = interplevel(um, pressure, pa), interplevel(vm, pressure, pa)
                per[f"wind_u_component_{level}hPa"] = uu * cosa - vv * sina
                per[f"wind_v_component_{level}hPa"] = vv * cosa + uu * sina
        for name, value in per.items():
            fields.setdefault(name, np.full((frames,) + value.shape, np.nan))[t] = value

    levels = [f"{h}m" for h in HEIGHTS] + [f"{level}hPa" for level in PRESSURES]
    columns = []
    for level in levels:
        if level.endswith("hPa"):
            columns += [f"{q}_{level}" for q in PRESSURE_QUANTITIES]
        else:
            columns.append(f"temperature_{level}")
        columns += [f"wind_u_component_{level}", f"wind_v_component_{level}", f"wind_speed_{level}", f"wind_direction_{level}"]
    columns = [c for c in columns if c in fields or (winds and ("wind_speed" in c or "wind_direction" in c)
                                                       and c.replace("wind_speed", "wind_u_component").replace("wind_direction", "wind_u_component") in fields)]

    def complete(values):
        for level in levels if winds else []:
            if f"wind_u_component_{level}" not in values:
                continue
            uu, vv = values[f"wind_u_component_{level}"], values[f"wind_v_component_{level}"]
            values[f"wind_speed_{level}"] = float(np.hypot(uu, vv))
            values[f"wind_direction_{level}"] = float(direction(uu, vv))
        return values

    p_ = projection(attributes)
    x0, y0 = p_(lon[0, 0], lat[0, 0])
    dx = float(attributes["DX"])
    ny, nx = lat.shape
    print("latitude,longitude,time," + ",".join(columns))

    def emit(place, when, values):
        values = complete(values)
        print(f"{place[0]!r},{place[1]!r},{when.strftime('%Y-%m-%dT%H:%MZ')}," + ",".join(f"{values[c]:.6f}" for c in columns))

    for k, when in enumerate(times):
        for j in range(ny):
            for i in range(nx):
                emit((float(lat[j, i]), float(lon[j, i])), when, {name: value[k, j, i] for name, value in fields.items()})
    rng = np.random.default_rng(args.seed)
    for _ in range(args.places):
        place, i, j = place_between_nodes(rng, p_, x0, y0, dx, nx, ny)
        k, when = half_way_between_frames(rng, times)
        emit(place, when, {name: 0.5 * (corners(value[k], i, j) + corners(value[k + 1], i, j)) for name, value in fields.items()})


if __name__ == "__main__":
    main()
