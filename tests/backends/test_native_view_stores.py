"""Tier 2 stores through a view (``backends/native/stencils.py``): ``row = A[2];
row[1:] = v`` stores into ``A`` at the view's index composed with the store's, as NumPy
writes through the view. Inputs (saved before their first write, restored when a
call is flagged), new arrays, views of views, an int scalar index's view, a value that
reads what the store overwrites; each against eager (results, strides, the inputs after
the call). Before, a store into a view kept its graph in tier 1.

Each compiled test costs one Numba compile (1-5 s of CPU).
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

from test_native import check_native, compiled  # noqa: E402 (needs numba)

rng = np.random.default_rng(23)


def _rows_and_strided(A, B):
    row = A[2]
    row[1:] = B[0, 1:]
    v = A[1:, ::2]
    v[0] = 1
    v[1:, 1] = B[2:, 0]
    w = v[1:][:, 1:]            # a view of a view
    w[-1] = B[1, :2]
    return A[3] * 1


@pytest.mark.parametrize("dtype", ["float64", "int32", "bool"])
def test_stores_through_views_of_an_input(dtype):
    A = (rng.standard_normal((5, 6)) * 9).astype(dtype)
    B = (rng.standard_normal((5, 6)) * 9).astype(dtype)
    check_native(_rows_and_strided, A, B)
    check_native(_rows_and_strided, np.asfortranarray(A), B)          # F-ordered input
    big = (rng.standard_normal((10, 12)) * 9).astype(dtype)
    check_native(_rows_and_strided, big[::2, ::-2], B)                  # strided, reversed


def test_stores_through_views_of_a_new_array_and_overlapping_values():
    """A view of a new array; ``v[1:] = v[:-1]`` (NumPy reads the value whole first);
    stores in a loop through a row view whose value reads the row before."""
    def f(x, A):
        y = np.zeros((5, 6))
        v = y[1:4]
        v[:, 2] = x[:3]
        u = A[1:]
        u[1:] = u[:-1]
        for t in range(1, 5):
            r = A[t]
            r[1:] = A[t - 1, :-1] + 1.0
        return y
    check_native(f, rng.standard_normal(6), rng.standard_normal((5, 6)))


def test_a_store_through_an_int_scalar_index_view():
    """``col = A[:, k]`` with ``k`` an int scalar of the kernel (negative: wrapped);
    out of bounds: eager raises at the getitem before any write, the kernel wrote
    column 0 meanwhile and its call is flagged: tier 1 reruns on the restored ``A``."""
    def f(A, obs):
        col = A[:, obs[0]]
        col[1:3] = -5.0
        return col * 2.0
    A = rng.standard_normal((4, 5))
    for k in (3, -2):
        check_native(f, A, np.array([k]))
    c, made = compiled(f)
    c(A.copy(), np.array([1]))
    for bad in (5, -6):
        want_A, got_A = A.copy(), A.copy()
        with pytest.raises(IndexError) as want:
            f(want_A, np.array([bad]))
        with pytest.raises(IndexError) as got:
            c(got_A, np.array([bad]))
        assert str(got.value) == str(want.value)
        np.testing.assert_array_equal(got_A, want_A)
    ok_A, want_A = A.copy(), A.copy()
    np.testing.assert_array_equal(c(ok_A, np.array([-1])), f(want_A, np.array([-1])))
    np.testing.assert_array_equal(ok_A, want_A)
    assert made[0].error is None and made[0].native_calls >= 1
