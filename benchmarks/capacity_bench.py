#!/usr/bin/env python3
"""Capacity on paper, checked (issue 30): N `tilecast serve` over one bucket behind nginx.

    python3 benchmarks/capacity_bench.py --tilecast .build/release/tilecast \
        --server .build/release/tilecast-server --data-dir benchmarks/data [--servers 2] [--quick]

The set-up of ManyServersTests and of docs/OPERATIONS.md's deployment: SampleGrids extracted
and published to moto's S3 server, N stateless servers reading the bucket (each with its own
block cache), nginx in front (round robin, keep-alive to the upstreams). Between the servers
and moto sits Tests/ObjectStoreTests/fault_proxy.py with no fault set: it forwards every
request unchanged and counts them, which is how bucket GETs are counted.

Four measurements, one run, the same wrk script as S1 (a seeded random place in WRF d01 per
request, 24 h of S1's 15 variables):
  1. one server alone, saturated (64 connections): requests/s, server CPU per request;
  2. cold: the servers fresh on a cycle, a paced load through nginx: bucket GETs and bytes
     until every block the places need is cached (a cycle switch costs each server this);
  3. warm: the same paced load: achieved rate, latency, errors, bucket GETs per 1,000
     requests, each server's CPU per request and resident memory;
  4. saturated through nginx: the aggregate rate, against the rate the model predicts from
     (1) and nginx's own CPU per request on this machine's cores.
The pace is the 1-million-user peak of docs/OPERATIONS.md scaled to this machine:
--rate requests/s (default 1,000), made by wrk's `delay()` per connection.
Writes DATA_DIR/capacity.json and prints it.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import server_bench as sb  # noqa: E402  (wrk, its Lua script, /proc readers)

ROOT = os.path.dirname(HERE)
PROXY = os.path.join(ROOT, "Tests", "ObjectStoreTests", "fault_proxy.py")


def log(message):
    print(f"capacity: {message}", file=sys.stderr, flush=True)


def proxy_stats(port):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/__stats__", timeout=10) as reply:
        requests, sent_bytes = (int(x) for x in reply.read().split()[:2])
    return requests, sent_bytes


def paced_script(path, box, query, delay_ms):
    """S1's script, each connection waiting delay_ms between its requests."""
    sb.lua_script(path, box, query)
    with open(path, "a") as f:
        f.write(f"\nfunction delay()\n  return {delay_ms}\nend\n")


def cpu(pids):
    return sum(sb.cpu_seconds(pid) for pid in pids)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tilecast", required=True)
    parser.add_argument("--server", required=True)
    parser.add_argument("--data-dir", required=True)
    parser.add_argument("--servers", type=int, default=2)
    parser.add_argument("--rate", type=float, default=1000, help="the paced load, requests/s")
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    seconds = 4 if args.quick else 10
    env = dict(os.environ, AWS_ACCESS_KEY_ID="bench", AWS_SECRET_ACCESS_KEY="bench", AWS_REGION="us-east-1",
               AWS_CONFIG_FILE="/nonexistent", AWS_SHARED_CREDENTIALS_FILE="/nonexistent")
    scratch = tempfile.mkdtemp(prefix="tilecast-capacity-")
    processes = []

    def start(command, **kwargs):
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **kwargs)
        processes.append(process)
        return process

    try:
        store = os.path.join(scratch, "store")
        subprocess.run([args.tilecast, "extract", sb.SAMPLES, "--store", store, "--quiet"], check=True, stdout=subprocess.DEVNULL)
        cycle_bytes = sum(os.path.getsize(os.path.join(r, n)) for r, _, ns in os.walk(store) for n in ns)

        moto_port, proxy_port = sb.free_port(), sb.free_port()
        moto = start([sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(moto_port)])
        sb.wait_until_up(f"http://127.0.0.1:{moto_port}/", moto)
        proxy = start([sys.executable, PROXY, str(proxy_port), f"127.0.0.1:{moto_port}"])
        sb.wait_until_up(f"http://127.0.0.1:{proxy_port}/__stats__", proxy)
        endpoint = f"http://127.0.0.1:{proxy_port}"
        subprocess.run([sys.executable, "-c", "import boto3,sys; boto3.client('s3', endpoint_url=sys.argv[1]).create_bucket(Bucket='bench')",
                        endpoint], env=env, check=True)
        subprocess.run([args.tilecast, "publish", "--store", store, "--to", "s3://bench/store", "--s3-endpoint", endpoint],
                       env=env, check=True, stdout=subprocess.DEVNULL)

        # The servers: stateless, each with its own cache, polling latest every 30 s.
        before_open = proxy_stats(proxy_port)
        servers, ports = [], []
        for _ in range(args.servers):
            port = sb.free_port()
            servers.append(start([args.server, "--store", "s3://bench/store", "--model", "wrf", "--model", "mm5",
                                  "--s3-endpoint", endpoint, "--port", str(port)], env=env))
            ports.append(port)
        for port, server in zip(ports, servers):
            sb.wait_until_up(f"http://127.0.0.1:{port}/health", server)
        opened = proxy_stats(proxy_port)
        opening = {"requests": (opened[0] - before_open[0]) / args.servers, "bytes": (opened[1] - before_open[1]) / args.servers}
        log(f"{args.servers} servers up; opening a cycle cost each {opening['requests']:.0f} requests, {opening['bytes'] / 1024:.1f} KB")

        # nginx in front, as Scripts/ops/nginx-tilecast.conf: round robin, keep-alive upstreams.
        nginx_port = sb.free_port()
        conf = os.path.join(scratch, "nginx.conf")
        upstreams = "\n    ".join(f"server 127.0.0.1:{p};" for p in ports)
        with open(conf, "w") as f:
            f.write(f"""worker_processes 1;
pid {scratch}/nginx.pid;
error_log {scratch}/nginx-error.log;
events {{ worker_connections 1024; }}
http {{
  access_log off;
  client_body_temp_path {scratch}/nginx-body;
  proxy_temp_path {scratch}/nginx-proxy;
  fastcgi_temp_path {scratch}/nginx-fastcgi;
  uwsgi_temp_path {scratch}/nginx-uwsgi;
  scgi_temp_path {scratch}/nginx-scgi;
  upstream tilecast {{
    {upstreams}
    keepalive 64;
  }}
  server {{
    listen 127.0.0.1:{nginx_port};
    location / {{
      proxy_pass http://tilecast;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
    }}
  }}
}}
""")
        nginx_binary = shutil.which("nginx") or "/usr/sbin/nginx"
        nginx = start([nginx_binary, "-c", conf, "-g", "daemon off;"])
        front = f"http://127.0.0.1:{nginx_port}"
        sb.wait_until_up(front + "/health", nginx)

        def nginx_pids():
            return [nginx.pid] + [int(p) for p in subprocess.run(["pgrep", "-P", str(nginx.pid)], capture_output=True,
                                                                   text=True).stdout.split()]

        box = sb.domain_box()
        query = f"hourly={sb.VARIABLES}&{sb.HOURS}"
        connections = 32
        paced = os.path.join(scratch, "paced.lua")
        # Each connection's cycle is its delay plus the answer's latency (wrk has no fixed-rate
        # mode): a first guess for the cold phase, then the delay set from the warm latency.
        delay_ms = max(1, round(connections / args.rate * 1000 - 1))
        paced_script(paced, box, query, delay_ms)
        saturating = os.path.join(scratch, "places.lua")
        sb.lua_script(saturating, box, query)

        # 2. Cold: fresh caches on the cycle, the paced load until the bucket goes quiet.
        cold_before = proxy_stats(proxy_port)
        cold_requests = 0
        for _ in range(6):
            step_before = proxy_stats(proxy_port)
            cold_requests += sb.wrk(front, paced, connections, seconds)["requests"]
            step_after = proxy_stats(proxy_port)
            if step_after[0] - step_before[0] <= 2 * args.servers:   # polls of latest only
                break
        cold_after = proxy_stats(proxy_port)
        cold = {"forecasts": cold_requests, "gets": cold_after[0] - cold_before[0], "bytes": cold_after[1] - cold_before[1]}
        log(f"cold: {cold['gets']} bucket requests, {cold['bytes'] / 1e6:.2f} MB until warm ({cold_requests} forecasts); "
            f"the store holds {cycle_bytes / 1e6:.2f} MB")

        # 3. Warm, paced: the delay that gives the asked rate at the warm latency, then the run.
        for _ in range(3):
            probe = sb.wrk(front, paced, connections, 3)
            # A connection's cycle is connections / rate; what is not the delay is the latency.
            latency_ms = connections / max(probe["per_s"], 1) * 1000 - delay_ms
            delay_ms = max(1, round(connections / args.rate * 1000 - latency_ms))
            paced_script(paced, box, query, delay_ms)
        warm_before, cpu_before = proxy_stats(proxy_port), cpu([s.pid for s in servers])
        nginx_cpu_before = cpu(nginx_pids())
        warm = sb.wrk(front, paced, connections, seconds * 3)
        warm_after = proxy_stats(proxy_port)
        warm_cpu_us = (cpu([s.pid for s in servers]) - cpu_before) / warm["requests"] * 1e6
        nginx_cpu_us = (cpu(nginx_pids()) - nginx_cpu_before) / warm["requests"] * 1e6
        warm_gets = warm_after[0] - warm_before[0]
        rss = [sb.memory(s.pid) for s in servers]
        log(f"warm paced: {warm['per_s']:,.0f}/s asked {args.rate:,.0f}/s, p50 {warm['p50_us'] / 1000:.2f} ms, "
            f"p99 {warm['p99_us'] / 1000:.2f} ms, errors {warm['non2xx'] + warm['connect'] + warm['read'] + warm['timeout']}, "
            f"{warm_gets} bucket requests ({1000 * warm_gets / max(warm['requests'], 1):.2f} per 1,000), "
            f"server CPU {warm_cpu_us:.0f} us/request, nginx {nginx_cpu_us:.0f} us/request, RSS {[m['VmRSS'] // 1024 for m in rss]} MB")

        # 1 and 4, interleaved twice (the machine is shared: a neighbour's load shifts both alike):
        # one server alone, saturated, then N behind nginx, saturated.
        cores = os.cpu_count() or 1
        direct = f"http://127.0.0.1:{ports[0]}"
        rounds = []
        for _ in range(2):
            cpu_before = sb.cpu_seconds(servers[0].pid)
            alone = sb.wrk(direct, saturating, 64, seconds)
            alone_cpu_us = (sb.cpu_seconds(servers[0].pid) - cpu_before) / alone["requests"] * 1e6
            cpu_before, nginx_cpu_before = cpu([s.pid for s in servers]), cpu(nginx_pids())
            together = sb.wrk(front, saturating, 64, seconds)
            together_cpu_us = (cpu([s.pid for s in servers]) - cpu_before) / together["requests"] * 1e6
            together_nginx_us = (cpu(nginx_pids()) - nginx_cpu_before) / together["requests"] * 1e6
            # The model: the machine's cores (shared with wrk, as in (1)) do the same server work
            # per request plus nginx's, whatever the number of servers: (1)'s rate scaled by the
            # share of each request's CPU that is the server's.
            predicted = alone["per_s"] * alone_cpu_us / (alone_cpu_us + together_nginx_us)
            log(f"one server alone: {alone['per_s']:,.0f}/s, p99 {alone['p99_us'] / 1000:.2f} ms, {alone_cpu_us:.0f} us CPU/request "
                f"({1e6 / alone_cpu_us:,.0f} requests/s per core of server CPU); {args.servers} behind nginx: "
                f"{together['per_s']:,.0f}/s, p99 {together['p99_us'] / 1000:.2f} ms, server CPU {together_cpu_us:.0f} us/request, "
                f"nginx {together_nginx_us:.0f}; model {predicted:,.0f}/s: measured {together['per_s'] / predicted:.2f}x")
            rounds.append({"alone": alone, "alone_cpu_us": alone_cpu_us, "together": together, "together_cpu_us": together_cpu_us,
                           "nginx_cpu_us": together_nginx_us, "model_per_s": predicted,
                           "measured_over_model": together["per_s"] / predicted})

        result = {
            "quick": args.quick, "servers": args.servers, "cores": cores, "cycle_bytes": cycle_bytes,
            "request": f"one place, 24 h, {len(sb.VARIABLES.split(','))} hourly variables, JSON",
            "opening_per_server": opening, "cold": cold,
            "warm_paced": {"asked_per_s": args.rate, "connections": connections, "delay_ms": delay_ms, "wrk": warm,
                           "bucket_requests": warm_gets, "bucket_requests_per_1000": 1000 * warm_gets / max(warm["requests"], 1),
                           "server_cpu_us_per_request": warm_cpu_us, "nginx_cpu_us_per_request": nginx_cpu_us,
                           "rss_kB": [m["VmRSS"] for m in rss], "peak_kB": [m["VmHWM"] for m in rss]},
            "saturated_rounds": rounds,
        }
        os.makedirs(args.data_dir, exist_ok=True)
        with open(os.path.join(args.data_dir, "capacity.json"), "w") as f:
            json.dump(result, f, indent=1)
        print(json.dumps(result, indent=1))
    finally:
        sb.stop(list(reversed(processes)))   # the servers before the bucket they read
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
