"""CPU time of loops whose exit test returns or runs code first (issue #19,
``dynamo/translator/loop_returns.py``): plain Python against ``dynamo.compile`` on one
backend, interleaved rounds, ``time.process_time``.

Run it in this tree and, for "before", in another checkout::

    .venv/bin/python scripts/bench_loop_returns.py --rounds 5
    .venv/bin/python scripts/run_in_tree.py /tmp/base scripts/bench_loop_returns.py --rounds 5

Each program's row: plain us per call, compiled us per call (the best round), plain /
compiled, and the graph breaks ``dynamo.explain`` reports. Example line::

    newton_sqrt n=2000        plain   812.4 us  compiled   301.2 us  2.70x  breaks 0
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings

import numpy as np

import dynamo


def newton_sqrt(a, tol=1e-12, max_iter=50):
    x = np.where(a > 1, a, 1.0)
    for i in range(max_iter):
        x_new = 0.5 * (x + a / x)
        if np.max(np.abs(x_new - x)) < tol:
            return x_new, i + 1
        x = x_new
    return x, max_iter


def cg_return(A, b, tol=1e-10, maxit=200):
    x = np.zeros_like(b)
    r = b - A @ x
    p = r.copy()
    rs = r @ r
    for it in range(maxit):
        Ap = A @ p
        alpha = rs / (p @ Ap)
        x = x + alpha * p
        r = r - alpha * Ap
        rs_new = r @ r
        if np.sqrt(rs_new) < tol:
            return x, it
        p = r + (rs_new / rs) * p
        rs = rs_new
    return x, maxit


def pagerank_power(P, d=0.85, tol=1e-10, max_iter=100):
    n = P.shape[0]
    r = np.full(n, 1.0 / n)
    for it in range(max_iter):  # noqa: B007 (returned after the loop)
        r_new = d * (r @ P) + (1 - d) / n
        if np.abs(r_new - r).sum() < tol:
            r = r_new
            break
        r = r_new
    return r, it


def _programs():
    rng = np.random.default_rng(0)
    a = rng.uniform(0.5, 50.0, 2000)
    m = rng.standard_normal((60, 60))
    spd = m @ m.T + 60 * np.eye(60)
    b = rng.standard_normal(60)
    g = (rng.random((80, 80)) < 0.1).astype(float) + np.eye(80)
    P = g / g.sum(axis=1, keepdims=True)
    return [("newton_sqrt n=2000", newton_sqrt, (a,)),
            ("cg_return 60x60", cg_return, (spd, b)),
            ("pagerank_power 80", pagerank_power, (P,))]


def _time(fn, args, calls: int) -> float:
    t = time.process_time()
    for _ in range(calls):
        fn(*args)
    return (time.process_time() - t) / calls * 1e6


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--calls", type=int, default=200)
    ap.add_argument("--backend", default="numpy")
    args = ap.parse_args(argv)
    print(f"Python {sys.version.split()[0]}, NumPy {np.__version__}, backend {args.backend}")
    for name, fn, fargs in _programs():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            dynamo.reset()
            breaks = dynamo.explain(fn, backend=args.backend)(*fargs).graph_break_count
            compiled = dynamo.compile(fn, backend=args.backend)
            for _ in range(3):
                compiled(*fargs)            # (compiles and warms up)
            plain, comp = [], []
            for _ in range(args.rounds):    # (interleaved: the load is shared)
                plain.append(_time(fn, fargs, args.calls))
                comp.append(_time(compiled, fargs, args.calls))
        p, c = min(plain), min(comp)
        print(f"{name:24s}  plain {p:8.1f} us  compiled {c:8.1f} us  {p / c:5.2f}x  "
              f"breaks {breaks}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
