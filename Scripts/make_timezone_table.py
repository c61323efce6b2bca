#!/usr/bin/env python3
"""Builds the server's offline time-zone table (`timezone=auto`) from timezonefinder's data.

    python3 Scripts/make_timezone_table.py

timezonefinder (PyPI) ships the polygons of timezone-boundary-builder (OpenStreetMap
boundaries, with the ocean zones Etc/GMT+N). This script installs it into a scratch venv,
asks it for the zone at the centre of every cell of a global 0.05 degree raster (7200 x 3600,
about 5.5 km; a few minutes), and writes the raster run-length encoded, row by row, to the
resource file Sources/TileCastServer/Resources/timezones.tzr and a line about it to README.md
beside it (all committed; to regenerate, run this script again and commit what it wrote). SwiftPM copies
it into the TileCast_TileCastServer.resources folder beside the executables it builds; the
server reads it at start-up (TimeZoneTable.swift says where it looks) and refuses to start
without it. Installing tilecast-server means installing that folder beside it (README.md).

It also writes Tests/ServerTests/timezone_reference.csv: timezonefinder's answer at 2,000
seeded random points (half of them over Europe) and at named places, which TimeZoneTests compares the table with (the
tests do not need timezonefinder installed).

File layout (little-endian):
    "TZR1", uint16 columns, uint16 rows, uint32 cell size in micro-degrees,
    uint16 zone count, then each zone name as uint8 length + ASCII bytes,
    then per row (north to south): varint run count, then per run varint length (cells)
    and varint zone index. Row r covers latitudes 90 - (r+1)*cell .. 90 - r*cell; column c
    longitudes -180 + c*cell .. -180 + (c+1)*cell.
    Then uint32 CRC-32 (zlib's) of every byte before it: the server refuses a file whose
    CRC does not match, or that has bytes after its last row.
"""
import os
import subprocess
import sys
import venv
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CELL = 0.05
COLUMNS = int(round(360 / CELL))
ROWS = int(round(180 / CELL))
TIMEZONEFINDER = "timezonefinder==9.0.0"
NAMED = [("Lisbon", 38.7223, -9.1393), ("Ponta Delgada (Azores)", 37.7412, -25.6756),
         ("Madrid", 40.4168, -3.7038), ("Porto", 41.1579, -8.6291), ("Funchal (Madeira)", 32.6669, -16.9241),
         ("Paris", 48.8566, 2.3522), ("New York", 40.7128, -74.0060), ("Tokyo", 35.6762, 139.6503),
         ("Sydney", -33.8688, 151.2093), ("Atlantic off Portugal", 39.0, -15.0)]


def ensure_timezonefinder():
    """Re-runs this script inside a venv holding timezonefinder when it is not importable."""
    try:
        import timezonefinder  # noqa: F401
        return
    except ImportError:
        pass
    if os.environ.get("TILECAST_TZ_VENV"):
        sys.exit("make_timezone_table: timezonefinder did not install")
    where = os.path.join(os.environ.get("TMPDIR", "/tmp"), "tilecast-tz-venv")
    if not os.path.exists(os.path.join(where, "bin", "python")):
        venv.create(where, with_pip=True, system_site_packages=True)
    python = os.path.join(where, "bin", "python")
    subprocess.run([python, "-m", "pip", "install", "--quiet", TIMEZONEFINDER], check=True)
    os.execve(python, [python] + sys.argv, dict(os.environ, TILECAST_TZ_VENV="1"))


def varint(value, out):
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return


def main():
    ensure_timezonefinder()
    import random
    import struct
    from timezonefinder import TimezoneFinder

    finder = TimezoneFinder(in_memory=True)
    names, index = [], {}

    def zone(lat, lon):
        name = finder.timezone_at(lng=lon, lat=lat) or "Etc/UTC"
        if name not in index:
            index[name] = len(names)
            names.append(name)
        return index[name]

    rows = []
    for r in range(ROWS):
        lat = 90 - (r + 0.5) * CELL
        runs = []
        for c in range(COLUMNS):
            z = zone(lat, -180 + (c + 0.5) * CELL)
            if runs and runs[-1][1] == z:
                runs[-1][0] += 1
            else:
                runs.append([1, z])
        rows.append(runs)
        if r % 360 == 0:
            print(f"make_timezone_table: row {r}/{ROWS}", file=sys.stderr)

    out = bytearray(b"TZR1")
    out += struct.pack("<HHIH", COLUMNS, ROWS, int(round(CELL * 1e6)), len(names))
    for name in names:
        encoded = name.encode("ascii")
        out += struct.pack("<B", len(encoded)) + encoded
    for runs in rows:
        varint(len(runs), out)
        for length, z in runs:
            varint(length, out)
            varint(z, out)
    out += struct.pack("<I", zlib.crc32(bytes(out)) & 0xFFFFFFFF)
    table = os.path.join(ROOT, "Sources", "TileCastServer", "Resources", "timezones.tzr")
    os.makedirs(os.path.dirname(table), exist_ok=True)
    with open(table, "wb") as f:
        f.write(bytes(out))
    version = finder.data_version if hasattr(finder, 'data_version') else 'unknown'
    runs = sum(len(r) for r in rows)
    with open(os.path.join(os.path.dirname(table), "README.md"), "w") as f:
        f.write(f"`timezones.tzr`: the server's offline time-zone table (`timezone=auto`), {len(out)} bytes "
                f"({len(names)} zones, {runs} runs of a {COLUMNS} x {ROWS} raster, then its CRC-32), written by "
                f"`python3 Scripts/make_timezone_table.py` from timezonefinder's boundaries ({TIMEZONEFINDER}, data "
                f"{version}); regenerate it with that command, never by hand. The layout is in the script's "
                "docstring. SwiftPM copies it into `TileCast_TileCastServer.resources` beside the built "
                "executables; install that folder beside `tilecast-server`.\n")

    rng = random.Random(20261123)
    reference = os.path.join(ROOT, "Tests", "ServerTests", "timezone_reference.csv")
    with open(reference, "w") as f:
        f.write(f"# timezonefinder ({TIMEZONEFINDER}) at named places and 2000 seeded random points; "
                "written by Scripts/make_timezone_table.py\n")
        f.write("name,latitude,longitude,zone\n")
        for name, lat, lon in NAMED:
            f.write(f"{name},{lat},{lon},{finder.timezone_at(lng=lon, lat=lat)}\n")
        # 1,000 anywhere (mostly sea) and 1,000 over Europe and the Atlantic islands, where
        # borders are dense.
        for k in range(2000):
            if k < 1000:
                lat, lon = round(rng.uniform(-89.9, 89.9), 5), round(rng.uniform(-179.9, 179.9), 5)
            else:
                lat, lon = round(rng.uniform(30, 60), 5), round(rng.uniform(-30, 30), 5)
            f.write(f"random {k},{lat},{lon},{finder.timezone_at(lng=lon, lat=lat) or 'Etc/UTC'}\n")
    print(f"make_timezone_table: {len(out)} bytes, {len(names)} zones, {runs} runs "
          f"({TIMEZONEFINDER}, data {version}) -> {table}", file=sys.stderr)


if __name__ == "__main__":
    main()
