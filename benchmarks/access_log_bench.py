"""The access log's share of the server's CPU per request (issue 48): servers side by side on one
store, each on one kept-alive connection, interleaved rounds, the server's own CPU time from
/proc/PID/stat (utime + stime); one round of warm-up is not counted.

    python3 benchmarks/access_log_bench.py STORE TARGET NAME=BINARY[:ARG,ARG...] ...

e.g. before=/tmp/old/tilecast-server after=.build/release/tilecast-server
off=.build/release/tilecast-server:--access-log,off. Each binary needs its
TileCast_TileCastServer.resources folder beside it. Prints the CPU per request of each.
"""
import http.client, os, subprocess, sys, time

TICK = os.sysconf("SC_CLK_TCK")
STORE, TARGET = sys.argv[1], sys.argv[2]
N, ROUNDS = 4000, 5


def cpu(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def main():
    servers = []
    for k, spec in enumerate(sys.argv[3:]):
        name, rest = spec.split("=", 1)
        binary, _, args = rest.partition(":")
        port = 24100 + k
        process = subprocess.Popen([binary, "--store", STORE, "--port", str(port)] + [a for a in args.split(",") if a],
                                   stderr=subprocess.DEVNULL)
        servers.append((name, process, port))
    time.sleep(2)
    connections = [http.client.HTTPConnection("127.0.0.1", port) for _, _, port in servers]
    totals = [0.0] * len(servers)
    try:
        for round in range(ROUNDS + 1):
            for k, (_, process, _) in enumerate(servers):
                start = cpu(process.pid)
                for _ in range(N):
                    connections[k].request("GET", TARGET)
                    reply = connections[k].getresponse()
                    reply.read()
                    assert reply.status == 200, reply.status
                if round > 0:
                    totals[k] += cpu(process.pid) - start
    finally:
        for _, process, _ in servers:
            process.terminate()
    for k, (name, _, _) in enumerate(servers):
        print(f"{name}: {totals[k] / (N * ROUNDS) * 1e6:.1f} us CPU/request ({ROUNDS} rounds x {N} of {TARGET})")


main()
