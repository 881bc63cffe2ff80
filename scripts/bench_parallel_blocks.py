"""Tier 2 forced on corpus programs whose parallel kernels have object-mode blocks
(p65 t4 measured moving them out of the kernel, objmode_outline.py, with it): results
against plain NumPy, peak memory (``bench_peak_memory.peak``: one warm call) and
median time per call, plain and tier 2.

    python scripts/bench_parallel_blocks.py 13 "autocorrelation" "quaternion"

Side by side with another tree: ``python scripts/run_in_tree.py /tmp/base
scripts/bench_parallel_blocks.py ...`` (one process per tree).
"""

from __future__ import annotations

import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_peak_memory import TIER2_NOW, peak  # noqa: E402
from bench_realworld import _fresh, corpus  # noqa: E402

import dynamo  # noqa: E402


def _diff(got, want) -> str:
    got = got if isinstance(got, tuple) else (got,)
    want = want if isinstance(want, tuple) else (want,)
    worst = 0.0
    for g, w in zip(got, want):
        if not np.array_equal(g, w, equal_nan=True):
            d = np.abs(np.asarray(g, float) - np.asarray(w, float))
            worst = max(worst, float(np.nanmax(d)))
    return "equal" if worst == 0 else f"max |diff| {worst:.3g}"


def _best_ms(f, args, kw, n=15) -> float:
    ts = []
    for _ in range(n):
        x = _fresh(args)
        t0 = time.perf_counter()
        f(*x, **kw)
        ts.append((time.perf_counter() - t0) * 1e3)
    return sorted(ts)[len(ts) // 2]


def main(which: str, needles: list) -> None:
    for name, fn, args, kw in corpus(which):
        if not any(n in name for n in needles):
            continue
        dynamo.reset()
        plain_peak, _ = peak(fn, args, kw)
        f = dynamo.compile(fn, backend="auto", options=TIER2_NOW)
        t2_peak, _ = peak(f, args, kw)
        same = _diff(f(*_fresh(args), **kw), fn(*_fresh(args), **kw))
        print(f"{name}: {same}; peak tier 2 / plain {t2_peak / plain_peak:.2f} "
              f"({t2_peak // 1024} / {plain_peak // 1024} KiB); median ms plain "
              f"{_best_ms(fn, args, kw):.3f} tier 2 {_best_ms(f, args, kw):.3f}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
