#!/usr/bin/env python3
"""Writes one large WRF-like domain for the extraction memory benchmark (issue 16, item 10).

A single d01 wrfout file with the real conventions (global attributes, Times as
char(Time, DateStrLen), the 6370 km sphere, Lambert conformal) but only the surface fields
TileCast reads, so that a 1000 x 1000 grid of 181 hourly frames (the 00Z 180-hour run) is
about 7 GB instead of hundreds: what matters here is cells x frames, the size of what the
extraction must hold, not the 3-D fields it never reads.

Values are smooth, cheap functions of place and time (not meteorology); XLAT/XLONG come from
pyproj with WRF's sphere, so the projection round trip holds.

    python3 Scripts/make_large_run.py OUT_DIR [--nx 1000] [--ny 1000] [--hours 180]

Never writes inside the repository. Needs numpy, netCDF4 and pyproj (Scripts/requirements.txt).
"""
import argparse
import datetime as dt
import sys
from pathlib import Path

import netCDF4
import numpy as np
import pyproj

REPO = Path(__file__).resolve().parent.parent
START = dt.datetime(2026, 11, 22, 0, 0)
TRUELAT1, TRUELAT2, STAND_LON, CEN_LAT, CEN_LON = 37.0, 42.0, -8.0, 39.5, -8.0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", help="output folder (created; outside the repository)")
    ap.add_argument("--nx", type=int, default=1000)
    ap.add_argument("--ny", type=int, default=1000)
    ap.add_argument("--hours", type=int, default=180)
    ap.add_argument("--dx", type=float, default=3000.0)
    args = ap.parse_args(argv)
    out = Path(args.out).resolve()
    if out == REPO or REPO in out.parents:
        sys.exit("make_large_run: refusing to write inside the repository (generated data stays out of git)")
    out.mkdir(parents=True, exist_ok=True)
    nx, ny, nt, dx = args.nx, args.ny, args.hours + 1, args.dx

    crs = pyproj.CRS.from_proj4(f"+proj=lcc +lat_1={TRUELAT1} +lat_2={TRUELAT2} +lat_0={CEN_LAT} "
                                f"+lon_0={STAND_LON} +R=6370000 +units=m +no_defs")
    to_lonlat = pyproj.Transformer.from_crs(crs, pyproj.CRS.from_proj4("+proj=longlat +R=6370000 +no_defs"), always_xy=True)
    from_lonlat = pyproj.Transformer.from_crs(pyproj.CRS.from_proj4("+proj=longlat +R=6370000 +no_defs"), crs, always_xy=True)
    cx, cy = from_lonlat.transform(CEN_LON, CEN_LAT)
    x = cx + (np.arange(nx) - (nx - 1) / 2) * dx
    y = cy + (np.arange(ny) - (ny - 1) / 2) * dx
    xx, yy = np.meshgrid(x, y)
    lon, lat = to_lonlat.transform(xx, yy)
    lat = lat.astype(np.float32)
    lon = lon.astype(np.float32)

    name = f"wrfout_d01_{START:%Y-%m-%d_%H:%M:%S}"
    path = out / name
    tmp = out / (name + ".partial")
    with netCDF4.Dataset(tmp, "w", format="NETCDF3_64BIT_OFFSET") as ds:
        ds.set_fill_off()
        ds.createDimension("Time", None)
        ds.createDimension("DateStrLen", 19)
        ds.createDimension("south_north", ny)
        ds.createDimension("west_east", nx)
        ds.createDimension("bottom_top", 2)
        attrs = dict(TITLE=" OUTPUT FROM WRF V4.5 MODEL (large synthetic domain)", START_DATE=f"{START:%Y-%m-%d_%H:%M:%S}",
                     SIMULATION_START_DATE=f"{START:%Y-%m-%d_%H:%M:%S}", WEST_EAST_GRID_DIMENSION=np.int32(nx + 1),
                     SOUTH_NORTH_GRID_DIMENSION=np.int32(ny + 1), DX=np.float32(dx), DY=np.float32(dx),
                     GRID_ID=np.int32(1), PARENT_ID=np.int32(0), I_PARENT_START=np.int32(1), J_PARENT_START=np.int32(1),
                     PARENT_GRID_RATIO=np.int32(1), CEN_LAT=np.float32(CEN_LAT), CEN_LON=np.float32(CEN_LON),
                     TRUELAT1=np.float32(TRUELAT1), TRUELAT2=np.float32(TRUELAT2), MOAD_CEN_LAT=np.float32(CEN_LAT),
                     STAND_LON=np.float32(STAND_LON), MAP_PROJ=np.int32(1), BUCKET_MM=np.float32(-1.0))
        for k, v in attrs.items():
            ds.setncattr(k, v)

        def var(n, dims, units, description):
            v = ds.createVariable(n, "S1" if n == "Times" else "f4", dims)
            if n != "Times":
                v.FieldType = np.int32(104)
                v.MemoryOrder = "XY " if len(dims) <= 3 else "XYZ"
                v.units = units
                v.description = description
                v.stagger = ""
            return v

        var("XLAT", ("south_north", "west_east"), "degree_north", "LATITUDE, SOUTH IS NEGATIVE")[:] = lat
        var("XLONG", ("south_north", "west_east"), "degree_east", "LONGITUDE, WEST IS NEGATIVE")[:] = lon
        jj, ii = np.meshgrid(np.arange(ny, dtype=np.float32), np.arange(nx, dtype=np.float32), indexing="ij")
        hgt = (300 + 250 * np.sin(ii / 37.0) * np.cos(jj / 53.0)).clip(0).astype(np.float32)
        var("HGT", ("south_north", "west_east"), "m", "Terrain Height")[:] = hgt
        times = ds.createVariable("Times", "S1", ("Time", "DateStrLen"))
        xtime = ds.createVariable("XTIME", "f4", ("Time",))
        xtime.units = f"minutes since {START:%Y-%m-%d %H:%M:%S}"
        fields = {n: var(n, ("Time", "south_north", "west_east"), u, d) for n, u, d in [
            ("T2", "K", "TEMP at 2 M"), ("Q2", "kg kg-1", "QV at 2 M"), ("PSFC", "Pa", "SFC PRESSURE"),
            ("U10", "m s-1", "U at 10 M"), ("V10", "m s-1", "V at 10 M"), ("RAINC", "mm", "ACCUMULATED TOTAL CUMULUS PRECIPITATION"),
            ("RAINNC", "mm", "ACCUMULATED TOTAL GRID SCALE PRECIPITATION"), ("SWDOWN", "W m-2", "DOWNWARD SHORT WAVE FLUX AT GROUND SURFACE")]}
        cldfra = var("CLDFRA", ("Time", "bottom_top", "south_north", "west_east"), "", "CLOUD FRACTION")
        rain_c = np.zeros((ny, nx), np.float32)
        rain_nc = np.zeros((ny, nx), np.float32)
        for t in range(nt):
            when = START + dt.timedelta(hours=t)
            times[t] = netCDF4.stringtochar(np.array([f"{when:%Y-%m-%d_%H:%M:%S}"], "S19"))
            xtime[t] = 60.0 * t
            wave = np.sin(ii / 40.0 + t / 6.0) * np.cos(jj / 45.0 - t / 9.0)
            fields["T2"][t] = (285 - 0.0065 * hgt + 6 * np.sin(2 * np.pi * (t - 9) / 24) + 3 * wave).astype(np.float32)
            fields["Q2"][t] = (0.007 + 0.002 * wave).astype(np.float32)
            fields["PSFC"][t] = (101_325 * np.exp(-hgt / 8400) + 300 * wave).astype(np.float32)
            fields["U10"][t] = (4 + 3 * wave).astype(np.float32)
            fields["V10"][t] = (-2 + 2 * np.cos(ii / 30.0 - t / 5.0)).astype(np.float32)
            rain_c += np.clip(wave, 0, None).astype(np.float32) * 0.4
            rain_nc += np.clip(-wave, 0, None).astype(np.float32) * 0.3
            fields["RAINC"][t] = rain_c
            fields["RAINNC"][t] = rain_nc
            fields["SWDOWN"][t] = np.full((ny, nx), max(0.0, 800 * np.sin(2 * np.pi * (t - 6) / 24)), np.float32)
            cldfra[t] = np.stack([np.clip(wave, 0, 1), np.clip(-wave, 0, 1)]).astype(np.float32)
            if t % 20 == 0:
                print(f"  frame {t}/{nt - 1}", flush=True)
    tmp.replace(path)
    print(f"{path}: {path.stat().st_size / 1e9:.2f} GB, {nx} x {ny} cells, {nt} frames")


if __name__ == "__main__":
    main()
