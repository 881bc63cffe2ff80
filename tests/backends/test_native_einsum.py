"""Tier 2 and ``np.einsum`` (``backends/native/einsums.py``): a plain contraction of two
or three operands is NumPy's own call from the kernel (bit for bit, any dtype), other
forms stay in tier 1; ``x[:, idx]`` gathers of 3 or more dimensions laid out as NumPy
lays them out when only NumPy's products read them (``gathers.py``, ``layouts.py``).
Before, any einsum kept its graph in tier 1 (5 graphs of the benchmark's corpora).

Each compiled test costs one Numba compile (1-5 s of CPU).
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

from dynamo.backends.native.einsums import plain_contraction  # noqa: E402
from dynamo.backends.native.lower import Unsupported  # noqa: E402
from kernel_sources import kernel_source as _lowered  # noqa: E402
from test_native import check_native, compiled  # noqa: E402 (needs numba)

rng = np.random.default_rng(11)


def _data(shape, dtype):
    if dtype == "bool":
        return rng.random(shape) < 0.5
    if np.dtype(dtype).kind in "iu":
        return rng.integers(-9, 10, shape).astype(dtype)
    if np.dtype(dtype).kind == "c":
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
    return rng.standard_normal(shape).astype(dtype)


def _contractions(a, b, c, m):
    t = a * 2            # (an operand the kernel computes)
    return (np.einsum("ij,jk->ik", t, b), np.einsum("ij,ij->i", a, a),
            np.einsum("ij,jk,ik->i", a, b, c), np.einsum("ij,jk", a, b),
            np.einsum("nij,nj->ni", m, a[:, :3]), np.einsum("i,j->ij", a[0], b[0]))


@pytest.mark.parametrize("dtype", ["float64", "float32", "int64", "int32", "bool",
                                   "complex128"])
def test_contractions_equal_eager(dtype):
    a, b, c = _data((6, 19), dtype), _data((19, 7), dtype), _data((6, 7), dtype)
    check_native(_contractions, a, b, c, _data((6, 3, 3), dtype))


def test_signed_zeros_strided_and_empty_operands():
    """``"i,j->ij"`` of -1.0 and 0.0: NumPy adds the product to a zeroed output (0.0,
    not -0.0); strided and reversed operands; a contraction over an empty axis
    (zeros)."""
    def f(a, b, e, g):
        return (np.einsum("i,j->ij", a, b), np.einsum("ij,jk->ik", a[::2, None] * e[:1],
                                                      g[:, ::-1]),
                np.einsum("ij,jk->ik", e[:, :0], g[:0]))
    a = np.array([-1.0, 2.0, -0.0, 3.0])
    b = np.array([0.0, -0.0, 1.5])
    check_native(f, a, b, rng.standard_normal((3, 5)), rng.standard_normal((5, 4)))


def test_a_non_c_ordered_input_reruns_in_tier1():
    """NumPy's result follows its operands' order: an F-ordered input's einsum is not
    C-ordered, the call's check flags it and tier 1 answers (eager's strides)."""
    def f(a, b):
        return np.einsum("ij,jk->ik", a, b) + 1.0
    a, b = np.asfortranarray(rng.standard_normal((5, 4))), rng.standard_normal((4, 3))
    c, made = compiled(f)
    for _ in range(2):
        got = c(a, b)
        want = f(a, b)
        np.testing.assert_array_equal(got, want)
        assert got.strides == want.strides


@pytest.mark.parametrize("subscripts, ok", [
    ("ij,jk->ik", True), ("ij,jk", True), ("ij,jk,kl->il", True), ("ij,jk->", True),
    ("...i,i->...", False), ("ii,i->i", False), ("ij,jk->ii", False),
    ("ij,jk->iz", False), ("ij->ji", False), ("i,i,i,i->", False), ("i1,i->i", False),
])
def test_plain_contraction(subscripts, ok):
    n = subscripts.partition("->")[0].count(",") + 1
    assert plain_contraction(subscripts, n) is ok


def test_other_forms_stay_in_tier1():
    a, b = rng.standard_normal((4, 4)), rng.standard_normal((4, 4))
    for f in (lambda a, b: np.einsum("ij->ji", a) + b,           # one operand: a view
              lambda a, b: np.einsum("ii,ij->ij", a, b) + 1.0,   # a diagonal
              lambda a, b: np.einsum("...j,jk->...k", a, b) + 1.0,
              lambda a, b: np.einsum("ij,jk->ik", a, b, optimize=True) + 1.0):
        assert isinstance(_lowered(f, a, b), Unsupported)
    # (``"ij,jk->ki"``, F-ordered, is carried in NumPy's layout: test_native_strided.py)


def _windows(x, idx, d):
    win = x[:, idx]                                   # (batch, positions, width)
    return np.einsum("bpw,bpc->wc", win, d), win @ d[0, :idx.shape[1]].T[:, :2]


@pytest.mark.parametrize("dtype", ["float64", "float32", "int64", "bool"])
def test_window_gathers_in_numpys_layout(dtype):
    """``x[:, idx]`` of a 2-D ``idx``: NumPy's result has strides (8, 240, 48) for
    (6, 8, 5); the kernel's array has them too, so NumPy's einsum and matmul add in
    eager's order. Negative and repeated indices; a strided ``x``."""
    x = _data((6, 24), dtype)[:, ::2]
    idx = np.arange(8)[:, None] + np.arange(5)[None, :]
    idx[0, 0], idx[1, :] = -1, 3
    d = _data((6, 8, 5), dtype)
    # the buffer (8, 5, 6) in C order, seen as (6, 8, 5)
    assert ".transpose((2, 0, 1))" in _lowered(_windows, x, idx, d)
    check_native(_windows, x, idx, d)


def test_window_gather_out_of_bounds_raises_as_eager():
    x, d = rng.standard_normal((4, 12)), rng.standard_normal((4, 8, 5))
    idx = np.arange(8)[:, None] + np.arange(5)[None, :]
    c, made = compiled(_windows)
    c(x, idx, d)
    for bad in (12, -13):
        idx2 = idx.copy()
        idx2[3, 2] = bad
        with pytest.raises(IndexError) as want:
            _windows(x, idx2, d)
        with pytest.raises(IndexError) as got:
            c(x, idx2, d)
        assert str(got.value) == str(want.value)
    np.testing.assert_array_equal(c(x, idx, d)[0], _windows(x, idx, d)[0])
    assert made[0].error is None and made[0].native_calls >= 1


def test_window_gathers_read_by_other_ops_stay_in_tier1():
    """A 3-D gather read by a reduction or an elementwise op (its F-like order would
    show). (The conv net's ``np.einsum("bpw,wc->bpc", x[:, idx], kern)``, whose
    result follows the gather's order, strides (24, 144, 8), is carried in that
    layout: test_native_strided.py.)"""
    x, k = rng.standard_normal((6, 12)), rng.standard_normal((5, 3))
    idx = np.arange(8)[:, None] + np.arange(5)[None, :]
    for f in (lambda x, i, k: x[:, i].sum(axis=1) + k[0, 0],
              lambda x, i, k: x[:, i] * k[0, 0]):
        assert isinstance(_lowered(f, x, idx, k), Unsupported)
