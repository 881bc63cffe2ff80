"""Loop bodies of float64 scalar arithmetic on Python floats (``float_lanes.py``, issue
#15's cause 2): plain NumPy against the numpy backend, side by side in one run.

    python scripts/bench_float_lanes.py [--rounds 15] [--calls 40] [--programs]
    python scripts/run_in_tree.py /tmp/base scripts/bench_float_lanes.py   # a "before"

The cases: the scalar recursion of ../shared/tools/real-shapes.py (300 steps), a
damped accumulation, a 2-D diagonal walk, row cumulative sums written element by
element, and (``--programs``) the corpus programs
whose code has a lane (``scripts/realworld_programs*.py``, found by compiling them:
``LANE_PROGRAMS``). Each compiled function is called ``--calls`` times first (the entry
trial chooses its way in those), then plain and compiled are timed interleaved,
``--rounds`` rounds on fresh inputs, and the least time of each kept; the table gives
ms per call and plain / compiled (> 1: compiled faster).
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

import dynamo

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

# corpus programs whose numpy-backend code has a lane (scan of corpora 1-15)
LANE_PROGRAMS = (
    "scalar recursion n=1500", "one-pole low-pass sample by sample",
    "reflection recursion, 300 steps", "reflection recursion, 1000 steps",
    "AR(1) filter from a Python float, 500 steps", "Horner's rule at a Python float, 200 steps",
    "biquad low-pass sample by sample", "DC blocker sample by sample",
    "zero-phase exponential smoother", "jackknife SE of a ratio",
    "natural cubic spline evaluation", "Gibbs sampler for a bivariate normal")


def recursion(r):
    alpha, beta = -r[0], 1.0
    for k in range(1, r.shape[0]):
        beta *= 1.0 - alpha * alpha
        alpha = -(r[k] + alpha) / beta
    return alpha


def damped(r, c):
    x = r[0]
    for k in range(1, len(r)):
        x = c * x + r[k]
    return x


def diagonal(A):
    s = A[0, 0]
    for i in range(1, A.shape[0]):
        s = s / 2 + A[i, i - 1]
    return s


def row_cumsums(A):
    """scripts/bench_native_symbolic_nested.py's: a running sum written row by row."""
    n, m = A.shape
    out = np.empty_like(A)
    for i in range(n):
        s = 0.0
        for j in range(m):
            s = s + A[i, j]
            out[i, j] = s
    return out


def cases(with_programs: bool) -> list:
    rng = np.random.default_rng(0)
    out = [("scalar recursion, 300 steps", recursion, (rng.random(300) * 0.01,), {}),
           ("damped accumulation, 1000 steps", damped, (rng.random(1000), np.float64(0.9)), {}),
           ("diagonal walk 400x400", diagonal, (rng.random((400, 400)),), {}),
           ("row cumulative sums 300x301", row_cumsums, (rng.random((300, 301)),), {}),
           # (inner loops of 11 trips: under MIN_TRIPS, the NumPy code runs)
           ("row cumulative sums 3000x12", row_cumsums, (rng.random((3000, 12)),), {})]
    if with_programs:
        sys.path.append(os.path.join(os.path.dirname(HERE), "tests"))
        import bench_realworld
        out += [p for p in bench_realworld.corpus("all") if p[0] in LANE_PROGRAMS]
    return out


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--calls", type=int, default=40)
    ap.add_argument("--programs", action="store_true", help="the corpus programs too")
    opts = ap.parse_args(argv)
    import bench_realworld
    print(f"{'case':44s} {'plain ms':>9s} {'numpy ms':>9s} {'ratio':>6s}")
    for name, fn, args, kwargs in cases(opts.programs):
        compiled = dynamo.compile(fn, backend="numpy")
        for _ in range(opts.calls):
            compiled(*bench_realworld._fresh(args), **kwargs)
        best = {"plain": float("inf"), "numpy": float("inf")}
        for _ in range(opts.rounds):
            for way, f in (("plain", fn), ("numpy", compiled)):
                a = bench_realworld._fresh(args)
                start = time.perf_counter()
                f(*a, **kwargs)
                best[way] = min(best[way], time.perf_counter() - start)
        print(f"{name[:44]:44s} {best['plain'] * 1e3:9.3f} {best['numpy'] * 1e3:9.3f} "
              f"{best['plain'] / best['numpy']:6.2f}", flush=True)
        dynamo.reset()


if __name__ == "__main__":
    main()
