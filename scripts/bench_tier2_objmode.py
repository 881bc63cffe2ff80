"""Tier 2's object-mode blocks (NumPy calls and draws from a kernel): time per call and
peak memory, plain NumPy against ``auto`` with tier 2 forced, for programs whose kernels
have such blocks (issue #15, peak memory; backends/native/objmode_outline.py).

Times: best of ``--rounds``, plain and compiled interleaved in one process; peaks as
``bench_peak_memory.py`` measures them. Run it on two trees side by side to compare::

    .venv/bin/python scripts/bench_tier2_objmode.py
    .venv/bin/python scripts/run_in_tree.py /tmp/head/h scripts/bench_tier2_objmode.py
"""

from __future__ import annotations

import argparse
import os
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402
from bench_peak_memory import TIER2_NOW, peak  # noqa: E402
from bench_realworld import _fresh, corpus  # noqa: E402

import dynamo  # noqa: E402

# (corpus, name filter): programs whose tier-2 kernels call NumPy or draw in object mode
PROGRAMS = [("13", "Adam on n-d Rosenbrock"), ("13", "random walks"),
            ("13", "Metropolis")]


def _best(fn, args, kwargs, rounds: int, other=None) -> tuple:
    best, best_other = float("inf"), float("inf")
    for _ in range(rounds):
        a = _fresh(args)
        t = time.perf_counter()
        fn(*a, **kwargs)
        best = min(best, time.perf_counter() - t)
        if other is not None:
            a = _fresh(args)
            t = time.perf_counter()
            other(*a, **kwargs)
            best_other = min(best_other, time.perf_counter() - t)
    return best, best_other


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--list", help="a file of 'corpus | program name' lines instead")
    args = ap.parse_args(argv)
    programs = PROGRAMS
    if args.list:
        with open(args.list) as f:
            programs = [tuple(p.strip() for p in line.split("|")[:2])
                        for line in f if line.count("|") >= 2]
    print("| program | plain ms | tier 2 ms | plain/tier 2 | plain KiB | tier 2 peak/plain |"
          " equal |")
    print("|---|---|---|---|---|---|---|")
    for which, pattern in programs:
        for name, fn, a, kw in corpus(which):
            if pattern.lower() not in name.lower() or (args.list and name != pattern):
                continue
            dynamo.reset()
            try:
                row = _row(name, fn, a, kw, args.rounds)
            except Exception as e:   # a program that fails is reported, not fatal
                row = f"| {name} | failed: {type(e).__name__} |"
            print(row, flush=True)
    dynamo.reset()
    return 0


def _row(name, fn, a, kw, rounds: int) -> str:
    """One table row: times, peaks, and whether tier 2's results equal plain's."""
    plain_peak, _ = peak(fn, a, kw)
    f = dynamo.compile(fn, backend="auto", options=TIER2_NOW)
    tier2_peak, _ = peak(f, a, kw)
    got, want = f(*_fresh(a), **kw), fn(*_fresh(a), **kw)
    same = all(np.array_equal(x, y, equal_nan=True) for x, y in zip(
        got if isinstance(got, tuple) else (got,),
        want if isinstance(want, tuple) else (want,)))
    t2, tp = _best(f, a, kw, rounds, other=fn)
    return (f"| {name} | {tp * 1e3:.2f} | {t2 * 1e3:.2f} | {tp / t2:.2f}x | "
            f"{plain_peak / 1024:.0f} | {tier2_peak / max(1, plain_peak):.2f}x | {same} |")


if __name__ == "__main__":
    raise SystemExit(main())
