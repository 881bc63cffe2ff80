"""Python values the glue makes after the graph has run (issue #19): ``x.item()`` and
``x.tolist()`` of a traced 0-d array (``arrays.ItemVariable``), and ``np.allclose`` /
``np.array_equal`` of traced arrays (``arrays.ComparedBoolVariable``). Returned,
stored in a dict or a list, they need no break and give eager's value *and type*
(``float``, ``int``, ``bool``, ``complex``, whatever the dtype's width); the value is
the one at the call, whatever the program writes into the array later; a use that
needs the number while tracing breaks there, with the reason the call had."""

import numpy as np
import pytest
from harness import check
from hypothesis import given, settings
from hypothesis import strategies as st

BACKENDS = ("eager", "numpy")
DTYPES = (np.float64, np.float32, np.float16, np.int8, np.int64, np.uint64, np.bool_,
          np.complex64, np.complex128)


def items(x):
    out = {"sum": x.sum().item(), "first": x[0].item(), "max": x.max().tolist()}
    x[0] = x[1]                       # a later write: the values above were read before
    return out, [type(v).__name__ for v in out.values()], x[0].item()


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_item_gives_eagers_value_and_type(dtype, backend):
    x = np.array([3, 1, 2, 0]).astype(dtype)
    report = check(items, x, backend=backend, graphs=1, breaks=0)
    assert report is not None


def stats(X):
    rows = []
    for j in range(X.shape[1]):
        rows.append((X[:, j].mean().item(), X[:, j].std(ddof=1).item()))
    return rows


@given(data=st.lists(st.floats(-1e3, 1e3), min_size=6, max_size=6))
@settings(max_examples=20, deadline=None)
def test_item_in_a_summary(data):
    check(stats, np.array(data).reshape(3, 2), graphs=1, breaks=0)


def needs_the_number(x):
    return x.mean().item() ** 2       # (OverflowError for some values: read while tracing)


def test_a_use_that_needs_the_number_breaks_with_the_reason():
    report = check(needs_the_number, np.arange(4.0), breaks=1)
    (brk,) = report.break_reasons
    assert brk.reason.startswith("a Python number computed from array data (array.item() "
                                 "of a 0-d array, at test_python_values_after_the_graph.py")
    assert brk.hint


def longdouble(x):
    return x.sum().item()      # a np.longdouble, not a float: not deferred


def test_longdouble_item_breaks():
    check(longdouble, np.arange(3, dtype=np.longdouble), breaks=1)


def compare(a, b):
    return (np.allclose(a, b), np.allclose(a, b, atol=0.5), np.allclose(a, b, rtol=0.0),
            np.array_equal(a, a), np.array_equal(a, b), np.array_equal(a, b[:2]),
            np.allclose(a, 2.0), np.allclose(np.where(a > 1, np.nan, a), a, equal_nan=True))


@pytest.mark.parametrize("backend", BACKENDS)
@given(a=st.lists(st.floats(-4, 4), min_size=3, max_size=3),
       shift=st.sampled_from([0.0, 1e-9, 0.1, 1.0]))
@settings(max_examples=20, deadline=None)
def test_allclose_and_array_equal(a, shift, backend):
    a = np.array(a)
    check(compare, a, a + shift, backend=backend, graphs=1, breaks=0)


def mismatched(a):
    return np.allclose(a, np.ones(2))


def test_allclose_raises_as_eagerly():
    check(mismatched, np.ones(3))          # ValueError: shapes (3,) (2,)


def checked(a, b):
    if not np.allclose(a, b):
        return "differ"
    return "same"


def test_an_if_on_allclose_breaks_with_the_reason():
    report = check(checked, np.ones(3), np.zeros(3), breaks=1)
    (brk,) = report.break_reasons
    assert brk.reason.startswith("np.allclose() returns a Python value computed from array")
