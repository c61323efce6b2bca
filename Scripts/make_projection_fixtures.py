#!/usr/bin/env python3
"""Write the projection cross-check fixtures under SampleGrids/projections/.

An independent implementation (PROJ through pyproj, on WRF's sphere R = 6,370,000 m) gives
the latitude and longitude of every mass point of a small grid per projection case.
GridGeometry's tests load these files and must reproduce both directions:
lat/lon -> the integer (i, j) and (i, j) -> lat/lon.

Per case two files are written:
  <case>.csv   header `i,j,lat,lon`; one row per mass point, i along west_east, j along
               south_north, both 0-based, (0, 0) the south-west mass point.
  <case>.json  the grid: WRF-style projection parameters (the field names of
               GridGeometry's `ProjectionParameters`, so the tests decode it directly),
               the grid size, the south-west anchor, and the PROJ string used.

The grid is laid out as WRF does: centred on a chosen point in projected space, with the
south-west mass point at centre - (n - 1) / 2 cells. The PROJ strings follow wrf-python's
`projection.py` (`LambertConformal._proj4`, `PolarStereographic._proj4` (with `+lat_0`, which
wrf-python misspells `+lat0`), `Mercator._proj4`, `LatLon._proj4`, `RotatedLatLon._proj4`).

Rotated pole: WRF's `rotate_coords` (WPS geogrid/src/module_map_utils.F, WRF
share/module_llxy.F) is, up to a constant computational-longitude offset,
`+proj=ob_tran +o_proj=latlon +o_lat_p=POLE_LAT +lon_0=-STAND_LON`; POLE_LON only shifts the
computational longitudes and does not change the grid. wrf-python's string agrees for a
northern-hemisphere setup (POLE_LON = 180); for POLE_LON = 0 it builds the frame turned by
180 degrees (south up). This script checks both statements before writing anything.

Usage (from anywhere; needs numpy and pyproj >= 3):
    python3 Scripts/make_projection_fixtures.py          # rewrite the fixtures
    python3 Scripts/make_projection_fixtures.py --check  # only verify, write nothing
"""

import json
import math
import sys
from pathlib import Path

from pyproj import Proj

R = 6370000.0  # WRF's sphere (module_model_constants EARTH_RADIUS_M / WPS constants_module)
OUT = Path(__file__).resolve().parent.parent / "SampleGrids" / "projections"
SPHERE = "+a={r} +b={r} +units=m +no_defs".format(r=R)
METRES_PER_DEGREE = 2.0 * math.pi * R / 360.0  # WRF: loninc = dx * 360 / (2 pi R)


def wrf_python_rotated_proj4(pole_lat, pole_lon, stand_lon):
    """wrf-python RotatedLatLon._proj4, reproduced to check it against WRF's frame."""
    north = pole_lon != 0.0
    bm_pole_lat = pole_lat if north else -pole_lat
    cart_pole_lon = -stand_lon - 180.0 if north else -stand_lon
    return ("+proj=ob_tran +o_proj=latlon +o_lon_p={} +o_lat_p={} +lon_0={} +to_meter={} {}"
            .format(180.0 - pole_lon, bm_pole_lat, 180.0 + cart_pole_lon, math.radians(1), SPHERE))


def wrf_rotated_proj4(pole_lat, stand_lon):
    """PROJ equivalent of WRF's rotate_coords (computational lon/lat, up to a lon offset)."""
    return ("+proj=ob_tran +o_proj=latlon +o_lon_p=0 +o_lat_p={} +lon_0={} +to_meter={} {}"
            .format(pole_lat, -stand_lon, math.radians(1), SPHERE))


def rotate_coords_geo_to_comp(lat, lon, pole_lat, pole_lon, stand_lon):
    """WPS module_map_utils.F rotate_coords(direction = -1) followed by llij_cassini's + stdlon."""
    d2r = math.pi / 180.0
    phi_np, lam_np, lam_0 = pole_lat * d2r, pole_lon * d2r, stand_lon * d2r
    rlat, rlon = lat * d2r, lon * d2r
    dlam = math.pi - lam_0
    sinphi = math.cos(phi_np) * math.cos(rlat) * math.cos(rlon - dlam) + math.sin(phi_np) * math.sin(rlat)
    coslam = math.sin(phi_np) * math.cos(rlat) * math.cos(rlon - dlam) - math.cos(phi_np) * math.sin(rlat)
    sinlam = math.cos(rlat) * math.sin(rlon - dlam)
    olat = math.degrees(math.atan2(sinphi, math.hypot(coslam, sinlam)))
    olon = math.degrees(math.atan2(sinlam, coslam) - dlam - lam_0 + lam_np) + stand_lon
    return olat, olon


def wrap180(x):
    return (x + 180.0) % 360.0 - 180.0


def check_rotated_conventions():
    """Fail loudly if the rotated-pole statements in the module docstring stop holding."""
    probes = [(lat, lon) for lat in (-60.0, -35.0, -5.0, 20.0, 45.0, 70.0)
              for lon in (-170.0, -90.0, -10.0, 40.0, 120.0, 175.0)]
    for pole_lat, pole_lon, stand_lon in [(38.0, 180.0, -10.0), (50.0, 0.0, 30.0), (30.0, 40.0, -70.0)]:
        wrf_like = Proj(wrf_rotated_proj4(pole_lat, stand_lon))
        wrfpy = Proj(wrf_python_rotated_proj4(pole_lat, pole_lon, stand_lon))
        offsets, flipped = [], []
        for lat, lon in probes:
            clat, clon = rotate_coords_geo_to_comp(lat, lon, pole_lat, pole_lon, stand_lon)
            x, y = (math.degrees(v) for v in wrf_like(lon, lat))
            assert abs(y - clat) < 1e-9, (pole_lat, pole_lon, stand_lon, lat, lon, y, clat)
            offsets.append(wrap180(x - clon))
            px, py = (math.degrees(v) for v in wrfpy(lon, lat))
            flipped.append((py, px, clat, clon))
        assert max(offsets) - min(offsets) < 1e-9, "rotated longitude offset is not constant"
        if pole_lon == 180.0:
            assert all(abs(py - clat) < 1e-9 for py, _, clat, _ in flipped), "wrf-python NH frame differs"
        elif pole_lon == 0.0:
            assert all(abs(py + clat) < 1e-9 for py, _, clat, _ in flipped), "wrf-python SH frame is not turned"
    print("rotated pole: WRF rotate_coords == ob_tran(o_lat_p=POLE_LAT, lon_0=-STAND_LON); "
          "wrf-python agrees for POLE_LON=180, is turned 180 degrees for POLE_LON=0")


def parameters(kind, dx, truelat1=0.0, truelat2=0.0, stand_lon=0.0, pole_lat=90.0, pole_lon=0.0):
    return {"kind": kind, "trueLatitude1": truelat1, "trueLatitude2": truelat2,
            "standardLongitude": stand_lon, "poleLatitude": pole_lat, "poleLongitude": pole_lon,
            "dx": dx, "dy": dx, "earthRadius": R}


# name, description, PROJ string, parameters, (centre lat, centre lon), west_east, south_north,
# projected units per metre (1 for metric projections, radians per metre for ob_tran/latlon)
CASES = [
    ("lambert_portugal", "Lambert, two true latitudes 37/42, STAND_LON -8 (a Portugal 9 km domain)",
     "+proj=lcc +lat_1=37 +lat_2=42 +lat_0=39.5 +lon_0=-8 " + SPHERE,
     parameters(1, 9000.0, 37.0, 42.0, -8.0), (39.5, -8.0), 14, 12, "metric"),
    ("lambert_tangent", "Lambert tangent, TRUELAT1 = TRUELAT2 = 45, STAND_LON 10",
     "+proj=lcc +lat_1=45 +lat_2=45 +lat_0=45 +lon_0=10 " + SPHERE,
     parameters(1, 12000.0, 45.0, 45.0, 10.0), (46.0, 12.0), 10, 9, "metric"),
    ("lambert_offcentre", "Lambert 30/60 with STAND_LON -98 far from the domain centre (-75)",
     "+proj=lcc +lat_1=30 +lat_2=60 +lat_0=38 +lon_0=-98 " + SPHERE,
     parameters(1, 27000.0, 30.0, 60.0, -98.0), (38.0, -75.0), 12, 10, "metric"),
    ("lambert_south", "Lambert, southern hemisphere, TRUELAT -30/-60, STAND_LON 135",
     "+proj=lcc +lat_1=-30 +lat_2=-60 +lat_0=-35 +lon_0=135 " + SPHERE,
     parameters(1, 20000.0, -30.0, -60.0, 135.0), (-35.0, 140.0), 11, 9, "metric"),
    ("polar_north", "Polar stereographic north, TRUELAT1 60, STAND_LON -100",
     "+proj=stere +lat_0=90 +lat_ts=60 +lon_0=-100 " + SPHERE,
     parameters(2, 25000.0, 60.0, 60.0, -100.0), (70.0, -60.0), 12, 10, "metric"),
    ("polar_south", "Polar stereographic south, TRUELAT1 -60, STAND_LON 140",
     "+proj=stere +lat_0=-90 +lat_ts=-60 +lon_0=140 " + SPHERE,
     parameters(2, 25000.0, -60.0, -60.0, 140.0), (-75.0, 160.0), 12, 10, "metric"),
    ("mercator_dateline", "Mercator, TRUELAT1 10, a domain across the dateline (Fiji)",
     "+proj=merc +lat_ts=10 +lon_0=179 " + SPHERE,
     parameters(3, 20000.0, 10.0, 0.0, 179.0), (-15.0, 179.0), 20, 10, "metric"),
    ("latlon_regular", "Regular lat-lon (MAP_PROJ 6, POLE_LAT 90), 0.25 degree cells",
     "+proj=eqc +lon_0=0 " + SPHERE,
     parameters(6, 0.25 * METRES_PER_DEGREE, 0.0, 0.0, 0.0), (40.0, -5.0), 12, 10, "metric"),
    ("rotated_north", "Rotated pole, WPS NH recipe: POLE_LAT 38, POLE_LON 180, STAND_LON -10 (centre 52N 10E)",
     wrf_python_rotated_proj4(38.0, 180.0, -10.0),
     parameters(6, 0.11 * METRES_PER_DEGREE, 0.0, 0.0, -10.0, 38.0, 180.0), (52.0, 10.0), 14, 12, "radians"),
    ("rotated_south", "Rotated pole, WPS SH recipe: POLE_LAT 50, POLE_LON 0, STAND_LON 30 (centre 40S 150E)",
     wrf_rotated_proj4(50.0, 30.0),
     parameters(6, 0.11 * METRES_PER_DEGREE, 0.0, 0.0, 30.0, 50.0, 0.0), (-40.0, 150.0), 14, 12, "radians"),
]


def grid_rows(proj, centre, nx, ny, step):
    xc, yc = proj(centre[1], centre[0])
    x0 = xc - (nx - 1) / 2.0 * step
    y0 = yc - (ny - 1) / 2.0 * step
    rows = []
    for j in range(ny):
        for i in range(nx):
            lon, lat = proj(x0 + i * step, y0 + j * step, inverse=True)
            rows.append((i, j, lat, lon))
    return rows


def main():
    check_only = "--check" in sys.argv[1:]
    check_rotated_conventions()
    if not check_only:
        OUT.mkdir(parents=True, exist_ok=True)
    for name, description, proj4, params, centre, nx, ny, units in CASES:
        proj = Proj(proj4)
        step = params["dx"] if units == "metric" else params["dx"] / R  # ob_tran works in radians
        rows = grid_rows(proj, centre, nx, ny, step)
        _, _, lat0, lon0 = rows[0]
        if check_only:
            print("{}: {} points, SW corner {:.6f} {:.6f}".format(name, len(rows), lat0, lon0))
            continue
        with open(OUT / (name + ".csv"), "w") as f:
            f.write("i,j,lat,lon\n")
            for i, j, lat, lon in rows:
                f.write("{},{},{!r},{!r}\n".format(i, j, lat, lon))
        sidecar = {"name": name, "description": description, "proj4": proj4.replace(" " + SPHERE, "")
                   + " +a={0} +b={0}".format(R),
                   "parameters": params, "westEast": nx, "southNorth": ny,
                   "southWestCorner": {"latitude": lat0, "longitude": lon0}}
        with open(OUT / (name + ".json"), "w") as f:
            json.dump(sidecar, f, indent=2)
            f.write("\n")
        print("wrote {} ({} points)".format(name, len(rows)))


if __name__ == "__main__":
    main()
