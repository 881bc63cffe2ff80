"""The first call and a cached call of a function given one long tuple of numbers.

    python scripts/bench_long_tuples.py            # prints the table

``f(x, t)`` reads ``t[0]``, ``t[1]`` and ``len(t)`` of a tuple of ``n`` Python ints
(the hostile round 23 program ``huge_tuples``). Past ``builder.MAX_TRACED_ITEMS``
items the tuple is one input with one guard (issue #17): the first call (trace,
guards, compile, run) and the cached call (the check function, then the entry) both
grow with ``n`` through C loops only. CPU time of this thread (``time.thread_time``),
the median of ``repeat`` runs, each with a fresh ``dynamo.compile``.

Example::

    >>> rows = run(sizes=(100,), repeat=1)
    >>> rows[0]["items"], rows[0]["guards"] < 20
    (100, True)
"""

from __future__ import annotations

import statistics
import time

import numpy as np

import dynamo


def _tuple_branch(x, t):
    if t[0] > 2:
        return x + len(t)
    return x * t[1]


def _one(n: int) -> tuple[float, float, int]:
    x, t = np.ones(3), tuple(range(5, 5 + n))
    f = dynamo.compile(_tuple_branch, backend="eager")
    t0 = time.thread_time()
    f(x, t)
    t1 = time.thread_time()
    for _ in range(10):
        f(x, t)
    t2 = time.thread_time()
    report = dynamo.explain(_tuple_branch, backend="eager")(x, t)
    guards = sum(len(r.guards) for r in report.records)
    return t1 - t0, (t2 - t1) / 10, guards


def run(sizes=(1_000, 10_000, 100_000), repeat: int = 3) -> list[dict]:
    rows = []
    for n in sizes:
        runs = [_one(n) for _ in range(repeat)]
        rows.append({"items": n,
                     "first_call_s": statistics.median(r[0] for r in runs),
                     "cached_call_ms": 1e3 * statistics.median(r[1] for r in runs),
                     "guards": runs[0][2]})
    return rows


if __name__ == "__main__":
    print(f"{'items':>8} {'first call (s)':>15} {'cached call (ms)':>17} {'guards':>7}")
    for row in run():
        print(f"{row['items']:>8} {row['first_call_s']:>15.3f} {row['cached_call_ms']:>17.3f}"
              f" {row['guards']:>7}")
