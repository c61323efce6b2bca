#!/usr/bin/env python3
"""B1 in vectorised numpy: the peer the fast build must beat by 15x (SPEC section 7).

Reads the inputs the Swift benchmark wrote (field.f32 laid out [j][i][t], positions.f64 as
(i, j) pairs, meta.json), does the same work as Sources/Interpolation and the C kernel
(stencil with the same snapping and aliasing rules, weights in float64 rounded to float32
once, then ((w00*a + w10*b) + w01*c) + w11*d in float32: np.take gathers each corner's
series, the weights broadcast over time), times it, and checks its output
against every swift-LABEL.f32 the Swift runs left: the maximum absolute difference and the
number of values whose bits differ (NaN equals NaN).

    python3 benchmarks/numpy_kernel.py --data-dir benchmarks/data --out benchmarks/data/numpy.json
"""

import argparse
import glob
import json
import os
import statistics
import sys
import time

import numpy as np

SNAP = 2.0 ** -30  # BilinearStencil.snapTolerance


def axis(x, count):
    """Lower and upper index, fraction towards the upper one, and the inside mask."""
    inside = (x >= 0) & (x <= count - 1)  # NaN compares False: outside
    if count == 1:
        zero = np.zeros(x.shape, dtype=np.intp)
        return inside, zero, zero, np.zeros(x.shape)
    xs = np.where(inside, x, 0.0)
    lo = np.minimum(xs.astype(np.intp), count - 2)  # truncation is floor for x >= 0
    f = xs - lo
    low, high = f < SNAP, f > 1 - SNAP
    lower = np.where(high, lo + 1, lo)
    upper = np.where(low, lo, lo + 1)
    f = np.where(low, 0.0, np.where(high, 1.0, f))
    return inside, lower, upper, f


def interpolate(field, west_east, south_north, steps, positions, out=None, scratch=None):
    """[point][t] float32 output; rows of positions outside the grid are NaN.

    `out` and `scratch` (each points x steps float32) are reused when given, as the Swift
    and C kernels reuse their output buffer; np.take with out= and in-place products keep
    the temporaries to those two arrays. a * w rounds exactly as w * a, so the order of
    operations is the Swift one."""
    inside_i, i0, i1, fi = axis(positions[:, 0], west_east)
    inside_j, j0, j1, fj = axis(positions[:, 1], south_north)
    gi, gj = 1.0 - fi, 1.0 - fj
    weights = [(gi * gj), (fi * gj), (gi * fj), (fi * fj)]
    row0, row1 = j0 * west_east, j1 * west_east
    corners = [row0 + i0, row0 + i1, row1 + i0, row1 + i1]
    series = field.reshape(-1, steps)
    if out is None:
        out = np.empty((positions.shape[0], steps), dtype=np.float32)
    if scratch is None:
        scratch = np.empty_like(out)
    np.take(series, corners[0], axis=0, out=out)
    out *= weights[0].astype(np.float32)[:, None]
    for corner, weight in zip(corners[1:], weights[1:]):
        np.take(series, corner, axis=0, out=scratch)
        scratch *= weight.astype(np.float32)[:, None]
        out += scratch
    out[~(inside_i & inside_j)] = np.nan
    return out


def compare(ours, theirs):
    both_nan = np.isnan(ours) & np.isnan(theirs)
    differing = int(np.count_nonzero((ours.view(np.uint32) != theirs.view(np.uint32)) & ~both_nan))
    diff = np.abs(ours.astype(np.float64) - theirs.astype(np.float64))
    diff[both_nan] = 0
    return {"max_abs_diff": float(np.max(diff)) if diff.size else 0.0, "differing_values": differing}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data-dir", default="benchmarks/data")
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--out", help="JSON file for the figures (default: DATA_DIR/numpy.json)")
    args = parser.parse_args()

    with open(os.path.join(args.data_dir, "meta.json")) as f:
        meta = json.load(f)
    w, h, steps, points = meta["westEast"], meta["southNorth"], meta["steps"], meta["points"]
    field = np.fromfile(os.path.join(args.data_dir, "field.f32"), dtype="<f4")
    positions = np.fromfile(os.path.join(args.data_dir, "positions.f64"), dtype="<f8").reshape(-1, 2)
    if field.size != w * h * steps or positions.shape[0] != points:
        sys.exit(f"numpy_kernel: inputs in {args.data_dir} do not match meta.json")

    out = interpolate(field, w, h, steps, positions)  # the output we check
    buffer, scratch = np.empty_like(out), np.empty_like(out)
    interpolate(field, w, h, steps, positions, buffer, scratch)  # warm-up
    times = []
    for _ in range(args.runs):
        start = time.perf_counter()
        interpolate(field, w, h, steps, positions, buffer, scratch)
        times.append(time.perf_counter() - start)
    median = statistics.median(times)

    comparisons = {}
    for path in sorted(glob.glob(os.path.join(args.data_dir, "swift-*.f32"))):
        swift = np.fromfile(path, dtype="<f4").reshape(-1, steps)
        label = os.path.basename(path)[len("swift-"):-len(".f32")]
        comparisons[label] = compare(out, swift) if swift.shape == out.shape else {"error": "shape differs"}

    result = {
        "numpy_version": np.__version__,
        "python_version": sys.version.split()[0],
        "westEast": w, "southNorth": h, "steps": steps, "points": points,
        "runs": args.runs, "median_seconds": median, "min_seconds": min(times), "max_seconds": max(times),
        "values_per_second": points * steps / median,
        "comparisons": comparisons,
    }
    with open(args.out or os.path.join(args.data_dir, "numpy.json"), "w") as f:
        json.dump(result, f, indent=2, sort_keys=True)
    print(f"numpy {np.__version__}: median {median * 1e3:.1f} ms over {args.runs} runs, "
          f"{result['values_per_second'] / 1e6:.0f} Mvalues/s")
    for label, c in comparisons.items():
        print(f"numpy vs Swift {label}: max abs diff {c.get('max_abs_diff')}, "
              f"values with different bits {c.get('differing_values')}")
    if any(c.get("differing_values", 1) != 0 for c in comparisons.values()):
        sys.exit("numpy_kernel: numpy and Swift disagree")


if __name__ == "__main__":
    main()
