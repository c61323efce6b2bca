#!/usr/bin/env python3
"""B5 and B6 for the extraction sets (issue 28): `tilecast extract` of the bench's full run
with the default set (`surface`) and with `--set all` (the height and pressure levels too),
each against `nccopy -V` of the fields it reads, timed interleaved (medians); the store sizes
against the input and against `nccopy -k nc4 -d4 -s -V` of the same fields; peak memory.

Usage: levels_bench.py --tilecast .build/release/tilecast --run RUN_FOLDER [--runs N]
Prints one JSON object. Reuses benchmarks/store_bench.py's lists and helpers, so that the
default set's figures are B5/B6 as Scripts/bench measures them.
"""
import argparse
import json
import os
import shutil
import statistics
import tempfile
import time

import store_bench as sb

# What `--set all` reads on top of the default set's fields: the staggered winds. The levels
# also read P, PB, T, QVAPOR, PH, PHB and CLDFRA deeper than the default set does (up to the
# first level above 200 hPa): nccopy copies every one whole.
VARIABLES_ALL = sb.VARIABLES_READ + ",U,V,W"


def size_of(folder):
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, names in os.walk(folder) for f in names)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tilecast", required=True)
    ap.add_argument("--run", required=True)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    files = sb.inputs_of(args.run)
    input_bytes = sum(os.path.getsize(f) for f in files)
    work = tempfile.mkdtemp(prefix="tilecast-levels-bench-")
    try:
        commands = {
            "extract_surface": lambda: sb.run([args.tilecast, "extract"] + files + ["--store", os.path.join(work, "surface"), "--quiet"]),
            "extract_all": lambda: sb.run([args.tilecast, "extract"] + files + ["--store", os.path.join(work, "all"), "--quiet",
                                                                                "--set", "all"]),
            "nccopy_surface_read": lambda: sb.nccopy_all(files, os.path.join(work, "nccopy"), [], sb.VARIABLES_READ),
            "nccopy_all_read": lambda: sb.nccopy_all(files, os.path.join(work, "nccopy"), [], VARIABLES_ALL),
        }
        times = {key: [] for key in commands}
        for _ in range(args.runs):
            for key, command in commands.items():
                for folder in ("surface", "all", "nccopy"):
                    shutil.rmtree(os.path.join(work, folder), ignore_errors=True)
                os.makedirs(os.path.join(work, "nccopy"))
                start = time.perf_counter()
                command()
                times[key].append(time.perf_counter() - start)
        medians = {key: statistics.median(values) for key, values in times.items()}
        # The stores of one last extraction of each set, and the compressed copies.
        sizes = {}
        for name, extra in (("surface", []), ("all", ["--set", "all"])):
            store = os.path.join(work, "size-" + name)
            sb.run([args.tilecast, "extract"] + files + ["--store", store, "--quiet"] + extra)
            sizes[name] = size_of(store)
        peak_all = sb.peak_of([args.tilecast, "extract"] + files + ["--store", os.path.join(work, "peak"), "--quiet", "--set", "all"])
        compressed = {}
        for name, variables in (("surface", sb.VARIABLES_READ), ("all", VARIABLES_ALL)):
            folder = os.path.join(work, "nc4-" + name)
            os.makedirs(folder)
            sb.nccopy_all(files, folder, ["-k", "nc4", "-d4", "-s"], variables)
            compressed[name] = size_of(folder)
        result = {
            "input_bytes": input_bytes, "runs": args.runs, "times_s": times, "medians_s": medians,
            "B5_surface_vs_nccopy_read": medians["extract_surface"] / medians["nccopy_surface_read"],
            "B5_all_vs_nccopy_read": medians["extract_all"] / medians["nccopy_all_read"],
            "all_vs_surface_extract": medians["extract_all"] / medians["extract_surface"],
            "peak_all_kB": peak_all, "store_bytes": sizes, "nccopy_nc4_d4_bytes": compressed,
            "B6_surface_vs_input": sizes["surface"] / input_bytes, "B6_all_vs_input": sizes["all"] / input_bytes,
            "B6_surface_vs_nc4": sizes["surface"] / compressed["surface"], "B6_all_vs_nc4": sizes["all"] / compressed["all"],
        }
        print(json.dumps(result, indent=1))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
