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
half-hour times between frames (bilinear in grid-index space of the node values, the place
projected with pyproj on WRF's 6370 km sphere, then linear in time; the wind's speed and
direction from the interpolated components). Prints CSV: latitude,longitude,time, then one
column per variable (nan where missing).
"""
import argparse
import datetime as dt
import os
import sys

import numpy as np
from netCDF4 import Dataset

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from moving_nest_reference import bilinear, projection  # noqa: E402  (WRF's projections, bilinear in index space)

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

        lat, lon = f("XLAT"), f("XLONG")
        lat, lon = (lat[0], lon[0]) if lat.ndim == 3 else (lat, lon)
        hgt = f("HGT")
        hgt = hgt[0] if hgt.ndim == 3 else hgt
        cosa, sina = f("COSALPHA"), f("SINALPHA")
        cosa, sina = (cosa[0], sina[0]) if cosa.ndim == 3 else (cosa, sina)
        ph, phb, p, pb, theta = f("PH"), f("PHB"), f("P"), f("PB"), f("T")
        qv, cldfra, u, v, w = f("QVAPOR"), f("CLDFRA"), f("U"), f("V"), f("W")

    frames = len(times)
    fields = {}  # name -> (frames, ny, nx)
    for t in range(frames):
        z = (ph[t] + phb[t]) / G
        z_mass = 0.5 * (z[:-1] + z[1:])
        height_agl = z_mass - hgt
        pressure = p[t] + pb[t]
        tk = (theta[t] + 300.0) * (pressure / 100000.0) ** (RD / CP)
        q = np.maximum(qv[t], 0.0)
        es = 6.112 * np.exp(17.67 * (tk - 273.15) / (tk - 29.65))
        qvs = 0.622 * es / (0.01 * pressure - (1 - 0.622) * es)
        rh = 100.0 * np.clip(q / qvs, 0.0, 1.0)
        e = np.maximum(q * (pressure / 100.0) / (0.622 + q), 0.001)
        td = (243.5 * np.log(e) - 440.8) / (19.48 - np.log(e))
        um = 0.5 * (u[t][:, :, :-1] + u[t][:, :, 1:])
        vm = 0.5 * (v[t][:, :-1, :] + v[t][:, 1:, :])
        wm = 0.5 * (w[t][:-1] + w[t][1:])
        per = {}
        for h in HEIGHTS:
            per[f"temperature_{h}m"] = interplevel(tk, height_agl, h) - 273.15
            uu, vv = interplevel(um, height_agl, h), interplevel(vm, height_agl, h)
            per[f"wind_u_component_{h}m"] = uu * cosa - vv * sina
            per[f"wind_v_component_{h}m"] = vv * cosa + uu * sina
        for level in PRESSURES:
            pa = level * 100.0
            per[f"temperature_{level}hPa"] = interplevel(tk, pressure, pa) - 273.15
            per[f"relative_humidity_{level}hPa"] = interplevel(rh, pressure, pa)
            per[f"dew_point_{level}hPa"] = interplevel(td, pressure, pa)
            per[f"geopotential_height_{level}hPa"] = interplevel(z_mass, pressure, pa)
            per[f"cloud_cover_{level}hPa"] = interplevel(100.0 * cldfra[t], pressure, pa)
            per[f"vertical_velocity_{level}hPa"] = interplevel(wm, pressure, pa)
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

    def complete(values):
        for level in levels:
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
        i, j = rng.uniform(0, nx - 1), rng.uniform(0, ny - 1)
        plon, plat = p_(x0 + i * dx, y0 + j * dx, inverse=True)
        place = (round(float(plat), 5), round(float(plon), 5))
        x, y = p_(place[1], place[0])
        i, j = (x - x0) / dx, (y - y0) / dx
        k = int(rng.integers(0, frames - 1))
        when = times[k] + (times[k + 1] - times[k]) / 2
        emit(place, when, {name: 0.5 * (bilinear(value[k], i, j) + bilinear(value[k + 1], i, j)) for name, value in fields.items()})


if __name__ == "__main__":
    main()
