#!/usr/bin/env python3
"""O1-O3 of SPEC section 7: the store on object storage, against the local store, in one run.

  O1  a point forecast (24 h, all variables) from a bucket with a cold cache: the cycle opened
      once, then each place's first forecast (its blocks fetched), with the requests and bytes
      it cost; from moto's S3 server (Python: slow per request) and from nginx serving the same
      store folder (a fast static server, as a CDN) on loopback
  O2  the same places again with warm caches, against the local store (the B3 path), in the
      same process, interleaved (tilecast-remote bench-read)
  O3  `tilecast publish` of the run's cycle to the bucket against `tilecast extract` writing it
      to a local store (medians of interleaved runs)

Writes objstore.json into the data folder for report.py.

Usage: objstore_bench.py --tilecast BIN --run DIR --data-dir DIR [--quick]
"""
import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def wait_port(port, process):
    for _ in range(400):
        if process.poll() is not None:
            raise SystemExit(f"objstore: server on {port} exited")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise SystemExit(f"objstore: nothing listens on {port}")


def run(command, env=None):
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    if result.returncode != 0:
        raise SystemExit(f"objstore: {' '.join(command[:3])} ... exited {result.returncode}: {result.stderr.strip()}")
    return result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tilecast", required=True)
    parser.add_argument("--run", required=True)
    parser.add_argument("--data-dir", required=True)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    tilecast = os.path.abspath(args.tilecast)
    remote = os.path.join(os.path.dirname(tilecast), "tilecast-remote")
    files = sorted(os.path.join(args.run, n) for n in os.listdir(args.run) if n.startswith("wrfout_"))
    runs = 1 if args.quick else 3
    places, rounds = (20, 3) if args.quick else (200, 20)
    env = dict(os.environ, AWS_ACCESS_KEY_ID="bench", AWS_SECRET_ACCESS_KEY="bench", AWS_REGION="us-east-1",
               AWS_CONFIG_FILE="/nonexistent", AWS_SHARED_CREDENTIALS_FILE="/nonexistent")
    work = tempfile.mkdtemp(prefix="tilecast-objstore-")
    os.chmod(work, 0o755)  # nginx's workers (www-data) read the store from here
    servers = []
    try:
        moto_port = free_port()
        moto = subprocess.Popen([sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(moto_port)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        servers.append(moto)
        wait_port(moto_port, moto)
        endpoint = f"http://127.0.0.1:{moto_port}"
        run([sys.executable, "-c", "import boto3,sys; boto3.client('s3', endpoint_url=sys.argv[1]).create_bucket(Bucket='bench')", endpoint], env=env)

        # O3: extraction to a local store against publishing that cycle, interleaved.
        store = os.path.join(work, "store")
        extract_s, publish_s, copy_s = [], [], []
        for k in range(runs):
            shutil.rmtree(store, ignore_errors=True)
            start = time.perf_counter()
            run([tilecast, "extract"] + files + ["--store", store, "--model", "wrf", "--quiet"])
            extract_s.append(time.perf_counter() - start)
            start = time.perf_counter()
            run([tilecast, "publish", "--store", store, "--to", f"s3://bench/run{k}", "--s3-endpoint", endpoint], env=env)
            publish_s.append(time.perf_counter() - start)
            start = time.perf_counter()
            shutil.copytree(os.path.join(store, "wrf", ".data"), os.path.join(work, f"copy{k}"))
            copy_s.append(time.perf_counter() - start)
        cycle_bytes = sum(os.path.getsize(os.path.join(r, n)) for r, _, ns in os.walk(os.path.join(store, "wrf", ".data")) for n in ns)

        # O1, O2: from the bucket, and from nginx serving the store folder.
        bench = [remote, "bench-read", "--local", store, "--model", "wrf", "--places", str(places), "--rounds", str(rounds)]
        from_s3 = json.loads(run(bench + ["--remote", f"s3://bench/run{runs - 1}", "--s3-endpoint", endpoint], env=env).stdout)
        # O1's target is stated for the default variables: their cold forecasts too, each in a
        # fresh process (a cold cache), on the same places.
        from_s3_default = json.loads(run(bench + ["--remote", f"s3://bench/run{runs - 1}", "--s3-endpoint", endpoint,
                                                  "--variable-set", "default"], env=env).stdout)
        from_http = from_http_default = None
        nginx = shutil.which("nginx") or "/usr/sbin/nginx"
        if os.path.exists(nginx):
            port = free_port()
            conf = os.path.join(work, "nginx.conf")
            with open(conf, "w") as f:
                f.write(f"daemon off; worker_processes 1; pid {work}/nginx.pid; error_log {work}/nginx.err;\n"
                        f"events {{ worker_connections 256; }}\n"
                        f"http {{ access_log off; client_body_temp_path {work}/b; proxy_temp_path {work}/p; fastcgi_temp_path {work}/f; "
                        f"uwsgi_temp_path {work}/u; scgi_temp_path {work}/s; server {{ listen 127.0.0.1:{port}; root {store}; location / {{ }} }} }}\n")
            server = subprocess.Popen([nginx, "-c", conf, "-p", work], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            servers.append(server)
            wait_port(port, server)
            from_http = json.loads(run(bench + ["--remote", f"http://127.0.0.1:{port}"]).stdout)
            from_http_default = json.loads(run(bench + ["--remote", f"http://127.0.0.1:{port}", "--variable-set", "default"]).stdout)

        result = {
            "run": os.path.basename(args.run.rstrip("/")), "input_bytes": sum(os.path.getsize(f) for f in files),
            "cycle_bytes": cycle_bytes, "runs": runs,
            "extract_s": statistics.median(extract_s), "publish_s": statistics.median(publish_s), "copy_s": statistics.median(copy_s),
            "s3": from_s3, "http": from_http, "s3_default": from_s3_default, "http_default": from_http_default,
        }
        os.makedirs(args.data_dir, exist_ok=True)
        with open(os.path.join(args.data_dir, "objstore.json"), "w") as f:
            json.dump(result, f, indent=1, sort_keys=True)
        print(json.dumps(result, indent=1, sort_keys=True))
    finally:
        for server in servers:
            server.terminate()
            server.wait()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
