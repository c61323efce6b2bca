#!/usr/bin/env python3
"""Independent reference for `bounding_box`: the mass points of a WRF file inside a box, read
with netCDF4-python from the file's own XLAT/XLONG, with T2 (degrees C) at one frame.

Usage: box_cells_reference.py WRFOUT SOUTH WEST NORTH EAST FRAME

Prints JSON: [{"latitude", "longitude", "t2"}, ...], south to north then west to east, for
the points with SOUTH <= XLAT < NORTH and WEST <= XLONG < EAST (Open-Meteo's half-open box).
Shares nothing with the Swift engine (which finds the points by its own projection).
"""
import json
import sys

from netCDF4 import Dataset


def main():
    path, south, west, north, east, frame = sys.argv[1], *map(float, sys.argv[2:6]), int(sys.argv[6])
    with Dataset(path) as ds:
        ds.set_auto_mask(False)
        lat, lon, t2 = ds["XLAT"][0], ds["XLONG"][0], ds["T2"][frame]
        cells = []
        for j in range(lat.shape[0]):
            for i in range(lat.shape[1]):
                if south <= lat[j, i] < north and west <= lon[j, i] < east:
                    cells.append({"latitude": float(lat[j, i]), "longitude": float(lon[j, i]), "t2": float(t2[j, i]) - 273.15})
    json.dump(cells, sys.stdout)


if __name__ == "__main__":
    main()
