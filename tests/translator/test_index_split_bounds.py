"""Split loops (dynamo/translator/index_splits.py, issue #23) beyond one split point
that stays in the range with a coefficient of 1 or -1:

- a split point inside the inner range at some enclosing trips and past its end at
  others (``for j in range(m): if j < i:`` with ``n > m``; a band ``i - w <= j and j
  <= i + w``): the enclosing loop is split where the point crosses the end
  (``IndexSplits._split_enclosing``), so that in each of its segments the clamp is
  proved;
- coefficients other than 1 or -1 (``if 3 * t < 20``, ``if 4 * t == 12``, ``if 2 * j
  < 2 * i + 1``; ``i * j == 4`` where ``i`` is an unrolled int): the comparison is one
  with a coefficient of 1 in exact integer arithmetic (``unit_coefficient``);
- a temporary bound in one way of the branch only, dead after the loop (Gauss-Jordan's
  ``f = A[k, p]`` inside ``if k != p``): it no longer keeps the segments from being
  nodes ("the body adds or deletes locals").

Before, each of these loops was unrolled (no loop node). Results are eager's bit for
bit at sizes whose segments run 0, 1 and 2 trips, with the split point at either end
and past either end, and with sizes growing and shrinking between calls of one
compiled function.
"""

from __future__ import annotations

import logging

import numpy as np
import pytest

import dynamo


def lower_rect(A):
    n, m = A.shape
    B = np.zeros_like(A)
    for i in range(n):
        for j in range(m):
            if j < i:
                B[i, j] = A[i, j]
            else:
                B[i, j] = -A[i, j]
    return B


def banded(A, w):
    n = A.shape[0]
    B = np.zeros_like(A)
    for i in range(n):
        for j in range(n):
            if i - w <= j and j <= i + w:
                B[i, j] = A[i, j]
    return B


def warm_thirds(x):
    out = np.zeros_like(x)
    for t in range(x.shape[0]):
        if 3 * t < 20:          # t < 7 (ceil(20 / 3))
            out[t] = 2.0 * x[t]
        else:
            out[t] = x[t] - 1.0
    return out


def stepped_equal(x):
    out = np.zeros_like(x)
    for t in range(x.shape[0]):
        if 4 * t == 12:         # t == 3
            out[t] = 2.0 * x[t]
        elif -3 * t >= -22:     # t <= 7 (floor(22 / 3))
            out[t] = x[t] - 1.0
    return out


def doubled_lower(A):
    n = A.shape[0]
    B = np.zeros_like(A)
    for i in range(n):
        for j in range(n):
            if 2 * j < 2 * i + 1:   # j <= i
                B[i, j] = A[i, j]
            else:
                B[i, j] = 1.0
    return B


def product_of_indices(A):
    n = A.shape[0]
    B = A.copy()
    for i in range(n):
        for j in range(n):
            if i * j == 4:
                B[i, j] = 0.0
    return B


def gauss_jordan_temp(A, b):
    n = A.shape[0]
    A = A.copy()
    b = b.copy()
    for p in range(n):
        piv = A[p, p]
        A[p] = A[p] / piv
        b[p] = b[p] / piv
        for k in range(n):
            if k != p:
                f = A[k, p]
                b[k] = b[k] - f * b[p]
                A[k] = A[k] - f * A[p]
    return b


def reversed_upper(A):
    # rows from the bottom, ``range(i, m)``: no trip for i >= m (a count below 0)
    n, w = A.shape
    m = w - n
    B = np.zeros_like(A)
    for i in range(n - 1, -1, -1):
        for j in range(i, m):
            if j != 2 - i:
                B[i, j] = A[i, j] * 2.0
            else:
                B[i, j] = -A[i, j]
    return B


def _matrix(shape):
    rng = np.random.default_rng(shape[0] * 31 + shape[-1])
    A = rng.standard_normal(shape)
    return A + max(shape) * np.eye(*shape) if len(shape) == 2 else A


def _copies(args) -> list:
    return [np.copy(a) if isinstance(a, np.ndarray) else a for a in args]


# (name, program, arguments at a shape, shapes: each compiled afresh; the last is the
# one whose loop nodes are counted)
PROGRAMS = [
    # n > m: j < i leaves the range at i > m (the i loop splits at i == m); n < m and
    # n == m: as before; 1 and 2 rows or columns: segments of 0, 1, 2 trips
    ("lower_rect", lower_rect, lambda s: (_matrix(s),),
     [(12, 5), (9, 1), (17, 12)]),
    # a band of half-width 2: two split points, each leaving the range at some rows
    # (the i loop splits at i == 2 and at i == n - 3); 2 rows: no node
    ("banded", banded, lambda s: (_matrix(s), 2), [(2, 2), (13, 13)]),
    ("warm_thirds", warm_thirds, lambda s: (_matrix(s),),
     [(9,), (7,), (8,), (6,), (2,), (12,)]),
    # the j loop's count m - i is below 0 at the first rows: the i loop splits where
    # it crosses 0, and no segment runs trips that range(i, m) has not (m = 2, 9)
    ("reversed_upper", reversed_upper, lambda s: (_matrix(s),), [(14, 16), (12, 21)]),
    ("stepped_equal", stepped_equal, lambda s: (_matrix(s),),
     [(4,), (9,), (3,), (5,), (8,), (12,)]),
    ("doubled_lower", doubled_lower, lambda s: (_matrix(s),), [(2, 2), (12, 12)]),
    ("product_of_indices", product_of_indices, lambda s: (_matrix(s),),
     [(3, 3), (12, 12)]),
    ("gauss_jordan_temp", gauss_jordan_temp, lambda s: (_matrix(s), _matrix(s[:1])),
     [(2, 2), (12, 12)]),
]


def _check(compiled, fn, args):
    want = fn(*_copies(args))
    got = compiled(*_copies(args))
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("name, fn, make, shapes", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_equal_eager_and_nodes(name, fn, make, shapes):
    """Bit for bit on the numpy backend at every shape; at the last, loop nodes and
    no break (each program was unrolled, no node, before)."""
    for shape in shapes:
        dynamo.reset()
        _check(dynamo.compile(fn, backend="numpy"), fn, make(shape))
    dynamo.reset()
    e = dynamo.explain(fn, backend="eager")(*_copies(make(shapes[-1])))
    assert e.graph_break_count == 0
    assert sum(str(g).count("ops.fori_loop(") for g in e.graphs) >= 2


@pytest.mark.parametrize("fn, shapes", [
    (lower_rect, [(9, 4), (6, 9), (9, 4)]),
    (warm_thirds, [(12,), (20,), (8,), (12,)]),
], ids=["lower_rect", "warm_thirds"])
def test_sizes_change_between_calls(fn, shapes):
    """One compiled function called with sizes that grow and shrink (a new entry, or
    one with symbolic sizes, where the split stays as before): eager's results."""
    dynamo.reset()
    compiled = dynamo.compile(fn, backend="numpy")
    for shape in shapes:
        _check(compiled, fn, (_matrix(shape),))


def test_rectangular_split_segments():
    """``j < i`` over ``range(12)`` with ``n = 17`` rows: the i loop (its first trip
    unrolled) is two nodes, rows 1-12 (the j loop split at ``j == i``) and rows 13-16
    (``j < i`` on every trip), on the eager backend too."""
    dynamo.reset()
    args = (_matrix((17, 12)),)
    e = dynamo.explain(lower_rect, backend="eager")(*_copies(args))
    text = str(e.graphs[0])
    assert "ops.fori_loop(fori_loop_1_body, 12," in text
    assert "ops.fori_loop(fori_loop_2_body, 4," in text
    dynamo.reset()
    np.testing.assert_array_equal(dynamo.compile(lower_rect, backend="eager")(
        *_copies(args)), lower_rect(*_copies(args)))


def test_coefficient_not_dividing_stays_unrolled():
    """``3 * t == 10`` is never true, and no split point with a coefficient of 1 says
    so exactly: no node, as before, with eager's results."""
    def never(x):
        out = np.zeros_like(x)
        for t in range(x.shape[0]):
            if 3 * t == 10:
                out[t] = 1.0
            else:
                out[t] = x[t]
        return out
    x = _matrix((12,))
    dynamo.reset()
    e = dynamo.explain(never, backend="eager")(x.copy())
    assert sum(str(g).count("ops.fori_loop(") for g in e.graphs) == 0
    dynamo.reset()
    np.testing.assert_array_equal(dynamo.compile(never, backend="numpy")(x.copy()),
                                  never(x.copy()))


def boundary_sweep(u):
    n = u.shape[0]
    v = np.zeros_like(u)
    for i in range(n):
        if i == 0:
            v[i] = 0.5 * (u[i] + u[i + 1])
        elif i == n - 1:
            v[i] = 0.5 * (u[i - 1] + u[i])
        else:
            v[i] = 0.25 * u[i - 1] + 0.5 * u[i] + 0.25 * u[i + 1]
    return v


def warm_and_tail(x):
    out = np.zeros_like(x)
    acc = x[0] * 0.0
    for t in range(x.shape[0]):
        if t < 7:
            acc = acc + x[t]
            out[t] = acc / (t + 1)
        elif t >= x.shape[0] - 3:
            out[t] = -x[t]
        else:
            out[t] = 0.9 * out[t - 1] + 0.1 * x[t]
    return out


@pytest.mark.parametrize("fn", [boundary_sweep, warm_and_tail],
                         ids=["boundary_sweep", "warm_and_tail"])
def test_symbolic_trip_count(fn, caplog):
    """A loop of the frame over ``range(n)``, ``n`` a size symbol (the second size
    seen): its split (``i == n - 1``: at ``n - 2``; ``t >= n - 3`` after ``t < 7``,
    the entry guarded ``n >= 11`` for the order of the split points) is proved for
    every size (``symbolic_splits.py``), so the entry of the second size serves the
    later ones (one recompile); before, each size pinned ``n`` and compiled its own
    entry (four). Sizes below the guard (2, 3, 10) compile their own, as before; all
    bit for bit."""
    caplog.set_level(logging.DEBUG, logger="dynamo.recompiles")
    dynamo.reset()
    compiled = dynamo.compile(fn, backend="eager")
    for n in (30, 40, 57, 12, 100):
        _check(compiled, fn, (_matrix((n,)),))
    recompiles = [r for r in caplog.records if r.getMessage().startswith("recompiling")]
    assert len(recompiles) == 1
    for n in (2, 3, 10, 41):
        _check(compiled, fn, (_matrix((n,)),))
