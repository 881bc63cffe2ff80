"""Per-call cost of NumPy's Python-level wrappers against the C calls they end in.

For each public function that real loops call on small arrays, the wrapper's call and a
hand-written equivalent of its last step(s) with the decisions a compiled graph makes
once (axes normalized, shapes and dtypes known), best of ``--repeat`` batches of
``--number`` calls by ``time.process_time`` (CPU time: the machine is shared).

    .venv/bin/python scripts/bench_wrappers.py --number 5000 --repeat 5

Example row: ``meshgrid(x, y) n=64   13.9 us   3.1 us   4.5x`` (wrapper, core, ratio).
The "core" column is what the wrapper must at least do: for the calls the numpy backend
lowers (last column), the very helper or expression generated code runs.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from dynamo.backends.numpy_backend import grid_calls, small_linalg


def per_call(fn, number: int, repeat: int) -> float:
    """Best CPU microseconds per call of ``fn()`` over ``repeat`` batches."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        for _ in range(number):
            fn()
        best = min(best, time.process_time() - t0)
    return best / number * 1e6


def cases():
    """(name, wrapper call, core call, lowered?) for each surveyed function."""
    rng = np.random.default_rng(0)
    x, y = np.linspace(0, 1, 64), np.linspace(0, 2, 48)
    A = rng.random((32, 32))
    P, Q = rng.random((100, 3)), rng.random((100, 3))
    v = rng.random(100)
    sq4 = (A + A.T)[:4, :4].copy()
    M, b8 = rng.random((8, 3)), rng.random(8)
    coef = rng.random(6)
    xp, fp = np.linspace(0, 1, 50), rng.random(50)
    idx = np.argsort(A, axis=1)
    from numpy._core.multiarray import interp as c_interp
    from numpy.linalg import _umath_linalg
    mask_u = np.tri(32, 32, -1, dtype=bool)
    zero = np.zeros(1, A.dtype)
    rows = np.arange(32)[:, None]

    shapes, full = grid_calls.meshgrid_plan([64, 48], "xy")
    plan = grid_calls.cross_plan((100, 3), (100, 3), -1, -1, -1)
    f8, eps8 = np.dtype(np.float64), np.finfo(np.float64).eps * 8

    def horner():
        r = np.zeros_like(v)
        for c in coef:
            r = r * v + c
        return r

    return [
        ("meshgrid(x, y) 64x48", lambda: np.meshgrid(x, y),
         lambda: grid_calls.meshgrid_copies((x, y), shapes, full, False), True),
        ("cross (100,3)x(100,3)", lambda: np.cross(P, Q),
         lambda: grid_calls.cross3(P, Q, f8, False, False, *plan), True),
        ("tile(A, (2, 2)) 32x32", lambda: np.tile(A, (2, 2)),
         lambda: np.broadcast_to(A[None, :, None, :], (2, 32, 2, 32)).reshape(64, 64),
         False),
        ("repeat(A, 2, axis=0)", lambda: np.repeat(A, 2, axis=0), lambda: A.repeat(2, 0),
         False),
        ("atleast_2d(v)", lambda: np.atleast_2d(v), lambda: v[None, :], False),
        ("squeeze(A[None])", lambda: np.squeeze(A[None]), lambda: A[None].squeeze(), False),
        ("expand_dims(A, 0)", lambda: np.expand_dims(A, 0), lambda: A.reshape((1, 32, 32)),
         True),
        ("split(A, 4)", lambda: np.split(A, 4),
         lambda: [A[0:8], A[8:16], A[16:24], A[24:32]], True),
        ("array_split(v, 3)", lambda: np.array_split(v, 3),
         lambda: [v[0:34], v[34:67], v[67:100]], True),
        ("linalg.eigh 4x4", lambda: np.linalg.eigh(sq4),
         lambda: small_linalg.eigh_gufunc(_umath_linalg.eigh_lo, "d->dd", np.float64,
                                          np.float64, sq4), True),
        ("linalg.lstsq 8x3", lambda: np.linalg.lstsq(M, b8),
         lambda: small_linalg.lstsq_gufunc(M, b8, eps8, "ddd->ddid", True, 3, 8,
                                           np.float64, np.float64), True),
        ("polyval(c, v) deg 5", lambda: np.polyval(coef, v), horner, False),
        ("interp(v, xp, fp)", lambda: np.interp(v, xp, fp), lambda: c_interp(v, xp, fp),
         False),
        ("trace(A)", lambda: np.trace(A), lambda: A.trace(), False),
        ("triu(A) 32x32", lambda: np.triu(A), lambda: np.where(mask_u, zero, A), True),
        ("take_along_axis(A, idx, 1)", lambda: np.take_along_axis(A, idx, 1),
         lambda: A[rows, idx], True),
        ("allclose(A, A)", lambda: np.allclose(A, A),
         lambda: bool(np.less_equal(abs(A - A), 1e-8 + 1e-5 * abs(A)).all()), False),
        ("argsort(v)", lambda: np.argsort(v), lambda: v.argsort(), False),
        ("histogram(v, 10)", lambda: np.histogram(v, 10),
         lambda: np.bincount(np.minimum((v * 10).astype(np.intp), 9), minlength=10),
         False),
        ("unravel_index(7, (4, 4))", lambda: np.unravel_index(7, (4, 4)),
         lambda: np.unravel_index(7, (4, 4)), False),
        ("where(v > .5)", lambda: np.where(v > .5), lambda: (v > .5).nonzero(), False),
    ]


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--number", type=int, default=5000)
    p.add_argument("--repeat", type=int, default=5)
    args = p.parse_args()
    print(f"{'call':30} {'wrapper us':>10} {'core us':>8} {'ratio':>6}  lowered")
    for name, wrapper, core, lowered in cases():
        w = per_call(wrapper, args.number, args.repeat)
        c = per_call(core, args.number, args.repeat)
        print(f"{name:30} {w:10.2f} {c:8.2f} {w / c:6.1f}  {'yes' if lowered else ''}")


if __name__ == "__main__":
    main()
