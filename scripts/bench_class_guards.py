"""Per-call cost of the guard on the classes of objects a trace makes (hostile round 16).

An object of the program's class made and dropped inside the trace never exists, so
its class is guarded to still lack ``__del__`` (and ``__init__`` where it had none):
``variables/objects.py _guard_still_modelled``. This times one compiled function that
makes two such objects (one class with an ``__init__``, one without) against the plain
function, side by side, in one process. (The guard's own cost was measured once by
tracing a copy without it: docs/benchmarks.md, "The guard on classes of objects a trace makes".)

    .venv/bin/python scripts/bench_class_guards.py --repeat 9 --calls 20000
    compiled   2.10 us/call (median of 9)
    plain      1.20 us/call
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

import dynamo


class WithInit:
    def __init__(self, v):
        self.v = v


class Bare:
    pass


def _make_two(x):
    a = WithInit(2.0)
    b = Bare()
    b.w = 1.0
    return x * a.v + b.w


def _per_call(fn, x, calls: int) -> float:
    start = time.process_time()
    for _ in range(calls):
        fn(x)
    return (time.process_time() - start) / calls * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--calls", type=int, default=20000)
    args = parser.parse_args()
    x = np.ones(4)
    compiled = dynamo.compile(_make_two, backend="eager")
    compiled(x)
    times = {"compiled": [], "plain": []}
    for _ in range(args.repeat):   # alternate, so that load changes hit both alike
        times["compiled"].append(_per_call(compiled, x, args.calls))
        times["plain"].append(_per_call(_make_two, x, args.calls))
    for label, values in times.items():
        print(f"{label:10s} {statistics.median(values):.2f} us/call "
              f"(median of {args.repeat}; {min(values):.2f}-{max(values):.2f})")


if __name__ == "__main__":
    main()
