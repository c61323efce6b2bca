#!/usr/bin/env python3
"""Write tiny WRF-like files for the bad inputs of SPEC section 8 into SampleGrids/edge-cases/.

Usage
    pip install -r Scripts/requirements.txt
    python3 Scripts/make_edge_cases.py            # (re)writes SampleGrids/edge-cases/ (well under 1 MB)

Every file follows the conventions of the real wrfout files (attributes, Times as
char(Time, DateStrLen=19), XTIME in minutes, WRF's 6370 km sphere); grids are about 8 x 6 with
4 hourly frames from 2026-11-22_00:00:00 unless a case needs more. Coordinates come from PROJ
(pyproj) on the 6370 km sphere: projecting a file's XLAT/XLONG with its own attributes, anchored
at its [0, 0] point, gives integer grid positions (checked here). SampleGrids/edge-cases/README.md
says what each file is and what a correct reader does with it. Deterministic: running twice gives
identical numbers. Shares the field generator with make_sample_grids.py (same folder), nothing
with the Swift engine.
"""

from __future__ import annotations

import csv
import datetime as dt
import math
import os
import shutil
import sys
from pathlib import Path

import numpy as np
import netCDF4

sys.path.insert(0, str(Path(__file__).resolve().parent))
import make_sample_grids as msg  # noqa: E402
from make_sample_grids import (Domain, MassGrid, Projection, SIM_START, Weather, WrfVar,  # noqa: E402
                               build_wrf_file, domain_surface, nest_grid, rotation_numeric,
                               wrf_time_string)

OUT = msg.ROOT / "SampleGrids" / "edge-cases"
HOURS4 = [0, 1, 2, 3]
HOURS6 = [0, 1, 2, 3, 4, 5]
HEIGHTS = msg.SAMPLE_CLOUD_HEIGHTS
WEATHER = Weather(msg.SEED)


def wrf_name(grid_id, when: dt.datetime, nocolons=False):
    s = f"wrfout_d{grid_id:02d}_{wrf_time_string(when)}"
    return s.replace(":", "_") if nocolons else s


def portugal_domain(nx=8, ny=6, dx=15000.0, stand_lon=-8.0, truelat1=37.0, truelat2=42.0,
                    cen_lat=39.3, cen_lon=-8.3, grid_id=1):
    p = Projection(1, truelat1, truelat2, stand_lon, cen_lat)
    g = MassGrid.centred(p, nx, ny, dx, cen_lat, cen_lon)
    return Domain(g, grid_id=grid_id, parent_id=1, cen_lat=cen_lat, cen_lon=cen_lon, moad_cen_lat=cen_lat,
                  dt_s=6.0 * dx / 1000.0)


def fields(dom, hours):
    return domain_surface(dom, WEATHER, hours, HEIGHTS)


def borrowed_fields(dom, hours):
    """Weather values from a Portugal grid of the same shape, with this domain's own coordinates
    and rotation (the projection cases are about coordinates; the values just need to be sane)."""
    base = portugal_domain(dom.grid.nx, dom.grid.ny)
    f = fields(base, hours)
    lat, lon = dom.grid.latlon()
    cosa, sina = rotation_numeric(dom.grid.proj, lat, lon)
    f.update(XLAT=lat, XLONG=lon, COSALPHA=cosa, SINALPHA=sina)
    return f


def write(f, name):
    path = OUT / name
    f.write(path)
    return path


def check_integer_positions(path, tol=2e-4):
    """Project the stored XLAT/XLONG with the file's own attributes: positions must be integers."""
    with netCDF4.Dataset(path) as ds:
        a = {k: float(ds.getncattr(k)) for k in ("TRUELAT1", "TRUELAT2", "STAND_LON", "MOAD_CEN_LAT",
                                                  "POLE_LAT", "POLE_LON", "DX", "DY")}
        mp = int(ds.getncattr("MAP_PROJ"))
        latv = ds["XLAT"] if "XLAT" in ds.variables else ds["XLAT_M"]
        lonv = ds["XLONG"] if "XLONG" in ds.variables else ds["XLONG_M"]
        lat = msg.first_frame(latv).astype(np.float64)
        lon = msg.first_frame(lonv).astype(np.float64)
    p = Projection(mp, a["TRUELAT1"], a["TRUELAT2"], a["STAND_LON"], a["MOAD_CEN_LAT"], a["POLE_LAT"], a["POLE_LON"])
    x, y = p.fwd(lon, lat)
    d = p.native_spacing(a["DX"])
    fi = (x - x[0, 0]) / d
    fj = (y - y[0, 0]) / d
    ii, jj = np.meshgrid(np.arange(lat.shape[1]), np.arange(lat.shape[0]))
    err = max(np.abs(fi - ii).max(), np.abs(fj - jj).max())
    assert err < tol, (path.name, err)
    return err, p.proj4


# ----------------------------------------------------------------------------------------------

def case_baseline():
    dom = portugal_domain()
    f = fields(dom, HOURS4)
    nc3 = write(build_wrf_file(dom, HOURS4, f), "baseline.nc")
    return dom, f, nc3


def case_bucket(dom):
    hours = HOURS6
    f = fields(dom, hours)
    bucket = 10.0
    nx, ny = dom.grid.nx, dom.grid.ny
    ii, jj = np.meshgrid(np.arange(nx), np.arange(ny))
    rate_nc = 9.0 * ii / (nx - 1) * (0.5 + 0.5 * jj / (ny - 1))        # mm/h, 0 .. 9 (i = nx-1, j = ny-1)
    rate_c = 2.5 * jj / (ny - 1)                                         # mm/h, 0 .. 2.5
    tot_nc = np.stack([rate_nc * h for h in hours])
    tot_c = np.stack([rate_c * h for h in hours])

    def tip(total):
        # WRF: while RAINNC > BUCKET_MM: RAINNC -= BUCKET_MM; I_RAINNC += 1  (tips only above the bucket)
        n = np.floor(total / bucket)
        n = np.where((n > 0) & (total - n * bucket <= 0.0), n - 1, n)
        return (total - n * bucket).astype(np.float32), n.astype(np.int32)

    f["RAINNC"], f["I_RAINNC"] = tip(tot_nc)
    f["RAINC"], f["I_RAINC"] = tip(tot_c)
    f["SNOWNC"] = np.zeros_like(tot_nc)
    wf = build_wrf_file(dom, hours, f, bucket_mm=bucket)
    path = write(wf, "bucket_tipping.nc")
    with netCDF4.Dataset(path) as ds:
        rc, irc, rn, irn, rs = (ds[n][:].astype(np.float64) for n in ("RAINC", "I_RAINC", "RAINNC", "I_RAINNC", "RAINSH"))
    total = rc + rn + rs + (irc + irn) * bucket
    assert (np.diff(total, axis=0) >= -1e-4).all() and (np.diff(rn, axis=0) < 0).any() and irn.max() >= 3
    with open(OUT / "bucket_tipping_expected.csv", "w", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["frame", "i", "j", "RAINC", "I_RAINC", "RAINNC", "I_RAINNC", "RAINSH", "total_mm",
                    "precip_since_prev_frame_mm"])
        for i, j in ((nx - 1, ny - 1), (nx - 1, 0), (nx // 2, ny // 2), (0, ny - 1), (2, 2)):
            for k in range(len(hours)):
                prev = total[k - 1, j, i] if k else total[0, j, i]
                w.writerow([k, i, j, f"{rc[k, j, i]:.4f}", int(irc[k, j, i]), f"{rn[k, j, i]:.4f}",
                            int(irn[k, j, i]), f"{rs[k, j, i]:.4f}", f"{total[k, j, i]:.4f}",
                            f"{total[k, j, i] - prev:.4f}"])
    return path


def split_files(dom, f_all, hours, groups, folder, fmt_of=None, nocolons=False, alter=None):
    """Write frames `groups` (lists of indices into hours) as separate wrfout files in folder."""
    d = OUT / folder
    d.mkdir(parents=True, exist_ok=True)
    paths = []
    for n, grp in enumerate(groups):
        sub = {}
        for k, v in f_all.items():
            a = np.asarray(v)
            sub[k] = a[grp] if (a.ndim >= 3 and a.shape[0] == len(hours)) else a
        if alter:
            alter(n, grp, sub)
        fmt = fmt_of(n) if fmt_of else "NETCDF3_64BIT_OFFSET"
        # netCDF-4 here: fixed-size Time, contiguous, uncompressed (an unlimited dimension costs HDF5
        # about 3 KB of B-tree per variable, too much for these tiny files)
        wf = build_wrf_file(dom, [hours[g] for g in grp], sub, fmt=fmt, unlimited_time=(fmt != "NETCDF4"))
        name = wrf_name(dom.grid_id, SIM_START + dt.timedelta(hours=hours[grp[0]]), nocolons)
        paths.append(wf.write(d / name))
    return paths


def case_split(dom):
    f = fields(dom, HOURS6)
    split_files(dom, f, HOURS6, [[0, 1], [2, 3], [4, 5]], "split")
    split_files(dom, f, HOURS6, [[0, 1], [1, 2, 3], [4, 5]], "split-duplicate")

    def overlap(n, grp, sub):
        if n == 1:                        # its first frame (02:00) repeats file 0's last one, with other values
            sub["T2"] = sub["T2"].copy()
            sub["T2"][0] += 0.75
            for k in ("RAINNC", "RAINC"):
                sub[k] = sub[k].copy()
                sub[k][0] += 0.4
    split_files(dom, f, HOURS6, [[0, 1, 2], [2, 3], [4, 5]], "split-overlap", alter=overlap, nocolons=True)
    split_files(dom, f, HOURS6, [[0, 1], [3], [4, 5]], "split-gap")
    return split_files(dom, f, HOURS6, [[0, 1], [2, 3], [4, 5]], "split-mixed-format",
                       fmt_of=lambda n: "NETCDF4" if n == 1 else "NETCDF3_64BIT_OFFSET")


def case_restart(dom):
    hours = [9, 10, 11, 12]
    f = fields(dom, hours)                      # accumulations integrated from 00Z: non-zero at 09Z
    assert f["RAINNC"][0].max() > 0
    wf = build_wrf_file(dom, hours, f, start=SIM_START + dt.timedelta(hours=9))
    return write(wf, "restart.nc")


def case_long_runs(dom):
    """A restart segment 96 days into a long run, and a later file of a long run that was never
    restarted. As WRF writes them (its Registry: SIMULATION_START_DATE is the run's start and
    stays across restarts; START_DATE is this segment's start; XTIME counts minutes since the
    simulation start; with write_hist_at_0h_rst = .false., the default, a restart writes no frame
    at its own start)."""
    sim_start = SIM_START - dt.timedelta(days=96)
    lead = 96 * 24
    hours = [lead + 1, lead + 2, lead + 3]
    f = fields(dom, [1, 2, 3])                  # the weather of any three hours will do
    wf = build_wrf_file(dom, hours, f, sim_start=sim_start, start=SIM_START)
    write(wf, "restart_long.nc")
    hours = [lead + 0, lead + 1, lead + 2, lead + 3]
    f = fields(dom, HOURS4)
    wf = build_wrf_file(dom, hours, f, sim_start=sim_start)
    return write(wf, "long_run_day96.nc")


def case_times(dom, f):
    wf = build_wrf_file(dom, HOURS4, f)
    wf.vars["Times"].data = msg.times_char(["0000-00-00_00:00:00"] * len(HOURS4))
    write(wf, "times_garbled.nc")
    wf = build_wrf_file(dom, HOURS4, f)
    t = [wrf_time_string(SIM_START + dt.timedelta(hours=h)) for h in HOURS4]
    t[2] = "2026-13-45_99:00:00"
    wf.vars["Times"].data = msg.times_char(t)
    write(wf, "times_garbled_one_frame.nc")
    wf = build_wrf_file(dom, HOURS4, f)
    del wf.vars["Times"]
    write(wf, "times_missing.nc")
    wf = build_wrf_file(dom, HOURS4, f)
    del wf.vars["Times"]
    del wf.vars["XTIME"]
    write(wf, "times_and_xtime_missing.nc")


def case_coordinates(dom, f):
    wf = build_wrf_file(dom, HOURS4, f)
    for old, new, desc, units in (("XLAT", "XLAT_M", "Latitude on mass grid", "degrees latitude"),
                                  ("XLONG", "XLONG_M", "Longitude on mass grid", "degrees longitude")):
        v = wf.vars.pop(old)
        a = np.asarray(v.data)[0]
        wf.add(WrfVar(new, ("south_north", "west_east"), "f4", a,
                      {"FieldType": np.int32(104), "MemoryOrder": "XY ", "units": units, "description": desc,
                       "stagger": "M", "sr_x": np.int32(1), "sr_y": np.int32(1)}))
    for v in wf.vars.values():
        if "coordinates" in v.attrs:
            v.attrs["coordinates"] = "XLONG_M XLAT_M XTIME"
    write(wf, "geo_em_naming.nc")
    write(build_wrf_file(dom, HOURS4, f, coords_with_time=False), "xlat_no_time.nc")


def case_missing_vars(dom, f):
    wf = build_wrf_file(dom, HOURS4, f)
    del wf.vars["U10"], wf.vars["V10"]
    write(wf, "no_uv10.nc")
    wf = build_wrf_file(dom, HOURS4, f)
    del wf.vars["RAINSH"]
    write(wf, "no_rainsh.nc")
    # COSALPHA/SINALPHA missing, on a grid far from STAND_LON so the rotation matters (about 7.4 deg).
    off = portugal_domain(stand_lon=-20.0)
    fo = fields(off, HOURS4)
    write(build_wrf_file(off, HOURS4, fo), "stand_lon_offset.nc")
    wf = build_wrf_file(off, HOURS4, fo)
    del wf.vars["COSALPHA"], wf.vars["SINALPHA"]
    path = write(wf, "no_alpha.nc")
    with netCDF4.Dataset(OUT / "stand_lon_offset.nc") as ds:
        c, s = ds["COSALPHA"][0], ds["SINALPHA"][0]
        u, v = ds["U10"][0], ds["V10"][0]
    with open(OUT / "no_alpha_expected.csv", "w", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["i", "j", "cosalpha", "sinalpha", "u10_grid_ms", "v10_grid_ms", "u10_earth_ms", "v10_earth_ms"])
        for j in range(0, off.grid.ny, 3):
            for i in range(0, off.grid.nx, 3):
                cc, ss, uu, vv = (float(a[j, i]) for a in (c, s, u, v))
                w.writerow([i, j, f"{cc:.7f}", f"{ss:.7f}", f"{uu:.4f}", f"{vv:.4f}",
                            f"{uu * cc - vv * ss:.4f}", f"{vv * cc + uu * ss:.4f}"])
    return path


FILL_CELLS = [(1, 2, 3), (2, 5, 4), (2, 6, 4)]          # (frame, i, j) of T2 = _FillValue
NAN_CELLS = [("T2", 3, 6, 1), ("U10", 2, 4, 4), ("PSFC", 0, 1, 1)]
NEGQ_CELLS = [(1, 0, 5, -2.0e-5), (1, 7, 0, -1.0e-4), (3, 4, 2, -3.0e-6)]


def case_bad_values(dom, f):
    wf = build_wrf_file(dom, HOURS4, f)
    t2 = np.array(wf.vars["T2"].data, np.float32)
    for k, i, j in FILL_CELLS:
        t2[k, j, i] = msg.FILL_WRF
    wf.vars["T2"].data = t2
    wf.vars["T2"].attrs["_FillValue"] = msg.FILL_WRF
    for name, k, i, j in NAN_CELLS:
        a = np.array(wf.vars[name].data, np.float32)
        a[k, j, i] = np.nan
        wf.vars[name].data = a
    q2 = np.array(wf.vars["Q2"].data, np.float32)
    for k, i, j, val in NEGQ_CELLS:
        q2[k, j, i] = val
    wf.vars["Q2"].data = q2
    return write(wf, "fill_nan_negative_q2.nc")


def tiny_nest(parent: Domain, i0, j0, attr_i=None, attr_j=None, ratio=3, n=9):
    g = nest_grid(parent.grid, i0, j0, ratio, n, n)
    return Domain(g, grid_id=2, parent_id=1, i_parent_start=i0 if attr_i is None else attr_i,
                  j_parent_start=j0 if attr_j is None else attr_j, ratio=ratio,
                  moad_cen_lat=parent.moad_cen_lat, dt_s=parent.dt_s / ratio)


def case_nests(parent, parent_fields):
    # moving nest: the d02 (9 x 9, ratio 3) moves one parent cell (= 3 nest cells) east every hour
    d = OUT / "moving-nest"
    d.mkdir(parents=True, exist_ok=True)
    build_wrf_file(parent, HOURS4, parent_fields).write(d / wrf_name(1, SIM_START))
    per_frame = [fields(tiny_nest(parent, 2 + k, 2), HOURS4) for k in range(len(HOURS4))]
    f = {}
    for key, a0 in per_frame[0].items():
        a0 = np.asarray(a0)
        if key in ("XLAT", "XLONG") or key in msg.STATIC_2D:        # static per position: one per frame
            f[key] = np.stack([np.asarray(per_frame[k][key]) for k in range(len(HOURS4))])
        else:                                                        # frame k from the nest at position k
            f[key] = np.stack([np.asarray(per_frame[k][key])[k] for k in range(len(HOURS4))])
    wf = build_wrf_file(tiny_nest(parent, 2, 2), HOURS4, f)
    moving = wf.write(d / wrf_name(2, SIM_START))
    with netCDF4.Dataset(moving) as ds:
        lon = ds["XLONG"][:]
        assert not np.allclose(lon[0], lon[1])
    # inconsistent nest attributes: placed at (2, 2) but the attributes say (4, 3)
    d = OUT / "nest-inconsistent"
    d.mkdir(parents=True, exist_ok=True)
    build_wrf_file(parent, HOURS4, parent_fields).write(d / wrf_name(1, SIM_START))
    bad = tiny_nest(parent, 2, 2, attr_i=4, attr_j=3)
    build_wrf_file(bad, HOURS4, fields(bad, HOURS4)).write(d / wrf_name(2, SIM_START))


def projection_domain(map_proj, nx, ny, dx, cen_lat, cen_lon, truelat1=0.0, truelat2=0.0, stand_lon=0.0,
                      pole_lat=90.0, pole_lon=0.0):
    p = Projection(map_proj, truelat1, truelat2, stand_lon, cen_lat, pole_lat, pole_lon)
    g = MassGrid.centred(p, nx, ny, dx, cen_lat, cen_lon)
    return Domain(g, grid_id=1, parent_id=1, cen_lat=cen_lat, cen_lon=cen_lon, moad_cen_lat=cen_lat,
                  dt_s=min(6.0 * dx / 1000.0, 180.0))


PROJECTION_CASES = {
    # name: (MAP_PROJ, nx, ny, DX m, CEN_LAT, CEN_LON, TRUELAT1, TRUELAT2, STAND_LON, POLE_LAT, POLE_LON)
    "polar_stereo_south.nc": (2, 8, 6, 25000.0, -66.7, 140.0, -60.0, -60.0, 140.0, 90.0, 0.0),
    "rotated_pole.nc": (6, 8, 6, 0.25 * msg.R_EARTH * math.pi / 180.0, 50.0, 10.0, 0.0, 0.0, -10.0, 40.0, 180.0),
    "lambert_tangent.nc": (1, 8, 6, 15000.0, 40.0, -4.0, 40.0, 40.0, -4.0, 90.0, 0.0),
    "mercator_dateline.nc": (3, 10, 6, 240000.0, -17.0, 180.0, -15.0, 0.0, 180.0, 90.0, 0.0),
}


def case_projections():
    out = {}
    for name, (mp, nx, ny, dx, clat, clon, t1, t2, sl, plat, plon) in PROJECTION_CASES.items():
        dom = projection_domain(mp, nx, ny, dx, clat, clon, t1, t2, sl, plat, plon)
        f = borrowed_fields(dom, HOURS4)
        if mp in (1, 2):        # the numeric rotation must match the cone formula (PS: cone 1)
            msg.check_lambert_rotation(dom.grid.proj, f["XLAT"], f["XLONG"], f["COSALPHA"], f["SINALPHA"],
                                       cone=1.0 if mp == 2 else None)
        if mp == 3:
            assert np.abs(f["SINALPHA"]).max() < 1e-9
        path = write(build_wrf_file(dom, HOURS4, f), name)
        out[name] = check_integer_positions(path)
    out["stand_lon_offset.nc"] = check_integer_positions(OUT / "stand_lon_offset.nc")
    out["baseline.nc"] = check_integer_positions(OUT / "baseline.nc")
    with netCDF4.Dataset(OUT / "mercator_dateline.nc") as ds:
        lon = ds["XLONG"][0]
        assert lon[:, 0].min() > 169.0 and lon[:, -1].max() < -169.0, (lon[0, 0], lon[0, -1])
    return out


def case_damaged_headers(dom, f, nc3):
    """Headers that libnetcdf must never be handed: baseline.nc written as CDF-5 with its first
    dimension's name length set to 2^64 - 2 (libnetcdf 4.9.0 segfaults in nc_open on it), and
    baseline.nc cut inside its own header (libnetcdf opens it without error)."""
    tmp = build_wrf_file(dom, HOURS4, f, fmt="NETCDF3_64BIT_DATA").write(OUT / "header_impossible_cdf5.tmp.nc")
    data = bytearray(Path(tmp).read_bytes())
    Path(tmp).unlink()
    # CDF-5: "CDF" 5, numrecs (8 bytes), NC_DIMENSION tag (4), dimension count (8), then the
    # first dimension's name length (8) at byte 24.
    assert data[:4] == b"CDF\x05" and data[12:16] == b"\x00\x00\x00\x0a", data[:16]
    data[24:32] = (2**64 - 2).to_bytes(8, "big")
    (OUT / "header_impossible_cdf5.nc").write_bytes(bytes(data))
    (OUT / "header_cut_nc3.nc").write_bytes(Path(nc3).read_bytes()[:64])


def classic_header_file(dims, global_atts, variables):
    """Bytes of a netCDF-3 64-bit-offset file written field by field from the Classic Format
    Specification, so that a header may hold what libnetcdf itself refuses to write (a name
    longer than NC_MAX_NAME, a rank above NC_MAX_VAR_DIMS). dims: [(name, length)];
    global_atts: [(name, text)]; variables: [(name, [dimension index, ...])], each NC_FLOAT."""
    def u32(n):
        return int(n).to_bytes(4, "big")

    def name(text):
        raw = text.encode()
        return u32(len(raw)) + raw + b"\0" * (-len(raw) % 4)

    def atts(pairs):
        if not pairs:
            return u32(0) + u32(0)
        out = u32(0x0C) + u32(len(pairs))
        for key, value in pairs:
            raw = value.encode()
            out += name(key) + u32(2) + u32(len(raw)) + raw + b"\0" * (-len(raw) % 4)   # NC_CHAR
        return out

    head = b"CDF\x02" + u32(0)
    head += (u32(0x0A) + u32(len(dims)) + b"".join(name(n) + u32(length) for n, length in dims)) if dims else u32(0) * 2
    head += atts(global_atts)
    sizes = []
    for _, axes in variables:
        count = 1
        for axis in axes:
            count *= dims[axis][1]
        sizes.append(4 * count)
    # Each variable's entry ends with its 8-byte begin offset: lay the header out once with
    # zeros there to learn its length, then again with the real offsets.
    def var_list(begins):
        out = u32(0x0B) + u32(len(variables))
        for (vname, axes), size, begin in zip(variables, sizes, begins):
            out += name(vname) + u32(len(axes)) + b"".join(u32(a) for a in axes) + atts([])
            out += u32(5) + u32(size) + int(begin).to_bytes(8, "big")            # NC_FLOAT
        return out
    length = len(head) + len(var_list([0] * len(variables)))
    begins, at = [], length
    for size in sizes:
        begins.append(at)
        at += size
    return head + var_list(begins) + b"\0" * sum(sizes)


def case_long_names():
    """Headers that copy more than NC_MAX_NAME + 1 bytes (or NC_MAX_VAR_DIMS ids) into the
    buffers a reader gives libnetcdf 4.9.0's nc_inq_* calls: a heap overflow with bytes the
    file chose (issue 43 item 1). Each is otherwise a valid classic file."""
    cases = {
        "header_long_dimension_name.nc": ([("x" * 100_000, 2), ("y", 3)], [], [("T2", [0, 1])]),
        "header_long_attribute_name.nc": ([("west_east", 2)], [("A" * 5_000, "b" * 40)], [("T2", [0])]),
        "header_long_variable_name.nc": ([("west_east", 2)], [], [("V" * 300, [0])]),
        "header_rank_over_max.nc": ([("one", 1)], [], [("T2", [0] * 2_000)]),
    }
    for file, (dims, global_atts, variables) in cases.items():
        (OUT / file).write_bytes(classic_header_file(dims, global_atts, variables))
    # netCDF-4's HDF5 layer cuts a long dataset name near NC_MAX_NAME but hands back bytes past
    # its own buffer (260 bytes from this 600-byte name with libnetcdf 4.9.0). h5py writes what
    # libnetcdf refuses to.
    import h5py
    with h5py.File(OUT / "hdf5_long_variable_name.nc", "w", libver="earliest") as h5:
        h5.create_dataset("V" * 600, data=np.zeros((2, 3), dtype="f4"))
    # The writer itself, checked on a file netCDF4-python must read back as written.
    probe = OUT / "classic_writer_probe.tmp.nc"
    probe.write_bytes(classic_header_file([("west_east", 2), ("south_north", 3)], [("TITLE", "probe")],
                                          [("T2", [1, 0])]))
    with netCDF4.Dataset(probe) as ds:
        assert ds.getncattr("TITLE") == "probe" and ds["T2"].shape == (3, 2), ds
    probe.unlink()


def case_broken(nc3, nc4):
    """Truncated copies of a valid netCDF-3 (baseline.nc) and netCDF-4 file (split-mixed-format's middle file)."""
    for src, name in ((nc3, "truncated_nc3.nc"), (nc4, "truncated_nc4.nc")):
        data = Path(src).read_bytes()
        (OUT / name).write_bytes(data[: len(data) // 2])
    # HDF5 checksum failure: fletcher32 on T2 (uncompressed chunks), one byte of frame 1 flipped
    dom = portugal_domain()
    f = fields(dom, HOURS4)
    wf = build_wrf_file(dom, HOURS4, f, fmt="NETCDF4", unlimited_time=False)
    for name in list(wf.vars):                # a lean file: HDF5 costs about 4 KB per variable
        if name not in ("Times", "XTIME", "XLAT", "XLONG", "T2", "Q2", "PSFC", "HGT"):
            del wf.vars[name]
    case_damaged_headers(dom, f, nc3)
    case_long_names()
    path = OUT / "hdf5_checksum_failure.nc"
    tmp = wf.write(OUT / "hdf5_checksum_failure.tmp.nc")
    # rewrite T2 with fletcher32 through a copy (netCDF4-python sets it at creation)
    with netCDF4.Dataset(tmp) as src, netCDF4.Dataset(path.with_suffix(".part"), "w", format="NETCDF4") as dst:
        dst.setncatts({k: src.getncattr(k) for k in src.ncattrs()})
        for dname, dim in src.dimensions.items():
            dst.createDimension(dname, None if dim.isunlimited() else len(dim))
        for vname, v in src.variables.items():
            kw = {}
            if vname == "T2":
                kw["fletcher32"] = True
                kw["chunksizes"] = (1,) + v.shape[1:]
            else:
                kw["contiguous"] = True
            nv = dst.createVariable(vname, v.dtype, v.dimensions, **kw)
            nv.setncatts({k: v.getncattr(k) for k in v.ncattrs()})
            nv[:] = v[:]
        t2_frame1 = np.asarray(src["T2"][1], "<f4").tobytes()
    tmp.unlink()
    part = path.with_suffix(".part")
    data = bytearray(part.read_bytes())
    at = data.find(t2_frame1[:64])
    assert at > 0 and data.count(t2_frame1[:64]) == 1
    data[at + 100] ^= 0x40
    part.write_bytes(bytes(data))
    os.replace(part, path)
    with netCDF4.Dataset(path) as ds:
        ds["T2"][0]                                    # an intact chunk reads
        try:
            ds["T2"][1]
        except (RuntimeError, OSError):
            pass
        else:
            raise AssertionError("checksum corruption was not detected")
    return path


def write_readme(proj, sizes):
    fill = ", ".join(f"frame {k} (i={i}, j={j})" for k, i, j in FILL_CELLS)
    nan = ", ".join(f"{n} frame {k} (i={i}, j={j})" for n, k, i, j in NAN_CELLS)
    negq = ", ".join(f"frame {k} (i={i}, j={j}) = {v:g}" for k, i, j, v in NEGQ_CELLS)
    rows = [
        ("baseline.nc", "Valid reference: d01, 8 x 6 Lambert (TRUELAT 37/42, STAND_LON -8, 15 km), 4 hourly frames "
         "00Z-03Z, netCDF-3 64-bit offset, every variable of SPEC section 3 (CLDFRA 2 levels), XLAT/XLONG and static "
         "fields with Time. All other single-file cases are this file with one thing changed.",
         "Extract normally."),
                ("bucket_tipping.nc", "BUCKET_MM = 10; RAINNC/RAINC tip into the int buckets I_RAINNC/I_RAINC (WRF rule: tip when "
         "above the bucket), so RAINNC drops while I_RAINNC increments; 6 frames. "
         "RAINC + RAINNC + RAINSH + (I_RAINC + I_RAINNC) * BUCKET_MM is monotonic. "
         "`bucket_tipping_expected.csv` lists the parts and totals for five cells.",
         "precipitation per interval = difference of that total; never negative, never a 10 mm jump."),
        ("split/", "One d01 run over three files: frames 00-01, 02-03, 04-05 (hourly).",
         "Join into one 6-frame run."),
        ("split-duplicate/", "Like split/, but the second file starts with 01:00, an exact copy of the first file's last frame.",
         "Join into 6 frames; the identical duplicate is dropped (a note at most)."),
        ("split-overlap/", "Like split/, file names in WRF's colon-free form (nocolons: `_` for `:`); the first file holds "
         "00-02, the second starts with 02:00 whose values differ (T2 +0.75 K, RAINC/RAINNC +0.4 mm).",
         "Refuse with an error naming both files and 2026-11-22_02:00:00 (or apply one documented rule, e.g. latest "
         "file wins, and say so); never average or keep both silently."),
        ("split-gap/", "Files 00-01, 03, 04-05: the 02:00 frame is missing.",
         "Either refuse, or extract and report the gap; interpolation across the gap must be refused or flagged, and "
         "precipitation for 01-03 is the 2-hour difference, never attributed to one hour."),
        ("split-mixed-format/", "Like split/, the middle file is netCDF-4 (HDF5; fixed-size Time, contiguous, like the "
         "real ci_test_file.nc), the others netCDF-3 64-bit offset.",
         "Join into 6 frames; values identical to split/."),
        ("restart.nc", "Restart output: START_DATE 2026-11-22_09:00:00, SIMULATION_START_DATE 2026-11-22_00:00:00, frames "
         "09Z-12Z (XTIME 540-720 minutes since 00Z), no 0 h frame; accumulations already non-zero at 09Z.",
         "Cycle is 2026-11-22T00Z (the simulation start); data from 09Z on; the first precipitation interval starts at "
         "09Z (the 00-09Z accumulation is not precipitation in the 09Z hour)."),
        ("restart_long.nc", "A restart segment 96 days into a long run (how seasonal and climate runs are made): "
         "SIMULATION_START_DATE 2026-08-18_00:00:00, START_DATE 2026-11-22_00:00:00, frames 01Z-03Z of 2026-11-22 "
         "(no frame at the restart itself, WRF's default), XTIME 138300 + 60-180 minutes since 2026-08-18.",
         "Extract: cycle 2026-08-18T00Z by default (the run), or 2026-11-22T00Z with --cycle (the segment); "
         "never refused for its length."),
        ("long_run_day96.nc", "A later output file of a long run never restarted: SIMULATION_START_DATE = START_DATE "
         "2026-08-18_00:00:00, frames 00Z-03Z of 2026-11-22 (XTIME in minutes since 2026-08-18).",
         "Extract; cycle 2026-08-18T00Z."),
        ("times_garbled.nc", "Every Times entry is `0000-00-00_00:00:00`; XTIME (minutes since 2026-11-22 00:00:00) is valid.",
         "Use XTIME with its units: frames 00Z-03Z; a warning naming Times."),
        ("times_garbled_one_frame.nc", "Times of frame 2 is `2026-13-45_99:00:00`, the others valid; XTIME valid.",
         "Same as above (XTIME), or refuse naming the frame; never a crash."),
        ("times_missing.nc", "No Times variable; XTIME present.", "Use XTIME: frames 00Z-03Z."),
        ("times_and_xtime_missing.nc", "Neither Times nor XTIME.",
         "Exit 3 with an error naming the file and the missing time axis (Times/XTIME)."),
        ("geo_em_naming.nc", "Coordinates named XLAT_M/XLONG_M (geo_em/met_em style), without Time; no XLAT/XLONG.",
         "Accept XLAT_M/XLONG_M as coordinates (profile aliases); extract normally."),
        ("xlat_no_time.nc", "XLAT/XLONG (south_north, west_east) without the Time dimension.", "Extract normally."),
        ("no_uv10.nc", "U10 and V10 absent.", "Skip wind speed/direction (and apparent temperature if it needs wind) "
         "with a warning naming U10/V10; everything else extracted."),
        ("no_rainsh.nc", "RAINSH absent.", "precipitation = RAINC + RAINNC (no warning needed beyond a note)."),
        ("stand_lon_offset.nc", "Lambert with STAND_LON -20 while CEN_LON is -8.3: the grid is rotated about 7.4 deg "
         "against true north; stores COSALPHA/SINALPHA.", "Extract normally; earth-relative winds use COSALPHA/SINALPHA."),
        ("no_alpha.nc", "stand_lon_offset.nc without COSALPHA/SINALPHA. `no_alpha_expected.csv` gives the rotation "
         "and earth-relative 10 m wind of frame 0 at some cells (from stand_lon_offset.nc).",
         "Compute the rotation from the projection (to about 1e-5) and give the same earth-relative winds."),
        ("fill_nan_negative_q2.nc", f"T2 has _FillValue = 9.96921e36 and holds it at {fill}; NaN at {nan}; negative Q2 at "
         f"{negq}.", "Fill and NaN cells are missing data: never stored or returned as numbers (a query touching them "
         "returns no value for that time, or the file is refused with a message naming variable and cells). "
         "Negative Q2: wrf-python clamps q at 0 (RH 0 %, dew point from e = 0.001 hPa, about -80.5 C); "
         "a reader either does the same or reports the cells; never NaN, never a crash."),
        ("moving-nest/", "The baseline d01 (8 x 6, 15 km) and a d02 (9 x 9, ratio 3, 5 km) that moves one parent cell "
         "(three nest cells) east every hour: XLAT/XLONG and the static fields change per frame; the global "
         "I_PARENT_START (2) is the initial position (frames at I = 2, 3, 4, 5; J = 2).",
         "Detect that the coordinates change over time; either handle the nest per frame or refuse it clearly "
         "(naming the file and XLAT/XLONG); never use frame 0's grid for later frames."),
        ("nest-inconsistent/", "The baseline d01 and a d02 (9 x 9, ratio 3) whose coordinates put it at I_PARENT_START 2, "
         "J_PARENT_START 2, but whose attributes say 4 and 3.",
         "Report the inconsistency (naming the attributes and the file); place the nest by its own XLAT/XLONG (or "
         "refuse), never by the attributes."),
        ("polar_stereo_south.nc", "Polar stereographic, southern hemisphere: TRUELAT1 -60, STAND_LON 140, 8 x 6 at 25 km "
         "centred at 66.7 S 140 E.", "Project XLAT/XLONG to integer grid positions; extract normally."),
        ("rotated_pole.nc", "Rotated-pole lat-lon (MAP_PROJ 6): POLE_LAT 40, POLE_LON 180, STAND_LON -10, 8 x 6 at "
         "0.25 rotated degrees (DX 27795.6 m = 0.25 * 6370000 * pi/180), centred at 50 N 10 E; mapping as in "
         "wrf-python's RotatedLatLon.", "Project XLAT/XLONG to integer grid positions; extract normally."),
        ("lambert_tangent.nc", "Tangent Lambert: TRUELAT1 = TRUELAT2 = 40, STAND_LON -4, 8 x 6 at 15 km.",
         "Project XLAT/XLONG to integer grid positions; extract normally."),
        ("mercator_dateline.nc", "Mercator across the dateline: TRUELAT1 -15, STAND_LON 180, 10 x 6 at 240 km centred at "
         "17 S 180; XLONG runs from about 169.9 to -169.9 (WRF's -180..180).",
         "Project to integer grid positions; queries at 179.5, -179.5 and 180.5 (0..360) all work."),
        ("truncated_nc3.nc", "baseline.nc cut at half its length (the header is intact, the data are not; "
         "`ncdump` and netCDF-C read it without error, returning zeros past the cut).",
         "Exit 3 naming the file as truncated; never return numbers from it."),
        ("header_impossible_cdf5.nc", "baseline.nc written as CDF-5 with its first dimension's name length set to "
         "2^64 - 2 bytes (libnetcdf 4.9.0 and `ncdump -h` segfault opening it).",
         "Exit 3 naming the file as damaged; never hand it to libnetcdf."),
        ("header_cut_nc3.nc", "baseline.nc cut at 64 bytes, inside its header (netCDF-C 4.9.0 and `ncdump -h` open it without error; cut at 200 bytes they refuse it).",
         "Exit 3 naming the file as truncated."),
        ("header_long_dimension_name.nc", "A netCDF-3 64-bit-offset file written byte by byte whose first dimension's "
         "name is 100,000 bytes (netCDF allows 256); libnetcdf 4.9.0 opens it and copies the whole name into the "
         "256 + 1 byte buffer its callers give nc_inq_dim (before issue 43: SIGSEGV in inspect and extract).",
         "Exit 3 naming the file as damaged; never hand it to libnetcdf."),
        ("header_long_attribute_name.nc", "As above, with a global attribute whose name is 5,000 bytes (before issue 43: "
         "glibc abort, heap corrupted).", "Exit 3 naming the file as damaged; never hand it to libnetcdf."),
        ("header_long_variable_name.nc", "As above, with a variable whose name is 300 bytes.",
         "Exit 3 naming the file as damaged; never hand it to libnetcdf."),
        ("header_rank_over_max.nc", "As above, with a variable of rank 2,000 (netCDF allows 1,024 dimensions a variable; "
         "nc_inq_var writes every id into its caller's buffer).", "Exit 3 naming the file as damaged; never hand it to libnetcdf."),
        ("hdf5_long_variable_name.nc", "An HDF5 file (h5py) with one 2 x 3 dataset whose name is 600 bytes; libnetcdf 4.9.0 "
         "cuts the name near 256 bytes and, from process to process, sometimes hands back bytes read past its own buffer (260 bytes seen); TileCast reads names into a 4 KiB buffer and refuses any over 256 bytes.",
         "Exit 3 either way: refused as damaged (a name longer than 256 bytes), or no WRF coordinates."),
        ("truncated_nc4.nc", "split-mixed-format/wrfout_d01_2026-11-22_02:00:00 (netCDF-4) cut at half its length.", "Exit 3 naming the file as truncated or unreadable."),
        ("hdf5_checksum_failure.nc", "netCDF-4 file with baseline.nc's Times, XTIME, XLAT, XLONG, T2, Q2, PSFC and HGT; "
         "Fletcher-32 checksums on T2 (uncompressed chunks of one frame); one byte of T2's frame-1 chunk is flipped.",
         "Reading T2 frame 1 fails the checksum: exit 3 naming the file and T2; never return numbers from that chunk."),
    ]
    lines = ["# Edge-case inputs (SPEC section 8)", "",
             "Written by `python3 Scripts/make_edge_cases.py` (after `pip install -r Scripts/requirements.txt`); "
             "do not edit by hand. Tiny WRF-like files with the real wrfout conventions (attributes, "
             "`Times` as char(Time, DateStrLen=19), XTIME in minutes since the simulation start, the 6370 km sphere). "
             "Unless said otherwise: d01, 8 x 6 Lambert (15 km), 4 hourly frames from 2026-11-22_00:00:00, netCDF-3 64-bit "
             "offset, XLAT/XLONG and static fields with Time. Indices are 0-based, i = west_east, j = south_north. "
             "The projection cases reuse baseline-like weather values with their own coordinates and rotation; "
             "projecting their XLAT/XLONG with their own attributes, anchored at [0,0], gives integer grid "
             "positions (checked by the script).", "",
             "| file | what it is | what a correct reader does |", "|---|---|---|"]
    for name, what, do in rows:
        lines.append(f"| `{name}` | {what} | {do} |")
    lines += ["", "## Projection strings (PROJ, WRF's sphere) and how closely stored coordinates land on integers", "",
              "| file | proj4 | max deviation (cells) |", "|---|---|---|"]
    for name, (err, proj4) in sorted(proj.items()):
        lines.append(f"| `{name}` | `{proj4}` | {err:.1e} |")
    lines += ["", "## Sizes", "", "| file | bytes |", "|---|---|"]
    for name, n in sizes:
        lines.append(f"| `{name}` | {n:,} |")
    (OUT / "README.md").write_text("\n".join(lines) + "\n")


def main():
    if OUT.exists():
        shutil.rmtree(OUT)
    OUT.mkdir(parents=True)
    dom, f, nc3 = case_baseline()
    case_bucket(dom)
    mixed = case_split(dom)
    case_restart(dom)
    case_long_runs(dom)
    case_times(dom, f)
    case_coordinates(dom, f)
    case_missing_vars(dom, f)
    case_bad_values(dom, f)
    case_nests(dom, f)
    proj = case_projections()
    case_broken(nc3, mixed[1])
    for name, (err, proj4) in sorted(proj.items()):
        print(f"  {name:24s} max |grid position - integer| {err:.1e}   {proj4}")
    sizes = sorted((str(p.relative_to(OUT)), p.stat().st_size) for p in OUT.rglob("*") if p.is_file())
    write_readme(proj, sizes)
    total = sum(p.stat().st_size for p in OUT.rglob("*") if p.is_file())
    print(f"edge cases: {sum(1 for p in OUT.rglob('*') if p.is_file())} files, {total:,} bytes in {OUT}")


if __name__ == "__main__":
    sys.exit(main())
