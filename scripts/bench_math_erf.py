"""math.erf per element (Tauchen's normal CDF, corpus 14): plain against compiled.

Plain Python and each backend interleaved, best of N; prints each program's time and
the compiled/plain ratio, breaks and graphs (issue #19, task w1).

    .venv/bin/python scripts/bench_math_erf.py
"""

from __future__ import annotations

import math
import sys
import time
import warnings
from pathlib import Path

import numpy as np

import dynamo

sys.path.insert(0, str(Path(__file__).resolve().parent))
import realworld_programs14_sci as rw14  # noqa: E402


def cdf_table(y, rho, sigma):
    n = len(y)
    step = y[1] - y[0]
    P = np.empty((n, n))
    for i in range(n):
        for j in range(n):
            hi = (y[j] - rho * y[i] + step / 2) / sigma
            P[i, j] = 0.5 * (1 + math.erf(hi / math.sqrt(2)))
    return P


ROUNDS = 9
CASES = [("cdf table 5x5", cdf_table, (np.linspace(-0.7, 0.7, 5), 0.9, 0.1)),
         ("cdf table 31x31", cdf_table, (np.linspace(-0.7, 0.7, 31), 0.9, 0.1)),
         ("Tauchen (corpus 14, test size)", rw14.tauchen_simulate, (21, 0.9, 0.1, 5, 20)),
         ("Tauchen (corpus 14, full size)", rw14.tauchen_simulate, (21, 0.9, 0.1, 31, 3000))]


def best(fn, args, n):
    out = float("inf")
    for _ in range(n):
        t = time.perf_counter()
        fn(*args)
        out = min(out, time.perf_counter() - t)
    return out


if __name__ == "__main__":
    warnings.simplefilter("ignore")
    for name, fn, args in CASES:
        report = dynamo.explain(fn, backend="eager")(*args)
        compiled = {b: dynamo.compile(fn, backend=b) for b in ("eager", "numpy", "auto")}
        for b, c in compiled.items():
            got, want = c(*args), fn(*args)
            same = all(np.array_equal(g, w) for g, w in zip(got, want)) \
                if isinstance(want, tuple) else np.array_equal(got, want)
            assert same, (name, b)
        times = {"plain": [], **{b: [] for b in compiled}}
        for _ in range(ROUNDS):   # interleaved rounds
            times["plain"].append(best(fn, args, 5))
            for b, c in compiled.items():
                times[b].append(best(c, args, 5))
        plain = min(times["plain"])
        print(f"{name}: breaks {report.graph_break_count}, graphs {report.graph_count}; "
              f"plain {plain * 1e6:.1f} us; " + ", ".join(
                  f"{b} {min(t) * 1e6:.1f} us ({plain / min(t):.2f}x plain)"
                  for b, t in times.items() if b != "plain"))
