"""Indexing: ``x[index]`` and ``x[index] = v`` rules agree with NumPy over random
indices (slices with steps and negatives, None, Ellipsis, integers, NumPy integers,
integer arrays and lists, constant boolean lists; traced boolean masks break), and
compiled programs index and write exactly as eager ones."""

import math

import numpy as np
import pytest
from harness import check, rand
from hypothesis import given, settings
from hypothesis import strategies as st
from ops_agree import DTYPES, agree, arrays, shapes

import dynamo


@st.composite
def index_part(draw, allow_mask=True):
    kind = draw(st.sampled_from(["int", "int", "slice", "slice", "none", "ellipsis", "intarr",
                                 "list", "npint", "boollist"] + (["mask"] if allow_mask else [])))
    if kind == "int":
        return draw(st.integers(-4, 4))
    if kind == "npint":
        return draw(st.sampled_from([np.int64(1), np.int8(-1), np.uint8(0), np.array(1)]))
    if kind == "slice":
        part = st.one_of(st.none(), st.integers(-5, 5))
        return slice(draw(part), draw(part), draw(st.sampled_from([None, 1, 2, -1, -2, 3, 0])))
    if kind == "none":
        return None
    if kind == "ellipsis":
        return Ellipsis
    if kind == "intarr":
        return draw(arrays([np.dtype("int64"), np.dtype("int8"), np.dtype("uint8")],
                           max_dims=2, max_side=3)) % 3
    if kind == "list":
        return draw(st.lists(st.integers(-2, 2), max_size=3))
    if kind == "boollist":
        return draw(st.lists(st.booleans(), min_size=1, max_size=4))
    return draw(arrays(np.dtype(bool), max_dims=2, max_side=3))


@st.composite
def indexing(draw, allow_mask=True):
    x = draw(arrays(DTYPES, max_dims=4, max_side=4))
    parts = draw(st.lists(index_part(allow_mask), max_size=4))
    index = tuple(parts) if draw(st.booleans()) or len(parts) != 1 else parts[0]
    return x, index


def _has_mask(index):
    parts = index if isinstance(index, tuple) else (index,)
    return any(isinstance(p, np.ndarray) and p.dtype == bool for p in parts)


@given(xi=indexing())
@settings(max_examples=400, deadline=None)
def test_getitem_rule_agrees(xi):
    x, index = xi
    agree("getitem", x, index, may_break=_has_mask(index))


def test_traced_boolean_mask_is_captured():
    """``x[mask]`` has an unbacked size (docs/unbacked.md): one graph, no break."""
    x = np.ones((3, 4), np.float32)
    report = dynamo.explain(lambda x: x[x > 0] * 2, backend="eager")(x)
    assert report.graph_break_count == 0 and report.graph_count == 1


def test_array_slice_bound_is_a_data_size_or_a_break():
    """A traced 0-d integer slice bound with step 1: one op whose length is an unbacked
    size (issue #19, tests/translator/test_slice_bound_sizes.py); another step or a
    float bound breaks instead of guessing."""
    x = np.arange(10.0)
    assert agree("getitem", x, slice(np.int64(3), None)) == "captured"
    assert agree("getitem", x, slice(np.int64(3), None, 2), may_break=True) == "break"
    assert agree("getitem", x, slice(np.float64(3), None), may_break=True) in ("break",
                                                                                "raised")
    check(lambda x: x[:np.argmax(x) - 4] * 2, x, breaks=0)
    check(lambda x: x[:np.argmax(x) - 4:2] * 2, x, breaks=1)


@given(xi=indexing(allow_mask=False), data=st.data())
@settings(max_examples=300, deadline=None)
def test_setitem_rule_agrees(xi, data):
    x, index = xi
    try:
        target = x[index].shape
    except Exception:  # noqa: BLE001
        target = data.draw(shapes(max_dims=2, max_side=3))
    value = data.draw(st.one_of(
        st.sampled_from([0, 1.5, -1, True, np.float32(2), np.nan, 300, 1j]),
        arrays(DTYPES, shape=st.just(target)),
        arrays(DTYPES, shape=st.just((1,) + tuple(target))),
        arrays(DTYPES, shape=st.just(target[1:])),
        arrays(DTYPES, max_dims=3, max_side=3)))
    complex_into_real = isinstance(value, (complex, np.ndarray)) and np.iscomplexobj(value) \
        and x.dtype.kind != "c"
    one_element = np.ndim(value) > 0 and np.ndim(_safe_index(x, index)) == 0
    selected = np.shape(_safe_index(x, index))
    extra_dims_into_empty = math.prod(selected) == 0 and np.ndim(value) > len(selected)
    agree("setitem", x, index, value,
          may_break=complex_into_real or one_element or extra_dims_into_empty)


def _safe_index(x, index):
    try:
        return x[index]
    except Exception:  # noqa: BLE001
        return x


@given(x=arrays(DTYPES, min_dims=1, max_dims=3, max_side=3), data=st.data())
@settings(max_examples=150, deadline=None)
def test_setitem_with_a_mask(x, data):
    nd = data.draw(st.integers(1, x.ndim))
    mask = data.draw(arrays(np.dtype(bool), shape=st.just(x.shape[:nd])))
    row = x.shape[nd:]
    value = data.draw(st.one_of(st.sampled_from([0, 2.5, True]),
                                arrays(DTYPES, shape=st.just(row)),
                                arrays(DTYPES, shape=st.just(())),
                                arrays(DTYPES, max_dims=2, max_side=3)))
    agree("setitem", x, mask, value, may_break=True)
    # A scalar (or a value shaped like one selected row) always fits: captured.
    if not (isinstance(value, np.ndarray) and value.ndim > len(row)) and \
            not (np.iscomplexobj(value) and x.dtype.kind != "c"):
        if isinstance(value, np.ndarray) and value.shape != row and value.ndim:
            return
        assert agree("setitem", x, mask, value) in ("captured", "data_error")


@given(x=arrays(DTYPES, max_dims=3, max_side=3), data=st.data())
@settings(max_examples=150, deadline=None)
def test_flat_rules_agree(x, data):
    n = x.size
    index = data.draw(st.one_of(
        st.integers(-n - 1, n + 1), st.lists(st.integers(-n, max(n - 1, 0)), max_size=3),
        st.builds(slice, st.one_of(st.none(), st.integers(-5, 5)),
                  st.one_of(st.none(), st.integers(-5, 5)), st.sampled_from([None, 2, -1])),
        st.just(Ellipsis), arrays([np.dtype("int64")], max_dims=2, max_side=3)
        .map(lambda i: i % max(n, 1))))
    agree("flat_getitem", x, index)
    value = data.draw(st.sampled_from([0, 1.5, [1, 2], np.arange(3)]))
    try:
        one = np.ndim(x.flat[index]) == 0
    except Exception:  # noqa: BLE001
        one = False
    # A sequence into one element: NumPy raises, or (bool arrays) converts it: a break.
    agree("flat_setitem", x, index, value, may_break=one and np.ndim(value) > 0)


# --------------------------------------------------------------------------- compiled

X = rand(5, 6)
T = rand(3, 4, 5, seed=1)
IDX = np.array([[0, 2], [4, 1]])

PROGRAMS = [
    ("basic", lambda x: (x[1], x[-1, 2:], x[::2, ::-1], x[4:1:-2], x[..., 3], x[None, 1:, None],
                         x[np.newaxis], x[...], x[1, 2], x[-1][-1]), (X,)),
    ("fancy", lambda x, i: (x[i], x[[0, 4, 1]], x[:, [1, 1, 0]], x[i, i], x[[1, 2], [3, 4]],
                            x[i, 1:3], x[1, [0, 5]]), (X, IDX)),
    ("fancy_non_adjacent", lambda t, i: (t[i, :, i], t[:, [0, 1], [2, 3]], t[[0], ..., [1]]),
     (T, IDX % 2)),
    ("const_bool_list", lambda x: x[[True, False, True, False, True]], (X,)),
    ("scalar_index", lambda x: x[x.argmax() // 6] + x[np.int64(2)], (X,)),
    ("setitem_forms", lambda x, i: _setitems(x, i), (X, IDX)),
    ("mask_assign", lambda x: _mask_assign(x), (X,)),
    ("flat", lambda x: _flat(x), (X,)),
]


def _flat(x):
    a, b, c = x.flat[3], x.flat[1:5], x.flat[[0, -1]]
    x.flat[2:9] = [7.0, 8.0]     # values repeat to fill the selection
    x.flat[0] = a * 2
    x.T.flat[::7] = -1.0         # flat order of a view
    return a, b, c, x


def _setitems(x, i):
    y = x.copy()
    y[0] = 1.0
    y[1, ::2] = -1.0
    y[..., -1] = y[..., 0]
    y[i] = 7.0
    y[[0, 3], 1:3] = np.array([[1.0, 2.0]])
    y[None, 2] = y[3]
    y[:, None, 4] = 9
    return y


def _mask_assign(x):
    y = x * 2
    y[y > 0.5] = 0.5
    y[x < -0.5] = x.min()
    x[x > 0.9] = -1
    return x, y


@pytest.mark.parametrize("name,fn,args", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_compiled_equals_eager(name, fn, args):
    check(fn, *args, graphs=1, breaks=0)


def test_index_errors_match_eager():
    check(lambda x: x[7] + 1, X, breaks=1)          # IndexError, raised eagerly
    check(lambda x: x[1, 2, 3], X, breaks=1)        # too many indices
    check(lambda x, i: x[i] + 1, X, np.array([9]), graphs=1, breaks=0)  # at run time
