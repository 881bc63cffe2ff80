"""Ufunc methods (reduce, accumulate, outer, at) agree with NumPy for binary and unary
ufuncs, every dtype and shape (0-d and 0-size included), axis, keepdims, initial,
where, dtype and out; compiled programs equal eager ones, and np.add.at writes where
eager writes."""

import warnings

import numpy as np
import pytest
from harness import check, rand
from hypothesis import given, settings
from hypothesis import strategies as st
from ops_agree import DTYPES, agree, arrays

import dynamo

UFUNCS = [np.add, np.multiply, np.maximum, np.minimum, np.logical_and, np.subtract,
          np.divmod, np.negative, np.arctan2, np.bitwise_or]
AXES = st.sampled_from([0, 1, -1, None, (0, 1), (), 3])


@given(uf=st.sampled_from(UFUNCS), a=arrays(DTYPES, max_dims=3, max_side=3), axis=AXES,
       keepdims=st.booleans(), extra=st.sampled_from([{}, {"initial": 1}, {"dtype": "f8"},
                                                      {"where": "mask"}]))
@settings(max_examples=150, deadline=None)
def test_reduce(uf, a, axis, keepdims, extra):
    if extra.get("where") == "mask":
        extra = {"where": a.astype(bool), "initial": 0}
    agree("ufunc_reduce", uf, a, axis=axis, keepdims=keepdims, **extra)
    agree("ufunc_reduce", uf, a)


@given(uf=st.sampled_from(UFUNCS), a=arrays(DTYPES, max_dims=3, max_side=3),
       axis=st.sampled_from([0, 1, -1, None, 3]), dtype=st.sampled_from([None, "f4", "i8"]))
@settings(max_examples=120, deadline=None)
def test_accumulate(uf, a, axis, dtype):
    agree("ufunc_accumulate", uf, a, axis=axis, dtype=dtype)
    agree("ufunc_accumulate", uf, a)


@given(uf=st.sampled_from(UFUNCS), a=arrays(DTYPES, max_dims=2, max_side=3),
       b=st.one_of(arrays(DTYPES, max_dims=2, max_side=3), st.sampled_from([2, 1.5, True])))
@settings(max_examples=120, deadline=None)
def test_outer(uf, a, b):
    agree("ufunc_outer", uf, a, b)
    agree("ufunc_outer", uf, a[()] if a.ndim == 0 else a, a)


@given(uf=st.sampled_from(UFUNCS), a=arrays(DTYPES, min_dims=1, max_dims=2, max_side=3),
       idx=st.one_of(st.integers(-3, 3), st.lists(st.integers(-2, 2), max_size=4),
                     st.just(slice(None, None, 2)), st.just((0, [1, 0]))),
       b=st.one_of(st.sampled_from([1, 2.5, None]), arrays(DTYPES, max_dims=2, max_side=3)))
@settings(max_examples=150, deadline=None)
def test_at(uf, a, idx, b):
    args = (a, uf, idx) if b is None else (a, uf, idx, b)
    agree("ufunc_at", *args)


def test_reduce_out_and_positional_arguments():
    a = np.arange(6.0).reshape(2, 3)
    agree("ufunc_reduce", np.add, a, axis=0, out=np.zeros(3))
    agree("ufunc_reduce", np.add, a, axis=0, out=np.zeros(2))
    agree("ufunc_accumulate", np.add, a, axis=1, out=np.zeros((2, 3), np.float32))
    op, adapter = dynamo.ops.lookup_ufunc_method(np.add, "reduce")
    assert adapter((np.add, a, 0, None, "OUT"), {}) == ((np.add, a),
                                                       {"axis": 0, "dtype": None, "out": "OUT"})


# --------------------------------------------------------------------------- compiled

X = rand(5, 3)
IDX = np.array([0, 2, 2, 4])


def running(x, idx):
    out = np.zeros(3, np.float32)
    np.add.reduce(x, axis=0, out=out)
    y = x.copy()
    r = np.add.at(y, idx, 1.0)
    np.maximum.at(y, (idx, 1), 10.0)
    return (np.maximum.accumulate(x, axis=0), np.minimum.accumulate(x, 1),
            np.add.reduce(x), np.multiply.reduce(x, axis=None), np.logical_or.reduce(x > 0),
            np.subtract.outer(x[0], x[:, 0]), np.divmod.outer(x[0], 0.5), out, y, r,
            np.add.nin, np.maximum.__name__, np.add.identity)


def scatter_mean(values, idx, n=5):
    sums = np.zeros(n)
    counts = np.zeros(n)
    np.add.at(sums, idx, values)
    np.add.at(counts, idx, 1)
    return sums / np.maximum(counts, 1)


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_compiled_equals_eager(backend):
    check(running, X, IDX, graphs=1, breaks=0, backend=backend)
    check(scatter_mean, X[:4, 0].astype(np.float64), IDX, graphs=1, breaks=0, backend=backend)


def test_at_writes_into_an_input_and_its_views():
    def f(a, idx):
        view = a[1:]
        np.add.at(a, idx, 1)
        return view * 1

    check(f, np.zeros(5), IDX, graphs=1, breaks=0)


def test_reduceat_is_captured():
    def f(x):
        return np.add.reduceat(x, [0, 2]), np.maximum.reduceat(x, np.array([1, 0]), axis=1)

    check(f, X, graphs=1, breaks=0)
    check(f, X, graphs=1, breaks=0, backend="numpy")


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_reduce_and_accumulate_of_a_list(backend):
    """NumPy takes a list of arrays and numbers as ``np.asarray`` of it (an HMM's
    ``np.logaddexp.reduce([a + b for ...])`` of 0-d values): one graph."""
    def f(x):
        terms = [np.log(x[i, 0]) + x[i, 1] for i in range(3)]
        return (np.logaddexp.reduce(terms), np.add.reduce([x[0], x[1], x[2]], axis=0), np.add.reduce([x[0, 0], 2.0]),
                np.maximum.accumulate((x[:, 0], x[:, 1])), np.multiply.reduce((x[0], x[1])))

    check(f, np.abs(X) + 0.5, graphs=1, breaks=0, backend=backend)


def test_other_ufunc_methods_break_and_say_so():
    def f(x):
        return np.add.resolve_dtypes((x.dtype, x.dtype, None))

    check(f, X)
    report = dynamo.explain(f, backend="eager")(X)
    assert "resolve_dtypes" in report.break_reasons[0].reason


def test_cupy_ufuncs_find_their_numpy_twins_by_name():
    """CuPy 14 names its ufuncs ``cupy_add``; the rules of ``cupy.add.reduce`` run on
    ``np.add`` (found on the GPU machine: every CuPy ufunc method broke the graph)."""
    import types

    from dynamo.ops.ufuncs import numpy_ufunc
    assert numpy_ufunc(types.SimpleNamespace(__name__="cupy_add")) is np.add
    assert numpy_ufunc(types.SimpleNamespace(__name__="maximum")) is np.maximum
    assert numpy_ufunc(np.multiply) is np.multiply


def test_cupy_ufunc_methods_run_on_cupys_own_ufunc(monkeypatch):
    """The cupy implementation of ``ufunc.reduce`` calls CuPy's ufunc: looked up by name
    for a NumPy ufunc, used as it is for a CuPy one (whose name, ``cupy_add``, is not a
    name in the cupy module)."""
    import sys
    import types

    from dynamo.ops.ufuncs import cupy_ufunc
    fake_add = types.SimpleNamespace(__name__="cupy_add")
    monkeypatch.setitem(sys.modules, "cupy", types.SimpleNamespace(add=fake_add))
    assert cupy_ufunc(np.add) is fake_add
    assert cupy_ufunc(fake_add) is fake_add


def maximum_into(a, b, out):
    np.maximum(a, b, out)
    return out


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_maximum_with_a_positional_output_warns_as_numpy_does(backend):
    """NumPy 2.4 deprecates a third positional argument of np.maximum/np.minimum: the
    program's call warns, so it is not turned into ``out=`` (issue #17, round 23)."""
    a, b = np.arange(4.0), np.full(4, 1.5)
    with warnings.catch_warnings(record=True) as want:
        warnings.simplefilter("always")
        expected = maximum_into(a, b, np.empty(4))
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        result = dynamo.compile(maximum_into, backend=backend)(a, b, np.empty(4))
    np.testing.assert_array_equal(result, expected)
    assert [(w.category, str(w.message)) for w in got] == \
        [(w.category, str(w.message)) for w in want]
