"""Loops over elements that keep a Python number an ``if`` on the data picks (a running
argmin's index, a counter) or test a chained comparison (``lo <= x[i] < hi``), as loop
nodes (issue #19: ``translator/picked_numbers.py``, ``translator/size_chains.py``),
against the plain Python loop and against the numpy backend of another tree ("before":
at 215f1c8 the loop was too long to unroll and broke; the rest ran as Python).

The programs, over ``n`` float64 elements (standard normal, 10 % NaN):

- ``running_argmin``: ``if d[i] < best: best = d[i]; arg = i`` (corpus 15's);
- ``count_above``: ``if r[i] > t: count += 1`` (corpus 15's);
- ``count_in_range``: ``if lo <= x[i] < hi: count += 1``;
- ``keep_in_range``: ``if lo <= x[i] < hi: y[i] = x[i]``;
- ``running_min``: ``if x[i] < m: m = x[i]``, ``out[i] = m`` (a carried NumPy scalar);
- ``cond_sum``: ``if x[i] > t: s = s + x[i]`` (no NaN in its data: a kernel flags a
  NaN any float op makes or passes on, and tier 1 reruns such a call);
- ``count_two``: ``counts[0] += 1`` one way, ``counts[1] += 1`` the other (int64
  scalars of an array, NumPy's overflow flagged).

Each row, side by side, interleaved per round: ``plain_ms`` (Python), ``before_ms``
(numpy backend, in another tree: a child process through ``scripts/run_in_tree.py``,
``--before ROOT``, e.g. a clone of the commit before the change; the parent asks it
for one batch per round, between its own), ``numpy_ms`` (numpy backend), ``auto2_ms``
(``backend="auto"``, tier 2 forced: ``after_calls=1``, ``background=False``,
``prefer="native"``), ``numba_ms`` (the program's own loop compiled by ``numba.njit``:
the hand-written Numba loop; ``nan`` without Numba). Times are the median over rounds
of the mean CPU time of a batch of calls (``time.process_time``); every result, the
child's too, is checked equal to plain's (values and types).

Run::

    git clone -q . /tmp/base && git -C /tmp/base checkout -q 215f1c8
    .venv/bin/python scripts/bench_picked_numbers.py --before /tmp/base --rounds 5 \\
        --sizes 1000 10000 100000

Without ``--before`` the column is ``nan``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys

import numpy as np
from option_pairs import batch_us, copy_function  # (siblings: scripts/ is on sys.path)

import dynamo

TIER2_NOW = {"after_calls": 1, "background": False, "prefer": "native"}


def running_argmin(d):
    best = d[0]
    arg = 0
    for i in range(1, len(d)):
        if d[i] < best:
            best = d[i]
            arg = i
    return best, arg


def count_above(r, t):
    count = 0
    for i in range(len(r)):
        if r[i] > t:
            count += 1
    return count


def count_in_range(x, lo, hi):
    count = 0
    for i in range(len(x)):
        if lo <= x[i] < hi:
            count += 1
    return count


def keep_in_range(x, lo, hi):
    y = np.zeros_like(x)
    for i in range(len(x)):
        if lo <= x[i] < hi:
            y[i] = x[i]
    return y


def running_min(x):
    out = np.empty_like(x)
    m = x[0]
    for i in range(len(x)):
        if x[i] < m:
            m = x[i]
        out[i] = m
    return out


def cond_sum(x, t):
    s = x[0] * 0.0
    for i in range(len(x)):
        if x[i] > t:
            s = s + x[i]
    return s


def count_two(x, t):
    counts = np.zeros(2, dtype=np.int64)
    for i in range(len(x)):
        if x[i] > t:
            counts[0] += 1
        else:
            counts[1] += 1
    return counts


PROGRAMS = [running_argmin, count_above, count_in_range, keep_in_range, running_min,
            cond_sum, count_two]


def _args(fn, n: int) -> tuple:
    x = np.random.default_rng(n).standard_normal(n)
    if fn.__name__ != "cond_sum":
        x[::10] = np.nan
    x[0] = 0.0
    return {"running_argmin": (x,), "running_min": (x,), "count_above": (x, 0.5),
            "cond_sum": (x, 0.2), "count_two": (x, 0.2)}.get(fn.__name__,
                                                             (x, -0.5, 0.5))


def _numba(fn):
    """``fn`` compiled by ``numba.njit`` (the hand-written loop), or None without Numba."""
    try:
        import numba
    except ImportError:
        return None
    return numba.njit(copy_function(fn))


def _same(got, want) -> bool:
    if isinstance(want, tuple):
        return all(_same(g, w) for g, w in zip(got, want, strict=True))
    return np.array_equal(got, want, equal_nan=True) and type(got) is type(want)


def _serve() -> None:
    """The "before" side (``--serve``, in the other tree): for each line ``program n
    calls`` read, the numpy backend's mean CPU ms of a batch, on stdout."""
    compiled: dict = {}
    for line in sys.stdin:
        name, n, calls = line.split()
        fn = {f.__name__: f for f in PROGRAMS}[name]
        args = _args(fn, int(n))
        key = (name, n)
        if key not in compiled:
            dynamo.reset()
            compiled[key] = dynamo.compile(copy_function(fn), backend="numpy")
            for _ in range(2):
                assert _same(compiled[key](*args), fn(*args)), ("before", name)
        print(batch_us(compiled[key], args, int(calls)) / 1e3, flush=True)


class _Before:
    """The child process running ``_serve`` in the tree ``root``."""

    def __init__(self, root: str):
        here = os.path.dirname(os.path.abspath(__file__))
        self.child = subprocess.Popen(
            [sys.executable, os.path.join(here, "run_in_tree.py"), root,
             os.path.abspath(__file__), "--serve"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def __call__(self, name: str, n: int, calls: int) -> float:
        self.child.stdin.write(f"{name} {n} {calls}\n")
        self.child.stdin.flush()
        return float(self.child.stdout.readline())

    def close(self) -> None:
        self.child.stdin.close()
        self.child.wait()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 10_000])
    parser.add_argument("--before", metavar="ROOT",
                        help="a checkout to time the numpy backend of (run_in_tree.py)")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    opts = parser.parse_args()
    if opts.serve:
        return _serve()
    before = _Before(opts.before) if opts.before else None
    print("| program | n | plain_ms | before_ms | numpy_ms | auto2_ms | before/numpy | "
          "plain/numpy | plain/auto2 | numba_ms | auto2/numba |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for fn in PROGRAMS:
        for n in opts.sizes:
            dynamo.reset()
            args = _args(fn, n)
            want = fn(*args)
            runs = {"plain": fn,
                    "numpy": dynamo.compile(copy_function(fn), backend="numpy"),
                    "auto2": dynamo.compile(copy_function(fn), backend="auto",
                                            options=TIER2_NOW)}
            hand = _numba(fn)
            if hand is not None:
                runs["numba"] = hand
            for k, f in runs.items():
                for _ in range(60 if k == "auto2" else 2):
                    # (Numba returns its own types: a Python float for a float64)
                    assert _same(f(*args), want) or k == "numba" and np.array_equal(
                        f(*args), want, equal_nan=True), (fn.__name__, k)
            calls = max(10, 20_000 // n)   # (a tier-2 call at 10^5: 10-100 us)
            times: dict = {k: [] for k in (*runs, "before", "numba")}
            for _ in range(opts.rounds):
                for k, f in runs.items():
                    times[k].append(batch_us(f, args, calls) / 1e3)
                    if k == "plain" and before is not None:
                        times["before"].append(before(fn.__name__, n, calls))
            m = {k: statistics.median(v) if v else float("nan") for k, v in times.items()}
            print(f"| {fn.__name__} | {n} | {m['plain']:.3f} | {m['before']:.3f} | "
                  f"{m['numpy']:.3f} | {m['auto2']:.3f} | "
                  f"{m['before'] / m['numpy']:.2f}x | {m['plain'] / m['numpy']:.2f}x | "
                  f"{m['plain'] / m['auto2']:.2f}x | {m['numba']:.4f} | "
                  f"{m['auto2'] / m['numba']:.2f}x |", flush=True)
    if before is not None:
        before.close()


if __name__ == "__main__":
    main()
