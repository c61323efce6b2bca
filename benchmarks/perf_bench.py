#!/usr/bin/env python3
"""Issue 12's figures: B3 on the block cache path and B7, each beside what the machine gave.

  probe  a plain C busy loop on 1 and on 2 threads (benchmarks/spin.c), run just before each
         measurement: the all-cores figures cannot exceed what it gets on this shared machine
  B3     store-bench (in-process point forecasts, 24 h x all variables) on the --full run's
         store: p50/p99 on one thread, forecasts/s on one thread and on all cores, cache hit rate
  B2     a STREAM-like C copy and triad over 64 MB arrays on 1 and 2 threads
         (benchmarks/stream.c): the memory system's two-thread speed-up, which caps B2's
  growth `tilecast extract` against `nccopy -V` (the bench's list) and `cat` of the same files,
         for runs of 25, 73 and 181 hours (--growth-run, repeatable)
  B7     whole-process `tilecast query --points` of 100k seeded places, 24 h, all variables,
         JSON and CSV: wall and CPU seconds, peak memory, output size

Writes perf.json into the data folder for report.py. About a minute on this machine.

Usage: perf_bench.py --tilecast BIN --store-bench BIN --spin BIN --stream BIN --run DIR --data-dir DIR [--quick]
"""
import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import tempfile
import time


def probe(spin):
    """The machine's two-thread speed-up for pure CPU work right now."""
    out = subprocess.run([spin], check=True, stdout=subprocess.PIPE, text=True).stdout
    return float(out.split("speedup")[1])


def whole_process(command, output):
    """Wall and CPU seconds and peak memory of one run (GNU time), its output written to `output`."""
    with open(output, "wb") as sink:
        result = subprocess.run(["/usr/bin/time", "-f", "%e %U %S %M"] + command, check=True, stdout=sink,
                                stderr=subprocess.PIPE, text=True)
    wall, user, system, peak = result.stderr.strip().splitlines()[-1].split()
    return {"wall_s": float(wall), "cpu_s": float(user) + float(system), "peak_kB": int(peak), "bytes": os.path.getsize(output)}


# The variables the extraction reads from a WRF file, as store_bench.py copies them with nccopy
# (the sea-level pressure sources P, PB, T, QVAPOR, PH, PHB are not in it: see RESULTS notes).
NCCOPY_VARIABLES = "Times,XTIME,XLAT,XLONG,T2,Q2,PSFC,U10,V10,RAINC,RAINNC,RAINSH,SNOWNC,SWDOWN,CLDFRA,HGT,COSALPHA,SINALPHA"


def frames(path):
    """Frames in a netCDF file: the current length of its unlimited Time dimension."""
    header = subprocess.run(["ncdump", "-h", path], check=True, stdout=subprocess.PIPE, text=True).stdout
    for line in header.splitlines():
        if "UNLIMITED" in line and "(" in line:
            return int(line.split("(")[1].split()[0])
    return None


def timed(commands):
    """Seconds to run the commands one after the other, output discarded."""
    start = time.perf_counter()
    for command in commands:
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tilecast", required=True)
    parser.add_argument("--store-bench", required=True)
    parser.add_argument("--spin", required=True)
    parser.add_argument("--stream", required=True)
    parser.add_argument("--run", required=True, help="the --full run (Scripts/make_sample_grids.py)")
    parser.add_argument("--data-dir", required=True)
    parser.add_argument("--growth-run", action="append", default=[], help="a run for the extraction growth rows")
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    runs = 1 if args.quick else 3
    places = 10_000 if args.quick else 100_000

    work = tempfile.mkdtemp(prefix="tilecast-perf-")
    try:
        store = os.path.join(work, "store")
        subprocess.run([args.tilecast, "extract", args.run, "--store", store], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

        # Extraction against input size, interleaved with its peers (medians).
        growth = []
        for folder in args.growth_run:
            files = sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.startswith("wrfout_"))
            size = sum(os.path.getsize(f) for f in files)
            times = {"extract": [], "nccopy": [], "cat": []}
            for _ in range(runs):
                target = os.path.join(work, "growth-store")
                shutil.rmtree(target, ignore_errors=True)
                times["extract"].append(timed([[args.tilecast, "extract", folder, "--store", target]]))
                times["nccopy"].append(timed([["nccopy", "-V", NCCOPY_VARIABLES, f, os.path.join(work, "copy.nc")] for f in files]))
                times["cat"].append(timed([["cat"] + files]))
            row = {key: statistics.median(values) for key, values in times.items()}
            row.update({"input_bytes": size, "frames": frames(files[0]), "run": os.path.basename(folder)})
            growth.append(row)

        # B2's ceiling: memory bandwidth on 1 and 2 threads, each run after a probe.
        stream = []
        for _ in range(runs):
            speedup = probe(args.spin)
            out = subprocess.run([args.stream, "64"], check=True, stdout=subprocess.PIPE, text=True).stdout
            row = {"probe_speedup": speedup}
            for line in out.splitlines():
                name = line.split()[0]
                parts = line.split(",")
                row[name + "_1_GBps"] = float(parts[0].split()[-2])
                row[name + "_2_GBps"] = float(parts[1].split()[-2])
                row[name + "_speedup"] = float(parts[2].split()[-1])
            stream.append(row)

        # B3: medians of interleaved runs, each after a probe.
        b3 = []
        for _ in range(runs):
            speedup = probe(args.spin)
            out = subprocess.run([args.store_bench, store, "wrf", "20000"], check=True, stdout=subprocess.PIPE, text=True).stdout
            figures = json.loads(out)
            figures["probe_speedup"] = speedup
            b3.append(figures)

        # B7: seeded places inside d01 (Portugal), the run's 06Z + 24 h.
        rng = random.Random(20261123)
        points = os.path.join(work, "points.csv")
        with open(points, "w") as f:
            f.write("lat,lon\n")
            for _ in range(places):
                f.write("%.4f,%.4f\n" % (rng.uniform(37.3, 42.3), rng.uniform(-9.8, -5.8)))
        b7 = {}
        for form in ("json", "csv"):
            results = []
            for _ in range(runs):
                speedup = probe(args.spin)
                result = whole_process([args.tilecast, "query", "--store", store, "--points", points,
                                        "--start", "2026-11-22T06:00Z", "--hours", "24", "--format", form],
                                       os.path.join(work, "out." + form))
                result["probe_speedup"] = speedup
                results.append(result)
            b7[form] = results

        def median(rows, key):
            return statistics.median(row[key] for row in rows)

        summary = {
            "B3": {key: median(b3, key) for key in ("p50_us", "p90_us", "p99_us", "serial_per_s", "all_cores_per_s",
                                                   "cache_hit_rate", "probe_speedup", "blocks_per_forecast")},
            "B3_runs": b3,
            "stream": {key: median(stream, key) for key in stream[0]},
            "stream_runs": stream,
            "B7": {form: {key: median(rows, key) for key in ("wall_s", "cpu_s", "peak_kB", "bytes", "probe_speedup")}
                   for form, rows in b7.items()},
            "B7_runs": b7,
            "B7_places": places,
            "growth": growth,
            "runs": runs,
        }
        with open(os.path.join(args.data_dir, "perf.json"), "w") as f:
            json.dump(summary, f, indent=1, sort_keys=True)
        print(json.dumps(summary["B3"]), json.dumps(summary["B7"]))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
