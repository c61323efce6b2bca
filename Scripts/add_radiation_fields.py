#!/usr/bin/env python3
"""Writes a copy of a WRF history file with SWDDIR, SWDDIF and CAPE added, for the tests of
direct_radiation, diffuse_radiation and cape (the shared real samples do not carry them).

SWDDIR and SWDDIF split SWDOWN 70/30 (WRF writes them with attributes like these when
swint_opt or the RRTMG diagnostics are on); CAPE is seeded random 0..3000 J/kg with the
attributes of WRF's AFWA-style 2-D diagnostic. Deterministic: numpy seed 11.

Usage: add_radiation_fields.py INPUT OUTPUT
"""
import sys

import numpy as np
from netCDF4 import Dataset


def main(source, target):
    with Dataset(source) as src, Dataset(target, "w", format=src.data_model) as dst:
        dst.setncatts({name: src.getncattr(name) for name in src.ncattrs()})
        for name, dim in src.dimensions.items():
            dst.createDimension(name, None if dim.isunlimited() else len(dim))
        for name, var in src.variables.items():
            out = dst.createVariable(name, var.datatype, var.dimensions)
            out.setncatts({a: var.getncattr(a) for a in var.ncattrs()})
            out[:] = var[:]
        swdown = np.asarray(src.variables["SWDOWN"][:], dtype=np.float32)
        rng = np.random.default_rng(11)
        fields = {
            "SWDDIR": (0.7 * swdown, "Shortwave surface downward direct irradiance", "W m-2"),
            "SWDDIF": (0.3 * swdown, "Shortwave surface downward diffuse irradiance", "W m-2"),
            "CAPE": (rng.uniform(0, 3000, swdown.shape).astype(np.float32), "Convective available potential energy", "J kg-1"),
        }
        for name, (values, description, units) in fields.items():
            out = dst.createVariable(name, "f4", ("Time", "south_north", "west_east"))
            out.setncatts({"FieldType": 104, "MemoryOrder": "XY ", "description": description, "units": units,
                           "stagger": "", "coordinates": "XLONG XLAT XTIME"})
            out[:] = values


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
