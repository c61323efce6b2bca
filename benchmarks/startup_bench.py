#!/usr/bin/env python3
"""Server start-up to first answer, and B4, for two or more builds, interleaved (issue 24).

    python3 benchmarks/startup_bench.py --store STORE --build before=DIR --build after=DIR \
        [--runs 61] [--b4-runs 61] [--hello HELLO]

Each DIR holds tilecast and tilecast-server (with TileCast_TileCastServer.resources beside
them for a build that reads its time-zone table from there). Per run and build: spawn
`tilecast-server --store STORE --port 0`, read stderr up to the serving line (its port), then
one GET of a one-place forecast (Lisbon, the WRF model, 2026-11-22: a SampleGrids store);
times are from the spawn: `listen_*` to the serving line, `auto` / `gmt` to the end of the
answer with timezone=auto (the time-zone table's first use) or timezone=GMT. B4: `tilecast
query` as benchmarks/store_bench.py runs it (one place, 24 h, the default variables, JSON),
whole process, with an optional hello-world in the same loop. Prints medians, p10 and p90 as
JSON; writes nothing.
"""
import argparse
import http.client
import json
import os
import signal
import statistics
import subprocess
import time

QUERY = "/v1/forecast?latitude=38.7223&longitude=-9.1393&hourly=temperature_2m&start_date=2026-11-22&end_date=2026-11-22&models=wrf"


def serve_once(server, store, zone):
    start = time.perf_counter()
    process = subprocess.Popen([server, "--store", store, "--port", "0"], stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True)
    port = None
    while True:
        line = process.stderr.readline()
        if not line:
            raise SystemExit(f"{server} ended before serving (exit {process.wait()})")
        if "serving" in line:
            port = int(line.rsplit(":", 1)[1])
            break
    listening = time.perf_counter() - start
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("GET", QUERY + f"&timezone={zone}")
    response = connection.getresponse()
    body = response.read()
    answered = time.perf_counter() - start
    assert response.status == 200, body
    answer = json.loads(body)
    process.send_signal(signal.SIGTERM)
    process.wait()
    return listening, answered, answer["timezone"]


def b4_once(tilecast, store):
    start = time.perf_counter()
    subprocess.run([tilecast, "query", "--store", store, "--model", "wrf", "--lat", "38.7223", "--lon", "-9.1393",
                    "--start", "2026-11-22T00Z", "--hours", "24", "--format", "json"],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--store", required=True)
    parser.add_argument("--build", action="append", required=True)
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--b4-runs", type=int, default=41)
    parser.add_argument("--hello")
    args = parser.parse_args()
    builds = [tuple(b.split("=", 1)) for b in args.build]
    samples = {(name, kind): [] for name, _ in builds for kind in ("listen_auto", "auto", "listen_gmt", "gmt", "b4")}
    zones = {}
    for name, folder in builds:  # warm-up
        serve_once(os.path.join(folder, "tilecast-server"), args.store, "auto")
        b4_once(os.path.join(folder, "tilecast"), args.store)
    for _ in range(args.runs):
        for zone in ("auto", "GMT"):
            for name, folder in builds:
                listening, answered, answered_zone = serve_once(os.path.join(folder, "tilecast-server"), args.store, zone)
                samples[(name, "listen_" + zone.lower())].append(listening)
                samples[(name, zone.lower())].append(answered)
                zones[(name, zone)] = answered_zone
    hello = []
    for _ in range(args.b4_runs):
        for name, folder in builds:
            samples[(name, "b4")].append(b4_once(os.path.join(folder, "tilecast"), args.store))
        if args.hello:
            start = time.perf_counter()
            subprocess.run([args.hello], check=True, stdout=subprocess.DEVNULL)
            hello.append(time.perf_counter() - start)
    report = {}
    for (name, kind), values in samples.items():
        values = sorted(values)
        report.setdefault(name, {})[kind] = {"median_ms": round(statistics.median(values) * 1000, 2),
                                             "p10_ms": round(values[len(values) // 10] * 1000, 2),
                                             "p90_ms": round(values[int(0.9 * len(values))] * 1000, 2), "runs": len(values)}
    if hello:
        report["hello_median_ms"] = round(statistics.median(hello) * 1000, 2)
    report["zones"] = {f"{name} {zone}": z for (name, zone), z in zones.items()}
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
