"""A fault-injecting HTTP proxy for the object-store tests: forwards every request, unchanged
(Host header included, so SigV4 signatures still hold), to one upstream server (nginx or moto),
and damages chosen answers on the way back, as a flaky network or store would.

usage: fault_proxy.py PORT UPSTREAM_HOST:PORT

Control (answered by the proxy itself):
  GET /__fault__?mode=M&count=N&match=S&method=X&blocks=B&interval=T   the next N requests (-1: all)
      whose path contains S (and whose method is X, if given; and, with blocks=1, that read a
      range inside a file, not its first bytes nor its tail) get fault M:
        none       forwarded as is
        status503  answered 503 SlowDown without reaching the upstream (S3 throttling)
        truncate   the upstream's answer, cut short: full Content-Length, half the body, closed
        flip       the upstream's answer with one byte of the body flipped
        refuse     the connection closed without an answer (a server that died)
        stall      no answer at all for T seconds (default 3600): a server that hangs
        endless    the upstream's status and headers, then a chunked body that never ends
        huge       the upstream's status and headers with Content-Length 1 GiB, then that
                   many bytes (a body far larger than the range asked for)
        trickle    the upstream's answer, its body one byte every T seconds
  GET /__stats__   "requests bytes" forwarded so far
  GET /__sent__    bytes the endless, huge and trickle faults wrote before the client left
"""
import time
import http.client
import sys
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PORT = int(sys.argv[1])
UP_HOST, UP_PORT = sys.argv[2].rsplit(":", 1)
LOCK = threading.Lock()
FAULT = {"mode": "none", "count": 0, "match": "", "method": "", "blocks": False, "interval": 3600.0}
STATS = {"requests": 0, "bytes": 0, "sent": 0}


def take_fault(method, path, byte_range):
    with LOCK:
        if FAULT["mode"] == "none" or FAULT["count"] == 0:
            return "none", 0
        # blocks=1: only ranged reads of data blocks (not a file's first bytes nor its tail).
        if FAULT["blocks"] and not (byte_range.startswith("bytes=") and not byte_range.startswith("bytes=-")
                                    and not byte_range.startswith("bytes=0-")):
            return "none", 0
        if FAULT["match"] not in path or (FAULT["method"] and FAULT["method"] != method):
            return "none", 0
        if FAULT["count"] > 0:
            FAULT["count"] -= 1
        return FAULT["mode"], FAULT["interval"]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def control(self):
        query = urllib.parse.parse_qs(urllib.parse.urlparse(self.path).query)
        if self.path.startswith("/__fault__"):
            with LOCK:
                FAULT["mode"] = query.get("mode", ["none"])[0]
                FAULT["count"] = int(query.get("count", ["-1"])[0])
                FAULT["match"] = query.get("match", [""])[0]
                FAULT["method"] = query.get("method", [""])[0]
                FAULT["blocks"] = query.get("blocks", ["0"])[0] == "1"
                FAULT["interval"] = float(query.get("interval", ["3600"])[0])
            body = b"ok"
        elif self.path.startswith("/__sent__"):
            with LOCK:
                body = str(STATS["sent"]).encode()
        else:
            with LOCK:
                body = f"{STATS['requests']} {STATS['bytes']}".encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def forward(self):
        if self.path.startswith("/__fault__") or self.path.startswith("/__stats__") or self.path.startswith("/__sent__"):
            return self.control()
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else None
        fault, interval = take_fault(self.command, self.path, self.headers.get("Range") or "")
        if fault == "stall":
            time.sleep(interval)
            self.close_connection = True
            return
        if fault == "refuse":
            self.close_connection = True
            self.connection.shutdown(2)
            return
        if fault == "status503":
            answer = b"<?xml version=\"1.0\"?><Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>"
            self.send_response(503)
            self.send_header("Content-Type", "application/xml")
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)
            return
        upstream = http.client.HTTPConnection(UP_HOST, int(UP_PORT), timeout=60)
        headers = {k: v for k, v in self.headers.items() if k.lower() not in ("connection", "keep-alive")}
        upstream.request(self.command, self.path, body=body, headers=headers)
        response = upstream.getresponse()
        payload = response.read()
        upstream.close()
        with LOCK:
            STATS["requests"] += 1
            STATS["bytes"] += len(payload)
        if fault in ("endless", "huge", "trickle"):
            return self.misbehave(fault, interval, response, payload)
        if fault == "flip" and payload:
            middle = len(payload) // 2
            payload = payload[:middle] + bytes([payload[middle] ^ 0x40]) + payload[middle + 1:]
        self.send_response(response.status, response.reason)
        for key, value in response.getheaders():
            if key.lower() not in ("connection", "keep-alive", "transfer-encoding", "content-length", "server", "date"):
                self.send_header(key, value)
        self.send_header("Content-Length", str(len(payload)))
        if fault == "truncate":
            self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(payload[: len(payload) // 2] if fault == "truncate" else payload)
        if fault == "truncate":
            self.wfile.flush()
            self.close_connection = True

    def misbehave(self, fault, interval, response, payload):
        """Answers as a broken server would, until the client gives up (counted in STATS["sent"])."""
        self.close_connection = True
        self.send_response(response.status, response.reason)
        for key, value in response.getheaders():
            if key.lower() not in ("connection", "keep-alive", "transfer-encoding", "content-length", "server", "date"):
                self.send_header(key, value)
        if fault == "endless":
            self.send_header("Transfer-Encoding", "chunked")
        elif fault == "huge":
            self.send_header("Content-Length", str(1 << 30))
        else:
            self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        chunk = bytes(65536)
        sent = 0
        try:
            if fault == "endless":
                while True:
                    self.wfile.write(b"%x\r\n" % len(chunk) + chunk + b"\r\n")
                    sent += len(chunk)
            elif fault == "huge":
                while sent < (1 << 30):
                    self.wfile.write(chunk)
                    sent += len(chunk)
            else:
                for index in range(len(payload)):
                    self.wfile.write(payload[index:index + 1])
                    self.wfile.flush()
                    sent += 1
                    time.sleep(interval)
        except (BrokenPipeError, ConnectionResetError, OSError):
            pass
        finally:
            with LOCK:
                STATS["sent"] += sent

    do_GET = do_PUT = do_POST = do_DELETE = do_HEAD = forward


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True


Server(("127.0.0.1", PORT), Handler).serve_forever()
