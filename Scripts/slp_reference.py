#!/usr/bin/env python3
"""Independent reference for WRF sea-level pressure: wrf-python's `slp`.

Uses wrf-python itself when it is importable. Otherwise (wrf-python 1.3.4.1 does not build
against numpy 2 without a Fortran compiler) it computes the same thing with numpy, transcribed
from the published Fortran of NCL/wrf-python, not from TileCast's Swift code:

  * wrf-python src/wrf/g_slp.py (get_slp): T + 300, P + PB, QVAPOR clipped at 0,
    (PH + PHB) / G destaggered to mass levels, TK from theta;
  * fortran/wrf_user.f90 DCOMPUTETK: TK = theta * (p / P1000MB) ** (RD / CP);
  * fortran/wrf_user.f90 DCOMPUTESEAPRS: the lowest level more than PCONST = 100 hPa above
    the surface, the virtual temperature there "interpolated" with the product of two logs
    (kept as published, it is what wrf-python computes), extrapolated to the surface and to
    sea level with USSALR, the "ridiculous MM5 test" (TC = 273.16 + 17.5), and
    p1 * exp(2 g z1 / (RD (T_sl + T_surf)));
  * fortran/wrf_constants.f90: RD = 287, CP = 1004.5, G = 9.81, USSALR = 0.0065,
    P1000MB = 1e5.

Usage: slp_reference.py FILE [--engine numpy|wrf]
Prints CSV rows "frame,j,i,slp_hPa" for every frame and mass cell (j south_north, i west_east).
"""
import sys

import numpy as np
from netCDF4 import Dataset

RD = 287.0
CP = 1004.5
G = 9.81
USSALR = 0.0065
P1000MB = 100000.0
TC = 273.16 + 17.5
PCONST = 10000.0


def slp_numpy(nc, frame):
    """wrf-python's slp in hPa for one frame, shape (south_north, west_east)."""
    def var(name):
        return np.asarray(nc.variables[name][frame], dtype=np.float64)

    p = var("P") + var("PB")                      # (k, j, i), Pa
    theta = var("T") + 300.0
    q = np.maximum(var("QVAPOR"), 0.0)
    z_stag = (var("PH") + var("PHB")) / G
    z = 0.5 * (z_stag[:-1] + z_stag[1:])          # destaggered to mass levels, m
    t = theta * (p / P1000MB) ** (RD / CP)        # K
    nz = p.shape[0]

    out = np.empty(p.shape[1:])
    for j in range(p.shape[1]):
        for i in range(p.shape[2]):
            col_p, col_t, col_q, col_z = p[:, j, i], t[:, j, i], q[:, j, i], z[:, j, i]
            # Fortran 1-based: level = least k with p(k) < p(1) - PCONST;
            # klo = max(level - 1, 1); khi = min(klo + 1, nz - 1). Here 0-based.
            above = np.nonzero(col_p < col_p[0] - PCONST)[0]
            if above.size == 0:
                out[j, i] = np.nan
                continue
            level = above[0]
            klo = max(level - 1, 0)
            khi = min(klo + 1, nz - 2)
            plo, phi = col_p[klo], col_p[khi]
            tlo = col_t[klo] * (1.0 + 0.608 * col_q[klo])
            thi = col_t[khi] * (1.0 + 0.608 * col_q[khi])
            zlo, zhi = col_z[klo], col_z[khi]
            p_at = col_p[0] - PCONST
            weight = np.log(p_at / phi) * np.log(plo / phi)
            t_at = thi - (thi - tlo) * weight
            z_at = zhi - (zhi - zlo) * weight
            t_surf = t_at * (col_p[0] / p_at) ** (USSALR * RD / G)
            t_sea = t_at + USSALR * z_at
            # The "ridiculous MM5 test", as wrf-python has it.
            if t_surf <= TC and not (t_sea < TC):
                t_sea = TC
            else:
                t_sea = TC - 0.005 * (t_surf - TC) ** 2
            out[j, i] = 0.01 * col_p[0] * np.exp(2.0 * G * col_z[0] / (RD * (t_sea + t_surf)))
    return out


def slp_wrf(nc, frame):
    import wrf  # noqa: import only when asked for
    return np.asarray(wrf.getvar(nc, "slp", timeidx=frame, units="hPa", meta=False), dtype=np.float64)


def main():
    if len(sys.argv) < 2:
        print("usage: slp_reference.py FILE [--engine numpy|wrf]", file=sys.stderr)
        return 2
    engine = "numpy"
    if "--engine" in sys.argv:
        engine = sys.argv[sys.argv.index("--engine") + 1]
    nc = Dataset(sys.argv[1])
    compute = slp_wrf if engine == "wrf" else slp_numpy
    frames = len(nc.dimensions["Time"])
    print("frame,j,i,slp_hPa")
    for frame in range(frames):
        slp = compute(nc, frame)
        for j in range(slp.shape[0]):
            for i in range(slp.shape[1]):
                print(f"{frame},{j},{i},{slp[j, i]:.6f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
