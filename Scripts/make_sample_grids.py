#!/usr/bin/env python3
"""Write TileCast's sample grids: synthetic WRF and MM5 files plus independent expected values.

This script is an independent cross-check of the Swift engine: it shares no code with it
(projections come from PROJ through pyproj, rotations from finite differences, derived values from
wrf-python's formulas). Everything is deterministic (fixed seed, analytic fields): running it twice
gives byte-identical files.

Usage
    pip install -r Scripts/requirements.txt
    python3 Scripts/make_sample_grids.py                 # (re)write SampleGrids/ (about 4.9 MB)
    python3 Scripts/make_sample_grids.py --full DIR      # benchmark-size run (about 1.5 GB) into DIR
    python3 Scripts/make_sample_grids.py --full DIR --frames-per-file 24
                                                         # same, split like WRF's frames_per_outfile

Files written into SampleGrids/ (SampleGrids/README.md describes them in full)
    wrfout_d01_2026-11-22_00:00:00   9 km Lambert d01 (43 x 68) over mainland Portugal, 25 hourly frames,
                                     netCDF-3 64-bit offset (WRF's default); XLAT/XLONG and the static
                                     fields stored once, without Time (the 5 MB budget)
    wrfout_d02_2026-11-22_00:00:00   3 km nest (ratio 3, 66 x 66) around Lisbon, 25 hourly frames,
                                     netCDF-4 with zlib deflate + shuffle, fields quantised; everything
                                     with Time, as WRF writes it
    mm5_2026-11-22_00.nc             27 km MM5 grid over Iberia in the archiver convention (lowercase
                                     names, rain in cm, time in minutes), 13 three-hourly frames,
                                     netCDF-4 classic model, deflated
    expected_derived.csv             expected T2/Q2/PSFC, RH, dew point, earth-relative wind, ...
                                     at fixed (file, frame, i, j) points, computed from the stored values
    expected_nest.csv                fractional d01 mass-grid position of some d02 mass points

The full mode writes wrfout_d01_* (100 x 84) and wrfout_d02_* (66 x 66) with 73 hourly frames
and the usual 3-D fields (U, V, W, T, P, PB, PH, PHB, QVAPOR, QCLOUD, QRAIN, CLDFRA, 32 levels),
netCDF-3 64-bit offset, about 20 s on 2 cores. It refuses to write inside the repository.
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import math
import os
import sys
import time
from pathlib import Path

import numpy as np
import netCDF4
import pyproj

# ----------------------------------------------------------------------------------------------
# Constants

R_EARTH = 6370000.0          # WRF's sphere
G = 9.81
RD = 287.0
CP = 1004.5
EPS = 0.622
SIM_START = dt.datetime(2026, 11, 22, 0, 0, 0)
SEED = 20261122
FILL_WRF = np.float32(9.96921e36)

ROOT = Path(__file__).resolve().parent.parent
OUT_DIR = ROOT / "SampleGrids"
SAMPLE_ALLVARS = [ROOT.parent / "shared" / "wrf-samples" / "wrf_d01_allvars_cropped.nc",
                  Path("/work/shared/wrf-samples/wrf_d01_allvars_cropped.nc")]

LISBON = (38.72, -9.14)

# The sample d01: 9 km Lambert over mainland Portugal (mass grid 43 x 68).
D01 = dict(map_proj=1, truelat1=37.0, truelat2=42.0, stand_lon=-8.0,
           cen_lat=39.55, cen_lon=-8.15, nx=43, ny=68, dx=9000.0, dt=54.0)
# The sample d02: 3 km nest, ratio 3, 66 x 66 mass points; placed by (I, J)_PARENT_START.
D02 = dict(ratio=3, nx=66, ny=66, i_parent_start=4, j_parent_start=14, dt=18.0)
# Benchmark-size d01 over Iberia (--full).
D01_FULL = dict(map_proj=1, truelat1=37.0, truelat2=42.0, stand_lon=-8.0,
                cen_lat=40.0, cen_lon=-5.5, nx=100, ny=84, dx=9000.0, dt=54.0)
FULL_NZ = 32                  # bottom_top (BOTTOM-TOP_GRID_DIMENSION = 33)
# MM5 27 km grid over Iberia.
MM5 = dict(stdlat_1=30.0, stdlat_2=60.0, stdlon=-4.0, cen_lat=40.0, cen_lon=-3.7,
           n_i=30, n_j=36, ds_km=27.0, ptop=10000.0)


def wrap_lon(lon):
    """Wrap longitudes into [-180, 180)."""
    return (np.asarray(lon, dtype=np.float64) + 180.0) % 360.0 - 180.0


# ----------------------------------------------------------------------------------------------
# Projections (PROJ via pyproj, on WRF's 6370 km sphere)

def proj4_string(map_proj, truelat1, truelat2, stand_lon, moad_cen_lat, pole_lat=90.0, pole_lon=0.0):
    """The proj4 string for a WRF MAP_PROJ; rotated pole follows wrf-python's RotatedLatLon."""
    a = f"+a={R_EARTH:.0f} +b={R_EARTH:.0f}"
    if map_proj == 1:
        return (f"+proj=lcc {a} +lat_1={truelat1:g} +lat_2={truelat2:g} +lat_0={moad_cen_lat:g} "
                f"+lon_0={stand_lon:g} +units=m +no_defs")
    if map_proj == 2:
        hemi = -90.0 if truelat1 < 0 else 90.0
        return f"+proj=stere {a} +lat_0={hemi:g} +lat_ts={truelat1:g} +lon_0={stand_lon:g} +units=m +no_defs"
    if map_proj == 3:
        return f"+proj=merc {a} +lat_ts={truelat1:g} +lon_0={stand_lon:g} +units=m +no_defs"
    if map_proj == 6:
        # wrf-python (projection.py, RotatedLatLon._proj4): the hemisphere is north unless
        # POLE_LON == 0 (or POLE_LON != 180 and MOAD_CEN_LAT < 0); then
        # o_lon_p = 180 - POLE_LON, o_lat_p = POLE_LAT (north) / -POLE_LAT (south),
        # lon_0 = 180 + cart_pole_lon with cart_pole_lon = -STAND_LON - 180 (north) / -STAND_LON (south).
        north = True
        if pole_lon == 0.0:
            north = False
        elif pole_lon != 180.0 and moad_cen_lat < 0.0:
            north = False
        bm_pole_lat = pole_lat if north else -pole_lat
        cart_pole_lon = (-stand_lon - 180.0) if north else -stand_lon
        return (f"+proj=ob_tran +o_proj=latlon {a} +to_meter={math.radians(1)!r} "
                f"+o_lon_p={180.0 - pole_lon:g} +o_lat_p={bm_pole_lat:g} +lon_0={180.0 + cart_pole_lon:g} +no_defs")
    raise ValueError(f"unsupported MAP_PROJ {map_proj}")


class Projection:
    """lon/lat on the sphere <-> grid-plane coordinates (metres; rotated degrees for MAP_PROJ 6)."""

    def __init__(self, map_proj, truelat1=0.0, truelat2=0.0, stand_lon=0.0, moad_cen_lat=0.0,
                 pole_lat=90.0, pole_lon=0.0):
        self.map_proj = map_proj
        self.truelat1, self.truelat2 = truelat1, truelat2
        self.stand_lon, self.moad_cen_lat = stand_lon, moad_cen_lat
        self.pole_lat, self.pole_lon = pole_lat, pole_lon
        self.proj4 = proj4_string(map_proj, truelat1, truelat2, stand_lon, moad_cen_lat, pole_lat, pole_lon)
        self.angular = map_proj == 6
        self._p = pyproj.Proj(self.proj4)

    def fwd(self, lon, lat):
        x, y = self._p(np.asarray(lon, np.float64), np.asarray(lat, np.float64))
        x, y = np.asarray(x), np.asarray(y)
        if self.angular:            # PROJ's ob_tran/latlon answers in radians here
            x, y = np.degrees(x), np.degrees(y)
        return x, y

    def inv(self, x, y):
        x, y = np.asarray(x, np.float64), np.asarray(y, np.float64)
        if self.angular:
            x, y = np.radians(x), np.radians(y)
        lon, lat = self._p(x, y, inverse=True)
        return wrap_lon(lon), np.asarray(lat)

    def native_spacing(self, dx_m):
        """Grid spacing in the plane's unit: metres, or degrees of rotated longitude for MAP_PROJ 6."""
        return dx_m / (R_EARTH * math.pi / 180.0) if self.angular else dx_m


def rotation_numeric(proj: Projection, lat, lon, eps=1e-3):
    """COSALPHA/SINALPHA from finite differences through PROJ, in WRF's convention.

    WRF's convention (verified against the real wrf_d01_allvars_cropped.nc):
        u_earth = U*COSALPHA - V*SINALPHA,  v_earth = V*COSALPHA + U*SINALPHA.
    The grid's x axis points, in (east, north) components, along (COSALPHA, SINALPHA); equivalently
    true north, in grid components (x, y), is (SINALPHA, COSALPHA).
    """
    lat = np.asarray(lat, np.float64)
    lon = np.asarray(lon, np.float64)
    xn, yn = proj.fwd(lon, lat + eps)
    xs, ys = proj.fwd(lon, lat - eps)
    xe, ye = proj.fwd(lon + eps, lat)
    xw, yw = proj.fwd(lon - eps, lat)
    dxn, dyn = xn - xs, yn - ys
    dxe, dye = xe - xw, ye - yw
    if proj.angular:                 # physical length of a rotated-longitude step ~ cos(rotated lat)
        _, yr = proj.fwd(lon, lat)
        c = np.cos(np.radians(yr))
        dxn, dxe = dxn * c, dxe * c
    n = np.hypot(dxn, dyn)
    sina, cosa = dxn / n, dyn / n
    ne = np.hypot(dxe, dye)
    # East, in grid components, must be (COSALPHA, -SINALPHA): checks orthogonality and handedness.
    assert np.allclose(dxe / ne, cosa, atol=2e-6) and np.allclose(dye / ne, -sina, atol=2e-6), \
        "grid is not conformal/right-handed here"
    return cosa, sina


def lambert_cone(truelat1, truelat2):
    t1, t2 = math.radians(truelat1), math.radians(truelat2)
    if abs(truelat1 - truelat2) < 1e-9:
        return math.sin(abs(t1))
    return (math.log(math.cos(t1) / math.cos(t2)) /
            math.log(math.tan(math.pi / 4 - abs(t1) / 2) / math.tan(math.pi / 4 - abs(t2) / 2)))


def check_lambert_rotation(proj: Projection, lat, lon, cosa, sina, tol=1e-5, cone=None):
    """Assert the numeric rotation equals the cone formula: COSALPHA = cos(a), SINALPHA = -sin(a),
    a = cone * (lon - STAND_LON) in radians, times -1 in the southern hemisphere (as wrf-python's uvmet).
    Polar stereographic is the cone = 1 case."""
    cone = lambert_cone(proj.truelat1, proj.truelat2) if cone is None else cone
    hemi = -1.0 if proj.truelat1 < 0 else 1.0
    a = hemi * cone * np.radians(wrap_lon(np.asarray(lon) - proj.stand_lon))
    ec = np.abs(cosa - np.cos(a)).max()
    es = np.abs(sina + np.sin(a)).max()
    assert ec < tol and es < tol, f"rotation mismatch: cos {ec:.2e}, sin {es:.2e}"
    return max(ec, es)


class MassGrid:
    """A WRF mass grid: point (i, j) sits at plane coordinates (x0 + i*d, y0 + j*d)."""

    def __init__(self, proj: Projection, nx, ny, dx_m, x0, y0):
        self.proj, self.nx, self.ny, self.dx_m = proj, nx, ny, dx_m
        self.d = proj.native_spacing(dx_m)
        self.x0, self.y0 = x0, y0

    @classmethod
    def centred(cls, proj, nx, ny, dx_m, cen_lat, cen_lon):
        xc, yc = proj.fwd(cen_lon, cen_lat)
        d = proj.native_spacing(dx_m)
        return cls(proj, nx, ny, dx_m, float(xc) - (nx - 1) / 2 * d, float(yc) - (ny - 1) / 2 * d)

    def latlon(self, stagger=""):
        i = np.arange(self.nx + (1 if stagger == "X" else 0), dtype=np.float64)
        j = np.arange(self.ny + (1 if stagger == "Y" else 0), dtype=np.float64)
        if stagger == "X":
            i = i - 0.5
        if stagger == "Y":
            j = j - 0.5
        x = self.x0 + i[None, :] * self.d
        y = self.y0 + j[:, None] * self.d
        x, y = np.broadcast_arrays(x, y)
        lon, lat = self.proj.inv(x, y)
        return lat, lon

    def frac_index(self, lat, lon):
        x, y = self.proj.fwd(lon, lat)
        return (x - self.x0) / self.d, (y - self.y0) / self.d

    def centre_latlon(self):
        lon, lat = self.proj.inv(self.x0 + (self.nx - 1) / 2 * self.d, self.y0 + (self.ny - 1) / 2 * self.d)
        return float(lat), float(lon)


def nest_grid(parent: MassGrid, i_parent_start, j_parent_start, ratio, nx, ny):
    """WRF nest geometry: the nest's first staggered point is the parent's staggered point
    I_PARENT_START (1-based), so nest mass point 0 is at parent mass index (I - 1.5) + 0.5/ratio."""
    pi0 = (i_parent_start - 1.5) + 0.5 / ratio
    pj0 = (j_parent_start - 1.5) + 0.5 / ratio
    return MassGrid(parent.proj, nx, ny, parent.dx_m / ratio,
                    parent.x0 + pi0 * parent.d, parent.y0 + pj0 * parent.d)


def nest_start_for(parent: MassGrid, lat, lon, ratio, nx, ny):
    """(I_PARENT_START, J_PARENT_START) that centre an nx x ny nest nearest to (lat, lon)."""
    pi, pj = parent.frac_index(lat, lon)
    return int(round(float(pi) + 1.5 - nx / (2 * ratio))), int(round(float(pj) + 1.5 - ny / (2 * ratio)))


# ----------------------------------------------------------------------------------------------
# A synthetic but plausible Iberian November day: analytic in (lat, lon, t) so domains agree.

def _interp(x, table):
    xs, ys = zip(*table)
    return np.interp(x, xs, ys)


WEST_COAST = [(30.0, -9.8), (35.0, -8.99), (37.02, -8.99), (37.5, -8.80), (38.0, -8.85), (38.45, -9.20),
              (38.70, -9.30), (38.78, -9.50), (39.35, -9.38), (39.60, -9.07), (40.0, -8.88), (40.6, -8.75),
              (41.0, -8.66), (41.5, -8.78), (42.15, -8.87), (42.5, -9.05), (42.9, -9.28), (43.2, -9.2),
              (46.0, -9.2)]                                   # lon of the Atlantic coast by lat
SOUTH_COAST = [(-12.0, 37.02), (-8.99, 37.02), (-8.6, 37.08), (-8.0, 37.02), (-7.4, 37.17), (-6.9, 37.18),
               (-6.4, 36.95), (-6.0, 36.30), (-5.6, 36.0), (-5.3, 36.15), (-4.4, 36.70), (-2.0, 36.72),
               (-1.6, 37.0), (-0.7, 37.6), (-0.3, 38.3), (0.25, 38.75), (0.3, 60.0)]   # lat by lon
EAST_COAST = [(30.0, 0.3), (38.74, 0.3), (38.75, 0.2), (39.45, -0.32), (40.0, 0.0), (40.7, 0.9),
              (41.1, 1.2), (41.4, 2.2), (41.9, 3.2), (42.3, 3.3), (42.8, 3.05), (43.3, 3.6), (46.0, 5.0)]
NORTH_COAST = [(-12.0, 43.3), (-9.2, 43.3), (-8.4, 43.37), (-7.7, 43.79), (-7.0, 43.55), (-5.8, 43.6),
               (-4.0, 43.45), (-3.0, 43.4), (-1.8, 43.38), (-1.6, 43.40), (-1.5, 60.0), (10.0, 60.0)]
MOROCCO_NORTH = [(-12.0, 0.0), (-6.3, 35.0), (-6.0, 35.78), (-5.4, 35.9), (-5.0, 35.3), (-3.0, 35.2),
                 (-2.0, 35.1), (0.0, 35.8), (10.0, 36.8)]
# (lat, lon, height m, sigma km): Serra da Estrela first.
MOUNTAINS = [(40.32, -7.61, 1650, 22), (41.80, -8.15, 1050, 22), (41.25, -7.90, 850, 18),
             (41.90, -6.90, 700, 25), (40.10, -8.20, 750, 18), (39.30, -7.35, 450, 14),
             (37.30, -8.60, 600, 12), (37.25, -8.00, 400, 15), (38.78, -9.43, 350, 5),
             (38.48, -9.00, 300, 5), (39.17, -9.05, 450, 7), (40.25, -6.60, 800, 30),
             (40.25, -5.20, 1500, 35), (37.05, -3.30, 2200, 35), (42.60, 0.50, 2000, 70),
             (43.00, -5.00, 1500, 50), (41.80, -2.50, 1000, 60), (38.20, -5.00, 500, 60)]


class SmoothNoise:
    """Sum of seeded plane waves in (x_km, y_km, t): smooth, deterministic, domain-independent."""

    def __init__(self, rng, n=10, lmin=40.0, lmax=400.0, period_h=None):
        lam = np.exp(rng.uniform(math.log(lmin), math.log(lmax), n))
        ang = rng.uniform(0, 2 * math.pi, n)
        self.kx = 2 * math.pi / lam * np.cos(ang)
        self.ky = 2 * math.pi / lam * np.sin(ang)
        self.phi = rng.uniform(0, 2 * math.pi, n)
        self.om = (rng.uniform(-1, 1, n) * 2 * math.pi / period_h) if period_h else np.zeros(n)
        self.amp = rng.uniform(0.5, 1.0, n)
        self.norm = math.sqrt(2.0 / float(np.sum(self.amp ** 2)))

    def __call__(self, lat, lon, t=0.0):
        x = (lon + 8.0) * 111.2 * np.cos(np.radians(lat))
        y = (lat - 39.5) * 111.2
        out = np.zeros(np.broadcast(lat, lon).shape)
        for k in range(len(self.kx)):
            out += self.amp[k] * np.cos(self.kx[k] * x + self.ky[k] * y + self.phi[k] + self.om[k] * t)
        return out * self.norm          # standard deviation about 1


def sigmoid(x):
    return 0.5 * (1.0 + np.tanh(0.5 * np.asarray(x)))


def diurnal(t_hours, lon):
    """-1 at 06 UTC, +1 at 15 UTC (shifted by longitude), smooth in between."""
    h = np.mod(t_hours + (np.asarray(lon) + 8.0) / 15.0, 24.0)
    rise = -np.cos(np.pi * (h - 6.0) / 9.0)
    fall = np.cos(np.pi * np.mod(h - 15.0, 24.0) / 15.0)
    return np.where((h >= 6.0) & (h <= 15.0), rise, fall)


def cos_zenith(lat, lon, when: dt.datetime):
    doy = when.timetuple().tm_yday
    hour = when.hour + when.minute / 60.0 + when.second / 3600.0
    g = 2 * math.pi / 365.0 * (doy - 1 + (hour - 12) / 24.0)
    decl = (0.006918 - 0.399912 * math.cos(g) + 0.070257 * math.sin(g) - 0.006758 * math.cos(2 * g)
            + 0.000907 * math.sin(2 * g) - 0.002697 * math.cos(3 * g) + 0.00148 * math.sin(3 * g))
    eqt = 229.18 * (0.000075 + 0.001868 * math.cos(g) - 0.032077 * math.sin(g)
                    - 0.014615 * math.cos(2 * g) - 0.040849 * math.sin(2 * g))
    tst = hour * 60.0 + eqt + 4.0 * np.asarray(lon)
    ha = np.radians(tst / 4.0 - 180.0)
    la = np.radians(lat)
    return np.sin(la) * math.sin(decl) + np.cos(la) * math.cos(decl) * np.cos(ha)


def sat_vapour_pressure_pa(t_k):
    return 611.2 * np.exp(17.67 * (t_k - 273.15) / (t_k - 29.65))


class Weather:
    """Terrain and a cold front crossing Portugal on 22 Nov 2026 (a second one two days later)."""

    CLOUD_HEIGHTS_4 = (600.0, 1800.0, 4500.0, 9000.0)   # heights (m) the few sample levels stand for

    def __init__(self, seed=SEED):
        rng = np.random.default_rng(seed)
        self.n_terrain = SmoothNoise(rng, 12, 12.0, 80.0)
        self.n_temp = SmoothNoise(rng, 10, 60.0, 400.0, period_h=60.0)
        self.n_rh = SmoothNoise(rng, 10, 60.0, 400.0, period_h=40.0)
        self.n_u = SmoothNoise(rng, 10, 80.0, 500.0, period_h=30.0)
        self.n_v = SmoothNoise(rng, 10, 80.0, 500.0, period_h=30.0)
        self.n_cloud = SmoothNoise(rng, 12, 30.0, 250.0, period_h=20.0)
        self.n_rain = SmoothNoise(rng, 12, 20.0, 150.0, period_h=12.0)
        self.n_slp = SmoothNoise(rng, 6, 300.0, 1500.0, period_h=80.0)

    # ---- static
    @staticmethod
    def landmask(lat, lon):
        land = ((lon > _interp(lat, WEST_COAST)) & (lat > _interp(lon, SOUTH_COAST))
                & (lon < _interp(lat, EAST_COAST)) & (lat < _interp(lon, NORTH_COAST)))
        morocco = (lat < _interp(lon, MOROCCO_NORTH)) & (lon > -6.4 + (35.0 - lat) * 0.6)
        return land | morocco

    @staticmethod
    def inland_km(lat, lon):
        kx = 111.2 * np.cos(np.radians(lat))
        d = np.minimum.reduce([(lon - _interp(lat, WEST_COAST)) * kx,
                               (lat - _interp(lon, SOUTH_COAST)) * 111.2,
                               (_interp(lat, EAST_COAST) - lon) * kx,
                               (_interp(lon, NORTH_COAST) - lat) * 111.2])
        return np.clip(d, 0.0, 400.0)

    def terrain(self, lat, lon):
        land = self.landmask(lat, lon)
        inland = self.inland_km(lat, lon)
        plateau = 80.0 + 620.0 * sigmoid((lon + 7.2) / 0.3)
        h = plateau * (1.0 - np.exp(-inland / 40.0))
        kx = 111.2 * np.cos(np.radians(lat))
        for mlat, mlon, mh, sig in MOUNTAINS:
            r2 = ((lon - mlon) * kx) ** 2 + ((lat - mlat) * 111.2) ** 2
            h = h + mh * np.exp(-0.5 * r2 / sig ** 2)
        h = h + 40.0 * self.n_terrain(lat, lon) * (1.0 - np.exp(-inland / 15.0))
        h = np.where(land, np.maximum(h, 2.0), 0.0)
        return h, land.astype(np.float64)

    # ---- fronts
    @staticmethod
    def front_distance_km(lat, lon, t, t0):
        lonf = -12.5 + 0.36 * (t - t0)
        return (lon - lonf) * 111.2 * np.cos(np.radians(lat)) + (lat - 39.5) * 111.2 * 0.4

    def rain_rates(self, lat, lon, hgt, t):
        """Rain rates in mm/h: grid-scale, cumulus, shallow cumulus."""
        d1 = self.front_distance_km(lat, lon, t, 0.0)
        d2 = self.front_distance_km(lat, lon, t, 42.0)
        s = np.clip(1.0 + 0.25 * (lat - 39.5) / 2.5, 0.5, 1.6)
        n = self.n_rain(lat, lon, t)
        oro = 1.0 + hgt / 1500.0
        nc = (3.2 * s * np.exp(-((d1 + 10.0) / 55.0) ** 2) + 2.4 * s * np.exp(-((d2 + 10.0) / 60.0) ** 2))
        nc = nc * oro * (0.75 + 0.25 * n)
        cu = (1.3 * np.exp(-((d1 + 90.0) / 60.0) ** 2) + 0.9 * np.exp(-((d2 + 90.0) / 60.0) ** 2))
        cu = cu * np.clip(0.5 + 0.6 * n, 0.0, None)
        sh = 0.18 * (np.exp(-((d1 + 160.0) / 90.0) ** 2) + np.exp(-((d2 + 160.0) / 90.0) ** 2)) * (0.7 + 0.3 * n)
        out = []
        for r in (nc, cu, sh):
            r = np.where(r < 0.02, 0.0, r)
            out.append(r)
        return out

    def cloud_layers(self, lat, lon, t):
        d1 = self.front_distance_km(lat, lon, t, 0.0)
        d2 = self.front_distance_km(lat, lon, t, 42.0)
        n = self.n_cloud(lat, lon, t)
        high = 1.25 * (np.exp(-((d1 - 160.0) / 170.0) ** 2) + np.exp(-((d2 - 160.0) / 170.0) ** 2)) + 0.15 * n
        mid = 1.35 * (np.exp(-((d1 - 40.0) / 110.0) ** 2) + np.exp(-((d2 - 40.0) / 110.0) ** 2)) + 0.15 * n
        low = (1.2 * (np.exp(-(d1 / 70.0) ** 2) + np.exp(-(d2 / 70.0) ** 2))
               + 0.55 * (np.exp(-((d1 + 120.0) / 90.0) ** 2) + np.exp(-((d2 + 120.0) / 90.0) ** 2)) * (0.6 + 0.4 * n)
               + 0.15 * n)
        out = []
        for c in (low, mid, high):
            c = np.clip(c, 0.0, 1.0)
            out.append(np.where(c < 0.02, 0.0, c))
        return out

    @staticmethod
    def cloud_on_levels(low, mid, high, heights):
        """CLDFRA at levels of given heights (m) from the three layer fractions."""
        levels = []
        for z in heights:
            wl = sigmoid((2500.0 - z) / 300.0)
            wm = sigmoid((z - 2500.0) / 300.0) * sigmoid((6500.0 - z) / 400.0)
            wh = sigmoid((z - 6500.0) / 400.0) * sigmoid((12000.0 - z) / 600.0)
            c = np.clip(np.maximum.reduce([low * wl, mid * wm, high * wh]), 0.0, 1.0)
            levels.append(np.where(c < 0.02, 0.0, c))
        return np.stack(levels)

    def state(self, lat, lon, hgt, land, t, cloud_heights):
        """Instantaneous surface state at hour t (float) after SIM_START; earth-relative wind."""
        when = SIM_START + dt.timedelta(hours=float(t))
        d1 = self.front_distance_km(lat, lon, t, 0.0)
        d2 = self.front_distance_km(lat, lon, t, 42.0)
        low, mid, high = self.cloud_layers(lat, lon, t)
        cld = self.cloud_on_levels(low, mid, high, cloud_heights)
        cc = cld.max(axis=0)
        f = diurnal(t, lon)
        inland = self.inland_km(lat, lon)
        behind = sigmoid(-d1 / 40.0) * np.clip(1.0 - (t - 30.0) / 20.0, 0.0, 1.0) + sigmoid(-d2 / 40.0)
        tsea = 290.8 - 0.55 * (lat - 37.0) + 0.35 * f
        amp = 4.8 * (1.0 - 0.55 * cc)
        tland = 288.6 - 0.75 * (lat - 37.0) - 0.008 * inland - 0.0065 * hgt + amp * f
        t2 = np.where(land > 0.5, tland, tsea) - 2.8 * behind + 0.35 * self.n_temp(lat, lon, t)
        slp = (101700.0 - 1100.0 * np.exp(-((d1 + 30.0) / 220.0) ** 2) - 900.0 * np.exp(-((d2 + 30.0) / 220.0) ** 2)
               + 150.0 * (lat - 39.5) + 60.0 * self.n_slp(lat, lon, t))
        psfc = slp * np.exp(-G * hgt / (RD * (t2 + 0.00325 * hgt)))
        rh = (0.74 - 0.10 * f * land + 0.18 * np.exp(-(d1 / 90.0) ** 2) + 0.18 * np.exp(-(d2 / 90.0) ** 2)
              + 0.08 * cc - 0.08 * sigmoid(-d1 / 60.0) + 0.04 * self.n_rh(lat, lon, t))
        rh = np.clip(rh, 0.35, 0.985)
        es = sat_vapour_pressure_pa(t2)
        q2 = rh * EPS * es / (psfc - (1.0 - EPS) * es)
        post = sigmoid(-d1 / 45.0) * (1.0 - sigmoid(-(d2 - 220.0) / 70.0))
        post = post + sigmoid(-d2 / 45.0) * 0.8
        post = np.clip(post, 0.0, 1.0)
        speed = 1.0 + 0.8 * np.exp(-(d1 / 80.0) ** 2) + 0.6 * np.exp(-(d2 / 80.0) ** 2)
        landf = np.where(land > 0.5, 0.62 * (1.0 + hgt / 2500.0) * (0.85 + 0.15 * f), 1.0)
        ue = ((1.0 - post) * 5.5 + post * 6.5) * speed * landf + 1.2 * self.n_u(lat, lon, t)
        ve = ((1.0 - post) * 6.5 + post * -5.5) * speed * landf + 1.2 * self.n_v(lat, lon, t)
        mu = cos_zenith(lat, lon, when)
        sw = np.where(mu > 0.0, 1080.0 * np.clip(mu, 0.0, None) ** 1.2 * (1.0 - 0.72 * cc ** 2.5), 0.0)
        return dict(T2=t2, Q2=q2, PSFC=psfc, SLP=slp, UE=ue, VE=ve, CLDFRA=cld, CC=cc, SWDOWN=sw, D1=d1, D2=d2)

    def series(self, lat, lon, hgt, land, hours, cloud_heights, substeps_per_hour=4):
        """Fields at the output hours; accumulations integrated from hour 0 (midpoint rule)."""
        hours = [float(h) for h in hours]
        out = {k: [] for k in ("T2", "Q2", "PSFC", "SLP", "UE", "VE", "CLDFRA", "CC", "SWDOWN")}
        for h in hours:
            s = self.state(lat, lon, hgt, land, h, cloud_heights)
            for k in out:
                out[k].append(s[k])
        out = {k: np.stack(v) for k, v in out.items()}
        step = 1.0 / substeps_per_hour
        acc = {k: np.zeros(lat.shape) for k in ("RAINNC", "RAINC", "RAINSH", "SNOWNC")}
        series = {k: [] for k in acc}
        t_now = 0.0
        for h in hours:
            while t_now < h - 1e-9:
                tm = t_now + step / 2
                nc, cu, sh = self.rain_rates(lat, lon, hgt, tm)
                t2m = self.state(lat, lon, hgt, land, tm, cloud_heights)["T2"]
                snow = np.clip((274.0 - t2m) / 3.0, 0.0, 1.0)
                acc["RAINNC"] += nc * step
                acc["RAINC"] += cu * step
                acc["RAINSH"] += sh * step
                acc["SNOWNC"] += nc * snow * step
                t_now += step
            for k in acc:
                series[k].append(acc[k].copy())
        for k in series:
            out[k] = np.stack(series[k])
        return out


# ----------------------------------------------------------------------------------------------
# WRF file layout

WRF_VARS = {
    # name: (description, units, MemoryOrder, stagger)
    "XLAT": ("LATITUDE, SOUTH IS NEGATIVE", "degree_north", "XY ", ""),
    "XLONG": ("LONGITUDE, WEST IS NEGATIVE", "degree_east", "XY ", ""),
    "XLAT_U": ("LATITUDE, SOUTH IS NEGATIVE", "degree_north", "XY ", "X"),
    "XLONG_U": ("LONGITUDE, WEST IS NEGATIVE", "degree_east", "XY ", "X"),
    "XLAT_V": ("LATITUDE, SOUTH IS NEGATIVE", "degree_north", "XY ", "Y"),
    "XLONG_V": ("LONGITUDE, WEST IS NEGATIVE", "degree_east", "XY ", "Y"),
    "ZNU": ("eta values on half (mass) levels", "", "Z  ", ""),
    "ZNW": ("eta values on full (w) levels", "", "Z  ", "Z"),
    "U": ("x-wind component", "m s-1", "XYZ", "X"),
    "V": ("y-wind component", "m s-1", "XYZ", "Y"),
    "W": ("z-wind component", "m s-1", "XYZ", "Z"),
    "PH": ("perturbation geopotential", "m2 s-2", "XYZ", "Z"),
    "PHB": ("base-state geopotential", "m2 s-2", "XYZ", "Z"),
    "T": ("perturbation potential temperature theta-t0", "K", "XYZ", ""),
    "P": ("perturbation pressure", "Pa", "XYZ", ""),
    "PB": ("BASE STATE PRESSURE", "Pa", "XYZ", ""),
    "P_TOP": ("PRESSURE TOP OF THE MODEL", "Pa", "0  ", ""),
    "QVAPOR": ("Water vapor mixing ratio", "kg kg-1", "XYZ", ""),
    "QCLOUD": ("Cloud water mixing ratio", "kg kg-1", "XYZ", ""),
    "QRAIN": ("Rain water mixing ratio", "kg kg-1", "XYZ", ""),
    "LANDMASK": ("LAND MASK (1 FOR LAND, 0 FOR WATER)", "", "XY ", ""),
    "Q2": ("QV at 2 M", "kg kg-1", "XY ", ""),
    "T2": ("TEMP at 2 M", "K", "XY ", ""),
    "PSFC": ("SFC PRESSURE", "Pa", "XY ", ""),
    "U10": ("U at 10 M", "m s-1", "XY ", ""),
    "V10": ("V at 10 M", "m s-1", "XY ", ""),
    "HGT": ("Terrain Height", "m", "XY ", ""),
    "RAINC": ("ACCUMULATED TOTAL CUMULUS PRECIPITATION", "mm", "XY ", ""),
    "RAINSH": ("ACCUMULATED SHALLOW CUMULUS PRECIPITATION", "mm", "XY ", ""),
    "RAINNC": ("ACCUMULATED TOTAL GRID SCALE PRECIPITATION", "mm", "XY ", ""),
    "SNOWNC": ("ACCUMULATED TOTAL GRID SCALE SNOW AND ICE", "mm", "XY ", ""),
    "I_RAINC": ("BUCKET FOR RAINC", "", "XY ", ""),
    "I_RAINNC": ("BUCKET FOR RAINNC", "", "XY ", ""),
    "SWDOWN": ("DOWNWARD SHORT WAVE FLUX AT GROUND SURFACE", "W m-2", "XY ", ""),
    "COSALPHA": ("Local cosine of map rotation", "", "XY ", ""),
    "SINALPHA": ("Local sine of map rotation", "", "XY ", ""),
    "CLDFRA": ("CLOUD FRACTION", "", "XYZ", ""),
}
# Order in which variables appear in the file (roughly WRF's Registry order).
WRF_ORDER = ["Times", "XLAT", "XLONG", "ZNU", "ZNW", "U", "V", "W", "PH", "PHB", "T", "P", "PB", "P_TOP",
             "QVAPOR", "QCLOUD", "QRAIN", "LANDMASK", "Q2", "T2", "PSFC", "U10", "V10", "XTIME", "HGT",
             "RAINC", "RAINSH", "RAINNC", "SNOWNC", "I_RAINC", "I_RAINNC", "SWDOWN", "COSALPHA", "SINALPHA",
             "CLDFRA", "XLAT_U", "XLONG_U", "XLAT_V", "XLONG_V"]
MAP_PROJ_CHAR = {1: "Lambert Conformal", 2: "Polar Stereographic", 3: "Mercator", 6: "Cylindrical Equidistant"}


def wrf_time_string(when: dt.datetime):
    return when.strftime("%Y-%m-%d_%H:%M:%S")


class WrfVar:
    def __init__(self, name, dims, dtype="f4", data=None, attrs=None, chunks=None, quant=None):
        self.name, self.dims, self.dtype, self.data = name, tuple(dims), dtype, data
        self.attrs = dict(attrs or {})
        self.chunks, self.quant = chunks, quant


class WrfFile:
    """An in-memory description of a WRF-like netCDF file, editable before writing."""

    def __init__(self, fmt="NETCDF3_64BIT_OFFSET"):
        self.fmt = fmt
        self.dims = {}                # name -> size (None = unlimited)
        self.globals = {}
        self.vars = {}                # name -> WrfVar (insertion order is file order)
        self.compress = False
        self.complevel = 6

    def add(self, v: WrfVar):
        self.vars[v.name] = v

    def ordered_vars(self):
        rank = {n: i for i, n in enumerate(WRF_ORDER)}
        return sorted(self.vars.values(), key=lambda v: rank.get(v.name, len(rank)))

    def write(self, path, fill_off=True):
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        if tmp.exists():
            tmp.unlink()
        ds = netCDF4.Dataset(tmp, "w", format=self.fmt)
        try:
            if fill_off:
                ds.set_fill_off()
            for d, n in self.dims.items():
                ds.createDimension(d, n)
            for v in self.ordered_vars():
                kw = {}
                if self.fmt == "NETCDF4":
                    if self.compress and v.dtype != "S1":
                        kw.update(zlib=True, shuffle=True, complevel=self.complevel)
                    chunked = self.compress or ds.dimensions["Time"].isunlimited()
                    if v.chunks is not None and chunked:
                        kw["chunksizes"] = v.chunks
                    elif "Time" in v.dims and len(v.dims) > 1 and chunked:
                        kw["chunksizes"] = tuple(1 if d == "Time" else ds.dimensions[d].size for d in v.dims)
                    elif not chunked:
                        kw["contiguous"] = True
                fill = v.attrs.get("_FillValue")
                var = ds.createVariable(v.name, v.dtype, v.dims, fill_value=fill, **kw)
                var.set_auto_maskandscale(False)
                for k, val in v.attrs.items():
                    if k != "_FillValue":
                        var.setncattr(k, val)
            ds.setncatts(self.globals)
            for v in self.ordered_vars():
                if v.data is None:
                    continue
                data = v.data
                if v.dtype == "S1":
                    ds[v.name][:] = data
                else:
                    arr = np.asarray(data)
                    if v.quant:
                        arr = quantise(arr, v.quant)
                    ds[v.name][:] = arr.astype(v.dtype)
        finally:
            ds.close()
        os.replace(tmp, path)
        return path


def quantise(a, step):
    """Round to a power-of-two step so low mantissa bits are zero (what deflate likes)."""
    a = np.asarray(a, np.float64)
    return (np.round(a / step) * step).astype(np.float32)


def wrf_attrs(name, coords="XLONG XLAT XTIME", dtype="f4"):
    desc, units, mem, stag = WRF_VARS[name]
    a = {"FieldType": np.int32(106 if dtype == "i4" else 104), "MemoryOrder": mem,
         "description": desc, "units": units, "stagger": stag}
    if coords:
        a["coordinates"] = coords
    return a


def times_char(strings):
    return netCDF4.stringtochar(np.array(strings, dtype="S19"))


def wrf_globals(*, map_proj, nx, ny, nz, dx, dt_s, grid_id, parent_id, i_parent_start, j_parent_start,
                ratio, cen_lat, cen_lon, truelat1, truelat2, moad_cen_lat, stand_lon, pole_lat=90.0,
                pole_lon=0.0, start=SIM_START, sim_start=SIM_START, bucket_mm=-1.0, bucket_j=-1.0):
    f32, i32 = np.float32, np.int32
    return {
        "TITLE": " OUTPUT FROM WRF V4.5.2 MODEL",
        "START_DATE": wrf_time_string(start),
        "SIMULATION_START_DATE": wrf_time_string(sim_start),
        "WEST-EAST_GRID_DIMENSION": i32(nx + 1),
        "SOUTH-NORTH_GRID_DIMENSION": i32(ny + 1),
        "BOTTOM-TOP_GRID_DIMENSION": i32(nz + 1),
        "DX": f32(dx), "DY": f32(dx),
        "GRIDTYPE": "C", "DIFF_OPT": i32(1), "KM_OPT": i32(4), "DAMP_OPT": i32(3),
        "MP_PHYSICS": i32(8), "RA_LW_PHYSICS": i32(4), "RA_SW_PHYSICS": i32(4),
        "SF_SFCLAY_PHYSICS": i32(1), "SF_SURFACE_PHYSICS": i32(2), "BL_PBL_PHYSICS": i32(1),
        "CU_PHYSICS": i32(3), "SHCU_PHYSICS": i32(0), "ISHALLOW": i32(1),
        "BUCKET_MM": f32(bucket_mm), "BUCKET_J": f32(bucket_j), "PREC_ACC_DT": f32(0.0),
        "DT": f32(dt_s),
        "GRID_ID": i32(grid_id), "PARENT_ID": i32(parent_id),
        "I_PARENT_START": i32(i_parent_start), "J_PARENT_START": i32(j_parent_start),
        "PARENT_GRID_RATIO": i32(ratio),
        "CEN_LAT": f32(cen_lat), "CEN_LON": f32(cen_lon),
        "TRUELAT1": f32(truelat1), "TRUELAT2": f32(truelat2),
        "MOAD_CEN_LAT": f32(moad_cen_lat), "STAND_LON": f32(stand_lon),
        "POLE_LAT": f32(pole_lat), "POLE_LON": f32(pole_lon),
        "GMT": f32(sim_start.hour + sim_start.minute / 60.0),
        "JULYR": i32(sim_start.year), "JULDAY": i32(sim_start.timetuple().tm_yday),
        "MAP_PROJ": i32(map_proj), "MAP_PROJ_CHAR": MAP_PROJ_CHAR[map_proj],
        "MMINLU": "MODIFIED_IGBP_MODIS_NOAH", "NUM_LAND_CAT": i32(21), "ISWATER": i32(17),
        "ISLAKE": i32(21), "ISICE": i32(15), "ISURBAN": i32(13), "ISOILWATER": i32(14),
        "HYBRID_OPT": i32(2), "ETAC": f32(0.2),
    }


class Domain:
    """A WRF domain: grid plus the nest attributes."""

    def __init__(self, grid: MassGrid, *, grid_id=1, parent_id=1, i_parent_start=1, j_parent_start=1,
                 ratio=1, cen_lat=None, cen_lon=None, moad_cen_lat=None, dt_s=54.0):
        self.grid = grid
        self.grid_id, self.parent_id = grid_id, parent_id
        self.i_parent_start, self.j_parent_start, self.ratio = i_parent_start, j_parent_start, ratio
        clat, clon = grid.centre_latlon()
        self.cen_lat = clat if cen_lat is None else cen_lat
        self.cen_lon = clon if cen_lon is None else cen_lon
        self.moad_cen_lat = grid.proj.moad_cen_lat if moad_cen_lat is None else moad_cen_lat
        self.dt_s = dt_s

    def globals(self, nz, **kw):
        p = self.grid.proj
        return wrf_globals(map_proj=p.map_proj, nx=self.grid.nx, ny=self.grid.ny, nz=nz, dx=self.grid.dx_m,
                           dt_s=self.dt_s, grid_id=self.grid_id, parent_id=self.parent_id,
                           i_parent_start=self.i_parent_start, j_parent_start=self.j_parent_start,
                           ratio=self.ratio, cen_lat=self.cen_lat, cen_lon=self.cen_lon,
                           truelat1=p.truelat1, truelat2=p.truelat2, moad_cen_lat=self.moad_cen_lat,
                           stand_lon=p.stand_lon, pole_lat=p.pole_lat, pole_lon=p.pole_lon, **kw)


def domain_surface(dom: Domain, weather: Weather, hours, cloud_heights):
    """Static and surface fields of a domain as numpy arrays (float64; grid-relative U10/V10)."""
    g = dom.grid
    lat, lon = g.latlon()
    hgt, land = weather.terrain(lat, lon)
    cosa, sina = rotation_numeric(g.proj, lat, lon)
    s = weather.series(lat, lon, hgt, land, hours, cloud_heights)
    u10 = s["UE"] * cosa + s["VE"] * sina          # inverse of u_e = U*C - V*S, v_e = V*C + U*S
    v10 = s["VE"] * cosa - s["UE"] * sina
    s.update(XLAT=lat, XLONG=lon, HGT=hgt, LANDMASK=land, COSALPHA=cosa, SINALPHA=sina, U10=u10, V10=v10)
    return s


SURFACE_2D = ["Q2", "T2", "PSFC", "U10", "V10", "RAINC", "RAINSH", "RAINNC", "SNOWNC", "SWDOWN"]
STATIC_2D = ["HGT", "LANDMASK", "COSALPHA", "SINALPHA"]
# Quantisation steps (powers of two) used for the compressed netCDF-4 files.
# T2 1/64 K, Q2 7.6e-6 kg/kg, PSFC 2 Pa, wind 1/32 m/s, rain 1/64 mm, SWDOWN 1/2 W/m2, CLDFRA 1/128.
QUANT = {"T2": 2.0 ** -6, "Q2": 2.0 ** -17, "PSFC": 2.0, "U10": 2.0 ** -5, "V10": 2.0 ** -5,
         "RAINC": 2.0 ** -6, "RAINSH": 2.0 ** -6, "RAINNC": 2.0 ** -6, "SNOWNC": 2.0 ** -6,
         "SWDOWN": 2.0 ** -1, "CLDFRA": 2.0 ** -7, "HGT": 2.0 ** -3}


def build_wrf_file(dom: Domain, hours, fields, *, fmt="NETCDF3_64BIT_OFFSET", nz=None,
                   coords_with_time=True, static_with_time=True, compress=False, quantise_fields=False,
                   sim_start=SIM_START, start=None, bucket_mm=-1.0, stag_dims=True,
                   unlimited_time=True) -> WrfFile:
    """Describe a wrfout file holding `fields` (arrays (nt, ...) or static 2-D) at `hours` after sim_start.

    unlimited_time=False gives a fixed-size Time dimension (as in the real ci_test_file.nc); in netCDF-4
    the variables are then stored contiguously unless compressed."""
    g = dom.grid
    nt = len(hours)
    nz = fields["CLDFRA"].shape[1] if nz is None else nz
    f = WrfFile(fmt)
    f.compress = compress
    f.dims = {"Time": None if unlimited_time else nt, "DateStrLen": 19, "west_east": g.nx, "south_north": g.ny, "bottom_top": nz}
    if stag_dims:
        f.dims.update({"bottom_top_stag": nz + 1, "west_east_stag": g.nx + 1, "south_north_stag": g.ny + 1})
    start = sim_start if start is None else start
    f.globals = dom.globals(nz, start=start, sim_start=sim_start, bucket_mm=bucket_mm)
    whens = [sim_start + dt.timedelta(hours=float(h)) for h in hours]
    f.add(WrfVar("Times", ("Time", "DateStrLen"), "S1", times_char([wrf_time_string(w) for w in whens])))
    units = "minutes since " + sim_start.strftime("%Y-%m-%d %H:%M:%S")
    f.add(WrfVar("XTIME", ("Time",), "f4", np.array([h * 60.0 for h in hours], np.float32),
                 {"FieldType": np.int32(104), "MemoryOrder": "0  ", "description": units, "units": units,
                  "stagger": ""}))
    hv = ("Time", "south_north", "west_east")

    def per_time(a):            # static 2-D fields repeated per frame; 3-D (moving nest) kept as given
        return a if a.ndim == 3 else np.broadcast_to(a, (nt,) + a.shape)

    for name in ("XLAT", "XLONG"):
        a = np.asarray(fields[name], np.float32)
        if coords_with_time:
            f.add(WrfVar(name, hv, "f4", per_time(a), wrf_attrs(name, "XLONG XLAT"),
                         chunks=(nt, g.ny, g.nx) if fmt == "NETCDF4" else None))
        else:
            f.add(WrfVar(name, hv[1:], "f4", a, wrf_attrs(name, "XLONG XLAT")))
    for name in STATIC_2D:
        if name not in fields:
            continue
        a = np.asarray(fields[name], np.float32)
        q = QUANT.get(name) if quantise_fields else None
        if static_with_time:
            f.add(WrfVar(name, hv, "f4", per_time(a), wrf_attrs(name),
                         chunks=(nt, g.ny, g.nx) if fmt == "NETCDF4" else None, quant=q))
        else:
            f.add(WrfVar(name, hv[1:], "f4", a, wrf_attrs(name, "XLONG XLAT"), quant=q))
    for name in SURFACE_2D:
        if name in fields:
            f.add(WrfVar(name, hv, "f4", fields[name], wrf_attrs(name),
                         quant=QUANT.get(name) if quantise_fields else None))
    for name in ("I_RAINC", "I_RAINNC"):
        if name in fields:
            f.add(WrfVar(name, hv, "i4", np.asarray(fields[name], np.int32), wrf_attrs(name, dtype="i4")))
    if "CLDFRA" in fields:
        f.add(WrfVar("CLDFRA", ("Time", "bottom_top", "south_north", "west_east"), "f4", fields["CLDFRA"],
                     wrf_attrs("CLDFRA"), quant=QUANT["CLDFRA"] if quantise_fields else None))
    return f


# ----------------------------------------------------------------------------------------------
# Sample domains

def sample_domains():
    p = Projection(1, D01["truelat1"], D01["truelat2"], D01["stand_lon"], D01["cen_lat"])
    g1 = MassGrid.centred(p, D01["nx"], D01["ny"], D01["dx"], D01["cen_lat"], D01["cen_lon"])
    d01 = Domain(g1, grid_id=1, parent_id=1, cen_lat=D01["cen_lat"], cen_lon=D01["cen_lon"],
                 moad_cen_lat=D01["cen_lat"], dt_s=D01["dt"])
    g2 = nest_grid(g1, D02["i_parent_start"], D02["j_parent_start"], D02["ratio"], D02["nx"], D02["ny"])
    d02 = Domain(g2, grid_id=2, parent_id=1, i_parent_start=D02["i_parent_start"],
                 j_parent_start=D02["j_parent_start"], ratio=D02["ratio"], moad_cen_lat=D01["cen_lat"],
                 dt_s=D02["dt"])
    return d01, d02


def check_nest_placement(d01: Domain, d02: Domain, margin=2.0):
    g1, g2 = d01.grid, d02.grid
    lat, lon = g2.latlon()
    fi, fj = g1.frac_index(lat, lon)
    # Stated geometry: nest mass (i, j) at parent ((I - 1.5) + (i + 0.5)/r, (J - 1.5) + (j + 0.5)/r)
    ei = (d02.i_parent_start - 1.5) + (np.arange(g2.nx) + 0.5) / d02.ratio
    ej = (d02.j_parent_start - 1.5) + (np.arange(g2.ny) + 0.5) / d02.ratio
    assert np.abs(fi - ei[None, :]).max() < 1e-6 and np.abs(fj - ej[:, None]).max() < 1e-6
    assert fi.min() >= margin and fj.min() >= margin
    assert fi.max() <= g1.nx - 1 - margin and fj.max() <= g1.ny - 1 - margin
    # Staggered extent must be whole parent cells: nx = ratio * k.
    assert g2.nx % d02.ratio == 0 and g2.ny % d02.ratio == 0
    assert d02.i_parent_start + g2.nx // d02.ratio <= g1.nx + 1


def check_rotation_against_real_sample():
    """Compare rotation_numeric with COSALPHA/SINALPHA stored in the real wrf_d01_allvars_cropped.nc."""
    for path in SAMPLE_ALLVARS:
        if path.exists():
            break
    else:
        print("  (real sample wrf_d01_allvars_cropped.nc not found: convention check skipped)")
        return None
    with netCDF4.Dataset(path) as ds:
        a = {k: ds.getncattr(k) for k in ("TRUELAT1", "TRUELAT2", "STAND_LON", "MOAD_CEN_LAT")}
        lat = ds["XLAT"][:].astype(np.float64)
        lon = ds["XLONG"][:].astype(np.float64)
        cs = ds["COSALPHA"][:].astype(np.float64)
        sn = ds["SINALPHA"][:].astype(np.float64)
    p = Projection(1, float(a["TRUELAT1"]), float(a["TRUELAT2"]), float(a["STAND_LON"]), float(a["MOAD_CEN_LAT"]))
    c, s = rotation_numeric(p, lat, lon)
    err = max(np.abs(c - cs).max(), np.abs(s - sn).max())
    err_flipped = np.abs(s + sn).max()
    assert err < 1e-4, f"rotation convention differs from the real sample ({err:.2e})"
    print(f"  COSALPHA/SINALPHA convention matches {path.name}: max |diff| {err:.1e} "
          f"(with SINALPHA's sign flipped it would be {err_flipped:.1e})")
    return err


# ----------------------------------------------------------------------------------------------
# Sample outputs

HOURS_SAMPLE = list(range(25))
SAMPLE_CLOUD_HEIGHTS = (1000.0, 5000.0)     # the two CLDFRA levels of the samples: low and middle cloud


def write_sample_wrf(out_dir: Path, weather: Weather):
    d01, d02 = sample_domains()
    check_nest_placement(d01, d02)
    files = {}
    for dom, fmt in ((d01, "NETCDF3_64BIT_OFFSET"), (d02, "NETCDF4")):
        fields = domain_surface(dom, weather, HOURS_SAMPLE, SAMPLE_CLOUD_HEIGHTS)
        err = check_lambert_rotation(dom.grid.proj, fields["XLAT"], fields["XLONG"],
                                     fields["COSALPHA"], fields["SINALPHA"])
        print(f"  d{dom.grid_id:02d}: numeric rotation == cone formula to {err:.1e}")
        if dom.grid_id == 1:
            # netCDF-3 cannot compress, so to hold the 5 MB budget d01 stores XLAT/XLONG and the static
            # fields once, without Time (as the real wrf_d01_allvars_cropped.nc does); d02 has them
            # with Time, as WRF writes them.
            f = build_wrf_file(dom, HOURS_SAMPLE, fields, fmt=fmt, coords_with_time=False,
                               static_with_time=False)
        else:
            f = build_wrf_file(dom, HOURS_SAMPLE, fields, fmt=fmt, compress=True, quantise_fields=True)
        name = f"wrfout_d{dom.grid_id:02d}_{wrf_time_string(SIM_START)}"
        files[dom.grid_id] = f.write(out_dir / name)
    return d01, d02, files


MM5_QUANT = {"t2": 2.0 ** -6, "q2": 2.0 ** -17, "u10": 2.0 ** -5, "v10": 2.0 ** -5, "rain_con": 2.0 ** -10,
             "rain_non": 2.0 ** -10, "pstarcrs": 2.0, "psealvlc": 2.0}


def write_mm5(out_dir: Path, weather: Weather):
    p = Projection(1, MM5["stdlat_1"], MM5["stdlat_2"], MM5["stdlon"], MM5["cen_lat"])
    g = MassGrid.centred(p, MM5["n_j"], MM5["n_i"], MM5["ds_km"] * 1000.0, MM5["cen_lat"], MM5["cen_lon"])
    lat, lon = g.latlon()
    hgt, land = weather.terrain(lat, lon)
    hours = list(range(0, 37, 3))
    s = weather.series(lat, lon, hgt, land, hours, Weather.CLOUD_HEIGHTS_4)
    cosa, sina = rotation_numeric(p, lat, lon)
    u10 = s["UE"] * cosa + s["VE"] * sina
    v10 = s["VE"] * cosa - s["UE"] * sina
    path = out_dir / "mm5_2026-11-22_00.nc"
    tmp = path.with_name(path.name + ".tmp")
    ds = netCDF4.Dataset(tmp, "w", format="NETCDF4_CLASSIC")
    try:
        ds.createDimension("time", None)
        ds.createDimension("i_cross", g.ny)
        ds.createDimension("j_cross", g.nx)
        t = ds.createVariable("time", "f4", ("time",))
        t.long_name = "time"
        t.units = "minutes since " + SIM_START.strftime("%Y-%m-%d %H:%M:%S")
        t[:] = np.array(hours, np.float32) * 60.0

        def scalar(name, dtype, value, **atts):
            v = ds.createVariable(name, dtype, ())
            v.setncatts(atts)
            v.assignValue(value)

        scalar("map_proj_code", "i4", 1, long_name="map projection: 1 Lambert conformal, 2 polar stereographic, 3 Mercator")
        scalar("stdlat_1", "f4", MM5["stdlat_1"], long_name="first true latitude", units="degrees_north")
        scalar("stdlat_2", "f4", MM5["stdlat_2"], long_name="second true latitude", units="degrees_north")
        scalar("stdlon", "f4", MM5["stdlon"], long_name="standard longitude", units="degrees_east")
        scalar("grid_ds", "f4", MM5["ds_km"], long_name="grid distance", units="km")
        scalar("ptop", "f4", MM5["ptop"], long_name="pressure at model top", units="Pa")
        dims = ("time", "i_cross", "j_cross")
        spec = [("t2", "temperature at 2 m", "K", s["T2"]),
                ("q2", "mixing ratio at 2 m", "kg kg-1", s["Q2"]),
                ("u10", "u at 10 m (grid relative)", "m s-1", u10),
                ("v10", "v at 10 m (grid relative)", "m s-1", v10),
                ("rain_con", "accumulated convective precipitation", "cm", (s["RAINC"] + s["RAINSH"]) / 10.0),
                ("rain_non", "accumulated non-convective precipitation", "cm", s["RAINNC"] / 10.0),
                ("pstarcrs", "p* = surface pressure - ptop (cross points)", "Pa", s["PSFC"] - MM5["ptop"]),
                ("psealvlc", "sea level pressure (cross points)", "Pa", s["SLP"])]
        for name, ln, un, data in spec:
            v = ds.createVariable(name, "f4", dims, zlib=True, shuffle=True, complevel=9,
                                  chunksizes=(1, g.ny, g.nx))
            v.long_name, v.units = ln, un
            v[:] = quantise(data, MM5_QUANT[name])
        for name, ln, un, data in (("latitcrs", "latitude (cross points)", "degrees_north", lat),
                                   ("longicrs", "longitude (cross points)", "degrees_east", lon),
                                   ("terrain", "terrain elevation", "m", hgt)):
            v = ds.createVariable(name, "f4", ("i_cross", "j_cross"), zlib=True, shuffle=True, complevel=9)
            v.long_name, v.units = ln, un
            v[:] = np.asarray(data, np.float32)
        ds.setncatts({"title": "MM5 output converted to netCDF (archiver convention)",
                      "source": "synthetic, Scripts/make_sample_grids.py",
                      "model": "MM5 V3", "grid_type": "cross points",
                      "start_date": SIM_START.strftime("%Y-%m-%d_%H:%M:%S"),
                      "earth_radius_km": np.float32(6370.0),
                      "cen_lat": np.float32(MM5["cen_lat"]), "cen_lon": np.float32(MM5["cen_lon"]),
                      "Conventions": "none (MM5 archiver)"})
    finally:
        ds.close()
    os.replace(tmp, path)
    return path, g


# ----------------------------------------------------------------------------------------------
# Expected values (computed from what the files store, with wrf-python's formulas)

def rh2_wrfpython(t2, q2, psfc):
    es = 6.112 * np.exp(17.67 * (t2 - 273.15) / (t2 - 29.65))
    qvs = 0.622 * es / (0.01 * psfc - (1.0 - 0.622) * es)
    return 100.0 * np.maximum(np.minimum(q2 / qvs, 1.0), 0.0)


def td2_wrfpython(q2, psfc):
    q = np.maximum(q2, 0.0)
    e = np.maximum(q * (psfc * 0.01) / (0.622 + q), 0.001)
    return (243.5 * np.log(e / 6.112)) / (17.67 - np.log(e / 6.112))


def first_frame(var):
    """A 2-D coordinate field, whether or not it has a Time dimension."""
    return var[0] if var.dimensions[0] == "Time" else var[:]


def read_frame_value(ds, name, frame, j, i):
    v = ds[name]
    v.set_auto_maskandscale(False)
    if v.dimensions[0] == "Time":
        return float(v[frame, j, i])
    return float(v[j, i])


SAMPLE_POINTS = {
    # file id: list of (frame, i (west_east), j (south_north), note)
    1: [(0, 0, 0, "south-west corner, sea, 00Z"),
        (24, 42, 67, "north-east corner (last row and column), 24Z"),
        (6, None, None, "Serra da Estrela, 06Z (cold, high ground)"),
        (15, None, None, "Serra da Estrela, 15Z"),
        (10, None, None, "Lisbon, 10Z (front passing)"),
        (15, 30, 40, "inland, 15Z (warm)"),
        (6, 30, 40, "inland, 06Z (cold)"),
        (12, 5, 30, "Atlantic, 12Z")],
    2: [(0, 0, 0, "nest south-west corner, 00Z"),
        (24, 65, 65, "nest north-east corner, 24Z"),
        (10, None, None, "Lisbon, 10Z (front passing)"),
        (15, None, None, "Lisbon, 15Z (behind the front)"),
        (6, 60, 20, "nest south-east, 06Z"),
        (12, 8, 50, "nest Atlantic, 12Z"),
        (18, 33, 33, "nest centre, 18Z")],
}
NAMED_POINTS = {"Serra da Estrela": (40.32, -7.61), "Lisbon": LISBON}


def nearest_cell(grid: MassGrid, lat, lon):
    fi, fj = grid.frac_index(lat, lon)
    return int(round(float(fi))), int(round(float(fj)))


def write_expected(out_dir: Path, doms, files):
    rows = []
    header = ["file", "frame", "time_utc", "i", "j", "lat", "lon", "hgt_m", "t2_K", "t2_C", "q2_kgkg",
              "psfc_Pa", "rh2_pct", "td2_C", "u10_grid_ms", "v10_grid_ms", "cosalpha", "sinalpha",
              "u10_earth_ms", "v10_earth_ms", "wind_speed_10m_ms", "wind_direction_10m_deg",
              "precip_since_prev_frame_mm", "snownc_since_prev_frame_mm", "cloud_cover_pct", "swdown_Wm2",
              "note"]
    for dom in doms:
        path = files[dom.grid_id]
        with netCDF4.Dataset(path) as ds:
            for frame, i, j, note in SAMPLE_POINTS[dom.grid_id]:
                if i is None:
                    place = next(k for k in NAMED_POINTS if note.startswith(k))
                    i, j = nearest_cell(dom.grid, *NAMED_POINTS[place])
                val = {n: read_frame_value(ds, n, frame, j, i) for n in
                       ("XLAT", "XLONG", "HGT", "T2", "Q2", "PSFC", "U10", "V10", "COSALPHA", "SINALPHA", "SWDOWN")}
                acc = 0.0
                snow = 0.0
                if frame > 0:
                    for n in ("RAINC", "RAINNC", "RAINSH"):
                        acc += read_frame_value(ds, n, frame, j, i) - read_frame_value(ds, n, frame - 1, j, i)
                    snow = read_frame_value(ds, "SNOWNC", frame, j, i) - read_frame_value(ds, "SNOWNC", frame - 1, j, i)
                cld = ds["CLDFRA"]
                cld.set_auto_maskandscale(False)
                cc = float(np.max(cld[frame, :, j, i]))
                times = netCDF4.chartostring(ds["Times"][frame]).item()
                t2, q2, ps = val["T2"], val["Q2"], val["PSFC"]
                ue = val["U10"] * val["COSALPHA"] - val["V10"] * val["SINALPHA"]
                ve = val["V10"] * val["COSALPHA"] + val["U10"] * val["SINALPHA"]
                spd = math.hypot(ue, ve)
                wdir = (math.degrees(math.atan2(-ue, -ve)) + 360.0) % 360.0
                rows.append([path.name, frame, times.replace("_", "T") + "Z", i, j,
                             f"{val['XLAT']:.6f}", f"{val['XLONG']:.6f}", f"{val['HGT']:.3f}",
                             f"{t2:.4f}", f"{t2 - 273.15:.4f}", f"{q2:.8f}", f"{ps:.2f}",
                             f"{float(rh2_wrfpython(t2, q2, ps)):.4f}", f"{float(td2_wrfpython(q2, ps)):.4f}",
                             f"{val['U10']:.4f}", f"{val['V10']:.4f}", f"{val['COSALPHA']:.7f}",
                             f"{val['SINALPHA']:.7f}", f"{ue:.4f}", f"{ve:.4f}", f"{spd:.4f}", f"{wdir:.3f}",
                             f"{acc:.4f}", f"{snow:.4f}", f"{cc * 100.0:.3f}", f"{val['SWDOWN']:.3f}", note])
    with open(out_dir / "expected_derived.csv", "w", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)
    return len(rows)


def write_expected_nest(out_dir: Path, d01: Domain, d02: Domain, files):
    with netCDF4.Dataset(files[2]) as ds:
        lat = first_frame(ds["XLAT"]).astype(np.float64)
        lon = first_frame(ds["XLONG"]).astype(np.float64)
    with netCDF4.Dataset(files[1]) as ds:
        lat1 = float(first_frame(ds["XLAT"])[0, 0])
        lon1 = float(first_frame(ds["XLONG"])[0, 0])
    # Independent of d01's generator: project with d01's attributes, anchored at d01's stored [0,0].
    p = d01.grid.proj
    x00, y00 = p.fwd(lon1, lat1)
    pts = [(0, 0), (65, 0), (0, 65), (65, 65), (32, 32), (33, 33), (5, 5), (60, 60), (10, 40), (40, 10)]
    with open(out_dir / "expected_nest.csv", "w", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["d02_i", "d02_j", "lat", "lon", "d01_i_from_attributes", "d01_j_from_attributes",
                    "d01_i_from_latlon", "d01_j_from_latlon"])
        for i, j in pts:
            ia = (d02.i_parent_start - 1.5) + (i + 0.5) / d02.ratio
            ja = (d02.j_parent_start - 1.5) + (j + 0.5) / d02.ratio
            x, y = p.fwd(lon[j, i], lat[j, i])
            il = (float(x) - float(x00)) / d01.grid.dx_m
            jl = (float(y) - float(y00)) / d01.grid.dx_m
            assert abs(il - ia) < 2e-3 and abs(jl - ja) < 2e-3, (i, j, ia, il, ja, jl)
            w.writerow([i, j, f"{lat[j, i]:.6f}", f"{lon[j, i]:.6f}", f"{ia:.6f}", f"{ja:.6f}",
                        f"{il:.6f}", f"{jl:.6f}"])


def sanity_check_file(path: Path):
    """Plausibility checks on a written WRF file."""
    with netCDF4.Dataset(path) as ds:
        ds.set_auto_mask(False)
        t2 = ds["T2"][:]
        q2 = ds["Q2"][:]
        assert np.isfinite(t2).all() and 255.0 < t2.min() and t2.max() < 300.0, (t2.min(), t2.max())
        assert q2.min() > 0.0 and q2.max() < 0.02
        for n in ("RAINC", "RAINNC", "RAINSH", "SNOWNC"):
            a = ds[n][:]
            assert a[0].max() == 0.0 and (np.diff(a, axis=0) >= 0).all(), n
        assert (ds["SNOWNC"][:] <= ds["RAINNC"][:] + 1e-6).all()
        c = ds["CLDFRA"][:]
        assert c.min() >= 0.0 and c.max() <= 1.0
        sw = ds["SWDOWN"][:]
        assert sw.min() >= 0.0
        hgt = ds["HGT"][:]
        land = ds["LANDMASK"][:]
        assert (hgt[land == 0] == 0).all()
        return dict(t2=(float(t2.min()), float(t2.max())), hgt_max=float(hgt.max()),
                    rain_max=float((ds["RAINC"][-1] + ds["RAINNC"][-1] + ds["RAINSH"][-1]).max()),
                    snow_max=float(ds["SNOWNC"][-1].max()))


def write_samples(out_dir: Path):
    out_dir.mkdir(parents=True, exist_ok=True)
    weather = Weather(SEED)
    print("checking the COSALPHA/SINALPHA convention")
    check_rotation_against_real_sample()
    print("writing WRF samples")
    d01, d02, files = write_sample_wrf(out_dir, weather)
    for gid, path in files.items():
        info = sanity_check_file(path)
        print(f"  {path.name}: {path.stat().st_size:,} bytes; {info}")
    print(f"  d02 I_PARENT_START={d02.i_parent_start} J_PARENT_START={d02.j_parent_start}; "
          f"d02 centre {d02.cen_lat:.4f} {d02.cen_lon:.4f}")
    mm5, _ = write_mm5(out_dir, weather)
    print(f"  {mm5.name}: {mm5.stat().st_size:,} bytes")
    n = write_expected(out_dir, (d01, d02), files)
    write_expected_nest(out_dir, d01, d02, files)
    print(f"  expected_derived.csv: {n} rows; expected_nest.csv written")
    total = sum(p.stat().st_size for p in list(files.values()) + [mm5, out_dir / "expected_derived.csv",
                                                                    out_dir / "expected_nest.csv"])
    print(f"total {total:,} bytes")


# ----------------------------------------------------------------------------------------------
# Benchmark-size run (--full)

def eta_levels(nz):
    k = np.arange(nz + 1, dtype=np.float64) / nz
    znw = np.clip(1.0 - k ** 1.35, 0.0, 1.0)
    znw[-1] = 0.0
    znu = 0.5 * (znw[:-1] + znw[1:])
    return znu, znw


def stagger_x(a):
    out = np.empty(a.shape[:-1] + (a.shape[-1] + 1,), a.dtype)
    out[..., 1:-1] = 0.5 * (a[..., :-1] + a[..., 1:])
    out[..., 0] = a[..., 0]
    out[..., -1] = a[..., -1]
    return out


def stagger_y(a):
    out = np.empty(a.shape[:-2] + (a.shape[-2] + 1, a.shape[-1]), a.dtype)
    out[..., 1:-1, :] = 0.5 * (a[..., :-1, :] + a[..., 1:, :])
    out[..., 0, :] = a[..., 0, :]
    out[..., -1, :] = a[..., -1, :]
    return out


class Column3D:
    """Vectorised 3-D state for one frame from the surface state (hydrostatic, dry eta levels)."""

    PTOP = 5000.0

    def __init__(self, nz):
        self.nz = nz
        self.znu, self.znw = eta_levels(nz)

    def frame(self, sfc, k, hgt, cosa, sina, rain_rate):
        f32 = np.float32
        nz, ptop = self.nz, self.PTOP
        psfc = sfc["PSFC"][k]
        t2 = sfc["T2"][k]
        q2 = sfc["Q2"][k]
        znu = self.znu[:, None, None]
        znw = self.znw[:, None, None]
        p = znu * (psfc - ptop) + ptop                              # (nz, ny, nx)
        pw = znw * (psfc - ptop) + ptop                             # (nz+1, ny, nx)
        pb_sfc = 101325.0 * np.exp(-G * hgt / (RD * 288.0))
        pb = znu * (pb_sfc - ptop) + ptop
        pbw = znw * (pb_sfc - ptop) + ptop
        # temperature: 6.5 K/km lapse in pressure form, isothermal above 216.65 K
        tk = np.maximum(t2 * (p / psfc) ** (RD * 0.0065 / G), 216.65)
        tbase = np.maximum(288.0 * (pb / pb_sfc) ** (RD * 0.0065 / G), 216.65)
        theta = tk * (1.0e5 / p) ** (RD / CP)
        qv = np.maximum(q2 * (p / psfc) ** 3.0, 1.0e-6)
        tv = tk * (1.0 + 0.61 * qv)
        # heights of the w levels by the hypsometric equation
        dz = RD * tv / G * np.log(pw[:-1] / pw[1:])
        z = np.concatenate([hgt[None], hgt[None] + np.cumsum(dz, axis=0)], axis=0)
        dzb = RD * tbase / G * np.log(pbw[:-1] / pbw[1:])
        zb = np.concatenate([hgt[None], hgt[None] + np.cumsum(dzb, axis=0)], axis=0)
        zm = 0.5 * (z[:-1] + z[1:])
        low, mid, high = sfc["_LAYERS"][k]
        cld = Weather.cloud_on_levels_3d(low, mid, high, zm)
        qc = np.where(tk > 253.0, 3.0e-4, 0.6e-4) * cld
        qr = (rain_rate * 6.0e-5)[None] * sigmoid((3000.0 - zm) / 400.0)
        # winds: surface wind growing with height plus a westerly jet near 10 km (earth-relative)
        grow = 1.0 + 0.8 * np.clip((zm - hgt[None]) / 3000.0, 0.0, 1.5)
        jet = 25.0 * np.exp(-((zm - 10000.0) / 3500.0) ** 2)
        ue = sfc["UE"][k][None] * grow + jet
        ve = sfc["VE"][k][None] * grow
        u = ue * cosa + ve * sina
        v = ve * cosa - ue * sina
        d1 = sfc["_D1"][k]
        w = (0.25 * np.exp(-((d1 + 10.0) / 40.0) ** 2))[None] * np.sin(np.pi * (1.0 - znw))
        return {
            "U": stagger_x(u).astype(f32), "V": stagger_y(v).astype(f32), "W": w.astype(f32),
            "PH": (G * (z - zb)).astype(f32), "PHB": (G * zb).astype(f32),
            "T": (theta - 300.0).astype(f32), "P": (p - pb).astype(f32), "PB": pb.astype(f32),
            "QVAPOR": qv.astype(f32), "QCLOUD": qc.astype(f32), "QRAIN": qr.astype(f32),
            "CLDFRA": cld.astype(f32),
        }


def _cloud_on_levels_3d(low, mid, high, z):
    wl = sigmoid((2500.0 - z) / 300.0)
    wm = sigmoid((z - 2500.0) / 300.0) * sigmoid((6500.0 - z) / 400.0)
    wh = sigmoid((z - 6500.0) / 400.0) * sigmoid((12000.0 - z) / 600.0)
    c = np.clip(np.maximum(np.maximum(low[None] * wl, mid[None] * wm), high[None] * wh), 0.0, 1.0)
    return np.where(c < 0.02, 0.0, c)


Weather.cloud_on_levels_3d = staticmethod(_cloud_on_levels_3d)


def full_domains():
    p = Projection(1, D01_FULL["truelat1"], D01_FULL["truelat2"], D01_FULL["stand_lon"], D01_FULL["cen_lat"])
    g1 = MassGrid.centred(p, D01_FULL["nx"], D01_FULL["ny"], D01_FULL["dx"], D01_FULL["cen_lat"], D01_FULL["cen_lon"])
    d01 = Domain(g1, grid_id=1, parent_id=1, cen_lat=D01_FULL["cen_lat"], cen_lon=D01_FULL["cen_lon"],
                 moad_cen_lat=D01_FULL["cen_lat"], dt_s=D01_FULL["dt"])
    i0, j0 = nest_start_for(g1, *LISBON, D02["ratio"], D02["nx"], D02["ny"])
    g2 = nest_grid(g1, i0, j0, D02["ratio"], D02["nx"], D02["ny"])
    d02 = Domain(g2, grid_id=2, parent_id=1, i_parent_start=i0, j_parent_start=j0, ratio=D02["ratio"],
                 moad_cen_lat=D01_FULL["cen_lat"], dt_s=D02["dt"])
    check_nest_placement(d01, d02)
    return d01, d02


def write_full(out_dir: Path, hours=72, frames_per_file=None):
    out_dir.mkdir(parents=True, exist_ok=True)
    weather = Weather(SEED)
    all_hours = list(range(hours + 1))
    fpf = frames_per_file or len(all_hours)
    col = Column3D(FULL_NZ)
    t_start = time.time()
    written = []
    for dom in full_domains():
        g = dom.grid
        lat, lon = g.latlon()
        hgt, land = weather.terrain(lat, lon)
        cosa, sina = rotation_numeric(g.proj, lat, lon)
        sfc = weather.series(lat, lon, hgt, land, all_hours, Weather.CLOUD_HEIGHTS_4)
        sfc["U10"] = sfc["UE"] * cosa + sfc["VE"] * sina
        sfc["V10"] = sfc["VE"] * cosa - sfc["UE"] * sina
        layers, d1s, rates = [], [], []
        for h in all_hours:
            layers.append(weather.cloud_layers(lat, lon, float(h)))
            d1s.append(Weather.front_distance_km(lat, lon, float(h), 0.0))
            rates.append(sum(weather.rain_rates(lat, lon, hgt, float(h))))
        sfc["_LAYERS"], sfc["_D1"] = layers, d1s
        lat_u, lon_u = g.latlon("X")
        lat_v, lon_v = g.latlon("Y")
        nz = FULL_NZ
        for first in range(0, len(all_hours), fpf):
            chunk = all_hours[first:first + fpf]
            nt = len(chunk)
            fields = {"XLAT": lat, "XLONG": lon, "HGT": hgt, "LANDMASK": land, "COSALPHA": cosa, "SINALPHA": sina}
            # None: the surface fields and CLDFRA are written frame by frame below
            fields.update({name: None for name in SURFACE_2D + ["CLDFRA"]})
            f = build_wrf_file(dom, chunk, fields, nz=nz, static_with_time=True)
            dims3 = {"U": ("Time", "bottom_top", "south_north", "west_east_stag"),
                     "V": ("Time", "bottom_top", "south_north_stag", "west_east"),
                     "W": ("Time", "bottom_top_stag", "south_north", "west_east"),
                     "PH": ("Time", "bottom_top_stag", "south_north", "west_east"),
                     "PHB": ("Time", "bottom_top_stag", "south_north", "west_east")}
            for name in ("U", "V", "W", "PH", "PHB", "T", "P", "PB", "QVAPOR", "QCLOUD", "QRAIN"):
                d = dims3.get(name, ("Time", "bottom_top", "south_north", "west_east"))
                coords = {"U": "XLONG_U XLAT_U XTIME", "V": "XLONG_V XLAT_V XTIME"}.get(name, "XLONG XLAT XTIME")
                f.add(WrfVar(name, d, "f4", None, wrf_attrs(name, coords)))
            for name, a in (("XLAT_U", lat_u), ("XLONG_U", lon_u)):
                f.add(WrfVar(name, ("Time", "south_north", "west_east_stag"), "f4",
                             np.broadcast_to(a.astype(np.float32), (nt,) + a.shape), wrf_attrs(name, "XLONG_U XLAT_U")))
            for name, a in (("XLAT_V", lat_v), ("XLONG_V", lon_v)):
                f.add(WrfVar(name, ("Time", "south_north_stag", "west_east"), "f4",
                             np.broadcast_to(a.astype(np.float32), (nt,) + a.shape), wrf_attrs(name, "XLONG_V XLAT_V")))
            f.add(WrfVar("ZNU", ("Time", "bottom_top"), "f4",
                         np.broadcast_to(col.znu.astype(np.float32), (nt, nz)), wrf_attrs("ZNU", None)))
            f.add(WrfVar("ZNW", ("Time", "bottom_top_stag"), "f4",
                         np.broadcast_to(col.znw.astype(np.float32), (nt, nz + 1)), wrf_attrs("ZNW", None)))
            f.add(WrfVar("P_TOP", ("Time",), "f4", np.full(nt, col.PTOP, np.float32), wrf_attrs("P_TOP", None)))
            name = f"wrfout_d{dom.grid_id:02d}_{wrf_time_string(SIM_START + dt.timedelta(hours=chunk[0]))}"
            path = out_dir / name
            tmp = f.write(path.with_name(name + ".partial"))
            with netCDF4.Dataset(tmp, "a") as ds:
                ds.set_fill_off()
                for kf, h in enumerate(chunk):
                    k = h
                    for n in SURFACE_2D:
                        ds[n][kf] = sfc[n][k].astype(np.float32)
                    three = col.frame(sfc, k, hgt, cosa, sina, rates[k])
                    for n, a in three.items():
                        ds[n][kf] = a
            os.replace(tmp, path)
            written.append(path)
            print(f"  {path.name}: {path.stat().st_size / 1e6:,.1f} MB ({time.time() - t_start:.1f} s)")
    total = sum(p.stat().st_size for p in written)
    print(f"full run: {len(written)} files, {total / 1e9:.3f} GB in {time.time() - t_start:.1f} s")
    return written


# ----------------------------------------------------------------------------------------------

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--full", metavar="DIR", help="write a benchmark-size run (about 1.5 GB) into DIR")
    ap.add_argument("--frames-per-file", type=int, default=None, metavar="N",
                    help="with --full: at most N frames per file (WRF's frames_per_outfile)")
    ap.add_argument("--hours", type=int, default=72, help="with --full: forecast length in hours (default 72)")
    ap.add_argument("--out", default=str(OUT_DIR), help="output folder for the samples (default SampleGrids/)")
    args = ap.parse_args(argv)
    if args.full:
        full = Path(args.full).resolve()
        if ROOT in full.parents or full == ROOT:
            ap.error("--full output must not go inside the repository")
        write_full(full, args.hours, args.frames_per_file)
    else:
        write_samples(Path(args.out))


if __name__ == "__main__":
    sys.exit(main())
