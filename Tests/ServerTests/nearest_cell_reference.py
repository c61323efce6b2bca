#!/usr/bin/env python3
"""Reference answers for cell_selection=nearest, read with netCDF4-python and pyproj from a WRF file.

Draws places with a seeded generator: a random interior mass node (at least MARGIN cells from
every edge) moved by up to 0.35 of a cell in each grid direction, its coordinates found by
interpolating XLAT/XLONG between the surrounding nodes and rounded to 4 decimals as a client
would send them. For each place, the nearest mass node is found independently of the grid
index: the geodesic distance (pyproj.Geod, WGS84) from the place to every node's XLAT/XLONG,
the smallest one. Places whose two nearest nodes are within 10 % of each other's distance are
drawn again, so the answer does not hang on the choice of distance.

Prints, as JSON, a list with per place: its latitude and longitude, the node's (i, j), XLAT,
XLONG and HGT, T2 per frame in degrees Celsius, and the four-node bilinear T2 at frame 0 (in
grid-index space, the default answer) so a test can check that the two answers differ.

    python3 nearest_cell_reference.py WRFOUT COUNT SEED
"""
import json
import sys

import netCDF4
import numpy as np
import pyproj

MARGIN = 2


def grid(d, name):
    values = np.asarray(d[name][:], dtype=np.float64)
    return values[0] if values.ndim == 3 else values


def main(path, count, seed):
    rng = np.random.default_rng(seed)
    geod = pyproj.Geod(ellps="WGS84")
    with netCDF4.Dataset(path) as d:
        lat, lon, hgt = grid(d, "XLAT"), grid(d, "XLONG"), grid(d, "HGT")
        t2 = np.asarray(d["T2"][:], dtype=np.float64) - 273.15
    ny, nx = lat.shape
    places = []
    while len(places) < count:
        fi = rng.integers(MARGIN, nx - 1 - MARGIN) + rng.uniform(-0.35, 0.35)
        fj = rng.integers(MARGIN, ny - 1 - MARGIN) + rng.uniform(-0.35, 0.35)
        i0, j0 = int(np.floor(fi)), int(np.floor(fj))
        a, b = fi - i0, fj - j0

        def at(field):
            return ((1 - a) * (1 - b) * field[j0, i0] + a * (1 - b) * field[j0, i0 + 1]
                    + (1 - a) * b * field[j0 + 1, i0] + a * b * field[j0 + 1, i0 + 1])

        plat, plon = round(float(at(lat)), 4), round(float(at(lon)), 4)
        _, _, distance = geod.inv(np.full(lat.size, plon), np.full(lat.size, plat), lon.ravel(), lat.ravel())
        order = np.argsort(distance)
        if distance[order[1]] < 1.1 * distance[order[0]]:
            continue
        j, i = np.unravel_index(int(order[0]), lat.shape)
        places.append({
            "latitude": plat, "longitude": plon, "i": int(i), "j": int(j),
            "node_latitude": float(lat[j, i]), "node_longitude": float(lon[j, i]), "node_elevation": float(hgt[j, i]),
            "t2": [float(v) for v in t2[:, j, i]], "bilinear_t2_frame0": float(at(t2[0])),
        })
    print(json.dumps(places))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
