"""Nested loops over trip counts that change between calls (issue #23, 2026-12-07):
plain NumPy, tier 1 (the numpy backend) and tier 2 (the native backend, its static
variant of the size: backends/native/size_variants.py) and a hand-written Numba loop,
interleaved in one process, best of ``--rounds`` calls each, by CPU time and by wall
time. Each compiled function is first called with other sizes, so that it runs the
symbolic graph (one trace for every size after the first recompile), then with the
measured size until tier 2 of that size runs (``prefer="native"``, compiled in the
foreground; the hand-written loop compiled before timing).

Example::

    $ .venv/bin/python scripts/bench_native_symbolic_nested.py --threads 1
    dp_table 200x203      plain 27.1 ms  tier 1 ...  tier 2 ...  numba ...
"""

from __future__ import annotations

import argparse
import os
import time


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--threads", type=int, default=1, help="NUMBA_NUM_THREADS (0: Numba's)")
    ap.add_argument("--rounds", type=int, default=9)
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

    @numba.njit
    def dp_table_numba(C):
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

    @numba.njit
    def floyd_numba(W):
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

    @numba.njit
    def row_cumsums_numba(A):
        n, m = A.shape
        out = np.empty_like(A)
        for i in range(n):
            s = 0.0
            for j in range(m):
                s = s + A[i, j]
                out[i, j] = s
        return out

    rng = np.random.default_rng(0)
    programs = [
        ("dp_table", dp_table, dp_table_numba, lambda n: (rng.random((n, n + 3)),), 200),
        ("pairwise", pairwise, pairwise_numba, lambda n: (rng.random((n, 3)),), 150),
        ("floyd", floyd, floyd_numba, lambda n: (rng.random((n, n)) * 10,), 60),
        ("row_cumsums", row_cumsums, row_cumsums_numba, lambda n: (rng.random((n, n + 1)),),
         300),
    ]

    def sized(backend_fn):
        backend_fn.dynamic_shapes = True
        return backend_fn

    for name, fn, hand, make, n in programs:
        tier1 = dynamo.compile(fn, backend=sized(lambda g, ex: numpy_backend(g, ex)))
        tier2 = dynamo.compile(fn, backend=sized(lambda g, ex: native_backend(g, ex, {
            "after_calls": 1, "background": False, "prefer": "native", "cache": False})))
        for warm in (n // 2, n // 2 + 1):   # a static graph, then the symbolic one
            for f in (tier1, tier2):
                f(*make(warm))
        x = make(n)
        want = fn(*x)
        runs = {"plain": fn, "tier 1": tier1, "tier 2": tier2, "numba": hand}
        for label, f in runs.items():
            for _ in range(3):   # (tier 2: op by op, its compile, its first call)
                got = f(*x)
            if not np.array_equal(got, want):
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
