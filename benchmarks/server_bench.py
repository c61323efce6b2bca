#!/usr/bin/env python3
"""S1-S5: `tilecast serve` under wrk, against nginx and a Python peer, in one run.

    python3 benchmarks/server_bench.py --tilecast .build/release/tilecast \
        --server .build/release/tilecast-server --data-dir benchmarks/data [--quick]

Extracts SampleGrids (WRF 9 km + 3 km nest, MM5 27 km) into a scratch store, starts the
server on 127.0.0.1, and drives it with wrk and a seeded Lua script that draws every
request's place at random inside the WRF d01 domain (no two requests alike, so no cache
answers them). nginx (Debian) serves one such response as a static file to the same wrk
script and settings (`try_files` maps every URL to the file), in the same run: S1's reference.
S1 is run twice: as plain JSON, and with `Accept-Encoding: gzip` (wrk's -H), where both servers
compress every answer at zlib level 6 (ours always uses 6; nginx's `gzip_comp_level 6`, on the
fly, not a precompressed file), so the ratio compares like with like.
S1's ceiling (issue 30) is benchmarks/Sources/hummingbird-ceiling: a minimal Hummingbird 2 server
answering the same body from memory, on the same framework and settings (an answer asked for with
gzip it compresses per request, zlib level 6, as ours does), driven by the same script in the same run; `tilecast serve`'s
rate over the ceiling's is S1's ratio, nginx's rate is reported beside it.
S5's peer is benchmarks/peer_service.py (http.server + xarray reading the wrfout per request).
Writes DATA_DIR/server.json; benchmarks/report.py renders it.
"""
import argparse
import json
import os
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

import netCDF4
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SAMPLES = os.path.join(ROOT, "SampleGrids")
WRFOUT = os.path.join(SAMPLES, "wrfout_d01_2026-11-22_00:00:00")
VARIABLES = ("temperature_2m,relative_humidity_2m,dew_point_2m,apparent_temperature,precipitation,snowfall,"
             "weather_code,pressure_msl,surface_pressure,cloud_cover,wind_speed_10m,wind_direction_10m,"
             "shortwave_radiation,wind_u_10m,wind_v_10m")
HOURS = "start_hour=2026-11-22T00:00&end_hour=2026-11-22T23:00"
SEED = 20261123
GZIP = "Accept-Encoding: gzip"


def log(message):
    print(f"server-bench: {message}", file=sys.stderr, flush=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def domain_box():
    """A lat/lon box inside the WRF d01 grid (its edges pulled in by two cells)."""
    with netCDF4.Dataset(WRFOUT) as d:
        lat, lon = np.asarray(d["XLAT"][:]), np.asarray(d["XLONG"][:])
    if lat.ndim == 3:
        lat, lon = lat[0], lon[0]
    return (float(lat[2, :].max()), float(lat[-3, :].min()), float(lon[:, 2].max()), float(lon[:, -3].min()))


def wait_until_up(url, process, seconds=30):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"server-bench: {url} exited with {process.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=2) as reply:
                if reply.status == 200:
                    return
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"server-bench: {url} did not answer within {seconds} s")


# wrk's `done`: one JSON line (WRKJSON ...) that `wrk` below reads; every bench's script ends with it.
LUA_SUMMARY = """function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('WRKJSON {"requests":%d,"duration_us":%d,"bytes":%d,"non2xx":%d,"connect":%d,"read":%d,"write":%d,"timeout":%d,' ..
    '"p50_us":%d,"p90_us":%d,"p99_us":%d,"max_us":%d,"mean_us":%.1f}\\n',
    summary.requests, summary.duration, summary.bytes, e.status, e.connect, e.read, e.write, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max, latency.mean))
end
"""


def lua_script(path, box, query):
    """wrk's script: seeded places inside the box; prints one JSON line when done."""
    lat0, lat1, lon0, lon1 = box
    with open(path, "w") as f:
        f.write(f"""
local counter = 0
function setup(thread)
  counter = counter + 1
  thread:set("id", counter)
end
function init(args)
  math.randomseed({SEED} + id)
end
function request()
  local lat = {lat0} + math.random() * ({lat1 - lat0})
  local lon = {lon0} + math.random() * ({lon1 - lon0})
  return wrk.format("GET", string.format("/v1/forecast?latitude=%.4f&longitude=%.4f&{query}", lat, lon))
end
{LUA_SUMMARY}""")


def wrk(url, script, connections, seconds, threads=2, header=None):
    command = ["wrk", f"-t{min(threads, connections)}", f"-c{connections}", f"-d{seconds}s", "--timeout", "10s",
               "-s", script, url] + (["-H", header] if header else [])
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    match = re.search(r"^WRKJSON (.*)$", out, re.M)
    if not match:
        raise SystemExit(f"server-bench: wrk printed no summary:\n{out}")
    result = json.loads(match.group(1))
    result["per_s"] = result["requests"] / (result["duration_us"] / 1e6)
    result.update(connections=connections, seconds=seconds, threads=min(threads, connections))
    return result


def stop(processes):
    """SIGTERM to each process still running (not SIGKILL: nginx's master then takes its
    workers with it), SIGKILL after 10 s."""
    for process in processes:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def memory(pid):
    values = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                values[key] = int(value.split()[0])
    return values


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def gzipped_size(url):
    """The bytes of one answer asked for with GZIP; exits when it did not come gzip-encoded,
    so S1's gzip row can never measure uncompressed answers by mistake."""
    name, _, value = GZIP.partition(": ")
    with urllib.request.urlopen(urllib.request.Request(url, headers={name: value}), timeout=30) as reply:
        body = reply.read()
        if reply.headers.get("Content-Encoding") != "gzip" or body[:2] != b"\x1f\x8b":
            raise SystemExit(f"server-bench: {url} answered {GZIP} without gzip ({reply.headers.get('Content-Encoding')})")
    return len(body)


def get_json(url):
    with urllib.request.urlopen(url, timeout=30) as reply:
        return json.loads(reply.read())


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tilecast", required=True)
    parser.add_argument("--server", required=True)
    parser.add_argument("--data-dir", required=True)
    parser.add_argument("--ceiling", required=True, help="benchmarks' hummingbird-ceiling binary")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--python", default=sys.executable, help="the interpreter with xarray, for the peer")
    args = parser.parse_args()
    seconds = 3 if args.quick else 10
    s4_target = 50_000 if args.quick else 1_000_000
    s4_budget = 20 if args.quick else 150

    scratch = tempfile.mkdtemp(prefix="tilecast-server-bench-")
    os.chmod(scratch, 0o755)  # nginx's workers (nobody) read the static file under it
    processes = []
    try:
        store = os.path.join(scratch, "store")
        subprocess.run([args.tilecast, "extract", SAMPLES, "--store", store, "--quiet"], check=True)
        box = domain_box()
        query = f"hourly={VARIABLES}&{HOURS}"
        script = os.path.join(scratch, "places.lua")
        lua_script(script, box, query)

        port = free_port()
        server = subprocess.Popen([args.server, "--store", store, "--port", str(port)],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        processes.append(server)
        base = f"http://127.0.0.1:{port}"
        wait_until_up(base + "/health", server)

        # nginx serving one such response (Lisbon) as a static file; every URL maps to it.
        sample = urllib.request.urlopen(f"{base}/v1/forecast?latitude=38.7223&longitude=-9.1393&{query}").read()
        root = os.path.join(scratch, "www")
        os.makedirs(root)
        with open(os.path.join(root, "forecast.json"), "wb") as f:
            f.write(sample)
        nginx_port = free_port()
        conf = os.path.join(scratch, "nginx.conf")
        with open(conf, "w") as f:
            f.write(f"""worker_processes auto;
pid {scratch}/nginx.pid;
error_log {scratch}/nginx-error.log;
events {{ worker_connections 1024; }}
http {{
  access_log off;
  default_type application/json;
  keepalive_requests 1000000;
  gzip on;
  gzip_types application/json;
  gzip_min_length 1024;
  gzip_comp_level 6;
  client_body_temp_path {scratch}/nginx-body;
  proxy_temp_path {scratch}/nginx-proxy;
  fastcgi_temp_path {scratch}/nginx-fastcgi;
  uwsgi_temp_path {scratch}/nginx-uwsgi;
  scgi_temp_path {scratch}/nginx-scgi;
  server {{
    listen 127.0.0.1:{nginx_port};
    root {root};
    location / {{ try_files /forecast.json =404; }}
  }}
}}
""")
        nginx = subprocess.Popen(["nginx", "-c", conf, "-g", "daemon off;"], stderr=subprocess.DEVNULL)
        processes.append(nginx)
        wait_until_up(f"http://127.0.0.1:{nginx_port}/x", nginx)

        # The framework's ceiling: the same answer from memory, plain and with a compressor.
        ceiling_port = free_port()
        ceiling = subprocess.Popen([args.ceiling, os.path.join(root, "forecast.json"), str(ceiling_port)], stderr=subprocess.DEVNULL)
        processes.append(ceiling)
        ceiling_url = f"http://127.0.0.1:{ceiling_port}"
        wait_until_up(ceiling_url + "/x", ceiling)

        # S4's first point: resident memory after 10k requests (the warm-up).
        warm = 0
        while warm < 10_000:
            warm += wrk(base, script, 64, 2)["requests"]
        after_10k = memory(server.pid)
        total = warm
        log(f"warm-up {warm} requests, RSS {after_10k['VmRSS'] / 1024:.1f} MB")

        # S1/S2: 64 connections, same script and settings for both.
        cpu_before = cpu_seconds(server.pid)
        ours = wrk(base, script, 64, seconds)
        cpu_per_request_us = (cpu_seconds(server.pid) - cpu_before) / ours["requests"] * 1e6
        total += ours["requests"]
        reference = wrk(f"http://127.0.0.1:{nginx_port}", script, 64, seconds)
        cpu_before = cpu_seconds(ceiling.pid)
        framework = wrk(ceiling_url, script, 64, seconds)
        framework_cpu_us = (cpu_seconds(ceiling.pid) - cpu_before) / framework["requests"] * 1e6
        log(f"S1 ours {ours['per_s']:,.0f}/s, Hummingbird ceiling {framework['per_s']:,.0f}/s "
            f"({ours['per_s'] / framework['per_s']:.2f}x), nginx {reference['per_s']:,.0f}/s; "
            f"p99 {ours['p99_us'] / 1000:.2f} ms; server CPU {cpu_per_request_us:.0f} us/request (ceiling {framework_cpu_us:.0f})")
        # S1 again with Accept-Encoding: gzip, both compressing every answer.
        lisbon = f"/v1/forecast?latitude=38.7223&longitude=-9.1393&{query}"
        gzip_sizes = {"ours": gzipped_size(base + lisbon), "nginx": gzipped_size(f"http://127.0.0.1:{nginx_port}{lisbon}"),
                      "ceiling": gzipped_size(ceiling_url + lisbon)}
        cpu_before = cpu_seconds(server.pid)
        ours_gzip = wrk(base, script, 64, seconds, header=GZIP)
        gzip_cpu_us = (cpu_seconds(server.pid) - cpu_before) / ours_gzip["requests"] * 1e6
        total += ours_gzip["requests"]
        reference_gzip = wrk(f"http://127.0.0.1:{nginx_port}", script, 64, seconds, header=GZIP)
        cpu_before = cpu_seconds(ceiling.pid)
        framework_gzip = wrk(ceiling_url, script, 64, seconds, header=GZIP)
        framework_gzip_cpu_us = (cpu_seconds(ceiling.pid) - cpu_before) / framework_gzip["requests"] * 1e6
        log(f"S1 gzip ours {ours_gzip['per_s']:,.0f}/s, Hummingbird ceiling {framework_gzip['per_s']:,.0f}/s "
            f"({ours_gzip['per_s'] / framework_gzip['per_s']:.2f}x), nginx {reference_gzip['per_s']:,.0f}/s; "
            f"p99 {ours_gzip['p99_us'] / 1000:.2f} ms; server CPU {gzip_cpu_us:.0f} us/request (ceiling {framework_gzip_cpu_us:.0f}); "
            f"Lisbon's answer {gzip_sizes}")
        single = wrk(base, script, 1, max(3, seconds // 2))
        single_nginx = wrk(f"http://127.0.0.1:{nginx_port}", script, 1, max(3, seconds // 2))
        total += single["requests"]
        log(f"S2 p50 at 1 connection {single['p50_us'] / 1000:.3f} ms (nginx {single_nginx['p50_us'] / 1000:.3f} ms)")

        # S3: 100 seeded places a request, generationtime_ms as the server reports it.
        rng = random.Random(SEED)
        generation = []
        for _ in range(10 if args.quick else 50):
            places = [(rng.uniform(box[0], box[1]), rng.uniform(box[2], box[3])) for _ in range(100)]
            url = (f"{base}/v1/forecast?latitude={','.join(f'{p[0]:.4f}' for p in places)}"
                   f"&longitude={','.join(f'{p[1]:.4f}' for p in places)}&{query}")
            answer = get_json(url)
            if len(answer) != 100:
                raise SystemExit(f"server-bench: S3 answered {len(answer)} places")
            generation.append(answer[0]["generationtime_ms"])
            total += 1
        log(f"S3 generationtime_ms median {statistics.median(generation):.2f}")

        # S4: on to a million requests, or as many as the budget allows.
        started = time.time()
        while total < s4_target and time.time() - started < s4_budget:
            total += wrk(base, script, 64, min(30, s4_budget))["requests"]
        after_many = memory(server.pid)
        log(f"S4 {total:,} requests, RSS {after_many['VmRSS'] / 1024:.1f} MB, peak {after_many['VmHWM'] / 1024:.1f} MB")
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
        nginx.send_signal(signal.SIGQUIT)
        nginx.wait(timeout=30)
        ceiling.terminate()
        ceiling.wait(timeout=30)

        # S5: the Python peer reading the wrfout per request, same script (its own path).
        peer_port = free_port()
        peer = subprocess.Popen([args.python, os.path.join(ROOT, "benchmarks", "peer_service.py"),
                                 "--wrfout", WRFOUT, "--port", str(peer_port)], stderr=subprocess.DEVNULL)
        processes.append(peer)
        peer_url = f"http://127.0.0.1:{peer_port}"
        deadline = time.time() + 30
        while True:
            try:
                with urllib.request.urlopen(peer_url + "/v1/forecast?latitude=38.7&longitude=-9.1", timeout=30) as reply:
                    peer_sample = json.loads(reply.read())
                if len(peer_sample["hourly"]["time"]) != 24:
                    raise SystemExit(f"server-bench: the Python peer answered {peer_sample}")
                break
            except OSError:
                if time.time() > deadline or peer.poll() is not None:
                    raise SystemExit("server-bench: the Python peer did not start")
                time.sleep(0.2)
        peer_result = wrk(peer_url, script, 64, seconds)
        log(f"S5 peer {peer_result['per_s']:,.1f}/s")
        peer.send_signal(signal.SIGTERM)
        peer.wait(timeout=30)

        result = {
            "quick": args.quick,
            "store": "SampleGrids (WRF 9 km d01 43x68 + 3 km d02 66x66, MM5 27 km), 25 hourly frames",
            "request": f"one place, 24 h, {len(VARIABLES.split(','))} hourly variables, JSON ({len(sample)} bytes)",
            "box": box,
            "S1": {"ours": ours, "nginx": reference, "ratio": ours["per_s"] / reference["per_s"],
                   "ceiling": framework, "ceiling_ratio": ours["per_s"] / framework["per_s"],
                   "ceiling_cpu_us_per_request": framework_cpu_us,
                   "server_cpu_us_per_request": cpu_per_request_us,
                   "gzip": {"ours": ours_gzip, "nginx": reference_gzip, "ratio": ours_gzip["per_s"] / reference_gzip["per_s"],
                            "ceiling": framework_gzip, "ceiling_ratio": ours_gzip["per_s"] / framework_gzip["per_s"],
                            "ceiling_cpu_us_per_request": framework_gzip_cpu_us,
                            "server_cpu_us_per_request": gzip_cpu_us, "header": GZIP, "gzipped_bytes": gzip_sizes}},
            "S2": {"p99_ms_64": ours["p99_us"] / 1000, "p50_ms_1": single["p50_us"] / 1000,
                   "nginx_p50_ms_1": single_nginx["p50_us"] / 1000, "single": single, "single_nginx": single_nginx},
            "S3": {"requests": len(generation), "median_ms": statistics.median(generation),
                   "p90_ms": sorted(generation)[int(0.9 * (len(generation) - 1))], "min_ms": min(generation)},
            "S4": {"requests_first": warm, "rss_first_kB": after_10k["VmRSS"], "requests": total,
                   "rss_kB": after_many["VmRSS"], "peak_kB": after_many["VmHWM"],
                   "growth": after_many["VmRSS"] / after_10k["VmRSS"] - 1, "target_requests": s4_target},
            "S5": {"peer": peer_result, "ratio": ours["per_s"] / peer_result["per_s"]},
        }
        os.makedirs(args.data_dir, exist_ok=True)
        with open(os.path.join(args.data_dir, "server.json"), "w") as f:
            json.dump(result, f, indent=1)
        print(json.dumps({k: result[k] for k in ("S3", "S4")}, indent=1))
    finally:
        stop(processes)
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
