"""Float sums, means and products over every axis are eager's bits (``plan._rounds_per_block``).

A block-wise group used to reduce each block and combine the partial results after
the loop: for floats that rounds at other points than NumPy's one pairwise sum over
the whole array (found by hostile round 18, ``round18_dtypes/big_sums``: a 4M-element
float32 ``(x * 3).sum()`` ended in 1653.8662109375, eager 1653.866455078125). Such a
group now takes the plain path; exact reductions (max, min, any, all, integer sums)
still run per block::

    >>> f = dynamo.compile(lambda x: (x * 3).sum(), backend="numpy", options=BLOCKED)
    >>> f(x) == (x * 3).sum()        # bit for bit, on every path
"""

import numpy as np
import pytest
from dynamo.backends.numpy_backend import numpy_backend
from harness import rand
from test_numpy_backend import BLOCKED, traced
from test_numpy_never_wrong import identical

import dynamo

X = rand(37, 23, seed=18)


def plans(fn, *args):
    compiled = numpy_backend(traced(fn, *args), args, options=BLOCKED)
    return [p for _, p in compiled.__dynamo_groups__ if p is not None]


FLOAT_REDUCTIONS = {
    "sum": lambda x: (x * 3).sum(),
    "sum_keepdims": lambda x: (x * x).sum(keepdims=True),
    "mean": lambda x: np.mean(x * 2 + 1),
    "prod": lambda x: np.prod(x * 0.1 + 1),
    "sum_and_max": lambda x: ((x - 1).sum(), (x - 1).max()),
    "mean_dtypes": lambda x: (np.mean(x * 2, dtype=np.complex128 if x.dtype.kind == "c"
                                      else np.float64), np.mean(x + 1, keepdims=True)),
}


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.complex64])
@pytest.mark.parametrize("name", list(FLOAT_REDUCTIONS))
def test_float_full_reductions_are_eagers_bits(name, dtype):
    fn = FLOAT_REDUCTIONS[name]
    x = (X * 5).astype(dtype)
    with np.errstate(all="ignore"):
        want = fn(x)
        got = dynamo.compile(fn, backend="numpy", options=BLOCKED)(x.copy())
    identical(want, got)


@pytest.mark.parametrize("dtype", [np.int8, np.int64])
def test_mean_of_ints_is_eagers_bits(dtype):
    fn = FLOAT_REDUCTIONS["mean"]
    x = (X * 50).astype(dtype)
    identical(fn(x), dynamo.compile(fn, backend="numpy", options=BLOCKED)(x.copy()))


def test_float_full_sums_take_the_plain_path():
    assert plans(FLOAT_REDUCTIONS["sum"], X) == []


@pytest.mark.parametrize("fn", [
    lambda x: ((x * 2).max(), (x - 1).min(keepdims=True)),
    lambda x: ((x > 0.5).any(), (x < 2).all()),
    lambda x: ((x * 100).astype(np.int32) + 1).sum(),
], ids=["max_min", "any_all", "int_sum"])
def test_exact_full_reductions_still_run_per_block(fn):
    (plan,) = plans(fn, X)
    assert plan.partial and plan.nblocks > 1
    identical(fn(X), dynamo.compile(fn, backend="numpy", options=BLOCKED)(X.copy()))
