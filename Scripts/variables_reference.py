#!/usr/bin/env python3
"""Independent reference for the 2-D variables of issue 11, from a WRF history file.

Written from the published definitions, not from TileCast's Swift code:

  * rain, showers: Open-Meteo's split of the hour's precipitation. showers = convective
    (RAINC + RAINSH), rain = grid-scale liquid = RAINNC less its frozen parts (SNOWNC,
    GRAUPELNC, HAILNC; WRF's RAINNC is all grid-scale precipitation, the others are its
    frozen shares), floored at 0. Amounts are differences of the accumulated totals between
    frames; the first frame's amount is its total only when it is the simulation start.
  * snow_depth: SNOWH (m), as written.
  * soil_temperature_A_to_Bcm: TSLB of the Noah layer with centre ZS and thickness DZS,
    in deg C (K - 273.15); soil_moisture_A_to_Bcm: SMOIS (m3/m3).
  * vapour_pressure_deficit (kPa): FAO-56 eq. 11 saturation vapour pressure
    e0(T) = 0.6108 exp(17.27 T / (T + 237.3)) at T2 in deg C, times (1 - RH/100), with RH
    the served relative humidity (wrf-python's rh2: e_s = 6.112 exp(17.67 (T-273.15)/(T-29.65))
    hPa, q_s = 0.622 e_s / (p/100 - 0.378 e_s), RH = 100 q/q_s clipped to 0..100).

  * wind_gusts_10m: ECMWF IFS SPPGUST (ecland src/surf/module/sppgust_mod.F90), stable/neutral
    branch: PGUST = sqrt(U10^2 + V10^2) + UST * ZUGN with ZUGN = 7.2 (Cy48r1).

  * cloud_cover_low/_mid/_high (%): wrf-python's cloudfrac idea with Open-Meteo's layers:
    heights of the mass levels z = ((PH + PHB)[k] + (PH + PHB)[k+1]) / 2 / 9.81 - HGT, then
    100 max(CLDFRA) over z < 2000 m, 2000 <= z < 6000 m, z >= 6000 m (0 for an empty layer).

Usage: variables_reference.py FILE
Prints CSV rows "variable,frame,j,i,value" for every frame and mass cell.
"""
import sys

import numpy as np
from netCDF4 import Dataset


def main(path):
    nc = Dataset(path)
    frames = nc.dimensions["Time"].size
    times = ["".join(c.decode() for c in row) for row in nc.variables["Times"][:]]
    start = getattr(nc, "SIMULATION_START_DATE", None)
    first_is_start = start is None or times[0] == start

    def var(name, frame=None):
        if name not in nc.variables:
            return None
        v = nc.variables[name]
        timed = v.dimensions and v.dimensions[0] == "Time"
        return np.asarray(v[frame] if timed and frame is not None else v[:], dtype=np.float64)

    rows = []

    def emit(name, frame, field):
        for j in range(field.shape[0]):
            for i in range(field.shape[1]):
                rows.append(f"{name},{frame},{j},{i},{field[j, i]:.6f}")

    def total(names, frame):
        out = None
        for name in names:
            f = var(name, frame)
            if f is not None:
                out = f if out is None else out + f
        return out

    for frame in range(frames):
        # Amounts over the interval ending at this frame.
        def amount(names):
            now = total(names, frame)
            if now is None:
                return None
            if frame == 0:
                return now if first_is_start else np.full(now.shape, np.nan)
            return now - total(names, frame - 1)

        conv = amount(["RAINC", "RAINSH"])
        grid = amount(["RAINNC"])
        frozen = amount(["SNOWNC", "GRAUPELNC", "HAILNC"])
        if conv is not None:
            emit("showers", frame, np.maximum(conv, 0))
        if grid is not None and frozen is not None:
            emit("rain", frame, np.maximum(grid - frozen, 0))
        snowh = var("SNOWH", frame)
        if snowh is not None:
            emit("snow_depth", frame, snowh)
        zs = var("ZS", frame)
        dzs = var("DZS", frame)
        tslb, smois = var("TSLB", frame), var("SMOIS", frame)
        if zs is not None and dzs is not None:
            for k in range(zs.shape[0]):
                top = round((zs[k] - dzs[k] / 2) * 100)
                bottom = round((zs[k] + dzs[k] / 2) * 100)
                if tslb is not None:
                    emit(f"soil_temperature_{top}_to_{bottom}cm", frame, tslb[k] - 273.15)
                if smois is not None:
                    emit(f"soil_moisture_{top}_to_{bottom}cm", frame, smois[k])
        t2, q2, psfc = var("T2", frame), var("Q2", frame), var("PSFC", frame)
        if t2 is not None and q2 is not None and psfc is not None:
            es = 6.112 * np.exp(17.67 * (t2 - 273.15) / (t2 - 29.65))
            qs = 0.622 * es / (psfc / 100.0 - (1 - 0.622) * es)
            rh = np.clip(100.0 * np.maximum(q2, 0) / qs, 0, 100)
            tc = t2 - 273.15
            e0 = 0.6108 * np.exp(17.27 * tc / (tc + 237.3))
            emit("vapour_pressure_deficit", frame, e0 * (1 - rh / 100.0))
        ust, u10, v10 = var("UST", frame), var("U10", frame), var("V10", frame)
        if ust is not None and u10 is not None and v10 is not None:
            emit("wind_gusts_10m", frame, np.sqrt(u10 ** 2 + v10 ** 2) + ust * 7.2)
        ph, phb, cf, hgt = var("PH", frame), var("PHB", frame), var("CLDFRA", frame), var("HGT", frame)
        if ph is not None and phb is not None and cf is not None and hgt is not None:
            zstag = (ph + phb) / 9.81
            z = 0.5 * (zstag[:-1] + zstag[1:]) - hgt
            cf = np.clip(cf, 0, 1) * 100
            for name, mask in (("low", z < 2000), ("mid", (z >= 2000) & (z < 6000)), ("high", z >= 6000)):
                emit(f"cloud_cover_{name}", frame, np.where(mask, cf, 0).max(axis=0))
    print("variable,frame,j,i,value")
    print("\n".join(rows))


if __name__ == "__main__":
    main(sys.argv[1])
