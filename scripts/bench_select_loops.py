"""Loops over elements whose body writes what an ``if`` on the data decides, as loop
nodes (issue #19: ``translator/branch_selects.py`` in a loop node's body).

A forward fill (``if np.isnan(x[i]): x[i] = x[i - 1]``) and a clamp (``if x[i] > hi:
x[i] = hi``) over ``n`` elements, 30 % NaN / about a third above ``hi``. Each row,
side by side in one process:

- ``plain_ms``: the function run by Python;
- ``break_ms``: ``backend="numpy"`` with ``dynamo.config.branch_selects`` off, which
  is the state before this change: the loop, too long to unroll, breaks and runs in
  Python;
- ``numpy_ms``: ``backend="numpy"`` (the loop node runs its body once per trip, in
  Python: ``x[i] = where(isnan(x[i]), x[i - 1], x[i])``);
- ``auto2_ms``: ``backend="auto"`` with tier 2 forced (``after_calls=1``,
  ``background=False``, ``prefer="native"``): the loop nest compiled by Numba;
- ``break/numpy``, ``break/auto2``: above 1, the loop node is faster than the break.

Times are the median over rounds
of the mean CPU time of a batch of calls (``time.process_time``: the machine is shared),
the three interleaved per round; every result is checked equal to plain's first.

Run: ``.venv/bin/python scripts/bench_select_loops.py [--rounds 5]``.

Example::

    $ .venv/bin/python scripts/bench_select_loops.py --rounds 3
    | program | n | plain_ms | break_ms | numpy_ms | auto2_ms | break/numpy | break/auto2 |
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
from option_pairs import copy_function, traced  # (siblings: scripts/ is on sys.path)

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


def _args(name: str, n: int):
    x = np.random.default_rng(n).standard_normal(n)
    if name == "forward_fill":
        x[np.random.default_rng(1).random(n) < 0.3] = np.nan
        return (x,)
    return (x, 0.4)


def _cpu_ms(fn, args, calls: int) -> float:
    start = time.process_time()
    for _ in range(calls):
        fn(*args)
    return (time.process_time() - start) / calls * 1e3


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    opts = parser.parse_args()
    print("| program | n | plain_ms | break_ms | numpy_ms | auto2_ms | break/numpy | "
          "break/auto2 |")
    print("|---|---|---|---|---|---|---|---|")
    for fn in (forward_fill, clamp):
        for n in (10_000, 100_000):
            dynamo.reset()   # (each size static: a second size would be a symbolic one,
            args = _args(fn.__name__, n)   # which tier 2 leaves to tier 1)
            runs = {"plain": fn,
                    "break": traced(copy_function(fn), args, "numpy", "branch_selects",
                                    False),
                    "numpy": dynamo.compile(fn, backend="numpy"),
                    "auto2": dynamo.compile(copy_function(fn), backend="auto",
                                            options=TIER2_NOW)}
            want = fn(*args)
            # (compiles; auto's first calls race tier 2 against tier 1 and keep the
            # faster: backends/native/trial_calls.py)
            for f in runs.values():
                for _ in range(60 if f is runs["auto2"] else 2):
                    assert np.array_equal(f(*args), want, equal_nan=True)
            calls = max(2, 100_000 // n)
            times: dict = {k: [] for k in runs}
            for _ in range(opts.rounds):
                for k, f in runs.items():
                    times[k].append(_cpu_ms(f, args, calls))
            med = {k: statistics.median(v) for k, v in times.items()}
            print(f"| {fn.__name__} | {n} | {med['plain']:.2f} | {med['break']:.2f} | "
                  f"{med['numpy']:.2f} | {med['auto2']:.3f} | "
                  f"{med['break'] / med['numpy']:.2f}x | "
                  f"{med['break'] / med['auto2']:.0f}x |")


if __name__ == "__main__":
    main()
