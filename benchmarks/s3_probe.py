"""S3 on its own: starts a tilecast-server binary on a store (SampleGrids extracted), sends N requests of
100 seeded places x the bench variables x 24 h (server_bench.py's S3 shape) and prints generationtime_ms
median/p90 and the server's CPU a request: for before/after runs of two binaries, interleaved by hand.
usage: python3 s3_probe.py SERVER_BINARY STORE [N]  (run from benchmarks/; PERF=file records perf)"""
import sys, os, json, random, statistics, subprocess, time, urllib.request, socket
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import server_bench as sb
server = sys.argv[1]; store = sys.argv[2]; n = int(sys.argv[3]) if len(sys.argv) > 3 else 50
port = sb.free_port()
cmd = (["perf", "record", "-g", "-o", os.environ["PERF"]] if os.environ.get("PERF") else []) + [server, "--store", store, "--port", str(port)]
p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
base = f"http://127.0.0.1:{port}"
try:
    for _ in range(100):
        try: urllib.request.urlopen(base + "/v1/forecast?latitude=38.7&longitude=-9.1&hourly=temperature_2m").read(); break
        except Exception: time.sleep(0.1)
    box = sb.domain_box(); rng = random.Random(sb.SEED); gen = []
    stat = None
    query = f"hourly={sb.VARIABLES}&{sb.HOURS}"
    for i in range(n + 5):
        places = [(rng.uniform(box[0], box[1]), rng.uniform(box[2], box[3])) for _ in range(100)]
        url = (f"{base}/v1/forecast?latitude={','.join(f'{q[0]:.4f}' for q in places)}"
               f"&longitude={','.join(f'{q[1]:.4f}' for q in places)}&{query}")
        a = json.load(urllib.request.urlopen(url))
        assert len(a) == 100
        if i >= 5: gen.append(a[0]["generationtime_ms"])
        if i == 4:
            cpu0 = sum(int(x) for x in open(f"/proc/{p.pid}/stat").read().split(")")[1].split()[11:13])
        if i == 4 and os.environ.get("STAT"):
            stat = subprocess.Popen(["perf", "stat", "-e", "instructions:u", "-p", str(p.pid), "-x", ",", "-o", os.environ["STAT"]])
            time.sleep(0.5)
    if stat:
        stat.send_signal(2); stat.wait()
        print("instructions per request", int(open(os.environ["STAT"]).read().split("instructions")[0].strip().splitlines()[-1].split(",")[0]) // max(n, 1))
    cpu1 = sum(int(x) for x in open(f"/proc/{p.pid}/stat").read().split(")")[1].split()[11:13])
    print(f"server CPU {(cpu1 - cpu0) / os.sysconf('SC_CLK_TCK') / max(n, 1) * 1000:.2f} ms/request")
    print(f"S3 median {statistics.median(gen) if gen else 0:.3f} ms p90 {sorted(gen)[int(len(gen)*0.9)] if gen else 0:.3f} ms n={len(gen)} pid={p.pid}")
finally:
    p.send_signal(2); p.wait()
