"""Small loop nodes and small compiled functions on the numpy backend against plain
NumPy and against the numpy backend of another tree, interleaved (issue #15: a loop
node's trip costs what the program's own statements cost, nothing more).

The programs: the per-element loops of ``bench_select_loops.py`` and
``bench_picked_numbers.py`` that are one loop node each (a running argmin, a threshold
counter ``counts[0] += 1`` / ``counts[1] += 1``, a reflecting boundary, a running min,
a conditional sum) over ``n`` float64 elements; the quasi-Newton loop of
``bench_float_clocks.py`` (n=20, 40 iterations, its ``h`` rebound on some trips only);
and a 3-op function on 10 elements (``np.tanh(x * 2.0 + 1.0)``: the cost of a cached
call).

Each row, side by side, interleaved per round: ``plain_ms`` (Python), ``before_ms``
(the numpy backend in another tree: a child process through ``run_in_tree.py``,
``--before ROOT``, asked for one batch per round between this process's own),
``numpy_ms`` (this tree). Times are the median over rounds of the mean CPU time of a
batch of calls (``time.process_time``); every result, the child's too, is checked
equal to plain's (values and types) first.

Run::

    mkdir /tmp/base && git archive HEAD | tar -x -C /tmp/base
    .venv/bin/python scripts/bench_loop_call_costs.py --before /tmp/base --rounds 7

Without ``--before`` the column is ``nan``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys

import numpy as np
from bench_float_clocks import quasi_newton
from bench_picked_numbers import _args as picked_args
from bench_picked_numbers import running_argmin
from bench_select_loops import _args as select_args
from bench_select_loops import cond_sum, count_above, reflect, running_min
from option_pairs import batch_us, copy_function  # (siblings: scripts/ is on sys.path)

import dynamo


def three_ops(x):
    return np.tanh(x * 2.0 + 1.0)


LOOPS = [running_argmin, count_above, reflect, running_min, cond_sum]
FIXED = {"quasi_newton": (quasi_newton, lambda: (np.linspace(-1.0, 1.0, 20), 40)),
         "three_ops": (three_ops, lambda: (np.random.default_rng(0).random(10),))}


def _case(name: str, n: int):
    """``(fn, args)`` of a row."""
    if name in FIXED:
        fn, make = FIXED[name]
        return fn, make()
    fn = {f.__name__: f for f in LOOPS}[name]
    if fn is running_argmin:
        return fn, picked_args(fn, n)
    return fn, select_args(name, n)


def _same(got, want) -> bool:
    if isinstance(want, tuple):
        return all(_same(g, w) for g, w in zip(got, want, strict=True))
    return np.array_equal(got, want, equal_nan=True) and type(got) is type(want)


def _compiled(name: str, n: int):
    fn, args = _case(name, n)
    dynamo.reset()
    compiled = dynamo.compile(copy_function(fn), backend="numpy")
    for _ in range(3):
        assert _same(compiled(*args), fn(*args)), name
    return compiled, args


def _serve() -> None:
    """The "before" side (``--serve``): for each line ``program n calls`` read, the
    numpy backend's mean CPU ms of a batch, on stdout."""
    compiled: dict = {}
    for line in sys.stdin:
        name, n, calls = line.split()
        if (name, n) not in compiled:
            compiled[name, n] = _compiled(name, int(n))
        fn, args = compiled[name, n]
        print(batch_us(fn, args, int(calls)) / 1e3, flush=True)


class _Before:
    """The child process running ``_serve`` in the tree ``root``."""

    def __init__(self, root: str):
        here = os.path.dirname(os.path.abspath(__file__))
        self.child = subprocess.Popen(
            [sys.executable, os.path.join(here, "run_in_tree.py"), root,
             os.path.abspath(__file__), "--serve"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def __call__(self, name: str, n: int, calls: int) -> float:
        self.child.stdin.write(f"{name} {n} {calls}\n")
        self.child.stdin.flush()
        return float(self.child.stdout.readline())

    def close(self) -> None:
        self.child.stdin.close()
        self.child.wait()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 10_000, 100_000])
    parser.add_argument("--programs", nargs="+",
                        default=[f.__name__ for f in LOOPS] + list(FIXED))
    parser.add_argument("--before", metavar="ROOT",
                        help="a checkout to time the numpy backend of (run_in_tree.py)")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    opts = parser.parse_args()
    if opts.serve:
        return _serve()
    before = _Before(opts.before) if opts.before else None
    print("| program | n | plain_ms | before_ms | numpy_ms | plain/before | plain/numpy |")
    print("|---|---|---|---|---|---|---|")
    for name in opts.programs:
        for n in ([0] if name in FIXED else opts.sizes):
            fn, args = _case(name, n)
            compiled, _ = _compiled(name, n)
            calls = 2000 if name == "three_ops" else 100 if name in FIXED \
                else max(2, 100_000 // n)
            times: dict = {"plain": [], "before": [], "numpy": []}
            for _ in range(opts.rounds):
                times["plain"].append(batch_us(fn, args, calls) / 1e3)
                if before is not None:
                    times["before"].append(before(name, n, calls))
                times["numpy"].append(batch_us(compiled, args, calls) / 1e3)
            m = {k: statistics.median(v) if v else float("nan") for k, v in times.items()}
            size = {"quasi_newton": "20 x 40 iters", "three_ops": "10"}.get(name, n)
            print(f"| {name} | {size} | {m['plain']:.4g} | {m['before']:.4g} | "
                  f"{m['numpy']:.4g} | {m['plain'] / m['before']:.3f}x | "
                  f"{m['plain'] / m['numpy']:.3f}x |", flush=True)
    if before is not None:
        before.close()


if __name__ == "__main__":
    main()
