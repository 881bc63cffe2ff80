"""Loops over small arrays, as real code writes them, compiled against the plain loop
(issue #15, task p62/t1): does a loop node over arrays of 4-256 elements beat or match
the Python loop it replaces?

Each program runs 50-1000 trips over arrays of 4..256 elements: a k-means assignment
step (``u = int(np.argmin(d))``, then ``sums[u]``, ``counts[u]``), nearest-neighbour
lookups, a farthest-point sampling step, a histogram by index (``b = int(idx[k])``),
Gauss-Seidel sweeps (1-D and over the rows of a 2-D grid), a running best index, per-row
updates (``X[i] = X[i] - a * X[j]``), per-row normalisation, an exponential moving
average, a prefix sum, power iteration on a small matrix.

Columns, side by side in one process, interleaved per round (the order rotates),
best of ``--rounds`` rounds of the mean CPU time of ``--calls`` calls
(``time.process_time``):

- ``plain_us``: the Python function;
- ``eager_us``: ``dynamo.compile(f, backend="eager")``;
- ``numpy_us``: ``dynamo.compile(f, backend="numpy")``;
- ``auto_us``: ``backend="auto"`` (the default: the native tier where Numba is
  installed), with ``options={"background": False}`` so that its tier-2 compile and
  race happen within the warm-up calls rather than while timed;
- ``nopass_us``: the numpy backend with ``options={"skip_passes": SKIP}``
  (``--skip scalar_reads``: that pass off; any pass name of
  ``backends/passes/pipeline.py``); ``nan`` without ``--skip``;
- ``nodes``: the loop nodes (``fori_loop``) of the numpy backend's graphs.

Every compiled result (and every argument a program writes) is checked equal to
plain's on fresh inputs first. Each variant has its own copy of the inputs while timed
(the programs write into some of them; the values drift, the work does not).

Run::

    .venv/bin/python scripts/bench_small_loop_nodes.py --rounds 7 --calls 20 \\
        --skip scalar_reads

The machine is shared (2 cores, several processes): compare columns of one run.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
import types

import numpy as np

import dynamo
from dynamo import listeners


# ----------------------------------------------------------------------------- programs
def kmeans_assign(X, C, sums, counts):
    """The k-means assignment step: each point to its nearest centre, summed."""
    for i in range(X.shape[0]):
        d = ((C - X[i]) ** 2).sum(axis=1)
        u = int(np.argmin(d))
        sums[u] = sums[u] + X[i]
        counts[u] = counts[u] + 1
    return sums, counts


def nearest_neighbour(P, Q, out):
    """For each query, the nearest point's row (L1)."""
    for i in range(Q.shape[0]):
        j = int(np.argmin(np.abs(P - Q[i]).sum(axis=1)))
        out[i] = P[j]
    return out


def nearest_bin_counts(grid, v, counts, totals):
    """Snap each value to its nearest grid point; count and sum per point."""
    for k in range(v.shape[0]):
        j = int(np.argmin(np.abs(grid - v[k])))
        counts[j] += 1
        totals[j] += v[k]
    return counts, totals


def farthest_point(P, dist, seen):
    """Farthest-point sampling: the point farthest from the chosen ones, each trip."""
    for _ in range(P.shape[0] // 2):
        u = int(np.argmax(dist))
        seen[u] = True
        dist = np.minimum(dist, ((P - P[u]) ** 2).sum(axis=1))
    return dist, seen


def histogram_by_index(idx, w, hist):
    """Accumulate weights into bins by an integer index array."""
    for k in range(idx.shape[0]):
        b = int(idx[k])
        hist[b] = hist[b] + w[k]
    return hist


def gauss_seidel_1d(u, f, h2):
    """Gauss-Seidel sweeps of -u'' = f, one point at a time."""
    for _ in range(10):
        for i in range(1, u.shape[0] - 1):
            u[i] = 0.5 * (u[i - 1] + u[i + 1] + h2 * f[i])
    return u


def gauss_seidel_rows(U, F):
    """Gauss-Seidel by rows over a 2-D grid (each row from the updated row above)."""
    for i in range(1, U.shape[0] - 1):
        U[i, 1:-1] = 0.25 * (U[i - 1, 1:-1] + U[i + 1, 1:-1] + U[i, :-2] + U[i, 2:]
                             - F[i, 1:-1])
    return U


def running_best_index(s):
    """The running maximum's index (a Python number an ``if`` on the data picks)."""
    best = s[0]
    arg = 0
    for i in range(1, s.shape[0]):
        if s[i] > best:
            best = s[i]
            arg = i
    return best, arg


def row_elimination(X, a):
    """Per-row updates ``X[i] = X[i] - a[i] * X[0]`` (elimination against row 0)."""
    for i in range(1, X.shape[0]):
        X[i] = X[i] - a[i] * X[0]
    return X


def project_out_rows(X, q):
    """Gram-Schmidt-like: remove ``q``'s component from every row (``X[i]`` read twice)."""
    for i in range(X.shape[0]):
        X[i] = X[i] - (X[i] @ q) * q
    return X


def normalise_rows(X):
    """Each row divided by its own sum (``X[i]`` read twice)."""
    for i in range(X.shape[0]):
        X[i] = X[i] / X[i].sum()
    return X


def ema(x, y, a):
    """Exponential moving average, one element a trip."""
    for i in range(1, x.shape[0]):
        y[i] = a * x[i] + (1.0 - a) * y[i - 1]
    return y


def prefix_sum(x):
    for i in range(1, x.shape[0]):
        x[i] += x[i - 1]
    return x


def power_iteration(A, v):
    """Power iteration on a small matrix."""
    for _ in range(200):
        v = A @ v
        v = v / np.sqrt(v @ v)
    return v


# ------------------------------------------------------------------------------- inputs
def _rng(seed=0):
    return np.random.default_rng(seed)


def _spd(n, seed):
    m = _rng(seed).random((n, n))
    return m @ m.T + n * np.eye(n)


PROGRAMS = [   # (name, fn, make inputs)
    ("kmeans_assign 300x2, k=4", kmeans_assign,
     lambda: (_rng(1).random((300, 2)), _rng(2).random((4, 2)), np.zeros((4, 2)),
              np.zeros(4, np.int64))),
    ("kmeans_assign 200x8, k=16", kmeans_assign,
     lambda: (_rng(3).random((200, 8)), _rng(4).random((16, 8)), np.zeros((16, 8)),
              np.zeros(16, np.int64))),
    ("nearest_neighbour 64x3, 200 queries", nearest_neighbour,
     lambda: (_rng(5).random((64, 3)), _rng(6).random((200, 3)), np.zeros((200, 3)))),
    ("nearest_bin_counts 16 bins, 500 values", nearest_bin_counts,
     lambda: (np.linspace(0, 1, 16), _rng(7).random(500), np.zeros(16, np.int64),
              np.zeros(16))),
    ("farthest_point 128x2", farthest_point,
     lambda: (_rng(8).random((128, 2)), np.full(128, np.inf), np.zeros(128, bool))),
    ("histogram_by_index 32 bins, 1000 values", histogram_by_index,
     lambda: (_rng(9).integers(0, 32, 1000), _rng(10).random(1000), np.zeros(32))),
    ("gauss_seidel_1d 64, 10 sweeps", gauss_seidel_1d,
     lambda: (np.zeros(64), _rng(11).random(64), 1.0 / 63 ** 2)),
    ("gauss_seidel_rows 16x16", gauss_seidel_rows,
     lambda: (_rng(12).random((16, 16)), _rng(13).random((16, 16)))),
    ("running_best_index 256", running_best_index, lambda: (_rng(14).random(256),)),
    ("row_elimination 100x4", row_elimination,
     lambda: (_rng(15).random((100, 4)), _rng(16).random(100))),
    ("project_out_rows 200x4", project_out_rows,
     lambda: (_rng(17).random((200, 4)), np.full(4, 0.5))),
    ("normalise_rows 200x8", normalise_rows, lambda: (_rng(18).random((200, 8)) + 0.1,)),
    ("ema 256", ema, lambda: (_rng(19).random(256), np.zeros(256), 0.1)),
    ("prefix_sum 256", prefix_sum, lambda: (_rng(20).random(256),)),
    ("power_iteration 8x8", power_iteration, lambda: (_spd(8, 21), np.ones(8))),
]


# ---------------------------------------------------------------------------- measuring
def copy_function(fn):
    """A function of its own for ``fn``'s code (its own cache entries)."""
    code = fn.__code__.replace(co_consts=fn.__code__.co_consts + (object(),))
    return types.FunctionType(code, fn.__globals__, fn.__name__, fn.__defaults__)


def batch_us(fn, args, calls: int) -> float:
    """The mean CPU time of ``calls`` calls of ``fn(*args)``, in microseconds."""
    t0 = time.process_time()
    for _ in range(calls):
        fn(*args)
    return (time.process_time() - t0) / calls * 1e6


class _Graphs:
    def __init__(self):
        self.graphs = []

    def on_graph(self, graph, ctx):
        self.graphs.append(graph)


def _same(a, b) -> bool:
    if isinstance(a, tuple):
        return isinstance(b, tuple) and len(a) == len(b) and all(map(_same, a, b))
    if isinstance(a, np.ndarray):
        return isinstance(b, np.ndarray) and a.dtype == b.dtype and \
            a.shape == b.shape and np.array_equal(a, b, equal_nan=True)
    return type(a) is type(b) and (a == b or a != a and b != b)


def _checked(name, fn, make, compiled_fns) -> None:
    """Each compiled function gives plain's result and leaves plain's arguments."""
    want_args = make()
    want = fn(*want_args)
    for label, cf in compiled_fns.items():
        for _ in range(2):   # (the first call traces, the second runs the cache)
            got_args = make()
            got = cf(*got_args)
            if not (_same(got, want) and _same(tuple(got_args), tuple(want_args))):
                raise SystemExit(f"{name}: {label} differs from plain")


def measure(name, fn, make, rounds: int, calls: int, skip) -> dict:
    variants = {"plain": fn}
    with listeners.listening(_Graphs()) as seen:
        for label, backend, opts in [("eager", "eager", None), ("numpy", "numpy", None),
                                     ("auto", "auto", {"background": False}),
                                     ("nopass", "numpy", skip)]:
            if label == "nopass":
                if skip is None:
                    continue
                opts = {"skip_passes": set(skip)}
            variants[label] = dynamo.compile(copy_function(fn), backend=backend,
                                             options=opts)
            if label == "numpy":
                before = len(seen.graphs)
                variants[label](*make())
                nodes = sum(n.target == "fori_loop" for g in seen.graphs[before:]
                            for n in g.call_nodes())
    _checked(name, fn, make, {k: v for k, v in variants.items() if k != "plain"})
    inputs = {label: make() for label in variants}
    for label, f in variants.items():    # warm up (outline and callee trials included)
        for _ in range(25):
            f(*inputs[label])
    times = {label: [] for label in variants}
    labels = list(variants)
    for r in range(rounds):
        for label in labels[r % len(labels):] + labels[:r % len(labels)]:
            times[label].append(batch_us(variants[label], inputs[label], calls))
    row = {"program": name, "nodes": nodes}
    for label in ("plain", "eager", "numpy", "auto", "nopass"):
        row[f"{label}_us"] = min(times[label]) if label in times else math.nan
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--calls", type=int, default=20)
    ap.add_argument("--skip", nargs="*", default=None,
                    help="passes the nopass column skips (e.g. scalar_reads)")
    ap.add_argument("--only", default=None, help="programs whose name contains this")
    ap.add_argument("--entry-trial-calls", type=int, default=None,
                    help="dynamo.config.entry_trial_calls (0: no entry trial)")
    args = ap.parse_args()
    if args.entry_trial_calls is not None:
        dynamo.config.entry_trial_calls = args.entry_trial_calls
    rows = []
    print(f"{'program':42} {'nodes':>5} {'plain_us':>9} {'eager_us':>9} {'numpy_us':>9} "
          f"{'auto_us':>9} {'nopass_us':>9} {'p/eager':>7} {'p/numpy':>7} {'p/auto':>7} "
          f"{'p/nopass':>8}")
    for name, fn, make in PROGRAMS:
        if args.only and args.only not in name:
            continue
        row = measure(name, fn, make, args.rounds, args.calls, args.skip)
        rows.append(row)
        p = row["plain_us"]
        print(f"{name:42} {row['nodes']:>5} {p:9.1f} {row['eager_us']:9.1f} "
              f"{row['numpy_us']:9.1f} {row['auto_us']:9.1f} {row['nopass_us']:9.1f} "
              f"{p / row['eager_us']:6.2f}x {p / row['numpy_us']:6.2f}x "
              f"{p / row['auto_us']:6.2f}x {p / row['nopass_us']:7.2f}x", flush=True)
    for label in ("eager", "numpy", "auto", "nopass"):
        ratios = [r["plain_us"] / r[f"{label}_us"] for r in rows]
        if all(math.isfinite(x) for x in ratios):
            print(f"geometric mean plain/{label}: {statistics.geometric_mean(ratios):.2f}x")


if __name__ == "__main__":
    sys.exit(main())
