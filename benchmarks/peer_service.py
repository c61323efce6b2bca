#!/usr/bin/env python3
"""S5's peer: the old way of serving a point forecast, as the centre's original services did.

    python3 benchmarks/peer_service.py --wrfout FILE --port N

A standard-library HTTP server (one thread per connection) that, for every request
GET /forecast?latitude=..&longitude=.., opens the raw wrfout with xarray, finds the nearest
grid cell, reads 24 hours of the surface fields there, converts them (°C, %, hPa, m/s, mm)
and answers JSON. No cache between requests: the original services read the file per request.
"""
import argparse
import json
import math
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

import numpy as np
import xarray as xr


def forecast(path, lat, lon):
    with xr.open_dataset(path, decode_times=False) as ds:
        xlat = ds["XLAT"].values
        xlon = ds["XLONG"].values
        if xlat.ndim == 3:
            xlat, xlon = xlat[0], xlon[0]
        j, i = np.unravel_index(np.argmin((xlat - lat) ** 2 + ((xlon - lon) * math.cos(math.radians(lat))) ** 2), xlat.shape)
        hours = slice(0, 24)
        t2 = ds["T2"][hours, j, i].values - 273.15
        q2 = ds["Q2"][hours, j, i].values
        psfc = ds["PSFC"][hours, j, i].values
        u10 = ds["U10"][hours, j, i].values
        v10 = ds["V10"][hours, j, i].values
        rain = (ds["RAINC"][:, j, i].values + ds["RAINNC"][:, j, i].values)
        swdown = ds["SWDOWN"][hours, j, i].values
        raw = ds["Times"].values[hours]
        # xarray gives the WRF character array as fixed-width byte strings (or as characters).
        times = [row.decode() if isinstance(row, bytes) else b"".join(row).decode() for row in raw]
    # Relative humidity from the mixing ratio (Bolton's saturation vapour pressure).
    e = q2 * psfc / (0.622 + q2)
    es = 611.2 * np.exp(17.67 * t2 / (t2 + 243.5))
    rh = np.clip(100 * e / es, 0, 100)
    precipitation = np.diff(rain)[:24] if rain.size > 1 else np.zeros(24)
    return {
        "latitude": float(xlat[j, i]), "longitude": float(xlon[j, i]),
        "hourly": {
            "time": times,
            "temperature_2m": [round(float(v), 1) for v in t2],
            "relative_humidity_2m": [round(float(v)) for v in rh],
            "surface_pressure": [round(float(v) / 100, 1) for v in psfc],
            "wind_speed_10m": [round(float(math.hypot(a, b)), 1) for a, b in zip(u10, v10)],
            "wind_direction_10m": [round((math.degrees(math.atan2(a, b)) + 180) % 360) for a, b in zip(u10, v10)],
            "precipitation": [round(float(v), 2) for v in precipitation],
            "shortwave_radiation": [round(float(v)) for v in swdown],
        },
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--wrfout", required=True)
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self):
            url = urlparse(self.path)
            query = parse_qs(url.query)
            try:
                body = json.dumps(forecast(args.wrfout, float(query["latitude"][0]), float(query["longitude"][0]))).encode()
                status = 200
            except (KeyError, ValueError) as error:
                body, status = json.dumps({"error": True, "reason": str(error)}).encode(), 400
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    ThreadingHTTPServer.daemon_threads = True
    ThreadingHTTPServer(("127.0.0.1", args.port), Handler).serve_forever()


if __name__ == "__main__":
    main()
