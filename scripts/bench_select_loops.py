"""Loops over elements whose body writes or keeps what an ``if`` on the data decides,
as loop nodes (issue #19: ``translator/branch_selects.py``, ``select_writes.py`` in a
loop node's body), against the plain Python loop (issue #15: never slower).

The programs, over ``n`` float64 elements (standard normal; 30 % NaN for the fill):

- ``forward_fill``: ``if np.isnan(x[i]): x[i] = x[i - 1]``;
- ``clamp``: ``if x[i] > hi: x[i] = hi``;
- ``reflect``: a reflecting boundary, ``if x[i] > hi: x[i] = 2 * hi - x[i]`` ``elif
  x[i] < lo: x[i] = 2 * lo - x[i]``;
- ``running_min``: ``if x[i] < m: m = x[i]``, ``out[i] = m`` (a carried NumPy scalar);
- ``cond_sum``: a running sum with a condition, ``if x[i] > t: s = s + x[i]``;
- ``count_above``: a threshold counter, ``counts[0] += 1`` one way, ``counts[1] += 1``
  the other;
- ``clamp2``: a clamp of two arrays in one loop;
- ``skip_neg``: an early ``continue`` (``if x[i] < 0: continue``, then ``out[i] = 2 *
  x[i]``).

Each row, side by side in one process:

- ``plain_ms``: the function run by Python;
- ``numpy_ms``: ``backend="numpy"`` (the loop node runs its body once per trip, as
  generated Python: ``if (x[trip] > 0.4): x[trip] = _float64_0_4``,
  ``backends/numpy_backend/select_code.py``);
- ``auto2_ms``: ``backend="auto"`` with tier 2 forced (``after_calls=1``,
  ``background=False``, ``prefer="native"``): the loop nest compiled by Numba;
- ``plain/numpy``, ``plain/auto2``: above 1, the compiled code is faster than plain.

Times are the median over rounds of the mean CPU time of a batch of calls
(``time.process_time``: the machine is shared), the three interleaved per round;
every result is checked equal to plain's first (``--no-auto`` leaves tier 2 out).

Run: ``.venv/bin/python scripts/bench_select_loops.py [--rounds 5] [--sizes 1000 10000]``.

Example::

    $ .venv/bin/python scripts/bench_select_loops.py --rounds 3
    | program | n | plain_ms | numpy_ms | auto2_ms | plain/numpy | plain/auto2 |
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
from option_pairs import copy_function  # (siblings: scripts/ is on sys.path)

import dynamo

TIER2_NOW = {"after_calls": 1, "background": False, "prefer": "native", "cache": False}


def forward_fill(x):
    x = x.copy()
    for i in range(1, len(x)):
        if np.isnan(x[i]):
            x[i] = x[i - 1]
    return x


def clamp(x, hi):
    x = x.copy()
    for i in range(len(x)):
        if x[i] > hi:
            x[i] = hi
    return x


def reflect(x, lo, hi):
    x = x.copy()
    for i in range(len(x)):
        if x[i] > hi:
            x[i] = 2 * hi - x[i]
        elif x[i] < lo:
            x[i] = 2 * lo - x[i]
    return x


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


def count_above(x, t):
    counts = np.zeros(2, dtype=np.int64)
    for i in range(len(x)):
        if x[i] > t:
            counts[0] += 1
        else:
            counts[1] += 1
    return counts


def clamp2(x, y, hi):
    x = x.copy()
    y = y.copy()
    for i in range(len(x)):
        if x[i] > hi:
            x[i] = hi
        if y[i] < -hi:
            y[i] = -hi
    return x, y


def skip_neg(x):
    out = np.zeros_like(x)
    for i in range(len(x)):
        if x[i] < 0:
            continue
        out[i] = x[i] * 2.0
    return out


PROGRAMS = (forward_fill, clamp, reflect, running_min, cond_sum, count_above, clamp2,
            skip_neg)


def _args(name: str, n: int):
    x = np.random.default_rng(n).standard_normal(n)
    if name == "forward_fill":
        x[np.random.default_rng(1).random(n) < 0.3] = np.nan
        return (x,)
    extra = {"clamp": (0.4,), "reflect": (-1.0, 1.0), "cond_sum": (0.2,),
             "count_above": (0.2,), "clamp2": (np.random.default_rng(2).standard_normal(n),
                                               0.4)}
    return (x, *extra.get(name, ()))


def _same(got, want) -> bool:
    if isinstance(want, tuple):
        return all(_same(g, w) for g, w in zip(got, want, strict=True))
    return np.array_equal(got, want, equal_nan=True) and \
        np.asarray(got).dtype == np.asarray(want).dtype


def _cpu_ms(fn, args, calls: int) -> float:
    start = time.process_time()
    for _ in range(calls):
        fn(*args)
    return (time.process_time() - start) / calls * 1e3


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 10_000, 100_000])
    parser.add_argument("--programs", nargs="+", default=[f.__name__ for f in PROGRAMS])
    parser.add_argument("--no-auto", action="store_true")
    opts = parser.parse_args()
    print("| program | n | plain_ms | numpy_ms | auto2_ms | plain/numpy | plain/auto2 |")
    print("|---|---|---|---|---|---|---|")
    for fn in PROGRAMS:
        if fn.__name__ not in opts.programs:
            continue
        for n in opts.sizes:
            dynamo.reset()   # (each size static: a second size would be a symbolic one,
            args = _args(fn.__name__, n)   # which tier 2 leaves to tier 1)
            runs = {"plain": fn, "numpy": dynamo.compile(copy_function(fn), backend="numpy")}
            if not opts.no_auto:
                runs["auto2"] = dynamo.compile(copy_function(fn), backend="auto",
                                               options=TIER2_NOW)
            want = fn(*args)
            # (compiles; auto's first calls race tier 2 against tier 1 and keep the
            # faster: backends/native/trial_calls.py)
            for k, f in runs.items():
                for _ in range(60 if k == "auto2" else 2):
                    assert _same(f(*args), want), (fn.__name__, k)
            calls = max(2, 100_000 // n)
            times: dict = {k: [] for k in runs}
            for _ in range(opts.rounds):
                for k, f in runs.items():
                    times[k].append(_cpu_ms(f, args, calls))
            med = {k: statistics.median(v) for k, v in times.items()}
            auto = med.get("auto2", float("nan"))
            print(f"| {fn.__name__} | {n} | {med['plain']:.3f} | {med['numpy']:.3f} | "
                  f"{auto:.4f} | {med['plain'] / med['numpy']:.2f}x | "
                  f"{med['plain'] / auto:.0f}x |", flush=True)


if __name__ == "__main__":
    main()
