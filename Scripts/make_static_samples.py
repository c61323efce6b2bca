#!/usr/bin/env python3
"""Writes SampleGrids/static/: small WPS and real.exe files, for `inspect`: geo_em files as
geogrid writes them, a met_em pair as metgrid writes it, and a wrfinput_d01 as real.exe writes it.

geogrid's conventions (checked against public geo_em files, e.g. salem's sample data): no
XTIME, and either no Times variable or one entry "0000-00-00_00:00:00"; SIMULATION_START_DATE
"0000-00-00_00:00:00"; XLAT_M/XLONG_M (Time, south_north, west_east) in "degrees latitude" /
"degrees longitude"; HGT_M in "meters MSL"; the nest attributes in lower case (grid_id,
parent_id, i_parent_start, j_parent_start, parent_grid_ratio). The projections' attributes are
those of salem's Lambert, Mercator and polar-stereographic samples, on smaller grids.

Coordinates come from pyproj on WRF's 6370 km sphere (independent of TileCast's projection
code), anchored at the domain centre as geogrid does; a nest's grid is placed by its parent
start and ratio.

metgrid's conventions (checked against public `ncdump -h` of met_em files written by METGRID
V4.0 and V4.6): one Times entry with the analysis time; SIMULATION_START_DATE the first analysis
time; the geogrid fields again (XLAT_M/XLONG_M, HGT_M, LANDMASK) plus the meteorological ones on
`num_metgrid_levels` (level 0 is the surface; PRES, TT, GHT, RH, UU on west_east_stag, VV on
south_north_stag) and PSFC, PMSL, SKINTEMP, LANDSEAMASK; BOTTOM-TOP_GRID_DIMENSION =
num_metgrid_levels; the nest attributes in lower case as geogrid's, with i/j_parent_end, sr_x/sr_y
and FLAG_* attributes. The met_em pair lies on the grids of the Lambert geo_em pair.

real.exe's wrfinput (TITLE " OUTPUT FROM REAL_EM V4.x PREPROCESSOR"): one Times entry, the
wrfout layout and upper-case attributes (GRID_ID, PARENT_ID, ...), XLAT/XLONG, HGT, T2, Q2, PSFC,
U10, V10, 3-D T/P/PB/PH/PHB/QVAPOR on eta levels, TSLB/SMOIS on Noah's four layers with ZS/DZS;
no accumulations (RAINC, RAINNC) nor radiation (SWDOWN): the model has not run yet.

The weather in them is a plausible late-November night (00Z) over the Lambert grid: values only
need to be of the right kind; nothing extracts them.

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

DATE = "2026-11-22_00:00:00"
LAMBERT = {"MAP_PROJ": 1, "TRUELAT1": 30.0, "TRUELAT2": 35.0, "STAND_LON": 87.0, "CEN_LAT": 30.0, "CEN_LON": 87.0, "DX": 30000.0}


def terrain(lat, lon):
    """geogrid's HGT_M of the samples above (the same formula, so met_em agrees with geo_em)."""
    return (200 + 100 * np.sin(np.radians(lat) * 20) * np.cos(np.radians(lon) * 20)).astype(np.float32)


def projection_attributes(p, nx, ny, dx, levels):
    """The grid and projection attributes WRF-family programs write (staggered dimensions)."""
    return {"WEST-EAST_GRID_DIMENSION": np.int32(nx + 1), "SOUTH-NORTH_GRID_DIMENSION": np.int32(ny + 1),
            "BOTTOM-TOP_GRID_DIMENSION": np.int32(levels), "GRIDTYPE": "C", "DX": np.float32(dx), "DY": np.float32(dx),
            "DYN_OPT": np.int32(2), "CEN_LAT": np.float32(p["CEN_LAT"]), "CEN_LON": np.float32(p["CEN_LON"]),
            "TRUELAT1": np.float32(p["TRUELAT1"]), "TRUELAT2": np.float32(p["TRUELAT2"]),
            "MOAD_CEN_LAT": np.float32(p["CEN_LAT"]), "STAND_LON": np.float32(p["STAND_LON"]),
            "POLE_LAT": np.float32(90), "POLE_LON": np.float32(0), "MAP_PROJ": np.int32(p["MAP_PROJ"])}


def field(ds, name, dims, values, units, description, stagger="", digits=None):
    """A variable with the attributes WRF-family programs give every field; `digits` quantises
    (netCDF4's least_significant_digit) so that the deflated files stay small."""
    memory = {2: "0  ", 3: "XY ", 4: "XYZ"}[len(dims)] if dims[0] == "Time" else "Z  "
    v = ds.createVariable(name, "f4", dims, zlib=True, complevel=9, shuffle=True, least_significant_digit=digits)
    v.FieldType = np.int32(104)
    v.MemoryOrder = memory
    v.units = units
    v.description = description
    v.stagger = stagger
    v[:] = values
    return v


def times(ds, date):
    ds.createDimension("Time", None)
    ds.createDimension("DateStrLen", 19)
    t = ds.createVariable("Times", "S1", ("Time", "DateStrLen"))
    t[0] = netCDF4.stringtochar(np.array([date], "S19"))


def atmosphere(lat, lon, hgt):
    """A plausible 00Z state: sea-level pressure, skin and 2 m temperature, humidity, wind."""
    pmsl = 101800 - 600 * np.sin(np.radians(lat - 25) * 9) + 150 * np.cos(np.radians(lon - 80) * 7)
    t_sea = 300 - 0.9 * (lat - 20)                       # K at sea level, cooler to the north
    t2 = t_sea - 0.0065 * hgt - 2.5
    psfc = pmsl * np.exp(-9.80665 * hgt / (287.04 * (t2 + 0.00325 * hgt)))   # hypsometric, mean-layer T
    rh = np.clip(70 + 20 * np.sin(np.radians(lon) * 12), 5, 100)
    es = 611.2 * np.exp(17.67 * (t2 - 273.15) / (t2 - 29.65))
    q2 = 0.622 * rh / 100 * es / (psfc - rh / 100 * es)
    u10 = 4 + 2 * np.sin(np.radians(lat) * 15)
    v10 = -1.5 + np.cos(np.radians(lon) * 11)
    return {k: np.asarray(v, np.float32) for k, v in dict(pmsl=pmsl, t2=t2, psfc=psfc, rh=rh, q2=q2, u10=u10, v10=v10).items()}


def stagger(a, axis):
    """Values at the staggered points: the mean of neighbours, extrapolated at the ends."""
    a = np.moveaxis(a, axis, -1)
    inner = (a[..., 1:] + a[..., :-1]) / 2
    out = np.concatenate([2 * a[..., :1] - inner[..., :1], inner, 2 * a[..., -1:] - inner[..., -1:]], axis=-1)
    return np.moveaxis(out, -1, axis)


def write_met_em(path, p, lat, lon, dx, grid_id, parent_id, i_start, j_start, ratio, parent_end):
    """A met_em file as metgrid writes it: the analysis at DATE on the domain's grid."""
    ny, nx = lat.shape
    hgt = terrain(lat, lon)
    a = atmosphere(lat, lon, hgt)
    isobaric = np.array([100000, 85000, 50000], np.float32)
    levels = 1 + len(isobaric)                            # level 0: the surface (metgrid's 200100 flag)
    with netCDF4.Dataset(path, "w", format="NETCDF4") as ds:
        times(ds, DATE)
        for name, size in (("west_east", nx), ("south_north", ny), ("num_metgrid_levels", levels),
                           ("south_north_stag", ny + 1), ("west_east_stag", nx + 1)):
            ds.createDimension(name, size)
        attributes = {"TITLE": "OUTPUT FROM METGRID V4.5", "SIMULATION_START_DATE": DATE}
        attributes.update(projection_attributes(p, nx, ny, dx, levels))
        attributes.update({"MMINLU": "MODIFIED_IGBP_MODIS_NOAH", "NUM_LAND_CAT": np.int32(20), "ISWATER": np.int32(17),
                           "ISLAKE": np.int32(-1), "ISICE": np.int32(15), "ISURBAN": np.int32(13), "ISOILWATER": np.int32(14),
                           "grid_id": np.int32(grid_id), "parent_id": np.int32(parent_id),
                           "i_parent_start": np.int32(i_start), "j_parent_start": np.int32(j_start),
                           "i_parent_end": np.int32(parent_end[0]), "j_parent_end": np.int32(parent_end[1]),
                           "parent_grid_ratio": np.int32(ratio), "sr_x": np.int32(1), "sr_y": np.int32(1),
                           "NUM_METGRID_SOIL_LEVELS": np.int32(0), "FLAG_METGRID": np.int32(1),
                           "FLAG_EXCLUDED_MIDDLE": np.int32(0), "FLAG_PSFC": np.int32(1), "FLAG_SLP": np.int32(1),
                           "FLAG_SNOWH": np.int32(0), "FLAG_MF_XY": np.int32(1)})
        for key, value in attributes.items():
            ds.setncattr(key, value)
        plane = ("Time", "south_north", "west_east")
        column = ("Time", "num_metgrid_levels", "south_north", "west_east")
        # Upper levels: standard-atmosphere heights and temperatures (6.5 K/km) from the surface state.
        t_sea = a["t2"] + 0.0065 * hgt
        ght = np.stack([hgt] + [np.float32(44330.8 * (1 - (pl / a["pmsl"]) ** 0.190263)) for pl in isobaric])
        tt = np.stack([a["t2"]] + [t_sea - 0.0065 * g for g in ght[1:]])
        pres = np.stack([a["psfc"]] + [np.full_like(hgt, pl) for pl in isobaric])
        rh = np.stack([a["rh"], a["rh"], a["rh"] * 0.8, a["rh"] * 0.4])
        u = np.stack([a["u10"] * k for k in (1, 1.3, 2.0, 4.0)])
        v = np.stack([a["v10"] * k for k in (1, 1.3, 2.0, 4.0)])
        field(ds, "PRES", column, pres[None], "", "", "M", digits=0)
        field(ds, "GHT", column, ght[None], "m", "Height", "M", digits=0)
        field(ds, "TT", column, tt[None], "K", "Temperature", "M", digits=1)
        field(ds, "RH", column, rh[None], "%", "Relative Humidity", "M", digits=0)
        field(ds, "UU", ("Time", "num_metgrid_levels", "south_north", "west_east_stag"), stagger(u, 2)[None], "m s-1", "U", "U", digits=1)
        field(ds, "VV", ("Time", "num_metgrid_levels", "south_north_stag", "west_east"), stagger(v, 1)[None], "m s-1", "V", "V", digits=1)
        field(ds, "PSFC", plane, a["psfc"][None], "Pa", "Surface pressure", "M", digits=0)
        field(ds, "PMSL", plane, a["pmsl"][None], "Pa", "Sea-level Pressure", "M", digits=0)
        field(ds, "SKINTEMP", plane, (a["t2"] - 1.5)[None], "K", "Skin temperature", "M", digits=1)
        land = (hgt > 150).astype(np.float32)
        field(ds, "LANDSEA", plane, land[None], "proprtn", "Land/Sea flag", "M")
        field(ds, "LANDMASK", plane, land[None], "none", "Landmask : 1=land, 0=water", "M")
        field(ds, "HGT_M", plane, hgt[None], "meters MSL", "Topography height", "M", digits=1)
        # Coordinates last, as metgrid lists them, and exact (no quantisation).
        field(ds, "XLONG_M", plane, lon[None], "degrees longitude", "Longitude on mass grid", "M")
        field(ds, "XLAT_M", plane, lat[None], "degrees latitude", "Latitude on mass grid", "M")


def write_wrfinput(path, p, lat, lon, dx):
    """wrfinput_d01 as real.exe writes it: the initial state at DATE, on eta levels."""
    ny, nx = lat.shape
    hgt = terrain(lat, lon)
    a = atmosphere(lat, lon, hgt)
    eta_full = np.array([1.0, 0.9, 0.6, 0.0], np.float32)   # ZNW, 3 layers
    eta_half = ((eta_full[1:] + eta_full[:-1]) / 2).astype(np.float32)
    p_top = np.float32(5000)
    with netCDF4.Dataset(path, "w", format="NETCDF4") as ds:
        times(ds, DATE)
        for name, size in (("west_east", nx), ("south_north", ny), ("bottom_top", 3), ("bottom_top_stag", 4),
                           ("soil_layers_stag", 4), ("west_east_stag", nx + 1), ("south_north_stag", ny + 1)):
            ds.createDimension(name, size)
        attributes = {"TITLE": " OUTPUT FROM REAL_EM V4.5.2 PREPROCESSOR", "START_DATE": DATE, "SIMULATION_START_DATE": DATE}
        attributes.update(projection_attributes(p, nx, ny, dx, 4))
        attributes.update({"DT": np.float32(180), "GRID_ID": np.int32(1), "PARENT_ID": np.int32(0),
                           "I_PARENT_START": np.int32(1), "J_PARENT_START": np.int32(1), "PARENT_GRID_RATIO": np.int32(1),
                           "MAP_PROJ_CHAR": "Lambert Conformal", "MMINLU": "MODIFIED_IGBP_MODIS_NOAH",
                           "SF_SURFACE_PHYSICS": np.int32(2), "NUM_LAND_CAT": np.int32(20),
                           "JULYR": np.int32(2026), "JULDAY": np.int32(326), "GMT": np.float32(0)})
        for key, value in attributes.items():
            ds.setncattr(key, value)
        plane = ("Time", "south_north", "west_east")
        mass = ("Time", "bottom_top", "south_north", "west_east")
        # Dry hydrostatic columns: p = eta (psfc - p_top) + p_top; theta from a 6.5 K/km lapse rate.
        pressure = np.stack([e * (a["psfc"] - p_top) + p_top for e in eta_half])
        pressure_full = np.stack([e * (a["psfc"] - p_top) + p_top for e in eta_full])
        t_sea = a["t2"] + 0.0065 * hgt
        height_full = np.stack([np.float32(44330.8 * (1 - (pf / a["pmsl"]) ** 0.190263)) for pf in pressure_full])
        height_full[0] = hgt
        temperature = np.stack([t_sea - 0.0065 * (44330.8 * (1 - (ph / a["pmsl"]) ** 0.190263)) for ph in pressure])
        theta = temperature * (100000 / pressure) ** 0.2857
        base = pressure * 0.98                              # PB: the reference state, P the rest
        g = 9.81
        phb = height_full * g * 0.99
        qv = np.stack([a["q2"] * k for k in (1.0, 0.6, 0.1)])
        field(ds, "ZNU", ("Time", "bottom_top"), eta_half[None], "", "eta values on half (mass) levels", "")
        field(ds, "ZNW", ("Time", "bottom_top_stag"), eta_full[None], "", "eta values on full (w) levels", "Z")
        field(ds, "ZS", ("Time", "soil_layers_stag"), np.array([[0.05, 0.25, 0.7, 1.5]], np.float32), "m", "DEPTHS OF CENTERS OF SOIL LAYERS", "Z")
        field(ds, "DZS", ("Time", "soil_layers_stag"), np.array([[0.1, 0.3, 0.6, 1.0]], np.float32), "m", "THICKNESSES OF SOIL LAYERS", "Z")
        field(ds, "U", ("Time", "bottom_top", "south_north", "west_east_stag"),
              stagger(np.stack([a["u10"] * k for k in (1.3, 2, 4)]), 2)[None], "m s-1", "x-wind component", "X", digits=1)
        field(ds, "V", ("Time", "bottom_top", "south_north_stag", "west_east"),
              stagger(np.stack([a["v10"] * k for k in (1.3, 2, 4)]), 1)[None], "m s-1", "y-wind component", "Y", digits=1)
        field(ds, "PH", ("Time", "bottom_top_stag", "south_north", "west_east"), (height_full * g - phb)[None], "m2 s-2", "perturbation geopotential", "Z", digits=0)
        field(ds, "PHB", ("Time", "bottom_top_stag", "south_north", "west_east"), phb[None], "m2 s-2", "base-state geopotential", "Z", digits=0)
        field(ds, "T", mass, (theta - 300)[None], "K", "perturbation potential temperature theta-t0", "", digits=1)
        field(ds, "P", mass, (pressure - base)[None], "Pa", "perturbation pressure", "", digits=0)
        field(ds, "PB", mass, base[None], "Pa", "BASE STATE PRESSURE", "", digits=0)
        field(ds, "QVAPOR", mass, qv[None], "kg kg-1", "Water vapor mixing ratio", "", digits=5)
        soil = ("Time", "soil_layers_stag", "south_north", "west_east")
        field(ds, "TSLB", soil, np.stack([a["t2"] + k for k in (0.5, 1.5, 2.5, 3.0)])[None], "K", "SOIL TEMPERATURE", "Z", digits=1)
        field(ds, "SMOIS", soil, np.stack([np.full_like(hgt, m) for m in (0.25, 0.27, 0.29, 0.30)])[None], "m3 m-3", "SOIL MOISTURE", "Z", digits=2)
        field(ds, "T2", plane, a["t2"][None], "K", "TEMP at 2 M", "", digits=1)
        field(ds, "Q2", plane, a["q2"][None], "kg kg-1", "QV at 2 M", "", digits=5)
        field(ds, "PSFC", plane, a["psfc"][None], "Pa", "SFC PRESSURE", "", digits=0)
        field(ds, "U10", plane, a["u10"][None], "m s-1", "U at 10 M", "", digits=1)
        field(ds, "V10", plane, a["v10"][None], "m s-1", "V at 10 M", "", digits=1)
        field(ds, "HGT", plane, hgt[None], "m", "Terrain Height", "", digits=1)
        field(ds, "LANDMASK", plane, (hgt > 150).astype(np.float32)[None], "", "LAND MASK (1 FOR LAND, 0 FOR WATER)", "")
        for name, values, units, description in (("XLAT", lat, "degree_north", "LATITUDE, SOUTH IS NEGATIVE"),
                                                  ("XLONG", lon, "degree_east", "LONGITUDE, WEST IS NEGATIVE")):
            v = field(ds, name, plane, values[None], units, description, "")
            v.coordinates = "XLONG XLAT"


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
    lambert = LAMBERT
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

    # metgrid's analysis for 2026-11-22 00Z on the same two grids, and real.exe's d01 initial state.
    (out / "metgrid").mkdir(exist_ok=True)
    write_met_em(out / "metgrid" / f"met_em.d01.{DATE}.nc", lambert, lat, lon, 30000.0, 1, 1, 1, 1, 1, (41, 37))
    write_met_em(out / "metgrid" / f"met_em.d02.{DATE}.nc", lambert, lat2, lon2, nest_dx, 2, 1, i_start, j_start, ratio,
                 (i_start + 33 // ratio, j_start + 27 // ratio))
    (out / "real").mkdir(exist_ok=True)
    write_wrfinput(out / "real" / "wrfinput_d01", lambert, lat, lon, 30000.0)

    # Mercator, as salem's geo_em_d01_mercator (TRUELAT1 -8), 30 km, 30 x 20.
    mercator = {"MAP_PROJ": 3, "TRUELAT1": -8.0, "TRUELAT2": 0.0, "STAND_LON": -62.0, "CEN_LAT": -8.0, "CEN_LON": -62.0, "DX": 30000.0}
    lat, lon, _ = mass_grid(mercator, 30, 20, 30000.0, centre=(-8.0, -62.0))
    write(out / "geo_em.d01.mercator.nc", mercator, lat, lon, 1, 1, 1, 1, 1, None)

    # Polar stereographic, as salem's geo_em_d01_polarstereo (TRUELAT1 76, STAND_LON -68), with
    # the "0000-00-00_00:00:00" Times entry geogrid writes.
    polar = {"MAP_PROJ": 2, "TRUELAT1": 76.0, "TRUELAT2": 76.0, "STAND_LON": -68.0, "CEN_LAT": 65.0, "CEN_LON": -68.0, "DX": 30000.0}
    lat, lon, _ = mass_grid(polar, 30, 30, 30000.0, centre=(65.0, -68.0))
    write(out / "geo_em.d01.polarstereo.nc", polar, lat, lon, 1, 1, 1, 1, 1, "0000-00-00_00:00:00")
    for path in sorted(out.rglob("*")):
        if path.is_dir():
            continue
        print(f"{path}: {path.stat().st_size / 1000:.0f} kB")


if __name__ == "__main__":
    main()
