"""A Python list of graph values where NumPy wants an array (issue #19,
``dynamo/ops/listed.py``): ``np.concatenate(([u[0]], u, [u[-1]]))``, ``np.hstack``/
``np.vstack`` with such members and ``np.diag([a, b, c])`` of graph scalars are one
graph with no break, and equal eager in values, dtypes (a list's own promotion:
``[np.float32(1), 2.0]`` is float64, ``[u[0]]`` keeps u's dtype) and types, on the
eager and numpy backends. A list holding CuPy or Dask arrays still breaks.
"""

from __future__ import annotations

import numpy as np
import pytest
from harness import check

from dynamo.ops import get
from dynamo.ops.meta import ArrayMeta
from dynamo.ops.rules import MetaError

BACKENDS = ("eager", "numpy")
INPUTS = (np.arange(1, 6.0), np.arange(1, 6, dtype=np.float32), np.arange(1, 6),
          np.array([np.nan, 1.0, -2.0, 3.0]))


def pad_ends(u):
    return np.concatenate(([u[0]], u, [u[-1]]))


def stacks(u):
    return np.hstack(([u[0]], u)), np.vstack([[u[0], u[1]], u[:2]])


def with_python_numbers(u):
    # a Python float/int in the list: the list's own promotion (float64 for 2.0)
    return np.concatenate(([u[0], 2.0], u)), np.concatenate(([u[-1], 1], u))


def other_dtype(u):
    return np.concatenate(([u.sum()], u.astype(np.float32)))


def zero_d_members(u):
    z = u.sum(keepdims=True).reshape(())     # a 0-d array, not a NumPy scalar
    return np.concatenate(([z, u[0]], u))


def diagonals(u):
    return np.diag([u.sum(), u.max(), u.min()]), np.diag([u[0], 1.5]), \
        np.diag([u[0], u[1]], k=1)


def diag_written(u):
    d = np.diag([u[0], u[1]])
    d[0, 0] = 99
    return u, d


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", [pad_ends, stacks, with_python_numbers, other_dtype,
                                zero_d_members, diagonals, diag_written])
@pytest.mark.parametrize("u", INPUTS, ids=lambda u: str(u.dtype) + str(np.isnan(u).any()))
def test_list_of_graph_values_is_captured(fn, u, backend):
    check(fn, u, graphs=1, breaks=0, backend=backend)


def test_list_promotion_is_numpy_list_promotion():
    f4 = ArrayMeta((), np.dtype("f4"), "numpy", scalar=True)
    got = get("concatenate").meta(get("concatenate"),
                                  (([f4, 2.0], ArrayMeta((3,), np.dtype("f4"))),), {})
    assert got.dtype == np.concatenate(([np.float32(1), 2.0], np.ones(3, "f4"))).dtype \
        == np.float64
    got = get("concatenate").meta(get("concatenate"),
                                  (([f4], ArrayMeta((3,), np.dtype("f4"))),), {})
    assert got.dtype == np.float32 and got.shape == (4,)


@pytest.mark.parametrize("kind", ["cupy", "dask"])
def test_a_list_of_other_kinds_still_breaks(kind):
    # CuPy's concatenate/diag reject Python lists; np.asarray computes a Dask array
    m = ArrayMeta((), np.dtype("f8"), kind, False)
    whole = ArrayMeta((3,), np.dtype("f8"), kind, False)
    with pytest.raises(MetaError, match="list holding"):
        get("concatenate").meta(get("concatenate"), (([m], whole),), {})
    with pytest.raises(MetaError, match="list holding"):
        get("diag").meta(get("diag"), ([m, m],), {})


def diag_of_rows(u):
    return np.diag([[u[0], u[1]], [u[1], u[0]]])      # the diagonal of NumPy's 2-d array


@pytest.mark.parametrize("backend", BACKENDS)
def test_diag_of_a_list_of_rows_is_one_graph(backend):
    """(It broke, "a list holding arrays as rows", until lists of rows were read as the
    array NumPy makes of them: tests/translator/test_size_values.py has more.)"""
    check(diag_of_rows, INPUTS[0], graphs=1, breaks=0, backend=backend)


def diag_of_constants(u, q=0.1, dt=0.05):
    # a list of constants only (a process-noise matrix): the array np.asarray makes
    Q = q * np.diag([dt ** 4 / 4, dt ** 2, 1.0])
    return u[:3] @ Q + np.diag((1, 2, 3), k=1)[0, :3] + np.diag([[1.0, 2.0], [3.0, 4.0]])[1]


def diag_of_constants_written(u):
    d = np.diag([1.0, 2.0])
    d[0, 1] = u[0]
    return d


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", [diag_of_constants, diag_of_constants_written])
@pytest.mark.parametrize("u", INPUTS, ids=lambda u: str(u.dtype) + str(np.isnan(u).any()))
def test_diag_of_a_list_of_constants_is_one_graph(fn, u, backend):
    """(It broke, "np.diag: v is not an array", until a list of constants was read as
    the array NumPy makes of it: the constant-acceleration Kalman filter of
    scripts/realworld_programs8.py.)"""
    check(fn, u, graphs=1, breaks=0, backend=backend)


def test_a_ragged_list_of_constants_still_breaks():
    with pytest.raises(MetaError, match="inhomogeneous"):
        get("diag").meta(get("diag"), ([[1.0, 2.0], [3.0]],), {})
