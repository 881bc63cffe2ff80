"""Plain vs compiled (numpy backend) on programs whose loop bodies compiled once per
outer trip (issue #19, tests/breaks/test_per_trip_recompiles.py): corpus 14's
Jukes-Cantor and mel filterbank at their benchmark sizes, and the test corpus's nested
loops at sizes where their bodies are outlined (an array of at least
``config.outline_min_elements``). Default configuration (outline trial, entry trial).

For each program: the first call (tracing and compiling included), compiles in all over
the warm-up calls, then plain and compiled interleaved, best of ``--rounds``; the ratio
is plain / compiled (above 1: compiled is faster). Run it in the working tree and in a
HEAD copy (``scripts/run_in_tree.py``) to compare.

    python scripts/bench_per_trip_recompiles.py [--rounds 5] [--warm 12]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
import time
import warnings
from pathlib import Path

import numpy as np

import dynamo

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "tests"), str(HERE.parent / "tests" / "breaks")]


def _programs():
    import realworld_programs14 as rp
    import test_per_trip_recompiles as tp

    big = {p[0]: p for p in rp.programs(small=False)}
    rng = np.random.default_rng(5)
    out = [(name, big[name][1], big[name][2], big[name][3]) for name in
           ("Jukes-Cantor distance matrix", "log mel filterbank energies")]
    wide = np.arange(0, 200_001, 5_000)
    out += [
        ("jukes_cantor 30 x 2000", tp.jukes_cantor, (rng.integers(0, 4, (30, 2000)),), {}),
        ("lower_solve_logged 200", tp.lower_solve_logged,
         (np.tril(rng.random((200, 200))) + 200 * np.eye(200), rng.random(200)), {}),
        ("rows_then_print 200", tp.rows_then_print, (rng.random((200, 200)),), {}),
        ("segment_scan 200000 / 40", tp.segment_scan, (rng.random(200_000), wide), {}),
        ("pair_energy 60 x 600", tp.pair_energy, (rng.random((60, 600)),), {}),
        ("jacobi_until 200", tp.jacobi_until, (tp._spd(200), np.ones(200)), {}),
    ]
    return out


def _call(fn, args, kwargs):
    with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t = time.perf_counter()
        fn(*args, **kwargs)
        return time.perf_counter() - t


def main(argv=None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--warm", type=int, default=12)
    ap.add_argument("--only", default="")
    opts = ap.parse_args(argv)
    print(f"{'program':40s} {'plain ms':>9s} {'compiled':>9s} {'ratio':>6s} "
          f"{'1st call ms':>11s} {'compiles':>8s}")
    for name, fn, args, kwargs in _programs():
        if opts.only and opts.only not in name:
            continue
        dynamo.reset()
        plain, comp = [], []
        with dynamo.explain(fn, backend="numpy") as compiled:   # (compiles: its report)
            first = _call(compiled, args, kwargs)
            for _ in range(opts.warm):
                _call(compiled, args, kwargs)
            for _ in range(opts.rounds):
                plain.append(_call(fn, args, kwargs))
                comp.append(_call(compiled, args, kwargs))
        compiles = len(compiled.report.records)
        p, c = min(plain), min(comp)
        print(f"{name:40s} {p * 1e3:9.2f} {c * 1e3:9.2f} {p / c:6.2f} {first * 1e3:11.1f} "
              f"{compiles:8d}", flush=True)


if __name__ == "__main__":
    main()
