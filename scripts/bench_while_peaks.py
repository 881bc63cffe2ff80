"""Peak memory and time of the corpus programs whose numpy-backend code runs a
``while_loop`` node (a data-dependent loop: ``while err > tol:``, ``for ...: if test:
break``), plain NumPy against the numpy backend. For a change to how such loops hold
their values (dynamo/ops/loops.py ``while_loop``, passes/dead_carried.py), run it in
both trees and compare the lines::

    .venv/bin/python scripts/bench_while_peaks.py --corpus 6 > after.txt
    .venv/bin/python scripts/run_in_tree.py /tmp/head/h scripts/bench_while_peaks.py \\
        --corpus 6 > before.txt

A program runs a ``while_loop`` when its generated code calls one (the numpy backend
logs each graph's source on ``dynamo.backend`` at DEBUG). Peak: ``bench_peak_memory.peak``
(one warm call, tracemalloc). Time: process CPU time per call, the lower quartile of
``--rounds`` calls, plain and compiled interleaved; the ratio is plain / compiled.
"""

from __future__ import annotations

import argparse
import logging
import os
import time
import warnings

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

from bench_peak_memory import peak  # noqa: E402
from bench_realworld import _fresh, corpus  # noqa: E402

import dynamo  # noqa: E402


class _Sources(logging.Handler):
    """Keeps whether a generated graph called ``_while_loop``."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.seen = False

    def emit(self, record):
        if "_while_loop(" in record.getMessage():
            self.seen = True


def runs_while_loop(fn, args, kwargs) -> bool:
    log = logging.getLogger("dynamo.backend")
    sources, level = _Sources(), log.level
    log.addHandler(sources)
    log.setLevel(logging.DEBUG)
    try:
        dynamo.compile(fn, backend="numpy")(*_fresh(args), **kwargs)
    finally:
        log.removeHandler(sources)
        log.setLevel(level)
        dynamo.reset()
    return sources.seen


def cpu_times(fn, compiled, args, kwargs, rounds: int) -> tuple[float, float]:
    """Lower quartiles (s) of plain's and the compiled function's CPU time per call."""
    for _ in range(3):
        compiled(*_fresh(args), **kwargs)
    plain, mine = [], []
    for _ in range(rounds):
        for f, times in ((fn, plain), (compiled, mine)):
            a = _fresh(args)
            t = time.process_time()
            f(*a, **kwargs)
            times.append(time.process_time() - t)
    q = rounds // 4
    return sorted(plain)[q], sorted(mine)[q]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default="2", help="one corpus of bench_realworld, or all")
    ap.add_argument("--filter", default="", help="only programs whose name contains this")
    ap.add_argument("--rounds", type=int, default=21)
    args = ap.parse_args(argv)
    warnings.simplefilter("ignore")
    for name, fn, a, kw in corpus(args.corpus):
        if args.filter.lower() not in name.lower():
            continue
        try:
            if not runs_while_loop(fn, a, kw):
                continue
            plain, _ = peak(fn, a, kw)
            mine, _ = peak(dynamo.compile(fn, backend="numpy"), a, kw)
            dynamo.reset()
            tp, tc = cpu_times(fn, dynamo.compile(fn, backend="numpy"), a, kw, args.rounds)
            dynamo.reset()
        except Exception as e:   # a program that fails is reported, not fatal
            print(f"{args.corpus} | {name} | FAILED {type(e).__name__}: {e}", flush=True)
            continue
        print(f"{args.corpus} | {name} | plain {plain} B | numpy {mine} B | "
              f"{mine / max(1, plain):.2f}x | time plain {tp * 1e3:.3f} ms | "
              f"numpy {tc * 1e3:.3f} ms | speedup {tp / max(tc, 1e-9):.2f}x", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
