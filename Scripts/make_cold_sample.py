#!/usr/bin/env python3
"""Writes a copy of a real WRF file with its 2 m air 12 K colder, for the freezing codes.

The SampleGrids d01 (T2 -5..18 °C) rains over Portugal; this copy keeps every field as WRF
wrote it (the rain and its phase: RAINNC, SNOWNC, ...) but lowers T2 by 12 K and Q2 to the
same relative humidity (Q2 times the ratio of the saturation mixing ratios, Bolton's formula at
PSFC), so much of the grid-scale rain falls at or below 0 °C: liquid precipitation that freezes
where it lands (issue 46: weather codes 56/57/66/67, never 51-65).

Usage: make_cold_sample.py WRFOUT OUT
"""
import sys

import numpy as np
from netCDF4 import Dataset

COOLING = 12.0


def saturation_mixing_ratio(t_kelvin, pressure):
    """Bolton (1980) saturation vapour pressure over water, as a mixing ratio at `pressure` (Pa)."""
    celsius = t_kelvin - 273.15
    e = 611.2 * np.exp(17.67 * celsius / (celsius + 243.5))
    return 0.622 * e / (pressure - e)


def main(source, target):
    # Copied variable by variable (renaming in place corrupts a netCDF-4 file's dimensions).
    with Dataset(source) as src, Dataset(target, "w", format=src.data_model) as out:
        src.set_auto_mask(False)
        out.setncatts({name: src.getncattr(name) for name in src.ncattrs()})
        for name, dimension in src.dimensions.items():
            out.createDimension(name, None if dimension.isunlimited() else len(dimension))
        t2 = src["T2"][:].astype(np.float64)
        psfc = src["PSFC"][:].astype(np.float64)
        for name, variable in src.variables.items():
            fill = variable.getncattr("_FillValue") if "_FillValue" in variable.ncattrs() else None
            copy = out.createVariable(name, variable.datatype, variable.dimensions, fill_value=fill)
            copy.setncatts({a: variable.getncattr(a) for a in variable.ncattrs() if a != "_FillValue"})
            values = variable[:]
            if name == "T2":
                values = values - COOLING
            if name == "Q2":
                ratio = saturation_mixing_ratio(t2 - COOLING, psfc) / saturation_mixing_ratio(t2, psfc)
                values = (values * ratio).astype(values.dtype)
            copy[:] = values


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
