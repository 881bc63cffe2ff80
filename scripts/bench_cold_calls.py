"""The first calls of a fresh compile against later ones (issue #15): calls 3-10 of a
small stateful method, compiled from a fresh ``dynamo.reset()``, against calls 21-30 of
the same run and against plain Python, call by call.

CPython 3.11 runs a new code object unspecialized for its first 8 calls and quickens it
on the 8th, so a dispatcher made by a compile, run cold, made calls 3-10 slower than
later ones (``dispatch.warmed``, ``frame_entries._warm``; docs/guards.md). Each row is
the median over ``--rounds`` fresh compiles of each call's wall time
(``time.perf_counter_ns``; the plain and compiled calls alternate, one each per call
index), then the median over the calls of the range; "per call" shows calls 3-10 one
by one (a spike marks a code object quickened on that call).

    python scripts/bench_cold_calls.py [--rounds 25]
    python scripts/run_in_tree.py /tmp/base scripts/bench_cold_calls.py   # another tree
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(os.path.dirname(HERE), "tests", "realworld")]

import numpy as np  # noqa: E402
import stateful_corpus9 as C  # noqa: E402
import stateful_corpus9_models as M  # noqa: E402

import dynamo  # noqa: E402

# (corpus 9 program, class, method, constructor arguments): one shape, no recompile
# after the first calls
PROGRAMS = [("welford_object", C.Welford, "update", (5,)),
            ("cache_hit_miss_counters", C.CountingCache, "normalize", ()),
            ("scheduler_epoch_halving", C.StepScheduler, "step", ()),
            ("running_minmax_scaler", C.MinMaxScaler, "partial_fit", ()),
            ("metric_sum_count_reset", M.MeanMetric, "update", ())]
CALLS = 30


def per_call(cls, method: str, args: tuple, rounds: int, backend: str):
    """``(plain, compiled)``: for each call index, its wall times (ns) over the rounds."""
    x = np.linspace(0.0, 1.0, 5)
    plain = [[] for _ in range(CALLS)]
    compiled = [[] for _ in range(CALLS)]
    for _ in range(rounds):
        p = getattr(cls(*args), method)
        dynamo.reset()
        c = dynamo.compile(getattr(cls(*args), method), backend=backend)
        for i in range(CALLS):
            t0 = time.perf_counter_ns()
            p(x)
            t1 = time.perf_counter_ns()
            c(x)
            t2 = time.perf_counter_ns()
            plain[i].append(t1 - t0)
            compiled[i].append(t2 - t1)
    return plain, compiled


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=25)
    ap.add_argument("--backend", default="numpy")
    opts = ap.parse_args()

    def us(times, lo, hi):
        return statistics.median(statistics.median(t) for t in times[lo:hi]) / 1e3

    print("| program | plain calls 3-10 us | plain 21-30 | compiled 3-10 | compiled 21-30 | "
          "compiled per call, calls 3-10 |")
    print("|---|---:|---:|---:|---:|---|")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, cls, method, args in PROGRAMS:
            plain, compiled = per_call(cls, method, args, opts.rounds, opts.backend)
            calls = " ".join(f"{statistics.median(compiled[i]) / 1e3:.1f}" for i in range(2, 10))
            print(f"| {name} | {us(plain, 2, 10):.2f} | {us(plain, 20, 30):.2f} | "
                  f"{us(compiled, 2, 10):.2f} | {us(compiled, 20, 30):.2f} | {calls} |",
                  flush=True)


if __name__ == "__main__":
    main()
