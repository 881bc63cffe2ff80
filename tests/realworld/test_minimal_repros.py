"""The smallest programs that show each bug the realistic programs found (strict xfails:
each turns into an XPASS failure the day its fix lands; fixed ones stay as regression
tests). The realistic programs that hit them are listed in docs/realworld.md."""

import warnings

import numpy as np
import pytest
from rw_check import explain

import dynamo


def _print_then_loop(x):
    print("start")
    for _ in range(1):
        x += 1
        print("step")
    return x


def _identity_with_print(p):
    print("helper")
    return p


def _call_then_loop(x):
    _identity_with_print(x)          # breaks in the callee: the rest is a resume function
    for _ in range(1):
        x += 1
        _identity_with_print(x)      # a break inside the loop: the loop is an eager island
    return x


def test_loop_with_break_in_resume_function(capsys):   # was W1 (fixed)
    got = dynamo.compile(_print_then_loop, backend="eager")(np.zeros(2))
    np.testing.assert_array_equal(got, np.ones(2))


def test_loop_with_break_in_resume_function_iterates_the_right_object(capsys):   # was W1
    got = dynamo.compile(_call_then_loop, backend="eager")(np.zeros(2))   # eager: [1, 1]
    np.testing.assert_array_equal(got, np.ones(2))


def _iadd_then_read(pos, vel):
    pos += vel
    t = pos * 2
    return t + 1


def test_numpy_backend_keeps_input_after_inplace_add():   # was W2 (fixed)
    pos, vel = np.zeros(3, np.float32), np.ones(3, np.float32)
    got = dynamo.compile(_iadd_then_read, backend="numpy")(pos, vel)
    np.testing.assert_array_equal(pos, np.ones(3, np.float32))   # W2 left 2.0
    np.testing.assert_array_equal(got, np.full(3, 3, np.float32))


def _relu_layer(x, w, b):
    return np.maximum(x @ w + b, 0) @ w.T


def test_numpy_backend_relu_emits_no_deprecation_warning():   # was W4 (fixed)
    x = np.ones((2, 3), np.float32)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        dynamo.compile(_relu_layer, backend="numpy")(x, x.T, np.ones(2, np.float32))
    assert [str(w.message)[:60] for w in caught] == []


# Floats computed from a dynamic size were baked into the graph without pinning the size
# (fixed in d44f5e8, found by covariance_float_factor and the label-smoothing programs):
# these stay as regression tests. The second shape makes rows dynamic.
SIZE_FLOAT_FORMS = {
    "n*0.5": lambda x: x * (x.shape[0] * 0.5),
    "0.5*n": lambda x: x * (0.5 * x.shape[0]),
    "1.0/n": lambda x: x * (1.0 / x.shape[0]),
    "1.0/(n-1)": lambda x: x * (1.0 / (x.shape[0] - 1)),
    "n+0.5": lambda x: x + (x.shape[0] + 0.5),
    "len*1.0": lambda x: x * (len(x) * 1.0),
    "size*0.1": lambda x: x * (x.size * 0.1),
    "n>3.5": lambda x: x * 2 if x.shape[0] > 3.5 else x,
    "n/2": lambda x: x * (x.shape[0] / 2),
    "n**0.5": lambda x: x / x.shape[0] ** 0.5,
    "np.sqrt(n)": lambda x: x / np.sqrt(x.shape[0]),
}


@pytest.mark.parametrize("form", list(SIZE_FLOAT_FORMS))
def test_float_from_a_dynamic_size_follows_the_size(form):
    fn = SIZE_FLOAT_FORMS[form]
    f = dynamo.compile(fn, backend="eager")
    for rows in (3, 2, 5, 7, 3):
        x = np.ones((rows, 2))
        np.testing.assert_array_equal(f(x), fn(x), err_msg=f"{form}, rows={rows}")


def _accumulate_scalar(x):
    s = np.mean(x)
    s += np.sum(x)
    return s


def test_iadd_on_reduction_result_is_one_graph():   # NumPy scalars rebind on +=
    report = explain(_accumulate_scalar, (np.ones(3, np.float32),))
    assert (report.graph_count, report.graph_break_count) == (1, 0), str(report)
