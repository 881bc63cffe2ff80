"""Reductions and scans: rules agree with NumPy for every axis form (None, int,
negative, tuple), keepdims, dtype, ddof, initial, where, out, on 0-d, 0-size and
scalar inputs; compiled programs equal eager ones."""

import warnings

import numpy as np
import pytest
from harness import check, rand
from hypothesis import given, settings
from hypothesis import strategies as st
from ops_agree import DTYPES, FLOATS, agree, arrays

from dynamo import ops

REDUCTIONS = [np.sum, np.prod, np.mean, np.var, np.std, np.max, np.min, np.amax, np.amin,
              np.any, np.all, np.argmax, np.argmin, np.ptp, np.median, np.count_nonzero,
              np.nansum, np.nanprod, np.nanmean, np.nanvar, np.nanstd, np.nanmax, np.nanmin,
              np.nanargmax, np.nanargmin, np.nanmedian, np.linalg.norm]
METHODS = ["sum", "prod", "mean", "var", "std", "max", "min", "any", "all", "argmax",
           "argmin"]
SCANS = [np.cumsum, np.cumprod, np.nancumsum, np.nancumprod]
REAL = [d for d in DTYPES if d.kind != "c"]


@st.composite
def axis_for(draw, ndim):
    choices = [st.none()]
    if ndim:
        choices += [st.integers(-ndim, ndim - 1),
                    st.lists(st.integers(-ndim, ndim - 1), min_size=1, max_size=ndim,
                             unique_by=lambda i: i % ndim).map(tuple)]
    choices.append(st.integers(ndim, ndim + 1))  # out of range: AxisError on both sides
    return draw(st.one_of(*choices))


@st.composite
def reduction_call(draw, dtypes=DTYPES):
    a = draw(arrays(dtypes, max_dims=3, max_side=3))
    if draw(st.booleans()) and a.ndim == 0:
        a = a[()]  # a NumPy scalar
    kwargs = {"axis": draw(axis_for(np.ndim(a)))}
    if draw(st.booleans()):
        kwargs["keepdims"] = True
    return a, kwargs


@pytest.mark.parametrize("fn", REDUCTIONS, ids=lambda f: f.__name__)
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_reduction_rule_agrees(fn, data):
    a, kwargs = data.draw(reduction_call(REAL if fn in (np.ptp, np.median, np.nanmedian)
                                         or fn.__name__.startswith("nan") else DTYPES))
    if fn in (np.argmax, np.argmin, np.nanargmax, np.nanargmin) and \
            isinstance(kwargs["axis"], tuple):
        kwargs["axis"] = kwargs["axis"][0]
    if fn is np.linalg.norm and isinstance(kwargs["axis"], tuple) and len(kwargs["axis"]) > 2:
        kwargs["axis"] = kwargs["axis"][:2]
    agree(fn, a, **kwargs)


@pytest.mark.parametrize("name", METHODS)
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_reduction_method_agrees(name, data):
    a, kwargs = data.draw(reduction_call())
    if name in ("argmax", "argmin") and isinstance(kwargs["axis"], tuple):
        kwargs["axis"] = kwargs["axis"][0]
    agree(f"method:{name}", a, **kwargs)


@given(a=arrays(DTYPES, max_dims=3, max_side=3), dtype=st.sampled_from(FLOATS + [None]),
       ddof=st.integers(0, 2), initial=st.sampled_from([None, 0, 5]),
       where=st.booleans())
@settings(max_examples=80, deadline=None)
def test_reduction_keywords(a, dtype, ddof, initial, where):
    mask = {"where": a.astype(bool)} if where else {}
    agree(np.sum, a, dtype=dtype, **mask, **({"initial": initial} if initial is not None
                                              else {}))
    agree(np.max, a, axis=-1 if a.ndim else None, **mask,
          **({"initial": initial} if initial is not None else {}))
    if a.dtype.kind != "b":
        agree(np.var, a, ddof=ddof, dtype=dtype, **mask)
        agree(np.std, a, axis=0 if a.ndim else None, ddof=ddof, keepdims=True)
    agree(np.mean, a, dtype=dtype, **mask)


@given(a=arrays(REAL, min_dims=1, max_dims=3, max_side=3), out_dtype=st.sampled_from(DTYPES))
@settings(max_examples=60, deadline=None)
def test_reduction_out(a, out_dtype):
    shape = a.shape[1:]
    agree(np.sum, a, axis=0, out=np.zeros(shape, out_dtype))
    agree(np.max, a, axis=0, out=np.zeros(shape, out_dtype))
    agree(np.argmax, a, axis=0, out=np.zeros(shape, out_dtype))
    agree(np.mean, a, axis=0, out=np.zeros(shape, out_dtype))
    agree(np.cumsum, a, axis=0, out=np.zeros(a.shape, out_dtype))
    agree(np.sum, a, axis=0, out=np.zeros(shape + (1,), out_dtype))  # wrong shape: both raise


@pytest.mark.parametrize("fn", SCANS + ["method:cumsum", "method:cumprod"], ids=str)
@settings(max_examples=40, deadline=None)
@given(a=arrays(REAL, max_dims=3, max_side=3), axis=st.sampled_from([None, 0, -1, 1, 3]),
       dtype=st.sampled_from([None, np.float32, np.int64]))
def test_scan_rule_agrees(fn, a, axis, dtype):
    agree(fn, a, axis=axis, dtype=dtype)


@given(a=arrays(REAL, max_dims=3, max_side=4), n=st.integers(0, 3),
       axis=st.sampled_from([0, -1, 1, 2]))
@settings(max_examples=60, deadline=None)
def test_diff(a, n, axis):
    agree(np.diff, a, n=n, axis=axis, may_break=n == 0)


def test_overwrite_input_breaks():
    assert agree(np.median, np.ones(4), overwrite_input=True, may_break=True) == "break"


# --------------------------------------------------------------------------- compiled

X = rand(4, 6, 5)
I16 = rand(4, 6, dtype=np.int16, seed=1)
NAN = np.where(rand(4, 6, seed=2) > 0.5, np.nan, rand(4, 6, seed=3)).astype(np.float32)

PROGRAMS = [
    ("axes", lambda x: (x.sum(), x.sum(0), x.sum(-1), x.sum((0, 2)), x.sum(axis=(-1, -3))),
     (X,)),
    ("keepdims", lambda x: (x.mean(1, keepdims=True), np.max(x, axis=(0, 1), keepdims=True)),
     (X,)),
    ("var_std_ddof", lambda x: (x.var(ddof=1), np.std(x, axis=0, ddof=2), x.std(-1)), (X,)),
    ("dtype", lambda a: (a.sum(dtype=np.int8), np.prod(a, axis=0, dtype=np.float64),
                         a.mean(dtype=np.float32)), (I16,)),
    ("arg", lambda x: (x.argmax(), np.argmin(x, axis=1), x.argmax(-1, keepdims=True)), (X,)),
    ("any_all", lambda x: ((x > 0).any(), np.all(x > -2, axis=0), np.any(x > 0.9, (0, 1))),
     (X,)),
    ("ptp_median", lambda x: (np.ptp(x, axis=1), np.median(x), np.median(x, axis=(0, 2))),
     (X,)),
    ("nan", lambda a: (np.nansum(a), np.nanmean(a, 0), np.nanmax(a, 1), np.nanmin(a),
                       np.nanstd(a), np.nanargmax(a, axis=1)), (NAN,)),
    ("initial_where", lambda x: (np.sum(x, initial=10.0, where=x > 0),
                                 np.max(x, axis=0, initial=-5.0, where=x < 0.5)), (X,)),
    ("out", lambda x: np.sum(x, axis=0, out=np.zeros((6, 5), np.float32)), (X,)),
    ("scans", lambda x: (np.cumsum(x), x.cumsum(1), np.cumprod(x, axis=-1, dtype=np.float64),
                         np.nancumsum(x, 0)), (X,)),
    ("norm", lambda x: (np.linalg.norm(x), np.linalg.norm(x, axis=-1),
                        np.linalg.norm(x[0], ord="fro"), np.linalg.norm(x[0], 2),
                        np.linalg.norm(x, ord=1, axis=(0, 1), keepdims=True)), (X,)),
    ("count_nonzero_axis", lambda x: np.count_nonzero(x > 0, axis=0), (X,)),
    ("diff", lambda x: (np.diff(x), np.diff(x, n=2, axis=0)), (X,)),
    ("scalar_results", lambda x: x.sum() / x.size + x.max() * np.float32(2), (X,)),
]


@pytest.mark.parametrize("name,fn,args", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_compiled_equals_eager(name, fn, args):
    check(fn, *args, graphs=1, breaks=0, rtol=1e-6 if name == "norm" else 0.0)


def test_empty_reduction_errors_match_eager():
    # NumPy raises for max of an empty axis; the rule refuses, the call runs eagerly
    # and raises the same error.
    check(lambda x: x.max(axis=0) + 1, np.zeros((0, 3), np.float32), graphs=0, breaks=1)
    check(lambda x: x.sum(axis=0) + 1, np.zeros((0, 3), np.float32), graphs=1, breaks=0)


FAST_CALLS = sorted(n for n in ops.REGISTRY if "numpy_call" in ops.get(n).extras)


@pytest.mark.parametrize("name", FAST_CALLS)
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_numpy_call_equals_the_function(name, data):
    """Generated code calls ``x.sum(...)`` for ``np.sum(x, ...)``: same values, dtypes,
    errors and warnings for every argument combination, and subclasses keep their own."""
    op = ops.get(name)
    a = data.draw(arrays(min_dims=0))
    kwargs = data.draw(st.fixed_dictionaries({}, optional={
        "axis": st.sampled_from([None, 0, -1, (0,), (0, -1)]),
        "keepdims": st.booleans(),
        "dtype": st.sampled_from([None, np.float64, np.int32]),
    }))
    if name not in ("sum", "prod", "mean"):   # the others have no dtype= parameter
        kwargs.pop("dtype", None)
    results = []
    for fn in (op.impl, op.extras["numpy_call"]):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                value = fn(a, **kwargs)
            except Exception as e:  # noqa: BLE001 (the error is what is compared)
                value = (type(e), str(e))
        results.append((value, [(w.category, str(w.message)) for w in caught]))
    (want, want_warnings), (got, got_warnings) = results
    assert got_warnings == want_warnings
    if isinstance(want, tuple):
        assert got == want
    else:
        assert type(got) is type(want) and np.asarray(got).dtype == np.asarray(want).dtype
        np.testing.assert_array_equal(got, want)
    masked = np.ma.masked_array([1.0, 2.0, 3.0], mask=[False, True, False])
    assert type(op.extras["numpy_call"](masked)) is type(op.impl(masked))
