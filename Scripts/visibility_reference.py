#!/usr/bin/env python3
"""Independent reference for `visibility` (m), from a WRF history file.

Transcribed from NCEP's Unified Post Processor, routine CALVIS_GSD (NOAA-EMC/UPP,
sorc/ncep_post.fd/CALVIS_GSD.f, commit 54123f9), with the WRF reading of UPP's INITPOST.F,
not from TileCast's Swift code. Applied to the lowest model level only (bottom_top = 0),
as TileCast does (CALVIS_GSD takes the maximum over the lowest 3 levels, RH over 2):

  theta = T + 300; p = P + PB (Pa); t = theta (p * 1e-5) ** CAPA, CAPA = 0.28589641
  q = QVAPOR / (1 + QVAPOR)                      (INITPOST: specific humidity)
  TV = t (1 + 0.608 q); RHOAIR = p / (287.04 TV)
  VOVERMD = (1 + q) / RHOAIR + (QCLW + QRAIN) / 1000 + (QGRAUPEL + QCLICE + QSNOW) / 917
  CONC_x = q_x / VOVERMD * 1000                  (g/m3)
  temp_fac = min(1, max(t - 271.15, 0)); coef_snow = 10 (1 - temp_fac) + 6 temp_fac
  BETAV = 327.8 CONCFC ** 1 + coef_snow CONCFP ** 1 + 144.7 CONCLC ** 0.88
          + 2.24 CONCLP ** 0.75 + 4.0 CONCFG ** 0.75 + 1e-10   (/km)
  VIS = min(90, 3.0 / BETAV)                     (km)
  RH: Tx = t - 273.15, POL = UPP's polynomial, ES = 6.1078 / POL ** 8,
      E = p / 100 q / (0.62197 + 0.37803 q), RH = min(1, E / ES)
  qrh = max(0, min(0.8, RH - 0.15)); visrh = 90 exp(-2.5 qrh)
  vis = min(VIS, visrh) km, no day/night factor, no shear term, no aerosol/blowing snow,
  capped at 24.135 km (UPP CALVIS's cap), in metres.

Hydrometeors below zero count as zero (CALVIS_GSD's running maximum starts at 0); a
species the file lacks (QGRAUP) counts as zero.

Usage: visibility_reference.py FILE
Prints CSV rows "visibility,frame,j,i,value" for every frame and mass cell.
"""
import sys

import numpy as np
from netCDF4 import Dataset

CAPA = 0.28589641
RD = 287.04
D608 = 0.608


def lowest(nc, name, frame):
    """Level 0 of a (Time, bottom_top, south_north, west_east) field, float64; None if absent."""
    if name not in nc.variables:
        return None
    return np.asarray(nc.variables[name][frame, 0, :, :], dtype=np.float64)


def upp_rh(p, t, q):
    tx = t - 273.15
    pol = 0.99999683 + tx * (-0.90826951e-02 + tx * (0.78736169e-04 + tx * (-0.61117958e-06
          + tx * (0.43884187e-08 + tx * (-0.29883885e-10 + tx * (0.21874425e-12 + tx * (-0.17892321e-14
          + tx * (0.11112018e-16 + tx * (-0.30994571e-19)))))))))
    es = 6.1078 / pol ** 8
    e = p / 100.0 * q / (0.62197 + q * 0.37803)
    return np.where(np.abs(pol) > 0, np.minimum(1.0, e / es), 0.0)


def visibility(nc, frame):
    # Float32 sum as WRF's P + PB (the file stores both in float32).
    p = (np.asarray(nc.variables["P"][frame, 0], dtype=np.float32)
         + np.asarray(nc.variables["PB"][frame, 0], dtype=np.float32)).astype(np.float64)
    theta = np.asarray(nc.variables["T"][frame, 0], dtype=np.float32).astype(np.float64) + 300.0
    t = theta * (p * 1e-5) ** CAPA
    w = np.maximum(lowest(nc, "QVAPOR", frame), 0.0)
    q = w / (1.0 + w)
    zero = np.zeros_like(p)

    def species(name):
        field = lowest(nc, name, frame)
        return zero if field is None else np.maximum(field, 0.0)

    qclw, qrain, qclice, qsnow, qgraupel = (species(n) for n in ("QCLOUD", "QRAIN", "QICE", "QSNOW", "QGRAUP"))
    tv = t * (1.0 + D608 * q)
    rhoair = p / (RD * tv)
    vovermd = (1.0 + q) / rhoair + (qclw + qrain) / 1000.0 + (qgraupel + qclice + qsnow) / 917.0
    conclc = qclw / vovermd * 1000.0
    conclp = qrain / vovermd * 1000.0
    concfc = qclice / vovermd * 1000.0
    concfp = qsnow / vovermd * 1000.0
    concfg = qgraupel / vovermd * 1000.0
    temp_fac = np.minimum(1.0, np.maximum(t - 271.15, 0.0))
    coef_snow = 10.0 * (1.0 - temp_fac) + 6.0 * temp_fac
    betav = (327.8 * concfc ** 1.0 + coef_snow * concfp ** 1.0 + 144.7 * conclc ** 0.88
             + 2.24 * conclp ** 0.75 + 4.0 * concfg ** 0.75 + 1e-10)
    vis = np.minimum(90.0, 3.0 / betav)
    qrh = np.maximum(0.0, np.minimum(0.8, upp_rh(p, t, q) - 0.15))
    visrh = 90.0 * np.exp(-2.5 * qrh)
    return np.minimum(np.minimum(vis, visrh), 24.135) * 1000.0


def main(path):
    nc = Dataset(path)
    nc.set_auto_mask(False)
    print("variable,frame,j,i,value")
    for frame in range(nc.dimensions["Time"].size):
        field = visibility(nc, frame)
        for j in range(field.shape[0]):
            for i in range(field.shape[1]):
                print(f"visibility,{frame},{j},{i},{field[j, i]:.4f}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
