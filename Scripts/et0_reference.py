#!/usr/bin/env python3
"""Independent reference for et0_fao_evapotranspiration: a numpy transcription of FAO-56
(Allen et al. 1998) hourly Penman-Monteith, eq. 53, with net radiation estimated from the
global radiation as FAO-56 does (eqs. 37, 38, 39, 23, 28 in the limit of a short period),
and the sun's zenith from astral (not TileCast's NOAA code). Low sun (elevation below
0.3 rad, ASCE-EWRI 2005) reuses the last Rs/Rso of a higher sun; 0.7 before any.

Input on stdin: JSON {"latitude", "longitude", "elevation", "time": [unix s], "temperature_2m",
"dew_point_2m", "wind_speed_10m" (m/s), "shortwave_radiation" (W/m2), "surface_pressure" (hPa)}.
Output: one ET0 per line, mm/h.
"""
import datetime
import json
import sys

import numpy as np
from astral import Observer
from astral.sun import zenith


def main():
    d = json.load(sys.stdin)
    observer = Observer(latitude=d["latitude"], longitude=d["longitude"], elevation=0)
    t = np.array(d["temperature_2m"], float)
    td = np.minimum(np.array(d["dew_point_2m"], float), t)
    u10 = np.array(d["wind_speed_10m"], float)
    rs = np.maximum(np.array(d["shortwave_radiation"], float), 0) * 0.0036   # W/m2 -> MJ m-2 h-1
    p = np.array(d["surface_pressure"], float) / 10                           # hPa -> kPa
    times = [datetime.datetime.fromtimestamp(s, datetime.timezone.utc) for s in d["time"]]
    cos_z = np.array([np.cos(np.radians(zenith(observer, when, with_refraction=False))) for when in times])
    doy = np.array([when.timetuple().tm_yday for when in times])

    es = 0.6108 * np.exp(17.27 * t / (t + 237.3))            # eq. 11
    ea = 0.6108 * np.exp(17.27 * td / (td + 237.3))          # eq. 14
    delta = 4098 * es / (t + 237.3) ** 2                      # eq. 13
    gamma = 0.000665 * p                                      # eq. 8
    u2 = u10 * 4.87 / np.log(67.8 * 10 - 5.42)                # eq. 47
    dr = 1 + 0.033 * np.cos(2 * np.pi * doy / 365)            # eq. 23
    ra = 60 * 0.0820 * dr * np.maximum(cos_z, 0)              # eq. 28, short period
    rso = (0.75 + 2e-5 * d["elevation"]) * ra                 # eq. 37
    ratio = np.empty_like(t)
    last = 0.7
    for k in range(len(t)):
        if cos_z[k] > np.sin(0.3) and rso[k] > 0:
            last = min(max(rs[k] / rso[k], 0.25), 1.0)
        ratio[k] = last
    rns = 0.77 * rs                                           # eq. 38
    rnl = 2.043e-10 * (t + 273.16) ** 4 * (0.34 - 0.14 * np.sqrt(ea)) * (1.35 * ratio - 0.35)  # eq. 39
    rn = rns - rnl
    g = np.where(rs > 0, 0.1 * rn, 0.5 * rn)                  # eqs. 45, 46
    et0 = (0.408 * delta * (rn - g) + gamma * 37 / (t + 273) * u2 * (es - ea)) / (delta + gamma * (1 + 0.34 * u2))  # eq. 53
    for value in np.maximum(et0, 0):
        print(f"{value:.6f}")


if __name__ == "__main__":
    main()
