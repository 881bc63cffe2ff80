"""``np.meshgrid``, ``np.cross``, ``np.triu``/``np.tril`` run as the C calls they end in
(``grid_calls``): NumPy's result bit for bit (values, dtype, shape, strides), its errors
and warnings where the arguments are bad, and no call of NumPy's Python function."""

import warnings

import numpy as np
import pytest
from dynamo.backends.numpy_backend import grid_calls
from hypothesis import given, settings
from hypothesis import strategies as st
from observe import backend_log

import dynamo

DTYPES = [np.float64, np.float32, np.int64, np.int16, np.uint8, np.complex128, np.bool_]


def _same(got, want):
    assert type(got) is type(want)
    if isinstance(want, (tuple, list)):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            _same(g, w)
        return
    assert got.dtype == want.dtype and got.shape == want.shape
    assert got.strides == want.strides
    assert got.flags.writeable == want.flags.writeable
    np.testing.assert_array_equal(np.ascontiguousarray(got).view(np.uint8),
                                  np.ascontiguousarray(want).view(np.uint8))


def _values(data, shape, dtype, order):
    n = int(np.prod(shape))
    raw = data.draw(st.lists(st.integers(-300, 300), min_size=n, max_size=n))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a = np.asarray(raw, dtype=np.float64).reshape(shape) / 7
        return np.asarray(a.astype(dtype), order=order)


@settings(max_examples=80, deadline=None)
@given(data=st.data(), count=st.integers(1, 3), sparse=st.booleans(),
       indexing=st.sampled_from(["xy", "ij"]), dtype=st.sampled_from(DTYPES))
def test_meshgrid_plans_give_np_meshgrids_grids(data, count, sparse, indexing, dtype):
    """Any number of inputs of any shape (raveled as NumPy does, C or F order, empty)."""
    xs = []
    for _ in range(count):
        shape = tuple(data.draw(st.lists(st.integers(0, 4), max_size=2)))
        xs.append(_values(data, shape, dtype, data.draw(st.sampled_from("CF"))))
    shapes, full = grid_calls.meshgrid_plan([x.size for x in xs], indexing)
    got = grid_calls.meshgrid_copies(tuple(xs), shapes, full, sparse)
    _same(got, tuple(np.meshgrid(*xs, sparse=sparse, indexing=indexing)))


axis_for = st.integers(-3, 2)


@settings(max_examples=120, deadline=None)
@given(data=st.data(), da=st.sampled_from(DTYPES[:-1]), db=st.sampled_from(DTYPES[:-1]))
def test_cross_plans_give_np_cross(data, da, db):
    """3-vectors along any axis of either operand, broadcast batches, any ``axisc``,
    mixed dtypes (the promotion and casts), C or F order."""
    batch = tuple(data.draw(st.lists(st.integers(1, 3), max_size=2)))
    batch_b = tuple(data.draw(st.sampled_from([1, n])) for n in batch)
    pa = data.draw(st.integers(0, len(batch)))
    pb = data.draw(st.integers(0, len(batch_b)))
    shape_a = batch[:pa] + (3,) + batch[pa:]
    shape_b = batch_b[:pb] + (3,) + batch_b[pb:]
    a = _values(data, shape_a, da, data.draw(st.sampled_from("CF")))
    b = _values(data, shape_b, db, data.draw(st.sampled_from("CF")))
    axisa = data.draw(st.sampled_from([pa, pa - len(shape_a)]))
    axisb = data.draw(st.sampled_from([pb, pb - len(shape_b)]))
    axisc = data.draw(st.integers(-len(batch) - 1, len(batch)))
    plan = grid_calls.cross_plan(shape_a, shape_b, axisa, axisb, axisc)
    dtype = np.promote_types(a.dtype, b.dtype)
    got = grid_calls.cross3(a, b, dtype, a.dtype != dtype, b.dtype != dtype, *plan)
    _same(got, np.cross(a, b, axisa=axisa, axisb=axisb, axisc=axisc))


def grids(x, y, z):
    gx, gy = np.meshgrid(x, y)
    ix, iy, iz = np.meshgrid(x, y, z, indexing="ij")
    sx, sy = np.meshgrid(x, y, sparse=True)
    return gx * 2 + gy, ix - iz, sx + sy, gx


def crosses(p, q, w):
    return np.cross(p, q), np.cross(p, q) + 1, np.cross(p.T, w, axisa=0, axisc=0), \
        np.cross(w, q[:1], axis=-1)


def triangles(a, b):
    return np.triu(a), np.tril(a, -1), np.triu(b, 2) + 1, np.tril(b, k=5)


@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32, np.complex64])
def test_compiled_results_are_numpys_own(order, dtype):
    rng = np.random.default_rng(0)
    x = np.asarray(rng.random(5) * 9, dtype)
    y = np.asarray(rng.random((2, 2)) * 9, dtype, order=order)
    z = np.asarray(rng.random(3) * 9, np.float32)
    p = np.asarray(rng.random((6, 3)) * 9, dtype, order=order)
    q = np.asarray(rng.random((6, 3)) * 9, np.float32, order=order)
    w = np.asarray(rng.random((1, 3)) * 9, np.int16)
    a = np.asarray(rng.random((5, 4)) * 9, dtype, order=order)
    b = np.asarray(rng.random((2, 3, 4)) * 9, dtype, order=order)
    for fn, args in ((grids, (x, y, z)), (crosses, (p, q, w)), (triangles, (a, b))):
        compiled = dynamo.compile(fn, backend="numpy")
        for _ in range(2):   # the first call compiles, the second runs the cached code
            _same(compiled(*args), fn(*args))


def test_generated_code_calls_no_python_wrapper():
    """The generated code names the C calls' helpers, not np.meshgrid/cross/triu/tril."""
    x, y, z = np.ones(5), np.ones(4), np.ones(3)
    src = backend_log(dynamo.compile(grids, backend="numpy"), x, y, z)
    assert "_meshgrid_copies((x, y, ), " in src and "_meshgrid(" not in src
    p = np.ones((6, 3))
    src = backend_log(dynamo.compile(crosses, backend="numpy"), p, p + 1, np.ones((1, 3)))
    if grid_calls.CROSS_CHECKED:
        assert "_cross3(p, q, " in src and "_cross(" not in src
    src = backend_log(dynamo.compile(triangles, backend="numpy"), np.ones((3, 3)),
                      np.ones((2, 3, 3)))
    assert "_where(_tri_mask" in src and "_triu(" not in src and "_tril(" not in src


def two_vectors(p, q):
    return np.cross(p, q)


def _outcome(fn, *args):
    """What a call gives: its result or its error (type and text), and its warnings."""
    with warnings.catch_warnings(record=True) as shown:
        warnings.simplefilter("always")
        try:
            result = fn(*args)
        except Exception as e:  # noqa: BLE001 (compared, type and text)
            result = (type(e), str(e))
    return result, [(w.category, str(w.message)) for w in shown]


def test_two_vectors_keep_numpys_call():
    """2-vectors: NumPy's own call, with its DeprecationWarning (NumPy 2.0-2.4) or its
    ValueError (2.5)."""
    p, q = np.ones((4, 2)), np.arange(8.0).reshape(4, 2)
    want, want_w = _outcome(two_vectors, p, q)
    got, got_w = _outcome(dynamo.compile(two_vectors, backend="numpy"), p, q)
    assert got_w == want_w
    if isinstance(want, tuple):
        assert got == want
    else:
        _same(got, want)


def overflowing(p, q):
    return np.cross(p, q)


def test_ufunc_warnings_are_numpys():
    p = np.full((2, 3), 1e200)
    q = np.array([[1e200, -1e200, 3.0]] * 2)
    with pytest.warns(RuntimeWarning, match="overflow") as want_w:
        want = overflowing(p, q)
    with pytest.warns(RuntimeWarning, match="overflow") as got_w:
        got = dynamo.compile(overflowing, backend="numpy")(p, q)
    _same(got, want)
    assert [str(w.message) for w in got_w] == [str(w.message) for w in want_w]


def _raised(fn, *args):
    try:
        fn(*args)
    except Exception as e:  # noqa: BLE001 (compared, type and text)
        return type(e), str(e)
    return None


def bad_axis(p, q):
    return np.cross(p, q, axisa=4)


def bad_length(p, q):
    return np.cross(p, q)


def bad_indexing(x, y):
    return np.meshgrid(x, y, indexing="yx")


def short_triangle(v):
    return np.triu(v)


@pytest.mark.parametrize("fn, args", [
    (bad_axis, (np.ones((2, 3)), np.ones((2, 3)))),
    (bad_length, (np.ones((2, 4)), np.ones((2, 3)))),
    (bad_length, (np.ones((2, 3)), np.ones((3, 3)))),
    (bad_indexing, (np.ones(3), np.ones(2))),
])
def test_bad_arguments_raise_numpys_error(fn, args):
    want = _raised(fn, *args)
    assert want is not None
    assert _raised(dynamo.compile(fn, backend="numpy"), *args) == want


def test_one_dimensional_triu_is_numpys():
    """A 1-D ``m`` (NumPy makes it 2-D) keeps NumPy's own call."""
    v = np.arange(4.0)
    _same(dynamo.compile(short_triangle, backend="numpy")(v), short_triangle(v))


def _splitter(even, sections, axis):
    fn = np.split if even else np.array_split

    def pieces(a):
        return [p * 1 for p in fn(a, sections, axis=axis)], fn(a, sections, axis)
    return pieces


@settings(max_examples=40, deadline=None)
@given(data=st.data(), even=st.booleans(), order=st.sampled_from("CF"))
def test_split_pieces_are_numpys_views(data, even, order):
    """Sections as a count (uneven counts for array_split) or as cut points (negative,
    repeated, past the end), any axis: the same views of the same array, and NumPy's
    ValueError where a count does not divide the axis."""
    shape = tuple(data.draw(st.lists(st.integers(0, 5), min_size=1, max_size=3)))
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    sections = data.draw(st.one_of(
        st.integers(1, 6), st.lists(st.integers(-6, 8), max_size=4)))
    a = np.asarray(np.arange(np.prod(shape), dtype=np.float32).reshape(shape), order=order)
    fn = _splitter(even, sections, axis)
    dynamo.reset()   # (one code object for every example: no recompile limit)
    want = _raised(fn, a)
    if want is not None:
        assert _raised(dynamo.compile(fn, backend="numpy"), a) == want
        return
    compiled = dynamo.compile(fn, backend="numpy")
    assert "_split(" not in backend_log(compiled, a)
    got, want = compiled(a), fn(a)
    _same(got, want)
    for piece, theirs in zip(got[1], want[1]):
        assert piece.base is theirs.base
        assert piece.__array_interface__["data"] == theirs.__array_interface__["data"]


def qkv_heads(x, w):
    q, k, v = np.split(x @ w, 3, axis=-1)
    first, rest = np.array_split(q, [1], axis=0)
    return (q * k).sum(-1), v.T, first, rest


def test_generated_split_is_slices():
    x, w = np.ones((4, 5)), np.arange(30.0).reshape(5, 6)
    compiled = dynamo.compile(qkv_heads, backend="numpy")
    src = backend_log(compiled, x, w)
    assert "_split(" not in src and "_array_split(" not in src
    assert "[:, 0:2], " in src
    _same(compiled(x, w), qkv_heads(x, w))


@given(n=st.integers(0, 40), sections=st.integers(1, 12), even=st.booleans())
def test_split_points_are_numpys_cuts(n, sections, even):
    points = grid_calls.split_points(n, sections, even)
    a = np.arange(n)
    if points is None:
        with pytest.raises(ValueError, match="equal division"):
            np.split(a, sections)
        return
    want = (np.split if even else np.array_split)(a, sections)
    assert [a[s:e].tolist() for s, e in zip(points, points[1:])] == [p.tolist() for p in want]
