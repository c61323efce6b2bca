#!/usr/bin/env python3
"""S1-revalidate (issue 48): `tilecast serve` answering requests whose If-None-Match names the
answer's ETag (a 304, no forecast made), against the bare Hummingbird server (benchmarks'
hummingbird-ceiling) returning the same answer's body from memory, under the same wrk settings,
in one run. The three are interleaved round by round (the machines are shared and noisy) and
each rate is the median of its rounds; the ratio is ours over the ceiling's.

Also measured in the same rounds, for context: the full answer of the same request (S1's work
for one fixed place) from `tilecast serve`.

  python3 benchmarks/revalidate_bench.py --tilecast .build/release/tilecast \
      --server .build/release/tilecast-server --ceiling benchmarks/.build/portable/release/hummingbird-ceiling \
      [--rounds 5] [--seconds 5] [--data-dir benchmarks/data]
"""
import argparse
import json
import os
import statistics
import subprocess
import tempfile
import urllib.request

from server_bench import LUA_SUMMARY, free_port, wait_until_up, wrk   # the same wrk settings and summary as S1

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PATH = ("/v1/forecast?latitude=38.7223&longitude=-9.1393&hourly=temperature_2m,relative_humidity_2m,precipitation,"
        "wind_speed_10m,wind_direction_10m,cloud_cover,weather_code&start_date=2026-11-22&end_date=2026-11-22")


def lua_script(path):
    """A fixed request target; one JSON line when done (counts non-2xx apart: a 304 is one)."""
    script = os.path.join(tempfile.mkdtemp(prefix="tilecast-revalidate-"), "fixed.lua")
    with open(script, "w") as f:
        f.write(f"""
function request() return wrk.format("GET", "{path}") end
{LUA_SUMMARY}""")
    return script


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tilecast", required=True)
    parser.add_argument("--server", required=True)
    parser.add_argument("--ceiling", required=True)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--data-dir", default=os.path.join(ROOT, "benchmarks", "data"))
    args = parser.parse_args()
    scratch = tempfile.mkdtemp(prefix="tilecast-revalidate-")
    store = os.path.join(scratch, "store")
    subprocess.run([args.tilecast, "extract", os.path.join(ROOT, "SampleGrids"), "--store", store, "--quiet"], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    processes = []
    try:
        port = free_port()
        server = subprocess.Popen([args.server, "--store", store, "--port", str(port)], stderr=subprocess.DEVNULL)
        processes.append(server)
        base = f"http://127.0.0.1:{port}"
        wait_until_up(base + "/health", server)
        with urllib.request.urlopen(base + PATH) as reply:
            body, tag = reply.read(), reply.headers["ETag"]
        if not tag:
            raise SystemExit("revalidate-bench: the answer has no ETag")
        answer = os.path.join(scratch, "answer.json")
        with open(answer, "wb") as f:
            f.write(body)
        ceiling_port = free_port()
        ceiling = subprocess.Popen([args.ceiling, answer, str(ceiling_port)], stderr=subprocess.DEVNULL)
        processes.append(ceiling)
        ceiling_url = f"http://127.0.0.1:{ceiling_port}"
        wait_until_up(ceiling_url + "/x", ceiling)
        script = lua_script(PATH)
        header = f"If-None-Match: {tag}"
        for url, extra in ((base, header), (base, None), (ceiling_url, None)):   # warm-up
            wrk(url, script, 64, 2, header=extra)
        rounds = {"revalidate": [], "full": [], "ceiling": []}
        for _ in range(args.rounds):
            rounds["revalidate"].append(wrk(base, script, 64, args.seconds, header=header))
            rounds["ceiling"].append(wrk(ceiling_url, script, 64, args.seconds))
            rounds["full"].append(wrk(base, script, 64, args.seconds))
        # wrk counts only statuses from 400 as errors: a 304 is told by its size (headers only,
        # under 300 bytes; the answer is bigger than that by its body).
        if any(r["non2xx"] or r["bytes"] / r["requests"] >= 300 for r in rounds["revalidate"]) or len(body) < 300:
            raise SystemExit("revalidate-bench: not every revalidation was a 304")
        if any(r["non2xx"] for r in rounds["full"] + rounds["ceiling"]):
            raise SystemExit("revalidate-bench: a full answer was not a 200")
        median = {k: statistics.median(r["per_s"] for r in v) for k, v in rounds.items()}
        result = {"request": PATH, "etag": tag, "body_bytes": len(body), "rounds": args.rounds, "seconds": args.seconds,
                  "connections": 64, "per_s": median,
                  "revalidate_ratio": median["revalidate"] / median["ceiling"],
                  "full_ratio": median["full"] / median["ceiling"],
                  "p99_ms": {k: statistics.median(r["p99_us"] for r in v) / 1000 for k, v in rounds.items()},
                  "all": rounds}
        os.makedirs(args.data_dir, exist_ok=True)
        with open(os.path.join(args.data_dir, "revalidate.json"), "w") as f:
            json.dump(result, f, indent=1)
        print(f"S1-revalidate: 304s {median['revalidate']:,.0f}/s, Hummingbird ceiling (the {len(body)}-byte body) "
              f"{median['ceiling']:,.0f}/s: {result['revalidate_ratio']:.2f}x (goal 0.8x); the full answer "
              f"{median['full']:,.0f}/s ({result['full_ratio']:.2f}x); p99 ms {result['p99_ms']}; "
              f"median of {args.rounds} interleaved rounds of {args.seconds} s, 64 connections")
    finally:
        for process in processes:
            process.terminate()
            process.wait()


if __name__ == "__main__":
    main()
