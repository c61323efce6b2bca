#!/usr/bin/env python3
"""Request targets for benchmarks/request-bench: S1's request shape (benchmarks/server_bench.py:
one seeded random place inside the WRF d01 domain of SampleGrids, 15 hourly variables, 24 h),
one target a line; with PLACES, S3's shape instead (that many places a request).

    python3 benchmarks/request_targets.py COUNT [PLACES] > targets.txt
"""
import random
import sys

import server_bench

count = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
places = int(sys.argv[2]) if len(sys.argv) > 2 else 1
lat0, lat1, lon0, lon1 = server_bench.domain_box()
generator = random.Random(server_bench.SEED)
for _ in range(count):
    points = [(lat0 + generator.random() * (lat1 - lat0), lon0 + generator.random() * (lon1 - lon0)) for _ in range(places)]
    latitudes = ",".join(f"{lat:.4f}" for lat, _ in points)
    longitudes = ",".join(f"{lon:.4f}" for _, lon in points)
    print(f"/v1/forecast?latitude={latitudes}&longitude={longitudes}&hourly={server_bench.VARIABLES}&{server_bench.HOURS}")
