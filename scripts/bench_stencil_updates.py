"""Stencils that update a window in place (``u[1:-1, 1:-1] += dt * lap``): plain NumPy
against the numpy backend, side by side in one process (issue #15).

    python scripts/bench_stencil_updates.py              # the table
    python scripts/bench_stencil_updates.py --rounds 5   # quicker

Each program runs plain and compiled on fresh copies of its arguments in interleaved
rounds of 5 calls, timed by ``time.process_time`` (CPU time: time other processes
hold the core is not counted); a row gives the medians and the ratio plain / compiled
(above 1.0: compiled is faster), and the peak memory of one call (tracemalloc) as a
fraction of plain's. The results are asserted equal first. The value of
such an update runs as 1-D passes (``flat.py``) and the update itself as one 1-D pass
over the window's range (``flat_updates.py``) where the updated array's rows (and
planes) are the value's, integer windows included; the Euler-like row (rows of another
length) keeps eager's ops.

Example::

    >>> rows = run(rounds=3, only="upwind 200")
    >>> rows[0]["program"], rows[0]["ratio"] > 0
    ('upwind -= 200x200, 10 steps', True)
"""

from __future__ import annotations

import argparse
import statistics
import time
import tracemalloc

import numpy as np

import dynamo


def heat(T, kappa=1.0, dt=0.2):
    for _ in range(10):
        lap = T[2:, 1:-1] + T[:-2, 1:-1] + T[1:-1, 2:] + T[1:-1, :-2] - 4.0 * T[1:-1, 1:-1]
        T[1:-1, 1:-1] += kappa * dt * lap
    return T


def upwind(u, c=0.3):
    for _ in range(10):
        u[1:-1, 1:-1] -= c * (u[2:, 1:-1] - u[:-2, 1:-1])
    return u


def heat3(T, kappa=1.0, dt=0.1):
    for _ in range(10):
        lap = (T[2:, 1:-1, 1:-1] + T[:-2, 1:-1, 1:-1] + T[1:-1, 2:, 1:-1]
               + T[1:-1, :-2, 1:-1] + T[1:-1, 1:-1, 2:] + T[1:-1, 1:-1, :-2]
               - 6.0 * T[1:-1, 1:-1, 1:-1])
        T[1:-1, 1:-1, 1:-1] += kappa * dt * lap
    return T


def upwind_int(u):
    for _ in range(10):
        u[1:-1, 1:-1] -= 3 * (u[2:, 1:-1] - u[:-2, 1:-1])
    return u


def fluxes(U, flux, k):
    for _ in range(10):
        U[:, 1:-1] -= k * (flux[:, 1:] - flux[:, :-1])
    return U


def _cases():
    rng = np.random.default_rng(0)
    return [
        ("Euler-like fluxes (3, 2000), 10 steps", fluxes,
         (rng.random((3, 2000)), rng.random((3, 1999)), 0.01)),
        ("heat += dt * lap 128x128, 10 steps", heat, (rng.random((128, 128)),)),
        ("heat += dt * lap 500x500, 10 steps", heat, (rng.random((500, 500)),)),
        ("upwind -= 200x200, 10 steps", upwind, (rng.random((200, 200)),)),
        ("upwind -= 1000x30, 10 steps", upwind, (rng.random((1000, 30)),)),
        ("upwind -= int64 200x200, 10 steps", upwind_int,
         (rng.integers(-1000, 1000, (200, 200)),)),
        ("heat 3-D += dt * lap 32^3, 10 steps", heat3, (rng.random((32, 32, 32)),)),
        ("heat 3-D += dt * lap 64^3, 10 steps", heat3, (rng.random((64, 64, 64)),)),
    ]


def _fresh(args):
    return [a.copy() if isinstance(a, np.ndarray) else a for a in args]


def _peak(f, args) -> int:
    """Peak bytes traced during one call (after the warm calls above)."""
    work = _fresh(args)
    tracemalloc.start()
    try:
        f(*work)
        return max(tracemalloc.get_traced_memory()[1], 1)
    finally:
        tracemalloc.stop()


def run(rounds: int = 15, only: str = "") -> list[dict]:
    rows = []
    for name, fn, args in _cases():
        if only not in name:
            continue
        dynamo.reset()
        compiled = dynamo.compile(fn, backend="numpy")
        assert np.array_equal(fn(*_fresh(args)), compiled(*_fresh(args))), name
        for _ in range(3):
            compiled(*_fresh(args))
        times = {fn: [], compiled: []}
        for r in range(rounds):
            for f in ((fn, compiled) if r % 2 == 0 else (compiled, fn)):
                work = _fresh(args)
                start = time.process_time()
                for _ in range(5):
                    f(*work)
                times[f].append((time.process_time() - start) / 5)
        plain, fast = (statistics.median(times[f]) * 1e3 for f in (fn, compiled))
        rows.append({"program": name, "plain_ms": plain, "numpy_ms": fast,
                     "ratio": plain / fast, "memory": _peak(compiled, args) / _peak(fn, args)})
    dynamo.reset()
    return rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--filter", default="", help="only programs whose name contains this")
    args = ap.parse_args(argv)
    print(f"{'program':42} {'plain ms':>9} {'numpy ms':>9} {'ratio':>6} {'memory':>6}")
    for row in run(args.rounds, args.filter):
        print(f"{row['program']:42} {row['plain_ms']:9.3f} {row['numpy_ms']:9.3f} "
              f"{row['ratio']:5.2f}x {row['memory']:5.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
