#!/usr/bin/env python3
"""Run shapes (issue 25): what the shapes centres write cost against the same work on the usual
shape, each measurement interleaved with its peer, medians over several runs. Writes
shapes.json into the data folder and prints a Markdown table.

  R1  `tilecast extract` of a 25-hour run written one file per output time
      (`frames_per_outfile = 1`: 50 files) against `nccopy -V` of the same variables from the
      same files; and against the extraction of the same run written as one file per domain
  R2  15-minute answers: `tilecast query --points` of 400 seeded places, 6 hours every 15
      minutes from the run's 15-minute stream (SampleGrids/auxhist-runs), against the same
      places hourly (4 times the answers, read from a second file)
  R3  the moving nest (SampleGrids/nested-runs/moving-nest) and the three-level run: extraction
      against `nccopy -V` of the same variables (small files: start-up dominates both)
"""
import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from store_bench import inputs_of, nccopy_all, run  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def interleaved(commands, runs, before=None):
    """Median seconds of each command, the commands taking turns `runs` times."""
    times = {key: [] for key in commands}
    for _ in range(runs):
        for key, command in commands.items():
            if before:
                before()
            start = time.perf_counter()
            command()
            times[key].append(time.perf_counter() - start)
    return {key: statistics.median(values) for key, values in times.items()}


def extraction_against_nccopy(tilecast, files, work, runs):
    store, copies = os.path.join(work, "store"), os.path.join(work, "nccopy")

    def clean():
        shutil.rmtree(store, ignore_errors=True)
        shutil.rmtree(copies, ignore_errors=True)
        os.makedirs(copies)

    return interleaved({
        "extract": lambda: run([tilecast, "extract"] + files + ["--store", store, "--quiet"]),
        "nccopy": lambda: nccopy_all(files, copies, []),
    }, runs, clean)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tilecast", required=True)
    parser.add_argument("--hourly-run", required=True, help="the 25-hour run, one file per output time")
    parser.add_argument("--run", required=True, help="the same run, one file per domain")
    parser.add_argument("--data-dir", required=True)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    runs = 3 if args.quick else 7
    result = {"runs": runs}
    work = tempfile.mkdtemp(prefix="tilecast-shapes-")
    try:
        hourly = inputs_of(args.hourly_run)
        whole = inputs_of(args.run)
        for path in hourly + whole:                       # warm the page cache for every tool alike
            subprocess.run(["cat", path], check=True, stdout=subprocess.DEVNULL)
        r1 = extraction_against_nccopy(args.tilecast, hourly, work, runs)
        r1_whole = extraction_against_nccopy(args.tilecast, whole, work, runs)
        result["R1"] = {"files": len(hourly), "input_bytes": sum(os.path.getsize(p) for p in hourly),
                        "extract_s": r1["extract"], "nccopy_V_s": r1["nccopy"], "ratio": r1["extract"] / r1["nccopy"],
                        "extract_one_file_per_domain_s": r1_whole["extract"],
                        "ratio_to_one_file_per_domain": r1["extract"] / r1_whole["extract"]}

        aux = os.path.join(ROOT, "SampleGrids", "auxhist-runs", "fifteen-minutes")
        store = os.path.join(work, "aux-store")
        run([args.tilecast, "extract", aux, "--store", store, "--quiet"])
        rng = random.Random(25)
        places = os.path.join(work, "places.csv")
        with open(places, "w") as f:
            f.write("lat,lon\n")
            for _ in range(400):                               # inside d02, which has the stream
                f.write(f"{rng.uniform(39.15, 39.40):.4f},{rng.uniform(-8.50, -8.12):.4f}\n")
        base = [args.tilecast, "query", "--store", store, "--points", places, "--start", "2026-11-22T06:15Z",
                "--hours", "6", "--format", "csv", "--variables", "temperature_2m,precipitation,wind_speed_10m,cloud_cover"]
        r2 = interleaved({
            "every_15": lambda: run(base + ["--every", "15"]),
            "hourly": lambda: run(base),
        }, runs)
        result["R2"] = {"places": 400, "every_15_s": r2["every_15"], "hourly_s": r2["hourly"], "ratio": r2["every_15"] / r2["hourly"]}

        r3 = {}
        for name in ("moving-nest", "three-level"):
            files = inputs_of(os.path.join(ROOT, "SampleGrids", "nested-runs", name))
            medians = extraction_against_nccopy(args.tilecast, files, work, runs)
            r3[name] = {"extract_s": medians["extract"], "nccopy_V_s": medians["nccopy"], "ratio": medians["extract"] / medians["nccopy"]}
        result["R3"] = r3
    finally:
        shutil.rmtree(work, ignore_errors=True)
    os.makedirs(args.data_dir, exist_ok=True)
    with open(os.path.join(args.data_dir, "shapes.json"), "w") as f:
        json.dump(result, f, indent=2)
    r1, r2 = result["R1"], result["R2"]
    print("| id | measurement | figure |")
    print("|---|---|---|")
    print(f"| R1 | extract of a {r1['input_bytes'] / 1e9:.2f} GB 25-hour run written one file per output time ({r1['files']} files) / "
          f"`nccopy -V` of the same variables | {r1['ratio']:.2f}x ({r1['extract_s']:.3f} s / {r1['nccopy_V_s']:.3f} s) |")
    print(f"| R1 | the same / extract of the run written one file per domain | {r1['ratio_to_one_file_per_domain']:.2f}x "
          f"({r1['extract_s']:.3f} s / {r1['extract_one_file_per_domain_s']:.3f} s) |")
    print(f"| R2 | `query --every 15` (400 places, 6 h: 24 times each, 4 variables, 3 from the 15-minute stream) / "
          f"the same hourly (6 times each) | {r2['ratio']:.2f}x ({r2['every_15_s']:.3f} s / {r2['hourly_s']:.3f} s) |")
    for name, r in result["R3"].items():
        print(f"| R3 | extract of SampleGrids/nested-runs/{name} / `nccopy -V` of the same variables (small files: start-up) | "
              f"{r['ratio']:.2f}x ({r['extract_s']:.3f} s / {r['nccopy_V_s']:.3f} s) |")


if __name__ == "__main__":
    main()
