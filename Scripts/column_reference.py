#!/usr/bin/env python3
"""Independent reference for issue 28's column quantities from a WRF history file's 3-D fields,
written from the published definitions (not from TileCast's Swift code):

  * total_column_integrated_water_vapour (kg/m2): wrf-python's pw (fortran/wrf_user.f90
    DCOMPUTEPW): sum over mass levels of p / (Rd Tv) * QVAPOR * (Z[k+1] - Z[k]), p = P + PB,
    T = (T + 300) (p / 1e5)^(2/7) (DCOMPUTETK), Tv = T (0.622 + q) / (0.622 (1 + q)),
    Z = (PH + PHB) / 9.81 on the staggered levels, Rd = 287.
  * freezing_level_height (m above sea level): the highest height where the profile (T2 at
    HGT + 2 m, then the mass levels at the mean of the staggered heights around them) crosses
    0 degC, linear in height; every crossing is found and the highest kept. With no point at or
    above 0 degC: Open-Meteo's below-ground estimate max(0, HGT) - 70 |T2 degC|, capped at HGT.
  * updraft (m/s): the maximum of W on its own (staggered) levels whose height above the
    terrain, (PH + PHB) / 9.81 - HGT, is at most 10 km.
  * k_index (degC): MetPy's k_index (linear in pressure, no extrapolation: nan where 850 hPa is
    below the lowest level) on the mass levels, dew point from MetPy's vapor_pressure and dewpoint.
  * cape, convective_inhibition (J/kg), lifted_index (K): MetPy's surface_based_cape_cin and
    lifted_index(p, T, parcel_profile(p, T[0], Td[0])) on the column (PSFC, T2, dew point of Q2)
    followed by the mass levels (P + PB, T as above, dew point of QVAPOR).

Usage: column_reference.py WRFOUT [--seed N] [--places N]

Rows: every mass node at every frame, then --places seeded places between nodes at half-hour
times between frames (node values bilinear in grid-index space on the file's grid, the place
projected with pyproj on WRF's 6370 km sphere, then linear in time), as the store interpolates.
Prints CSV: latitude,longitude,time, then one column per variable ("nan" where undefined).
"""
import argparse
import datetime as dt
import os
import sys
import warnings

import numpy as np
from netCDF4 import Dataset

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from moving_nest_reference import bilinear, half_way_between_frames, place_between_nodes, projection  # noqa: E402

COLUMNS = ["total_column_integrated_water_vapour", "freezing_level_height", "updraft", "k_index",
           "cape", "convective_inhibition", "lifted_index"]
G = 9.81


def k_index(p_pa, t_k, qv):
    """MetPy's k_index for every column (level axis 0)."""
    import metpy.calc as mc
    from metpy.units import units
    p = units.Quantity(p_pa, "Pa")
    e = mc.vapor_pressure(p, units.Quantity(qv, "kg/kg"))
    td = mc.dewpoint(e).to("degC")
    out = np.full(p_pa.shape[1:], np.nan)
    for j in range(p_pa.shape[1]):
        for i in range(p_pa.shape[2]):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                value = mc.k_index(p[:, j, i], units.Quantity(t_k[:, j, i] - 273.15, "degC"), td[:, j, i])
            out[j, i] = value.to("degC").magnitude
    return out


def parcel(p_pa, t_k, qv, psfc, t2_k, q2):
    """MetPy's surface-based CAPE, CIN and lifted index for every column (level axis 0)."""
    import metpy.calc as mc
    from metpy.units import units
    ny, nx = psfc.shape
    out = np.full((3, ny, nx), np.nan)
    for j in range(ny):
        for i in range(nx):
            p = np.concatenate([[psfc[j, i]], p_pa[:, j, i]]) / 100
            w = np.concatenate([[q2[j, i]], qv[:, j, i]])
            t = np.concatenate([[t2_k[j, i]], t_k[:, j, i]]) - 273.15
            p_q = units.Quantity(p, "hPa")
            td = mc.dewpoint(mc.vapor_pressure(p_q, units.Quantity(w, "kg/kg"))).to("degC")
            t_q = units.Quantity(t, "degC")
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                cape, cin = mc.surface_based_cape_cin(p_q, t_q, td)
                profile = mc.parcel_profile(p_q, t_q[0], td[0]).to("degC")
                li = mc.lifted_index(p_q, t_q, profile)
            out[:, j, i] = cape.m_as("J/kg"), cin.m_as("J/kg"), np.asarray(li.m_as("delta_degC")).item()
    return out


def freezing_level(z, t, hgt, t2):
    """Highest 0 degC crossing of one column (lowest point first), else the estimate."""
    crossings = []
    for k in range(len(t) - 1):
        a, b = t[k], t[k + 1]
        if (a >= 0) != (b >= 0):
            crossings.append(z[k] + (0 - a) / (b - a) * (z[k + 1] - z[k]))
    if t[-1] >= 0:
        return np.nan
    if crossings:
        return max(crossings)
    return min(max(0.0, hgt) - 70 * abs(t2), hgt)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--seed", type=int, default=20261127)
    ap.add_argument("--places", type=int, default=500)
    args = ap.parse_args()
    with Dataset(args.file) as ds:
        ds.set_auto_mask(False)
        attributes = {k: ds.getncattr(k) for k in ("MAP_PROJ", "TRUELAT1", "TRUELAT2", "STAND_LON", "MOAD_CEN_LAT", "DX")}
        times = [dt.datetime.strptime(b"".join(t).decode(), "%Y-%m-%d_%H:%M:%S") for t in ds["Times"][:]]
        lat = np.asarray(ds["XLAT"][:], dtype=np.float64)
        lon = np.asarray(ds["XLONG"][:], dtype=np.float64)
        lat, lon = (lat[0], lon[0]) if lat.ndim == 3 else (lat, lon)

        def f(name):
            return np.asarray(ds[name][:], dtype=np.float64)

        p = f("P") + f("PB")
        tk = (f("T") + 300) * (p / 1e5) ** (287.0 / 1004.5)
        qv = f("QVAPOR")
        zs = (f("PH") + f("PHB")) / G
        hgt = f("HGT")
        hgt = hgt if hgt.ndim == 3 else np.broadcast_to(hgt, (len(times),) + hgt.shape)
        t2 = f("T2") - 273.15
        w = f("W")
        q2, psfc = f("Q2"), f("PSFC")
    tv = tk * (0.622 + qv) / (0.622 * (1 + qv))
    pw = np.sum(p / (287.0 * tv) * qv * np.diff(zs, axis=1), axis=1)
    zm = (zs[:, 1:] + zs[:, :-1]) / 2
    nt, _, ny, nx = p.shape
    frz = np.full((nt, ny, nx), np.nan)
    for n in range(nt):
        for j in range(ny):
            for i in range(nx):
                z = np.concatenate([[hgt[n, j, i] + 2], zm[n, :, j, i]])
                t = np.concatenate([[t2[n, j, i]], tk[n, :, j, i] - 273.15])
                frz[n, j, i] = freezing_level(z, t, hgt[n, j, i], t2[n, j, i])
    above = zs - hgt[:, None]
    updraft = np.max(np.where(above <= 10000, w, -np.inf), axis=1)
    kidx = np.stack([k_index(p[n], tk[n], qv[n]) for n in range(nt)])
    convection = np.stack([parcel(p[n], tk[n], qv[n], psfc[n], t2[n] + 273.15, q2[n]) for n in range(nt)], axis=1)
    fields = {"total_column_integrated_water_vapour": pw, "freezing_level_height": frz, "updraft": updraft, "k_index": kidx,
              "cape": convection[0], "convective_inhibition": convection[1], "lifted_index": convection[2]}

    pr = projection(attributes)
    x0, y0 = pr(lon[0, 0], lat[0, 0])
    dx = float(attributes["DX"])
    rows = []
    for k, when in enumerate(times):
        for j in range(ny):
            for i in range(nx):
                rows.append(((float(lat[j, i]), float(lon[j, i])), when, {c: fields[c][k, j, i] for c in COLUMNS}))
    rng = np.random.default_rng(args.seed)
    for _ in range(args.places):
        place, i, j = place_between_nodes(rng, pr, x0, y0, dx, nx, ny)
        k, when = half_way_between_frames(rng, times)
        rows.append((place, when, {c: 0.5 * (bilinear(fields[c][k], i, j) + bilinear(fields[c][k + 1], i, j)) for c in COLUMNS}))
    print("latitude,longitude,time," + ",".join(COLUMNS))
    for place, when, values in rows:
        print(f"{place[0]!r},{place[1]!r},{when.strftime('%Y-%m-%dT%H:%MZ')}," + ",".join(f"{values[c]:.6f}" for c in COLUMNS))


if __name__ == "__main__":
    main()
