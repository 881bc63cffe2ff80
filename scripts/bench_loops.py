"""Loops: first call, steady state and peak memory against plain NumPy (a ``bench.py`` section).

Real programs are loops: time steps of a stencil, a prefix sum, a triangular nest, an
accumulation over rows run uncompiled after a break. Each row runs one program plainly
and compiled (numpy backend unless named), side by side in one process:

- ``first_ms``: the compiled first call (trace, compile, run);
- ``plain_ms`` / ``compiled_ms``: the lower quartile of interleaved calls;
- all times are CPU time of the process (``time.process_time``): the machines these
  run on are shared, and wall-clock ratios swing with their load;
- ``speedup``: plain / compiled; ``peak_ratio``: compiled / plain peak memory
  (tracemalloc, one call).

Run by itself: ``.venv/bin/python scripts/bench_loops.py [--rounds 15]``.
"""

from __future__ import annotations

import argparse
import time
import tracemalloc

import numpy as np

import dynamo


def prefix_sum(x):
    for i in range(1, x.shape[0]):
        x[i] += x[i - 1]
    return x


def stencil(a, b, steps):
    for _ in range(steps):
        b[1:-1] = 0.5 * (a[:-2] + a[2:])
        a[1:-1] = 0.5 * (b[:-2] + b[2:])
    return a


def upwind(u, steps):
    for _ in range(steps):
        un = u.copy()
        u[1:-1, 1:-1] = (un[1:-1, 1:-1] - 0.1 * (un[1:-1, 1:-1] - un[1:-1, :-2])
                         - 0.1 * (un[1:-1, 1:-1] - un[:-2, 1:-1]))
    return u


def recursion(r):
    alpha, beta = -r[0], 1.0
    for k in range(1, r.shape[0]):
        beta *= 1.0 - alpha * alpha
        alpha = -(r[k] + alpha) / beta
    return alpha


def lu_like(a):
    a = a.copy()
    n = a.shape[0]
    for k in range(n - 1):
        for i in range(k + 1, n):
            a[i, k:] -= a[i, k] / a[k, k] * a[k, k:]
    return a


def forward_substitution(L, b):
    x = np.zeros_like(b)
    for i in range(b.shape[0]):
        x[i] = (b[i] - L[i, :i] @ x[:i]) / L[i, i]
    return x


def levinson(r, n):
    a = np.zeros(n + 1)
    a[0] = 1.0
    e = r[0]
    for k in range(1, n + 1):
        lam = -np.dot(a[:k], r[k:0:-1]) / e
        a[:k + 1] = a[:k + 1] + lam * a[k::-1]
        e *= 1.0 - lam * lam
    return a, e


def cholesky(A):
    L = np.zeros_like(A)
    for j in range(A.shape[0]):
        s = A[j, j] - np.dot(L[j, :j], L[j, :j])
        L[j, j] = np.sqrt(s)
        L[j + 1:, j] = (A[j + 1:, j] - L[j + 1:, :j] @ L[j, :j]) / L[j, j]
    return L


def island(a):
    t = 0.0
    for i in range(a.shape[0]):
        t += np.tanh(a[i, 0])
    print(end="")        # a graph break: the loop after it runs uncompiled
    return t


def island_abs(a):
    t = 0.0
    for i in range(a.shape[0]):
        t += np.tanh(a[i, 0]) + abs(i)
    print(end="")
    return t


def cases():
    rng = np.random.default_rng(0)
    line = rng.random(1000)
    return [
        ("prefix sum n=2000", prefix_sum, lambda: (rng.random(2000),)),
        *[(f"1-D stencil T={t}", stencil, lambda t=t: (line.copy(), line.copy(), t))
          for t in (100, 200, 400, 800)],
        ("upwind 64x64, 100 steps", upwind, lambda: (rng.random((64, 64)), 100)),
        ("scalar recursion n=300", recursion, lambda: (rng.random(300) * 0.01,)),
        ("LU-style nest 60x60", lu_like,
         lambda: (rng.random((60, 60)) + 60 * np.eye(60),)),
        ("triangular: forward substitution n=400", forward_substitution,
         lambda: (np.tril(rng.random((400, 400))) + 400 * np.eye(400), rng.random(400))),
        ("triangular: Levinson-Durbin n=400", levinson,
         lambda: (np.exp(-np.arange(410) / 30.0), 400)),
        ("triangular: Cholesky 150x150", cholesky,
         lambda: (np.cov(rng.random((150, 300))) + 150 * np.eye(150),)),
        ("uncompiled loop: t += tanh(a[i,0])", island, lambda: (rng.random((2000, 3)),)),
        ("uncompiled loop: + abs(i)", island_abs, lambda: (rng.random((2000, 3)),)),
    ]


def peak(fn, args) -> int:
    tracemalloc.start()
    try:
        fn(*args)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def run(args=None, backend: str = "numpy") -> list[dict]:
    rounds = getattr(args, "rounds", 15) if args is not None else 15
    rows = []
    for name, fn, make in cases():
        compiled = dynamo.compile(fn, backend=backend)
        start = time.process_time()
        compiled(*make())
        first = time.process_time() - start
        plain_t, comp_t = [], []
        for _ in range(rounds):
            a = make()
            start = time.process_time()
            fn(*a)
            plain_t.append(time.process_time() - start)
            a = make()
            start = time.process_time()
            compiled(*a)
            comp_t.append(time.process_time() - start)
        plain_t.sort()
        comp_t.sort()
        p, c = plain_t[len(plain_t) // 4], comp_t[len(comp_t) // 4]
        rows.append({"case": name, "backend": backend, "first_ms": round(first * 1e3, 1),
                     "plain_ms": round(p * 1e3, 3), "compiled_ms": round(c * 1e3, 3),
                     "speedup": round(p / c, 2),
                     "peak_ratio": round(peak(compiled, make()) / max(1, peak(fn, make())),
                                         2)})
    return rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--backend", default="numpy")
    args = ap.parse_args(argv)
    for row in run(args, args.backend):
        print(row)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
