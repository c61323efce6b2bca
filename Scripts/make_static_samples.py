#!/usr/bin/env python3
"""Writes SampleGrids/static/: small WPS geo_em files, as geogrid writes them, for `inspect`.

geogrid's conventions (checked against public geo_em files, e.g. salem's sample data): no
XTIME, and either no Times variable or one entry "0000-00-00_00:00:00"; SIMULATION_START_DATE
"0000-00-00_00:00:00"; XLAT_M/XLONG_M (Time, south_north, west_east) in "degrees latitude" /
"degrees longitude"; HGT_M in "meters MSL"; the nest attributes in lower case (grid_id,
parent_id, i_parent_start, j_parent_start, parent_grid_ratio). The projections' attributes are
those of salem's Lambert, Mercator and polar-stereographic samples, on smaller grids.

Coordinates come from pyproj on WRF's 6370 km sphere (independent of TileCast's projection
code), anchored at the domain centre as geogrid does; a nest's grid is placed by its parent
start and ratio.

    python3 Scripts/make_static_samples.py [--out SampleGrids/static]
"""
import argparse
from pathlib import Path

import netCDF4
import numpy as np
import pyproj

R = 6370000.0
SPHERE = "+R=6370000 +units=m +no_defs"


def crs_for(p):
    if p["MAP_PROJ"] == 1:
        return pyproj.CRS.from_proj4(f"+proj=lcc +lat_1={p['TRUELAT1']} +lat_2={p['TRUELAT2']} +lat_0={p['TRUELAT1']} +lon_0={p['STAND_LON']} {SPHERE}")
    if p["MAP_PROJ"] == 2:
        hemisphere = 90 if p["TRUELAT1"] > 0 else -90
        return pyproj.CRS.from_proj4(f"+proj=stere +lat_0={hemisphere} +lat_ts={p['TRUELAT1']} +lon_0={p['STAND_LON']} {SPHERE}")
    if p["MAP_PROJ"] == 3:
        return pyproj.CRS.from_proj4(f"+proj=merc +lat_ts={p['TRUELAT1']} +lon_0={p['STAND_LON']} {SPHERE}")
    raise ValueError(p["MAP_PROJ"])


def mass_grid(p, nx, ny, dx, centre=None, origin=None):
    """XLAT/XLONG of an nx x ny mass grid: centred on (CEN_LAT, CEN_LON), or with mass point
    [0,0] at `origin` (projected x, y)."""
    crs = crs_for(p)
    geo = pyproj.CRS.from_proj4(f"+proj=longlat {SPHERE}")
    forward = pyproj.Transformer.from_crs(geo, crs, always_xy=True)
    inverse = pyproj.Transformer.from_crs(crs, geo, always_xy=True)
    if origin is None:
        cx, cy = forward.transform(centre[1], centre[0])
        origin = (cx - (nx - 1) / 2 * dx, cy - (ny - 1) / 2 * dx)
    x = origin[0] + np.arange(nx) * dx
    y = origin[1] + np.arange(ny) * dx
    xx, yy = np.meshgrid(x, y)
    lon, lat = inverse.transform(xx, yy)
    return lat.astype(np.float32), lon.astype(np.float32), origin


def write(path, p, lat, lon, grid_id, parent_id, i_start, j_start, ratio, times_entry):
    ny, nx = lat.shape
    with netCDF4.Dataset(path, "w", format="NETCDF4") as ds:
        ds.createDimension("Time", None)
        ds.createDimension("DateStrLen", 19)
        ds.createDimension("south_north", ny)
        ds.createDimension("west_east", nx)
        attributes = {"TITLE": "OUTPUT FROM GEOGRID V3.3", "SIMULATION_START_DATE": "0000-00-00_00:00:00",
                      "WEST-EAST_GRID_DIMENSION": np.int32(nx + 1), "SOUTH-NORTH_GRID_DIMENSION": np.int32(ny + 1),
                      "GRIDTYPE": "C", "DX": np.float32(p["DX"] / ratio_chain(grid_id)), "DY": np.float32(p["DX"] / ratio_chain(grid_id)),
                      "CEN_LAT": np.float32(p["CEN_LAT"]), "CEN_LON": np.float32(p["CEN_LON"]),
                      "TRUELAT1": np.float32(p["TRUELAT1"]), "TRUELAT2": np.float32(p["TRUELAT2"]),
                      "MOAD_CEN_LAT": np.float32(p["CEN_LAT"]), "STAND_LON": np.float32(p["STAND_LON"]),
                      "POLE_LAT": np.float32(90), "POLE_LON": np.float32(0), "MAP_PROJ": np.int32(p["MAP_PROJ"]),
                      "MMINLU": "USGS", "grid_id": np.int32(grid_id), "parent_id": np.int32(parent_id),
                      "i_parent_start": np.int32(i_start), "j_parent_start": np.int32(j_start),
                      "parent_grid_ratio": np.int32(ratio), "FLAG_MF_XY": np.int32(1)}
        for key, value in attributes.items():
            ds.setncattr(key, value)
        if times_entry is not None:
            times = ds.createVariable("Times", "S1", ("Time", "DateStrLen"))
            times[0] = netCDF4.stringtochar(np.array([times_entry], "S19"))
        for name, values, units, description in (("XLAT_M", lat, "degrees latitude", "Latitude on mass grid"),
                                                  ("XLONG_M", lon, "degrees longitude", "Longitude on mass grid")):
            v = ds.createVariable(name, "f4", ("Time", "south_north", "west_east"))
            v.FieldType = np.int32(104)
            v.MemoryOrder = "XY "
            v.units = units
            v.description = description
            v.stagger = "M"
            v[0] = values
        hgt = ds.createVariable("HGT_M", "f4", ("Time", "south_north", "west_east"))
        hgt.FieldType = np.int32(104)
        hgt.MemoryOrder = "XY "
        hgt.units = "meters MSL"
        hgt.description = "Topography height"
        hgt.stagger = "M"
        hgt[0] = (200 + 100 * np.sin(np.radians(lat) * 20) * np.cos(np.radians(lon) * 20)).astype(np.float32)


RATIOS = {1: 1}


def ratio_chain(grid_id):
    return RATIOS.get(grid_id, 1)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=str(Path(__file__).resolve().parent.parent / "SampleGrids" / "static"))
    args = ap.parse_args(argv)
    out = Path(args.out)
    (out / "lambert").mkdir(parents=True, exist_ok=True)

    # Lambert, as salem's geo_em_d01_lambert (TRUELAT 30/35, STAND_LON 87, 30 km), 40 x 36, and
    # a nest of ratio 3 at parent start (13, 11), 33 x 27.
    lambert = {"MAP_PROJ": 1, "TRUELAT1": 30.0, "TRUELAT2": 35.0, "STAND_LON": 87.0, "CEN_LAT": 30.0, "CEN_LON": 87.0, "DX": 30000.0}
    lat, lon, origin = mass_grid(lambert, 40, 36, 30000.0, centre=(30.0, 87.0))
    write(out / "lambert" / "geo_em.d01.nc", lambert, lat, lon, 1, 1, 1, 1, 1, None)
    ratio, i_start, j_start = 3, 13, 11
    # The nest's first staggered point is the parent's staggered point (i_start, j_start); its
    # first mass point lies half a nest cell further (WRF's convention).
    nest_dx = 30000.0 / ratio
    nest_origin = (origin[0] + (i_start - 1.5) * 30000.0 + nest_dx / 2, origin[1] + (j_start - 1.5) * 30000.0 + nest_dx / 2)
    RATIOS[2] = ratio
    lat2, lon2, _ = mass_grid(lambert, 33, 27, nest_dx, origin=nest_origin)
    write(out / "lambert" / "geo_em.d02.nc", lambert, lat2, lon2, 2, 1, i_start, j_start, ratio, None)

    # Mercator, as salem's geo_em_d01_mercator (TRUELAT1 -8), 30 km, 30 x 20.
    mercator = {"MAP_PROJ": 3, "TRUELAT1": -8.0, "TRUELAT2": 0.0, "STAND_LON": -62.0, "CEN_LAT": -8.0, "CEN_LON": -62.0, "DX": 30000.0}
    lat, lon, _ = mass_grid(mercator, 30, 20, 30000.0, centre=(-8.0, -62.0))
    write(out / "geo_em.d01.mercator.nc", mercator, lat, lon, 1, 1, 1, 1, 1, None)

    # Polar stereographic, as salem's geo_em_d01_polarstereo (TRUELAT1 76, STAND_LON -68), with
    # the "0000-00-00_00:00:00" Times entry geogrid writes.
    polar = {"MAP_PROJ": 2, "TRUELAT1": 76.0, "TRUELAT2": 76.0, "STAND_LON": -68.0, "CEN_LAT": 65.0, "CEN_LON": -68.0, "DX": 30000.0}
    lat, lon, _ = mass_grid(polar, 30, 30, 30000.0, centre=(65.0, -68.0))
    write(out / "geo_em.d01.polarstereo.nc", polar, lat, lon, 1, 1, 1, 1, 1, "0000-00-00_00:00:00")
    for path in sorted(out.rglob("*.nc")):
        print(f"{path}: {path.stat().st_size / 1000:.0f} kB")


if __name__ == "__main__":
    main()
