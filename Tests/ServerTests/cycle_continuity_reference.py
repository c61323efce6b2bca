#!/usr/bin/env python3
"""Reference values for the cycle-continuity test, read with netCDF4-python from a WRF file.

Picks the interior mass node (two cells from every edge) with the most precipitation in the
hour ending at the run's sixth frame (so the hour a newer cycle starts on is a wet one), and
prints, as JSON, its XLAT/XLONG and per frame: T2 in degrees Celsius and the hour's
precipitation in mm (RAINC + RAINNC + RAINSH de-accumulated; the first frame's own total).

    python3 cycle_continuity_reference.py WRFOUT
"""
import json
import sys

import netCDF4
import numpy as np


def main(path):
    with netCDF4.Dataset(path) as d:
        total = np.asarray(d["RAINC"][:], dtype=np.float64) + np.asarray(d["RAINNC"][:], dtype=np.float64)
        if "RAINSH" in d.variables:
            total += np.asarray(d["RAINSH"][:], dtype=np.float64)
        wet = total[6] - total[5]
        wet[:2, :] = wet[-2:, :] = -1
        wet[:, :2] = wet[:, -2:] = -1
        j, i = np.unravel_index(int(np.argmax(wet)), wet.shape)
        t2 = np.asarray(d["T2"][:, j, i], dtype=np.float64) - 273.15
        series = total[:, j, i]
        hourly = [float(series[0])] + [float(series[k] - series[k - 1]) for k in range(1, len(series))]
        print(json.dumps({"j": int(j), "i": int(i),
                          "latitude": float(d["XLAT"][j, i]), "longitude": float(d["XLONG"][j, i]),
                          "temperature": [float(x) for x in t2], "precipitation": hourly}))


if __name__ == "__main__":
    main(sys.argv[1])
