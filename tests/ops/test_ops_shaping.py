"""Shape functions, joins and splits agree with NumPy over random shapes and arguments;
compiled programs equal eager ones, and views stay views."""

import numpy as np
import pytest
from harness import check, rand
from hypothesis import given, settings
from hypothesis import strategies as st
from ops_agree import DTYPES, agree, arrays, shapes

import dynamo

small = dict(max_dims=4, max_side=3)


@given(a=arrays(DTYPES, **small), data=st.data())
@settings(max_examples=120, deadline=None)
def test_views(a, data):
    nd = a.ndim
    ax = st.integers(-nd - 1, nd) if nd else st.integers(-1, 1)
    newshape = data.draw(st.sampled_from([(-1,), (a.size,), (1, -1), a.shape[::-1], (2, -1),
                                          (a.size, 1, 1)]))
    agree(np.reshape, a, newshape)
    agree("method:reshape", a, *newshape)
    agree("method:reshape", a, newshape, order="F")
    agree(np.transpose, a)
    agree("method:transpose", a, *range(nd)[::-1])
    agree(np.swapaxes, a, data.draw(ax), data.draw(ax))
    agree(np.moveaxis, a, data.draw(ax), data.draw(ax))
    agree(np.expand_dims, a, data.draw(ax))
    agree(np.squeeze, a)
    agree(np.squeeze, a, data.draw(ax))
    agree(np.flip, a, data.draw(st.sampled_from([None, 0, -1, (0, 1)])))
    agree(np.fliplr, a)
    agree(np.flipud, a)
    agree(np.rot90, a, data.draw(st.integers(-2, 3)))
    agree(np.broadcast_to, a, (2,) + a.shape)
    agree(np.broadcast_to, a, data.draw(shapes(max_dims=3, max_side=3)))
    for fn in (np.atleast_1d, np.atleast_2d, np.atleast_3d):
        agree(fn, a)
        agree(fn, a, a[..., None])
    agree(np.broadcast_arrays, a, a[..., None])
    for fn in (np.ravel, "method:ravel", "method:flatten"):
        agree(fn, a)
        agree(fn, a, order="F")


@given(a=arrays(DTYPES, **small), reps=st.one_of(
    st.integers(0, 3), st.lists(st.integers(0, 3), max_size=5).map(tuple)))
@settings(max_examples=100, deadline=None)
def test_tile(a, reps):
    agree(np.tile, a, reps)


@given(a=arrays(DTYPES, **small), repeats=st.one_of(
    st.integers(0, 3), st.lists(st.integers(0, 3), min_size=1, max_size=4)),
    axis=st.sampled_from([None, 0, 1, -1, 4]))
@settings(max_examples=100, deadline=None)
def test_repeat(a, repeats, axis):
    agree(np.repeat, a, repeats, axis=axis)
    agree("method:repeat", a, repeats, axis)


@given(a=arrays(DTYPES, **small), shift=st.sampled_from([1, -2, (1, 2), 5]),
       axis=st.sampled_from([None, 0, -1, (0, 1), 4]))
@settings(max_examples=100, deadline=None)
def test_roll(a, shift, axis):
    agree(np.roll, a, shift, axis=axis)


@given(a=arrays(DTYPES, **small),
       shift=st.sampled_from([np.int64(3), np.array(-1), np.array([1, 2]), np.array([2]),
                              np.array([1, 2, 3]), np.uint8(200), np.array(True),
                              np.array([[1]]), np.float64(1.0), np.array([0.5, 1.0])]),
       axis=st.sampled_from([None, 0, -1, (0, 1), 4]))
@settings(max_examples=150, deadline=None)
def test_roll_by_array_shift(a, shift, axis):
    """A shift read from an array (``np.roll(f, c[i, 0])``): captured for integer
    shifts, with NumPy's errors for a shift that does not broadcast against ``axis``;
    a float shift may break (``int()`` of a NaN would raise on the data)."""
    outcome = agree(np.roll, a, shift, axis=axis, may_break=shift.dtype.kind == "f")
    if shift.dtype.kind != "f":
        assert outcome in ("captured", "raised")


def test_roll_by_table_entry_is_one_graph():
    """A lattice Boltzmann streaming step, velocities from a table: no break."""
    def stream(f):
        c = np.array([[0, 0], [1, 0], [0, 1], [-1, 0], [0, -1]])
        for i in range(5):
            f[i] = np.roll(np.roll(f[i], c[i, 0], axis=0), c[i, 1], axis=1)
        return f
    check(stream, rand(5, 6, 7), graphs=1, breaks=0)


@given(a=arrays(DTYPES, max_dims=3, max_side=3),
       width=st.sampled_from([0, 1, 2, (1, 2), ((1, 0),), ((0, 1), (2, 0)), ((1, 1), (0, 0),
                                                                          (1, 2)), -1]),
       mode=st.sampled_from(["constant", "edge", "reflect", "symmetric", "wrap", "maximum",
                             "mean", "linear_ramp", "empty"]))
@settings(max_examples=150, deadline=None)
def test_pad(a, width, mode):
    agree(np.pad, a, width, mode=mode)
    if mode == "constant":
        agree(np.pad, a, width, constant_values=((1, 2),) * a.ndim)


@given(a=arrays(DTYPES, max_dims=3, max_side=4), k=st.integers(-2, 2))
@settings(max_examples=80, deadline=None)
def test_tril_triu(a, k):
    agree(np.tril, a, k)
    agree(np.triu, a, k=k)


@given(a=arrays([d for d in DTYPES if d.kind != "c"], **small),
       axis=st.sampled_from([None, 0, -1, 1, 5]),
       kind=st.sampled_from([None, "stable", "quicksort", "heapsort", "bogus"]))
@settings(max_examples=100, deadline=None)
def test_sort_argsort(a, axis, kind):
    agree(np.sort, a, axis=axis, kind=kind)
    agree(np.argsort, a, axis=axis, kind=kind)
    agree("method:argsort", a, axis=axis)
    agree("method:sort", a, axis=axis if axis is not None else -1)


# --------------------------------------------------------------------------- joins

@st.composite
def join_members(draw, same_shape=False):
    base = list(draw(shapes(min_dims=0, max_dims=3, max_side=3)))
    n = draw(st.integers(0, 3))
    members = []
    for _ in range(n):
        shape = list(base)
        if base and not same_shape and draw(st.booleans()):
            shape[draw(st.integers(0, len(base) - 1))] = draw(st.integers(0, 3))
        members.append(draw(arrays(DTYPES, shape=st.just(tuple(shape)))))
    if members and draw(st.integers(0, 5)) == 0:
        members.append(np.zeros(members[0].shape, int).tolist())  # a Python list member
    return members


@given(members=join_members(), axis=st.sampled_from([0, 1, -1, None, 3]),
       dtype=st.sampled_from([None, np.float32, np.int8]),
       seq=st.sampled_from([list, tuple]))
@settings(max_examples=150, deadline=None)
def test_concatenate(members, axis, dtype, seq):
    agree(np.concatenate, seq(members), axis=axis, dtype=dtype,
          casting="unsafe" if dtype else "same_kind")
    agree(np.concatenate, seq(members), axis=axis)


@given(members=join_members(same_shape=True), axis=st.sampled_from([0, 1, -1, 3]))
@settings(max_examples=100, deadline=None)
def test_stack(members, axis):
    agree(np.stack, members, axis=axis)


@given(members=join_members())
@settings(max_examples=150, deadline=None)
def test_hstack_vstack_dstack_column_stack(members):
    for fn in (np.hstack, np.vstack, np.dstack, np.column_stack):
        agree(fn, members)
    agree(np.hstack, members, dtype=np.float64)


@given(a=arrays(DTYPES, min_dims=0, max_dims=4, max_side=6),
       sections=st.one_of(st.integers(-1, 4), st.lists(st.integers(-7, 7), max_size=4)),
       axis=st.sampled_from([0, 1, -1, 4]))
@settings(max_examples=150, deadline=None)
def test_split(a, sections, axis):
    agree(np.split, a, sections, axis=axis)
    agree(np.array_split, a, sections, axis=axis)
    for fn in (np.hsplit, np.vsplit, np.dsplit):
        agree(fn, a, sections)


# --------------------------------------------------------------------------- compiled

X = rand(4, 6)
Y = rand(4, 6, seed=1)
T = rand(2, 3, 4, seed=2)

PROGRAMS = [
    ("reshape_views", lambda t: (t.reshape(6, 4), t.reshape(-1, 2), np.reshape(t, (4, -1)),
                                 t.ravel(), t.flatten(), np.ravel(t, order="F")), (T,)),
    ("transposes", lambda t: (t.T, t.transpose(1, 0, 2), np.swapaxes(t, 0, 2),
                              np.moveaxis(t, 0, -1), t.swapaxes(-1, -2)), (T,)),
    ("dims", lambda x: (x[None], np.expand_dims(x, -1), np.squeeze(x[:, None]),
                        x[:, None].squeeze(1), np.atleast_3d(x)), (X,)),
    ("broadcast_to", lambda x: np.broadcast_to(x[0], (3, 6)) + 1, (X,)),
    ("concat", lambda x, y: (np.concatenate([x, y]), np.concatenate((x, y), axis=1),
                             np.concatenate([x, y], axis=None)), (X, Y)),
    ("stacks", lambda x, y: (np.stack([x, y]), np.stack((x, y), axis=-1), np.hstack([x, y]),
                             np.vstack((x, y)), np.dstack([x, y]), np.column_stack([x[0], y[0]])),
     (X, Y)),
    ("concat_list_member", lambda x: np.concatenate([x[0], [1.0, 2.0]]), (X,)),
    ("split_unpack", lambda x: _split_sum(x), (X,)),
    ("split_list", lambda x: np.split(x, [1, 3], axis=1), (X,)),
    ("array_split", lambda x: np.array_split(x, 4, axis=1), (X,)),
    ("hvdsplit", lambda t: (np.hsplit(t, 3), np.vsplit(t, 2), np.dsplit(t, [1])), (T,)),
    ("tile_repeat", lambda x: (np.tile(x, (2, 1, 2)), np.repeat(x, 2), x.repeat([1, 2, 0, 1], 0)),
     (X,)),
    ("flip_roll", lambda x: (np.flip(x), x[::-1, ::-2], np.roll(x, 2), np.roll(x, -1, axis=1),
                             np.fliplr(x), np.rot90(x)), (X,)),
    ("pad", lambda x: (np.pad(x, 1), np.pad(x, ((0, 1), (2, 0)), mode="edge"),
                       np.pad(x, 2, mode="reflect"), np.pad(x, 1, constant_values=-1.0)), (X,)),
    ("tril_triu", lambda x: (np.tril(x), np.triu(x, 1), np.tril(x[0])), (X,)),
    ("sort", lambda x: (np.sort(x), np.sort(x, axis=0), np.argsort(x, kind="stable"),
                        x.argsort(axis=None), np.sort(x, axis=None)), (X,)),
]


def _split_sum(x):
    a, b = np.split(x, 2, axis=1)
    parts = np.array_split(x, 3)
    return a * b + parts[0].sum() - parts[-1][:, :3]


@pytest.mark.parametrize("name,fn,args", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_compiled_equals_eager(name, fn, args):
    check(fn, *args, graphs=1, breaks=0)


def test_sort_method_sorts_in_place_and_returns_none():
    def f(x):
        y = x * 2
        r = y.sort(axis=0)
        x.sort()
        return y, r

    check(f, X, graphs=1, breaks=0)


def test_traced_axis_or_shape_breaks_instead_of_guessing():
    # The value of a traced axis decides the shape: a ghost has no value, so it breaks.
    x = np.ones((1, 3, 1), np.float32)
    report = check(lambda x: np.squeeze(x, axis=np.argmax(x[0, :, 0]) + 2), x, breaks=1)
    assert "is an array" in report.break_reasons[0].reason
    check(lambda x: np.expand_dims(x, x.argmax() * 0), x, breaks=1)
    check(lambda x: x.reshape(np.array([3, 1])), x, breaks=1)


def test_views_stay_views():
    x = rand(4, 6)
    for fn in (lambda x: x.reshape(6, 4), lambda x: x.T, lambda x: np.split(x, 2)[1],
               lambda x: x[:, ::2], lambda x: np.squeeze(x[None]), lambda x: x.ravel()):
        v = dynamo.compile(fn, backend="eager")(x)
        assert np.shares_memory(v, x)
        dynamo.reset()


# ---------------------------------------------------------------- repeats from the data

def run_length_decode(values, lengths):
    out = np.repeat(values, lengths)                  # lengths.sum() long: data-decided
    owner = np.repeat(np.arange(len(lengths)), lengths)
    rows = np.repeat(np.ones((len(lengths), 2)), lengths, axis=0)
    return out * 2 + owner, rows.sum(0), lengths.repeat(2), values.repeat(lengths).size


@pytest.mark.parametrize("backend", ["eager", "numpy"])
@given(lengths=st.lists(st.integers(-1, 3), min_size=3, max_size=3))
@settings(max_examples=30, deadline=None)
def test_repeats_from_the_data_are_one_graph(lengths, backend):
    """One size for every np.repeat by one ``lengths`` (no broadcast check), eager's
    results at every count (0 too) and its ValueError for a negative one."""
    values = np.array([1.5, -2.0, 4.0])
    check(run_length_decode, values, np.array(lengths), backend=backend, graphs=1, breaks=0)


def one_count(values, r):
    return np.repeat(values, r)       # a 0-d or one-element count: n * r, still a break


def test_a_single_count_from_the_data_still_breaks():
    for r in (np.array(2), np.array([2])):
        report = check(one_count, np.arange(3.0), r, breaks=1)
        assert "repeats is an array" in report.break_reasons[0].reason
