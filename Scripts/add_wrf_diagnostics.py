#!/usr/bin/env python3
"""Writes a copy of a WRF history file with SWDDNI, SWDNBC, LPI, T2MAX, T2MIN and ZNT added,
for the tests of direct_normal_irradiance, shortwave_radiation_clear_sky, lightning_potential
and roughness_length (issue 28): no file in the shared samples carries them (WRF writes SWDDNI
and SWDNBC with the RRTMG diagnostics or swint_opt, LPI with the lightning diagnostics, T2MAX and
T2MIN with output_diagnostics, ZNT with most land-surface options but not in the cropped samples).

Like Scripts/add_radiation_fields.py, the copy is made when a test runs, into its temporary
folder (the tests never keep generated NetCDF in the repository); the values are plausible, not
physical, and deterministic (numpy seed 28):

  * SWDDNI: 0.7 SWDOWN over the cosine of the sun's zenith (Cooper's declination, the hour
    angle from XTIME and the longitude), that cosine floored at 0.1 and the value capped at
    1100 W/m2; 0 at night.
  * SWDNBC: 1.1 SWDOWN (clear sky lets more through); 0 at night.
  * LPI: seeded 0..40 J/kg in a quarter of the cells, else 0.
  * T2MAX, T2MIN: T2 plus and minus a seeded 0..2 K.
  * ZNT: 2e-4 m over water (XLAND 2), else a seeded 0.01..0.8 m per cell, the same every frame.

Each field gets WRF's attributes (FieldType 104, MemoryOrder "XY ", description, units,
stagger "", coordinates).

Usage: add_wrf_diagnostics.py INPUT OUTPUT
"""
import sys
from datetime import datetime

import numpy as np
from netCDF4 import Dataset


def cos_zenith(times, lat, lon):
    """Cosine of the sun's zenith per frame and cell (Cooper 1969 declination, no equation of time)."""
    out = np.empty((len(times),) + lat.shape)
    for n, when in enumerate(times):
        day = when.timetuple().tm_yday
        declination = np.radians(23.45) * np.sin(2 * np.pi * (284 + day) / 365)
        hours = when.hour + when.minute / 60 + lon / 15
        angle = np.radians(15 * (hours - 12))
        phi = np.radians(lat)
        out[n] = np.sin(phi) * np.sin(declination) + np.cos(phi) * np.cos(declination) * np.cos(angle)
    return out


def main(source, target):
    with Dataset(source) as src, Dataset(target, "w", format=src.data_model) as dst:
        dst.setncatts({name: src.getncattr(name) for name in src.ncattrs()})
        for name, dim in src.dimensions.items():
            dst.createDimension(name, None if dim.isunlimited() else len(dim))
        for name, var in src.variables.items():
            out = dst.createVariable(name, var.datatype, var.dimensions)
            out.setncatts({a: var.getncattr(a) for a in var.ncattrs()})
            out[:] = var[:]
        src.set_auto_mask(False)
        swdown = np.asarray(src["SWDOWN"][:], dtype=np.float64)
        t2 = np.asarray(src["T2"][:], dtype=np.float64)
        lat = np.asarray(src["XLAT"][:], dtype=np.float64)
        lon = np.asarray(src["XLONG"][:], dtype=np.float64)
        lat, lon = (lat[0], lon[0]) if lat.ndim == 3 else (lat, lon)
        times = [datetime.strptime(b"".join(t).decode(), "%Y-%m-%d_%H:%M:%S") for t in src["Times"][:]]
        xland = np.asarray(src["XLAND"][:], dtype=np.float64) if "XLAND" in src.variables else np.ones_like(swdown)
        xland = xland if xland.ndim == 3 else np.broadcast_to(xland, swdown.shape)
        rng = np.random.default_rng(28)
        mu = cos_zenith(times, lat, lon)
        dni = np.where(swdown > 0, np.minimum(1100, 0.7 * swdown / np.maximum(mu, 0.1)), 0)
        lpi = np.where(rng.uniform(0, 1, swdown.shape) < 0.25, rng.uniform(0, 40, swdown.shape), 0)
        spread = rng.uniform(0, 2, (2,) + swdown.shape)
        land = rng.uniform(0.01, 0.8, swdown.shape[1:])
        znt = np.where(xland > 1.5, 2e-4, np.broadcast_to(land, swdown.shape))
        fields = {
            "SWDDNI": (dni, "Shortwave surface downward direct normal irradiance", "W m-2"),
            "SWDNBC": (1.1 * swdown, "Shortwave bottom downward clear-sky flux", "W m-2"),
            "LPI": (lpi, "Lightning potential index", "J kg-1"),
            "T2MAX": (t2 + spread[0], "MAX TEMP AT 2 M", "K"),
            "T2MIN": (t2 - spread[1], "MIN TEMP AT 2 M", "K"),
            "ZNT": (znt, "TIME-VARYING ROUGHNESS LENGTH", "m"),
        }
        for name, (values, description, units) in fields.items():
            out = dst.createVariable(name, "f4", ("Time", "south_north", "west_east"))
            out.setncatts({"FieldType": 104, "MemoryOrder": "XY ", "description": description, "units": units,
                           "stagger": "", "coordinates": "XLONG XLAT XTIME"})
            out[:] = values.astype(np.float32)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
