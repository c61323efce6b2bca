#!/usr/bin/env python3
"""Writes a copy of the real allvars WRF sample whose levels move between frames, for the
extraction's bounded reads of PH/PHB and P/PB.

The extraction reads PH + PHB only up to the lowest level that is 6 km above the ground in
every cell, and P + PB only up to the level 100 hPa above the ground, each starting from the
previous frame's need plus a level or two. In this copy one column (j, i below) of one frame
(FRAME) is squeezed: its geopotential above the ground level by 0.6, so its 6 km level lies
several levels higher than in the frames before, and its pressure drop from the lowest level
by 0.5, so its 100 hPa-above-ground level lies deeper. Both go past the first guess, so the
whole columns must be read again. Everything else is the sample as WRF wrote it.

Prints one line per squeezed quantity: "FRAME name before after" (the column's level before
and after the squeeze), so a test can check that the copy does what it is for.

Usage: make_rising_levels_sample.py SAMPLE OUT
"""
import sys

import numpy as np
from netCDF4 import Dataset

FRAME = 2
J, I = 4, 5


def main(source, target):
    with Dataset(source) as src, Dataset(target, "w", format=src.data_model) as out:
        src.set_auto_mask(False)
        out.setncatts({name: src.getncattr(name) for name in src.ncattrs()})
        for name, dimension in src.dimensions.items():
            out.createDimension(name, None if dimension.isunlimited() else len(dimension))
        ph, phb = src["PH"][:].astype(np.float64), src["PHB"][:].astype(np.float64)
        p, pb = src["P"][:].astype(np.float64), src["PB"][:].astype(np.float64)
        terrain = src["HGT"]
        hgt = terrain[FRAME, J, I] if terrain.ndim == 3 else terrain[J, I]

        def six_km_level(g):
            heights = (g[:-1] + g[1:]) / 2 / 9.81 - hgt
            return int(np.argmax(heights >= 6000))

        def search_level(column):
            return int(np.argmax(column < column[0] - 10000))

        g = ph[FRAME, :, J, I] + phb[FRAME, :, J, I]
        squeezed_g = g[0] + (g - g[0]) * 0.6
        pressure = p[FRAME, :, J, I] + pb[FRAME, :, J, I]
        squeezed_p = pressure[0] - (pressure[0] - pressure) * 0.5
        print(f"{FRAME} six_km_level {six_km_level(g)} {six_km_level(squeezed_g)}")
        print(f"{FRAME} slp_search_level {search_level(pressure)} {search_level(squeezed_p)}")
        for name, variable in src.variables.items():
            fill = variable.getncattr("_FillValue") if "_FillValue" in variable.ncattrs() else None
            copy = out.createVariable(name, variable.datatype, variable.dimensions, fill_value=fill)
            copy.setncatts({a: variable.getncattr(a) for a in variable.ncattrs() if a != "_FillValue"})
            values = variable[:]
            if name == "PH":
                values[FRAME, :, J, I] = squeezed_g - phb[FRAME, :, J, I]
            if name == "P":
                values[FRAME, :, J, I] = squeezed_p - pb[FRAME, :, J, I]
            copy[:] = values


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
