#!/usr/bin/env python3
"""Request targets for benchmarks/request-bench: S1's request shape (benchmarks/server_bench.py:
one seeded random place inside the WRF d01 domain of SampleGrids, 15 hourly variables, 24 h),
one target a line.

    python3 benchmarks/request_targets.py COUNT > targets.txt
"""
import random
import sys

import server_bench

count = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
lat0, lat1, lon0, lon1 = server_bench.domain_box()
generator = random.Random(server_bench.SEED)
for _ in range(count):
    lat = lat0 + generator.random() * (lat1 - lat0)
    lon = lon0 + generator.random() * (lon1 - lon0)
    print(f"/v1/forecast?latitude={lat:.4f}&longitude={lon:.4f}&hourly={server_bench.VARIABLES}&{server_bench.HOURS}")
