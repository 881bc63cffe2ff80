"""Tier 2 stores through integer index arrays (``backends/native/scatters.py``):
``x[idx] = v``, ``x[idx] += v``, ``P[rows, cols] = c``, ``A[:, cols] = v``; negative and
repeated indices (the last write wins; ``+=`` adds once per repeated index, as NumPy),
int/float/bool dtypes, 0-size index arrays, indices out of bounds (NumPy's
``IndexError`` from tier 1's rerun, the input as the caller gave it). Each against
eager (results, dtypes, the inputs after the call). Before, any index array in a store
kept its graph in tier 1.

Each compiled test costs one Numba compile (1-5 s of CPU).
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

from kernel_sources import kernel_source as _lowered  # noqa: E402
from test_native import check_native, compiled  # noqa: E402 (needs numba)

rng = np.random.default_rng(7)


def _set_add(x, idx, v):
    x[idx] = v            # repeated indices: the last write wins
    y = x * 2
    y[idx] += v           # not an accumulation: one add per repeated index
    return y


@pytest.mark.parametrize("dtype", ["float64", "int32", "bool"])
def test_scatter_set_and_add_repeated_negative(dtype):
    x = (rng.standard_normal(12) * 10).astype(dtype)
    idx = np.array([3, -1, 3, 0, 11, -12, 5, 3])
    v = (rng.standard_normal(8) * 10).astype(dtype)
    if dtype == "bool":
        def f(x, idx, v):
            x[idx] = v
            y = x ^ True
            y[idx] |= v
            return y
        check_native(f, x, idx, v)
    else:
        check_native(_set_add, x, idx, v)


def test_scatter_2d_forms_and_broadcast_values():
    def f(A, rows, cols, w):
        A[rows, cols] = 0.5          # pairs, a constant
        A[rows] = w                  # whole rows, a row broadcast
        B = A + 1.0
        B[:, cols] = -w[:4]          # columns after a slice, the value broadcast
        B[rows[:3], 1:5:2] += 1.0
        return B
    A = rng.standard_normal((6, 7))
    rows = np.array([0, 5, -2, 0], np.int32)
    cols = np.array([6, 1, -7, 1], np.int64)
    check_native(f, A, rows, cols, rng.standard_normal(7))


def test_scatter_empty_index_and_value_reading_target():
    def f(x, idx):
        x[idx] = 7.0                 # 0-size: nothing written
        x[np.array([0, 1, 2])] = x[::-1][:3]   # the value reads x: computed whole first
        return x.sum()
    check_native(f, rng.standard_normal(9), np.zeros(0, np.int64))


def test_scatter_out_of_bounds_raises_and_leaves_input():
    def f(x, idx):
        x[idx] = 1.0
        return x * 2.0
    c, made = compiled(f)
    c(rng.standard_normal(10), np.array([1, 2, 3]))   # (one index shape: one graph)
    for bad in ([1, 10, 3], [0, -11, 5], [2, 3, 100]):
        x = np.arange(10.0)
        want = np.arange(10.0)
        with pytest.raises(IndexError) as e1:
            f(want, np.array(bad))
        with pytest.raises(IndexError) as e2:
            c(x, np.array(bad))
        assert str(e2.value) == str(e1.value)
        np.testing.assert_array_equal(x, want)   # NumPy wrote nothing; nor did we
    assert made[0].error is None
    x = np.arange(10.0)
    np.testing.assert_array_equal(c(x, np.array([9, -10, 4])), f(np.arange(10.0),
                                                                 np.array([9, -10, 4])))
    assert made[0].native_calls >= 1


def test_scatter_lowers_sequentially():
    """A large scatter stays one thread: a repeated index in two threads would race."""
    def f(x, i, v):
        x[i] = v + 1.0
        return x
    src = _lowered(f, np.zeros(1 << 16), np.arange(1 << 16), np.ones(1 << 16))
    assert isinstance(src, str) and "in prange(" not in src, src


def test_broadcast_index_arrays_rank_scatter_and_gather():
    """Index arrays of different ranks (``order`` (n, m) with ``cols`` (m,), ``rows[:,
    None]`` with ``cols``): quantile normalization's ranks, then a gather. Before, both
    forms failed inside the lowering (an internal error, the graph in tier 1)."""
    def f(X, rows, cols):
        order = np.argsort(X, axis=0)
        ranks = np.empty_like(order)
        c = np.arange(X.shape[1])
        ranks[order, c] = np.arange(X.shape[0])[:, None]
        return ranks, X[rows[:, None], cols] * 2.0
    check_native(f, rng.standard_normal((30, 4)), np.array([0, -1, 7]), np.array([3, 0]))


def test_mask_stores_of_one_value():
    """``x[mask] = c`` (forest fire, SIR automata, a ReLU's backward pass): a mask of
    the target's shape or its leading axes, a constant, a scalar or a row."""
    def f(grid, r, dh, h, w):
        new = grid.copy()
        new[grid == 2] = 0
        new[(grid == 1) & (r < 0.3)] = 2
        dh[h <= 0] = 0.0                     # an input, written where the mask holds
        dh[r[:, 0] > 0.9] = w                # leading-axis mask, a row per element
        dh[h > 2.0] = h.max()                # a scalar of the graph
        dh[dh[::-1] > 1.0] = 3.0             # the mask reads the target: computed first
        return new, dh.sum()
    grid = rng.integers(0, 3, (20, 8)).astype(np.int8)
    r = rng.random((20, 8))
    check_native(f, grid, r, rng.standard_normal((20, 8)), rng.standard_normal((20, 8)),
                 rng.standard_normal(8))


def test_mask_store_bool_target_and_empty():
    def f(x, m):
        x[m] = True
        y = np.zeros((0, 3))
        y[y > 0] = 1.0
        return x, y
    check_native(f, rng.random(11) > 0.5, rng.random(11) > 0.7)


def test_empty_stores_still_compute_their_value():
    """A store of no element still computes its value as eager does (and warns as
    eager when it makes a NaN): the value is computed before the empty nest."""
    def f(x, y, idx, m, s):
        x[idx] = np.sqrt(s - 2.0)        # s (1,): one NaN made, no element stored
        y[m] = np.log(s - 2.0)
        return x, y
    with pytest.warns(RuntimeWarning) as record:
        args = (np.zeros((4, 3)), np.zeros((0, 3)), np.zeros(0, np.int64),
                np.zeros(0, bool), np.ones(1))
        made = check_native(f, *args, native=False)   # (flagged calls: tier 1 reruns)
    # eager's two warnings, then the same two from each compiled call
    assert len(record) == 6, [str(w.message) for w in record]
    assert made[0].error is None and made[0].native_calls == 0
    with pytest.warns(RuntimeWarning):
        assert isinstance(_lowered(f, *args), str)


def _warnings_of(fn, *args) -> list:
    """The RuntimeWarnings ``fn(*args)`` shows (copies of the arrays), in order."""
    import warnings
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        fn(*[a.copy() if isinstance(a, np.ndarray) else a for a in args])
    return [str(w.message) for w in record if w.category is RuntimeWarning]


@pytest.mark.parametrize("form", ["slice", "row", "out", "inplace"])
def test_plain_and_out_stores_of_no_element_still_compute_their_value(form):
    """``x[0:0] = np.sqrt(y - 10.0)``: eager computes the value whole (a NaN: it warns)
    and stores no element. Before, tier 2 inlined the value into the store's nest, which
    runs no trip: no NaN flagged, no warning (scatters and mask stores were fixed, plain
    and ``out=`` stores were not)."""
    def f(x, y, k):
        if form == "slice":
            x[k:k] = np.sqrt(y - 10.0)
        elif form == "row":
            x[1:1, :] = np.log(y - 10.0)
        elif form == "out":
            np.add(np.sqrt(y - 10.0), 1.0, out=x[k:k])
        else:
            x[0:0] += np.sqrt(y - 10.0)
        return x * 2
    args = (np.zeros((4, 3)) if form == "row" else np.zeros(5),
            np.ones(3 if form == "row" else 1), 2)
    want = _warnings_of(f, *args)
    assert len(want) == 1
    c, made = compiled(f)
    for _ in range(2):
        assert _warnings_of(c, *args) == want
    with pytest.warns(RuntimeWarning):
        check_native(f, *args, native=False)   # values and the inputs afterwards
    assert made[0].error is None and made[0].native_calls == 0   # flagged: tier 1 reran


def _view_stores(A, idx, v):
    row = A[2]
    row[idx] = v[:idx.shape[0]]                    # a row of an input
    col = A[:, 1]
    col[idx] += v[1]                               # gather, add, store: through a view
    w = A[1:, ::-2]
    w[idx, 1] = v[0]                               # a reversed, strided view
    B = A * 2
    B[1][idx[::-1]] = v[:idx.shape[0]]             # a new array's view
    return A, B


@pytest.mark.parametrize("dtype", ["float64", "int32", "bool"])
def test_array_index_stores_through_views(dtype):
    A = (rng.standard_normal((5, 6)) * 4).astype(dtype)
    v = (rng.standard_normal(6) * 4).astype(dtype)
    check_native(_view_stores, A, np.array([0, -1, 3, 3, -4]), v)   # repeated, negative
    check_native(_view_stores, A, np.zeros(0, np.int64), v)          # nothing stored


def test_array_index_store_through_a_view_out_of_bounds_raises_as_eager():
    def f(A, idx):
        r = A[1:4, 2]                              # a view of 3 elements
        r[idx] = 7.0
        return A * 1.0
    c, made = compiled(f)
    c(np.zeros((5, 4)), np.array([0, 1]))
    for bad in ([0, 3], [-4, 1]):                  # in the base's bounds, not the view's
        A, want = np.arange(20.0).reshape(5, 4), np.arange(20.0).reshape(5, 4)
        with pytest.raises(IndexError) as e1:
            f(want, np.array(bad))
        with pytest.raises(IndexError) as e2:
            c(A, np.array(bad))
        assert str(e2.value) == str(e1.value)
        np.testing.assert_array_equal(A, want)     # restored from its backup
    A, want = np.arange(20.0).reshape(5, 4), np.arange(20.0).reshape(5, 4)
    np.testing.assert_array_equal(c(A, np.array([2, -3])), f(want, np.array([2, -3])))
    assert made[0].error is None and made[0].native_calls >= 1


def _carried(A, B, idx):
    for _ in range(20):                            # a loop node: A, B carried, swapped
        B[idx] = A[idx[::-1]] * 0.5 + 1.0
        A, B = B, A
    return A, B


def test_array_index_stores_into_a_loops_carried_arrays():
    A, B = rng.standard_normal(12), rng.standard_normal(12)
    src = _lowered(_carried, A, B, np.array([1, 5, 5, -1]))
    assert isinstance(src, str) and "for " in src, src
    check_native(_carried, A, B, np.array([1, 5, 5, -1]))
    c, made = compiled(_carried)
    c(A.copy(), B.copy(), np.array([1, 2]))
    a, b, wa, wb = A.copy(), B.copy(), A.copy(), B.copy()
    with pytest.raises(IndexError) as e1:
        _carried(wa, wb, np.array([1, 12]))
    with pytest.raises(IndexError) as e2:
        c(a, b, np.array([1, 12]))
    assert str(e2.value) == str(e1.value)
    np.testing.assert_array_equal(a, wa)
    np.testing.assert_array_equal(b, wb)
