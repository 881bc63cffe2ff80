"""``strength_reduce`` drops ``x * 1``, ``1 * x`` and ``x / 1`` of a real float temporary
that only that op reads (a parameter that happens to be 1: ``c * u_face`` with
``c=1.0``), and keeps every other multiply by one: the results are eager's bit for bit
(NaNs, infinities, signed zeros, subnormals), the dtypes too, and no returned or
written array becomes another's alias."""

from __future__ import annotations

import numpy as np
import pytest
from dynamo.backends.common import python_function
from dynamo.backends.passes import strength_reduce
from harness import check
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import dynamo
from dynamo.graph import Graph

FLOATS = (np.float16, np.float32, np.float64)


def trace(fn, *args) -> Graph:
    graphs = []

    def capture(graph, example_inputs):
        graphs.append(graph)
        return python_function(graph)

    with np.errstate(all="ignore"):
        dynamo.compile(fn, backend=capture)(*args)
    assert len(graphs) == 1
    return graphs[0]


def targets(graph) -> list:
    return [n.target for n in graph.call_nodes()]


def floats_like(dtype):
    """Arrays of ``dtype`` with NaNs, infinities, signed zeros and subnormals."""
    return hnp.arrays(dtype, hnp.array_shapes(min_dims=1, max_dims=2, max_side=5),
                      elements=hnp.from_dtype(np.dtype(dtype), allow_nan=True,
                                              allow_infinity=True, allow_subnormal=True))


def one_times(a, b):
    return 1.0 * (a + b)


def times_one_int(a, b):
    return (a - b) * 1


def divided_by_one(a, b):
    return (a * b) / 1.0


def ufunc_times_one(a, b):
    return np.multiply(np.divide(a, b), 1.0)


def parameter_one(a, b, c=1.0):
    u_face = a + 0.5 * b
    return a - 0.25 * (c * u_face - b)


def power_parameter_one(a, b, beta=1.0):
    return beta * a ** 3 - b           # a Duffing force with beta=1.0


def one_times_exp(a, b):
    return 1 * np.exp(-(a * b))


def sqrt_over_one(a, b):
    return np.sqrt(a * a + b * b) / 1.0


def tanh_times_one(a, b):
    return np.tanh(a - b) * 1.0


def arctan2_times_one(a, b):
    return np.arctan2(a, b) * 1.0


DROPPED = [one_times, times_one_int, divided_by_one, ufunc_times_one, parameter_one,
           power_parameter_one, one_times_exp, sqrt_over_one, tanh_times_one,
           arctan2_times_one]


@pytest.mark.parametrize("fn", DROPPED, ids=lambda f: f.__name__)
@given(data=st.data(), dtype=st.sampled_from(FLOATS))
@settings(max_examples=40, deadline=None)
def test_times_one_dropped_and_exact(fn, data, dtype):
    a = data.draw(floats_like(dtype))
    b = data.draw(hnp.arrays(dtype, a.shape, elements=hnp.from_dtype(np.dtype(dtype))))
    graph = trace(fn, a, b)
    new = strength_reduce(graph)
    assert len(targets(new)) == len(targets(graph)) - 1
    with np.errstate(all="ignore"):
        want = fn(a.copy(), b.copy())
        got = python_function(new)(a.copy(), b.copy())[0]
    assert type(got) is type(want)
    np.testing.assert_array_equal(got, want, strict=True)
    check(fn, a, b, backend="numpy")


def returned_too(a, b):
    t = a + b
    return t * 1.0, t


def written_after(a, b):
    t = a + b
    y = t * 1.0
    y[0] = 7.0
    return t, y


def of_an_input(a, b):
    return a * 1.0


def of_a_sign_op(a, b):
    return np.negative(a) * 1.0        # bits copied: a signaling NaN stays one


def of_an_abs(a, b):
    return np.abs(a) * 1.0             # bits copied: a signaling NaN stays one


def of_a_maximum(a, b):
    return np.maximum(a, b) * 1.0      # returns an operand's NaN as it is


def of_a_where(a, b):
    return np.where(a > b, a, b) * 1.0


def numpy_one(a, b):
    return (a + b) * np.float64(1.0)   # promotes float32 to float64


def of_ints(a, b):
    return (a.astype(np.int64) + 1) * 1.0   # int64 * 1.0 is a float64 array


def into_out(a, b):
    t = np.empty_like(a)
    np.add(a, b, out=t)
    return t * 1.0


def into_out_positional(a, b):
    t = np.empty_like(a)
    y = np.exp(a, t) * 1.0             # t is the result: y must stay another array
    t[0] = 5.0
    return y, t


def of_complex(a, b):
    return (a + 1j * b) * 1.0          # complex * 1.0 turns inf * 0 into nan


KEPT = [returned_too, written_after, of_an_input, of_a_sign_op, of_an_abs, of_a_maximum,
        of_a_where, numpy_one, of_ints, into_out, into_out_positional, of_complex]


@pytest.mark.parametrize("fn", KEPT, ids=lambda f: f.__name__)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_other_multiplies_by_one_kept(fn, dtype):
    a = np.array([1.5, -0.0, np.inf, np.nan, 3.0], dtype)
    b = np.array([0.5, 0.0, -1.0, 2.0, np.inf], dtype)
    graph = trace(fn, a, b)
    assert targets(strength_reduce(graph)) == targets(graph)
    with np.errstate(all="ignore"):
        check(fn, a, b, backend="numpy")


def test_aliases_stay_apart_on_the_numpy_backend():
    """The returned temporary and its product by one are two arrays, as in eager."""
    a, b = np.arange(4.0), np.ones(4)
    y, t = dynamo.compile(returned_too, backend="numpy")(a, b)
    assert y is not t and not np.shares_memory(y, t)
