"""Instructions per call of two ``state`` rows of ``bench.py`` (issue #16), by callgrind.

    valgrind --tool=callgrind --collect-atstart=no --toggle-collect=starmap_next \\
        --callgrind-out-file=/dev/null python scripts/count_state_calls.py adam numpy 38

runs ``adam int step`` or ``fresh float list`` (``adam``, ``flist``), or ``x + y`` on
10-element arrays through three signatures (``xy``: positional, ``xy_kwonly``: ``y`` a
keyword-only default, ``xy_star``: ``*args``; ``xy_break``: ``x + y``, a ``print`` that
breaks the graph, ``+ y``), plainly
(``plain``) or compiled with a backend (``eager``, ``numpy``): 80 warm calls, then
``n`` calls inside ``itertools.starmap``, the only code callgrind counts with the
options above. "Collected" divided by ``n`` is the instructions of one call:
deterministic where times on a shared machine are not (a 2-4 us call moves by 10%
between runs). Run it on two trees (``PYTHONPATH``) to compare them.

``--time PROGRAM...`` prints microseconds per call instead (no valgrind): plain and
both backends interleaved in one process, 200 calls a batch, median of 25 batches of
this thread's CPU time; run it on each tree in turn, in one shell loop, to compare.

Example::

    >>> main(["adam", "eager", "2"])
"""

from __future__ import annotations

import collections
import itertools
import os
import statistics
import sys
import time

import numpy as np

import dynamo


def _adam_step(g, m, t):
    m = 0.9 * m + 0.1 * g
    return m / (1 - 0.9 ** t)


def _weighted(xs, a):
    return a * np.array(xs)


_Y = np.arange(10.0)


def _add(x, y):
    return x + y


def _add_kwonly(x, *, y=_Y):
    return x + y


def _add_star(*args):
    return args[0] + args[1]


def _add_break(x, y):
    z = x + y
    print(end="")   # a graph break: the hit runs the frame's code after it too
    return z + y


def _chain5(x, y):
    return np.tanh(x * y + 1.0) - x / 3.0


def _solve(a, b):
    x = np.linalg.solve(a, b)
    return x, b - a @ x


def _recursion(r):   # as shared/tools/real-shapes.py's scalar recursion
    alpha, beta = -r[0], 1.0
    for k in range(1, r.shape[0]):
        beta *= 1.0 - alpha * alpha
        alpha = -(r[k] + alpha) / beta
    return alpha


def _sym2x2_eigs(a, b, c):   # as scripts/realworld_programs6.py's sym2x2_eigs
    mean = 0.5 * (a + c)
    diff = 0.5 * (a - c)
    rad = np.sqrt(diff * diff + b * b)
    lam1, lam2 = mean + rad, mean - rad
    theta = 0.5 * np.arctan2(2 * b, a - c)
    aniso = np.where(lam1 + lam2 != 0, (lam1 - lam2) / (np.abs(lam1) + np.abs(lam2) + 1e-12), 0)
    return lam1, lam2, theta, aniso


def _program(program: str):
    """(function, 40 argument tuples) of ``program``."""
    rng = np.random.default_rng(0)
    g = rng.standard_normal(4096).astype(np.float32)
    m, x = np.zeros(4096, np.float32), np.ones(4096, np.float32)
    spd = rng.standard_normal((4, 4)) + 4 * np.eye(4)
    abc = tuple(rng.standard_normal(50) for _ in range(3))
    return {"adam": (_adam_step, [(g, m, t) for t in range(1, 41)]),
            "flist": (_weighted, [([0.5 * i + k for k in range(64)], x[:64])
                                  for i in range(40)]),
            "xy": (_add, [(_Y + 1.0, _Y)] * 40),
            "xy_kwonly": (_add_kwonly, [(_Y + 1.0,)] * 40),
            "xy_star": (_add_star, [(_Y + 1.0, _Y)] * 40),
            "xy_break": (_add_break, [(_Y + 1.0, _Y)] * 40),
            "chain5": (_chain5, [(_Y + 1.0, _Y)] * 40),
            "solve": (_solve, [(spd, _Y[:4])] * 40),
            "recursion": (_recursion, [(rng.random(300) * 0.01,)] * 40),
            "eig2x2": (_sym2x2_eigs, [abc] * 40)}[program]


def _us_per_call(fn, calls, batches: int = 25, number: int = 200) -> list[float]:
    out = []
    for _ in range(batches):
        t = time.thread_time()
        for _ in range(number // len(calls)):
            collections.deque(itertools.starmap(fn, calls), maxlen=0)
        out.append((time.thread_time() - t) / (number // len(calls) * len(calls)) * 1e6)
    return out


def time_programs(programs: list[str]) -> None:
    """µs per call of each program, plain and compiled, batches interleaved."""
    tree = os.path.dirname(os.path.dirname(os.path.abspath(dynamo.__file__)))
    print(f"tree {tree}, load {open('/proc/loadavg').read().split()[:3]}")
    for program in programs:
        f, calls = _program(program)
        variants = {"plain": f, **{b: dynamo.compile(f, backend=b) for b in ("eager", "numpy")}}
        for c in variants.values():
            for args in calls * 2:
                c(*args)
        per = {k: [] for k in variants}
        for _ in range(5):
            for k, c in variants.items():
                per[k] += _us_per_call(c, calls, batches=5)
        med = {k: statistics.median(v) for k, v in per.items()}
        print(f"  {program:10s}" + "".join(f"  {k} {v:8.2f} us" for k, v in med.items()))


def main(argv: list[str]) -> None:
    if argv[0] == "--time":
        return time_programs(argv[1:])
    program, backend, n = argv[0], argv[1], int(argv[2])
    f, calls = _program(program)
    c = f if backend == "plain" else dynamo.compile(f, backend=backend)
    for args in calls * 2:
        c(*args)
    collections.deque(itertools.starmap(c, calls[2:2 + n]), maxlen=0)


if __name__ == "__main__":
    main(sys.argv[1:])
