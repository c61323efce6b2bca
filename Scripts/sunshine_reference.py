#!/usr/bin/env python3
"""Independent reference for sunshine_duration (WMO: direct normal irradiance above 120 W/m²)
on a wrfout file, with pvlib: the sun's position from pvlib.solarposition (NREL SPA, not
TileCast's NOAA code) and the split of SWDOWN into direct and diffuse by
pvlib.irradiance.erbs (Erbs, Klein and Duffie 1982); SWDDIR, when the file has it, as the
direct radiation on the horizontal instead.

The method TileCast documents (docs/VARIABLES.md, sunshine_duration): each output frame's
DNI at the cell is interpolated linearly in time to the middle of each minute of the hour
ending at the time; a minute is sunny when the sun's centre is above the horizon (geometric
zenith below 90°) and the DNI exceeds 120 W/m². A minute with the sun up outside the run
makes the hour unknown (null); night minutes count 0 wherever they are.

Usage: sunshine_reference.py FILE.nc START_ISO HOURS I,J [I,J ...]
  (START_ISO the first hour's end, UTC, e.g. 2005-09-21T00:00; I along west_east, J along
  south_north, mass-grid cells, 0-based). Output on stdout, JSON: {"time": [unix s],
  "cells": [{"i", "j", "latitude", "longitude", "hourly": [s or null]}]}; the cell's
  latitude and longitude are XLAT/XLONG rounded to 4 decimals, as a query would give them.
"""
import datetime
import json
import sys

import netCDF4
import numpy as np
import pandas as pd
import pvlib


def frame_times(dataset):
    names = ["".join(c.decode() for c in row) for row in dataset.variables["Times"][:]]
    return np.array([datetime.datetime.strptime(n, "%Y-%m-%d_%H:%M:%S").replace(tzinfo=datetime.timezone.utc).timestamp()
                     for n in names])


def zenith(latitude, longitude, seconds):
    index = pd.DatetimeIndex(pd.to_datetime(np.asarray(seconds), unit="s", utc=True))
    return pvlib.solarposition.get_solarposition(index, latitude, longitude)["zenith"].to_numpy(), index


def main():
    path, start, hours = sys.argv[1], sys.argv[2], int(sys.argv[3])
    cells = [tuple(int(x) for x in arg.split(",")) for arg in sys.argv[4:]]
    dataset = netCDF4.Dataset(path)
    frames = frame_times(dataset)
    first = datetime.datetime.fromisoformat(start).replace(tzinfo=datetime.timezone.utc).timestamp()
    ends = first + 3600 * np.arange(hours)
    has_direct = "SWDDIR" in dataset.variables
    field = dataset.variables["SWDDIR" if has_direct else "SWDOWN"][:]
    lat2d, lon2d = dataset.variables["XLAT"][:], dataset.variables["XLONG"][:]
    if lat2d.ndim == 3:
        lat2d, lon2d = lat2d[0], lon2d[0]
    out = {"time": [int(t) for t in ends], "cells": []}
    for i, j in cells:
        lat, lon = round(float(lat2d[j, i]), 4), round(float(lon2d[j, i]), 4)
        series = np.asarray(field[:, j, i], float)
        z_frames, index = zenith(lat, lon, frames)
        if has_direct:
            cos_z = np.cos(np.radians(z_frames))
            dni = np.where((z_frames <= 87) & (series > 0), series / cos_z, 0.0)
        else:
            dni = np.asarray(pvlib.irradiance.erbs(series, z_frames, index)["dni"], float)
        hourly = []
        for end in ends:
            samples = end - 3600 + 30 + 60 * np.arange(60)
            z_samples, _ = zenith(lat, lon, samples)
            up = z_samples < 90
            inside = (samples >= frames[0]) & (samples <= frames[-1])
            if np.any(up & ~inside):
                hourly.append(None)
                continue
            values = np.interp(samples, frames, dni)
            hourly.append(int(60 * np.count_nonzero(up & (values > 120))))
        out["cells"].append({"i": i, "j": j, "latitude": lat, "longitude": lon, "hourly": hourly})
    json.dump(out, sys.stdout)
    print()


if __name__ == "__main__":
    main()
