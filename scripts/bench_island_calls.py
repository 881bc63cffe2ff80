"""The cost of calls made from code that runs as Python (an island, code after a break).

    python scripts/bench_island_calls.py               # the table (process_time, medians)
    python scripts/bench_island_calls.py --callgrind   # instructions per loop trip

A loop whose test reads array data (``while float(y[0]) < trips``) runs as Python
when compiled: each call it makes goes through ``break_calls.intercept`` and, for a
user function, the frame hook's dispatcher. Each program runs plain and compiled side
by side in one process, in interleaved rounds (plain, compiled, compiled, plain...),
timed by ``time.process_time`` (CPU time: time other processes hold the core is not
counted); a row gives the median of the rounds and the ratio plain / compiled (above
1.0: compiled is faster).

``--callgrind`` counts what the hot path executes independent of machine load: it runs
``valgrind --tool=callgrind --toggle-collect=_operator_call`` on this script once per
program, plain and compiled: two warm calls with the same arguments (the first
compiles), then one call through ``operator.call``, the only one counted; the count
divided by the trips is instructions per trip (Dormand-Prince: per call). (The same
arguments: a call with another trip count than the warm calls' would count a
recompile.)

Example::

    >>> rows = run(rounds=3)
    >>> rows[1]["program"]
    'while loop calling np.eye, np.linalg.norm'
"""

from __future__ import annotations

import argparse
import operator
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

import dynamo

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import realworld_programs4  # noqa: E402

TRIPS = 200


def helper(y):
    return y * 2.0


def loop_helper(y, trips=TRIPS):
    i = 0
    while float(y[0]) < trips:   # reads array data: the loop runs as Python
        y = helper(y) * 0.5 + 1.0
        i += 1
    return y, i


def loop_library(y, trips=TRIPS):
    i = 0
    while float(y[0]) < trips:
        y = np.eye(4) @ y + 0.0 * np.linalg.norm(y) + 1.0
        i += 1
    return y, i


class Stepper:
    def __init__(self, c):
        self.c = c

    def step(self, y):
        return y * self.c


def loop_method(y, stepper, trips=TRIPS):
    i = 0
    while float(y[0]) < trips:
        y = stepper.step(y) + 1.0
        i += 1
    return y, i


def _dopri():
    for name, fn, args, kwargs in realworld_programs4.programs():
        if fn is realworld_programs4.dopri_adaptive_chain:
            return name, fn, args, kwargs
    raise LookupError("dopri_adaptive_chain")


def programs(trips: int = TRIPS):
    """(name, function, args, kwargs, trips of its loop per call)."""
    y = np.zeros(4)
    name, fn, args, kwargs = _dopri()
    return [
        ("while loop calling a compiled y * 2.0 (4 elements)", loop_helper, (y,),
         {"trips": trips}, trips),
        ("while loop calling np.eye, np.linalg.norm", loop_library, (y,),
         {"trips": trips}, trips),
        ("while loop calling a method of an object", loop_method, (y, Stepper(1.0)),
         {"trips": trips}, trips),
        (name, fn, args, kwargs, None),
    ]


def _time(fn, args, kwargs, number: int) -> float:
    t = time.process_time()
    for _ in range(number):
        fn(*args, **kwargs)
    return (time.process_time() - t) / number


def side_by_side(fn, args, kwargs, rounds: int, number: int):
    """Median seconds per call, plain and compiled, from interleaved rounds."""
    compiled = dynamo.compile(fn, backend="eager")
    compiled(*args, **kwargs)   # compile (and warm) before timing
    fn(*args, **kwargs)
    plain_t, comp_t = [], []
    for r in range(rounds):
        pair = [(plain_t, fn), (comp_t, compiled)]
        for out, f in (pair if r % 2 == 0 else pair[::-1]):
            out.append(_time(f, args, kwargs, number))
    return statistics.median(plain_t), statistics.median(comp_t)


def run(rounds: int = 15, number: int = 5):
    rows = []
    for name, fn, args, kwargs, trips in programs():
        plain, comp = side_by_side(fn, args, kwargs, rounds, number)
        per = trips or 1
        rows.append({"program": name, "plain_us": plain / per * 1e6,
                     "compiled_us": comp / per * 1e6, "ratio": plain / comp,
                     "per": "trip" if trips else "call"})
    return rows


def _one(index: int, trips: int, compiled: bool) -> None:
    """The ``--one`` mode callgrind runs: two warm calls (the first compiles), then the
    counted one, through ``operator.call``, with the same arguments."""
    name, fn, args, kwargs, _ = programs(trips)[index]
    f = dynamo.compile(fn, backend="eager") if compiled else fn
    f(*args, **kwargs)
    f(*args, **kwargs)
    operator.call(f, *args, **kwargs)


def _instructions(index: int, trips: int, compiled: bool) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "cg.out")
        cmd = ["valgrind", "--tool=callgrind", "--toggle-collect=_operator_call",
               f"--callgrind-out-file={out}", sys.executable, os.path.abspath(__file__),
               "--one", str(index), "--trips", str(trips)] + \
            (["--compiled"] if compiled else [])
        subprocess.run(cmd, check=True, capture_output=True,
                       env=dict(os.environ, OPENBLAS_NUM_THREADS="1"))
        with open(out) as fh:
            return int(re.search(r"^summary: (\d+)", fh.read(), re.M).group(1))


def callgrind(trips: int = 200):
    rows = []
    for index, (name, *_rest, loop_trips) in enumerate(programs()):
        per = {c: _instructions(index, trips, c) / (loop_trips and trips or 1)
               for c in (False, True)}
        rows.append({"program": name, "plain_ir": per[False], "compiled_ir": per[True],
                     "ratio": per[True] / per[False],
                     "per": "trip" if loop_trips else "call"})
    return rows


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--callgrind", action="store_true")
    p.add_argument("--one", type=int)
    p.add_argument("--trips", type=int, default=TRIPS)
    p.add_argument("--compiled", action="store_true")
    p.add_argument("--rounds", type=int, default=15)
    a = p.parse_args()
    if a.one is not None:
        _one(a.one, a.trips, a.compiled)
    elif a.callgrind:
        print("| program | plain Ir | compiled Ir | per | compiled/plain |")
        print("|---|---:|---:|---|---:|")
        for r in callgrind(a.trips):
            print(f"| {r['program']} | {r['plain_ir']:.0f} | {r['compiled_ir']:.0f} | "
                  f"{r['per']} | {r['ratio']:.2f}x |")
    else:
        print("| program | plain us | compiled us | per | plain/compiled |")
        print("|---|---:|---:|---|---:|")
        for r in run(a.rounds):
            print(f"| {r['program']} | {r['plain_us']:.2f} | {r['compiled_us']:.2f} | "
                  f"{r['per']} | {r['ratio']:.2f}x |")


if __name__ == "__main__":
    main()
