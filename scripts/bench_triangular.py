"""Triangular loops by hand (issue #23: an inner ``range`` that follows the outer index,
docs/loops.md "Triangular inner loops"): forward substitution and Cholesky written as
Python loops, plain / tier 1 (backend="numpy") / tier 2 (backend="native", forced) /
a hand-written ``numba.njit`` version, side by side in one process. The programs are
tests/shared/corpus_nested_loops.py's ``forward_sub_loops``, ``cholesky_by_hand``,
``forward_sub_floats`` and ``cholesky_banachiewicz`` (it loads them from here), so what
is timed is what the tests check; the last two carry a Python float accumulator
(``s = 0.0``) read after the loop as ``(b[i] - s) / L[i, i]`` (promoted_exits.py).
Then the shapes of docs/loops.md's "Stepped inner loops": ``strided_sweep``
(``range(i, n, 2)``, also in tests/shared/corpus_stepped_loops.py), red-black
Gauss-Seidel as strided passes (``red_black_1d``, ``red_black_gs``); then branches on
the loop indices (docs/loops.md "Branches on the loop indices"): ``branchy_cholesky``
(``if i == j`` in the ``j`` loop), ``gauss_jordan`` (``if k != p``) and
``boundary_stepper`` (``if i == 0`` / ``elif i == n - 1``, n*n points, 10 steps),
``rect_lower`` (``j < i`` over n x n/2: the split point leaves the range),
``banded`` (``i - w <= j and j <= i + w``), ``band_abs`` (the same band as ``abs(i -
j) <= w``), ``twice_lower`` (``2 * j < i``: a computed split point, its floor an int
the i body computes, translator/split_quotients.py), ``gauss_jordan_temp`` (a temporary
bound in one way of ``if k != p``), ``half_lower`` (``j <= i // 2``: the index's
quotient), ``tri_band`` (a split inside a split: ``j < i - w`` in ``range(i)``),
``anti_lower`` (``i + j < n`` over n x n/2: an inner segment that runs no trip at the
trace's hint) and ``diag_offdiag`` (``j == i``: three ranges of j).
``--cases`` picks some of them (default: all nineteen).

Each figure is the lower quartile of interleaved calls on fresh copies of the inputs
(CPU time of the process, ``time.process_time``; Numba on one thread); ``first_s`` is
the first compiled call's (trace and tier-1 compile) and ``tier2_s`` the Numba compile.

``--root DIR`` imports dynamo from DIR/dynamo instead of the editable install, to
measure "before": DIR/dynamo is the base commit's ``dynamo/`` with its ``backends/`` and
``guards/`` copied inside, as installed (``git archive`` of the commit, then ``cp -r``);
``--compare DIR`` runs this script for DIR and for this tree alternately, ``--runs``
times, and prints one table::

    .venv/bin/python scripts/bench_triangular.py --compare /tmp/base --runs 2
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def forward_sub(L, b):
    n = b.shape[0]
    x = np.zeros(n)
    for i in range(n):
        s = b[i]
        for j in range(i):
            s = s - L[i, j] * x[j]
        x[i] = s / L[i, i]
    return x


def cholesky(A):
    n = A.shape[0]
    L = np.zeros_like(A)
    for j in range(n):
        s = A[j, j]
        for k in range(j):
            s = s - L[j, k] * L[j, k]
        L[j, j] = np.sqrt(s)
        for i in range(j + 1, n):
            t = A[i, j]
            for k in range(j):
                t = t - L[i, k] * L[j, k]
            L[i, j] = t / L[j, j]
    return L


def forward_sub_floats(L, b):
    n = b.shape[0]
    x = np.zeros(n)
    for i in range(n):
        s = 0.0
        for j in range(i):
            s += L[i, j] * x[j]
        x[i] = (b[i] - s) / L[i, i]
    return x


def cholesky_banachiewicz(A):
    # row by row: the row's entries left of the diagonal, then the diagonal
    n = A.shape[0]
    L = np.zeros_like(A)
    for i in range(n):
        for j in range(i):
            s = 0.0
            for k in range(j):
                s += L[i, k] * L[j, k]
            L[i, j] = (A[i, j] - s) / L[j, j]
        s = 0.0
        for k in range(i):
            s += L[i, k] * L[i, k]
        L[i, i] = np.sqrt(A[i, i] - s)
    return L


def strided_sweep(A):
    # every other column right of the diagonal, row by row (range(i, n, 2))
    n = A.shape[0]
    for i in range(n):
        for j in range(i, n, 2):
            A[i, j] = 0.5 * (A[i, j] + A[j, i])
    return A


def red_black_1d(u, f, sweeps):
    # 1-D Poisson, red-black Gauss-Seidel: odd points, then even ones (steps of 2)
    n = u.shape[0]
    for _ in range(sweeps):
        for i in range(1, n - 1, 2):
            u[i] = 0.5 * (u[i - 1] + u[i + 1] + f[i])
        for i in range(2, n - 1, 2):
            u[i] = 0.5 * (u[i - 1] + u[i + 1] + f[i])
    return u


def red_black_gs(u, f, sweeps):
    # 2-D Poisson, red-black Gauss-Seidel: the red points (i + j even) in two strided
    # passes, then the black ones; each point reads its four neighbours
    n = u.shape[0]
    for _ in range(sweeps):
        for i0, j0 in ((1, 1), (2, 2), (1, 2), (2, 1)):
            for i in range(i0, n - 1, 2):
                for j in range(j0, n - 1, 2):
                    u[i, j] = 0.25 * (u[i - 1, j] + u[i + 1, j] + u[i, j - 1] +
                                      u[i, j + 1] + f[i, j])
    return u


def branchy_cholesky(A):
    # one j loop over the row, up to and with the diagonal, choosing the store by the
    # indices (issue #23: split at i == j, docs/loops.md "Branches on the loop indices")
    n = A.shape[0]
    L = np.zeros_like(A)
    for i in range(n):
        for j in range(i + 1):
            s = 0.0
            for k in range(j):
                s += L[i, k] * L[j, k]
            if i == j:
                L[i, j] = np.sqrt(A[i, i] - s)
            else:
                L[i, j] = (A[i, j] - s) / L[j, j]
    return L


def gauss_jordan(A, b):
    # elimination in every row but the pivot's (``if k != p``: split around k = p)
    n = A.shape[0]
    A = A.copy()
    b = b.copy()
    for p in range(n):
        piv = A[p, p]
        A[p] = A[p] / piv
        b[p] = b[p] / piv
        for k in range(n):
            if k != p:
                b[k] = b[k] - A[k, p] * b[p]
                A[k] = A[k] - A[k, p] * A[p]
    return b


def boundary_stepper(u, steps):
    # a time stepper whose first and last points take their own rule
    # (``if i == 0`` / ``elif i == n - 1``: split at both ends of the row loop)
    n = u.shape[0]
    for _ in range(steps):
        v = np.empty_like(u)
        for i in range(n):
            if i == 0:
                v[i] = 0.5 * (u[i] + u[i + 1])
            elif i == n - 1:
                v[i] = 0.5 * (u[i - 1] + u[i])
            else:
                v[i] = 0.25 * u[i - 1] + 0.5 * u[i] + 0.25 * u[i + 1]
        u = v
    return u


def rect_lower(A):
    # ``j < i`` over a row of m < n columns: the split point leaves the j range at
    # i > m (the i loop splits there, docs/loops.md "Split points that leave the range")
    n, m = A.shape
    B = np.zeros_like(A)
    for i in range(n):
        for j in range(m):
            if j < i:
                B[i, j] = A[i, j] * A[j, j]
            else:
                B[i, j] = -A[i, j]
    return B


def banded(A, w):
    # a band of half-width w, as two comparisons (``band_abs``: as ``abs(i - j) <= w``)
    n = A.shape[0]
    B = np.zeros_like(A)
    for i in range(n):
        for j in range(n):
            if i - w <= j and j <= i + w:
                B[i, j] = A[i, j] * A[j, i]
    return B


def band_abs(A, w):
    # ``banded``'s band as ``abs(i - j) <= w``: split at ``j <= i`` (abs's sign), then
    # at ``i - j <= w`` and ``j - i <= w`` (SymInt.__abs__; before, abs pinned i and j)
    n = A.shape[0]
    B = np.zeros_like(A)
    for i in range(n):
        for j in range(n):
            if abs(i - j) <= w:
                B[i, j] = A[i, j] * A[j, i]
    return B


def twice_lower(A):
    # ``2 * j < i``: the split point ceil(i / 2) is no affine expression of i
    n = A.shape[0]
    B = np.zeros_like(A)
    for i in range(n):
        for j in range(n):
            if 2 * j < i:
                B[i, j] = A[i, j] * A[j, j]
            else:
                B[i, j] = -A[i, j]
    return B


def half_lower(A):
    # ``j <= i // 2``: the quotient of the index, compared next, is the split point
    n = A.shape[0]
    B = np.zeros_like(A)
    for i in range(n):
        for j in range(n):
            if j <= i // 2:
                B[i, j] = A[i, j] + A[j, i]
            else:
                B[i, j] = -A[i, j]
    return B


def tri_band(A, w):
    # a split inside a split: the j count follows i, and ``j < i - w`` leaves the j
    # range at the first w rows (the i loop splits there too)
    n = A.shape[0]
    B = np.zeros_like(A)
    for i in range(n):
        for j in range(i):
            if j < i - w:
                B[i, j] = A[i, j] * A[j, i]
            else:
                B[i, j] = A[i, j] + 1.0
    return B


def gauss_jordan_temp(A, b):
    # ``gauss_jordan`` with the multiplier in a temporary bound in one way only
    n = A.shape[0]
    A = A.copy()
    b = b.copy()
    for p in range(n):
        piv = A[p, p]
        A[p] = A[p] / piv
        b[p] = b[p] / piv
        for k in range(n):
            if k != p:
                f = A[k, p]
                b[k] = b[k] - f * b[p]
                A[k] = A[k] - f * A[p]
    return b


def anti_lower(A):
    # ``i + j < n`` over n x n/2: the split point n - i leaves the j range at the first
    # n - m rows; in the i segment after them the j segment ``[n - i, m)`` runs no trip
    # at the trace's hint (translator/segment_hints.py; before, unrolled: Python)
    n, m = A.shape
    B = np.zeros_like(A)
    for i in range(n):
        for j in range(m):
            if i + j < n:
                B[i, j] = A[i, j] * A[j, j]
            else:
                B[i, j] = -A[i, j]
    return B


def diag_offdiag(A):
    # ``j == i``: three ranges of j, below, at and above the diagonal
    n = A.shape[0]
    B = np.zeros_like(A)
    for i in range(n):
        for j in range(n):
            if j == i:
                B[i, j] = 2.0 * A[i, j]
            else:
                B[i, j] = A[i, j] - A[j, i]
    return B


CASES = ("forward_sub", "cholesky", "forward_sub_floats", "cholesky_banachiewicz",
         "strided_sweep", "red_black_1d", "red_black_gs", "branchy_cholesky",
         "gauss_jordan", "boundary_stepper", "rect_lower", "banded", "band_abs",
         "twice_lower", "gauss_jordan_temp", "half_lower", "tri_band", "anti_lower",
         "diag_offdiag")


def _inputs(name: str, n: int):
    rng = np.random.default_rng(0)
    M = rng.random((n, n))
    if name.startswith("forward_sub"):
        return (np.tril(M) + n * np.eye(n), rng.random(n))
    if name == "strided_sweep":
        return (M,)
    if name == "red_black_1d":
        return (np.zeros(n * n), rng.random(n * n), 10)
    if name == "red_black_gs":
        return (np.zeros((n, n)), M, 10)
    if name.startswith("gauss_jordan"):
        return (M + n * np.eye(n), rng.random(n))
    if name in ("rect_lower", "anti_lower"):
        return (rng.random((n, n // 2)),)
    if name in ("banded", "band_abs", "tri_band"):
        return (M, 3)
    if name in ("twice_lower", "half_lower", "diag_offdiag"):
        return (M,)
    if name == "boundary_stepper":
        return (rng.random(n * n), 10)
    return (M @ M.T + n * np.eye(n),)


def _hand(name: str):
    from numba import njit
    return njit(globals()[name])


def _fresh(args) -> list:
    return [a.copy() if isinstance(a, np.ndarray) else a for a in args]


def _quartile(fn, args, rounds: int) -> float:
    times = []
    for _ in range(rounds):
        fresh = _fresh(args)
        t = time.process_time()
        fn(*fresh)
        times.append(time.process_time() - t)
    return sorted(times)[len(times) // 4] * 1e3


def measure(sizes, rounds: int, cases=CASES) -> list[dict]:
    from dynamo.backends.native.backend import native_backend
    sync = {"after_calls": 1, "background": False, "prefer": "native", "cache": False}
    rows = []
    for name in cases:
        for n in sizes:
            args = _inputs(name, n)
            fn = globals()[name]
            want = fn(*_fresh(args))
            t = time.process_time()
            tier1 = dynamo.compile(fn, backend="numpy")
            got1 = tier1(*_fresh(args))
            first = time.process_time() - t
            tier2 = dynamo.compile(fn, backend=lambda g, e: native_backend(g, e, options=sync))
            tier2(*_fresh(args))
            t = time.process_time()
            got2 = tier2(*_fresh(args))   # (the Numba compile, then its call)
            compile2 = time.process_time() - t
            hand = _hand(name)
            hand(*_fresh(args))
            same = bool(np.array_equal(got1, want) and np.array_equal(got2, want))
            funcs = {"plain": fn, "tier1": tier1, "tier2": tier2, "numba": hand}
            best = {k: [] for k in funcs}
            for _ in range(3):            # interleaved: each a quartile of ``rounds``
                for k, f in funcs.items():
                    best[k].append(_quartile(f, args, rounds))
            rows.append({"case": name, "n": n, "same": same, "first_s": round(first, 2),
                         "tier2_s": round(compile2, 2),
                         **{f"{k}_ms": round(min(v), 3) for k, v in best.items()}})
            print(json.dumps(rows[-1]), file=sys.stderr, flush=True)   # (progress)
    return rows


def _table(results: dict) -> str:
    lines = ["| case | n | tree | plain ms | tier 1 ms | tier 2 ms | numba ms | first call s "
             "| tier-2 compile s | same |", "|---" * 10 + "|"]
    for (tree, run), rows in results.items():
        for r in rows:
            lines.append(f"| {r['case']} | {r['n']} | {tree} (run {run}) | {r['plain_ms']} | "
                         f"{r['tier1_ms']} | {r['tier2_ms']} | {r['numba_ms']} | "
                         f"{r['first_s']} | {r['tier2_s']} | {r['same']} |")
    return "\n".join(lines)


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--sizes", default="100,300")
    p.add_argument("--rounds", type=int, default=9)
    p.add_argument("--root", help="import dynamo from this checkout")
    p.add_argument("--compare", help="a checkout of the base: run it and this tree")
    p.add_argument("--runs", type=int, default=1)
    p.add_argument("--cases", default=",".join(CASES))
    a = p.parse_args()
    if a.compare:
        results = {}
        for run in range(1, a.runs + 1):
            for tree, root in (("before", ["--root", a.compare]), ("after", [])):
                out = subprocess.run([sys.executable, __file__, *root, "--sizes",
                                      a.sizes, "--rounds", str(a.rounds), "--cases",
                                      a.cases],
                                     capture_output=True, text=True, check=True).stdout
                results[(tree, run)] = json.loads(out.strip().splitlines()[-1])
        print(_table(results))
        return
    print(json.dumps(measure([int(s) for s in a.sizes.split(",")], a.rounds,
                             a.cases.split(","))))


if __name__ == "__main__":
    # (here, not at the top: tests/shared/corpus_nested_loops.py loads this file for its
    # two programs, and must not change the test process's Numba threads)
    os.environ.setdefault("NUMBA_NUM_THREADS", "1")
    _root = next((sys.argv[i + 1] for i, v in enumerate(sys.argv[:-1]) if v == "--root"),
                 None)
    if _root:   # (the editable install's finder would map dynamo to this tree)
        sys.meta_path[:] = [f for f in sys.meta_path
                            if "__editable__" not in getattr(f, "__module__", "")]
        sys.path.insert(0, _root)
    import dynamo
    main()
