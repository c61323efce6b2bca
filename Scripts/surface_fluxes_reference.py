#!/usr/bin/env python3
"""Independent reference for issue 28's surface, land and radiation variables, from a WRF
history file, written from the published definitions (not from TileCast's Swift code):

  * latent_heat_flux, sensible_heat_flux (W/m2): Open-Meteo's sign, positive towards the
    surface (its evapotranspiration = max(0, -LH 3600 / 2.5e6) needs an evaporating surface's
    flux negative), so -LH and -HFX (WRF's are upward-positive).
  * evapotranspiration (mm): max(0, LH 3600 / 2.5e6) with WRF's upward LH.
  * snowfall_water_equivalent, hail, runoff, potential_evapotranspiration (mm): amounts over the
    hour ending at the time, from the accumulated SNOWNC, HAILNC, SFROFF + UDROFF and 1000 POTEVP
    (Noah accumulates POTEVP in metres of water): the difference of the totals between
    frames, spread evenly over the frames' interval (totals linear in time); unknown (nan) in
    the first frame's hour when the file does not start at the simulation start.
  * air_density_2m (kg/m3): e = q p / (0.622 + q) from Q2 and PSFC, rho = (p - e)/(Rd T2) +
    e/(Rv T2), Rd = 287.058, Rv = 461.495 J/(kg K).
  * soil_moisture_index_A_to_Bcm: SMCREL of the Noah layer.
  * shortwave_radiation_instant (W/m2): SWDOWN as written (instantaneous).
  * terrestrial_radiation_instant (W/m2): pvlib's extraterrestrial normal irradiance
    (get_extra_radiation, method "nrel": the SPA Earth-Sun distance, with Open-Meteo's solar
    constant 1367.7) times max(cos zenith, 0), zenith from pvlib's SPA (nrel_numpy, no
    refraction); terrestrial_radiation: its mean over the hour ending at the time, sampled
    every 10 s.

Usage: surface_fluxes_reference.py WRFOUT [--seed N] [--places N]

Rows: first every mass node at every frame time (the node's values), then --places seeded
places between nodes at half-hour times between frames (bilinear in grid-index space on the
file's own grid, the place projected with pyproj on WRF's 6370 km sphere, then linear in time).
Prints CSV: latitude,longitude,time, then one column per variable.
"""
import argparse
import datetime as dt
import os
import sys

import numpy as np
import pandas as pd
import pvlib
from netCDF4 import Dataset

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from moving_nest_reference import bilinear, half_way_between_frames, place_between_nodes, projection  # noqa: E402  (WRF's projections, bilinear in index space)

LAYERS = ["0_to_10cm", "10_to_40cm", "40_to_100cm", "100_to_200cm"]
INSTANT = ["latent_heat_flux", "sensible_heat_flux", "evapotranspiration", "air_density_2m",
           "shortwave_radiation_instant"] + [f"soil_moisture_index_{layer}" for layer in LAYERS]
AMOUNTS = ["snowfall_water_equivalent", "hail", "runoff", "potential_evapotranspiration"]
SUN = ["terrestrial_radiation", "terrestrial_radiation_instant"]


def extraterrestrial_horizontal(times, lat, lon):
    """pvlib: S0 (r0/r)^2 max(cos zenith, 0) at each time (UTC) at one place."""
    index = pd.DatetimeIndex(times, tz="UTC")
    position = pvlib.solarposition.get_solarposition(index, lat, lon, method="nrel_numpy")
    normal = pvlib.irradiance.get_extra_radiation(index, solar_constant=1367.7, method="nrel")
    return np.asarray(normal) * np.maximum(np.cos(np.radians(np.asarray(position["zenith"]))), 0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--seed", type=int, default=20261127)
    ap.add_argument("--places", type=int, default=500)
    args = ap.parse_args()
    with Dataset(args.file) as ds:
        ds.set_auto_mask(False)
        attributes = {k: ds.getncattr(k) for k in ("MAP_PROJ", "TRUELAT1", "TRUELAT2", "STAND_LON", "MOAD_CEN_LAT", "DX")}
        start = getattr(ds, "SIMULATION_START_DATE", None)
        texts = [b"".join(t).decode() for t in ds["Times"][:]]
        times = [dt.datetime.strptime(t, "%Y-%m-%d_%H:%M:%S") for t in texts]
        lat = np.asarray(ds["XLAT"][:], dtype=np.float64)
        lon = np.asarray(ds["XLONG"][:], dtype=np.float64)
        lat, lon = (lat[0], lon[0]) if lat.ndim == 3 else (lat, lon)

        def f(name):
            return np.asarray(ds[name][:], dtype=np.float64)

        lh, hfx, t2, q2, psfc = f("LH"), f("HFX"), f("T2"), f("Q2"), f("PSFC")
        e = q2 * psfc / (0.622 + q2)
        density = (psfc - e) / (287.058 * t2) + e / (461.495 * t2)
        smcrel = f("SMCREL")
        instants = {
            "latent_heat_flux": -lh, "sensible_heat_flux": -hfx, "lh_upward": lh, "air_density_2m": density,
            "shortwave_radiation_instant": f("SWDOWN"),
        }
        for k, layer in enumerate(LAYERS):
            instants[f"soil_moisture_index_{layer}"] = smcrel[:, k]
        # POTEVP: Noah adds ETP DT / (XLV rho_w) each step, metres of water (its units attribute
        # says W m-2).
        totals = {"snowfall_water_equivalent": f("SNOWNC"), "hail": f("HAILNC"), "runoff": f("SFROFF") + f("UDROFF"),
                  "potential_evapotranspiration": 1000 * f("POTEVP")}
    first_is_start = start is None or texts[0] == start
    # Each frame interval's amount per cell (frame 0's own interval: known only from the start).
    amounts = {}
    for name, total in totals.items():
        a = np.full(total.shape, np.nan)
        if first_is_start:
            a[0] = total[0]
        a[1:] = total[1:] - total[:-1]
        amounts[name] = np.maximum(a, 0)  # a drop is no negative amount (nan stays nan)
    hours = [(times[k] - times[k - 1]).total_seconds() / 3600 if k > 0 else np.nan for k in range(len(times))]

    p = projection(attributes)
    x0, y0 = p(lon[0, 0], lat[0, 0])
    dx = float(attributes["DX"])
    ny, nx = lat.shape
    rows = []
    # Every node at every frame.
    for k, when in enumerate(times):
        for j in range(ny):
            for i in range(nx):
                values = {name: v[k, j, i] for name, v in instants.items()}
                for name, a in amounts.items():
                    # The hour ending at the frame: a third of a 3-hour interval's amount.
                    values[name] = max(a[k, j, i] / hours[k], 0) if k > 0 or first_is_start else np.nan
                rows.append(((float(lat[j, i]), float(lon[j, i])), when, values))
    # Seeded places between nodes, at half-hour times between frames.
    rng = np.random.default_rng(args.seed)
    for _ in range(args.places):
        place, i, j = place_between_nodes(rng, p, x0, y0, dx, nx, ny)
        k, when = half_way_between_frames(rng, times)
        values = {name: 0.5 * (bilinear(v[k], i, j) + bilinear(v[k + 1], i, j)) for name, v in instants.items()}
        for name, a in amounts.items():
            # The hour ending half-way lies inside the interval (k, k + 1].
            values[name] = max(bilinear(a[k + 1], i, j) / hours[k + 1], 0)
        rows.append((place, when, values))

    columns = INSTANT + AMOUNTS + SUN
    print("latitude,longitude,time," + ",".join(columns))
    for place, when, values in rows:
        values["evapotranspiration"] = max(0.0, values["lh_upward"] * 3600 / 2.5e6)
        values["terrestrial_radiation_instant"] = float(extraterrestrial_horizontal([when], place[0], place[1])[0])
        samples = [when - dt.timedelta(seconds=3600) + dt.timedelta(seconds=5 + 10 * s) for s in range(360)]
        values["terrestrial_radiation"] = float(np.mean(extraterrestrial_horizontal(samples, place[0], place[1])))
        print(f"{place[0]!r},{place[1]!r},{when.strftime('%Y-%m-%dT%H:%MZ')}," + ",".join(f"{values[c]:.6f}" for c in columns))


if __name__ == "__main__":
    main()
