#!/usr/bin/env python3
"""Writes a copy of the real allvars WRF sample with fog in a dry frame, for the fog codes.

The sample's only fog (cloud water at the lowest level over the Tibetan plateau) is in its
first frame, whose precipitation interval is unknown (the run started 12 h earlier), so its
weather code is unknown. This copy moves that frame's lowest-level QCLOUD into frame 2
(2005-09-21T06Z, dry everywhere: < 1e-5 mm/h) and sets T2 of row south_north = 3 of that
frame to 270.15 K (-3 °C), so that row's fog deposits rime (48) while the rest stays 45.
Everything else is the sample as WRF wrote it. With --without NAME, the variable NAME is
left out, making a file that lacks one of visibility's sources.

Usage: make_fog_sample.py SAMPLE OUT [--without NAME]
"""
import sys

from netCDF4 import Dataset

FOG_FRAME = 2
FROZEN_ROW = 3


def main(source, target, without=None):
    # Copied variable by variable (renaming in place corrupts a netCDF-4 file's dimensions).
    with Dataset(source) as src, Dataset(target, "w", format=src.data_model) as out:
        src.set_auto_mask(False)
        out.setncatts({name: src.getncattr(name) for name in src.ncattrs()})
        for name, dimension in src.dimensions.items():
            out.createDimension(name, None if dimension.isunlimited() else len(dimension))
        for name, variable in src.variables.items():
            if name == without:
                continue
            fill = variable.getncattr("_FillValue") if "_FillValue" in variable.ncattrs() else None
            copy = out.createVariable(name, variable.datatype, variable.dimensions, fill_value=fill)
            copy.setncatts({a: variable.getncattr(a) for a in variable.ncattrs() if a != "_FillValue"})
            values = variable[:]
            if name == "QCLOUD":
                values[FOG_FRAME, 0, :, :] = values[0, 0, :, :]
            if name == "T2":
                values[FOG_FRAME, FROZEN_ROW, :] = 270.15
            copy[:] = values


if __name__ == "__main__":
    args = sys.argv[1:]
    if len(args) == 4 and args[2] == "--without":
        main(args[0], args[1], args[3])
    elif len(args) == 2:
        main(args[0], args[1])
    else:
        sys.exit(__doc__)
