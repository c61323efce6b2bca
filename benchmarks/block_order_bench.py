#!/usr/bin/env python3
"""Issue 30: does laying blocks tile by tile cost local speed? B3 and B5 of two writers, interleaved.

Two `tilecast` binaries (BEFORE: a build whose writer lays blocks variable by variable, e.g.
main before issue 30; AFTER: this branch's) extract the same run into two stores; then, in
alternation so that a busy shared machine slows both alike:

  B3  store-bench (this branch's reader) on each store: 24 h point forecasts of the default
      variables and of every variable, p50 / p99 (one thread), ROUNDS rounds each
  B5  `tilecast extract` of the run by each binary, wall time, ROUNDS rounds each

Prints one JSON object: per writer the medians over the rounds of each figure, and the
after / before ratios.

Usage: block_order_bench.py --before BIN --after BIN --store-bench BIN --run DIR [--rounds N] [--places N]
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import tempfile
import time


def run(command):
    return subprocess.run(command, check=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--before", required=True)
    parser.add_argument("--after", required=True)
    parser.add_argument("--store-bench", required=True)
    parser.add_argument("--run", required=True)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--places", type=int, default=20000)
    args = parser.parse_args()
    files = sorted(os.path.join(args.run, n) for n in os.listdir(args.run) if n.startswith("wrfout_"))
    writers = {"before": args.before, "after": args.after}
    figures = {w: {"b3_p50": [], "b3_p99": [], "b3_all_p50": [], "b3_all_p99": [], "extract_s": []} for w in writers}
    with tempfile.TemporaryDirectory(prefix="tilecast-order-") as work:
        for path in files:  # warm the page cache: B5 compares the writers, not the disk
            with open(path, "rb") as handle:
                while handle.read(1 << 24):
                    pass
        stores = {}
        for name, binary in writers.items():
            stores[name] = os.path.join(work, name)
            run([binary, "extract"] + files + ["--store", stores[name], "--quiet"])
        sizes = {name: sum(os.path.getsize(os.path.join(r, n)) for r, _, ns in os.walk(store) for n in ns if n.endswith(".tcs"))
                 for name, store in stores.items()}
        for _ in range(args.rounds):
            for name in writers:
                default = json.loads(run([args.store_bench, stores[name], "wrf", str(args.places)]).stdout)
                every = json.loads(run([args.store_bench, stores[name], "wrf", str(args.places), "all"]).stdout)
                f = figures[name]
                f["b3_p50"].append(default["p50_us"])
                f["b3_p99"].append(default["p99_us"])
                f["b3_all_p50"].append(every["p50_us"])
                f["b3_all_p99"].append(every["p99_us"])
            for name, binary in writers.items():
                target = os.path.join(work, "extract-" + name)
                shutil.rmtree(target, ignore_errors=True)
                start = time.perf_counter()
                run([binary, "extract"] + files + ["--store", target, "--quiet"])
                figures[name]["extract_s"].append(time.perf_counter() - start)
    medians = {name: {key: statistics.median(values) for key, values in f.items()} for name, f in figures.items()}
    result = {"rounds": args.rounds, "places": args.places, "input_bytes": sum(os.path.getsize(f) for f in files),
              "store_bytes": sizes, "medians": medians, "samples": figures,
              "after_over_before": {key: medians["after"][key] / medians["before"][key] for key in medians["after"]}}
    print(json.dumps(result, indent=1, sort_keys=True))


if __name__ == "__main__":
    main()
