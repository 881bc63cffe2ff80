"""cov, corrcoef, average, block, append, insert, delete, isin, kron, cross, partition,
gradient, trapezoid, indices, triu/tril_indices, linalg.multi_dot and ufunc.reduceat:
the rules agree with NumPy over shapes (0-d and 0-size included), dtypes and options;
compiled programs are one graph with no break and equal eager NumPy on both backends;
what depends on values breaks and says why."""

import numpy as np
import pytest
from harness import check, rand
from hypothesis import given, settings
from hypothesis import strategies as st
from ops_agree import DTYPES, agree, arrays

import dynamo

NUM = [d for d in DTYPES if d.kind != "b"]
REAL = [d for d in NUM if d.kind != "c"]
FEW = [np.dtype(t) for t in ("bool", "int8", "int64", "uint16", "float32", "float64",
                             "complex64")]


# --------------------------------------------------------------------------- statistics

@given(m=arrays(FEW, max_dims=3, max_side=3), y=st.one_of(st.none(), arrays(FEW, max_dims=2,
                                                                       max_side=3)),
       rowvar=st.booleans(), bias=st.booleans(), ddof=st.sampled_from([None, 0, 2, 1.5]),
       dtype=st.sampled_from([None, np.float32]))
@settings(max_examples=200, deadline=None)
def test_cov_corrcoef(m, y, rowvar, bias, ddof, dtype):
    agree(np.cov, m, y, rowvar=rowvar, bias=bias, ddof=ddof, dtype=dtype)
    agree(np.corrcoef, m, y, rowvar=rowvar, dtype=dtype)


@given(n=st.integers(0, 4), obs=st.integers(0, 4), weights=st.sampled_from(
    ["f", "a", "fa", "bad"]))
@settings(max_examples=60, deadline=None)
def test_cov_weights(n, obs, weights):
    m = np.arange(n * obs, dtype=np.float64).reshape(n, obs)
    w = np.arange(1, obs + 1) if weights != "bad" else np.ones(obs + 1)
    kw = {"fweights": w} if "f" in weights or weights == "bad" else {}
    if "a" in weights:
        kw["aweights"] = w * 0.5
    agree(np.cov, m, **kw)


@given(a=st.one_of(arrays(FEW, max_dims=3, max_side=3), st.sampled_from([3, [1, 2], 2.5])),
       axis=st.sampled_from([None, 0, -1, (0, 1), 3]), weighted=st.sampled_from(
           [None, "full", "axis"]), returned=st.booleans(),
       keepdims=st.sampled_from([None, True, False]))
@settings(max_examples=200, deadline=None)
def test_average(a, axis, weighted, returned, keepdims):
    shape = np.shape(a)
    weights = None
    if weighted == "full":
        weights = np.ones(shape, np.float32)
    elif weighted == "axis" and isinstance(axis, int) and -len(shape) <= axis < len(shape):
        weights = np.arange(1, shape[axis] + 1)
    kw = {} if keepdims is None else {"keepdims": keepdims}
    agree(np.average, a, axis=axis, weights=weights, returned=returned, **kw)


# --------------------------------------------------------------------------- editing

@given(arr=arrays(FEW, max_dims=3, max_side=3),
       values=st.one_of(arrays(FEW, max_dims=3, max_side=3), st.sampled_from([5, 2.5, [1, 2]])),
       axis=st.sampled_from([None, 0, 1, -1, 3]))
@settings(max_examples=200, deadline=None)
def test_append(arr, values, axis):
    agree(np.append, arr, values, axis=axis)
    agree(np.append, arr, arr[:1] if arr.ndim else arr, axis=axis)


OBJS = st.one_of(st.integers(-4, 4), st.sampled_from(
    [slice(None), slice(1, None), slice(None, None, 2), slice(3, 0, -1), [0], [1, 0, 1],
     [], [-1, 2], [True, False, True], np.int64(1), [[0]], 1.5]))


@given(arr=arrays(FEW, max_dims=3, max_side=3), obj=OBJS,
       values=st.one_of(arrays(FEW, max_dims=2, max_side=3), st.sampled_from([7, [1, 2], 0.5])),
       axis=st.sampled_from([None, 0, 1, -1, 3]))
@settings(max_examples=300, deadline=None)
def test_insert_delete(arr, obj, values, axis):
    # complex values written into a real array warn: the shared setitem rule breaks
    warns = np.iscomplexobj(values) and not np.iscomplexobj(arr)
    agree(np.insert, arr, obj, values, axis=axis, may_break=warns)
    agree(np.delete, arr, obj, axis=axis)
    # a traced index array: insert knows its count; delete only for one integer
    traced = np.asarray(obj) if not isinstance(obj, slice) else None
    if traced is not None and traced.dtype.kind in "iu":
        agree(np.insert, arr, traced, values, axis=axis, may_break=warns)
        may = traced.size != 1
        assert agree(np.delete, arr, traced, axis=axis, may_break=may) in (
            "captured", "raised", "data_error", "break")


def test_delete_of_traced_indices():
    """A traced index array or mask: the result's length is an unbacked size (captured,
    docs/unbacked.md); insert with a traced mask still breaks."""
    arr = np.arange(6.0)
    assert agree(np.delete, arr, np.array([1, 1, 2])) == "captured"
    assert agree(np.delete, arr.reshape(3, 2), np.arange(3) > 1, axis=0) == "captured"
    assert agree(np.delete, arr, np.arange(6) > 2) == "captured"
    assert agree(np.delete, arr, np.arange(5) > 2) == "raised"   # the mask's length
    assert agree(np.insert, arr, np.arange(6) > 2, 0.0, may_break=True) == "break"


@given(a=arrays(FEW, max_dims=2, max_side=3), b=arrays(FEW, max_dims=2, max_side=3),
       layout=st.sampled_from(["row", "grid", "leaf", "nested", "tuple", "empty", "scalar",
                               "mixed"]))
@settings(max_examples=200, deadline=None)
def test_block(a, b, layout):
    blocks = {"row": lambda: [a, b], "grid": lambda: [[a, b], [b, a]], "leaf": lambda: a,
              "nested": lambda: [[[a]], [[b]]], "tuple": lambda: (a, b), "empty": lambda: [],
              "scalar": lambda: [a, 2.0], "mixed": lambda: [[a], b]}[layout]()
    agree(np.block, blocks)
    square = np.ones((2, 2), a.dtype)
    agree(np.block, [[square, np.zeros((2, 1), b.dtype)], [np.ones((1, 3)), ]])


# --------------------------------------------------------------------------- isin, partition

@given(element=st.one_of(arrays(FEW, max_dims=3, max_side=3), st.sampled_from([3, 1.5])),
       test=st.one_of(arrays(FEW, max_dims=2, max_side=3), st.sampled_from([[1, 2], 0])),
       invert=st.booleans(), kind=st.sampled_from([None, "sort", "table"]))
@settings(max_examples=200, deadline=None)
def test_isin(element, test, invert, kind):
    agree(np.isin, element, test, invert=invert, kind=kind, may_break=kind == "table")


@given(a=arrays(FEW, max_dims=3, max_side=4), kth=st.sampled_from(
    [0, 1, -1, 3, [0, 1], True, 1.0, [], (0, -1)]), axis=st.sampled_from([None, 0, -1, 2]))
@settings(max_examples=200, deadline=None)
def test_partition(a, kth, axis):
    agree(np.partition, a, kth, axis=axis)
    agree(np.argpartition, a, kth, axis=axis)
    agree("method:argpartition", a, kth, axis=axis)


# --------------------------------------------------------------------------- products

@given(a=st.one_of(arrays(FEW, max_dims=3, max_side=3), st.sampled_from([2, [1, 2]])),
       b=st.one_of(arrays(FEW, max_dims=3, max_side=3), st.sampled_from([3.0, [[1], [2]]])))
@settings(max_examples=200, deadline=None)
def test_kron(a, b):
    agree(np.kron, a, b)


@given(sa=st.lists(st.integers(0, 3), min_size=0, max_size=3),
       sb=st.lists(st.integers(0, 3), min_size=0, max_size=3),
       na=st.sampled_from([2, 3, 4]), nb=st.sampled_from([2, 3]),
       axes=st.sampled_from([{}, {"axisa": 0}, {"axisc": 0}, {"axis": 0}, {"axisb": -2},
                             {"axisc": 5}]),
       dtypes=st.sampled_from([("f8", "f4"), ("i4", "i8"), ("c8", "f8"), ("?", "?")]))
@settings(max_examples=200, deadline=None)
def test_cross(sa, sb, na, nb, axes, dtypes):
    a = np.ones(tuple(sa) + (na,), dtypes[0])
    b = np.ones(tuple(sb) + (nb,), dtypes[1])
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        agree(np.cross, a, b, **axes)


@given(shapes=st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), min_size=1,
                       max_size=5),
       first_1d=st.booleans(), last_1d=st.booleans(), mismatch=st.booleans(),
       dtype=st.sampled_from(FEW))
@settings(max_examples=150, deadline=None)
def test_multi_dot(shapes, first_1d, last_1d, mismatch, dtype):
    dims = [shapes[0][0]] + [s[1] for s in shapes]
    mats = [np.ones((dims[i], dims[i + 1]), dtype) for i in range(len(shapes))]
    if mismatch:
        mats.append(np.ones((dims[-1] + 1, 2), dtype))
    if first_1d:
        mats[0] = mats[0][0] if mats[0].shape[0] else np.ones(mats[0].shape[1], dtype)
    if last_1d and len(mats) > 1:
        mats[-1] = np.ones(mats[-1].shape[0], dtype)
    agree(np.linalg.multi_dot, mats)


# --------------------------------------------------------------------------- calculus

@given(f=arrays(FEW, max_dims=3, max_side=4), spacing=st.sampled_from(
    ["none", "scalar", "coords", "mixed", "bad"]), axis=st.sampled_from([None, 0, -1, (0, 1)]),
       edge_order=st.sampled_from([1, 2, 3]))
@settings(max_examples=200, deadline=None)
def test_gradient(f, spacing, axis, edge_order):
    axes = list(range(f.ndim)) if axis is None else ([axis] if isinstance(axis, int)
                                                       else list(axis))
    try:
        lengths = [f.shape[ax] for ax in axes]
    except IndexError:
        lengths = []
    args = {"none": [], "scalar": [0.5], "bad": [1.0, 2.0, 3.0, 4.0],
            "coords": [np.linspace(0, 1, n) ** 2 for n in lengths],
            "mixed": [np.arange(n) if i == 0 else 2.0 for i, n in enumerate(lengths)]}[spacing]
    # a boolean f fails or not by whether the coordinates are evenly spaced: a break
    agree(np.gradient, f, *args, axis=axis, edge_order=edge_order, may_break=f.dtype == bool)


@given(y=st.one_of(arrays(FEW, max_dims=3, max_side=4), st.sampled_from([[1, 2, 3]])),
       x=st.one_of(st.none(), arrays(REAL, min_dims=1, max_dims=3, max_side=4)),
       dx=st.sampled_from([1.0, 2, np.float32(0.5)]), axis=st.sampled_from([-1, 0, 1, 3]))
@settings(max_examples=200, deadline=None)
def test_trapezoid(y, x, dx, axis):
    agree(np.trapezoid, y, x, dx=dx, axis=axis)
    if isinstance(y, np.ndarray) and y.ndim and -y.ndim <= axis < y.ndim:
        agree(np.trapezoid, y, np.arange(y.shape[axis]), axis=axis)


# --------------------------------------------------------------------------- index grids

@given(dims=st.lists(st.integers(0, 4), max_size=3), dtype=st.sampled_from([int, "f4", "i2"]),
       sparse=st.booleans(), n=st.integers(-1, 5), k=st.integers(-6, 6),
       m=st.one_of(st.none(), st.integers(0, 5)))
@settings(max_examples=200, deadline=None)
def test_index_grids(dims, dtype, sparse, n, k, m):
    agree(np.indices, tuple(dims), dtype=dtype, sparse=sparse)
    agree(np.triu_indices, n, k, m)
    agree(np.tril_indices, n, k=k, m=m)
    if n >= 0:
        a = np.ones((n, m if m is not None else n))
        agree(np.triu_indices_from, a, k)
        agree(np.tril_indices_from, a, k=k)
    agree(np.tril_indices_from, np.ones(3))


# --------------------------------------------------------------------------- reduceat

@given(a=arrays(FEW, max_dims=3, max_side=4), indices=st.sampled_from(
    [[0], [0, 2], [1, 0, 3], [], [[0]], [5], [0.0]]), axis=st.sampled_from([0, -1, 2, 4]),
       ufunc=st.sampled_from([np.add, np.maximum, np.multiply, np.logical_and]),
       dtype=st.sampled_from([None, np.float64]))
@settings(max_examples=200, deadline=None)
def test_reduceat(a, indices, axis, ufunc, dtype):
    from dynamo import ops

    op, _ = ops.lookup_ufunc_method(ufunc, "reduceat")
    kw = {"axis": axis} if dtype is None else {"axis": axis, "dtype": dtype}
    agree(op.name, ufunc, a, np.asarray(indices, dtype=None if indices != [] else np.intp),
          **kw)


# --------------------------------------------------------------------------- compiled

X = rand(6, 4, dtype=np.float64)
V = rand(5, 3, dtype=np.float64, seed=1)


def statistics(x):
    return (np.cov(x), np.cov(x, rowvar=False, bias=True), np.corrcoef(x),
            np.corrcoef(x[0], x[1]), np.cov(x[:, 0], x[:, 1], ddof=0),
            np.average(x), np.average(x, axis=0, weights=np.arange(1.0, x.shape[0] + 1.0)),
            np.average(x, axis=1, returned=True), np.cov(x, fweights=np.arange(1, x.shape[1] + 1)))


def editing(x, v):
    return (np.append(x, x[:2], axis=0), np.append(x, 1.0), np.insert(x, 1, 0.0, axis=1),
            np.insert(x, [0, 2, 2], v[0, 0], axis=0), np.insert(x.ravel(), slice(0, 3), 5.0),
            np.delete(x, 1, axis=0), np.delete(x, [0, 2], axis=1), np.delete(x, slice(1, 4)),
            np.block([[x, x], [x, x]]), np.block([x[:2, :3], v[:2]]))


def selecting(x, v):
    return (np.isin(x, v), np.isin(np.round(x * 4), [0.0, 1.0], invert=True),
            np.partition(x, 2, axis=0), np.argpartition(x.ravel(), [1, 3]),
            x.argpartition(1), np.partition(x, -1, axis=None))


def products(x, v):
    u = v[:, :3]
    return (np.kron(x[:2, :2], np.eye(2)), np.kron(x[0], 2.0), np.cross(u, u[::-1]),
            np.cross(u[0], u[1]), np.cross(u, u, axisa=1, axisb=1, axisc=0),
            np.linalg.multi_dot([x, x.T, x]), np.linalg.multi_dot([x[0], x.T, x, x[0]]),
            np.linalg.multi_dot([x, x[0]]))


def calculus(x):
    t = np.linspace(0.0, 1.0, 6)
    return (np.gradient(x), np.gradient(x[:, 0], t), np.gradient(x, axis=0, edge_order=2),
            np.gradient(x, 0.5, 2.0), np.trapezoid(x), np.trapezoid(x, t, axis=0),
            np.trapezoid(x[:, 0], dx=0.1))


def grids(x):
    i, j = np.triu_indices(4, 1)
    r, c = np.tril_indices_from(x[:4])
    return (np.indices((2, 3)), np.indices((2, 3), sparse=True), x[:4][i, j], x[:4][r, c],
            np.tril_indices(3, -1, 5), np.add.reduceat(x, [0, 2, 5]),
            np.maximum.reduceat(x, np.array([0, 1]), axis=1))


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_compiled_equals_eager(backend):
    check(statistics, X, graphs=1, breaks=0, backend=backend)
    check(editing, X, V, graphs=1, breaks=0, backend=backend)
    check(selecting, X, V, graphs=1, breaks=0, backend=backend)
    check(products, X, V, graphs=1, breaks=0, backend=backend)
    check(calculus, X, graphs=1, breaks=0, backend=backend)
    check(grids, X, graphs=1, breaks=0, backend=backend)
    check(statistics, rand(3, 7, dtype=np.float32), graphs=1, breaks=0, backend=backend)


def test_value_dependent_calls_break_with_a_reason():
    def f(x, mask):
        return np.insert(x, mask, 0.0) * 2

    report = dynamo.explain(f, backend="eager")(np.arange(5.0), np.arange(5) > 2)
    assert report.graph_break_count == 1
    assert "np.insert" in str(report)
    check(f, np.arange(5.0), np.arange(5) > 2)


def test_delete_of_traced_indices_is_captured():
    """Duplicates and a mask's True count decide the length: an unbacked size."""
    def f(x, idx):
        return np.delete(x, idx) * 2, np.delete(x, x > 2)

    check(f, np.arange(5.0), np.array([0, 0, 1]), graphs=1, breaks=0)
    check(f, np.arange(5.0), np.array([4, -1]), graphs=1, breaks=0)
    check(f, np.arange(5.0), np.array([7, 1]))   # out of bounds: NumPy's IndexError


def test_reduceat_out_of_bounds_raises_like_numpy():
    def f(x, idx):
        return np.add.reduceat(x, idx)

    check(f, np.arange(5.0), np.array([0, 9]))


def dynamic_mix(x):
    return (np.append(x, x[:2], axis=0), np.cov(x), np.kron(x, np.ones((2, 1))),
            np.delete(x, 0, axis=0), np.trapezoid(x, axis=0), np.gradient(x, axis=0),
            np.insert(x, 1, 0.0, axis=0), np.cross(x[:, :3], x[:, :3]), np.block([[x, x]]),
            np.partition(x, 1, axis=0), np.isin(x, x[0]), np.add.reduceat(x, [0, 1]),
            np.average(x, axis=0))


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_symbolic_sizes(backend):
    """With every size symbolic the rules' shapes fit (they are run at plain ints): one
    entry serves several lengths, each equal to eager."""
    compiled = dynamo.compile(dynamic_mix, backend=backend, dynamic=True)
    for n in (5, 6, 9):
        x = rand(n, 3, dtype=np.float64, seed=n)
        check(dynamic_mix, x, graphs=1, breaks=0, backend=backend,
              compile_kwargs={"dynamic": True})
        for want, got in zip(dynamic_mix(x), compiled(x)):
            assert want.shape == got.shape and want.dtype == got.dtype
            np.testing.assert_array_equal(want, got)
    assert dynamo.explain(dynamic_mix, backend=backend, dynamic=True)(
        rand(7, 3, dtype=np.float64)).graph_break_count == 0
