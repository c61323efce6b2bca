#!/usr/bin/env python3
"""Copies a WRF run as the run that started HOURS later, for tests that need several cycles.

A run is filed only under its own start (tilecast refuses `--cycle` that disagrees with the
files), so the fault suite makes a later cycle by shifting every date-time string of a run:
Times, START_DATE, SIMULATION_START_DATE, XTIME's units and the file names. Values are not
touched. Classic and 64-bit-offset files are patched byte for byte (a date string keeps its
length, and the format has no checksums): the stamps' offsets are found once, then each shift
is a copy and a few writes, so a 1.5 GB run copies at disk speed; netCDF-4 files
go through ncdump and ncgen (fine for small files).

    python3 Scripts/shift_run.py SRC DST HOURS     (SRC a file or a folder of them)
"""
import datetime as dt
import hashlib
import re
import tempfile
import shutil
import subprocess
import sys
from pathlib import Path

STAMP = re.compile(rb"(\d{4})-(\d{2})-(\d{2})([_ ])(\d{2}):(\d{2}):(\d{2})")
WIDTH = 19


def shifted(match, hours):
    y, mo, d, sep, h, mi, s = match.groups()
    try:
        when = dt.datetime(int(y), int(mo), int(d), int(h), int(mi), int(s)) + dt.timedelta(hours=hours)
    except ValueError:
        return match.group(0)
    return when.strftime(f"%Y-%m-%d{sep.decode()}%H:%M:%S").encode()


def stamp_offsets(src: Path):
    """Byte offsets of every date-time stamp in a classic file, scanned once and remembered in
    a cache folder ($TMPDIR/tilecast-shift-cache), so each further shift is a copy plus a few writes."""
    stat = src.stat()
    key = f"{src.resolve()} {stat.st_size} {stat.st_mtime_ns}"
    folder = Path(tempfile.gettempdir()) / "tilecast-shift-cache"
    folder.mkdir(exist_ok=True)
    cache = folder / (hashlib.sha256(key.encode()).hexdigest()[:32] + ".stamps")
    if cache.exists():
        lines = cache.read_text().split("\n")
        if lines and lines[0] == key:
            return [int(x) for x in lines[1:] if x]
    offsets, chunk, base, tail = [], 64 << 20, 0, b""
    with open(src, "rb") as fin:
        while True:
            data = fin.read(chunk)
            buf = tail + data
            for m in STAMP.finditer(buf):
                if data and m.end() > len(buf) - WIDTH:
                    break
                offsets.append(base + m.start())
            if not data:
                break
            keep = min(len(buf), WIDTH)
            base += len(buf) - keep
            tail = buf[-keep:]
            # A stamp wholly inside the kept tail must not be found twice.
            offsets = sorted(set(offsets))
    try:
        cache.write_text("\n".join([key] + [str(o) for o in offsets]))
    except OSError:
        pass
    return offsets


def patch_classic(src: Path, dst: Path, hours: int):
    offsets = stamp_offsets(src)
    shutil.copyfile(src, dst)
    with open(src, "rb") as fin, open(dst, "r+b") as fout:
        for offset in offsets:
            fin.seek(offset)
            m = STAMP.fullmatch(fin.read(WIDTH))
            if m:
                fout.seek(offset)
                fout.write(shifted(m, hours))


def patch_cdl(src: Path, dst: Path, hours: int):
    cdl = subprocess.run(["ncdump", "-p", "9,17", str(src)], check=True, capture_output=True).stdout
    cdl = STAMP.sub(lambda m: shifted(m, hours), cdl)
    kind = subprocess.run(["ncdump", "-k", str(src)], check=True, capture_output=True, text=True).stdout.strip()
    flag = {"classic": "classic", "64-bit offset": "64-bit-offset", "netCDF-4": "nc4", "netCDF-4 classic model": "nc7"}.get(kind, "nc4")
    subprocess.run(["ncgen", "-k", flag, "-o", str(dst), "-"], input=cdl, check=True)


def shift_file(src: Path, dst_dir: Path, hours: int) -> Path:
    name = STAMP.sub(lambda m: shifted(m, hours), src.name.encode()).decode()
    dst = dst_dir / name
    kind = subprocess.run(["ncdump", "-k", str(src)], check=True, capture_output=True, text=True).stdout.strip()
    if kind in ("classic", "64-bit offset", "cdf5"):
        patch_classic(src, dst, hours)
    else:
        patch_cdl(src, dst, hours)
    return dst


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__)
    src, dst, hours = Path(argv[0]), Path(argv[1]), int(argv[2])
    dst.mkdir(parents=True, exist_ok=True)
    files = sorted(p for p in src.iterdir() if p.is_file()) if src.is_dir() else [src]
    for f in files:
        print(shift_file(f, dst, hours))


if __name__ == "__main__":
    main(sys.argv[1:])
