"""Peak memory (tracemalloc) of one warm call: plain NumPy against the numpy backend and
auto with tier 2 forced, over the corpora of ``bench_realworld.py`` (issue #15's target:
every compiled program at most 1.25x plain NumPy's peak).

A program's peak is what one call adds at its highest, plus the array memory the
function keeps from one call to the next::

    peak = (tracemalloc peak during call - traced bytes before it) + kept

- Compile-time allocations are left out: the call measured is the ``WARMUP + 1``-th
  (the trace, the codegen and Numba's compile run in the first calls), and bytes
  allocated before it (compile caches, graphs, guards) are subtracted.
- ``kept``: array data (NumPy's tracemalloc domain, ``np.lib.tracemalloc_domain``)
  still alive after the warm-up calls with every result dropped and ``gc.collect()``:
  scratch buffers kept between calls, precomputed constants, loop buffers. Tracing
  starts before the first call, so these are seen even where the first call made
  them. Python objects of the compile (domain 0) are not counted.
- Results: dropped between calls (as a caller that consumes each result); the
  measured call's result is alive at its end, counted as plain's is. Inputs are fresh
  copies made before the measured call (not counted).
- ``auto2``: ``backend="auto"`` with ``after_calls=1, background=False,
  prefer="native"``: tier 2 from the second call, no race. Numba's own allocations
  (NRT: tier 2's new arrays and loop buffers) are traced too (Numba 0.68, NumPy 2.4:
  an ``@njit`` making ``np.ones(100000)`` shows an 800 KB peak), so its figure is the
  kernel's whole peak. Auto's default (tier 1 until a graph is hot and wins its race)
  runs the numpy backend's code: the ``numpy`` column.

    .venv/bin/python scripts/bench_peak_memory.py --corpus 5
    .venv/bin/python scripts/bench_peak_memory.py --filter cavity --no-auto
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import time
import tracemalloc

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402
from bench_realworld import MEM, MEM_FLOOR, _fresh, corpus  # noqa: E402

import dynamo  # noqa: E402

WARMUP = 3
TIER2_NOW = {"after_calls": 1, "background": False, "prefer": "native", "cache": False}
DOMAIN = np.lib.tracemalloc_domain


def _kept_arrays() -> int:
    """Bytes of NumPy array data traced and still alive."""
    gc.collect()
    snap = tracemalloc.take_snapshot()
    return sum(t.size for t in snap.traces if t.domain == DOMAIN)


def peak(fn, args, kwargs) -> tuple[int, int]:
    """(peak of one warm call + kept array bytes, kept array bytes) of ``fn``."""
    tracemalloc.start()
    try:
        for _ in range(WARMUP):
            fn(*_fresh(args), **kwargs)      # the result dropped at once
        kept = _kept_arrays()
        a = _fresh(args)
        gc.collect()
        before = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        result = fn(*a, **kwargs)            # noqa: F841  (alive at the peak read)
        top = tracemalloc.get_traced_memory()[1]
        return top - before + kept, kept
    finally:
        tracemalloc.stop()


def measure(name, fn, args, kwargs, auto: bool) -> dict:
    dynamo.reset()
    gc.collect()
    row = {"program": name}
    row["plain"], row["plain_kept"] = peak(fn, args, kwargs)
    row["numpy"], row["numpy_kept"] = peak(dynamo.compile(fn, backend="numpy"), args, kwargs)
    if auto:   # (the numpy backend's modules dropped: their buffers are not shared)
        dynamo.reset()
        gc.collect()
        f = dynamo.compile(fn, backend="auto", options=TIER2_NOW)
        row["auto2"], row["auto2_kept"] = peak(f, args, kwargs)
    dynamo.reset()
    return row


def _over(row, key) -> bool:
    return row[key] > MEM * row["plain"] and row[key] - row["plain"] > MEM_FLOOR


def report(rows, keys) -> None:
    print("| program | plain KiB | " + " | ".join(f"{k} KiB (kept) | {k}/plain" for k in keys)
          + " |")
    print("|---|---|" + "---|---|" * len(keys))
    for r in rows:
        if any(_over(r, k) for k in keys):
            cells = [f"{r[k] / 1024:.0f} ({r[k + '_kept'] / 1024:.0f}) | "
                     f"{'**' if _over(r, k) else ''}{r[k] / max(1, r['plain']):.2f}x"
                     f"{'**' if _over(r, k) else ''}" for k in keys]
            print(f"| {r['program']} | {r['plain'] / 1024:.0f} | " + " | ".join(cells) + " |")
    for k in keys:
        ratios = sorted(r[k] / max(1, r["plain"]) for r in rows)
        q = statistics.quantiles(ratios, n=20) if len(ratios) > 1 else ratios * 19
        print(f"\n{k}/plain over {len(rows)} programs: median {statistics.median(ratios):.2f}x, "
              f"p90 {q[17]:.2f}x, p95 {q[18]:.2f}x, max {ratios[-1]:.2f}x; "
              f"<= 1.0x: {sum(x <= 1.0 for x in ratios)}, over {MEM}x: "
              f"{sum(x > MEM for x in ratios)}, over {MEM}x and {MEM_FLOOR >> 10} KiB above "
              f"plain: {sum(_over(r, k) for r in rows)}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--filter", default="", help="only programs whose name contains this")
    ap.add_argument("--corpus", default="all", help="1-9 or all (bench_realworld.corpus)")
    ap.add_argument("--no-auto", action="store_true", help="leave out auto with tier 2")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    rows = []
    for name, fn, a, kw in corpus(args.corpus):
        if args.filter.lower() not in name.lower():
            continue
        try:
            rows.append(measure(name, fn, a, kw, not args.no_auto))
        except Exception as e:   # a program that fails is reported, not fatal
            print(f"  {name}: FAILED {type(e).__name__}: {e}", file=sys.stderr, flush=True)
            continue
        r, p = rows[-1], max(1, rows[-1]["plain"])
        print(f"  {name}: plain {r['plain'] >> 10} KiB, numpy {r['numpy'] / p:.2f}x"
              + (f", auto2 {r['auto2'] / p:.2f}x" if "auto2" in r else "")
              + f" ({time.perf_counter() - t0:.0f} s)", file=sys.stderr, flush=True)
    if rows:
        report(rows, ["numpy"] + ([] if args.no_auto else ["auto2"]))
    print(f"({time.perf_counter() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
