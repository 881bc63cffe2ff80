"""Nested loops over trip counts that change between calls (issue #23, 2026-12-07):
plain NumPy, tier 1 (the numpy backend) and tier 2 (the native backend, its static
variant of the size: backends/native/size_variants.py) and a hand-written Numba loop,
interleaved in one process, best of ``--rounds`` calls each, by CPU time and by wall
time. Each compiled function is first called with other sizes, so that it runs the
symbolic graph (one trace for every size after the first recompile), then with the
measured size until tier 2 of that size runs (``prefer="native"``, compiled in the
foreground; the hand-written loop compiled before timing).

Triangular loops (``for j in range(i)`` inside ``for i in range(n)``: forward
substitution, Cholesky, Gauss elimination; 2026-12-07 15:00, issue #23 t8) are timed at
two sizes each (each size its own tier-2 variant of the one symbolic graph), and
``--compiles`` first counts the graphs each program compiles over five sizes (a fresh
compile on the numpy backend called once per size: 2 where one symbolic graph serves
them, one per size where the size is pinned).

Example::

    $ .venv/bin/python scripts/bench_native_symbolic_nested.py --threads 1
    dp_table 200x203      plain 27.1 ms  tier 1 ...  tier 2 ...  numba ...
    $ .venv/bin/python scripts/bench_native_symbolic_nested.py --compiles \
          --programs forward_sub cholesky gauss_elim
    compiles over sizes (50, 60, 70, 80, 90): forward_sub 2  cholesky 2  gauss_elim 2
"""

from __future__ import annotations

import argparse
import os
import time


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--threads", type=int, default=1, help="NUMBA_NUM_THREADS (0: Numba's)")
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--programs", nargs="*", help="the programs to run (default: all)")
    ap.add_argument("--compiles", action="store_true",
                    help="first count each program's compiles over five sizes")
    ap.add_argument("--no-timing", action="store_true", help="only the compile counts")
    args = ap.parse_args()
    if args.threads:
        os.environ["NUMBA_NUM_THREADS"] = str(args.threads)
    import numba
    import numpy as np
    from dynamo.backends.native.backend import native_backend
    from dynamo.backends.numpy_backend.backend import numpy_backend

    import dynamo

    def dp_table(C):
        n, m = C.shape
        D = np.zeros((n, m))
        D[0] = np.cumsum(C[0])
        for i in range(1, n):
            D[i, 0] = D[i - 1, 0] + C[i, 0]
            for j in range(1, m):
                D[i, j] = C[i, j] + min(D[i - 1, j], D[i, j - 1], D[i - 1, j - 1])
        return D

    def pairwise(X):
        n = len(X)
        D = np.zeros((n, n))
        for i in range(n):
            for j in range(n):
                D[i, j] = np.sqrt(((X[i] - X[j]) ** 2).sum())
        return D

    @numba.njit
    def pairwise_numba(X):
        n, d = X.shape
        D = np.zeros((n, n))
        for i in range(n):
            for j in range(n):
                s = 0.0
                for k in range(d):
                    s += (X[i, k] - X[j, k]) ** 2
                D[i, j] = np.sqrt(s)
        return D

    def floyd(W):
        n = len(W)
        D = W.copy()
        for k in range(n):
            for i in range(n):
                for j in range(n):
                    D[i, j] = min(D[i, j], D[i, k] + D[k, j])
        return D

    def row_cumsums(A):
        n, m = A.shape
        out = np.empty_like(A)
        for i in range(n):
            s = 0.0
            for j in range(m):
                s = s + A[i, j]
                out[i, j] = s
        return out

    from bench_triangular import cholesky, forward_sub

    def gauss_elim(A, b):
        A = A.copy()
        b = b.copy()
        n = A.shape[0]
        for k in range(n):
            for i in range(k + 1, n):
                f = A[i, k] / A[k, k]
                for j in range(k, n):
                    A[i, j] = A[i, j] - f * A[k, j]
                b[i] = b[i] - f * b[k]
        return A, b

    rng = np.random.default_rng(0)

    def lower(n):
        return np.tril(rng.random((n, n))) + n * np.eye(n), rng.random(n)

    def spd(n):
        m = rng.random((n, n))
        return (m @ m.T + n * np.eye(n),)

    def dominant(n):
        return rng.random((n, n)) + n * np.eye(n), rng.random(n)

    # (name, program, hand-written Numba, inputs of size n, the sizes timed)
    programs = [
        ("dp_table", dp_table, numba.njit(dp_table), lambda n: (rng.random((n, n + 3)),), (200,)),
        ("pairwise", pairwise, pairwise_numba, lambda n: (rng.random((n, 3)),), (150,)),
        ("floyd", floyd, numba.njit(floyd), lambda n: (rng.random((n, n)) * 10,), (60,)),
        ("row_cumsums", row_cumsums, numba.njit(row_cumsums), lambda n: (rng.random((n, n + 1)),),
         (300,)),
        ("forward_sub", forward_sub, numba.njit(forward_sub), lower, (200, 400)),
        ("cholesky", cholesky, numba.njit(cholesky), spd, (60, 120)),
        ("gauss_elim", gauss_elim, numba.njit(gauss_elim), dominant, (40, 80)),
    ]
    if args.programs:
        programs = [p for p in programs if p[0] in args.programs]

    def sized(backend_fn):
        backend_fn.dynamic_shapes = True
        return backend_fn

    if args.compiles:
        counts = {}
        for name, fn, _, make, _ in programs:
            graphs = []
            counted = dynamo.compile(fn, backend=sized(
                lambda g, ex, graphs=graphs: graphs.append(g) or numpy_backend(g, ex)))
            for n in (50, 60, 70, 80, 90):
                counted(*make(n))
            counts[name] = len(graphs)
        print("compiles over sizes (50, 60, 70, 80, 90): " +
              "  ".join(f"{k} {v}" for k, v in counts.items()), flush=True)
    if args.no_timing:
        return
    for name, fn, hand, make, sizes in programs:
        tier1 = dynamo.compile(fn, backend=sized(lambda g, ex: numpy_backend(g, ex)))
        tier2 = dynamo.compile(fn, backend=sized(lambda g, ex: native_backend(g, ex, {
            "after_calls": 1, "background": False, "prefer": "native", "cache": False})))
        for warm in (sizes[0] // 2, sizes[0] // 2 + 1):   # static, then the symbolic graph
            for f in (tier1, tier2):
                f(*make(warm))
        for n in sizes:
            _time(args, name, fn, hand, tier1, tier2, make(n))


def _time(args, name, fn, hand, tier1, tier2, x) -> None:
    """Plain, tier 1, tier 2 and the hand-written loop on the inputs ``x``, interleaved
    (each first called until tier 2 runs and checked against plain NumPy)."""
    import numpy as np

    want = fn(*x)
    runs = {"plain": fn, "tier 1": tier1, "tier 2": tier2, "numba": hand}
    for label, f in runs.items():
        for _ in range(3):   # (tier 2: op by op, its compile, its first call)
            got = f(*x)
        same = [np.array_equal(g, w) for g, w in zip(
            got if isinstance(got, tuple) else (got,),
            want if isinstance(want, tuple) else (want,), strict=True)]
        if not all(same):
            raise SystemExit(f"{name}: {label} differs from plain NumPy")
    best = {k: [float("inf"), float("inf")] for k in runs}
    for _ in range(args.rounds):
        for label, f in runs.items():
            w, c = time.perf_counter(), time.process_time()
            f(*x)
            c, w = time.process_time() - c, time.perf_counter() - w
            best[label] = [min(best[label][0], c), min(best[label][1], w)]
    shape = "x".join(map(str, x[0].shape))
    cpu = "  ".join(f"{k} {v[0] * 1e3:.3f} ms" for k, v in best.items())
    ratio = best["tier 2"][0] / best["numba"][0]
    print(f"{name:12s} {shape:9s} CPU: {cpu}  (tier 2 / numba {ratio:.2f}x, plain / "
          f"tier 2 {best['plain'][0] / best['tier 2'][0]:.0f}x)", flush=True)


if __name__ == "__main__":
    main()
