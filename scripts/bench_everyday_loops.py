"""Everyday loop programs (tests/breaks/everyday_loop_programs.py, and the heldout
perceptron) plain against compiled, side by side in one process: best wall time of
2 x 15 calls each, plain and compiled interleaved; prints plain/compiled per program
and the geometric mean.

    .venv/bin/python scripts/bench_everyday_loops.py [--backend numpy]

Run it on a "before" tree with ``scripts/run_in_tree.py BEFORE scripts/bench_everyday_loops.py``
(the corpus is read from this checkout's tests either way). It measured the running-best
joins taken out before 88249c8 landed (docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import pathlib
import sys
import time
import warnings

import numpy as np

import dynamo

TESTS = pathlib.Path(__file__).resolve().parent.parent / "tests"


def _programs():
    sys.path[:0] = [str(TESTS / "breaks"), str(TESTS / "realworld")]
    import everyday_loop_programs
    import heldout_programs4
    return list(everyday_loop_programs.PROGRAMS) + [
        p for p in heldout_programs4.PROGRAMS if p[0] == "perceptron_epochs"]


def _best(fn, args, calls: int) -> float:
    times = []
    for _ in range(calls):
        fresh = [a.copy() if hasattr(a, "copy") else a for a in args]
        start = time.perf_counter()
        fn(*fresh)
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backend", default="numpy")
    parser.add_argument("--calls", type=int, default=15)
    opts = parser.parse_args()
    warnings.simplefilter("ignore")
    ratios = []
    for name, fn, args, *_ in _programs():
        compiled = dynamo.compile(fn, backend=opts.backend)
        for _ in range(3):   # (compile, recompile with sizes, settle)
            compiled(*[a.copy() if hasattr(a, "copy") else a for a in args])
        plain = min(_best(fn, args, opts.calls) for _ in range(2))
        comp = min(_best(compiled, args, opts.calls) for _ in range(2))
        ratios.append(plain / comp)
        print(f"{name:28s} plain {plain * 1e6:8.0f} us   plain/compiled {plain / comp:.2f}")
    print(f"geometric mean {np.exp(np.mean(np.log(ratios))):.3f} over {len(ratios)} programs")


if __name__ == "__main__":
    main()
