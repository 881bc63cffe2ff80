"""Tier 2 gathers with integer index arrays (``backends/native/gathers.py``):
``x[idx]``, ``P[rows, cols]``, ``W[idx, 3]``, ``x[idx, 1:7:2]``, negative indices, indices
out of bounds (NumPy's ``IndexError``, from tier 1 rerunning the call), index dtypes;
each against eager (results, dtypes, strides). Before, any index array kept its graph
in tier 1.

Each compiled test costs one Numba compile (1-5 s of CPU).
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

from dynamo.backends.native.lower import Unsupported  # noqa: E402
from kernel_sources import kernel_source as _lowered  # noqa: E402
from test_native import check_native, compiled  # noqa: E402 (needs numba)

rng = np.random.default_rng(5)


def _forms(x, idx, y):
    return x[idx] * 2.0, x[idx, 2] + 1.0, y[idx[:4], idx[1:5]], x[idx[:2], 1:7:2]


@pytest.mark.parametrize("itype", ["int64", "int32", "uint8"])
def test_gather_forms(itype):
    x, y = rng.standard_normal((6, 10)), rng.standard_normal((6, 6))
    idx = np.array([0, 5, 3, 2, 5, 1], itype)
    if itype != "uint8":
        idx[[1, 5]] = [-1, -6]                   # negative indices count from the end
    check_native(_forms, x, idx, y)


def test_cross_entropy_picks_and_a_new_array():
    def f(logits, labels):
        z = logits - logits.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        picked = p[np.arange(p.shape[0]), labels]    # a gather of an array of the kernel
        return -np.log(picked).mean(), p
    # exp and log within docs/native.md's 4 ulp; the picks themselves are exact
    check_native(f, rng.standard_normal((200, 10)), rng.integers(0, 10, 200),
                 rtol=4 * np.finfo(np.float64).eps)


def test_index_out_of_bounds_raises_as_eager():
    def f(x, idx):
        return x[idx] + 1.0
    x = rng.standard_normal(20)
    c, made = compiled(f)
    c(x, np.array([1, 2, 3]))
    for bad in ([1, 20, 3], [-21, 0, 0]):
        with pytest.raises(IndexError) as want:
            f(x, np.array(bad))
        with pytest.raises(IndexError) as got:
            c(x, np.array(bad))
        assert str(got.value) == str(want.value)
    assert made[0].error is None
    np.testing.assert_array_equal(c(x, np.array([19, -20, 0])), f(x, np.array([19, -20, 0])))
    assert made[0].native_calls >= 1


def test_wide_unsigned_and_later_indices_stay_in_tier1():
    """uint64 indices (past int64's range), ``A[:, cols]`` (NumPy's result is not
    C-ordered there: strides (8, 32) for (4, 2), even (8, 32) for ``A[:, [1]]``'s (4, 1)),
    ``A[:, np.array(2)]`` (a 0-d index array)."""
    x = rng.standard_normal(10)
    A = rng.standard_normal((4, 5))
    assert isinstance(_lowered(lambda A, i: A[:, i] * 2.0, A, np.array([1, 2])), Unsupported)
    assert isinstance(_lowered(lambda A, i: A[:, i] * 2.0, A, np.array([1])), Unsupported)
    assert isinstance(_lowered(lambda A, i: (A[:, i] - 1).sum(), A, np.array([1, 2])),
                      Unsupported)                   # a float sum in the memory's order
    assert isinstance(_lowered(lambda A, i: A[:, i] + A[:, :2], A, np.array([1, 2])),
                      Unsupported)                   # an input's view: its order unknown
    assert isinstance(_lowered(lambda A, i: A[:, i] * 2.0, A, np.array(1)), Unsupported)
    assert isinstance(_lowered(lambda x, i: x[i] * 2.0, x, np.array([1, 2], np.uint64)),
                      Unsupported)


def _viterbi_step(log_A, log_B, obs, delta):
    """An HMM's step (realworld_programs.viterbi): ``log_B[:, obs[t]]`` is NumPy's basic
    indexing by an int scalar, a view, not a gather."""
    for t in range(1, len(obs)):
        scores = delta[:, None] + log_A
        delta = np.max(scores, axis=0) + log_B[:, obs[t]]
    return delta, log_B[obs[0], :][2:] * 1.0, log_B[1, obs[1]]


@pytest.mark.parametrize("dtype", ["float64", "int32", "bool"])
def test_an_int_scalar_index_is_a_view_of_the_input(dtype):
    """``A[:, k]`` with ``k`` an int scalar of the kernel (``obs[t]``): negative ``k``
    wraps, a non-contiguous input (a transposed view) reads through its strides."""
    log_A = rng.standard_normal((6, 6))
    log_B = (rng.standard_normal((6, 6)) * 4).astype(dtype)
    obs = np.array([0, 5, -1, 2, -6, 3])
    delta = rng.standard_normal(6).astype(dtype)
    check_native(_viterbi_step, log_A, log_B, obs, delta)
    check_native(_viterbi_step, log_A, np.asfortranarray(log_B), obs, delta)


def test_an_int_scalar_index_out_of_bounds_raises_as_eager():
    def f(A, obs):
        return A[:, obs[1]] * 2.0, A[obs[0], 1:3] + 1.0
    A = rng.standard_normal((4, 5))
    c, made = compiled(f)
    c(A, np.array([1, 2]))
    for bad in ([1, 5], [0, -6], [4, 0], [-5, 0]):
        with pytest.raises(IndexError) as want:
            f(A, np.array(bad))
        with pytest.raises(IndexError) as got:
            c(A, np.array(bad))
        assert str(got.value) == str(want.value)
    assert made[0].error is None
    ok = np.array([-4, -5])
    np.testing.assert_array_equal(c(A, ok)[0], f(A, ok)[0])
    assert made[0].native_calls >= 1


def test_an_int_scalar_index_reads_later_writes_as_a_view():
    """The view reads the input as it is when read: a copy taken at the getitem would
    miss the store after it."""
    def f(A, obs):
        col = A[:, obs[0]]
        A[1:3] = 7.0
        return col * 2.0
    check_native(f, rng.standard_normal((4, 5)), np.array([3]))


def test_index_arrays_apart_put_their_dimensions_first():
    """``b[i, :, j]``: NumPy's result is ``(*index shape, 5)``, C-ordered; ints among
    the arrays are index items too (``b[1, :, j]``, ``b[k, :, j]`` with ``k`` a scalar
    of the kernel), repeated and negative indices."""
    def f(b, i, j):
        k = i[1, 0]                       # an int scalar of the kernel among arrays
        return (b[i, :, j] * 2, b[1, :, j] + 1, b[i, 1:4, -1] * b[i, ::2, 0],
                b[k, i] + 1, b[k, :, j] * 1)
    i = np.array([[0, 3], [-1, 3]])
    j = np.array([[6, -7], [2, 2]])
    for dtype in ("float64", "int64", "bool", "int8"):
        b = (rng.standard_normal((4, 5, 7)) * 50).astype(dtype)
        check_native(f, b, i, j)
    check_native(f, rng.standard_normal((4, 5, 7))[:, ::-1], i, j)   # negative strides


def test_index_arrays_apart_out_of_bounds_and_empty():
    def f(b, i, j):
        return b[i, :, j] * 2.0
    b = rng.standard_normal((4, 5, 7))
    check_native(f, b, np.zeros((0,), np.int64), np.zeros((0,), np.int64))
    c, made = compiled(f)
    c(b, np.array([1]), np.array([2]))
    for i, j in (([4], [0]), ([0], [-8])):
        with pytest.raises(IndexError) as want:
            f(b, np.array(i), np.array(j))
        with pytest.raises(IndexError) as got:
            c(b, np.array(i), np.array(j))
        assert str(got.value) == str(want.value)
    ok = (np.array([-4]), np.array([-7]))
    np.testing.assert_array_equal(c(b, *ok), f(b, *ok))
    assert made[0].error is None and made[0].native_calls >= 1


def _box(img, r0, r1, c0, c1):
    """The integral-image box filter's corner differences (realworld_programs6)."""
    ii = np.zeros((img.shape[0] + 1, img.shape[1] + 1), img.dtype)
    ii[1:, 1:] = img
    s = ii[r1][:, c1] - ii[r0][:, c1] - ii[r1][:, c0] + ii[r0][:, c0]   # F-ordered
    area = (r1 - r0)[:, None] * (c1 - c0)[None, :]                     # C-ordered
    g = img[:, c0]
    mixed = np.where(g > 0, g + c1, np.ones(g.shape, g.dtype))         # C wins
    return s * area, mixed - g


@pytest.mark.parametrize("dtype", ["float64", "int64", "int8"])
def test_a_column_gather_whose_order_nothing_shows(dtype):
    """``A[:, cols]`` is F-ordered in NumPy, C-ordered in the kernel: lowered where
    every value carrying its order meets a C-ordered operand of its shape (outputs C
    in both: ``same`` compares strides); negative, repeated and wrapped indices."""
    img = (rng.standard_normal((9, 7)) * 5).astype(dtype)
    r0 = np.clip(np.arange(9) - 2, 0, 9)
    r1 = np.clip(np.arange(9) + 3, 0, 9)
    c0 = np.array([0, 0, -7, 2, 3, 3, 1])
    c1 = np.array([3, 4, 5, 6, -1, 7, 7])
    check_native(_box, img, r0, r1, c0, c1)
    check_native(_box, np.asfortranarray(img), r0, r1, c0, c1)


def test_a_column_gather_out_of_bounds_raises_as_eager():
    A = rng.standard_normal((4, 6))
    c, made = compiled(_box)
    args = (np.clip(np.arange(4) - 1, 0, 4), np.arange(1, 5), np.arange(6), np.arange(6))
    c(A, *args)
    for bad in (7, -8):                    # ``ii`` has 7 columns
        c1 = np.arange(6)
        c1[2] = bad
        with pytest.raises(IndexError) as want:
            _box(A, *args[:2], args[2], c1)
        with pytest.raises(IndexError) as got:
            c(A, *args[:2], args[2], c1)
        assert str(got.value) == str(want.value)
    np.testing.assert_array_equal(c(A, *args)[0], _box(A, *args)[0])
    assert made[0].error is None and made[0].native_calls >= 1
