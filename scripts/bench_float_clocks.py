"""Loops that carry a Python float from trip to trip (issue #15): plain NumPy against
``dynamo.compile(fn, backend="numpy")``, interleaved, CPU time, lower quartile.

BFGS with an Armijo backtracking line search (``step *= 0.5`` read in the line
search's test), a gradient descent with a decaying rate (``lr *= 0.97`` read in the
update), an Armijo search alone, and a backtracking line search with no bound on its
trips (``t = rho * t``, still a break). Run it against another tree with
``PYTHONPATH`` on that tree (the programs are this script's folder's)::

    PYTHONPATH=/tmp/base .venv/bin/python scripts/bench_float_clocks.py --rounds 40
    .venv/bin/python scripts/bench_float_clocks.py --rounds 40

Each line: program | plain ms | numpy backend ms | plain / compiled | graphs/breaks.
"""

from __future__ import annotations

import argparse
import copy
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from realworld_programs import backtracking_line_search  # noqa: E402
from realworld_programs6 import bfgs_rosenbrock  # noqa: E402

import dynamo  # noqa: E402


def gd_decay(x, A, b, tol):
    lr = 0.5
    while np.linalg.norm(A @ x - b) > tol and lr > 1e-4:
        x = x - lr * (A.T @ (A @ x - b))
        lr *= 0.97
    return x, lr


def armijo(x, p, fx, slope):
    step = 1.0
    while np.sum((x + step * p) ** 2) > fx + 1e-4 * step * slope and step > 1e-8:
        step *= 0.5
    return x + step * p, step


def quasi_newton(x, iters):
    """A for loop carrying ``h``, rebound by a select (``if sy > 1e-10: h = ...``): a
    loop node once a carried array that may be another is allowed (no in-place
    write), BFGS's outer loop without its line search."""
    n = x.shape[0]
    h = np.eye(n)
    for _ in range(iters):
        p = -h @ x
        s = 0.1 * p
        y = s * 2.0 + 0.01
        sy = s @ y
        if sy > 1e-10:
            h = h + np.outer(s, s) / sy
        x = x + s
    return x, h


def cases():
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((60, 40)) / 10, rng.standard_normal(60)
    xa = rng.standard_normal(2000)
    pa = -64 * xa
    return [
        ("BFGS on Rosenbrock (6), n=20, 40 iters", bfgs_rosenbrock, (np.zeros(20),),
         {"iters": 40}),
        ("BFGS on Rosenbrock (6), n=4, 5 iters", bfgs_rosenbrock, (np.zeros(4),),
         {"iters": 5}),
        ("backtracking line search (1)", backtracking_line_search,
         (np.zeros(40), np.eye(40) * 3 + 0.1, np.ones(40)), {}),
        ("gradient descent, lr *= 0.97, 60x40", gd_decay, (np.zeros(40), a, b, 1e-9), {}),
        ("Armijo search, 2000 elements", armijo,
         (xa, pa, float(xa @ xa), float(xa @ pa)), {}),
        ("quasi-Newton, select on h, n=20, 40 iters", quasi_newton,
         (np.linspace(-1.0, 1.0, 20), 40), {}),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=40)
    rounds = parser.parse_args().rounds
    for name, fn, args, kw in cases():
        comp = dynamo.compile(fn, backend="numpy")
        for f in (fn, comp):
            for _ in range(3):
                f(*copy.deepcopy(args), **kw)
        times = {"plain": [], "numpy": []}
        for i in range(rounds):
            order = [("plain", fn), ("numpy", comp)]
            for key, f in (order[::-1] if i % 2 else order):
                a = copy.deepcopy(args)
                t = time.process_time()
                f(*a, **kw)
                times[key].append(time.process_time() - t)
        q = {k: sorted(v)[len(v) // 4] * 1e3 for k, v in times.items()}
        rep = dynamo.explain(fn, backend="numpy")(*copy.deepcopy(args), **kw)
        print(f"{name} | {q['plain']:.3f} | {q['numpy']:.3f} | "
              f"{q['plain'] / q['numpy']:.2f} | {rep.graph_count}/{rep.graph_break_count}",
              flush=True)


if __name__ == "__main__":
    main()
