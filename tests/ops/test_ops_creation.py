"""Creation functions agree with NumPy (shapes from arguments, dtypes from NumPy itself);
arrays from constants, from traced arrays and from lists mixing both; compiled
programs equal eager ones."""

import numpy as np
import pytest
from harness import check, rand
from hypothesis import given, settings
from hypothesis import strategies as st
from ops_agree import DTYPES, agree, arrays, shapes

DT = st.sampled_from([None, np.float32, np.int8, bool, "f8", np.complex64])


@given(shape=st.one_of(st.integers(-1, 4), shapes(max_dims=3, max_side=3)), dtype=DT,
       fill=st.sampled_from([0, 1.5, True, -3, 2j]))
@settings(max_examples=100, deadline=None)
def test_zeros_ones_empty_full(shape, dtype, fill):
    for fn in (np.zeros, np.ones, np.empty):
        agree(fn, shape, dtype=dtype)
    agree(np.full, shape, fill, dtype=dtype)
    agree(np.full, shape, np.float32(fill.real))


@given(a=arrays(DTYPES, max_dims=3, max_side=3), dtype=DT,
       shape=st.one_of(st.none(), shapes(max_dims=2, max_side=3)))
@settings(max_examples=100, deadline=None)
def test_like(a, dtype, shape):
    for fn in (np.zeros_like, np.ones_like, np.empty_like):
        agree(fn, a, dtype=dtype, shape=shape)
    agree(np.full_like, a, 7, dtype=dtype)
    agree(np.full_like, a, a, shape=shape)  # a traced fill value
    agree(np.full, a.shape, a[..., :1] if a.ndim else a)
    agree(np.copy, a)
    agree(np.copy, a, order="F")
    agree("method:copy", a)
    agree("method:copy", a[()] if a.ndim == 0 else a)


@given(args=st.sampled_from([(5,), (0,), (-3,), (2, 9), (2, 9, 3), (9, 2, -2), (0.5, 3.0, 0.25),
                             (1, 2, 0.1), (3, 1), (10000,), (0, 20000, 3), (5.5,)]),
       dtype=st.sampled_from([None, np.float32, np.int16]))
@settings(max_examples=60, deadline=None)
def test_arange(args, dtype):
    agree(np.arange, *args, dtype=dtype)


@given(start=st.one_of(st.sampled_from([0, 1.5, -2]), arrays(DTYPES, max_dims=2, max_side=3)),
       stop=st.one_of(st.sampled_from([1, 10.0]), arrays(DTYPES, max_dims=2, max_side=3)),
       num=st.integers(-1, 6), endpoint=st.booleans(), axis=st.integers(-3, 2),
       dtype=st.sampled_from([None, np.float32, np.int32]))
@settings(max_examples=100, deadline=None)
def test_linspace_logspace(start, stop, num, endpoint, axis, dtype):
    agree(np.linspace, start, stop, num, endpoint=endpoint, axis=axis, dtype=dtype)
    agree(np.logspace, start, stop, num, endpoint=endpoint, axis=axis, base=2.0)


@given(n=st.integers(-1, 5), m=st.one_of(st.none(), st.integers(0, 5)), k=st.integers(-2, 2),
       dtype=DT)
@settings(max_examples=60, deadline=None)
def test_eye_identity_tri(n, m, k, dtype):
    agree(np.eye, n, m, k, dtype=dtype or float)
    agree(np.identity, n, dtype=dtype)
    agree(np.tri, n, m, k, dtype=dtype or float)


@given(a=arrays(DTYPES, max_dims=3, max_side=3), dtype=DT, ndmin=st.integers(0, 4),
       copy=st.sampled_from([True, False, None]))
@settings(max_examples=100, deadline=None)
def test_array_asarray_of_arrays(a, dtype, ndmin, copy):
    agree(np.array, a, dtype=dtype, ndmin=ndmin, copy=copy)
    agree(np.asarray, a, dtype=dtype, copy=copy)
    agree(np.asanyarray, a)
    agree(np.array, [a, a])
    agree(np.array, (a, np.zeros_like(a)), dtype=dtype)
    agree(np.array, [[a], [a]])
    agree(np.array, [a, a[..., None]] if a.ndim else [a, 2.5])  # ragged (or scalars)
    if a.ndim == 0:
        agree(np.array, [a, 1, 2.5, True])
        agree(np.array, [a[()], 3])


@given(value=st.sampled_from([1, 2.5, [1, 2], [[1.0, 2], [3, 4j]], (True, False), [], [[]],
                              [1, [2, 3]], "s", None]), dtype=DT)
@settings(max_examples=40, deadline=None)
def test_array_of_constants(value, dtype):
    agree(np.array, value, dtype=dtype)
    agree(np.asarray, value)


# --------------------------------------------------------------------------- compiled

X = rand(3, 4)
S = rand(dtype=np.float32)  # 0-d

PROGRAMS = [
    ("zeros_ones_full", lambda x: (x + np.zeros((3, 4)), np.ones(4, np.int8) * x,
                                   np.full((3, 1), 2.0, np.float32) + x, np.full(4, x[0, 0])),
     (X,)),
    ("like", lambda x: (np.zeros_like(x), np.ones_like(x, dtype=np.int32),
                        np.full_like(x, 0.5), np.empty_like(x).shape, np.zeros_like(x, shape=(2,))),
     (X,)),
    ("arange_linspace", lambda x: (x + np.arange(4), np.arange(0.0, 1.0, 0.25, np.float32) * x,
                                   np.linspace(0, 1, 4) + x, np.linspace(x[0], x[1], 5, axis=-1),
                                   np.logspace(0, 2, 4)), (X,)),
    ("eye_identity_tri", lambda x: (x @ np.eye(4), np.identity(3) @ x, np.tri(3, 4, -1) * x,
                                    np.eye(3, 4, k=1, dtype=np.int8)), (X,)),
    ("array_constants", lambda x: x + np.array([1.0, 2, 3, 4]) + np.asarray([[1], [2], [3]]),
     (X,)),
    ("array_traced", lambda x: (np.array(x), np.asarray(x, dtype=np.float64),
                                np.array([x[0], x[1]]), np.array([x.sum(), 2.0, x.max()]),
                                np.array(x, ndmin=3)), (X,)),
    ("asarray_of_scalar", lambda s: np.asarray(s.sum()) + 1, (S,)),
    ("copy", lambda x: (np.copy(x), x.copy(), x.T.copy(order="F")), (X,)),
]


@pytest.mark.parametrize("name,fn,args", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_compiled_equals_eager(name, fn, args):
    check(fn, *args, graphs=1, breaks=0)


def test_asarray_of_an_array_is_the_same_object():
    import dynamo

    x = rand(3)
    assert dynamo.compile(lambda x: np.asarray(x), backend="eager")(x) is x
    y = dynamo.compile(lambda x: np.array(x), backend="eager")(x)
    assert y is not x and not np.shares_memory(x, y)


def test_copy_is_not_a_view():
    def f(x):
        y = x.copy()
        y[0] = 100.0
        z = np.copy(x)
        z[1] = -100.0
        return x, y, z

    check(f, rand(4), graphs=1, breaks=0)


@given(a=arrays(DTYPES, max_dims=3, max_side=3),
       dtype=st.sampled_from([None, np.float32, np.int8, bool]), scalar=st.booleans())
@settings(max_examples=80, deadline=None)
def test_ascontiguousarray_asfortranarray(a, dtype, scalar):
    x = a[()] if scalar and a.ndim == 0 else a
    agree(np.ascontiguousarray, x, dtype=dtype)
    agree(np.asfortranarray, x, dtype)


@given(xs=st.lists(st.one_of(arrays(DTYPES, max_dims=2, max_side=3),
                             st.lists(st.integers(0, 3), max_size=3)), min_size=1, max_size=4),
       indexing=st.sampled_from(["xy", "ij", "bogus"]), sparse=st.booleans())
@settings(max_examples=100, deadline=None)
def test_meshgrid(xs, indexing, sparse):
    agree(np.meshgrid, *xs, indexing=indexing, sparse=sparse)
    agree(np.meshgrid, *xs)
    assert agree(np.meshgrid, *xs, copy=False, may_break=True) in ("break", "raised")


def test_contiguous_and_grids_compiled():
    import dynamo

    def f(x):
        u, v = np.meshgrid(x[0], x[:, 0])
        gi = np.meshgrid(x[0], x[:, 0], np.arange(2), indexing="ij", sparse=True)
        return np.ascontiguousarray(x.T), np.asfortranarray(x), u * v, gi

    check(f, X, graphs=1, breaks=0)
    x = rand(3, 4)
    assert dynamo.compile(lambda x: np.ascontiguousarray(x),
                          backend="eager")(x) is x   # as NumPy does
    t = dynamo.compile(lambda x: np.ascontiguousarray(x.T), backend="eager")(x)
    assert t.flags.c_contiguous and not np.shares_memory(t, x)
