"""Selection (take, take_along_axis, choose, select, searchsorted) and the in-place
writers (copyto, putmask, place, put, fill, fill_diagonal) agree with NumPy; compiled
programs equal eager ones and write where eager writes."""

import numpy as np
import pytest
from harness import check, rand
from hypothesis import given, settings
from hypothesis import strategies as st
from ops_agree import DTYPES, agree, arrays

INTS = [np.dtype(t) for t in ("int8", "int32", "int64", "uint8", "intp")]


@given(a=arrays(DTYPES, max_dims=3, max_side=3),
       idx=st.one_of(st.integers(-4, 4), st.lists(st.integers(-3, 3), max_size=3),
                     arrays(INTS, max_dims=2, max_side=3).map(lambda i: i % 2),
                     arrays(DTYPES, max_dims=1, max_side=2)),
       axis=st.sampled_from([None, 0, -1, 1, 3]), mode=st.sampled_from(["raise", "wrap", "clip"]))
@settings(max_examples=150, deadline=None)
def test_take(a, idx, axis, mode):
    try:
        empty_axis = a.size == 0 if axis is None else a.shape[axis] == 0
    except IndexError:
        empty_axis = False
    if mode == "wrap" and empty_axis and np.size(idx):
        # NumPy 2.4 loops forever on np.take(np.zeros((0, 0)), [0], axis=0, mode='wrap')
        assert agree(np.take, a, [], axis=axis, mode=mode) != "break"
        mode = "raise"
    agree(np.take, a, idx, axis=axis, mode=mode)
    agree("method:take", a, idx, axis)


@given(a=arrays(DTYPES, min_dims=1, max_dims=3, max_side=3), data=st.data())
@settings(max_examples=100, deadline=None)
def test_take_along_axis(a, data):
    axis = data.draw(st.sampled_from([None, 0, -1, 1, 3]))
    shape = data.draw(st.lists(st.integers(0, 3), min_size=a.ndim, max_size=a.ndim))
    if data.draw(st.booleans()):  # broadcast-compatible index shape
        shape = [data.draw(st.sampled_from([d, 1, 2])) for d in a.shape]
    if axis is None:
        shape = shape[:1]
    idx = data.draw(arrays(INTS, shape=st.just(tuple(shape)))) % 2
    agree(np.take_along_axis, a, idx, axis=axis)
    agree(np.take_along_axis, a, idx.astype(np.float32), axis=axis)


@given(a=arrays(INTS, max_dims=2, max_side=3).map(lambda i: i % 2),
       c0=arrays(DTYPES, max_dims=2, max_side=3), c1=arrays(DTYPES, max_dims=2, max_side=3),
       mode=st.sampled_from(["raise", "wrap", "clip"]))
@settings(max_examples=100, deadline=None)
def test_choose(a, c0, c1, mode):
    agree(np.choose, a, [c0, c1], mode=mode)
    agree(np.choose, a, (c0, 2.5))
    agree("method:choose", a, [c0, c1])


@given(c0=arrays(np.dtype(bool), max_dims=2, max_side=3),
       c1=arrays(DTYPES, max_dims=2, max_side=3), x0=arrays(DTYPES, max_dims=2, max_side=3),
       x1=arrays(DTYPES, max_dims=2, max_side=3), default=st.sampled_from([0, 1.5, np.nan]))
@settings(max_examples=100, deadline=None)
def test_select(c0, c1, x0, x1, default):
    agree(np.select, [c0, c1 > 0], [x0, x1], default)
    agree(np.select, [c0, c1], [x0, x1])  # c1 not boolean: both raise
    agree(np.select, [c0], [x0, x1])      # lengths differ: both raise


@given(a=arrays([d for d in DTYPES if d.kind in "iuf"], min_dims=1, max_dims=2, max_side=4),
       v=st.one_of(st.sampled_from([0, 1.5, [1, 2]]), arrays(DTYPES, max_dims=2, max_side=3)),
       side=st.sampled_from(["left", "right"]))
@settings(max_examples=80, deadline=None)
def test_searchsorted(a, v, side):
    agree(np.searchsorted, a, v, side=side)
    agree("method:searchsorted", a, v, side)


@given(dst=arrays(DTYPES, max_dims=3, max_side=3), src=arrays(DTYPES, max_dims=3, max_side=3),
       casting=st.sampled_from(["same_kind", "unsafe", "safe", "no"]),
       data=st.data())
@settings(max_examples=120, deadline=None)
def test_writers(dst, src, casting, data):
    agree(np.copyto, dst, src, casting=casting)
    agree(np.copyto, dst, 1.5, where=dst.astype(bool))
    mask = data.draw(arrays(np.dtype(bool), shape=st.just(dst.shape)))
    agree(np.putmask, dst, mask, src)
    agree(np.putmask, dst, mask[..., :1] if dst.ndim else mask, 2)
    agree(np.place, dst, mask, [1, 2])
    agree(np.put, dst, [0, -1], 3, mode="clip")
    agree("method:fill", dst, 2)
    agree("method:fill", dst, src[()] if src.ndim == 0 else 0.5)


# --------------------------------------------------------------------------- compiled

X = rand(4, 5)
IDX = (np.arange(6) % 4).reshape(2, 3)
K = rand(4, 5, dtype=np.int64, seed=3, low=0.0, high=0.4)

PROGRAMS = [
    ("take", lambda x, i: (np.take(x, i), np.take(x, i, axis=0), x.take([1, 0], 1),
                           np.take(x, 7), np.take(x, [9, -1], mode="wrap")), (X, IDX)),
    ("take_along_axis", lambda x: np.take_along_axis(x, np.argsort(x, axis=1), axis=1), (X,)),
    ("take_along_axis_max", lambda x: np.take_along_axis(
        x, np.argmax(x, axis=0, keepdims=True), axis=0), (X,)),
    ("choose", lambda k, x: (np.choose(k, [x, -x, 2 * x, x * x]), k.choose([x, x + 1, x, x])),
     (K, X)),
    ("select", lambda x: np.select([x < -0.5, x > 0.5], [x * 10, x * 100], default=x), (X,)),
    ("searchsorted", lambda x: np.searchsorted(np.sort(x[0]), x[1:]), (X,)),
    ("copyto", lambda x: _copyto(x), (X,)),
    ("putmask_place_put", lambda x: _writes(x), (X,)),
]


def _copyto(x):
    y = np.zeros_like(x)
    r = np.copyto(y, x, where=x > 0)
    np.copyto(x[0], 7.0)
    return y, r, x


def _writes(x):
    y = x.copy()
    np.putmask(y, y > 0, 0.0)
    np.place(x, x < 0, [1.0, 2.0])
    np.put(y, [0, 3], [5.0, 6.0])
    y.fill(3) if False else None
    z = np.empty(3)
    z.fill(4.5)
    return x, y, z


@pytest.mark.parametrize("name,fn,args", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_compiled_equals_eager(name, fn, args):
    check(fn, *args, graphs=1, breaks=0)


def test_out_of_bounds_index_array_raises_like_eager():
    # The bound is checked when the graph runs, by NumPy: the same IndexError.
    check(lambda x, i: np.take(x, i) + 1, X, np.array([0, 99]), graphs=1, breaks=0)


# --------------------------------------------------------------------------- fill_diagonal

@given(a=arrays(DTYPES, max_dims=4, max_side=3),
       val=st.one_of(st.sampled_from([0, 2.5, -1, 1j, [], [1, 2], float("nan")]),
                     arrays(DTYPES, max_dims=2, max_side=3)),
       wrap=st.booleans())
@settings(max_examples=120, deadline=None)
def test_fill_diagonal(a, val, wrap):
    if a.ndim > 2 and len(set(a.shape)) != 1 and a.size and a.ndim < 4:
        a = np.zeros((a.shape[0],) * a.ndim, a.dtype)   # mostly the shapes it accepts
    agree(np.fill_diagonal, a, val, wrap)


def test_fill_diagonal_writes_in_place_and_returns_none():
    def f(x, v):
        d = x[:, :3]                        # a view sees the write
        r = np.fill_diagonal(x, v)
        tall = np.zeros((7, 3))
        np.fill_diagonal(tall, 5.0, wrap=True)
        return r, x * 1, d + 0, tall

    check(f, rand(4, 4), rand(2), graphs=1, breaks=0)
    check(f, rand(4, 4), 3.0, graphs=1, breaks=0)
