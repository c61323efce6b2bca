#!/usr/bin/env python3
"""B3-B6 of SPEC section 7: the store, the query and the extraction, against their peers.

Runs in one invocation, on the same inputs, interleaving each measurement with its peer so
that a busy machine slows both alike; medians over several runs. Writes store.json into the
data folder for report.py.

  B3  in-process point forecasts from the store (benchmarks' store-bench executable)
  B4  whole-process `tilecast query`, one place, 24 h, all variables, JSON, against a
      Foundation hello-world (and one CDO remapbil call when cdo is installed)
  B5  `tilecast extract` of the full run against `nccopy -V` of the same variables; peak memory
  B6  store size against the input and against `nccopy -k nc4 -d4 -s -V` of the same variables

Also a growth curve of B3 against the number of places; B5 against input size comes from
runs of different lengths (Scripts/bench makes 25- and 73-hour runs).

Usage: store_bench.py --tilecast BIN --store-bench BIN --hello BIN --run DIR --data-dir DIR [--quick]
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import tempfile
import time

VARIABLES = "Times,XTIME,XLAT,XLONG,T2,Q2,PSFC,U10,V10,RAINC,RAINNC,RAINSH,SNOWNC,SWDOWN,CLDFRA,HGT,COSALPHA,SINALPHA"
# The same list with the 3-D fields the extraction reads whole since issue 11's cloud layers
# (PH, PHB). It also reads the lowest levels of P, PB, T and QVAPOR (sea-level pressure); nccopy
# cannot copy a level, so they are left out of both lists and counted in the bytes read.
VARIABLES_WHOLE = VARIABLES + ",PH,PHB"
# Every variable the extraction reads from the bench's run (its files hold no QICE or QSNOW, so
# no visibility): the list, PH and PHB (up to ~6 km), P and PB (up to 100 hPa above the
# ground), T and QVAPOR (the levels below that). nccopy copies them whole; the extraction reads
# the hyperslabs it needs, so this is the upper end of "the same variables".
VARIABLES_READ = VARIABLES_WHOLE + ",P,PB,T,QVAPOR"
# Every catalog variable whose inputs are all in VARIABLES (the 2-D fields and CLDFRA): the
# extraction of these reads the very bytes `nccopy -V VARIABLES` reads (strace), so the two
# compare the same variables, as B5 asks. The sea-level pressure, the cloud layers, soil and
# visibility need 3-D fields the list does not hold.
CATALOG_OF_THE_LIST = ("temperature_2m,relative_humidity_2m,dew_point_2m,apparent_temperature,wind_u_10m,wind_v_10m,"
                       "precipitation,snowfall,surface_pressure,cloud_cover,shortwave_radiation,weather_code,elevation")
# The 14 variables of the catalog before issue 11 (B5 before the new ones).
CATALOG_BEFORE_ISSUE_11 = ("temperature_2m,relative_humidity_2m,dew_point_2m,apparent_temperature,wind_u_10m,wind_v_10m,"
                           "precipitation,snowfall,surface_pressure,pressure_msl,cloud_cover,shortwave_radiation,weather_code,elevation")


def run(command, **kwargs):
    return subprocess.run(command, check=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kwargs)


def peak_of(command):
    """Peak resident memory of a command, via GNU time when present."""
    if shutil.which("/usr/bin/time") is None:
        return None
    result = subprocess.run(["/usr/bin/time", "-f", "%M"] + command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        return int(result.stderr.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return None


def inputs_of(folder):
    return sorted(os.path.join(folder, name) for name in os.listdir(folder) if name.startswith("wrfout_"))


def nccopy_all(files, out_dir, extra, variables=VARIABLES):
    for path in files:
        run(["nccopy"] + extra + ["-V", variables, path, os.path.join(out_dir, os.path.basename(path) + ".nc")])


def extract_vs_nccopy(tilecast, files, runs, work, name="store", more=False, read=False):
    """B5: median extraction time against median nccopy -V time, interleaved.

    With `read`, also nccopy of every variable the extraction reads (whole) and `cat` of the
    inputs; with `more`, those and the extraction of the catalog before issue 11 and nccopy of
    the list with PH and PHB. Returns a dict of medians when either is set."""
    commands = {
        "extract": lambda: run([tilecast, "extract"] + files + ["--store", os.path.join(work, name), "--quiet"]),
        "nccopy": lambda: nccopy_all(files, os.path.join(work, "nccopy"), []),
    }
    if more or read:
        commands["extract_list"] = lambda: run([tilecast, "extract"] + files + ["--store", os.path.join(work, name + "-list"),
                                               "--quiet", "--variables", CATALOG_OF_THE_LIST])
        commands["nccopy_read"] = lambda: nccopy_all(files, os.path.join(work, "nccopy"), [], VARIABLES_READ)
        commands["cat"] = lambda: subprocess.run(["cat"] + files, check=True, stdout=subprocess.DEVNULL)
    if more:
        commands["extract_before_issue_11"] = lambda: run([tilecast, "extract"] + files + ["--store", os.path.join(work, name + "-14"),
                                                          "--quiet", "--variables", CATALOG_BEFORE_ISSUE_11])
        commands["nccopy_whole"] = lambda: nccopy_all(files, os.path.join(work, "nccopy"), [], VARIABLES_WHOLE)
    times = {key: [] for key in commands}
    for _ in range(runs):
        for key, command in commands.items():
            for folder in (name, name + "-14", name + "-list", "nccopy"):
                shutil.rmtree(os.path.join(work, folder), ignore_errors=True)
            os.makedirs(os.path.join(work, "nccopy"))
            start = time.perf_counter()
            command()
            times[key].append(time.perf_counter() - start)
    medians = {key: statistics.median(values) for key, values in times.items()}
    return medians if more or read else (medians["extract"], medians["nccopy"])


def bytes_read(command):
    """Bytes a command reads (read and pread64 calls of every thread, from strace), or None
    without strace. Not timed: tracing slows the command."""
    if shutil.which("strace") is None:
        return None
    with tempfile.NamedTemporaryFile(mode="r", suffix=".trace") as trace:
        subprocess.run(["strace", "-f", "-e", "trace=read,pread64", "-o", trace.name] + command,
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        total = 0
        for line in trace:
            if "read(" in line and "= " in line:
                try:
                    total += max(0, int(line.rsplit("= ", 1)[1].split()[0]))
                except ValueError:
                    pass
        return total


def folder_size(folder):
    return sum(os.path.getsize(os.path.join(root, name)) for root, _, names in os.walk(folder) for name in names)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tilecast", required=True)
    parser.add_argument("--store-bench", required=True)
    parser.add_argument("--hello", required=True)
    parser.add_argument("--run", required=True, help="folder of the full run (wrfout_d01..., wrfout_d02...)")
    parser.add_argument("--data-dir", required=True)
    parser.add_argument("--growth-run", action="append", default=[], help="shorter runs for the B5 growth curve")
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    files = inputs_of(args.run)
    runs = 3 if args.quick else 7
    result = {"inputs": [os.path.basename(f) for f in files], "input_bytes": sum(os.path.getsize(f) for f in files)}
    with tempfile.TemporaryDirectory(prefix="tilecast-bench-") as work:
        # Warm the page cache for both tools: B5 compares reading, not the disk.
        for path in files:
            with open(path, "rb") as handle:
                while handle.read(1 << 24):
                    pass
        medians = extract_vs_nccopy(args.tilecast, files, runs, work, more=True)
        ours, theirs = medians["extract"], medians["nccopy"]
        store = os.path.join(work, "store")
        shutil.rmtree(store, ignore_errors=True)
        peak = peak_of([args.tilecast, "extract"] + files + ["--store", store, "--quiet"])
        result["B5"] = {"extract_s": ours, "nccopy_V_s": theirs, "ratio": ours / theirs, "peak_kB": peak, "runs": runs,
                        "extract_before_issue_11_s": medians["extract_before_issue_11"],
                        "nccopy_whole_s": medians["nccopy_whole"], "ratio_whole": ours / medians["nccopy_whole"],
                        "nccopy_read_s": medians["nccopy_read"], "ratio_read": ours / medians["nccopy_read"], "cat_s": medians["cat"],
                        "extract_list_s": medians["extract_list"], "ratio_list": medians["extract_list"] / theirs}
        # What each reads: the extraction reads more bytes than the list it is compared with.
        traced = os.path.join(work, "traced")
        result["B5"]["extract_bytes_read"] = bytes_read([args.tilecast, "extract"] + files + ["--store", traced, "--quiet"])
        shutil.rmtree(traced, ignore_errors=True)
        result["B5"]["extract_list_bytes_read"] = bytes_read([args.tilecast, "extract"] + files + ["--store", traced, "--quiet",
                                                              "--variables", CATALOG_OF_THE_LIST])
        shutil.rmtree(traced, ignore_errors=True)
        os.makedirs(traced)
        result["B5"]["nccopy_bytes_read"] = bytes_read(["bash", "-c", " ".join(
            f"nccopy -V {VARIABLES} '{path}' '{traced}/{i}.nc';" for i, path in enumerate(files))])
        shutil.rmtree(traced, ignore_errors=True)
        result["B5_growth"] = []
        for folder in args.growth_run + [args.run]:
            growth_files = inputs_of(folder)
            size = sum(os.path.getsize(f) for f in growth_files)
            grown = medians if folder == args.run else extract_vs_nccopy(args.tilecast, growth_files, runs, work, name="growth-store", read=True)
            a, b = grown["extract"], grown["nccopy"]
            result["B5_growth"].append({"input_bytes": size, "extract_s": a, "nccopy_V_s": b, "ratio": a / b,
                                        "nccopy_read_s": grown["nccopy_read"], "ratio_read": a / grown["nccopy_read"],
                                        "cat_s": grown["cat"], "input_MB_per_s": size / a / 1e6,
                                        "extract_list_s": grown["extract_list"], "ratio_list": grown["extract_list"] / b})

        compressed = os.path.join(work, "d4")
        os.makedirs(compressed)
        nccopy_all(files, compressed, ["-k", "nc4", "-d4", "-s"])
        plain = os.path.join(work, "plain")
        os.makedirs(plain)
        nccopy_all(files, plain, [])
        store_bytes = sum(os.path.getsize(os.path.join(root, n)) for root, _, names in os.walk(store) for n in names if n.endswith(".tcs"))
        result["B6"] = {"store_bytes": store_bytes, "input_bytes": result["input_bytes"],
                        "nccopy_d4_s_V_bytes": folder_size(compressed), "nccopy_V_bytes": folder_size(plain),
                        "of_input": store_bytes / result["input_bytes"], "of_nccopy_d4": store_bytes / folder_size(compressed)}

        # B3: in-process point forecasts, then against the number of places.
        places = 5000 if args.quick else 20000
        b3 = json.loads(run([args.store_bench, store, "wrf", str(places)]).stdout)
        result["B3"] = b3
        # Issue 11: the same places with every variable the store answers.
        result["B3_all"] = json.loads(run([args.store_bench, store, "wrf", str(places), "all"]).stdout)
        result["B3_growth"] = []
        for count in ([1000, 5000] if args.quick else [1000, 10000, 50000]):
            point = json.loads(run([args.store_bench, store, "wrf", str(count)]).stdout)
            result["B3_growth"].append({"places": count, "p50_us": point["p50_us"], "p99_us": point["p99_us"],
                                        "all_cores_per_s": point["all_cores_per_s"]})

        # B4: whole process, one place, 24 h, all variables, JSON; hello-world in the same loop.
        query = [args.tilecast, "query", "--store", store, "--model", "wrf", "--lat", "38.7223", "--lon", "-9.1393",
                 "--start", "2026-11-22T06Z", "--hours", "24", "--format", "json"]
        samples = 15 if args.quick else 41
        ours, hello = [], []
        for _ in range(3):
            run(query)
            run([args.hello])
        for _ in range(samples):
            start = time.perf_counter()
            run(query)
            ours.append(time.perf_counter() - start)
            start = time.perf_counter()
            run([args.hello])
            hello.append(time.perf_counter() - start)
        result["B4"] = {"query_ms": statistics.median(ours) * 1000, "hello_ms": statistics.median(hello) * 1000,
                        "query_p90_ms": sorted(ours)[int(0.9 * len(ours))] * 1000, "runs": samples}
    with open(os.path.join(args.data_dir, "store.json"), "w") as handle:
        json.dump(result, handle, indent=2, sort_keys=True)
    print(json.dumps(result, indent=2, sort_keys=True))


if __name__ == "__main__":
    main()
