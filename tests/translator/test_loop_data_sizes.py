"""Data-dependent ops inside loop nodes (issues #14 and #19).

``x[x > c]``, ``x[m] = v``, ``np.nonzero``, one-argument ``np.where``,
``np.flatnonzero``, ``np.argwhere``, ``np.unique`` and ``np.bincount`` in the body of
a long ``for`` loop: the loop is still one loop node (docs/loops.md), and each such op
makes a fresh unbacked size on every trip (docs/unbacked.md, "Inside loop nodes").

Every program runs plain and compiled on both CPU backends over five calls with
different data (and, for most, different sizes and trip counts), comparing results,
dtypes, the arguments afterwards, exceptions and warnings. The loop-node programs also
assert that each graph compiled holds a loop node, and that the graph does not grow
with the trip count (``dynamo.explain``'s op counts at 12 and at 40 trips). The
hostile programs, which must not be loop nodes (a carried selection whose length
changes per trip, a branch on a count, ``break``, a slice clamped by a count), assert
equality with plain Python and that no loop node was made.
"""

from __future__ import annotations

import contextlib
import copy
import io
import warnings

import numpy as np
import pytest
from harness import same

import dynamo
from dynamo import listeners
from dynamo.symbolic import SymInt

BACKENDS = ("eager", "numpy")
CALLS = 5


def _rng(seed: int):
    return np.random.default_rng(1000 + seed)


def _x(seed: int, n: int | None = None):
    """A float vector whose size changes with the call (``n`` fixed: it does not)."""
    return _rng(seed).uniform(-1.0, 1.5, n if n is not None else 30 + 7 * seed)


# ------------------------------------------------------------- loops that are loop nodes
def mask_sum_carried(x, T):
    s = 0.0
    for t in range(T):
        y = x[x > 0.5]
        s = s + y.sum()
        x = x * 0.9 + 0.05
    return s, x


def mask_on_index(x, T):
    s = 0.0
    for t in range(T):
        s = s + x[x > t].sum()
    return s


def mandelbrot(z, c, T):
    n = np.zeros(z.shape, np.int64)
    for t in range(T):
        m = np.abs(z) < 2.0
        z[m] = z[m] ** 2 + c[m]
        n[m] += 1
    return z, n


def kmeans_centers(x, labels, centers):
    for k in range(centers.shape[0]):
        centers[k] = x[labels == k].mean(0)
    return centers


def nbody_cutoff(pos, vel, T):
    for t in range(T):
        diff = pos[:, None, :] - pos[None, :, :]
        dist2 = (diff ** 2).sum(-1) + np.eye(pos.shape[0]) * 10.0
        i, j = np.nonzero(dist2 < 0.5)
        inv = dist2[i, j] ** -1.5
        force = np.zeros_like(pos)
        np.add.at(force, i, diff[i, j] * inv[:, None])
        vel = vel - 0.001 * force
        pos = pos + 0.01 * vel
    return pos, vel


def unique_histogram(q, hist, T):
    for t in range(T):
        vals, counts = np.unique((q * (t + 1)) % 7, return_counts=True)
        hist[vals] += counts
    return hist


def bincount_per_step(q, T):
    s = 0
    for t in range(T):
        b = np.bincount(q)
        s = s + (b * b).sum()
        q = (q * 3 + 1) % 11
    return s, q


def flatnonzero_write(x, T):
    for t in range(T):
        idx = np.flatnonzero(x > 0.3)
        x[idx] = x[idx] * 0.5
        x = x + 0.1
    return x


def where_one_argument(x, T):
    s = 0.0
    for t in range(T):
        i, = np.where(x > 0.5)
        s = s + x[i].sum()
        x = np.sin(x) + 0.3
    return s, x


def argwhere_per_step(a, T):
    s = 0
    for t in range(T):
        s = s + np.argwhere(a > 0.2).sum()
        a = a * 1.1
    return s


def carried_selection_same_size(x, T):
    y = x[x > 0]
    for t in range(T):
        y = np.sin(y) + 0.1
    return y, len(y)


def selection_left_after_loop(x, T):
    for t in range(T):
        y = x[x > 0.3]
        x = x * 0.95
    return y, len(y), x


def count_left_after_loop(x, T):
    for t in range(T):
        y = x[x > 0.3]
        n = len(y) + 1
        x = x * 0.95
    return n, y.sum()


def count_as_a_float_left_after_loop(x, T):
    for t in range(T):
        y = x[x > 0.3]
        h = len(y) / 2             # a symbolic float, read off the last trip's y
        x = x * 0.95
    return h, x


def mask_counted_in_body_and_after(x, w, T):
    m = x > 0
    s = 0.0
    for t in range(T):
        s = s + w[m].sum()
        w = w * 0.5 + 1.0
    return s, w[m] * 2, len(x[m])


def count_as_graph_value(x, T):
    s = 0.0
    for t in range(T):
        y = x[x > -0.5]
        s = s + y.sum() / len(y) + (y * np.arange(len(y))).sum()
        x = x - 0.01
    return s


def selection_as_index(x, acc, w, T):
    for t in range(T):
        idx = np.nonzero(x > 0.5)[0]
        acc[idx] += w[idx]
        x = np.cos(x + 0.3)
    return acc


def index_times_selection(x, T):
    s = 0.0
    for t in range(T):
        y = x[x > 0.5]
        s = s + (y * t).sum()
    return s


def clip_by_mask_write(x, T):
    for t in range(T):
        x[x > 1.0] = 0.0
        x = x * 1.3
    return x


def nested_mask_write(x, T):
    for t in range(T):
        for k in range(3):
            x[x > 0.2 * k] -= 0.05
        x = x + 0.1
    return x


def empty_and_full_selections(x, T):
    s = 0.0
    for t in range(T):
        s = s + x[x > 5.0].sum() + x[x > -5.0].sum() + len(np.flatnonzero(x > 5.0))
    return s


def max_of_selection_raises_at_a_trip(x, T):
    s = 0.0
    for t in range(T):
        x[x > 0.0] -= 0.05           # emptied within 30 trips: max() then raises
        s = s + x[x > 0.0].max()
    return s, x


def position_in_a_selection(x, T):
    s = 0.0
    for t in range(T):
        y = x[x > -10.0]
        s = s + y[t]
    return s


def carried_selection_written_through_a_mask(x, T):
    y = x[x > 0]                   # carried: the same size, from before the loop
    for t in range(T):
        y[y > 0.5] -= 0.1
    return y


def extract_and_compress(x, T):
    s = 0.0
    for t in range(T):
        s = s + np.extract(x > 0.2, x).sum() + np.compress(x < 0.0, x).sum()
        x = x * 0.97
    return s


def mask_write_beside_a_column(a, T):
    for t in range(T):
        m = a[:, 0] > 0.1
        a[m, 1] = a[m, 1] * 0.5
        a[m, 0] -= 0.05
    return a


def counter_beside_a_selection(x, T):
    k = 0
    s = 0.0
    for t in range(T):
        k += 2                     # an int counter: traced again as k0 + 2 * trip
        s = s + x[x > 0.1].sum() * k
        x = x * 0.97
    return s, k


def counts_that_disagree_at_some_trip(x, w, T):
    for t in range(T):
        x[x > 0.5] = w[w > 0.5] * 0.5    # NumPy raises where the counts differ
        w = w * 1.1
    return x


def negative_position_in_a_selection(x, T):
    s = 0.0
    for t in range(T):
        y = x[x > -10.0]
        s = s + y[-t - 1]
    return s


def _vec(seed, T):
    return (_x(seed), T)


def _mandel(seed, T):
    r, n = _rng(seed), 40 + 5 * seed
    return np.zeros(n, complex), r.uniform(-2, 1, n) + 1j * r.uniform(-1, 1, n), T


def _kmeans(seed, T, empty: bool = False):
    r = _rng(seed)
    labels = r.integers(0, T - 1 if empty else T, 80 + seed)
    return r.normal(size=(80 + seed, 2)), labels, np.zeros((T, 2))


def _nbody(seed, T):
    r, n = _rng(seed), 10 + seed
    return r.uniform(0, 2, (n, 2)), np.zeros((n, 2)), T


def _ints(seed, T):
    return _rng(seed).integers(0, 11, 30 + seed), T


def branch_on_a_count(x, T):
    """``len(y) > 3`` is the graph's comparison of the trip's count (never a guess), and
    ``s``, a Python float until a trip adds to it, is a running choice the node carries
    with its flag (task p63/t2, ``translator/running_choices.py``; it was a break)."""
    s = 0.0
    for t in range(T):
        y = x[x > 0.2]
        if len(y) > 3:
            s = s + y.sum()
        x = x * 0.9
    return s


NODES = [
    ("mask_sum_carried", mask_sum_carried, _vec),
    ("branch_on_a_count", branch_on_a_count, _vec),
    ("mask_on_index", mask_on_index, lambda s, T: (_x(s) * 20, T)),
    ("mandelbrot", mandelbrot, _mandel),
    ("kmeans_centers", kmeans_centers, _kmeans),
    ("kmeans_empty_cluster", kmeans_centers, lambda s, T: _kmeans(s, T, empty=True)),
    ("nbody_cutoff", nbody_cutoff, _nbody),
    ("unique_histogram", unique_histogram,
     lambda s, T: (_rng(s).integers(0, 7, 30 + s), np.zeros(7, np.int64), T)),
    ("bincount_per_step", bincount_per_step, _ints),
    ("flatnonzero_write", flatnonzero_write, _vec),
    ("where_one_argument", where_one_argument, _vec),
    ("argwhere_per_step", argwhere_per_step,
     lambda s, T: (_rng(s).uniform(0, 1, (5, 6 + s)), T)),
    ("carried_selection_same_size", carried_selection_same_size, _vec),
    ("selection_left_after_loop", selection_left_after_loop, _vec),
    ("count_left_after_loop", count_left_after_loop, _vec),
    ("count_as_a_float_left_after_loop", count_as_a_float_left_after_loop, _vec),
    ("mask_counted_in_body_and_after", mask_counted_in_body_and_after,
     lambda s, T: (_x(s), _rng(s + 50).uniform(0, 1, 30 + 7 * s), T)),
    ("count_as_graph_value", count_as_graph_value, _vec),
    ("selection_as_index", selection_as_index,
     lambda s, T: (_x(s), np.zeros(30 + 7 * s), _rng(s + 9).uniform(0, 1, 30 + 7 * s), T)),
    ("index_times_selection", index_times_selection, _vec),
    ("clip_by_mask_write", clip_by_mask_write, _vec),
    ("nested_mask_write", nested_mask_write, _vec),
    ("empty_and_full_selections", empty_and_full_selections, _vec),
    ("max_of_selection_raises_at_a_trip", max_of_selection_raises_at_a_trip, _vec),
    # (trip t reads y[t]: out of bounds, an IndexError, where fewer than T are selected)
    ("position_in_a_selection", position_in_a_selection, lambda s, T: (_x(0, 9 + 2 * s), T)),
    ("negative_position_in_a_selection", negative_position_in_a_selection,
     lambda s, T: (_x(0, 9 + 2 * s), T)),
    ("carried_selection_written_through_a_mask", carried_selection_written_through_a_mask,
     _vec),
    ("counter_beside_a_selection", counter_beside_a_selection, _vec),
    ("extract_and_compress", extract_and_compress, _vec),
    ("mask_write_beside_a_column", mask_write_beside_a_column,
     lambda s, T: (_rng(s).uniform(-1, 1, (20 + s, 3)), T)),
    ("counts_that_disagree_at_some_trip", counts_that_disagree_at_some_trip,
     lambda s, T: (_x(s, 40), _rng(s + 20).uniform(0, 1, 40), T)),
]


# -------------------------------------------- loops that must not be loop nodes (hostile)
def carried_selection_that_shrinks(x, T):
    y = x[x > 0]
    for t in range(T):
        y = y[y > 0.1] * 1.1      # a new length every trip: no one body for all trips
    return y


def break_on_a_python_int(x, T):
    k = 0
    for t in range(T):
        x[x > 0.5] *= 0.5
        x = x + 0.1
        k += 1
        if k > 20:
            break
    return x, k


def slice_clamped_by_a_count(x, T):
    s = 0.0
    for t in range(T):
        s = s + x[x > 0.0][:t].sum()   # min(t, count) elements: data-dependent
    return s


def count_of_a_selection_not_left(x, T):
    for t in range(T):
        n = len(x[x > 0.3])          # no array of that trip is left to read it from
        x = x * 0.95
    return n, x


def float_of_a_count_not_left(x, T):
    for t in range(T):
        h = len(x[x > 0.3]) * 0.5    # (a float: no array of its trip is left either)
        x = x * 0.95
    return h, x


def padded_selection_left(x, T):
    for t in range(T):
        z = np.concatenate([x[x > 0.3], np.zeros(1)])   # count + 1: no array has count
        x = x * 0.95
    return z, len(z), x


REFUSED = [
    ("carried_selection_that_shrinks", carried_selection_that_shrinks, _vec),
    ("break_on_a_python_int", break_on_a_python_int, lambda s, T: (_x(s), 40)),
    ("slice_clamped_by_a_count", slice_clamped_by_a_count, _vec),
    ("count_of_a_selection_not_left", count_of_a_selection_not_left, _vec),
    ("float_of_a_count_not_left", float_of_a_count_not_left, _vec),
    ("padded_selection_left", padded_selection_left, _vec),
]


# ------------------------------------------------------------------------------ checks
class _Graphs:
    def __init__(self):
        self.graphs = []

    def on_graph(self, graph, ctx):
        self.graphs.append(graph)


def _run(fn, args):
    """(result or exception, warnings as (category, text) and what it printed) of one
    call."""
    out = io.StringIO()
    with warnings.catch_warnings(record=True) as caught, contextlib.redirect_stdout(out):
        warnings.simplefilter("always")
        try:
            result = fn(*args)
        except Exception as e:  # noqa: BLE001
            result = e
    return result, ([(w.category, str(w.message)) for w in caught], out.getvalue())


def agree(fn, make, backend: str) -> list:
    """Call ``fn`` plain and compiled with ``make(seed, T)`` for ``CALLS`` seeds (trip
    counts 12, 20, 31...); assert the same results, exceptions, warnings and arguments
    afterwards, and what each printed. Returns the graphs compiled."""
    compiled = dynamo.compile(fn, backend=backend)
    seen = _Graphs()
    for seed in range(CALLS):
        args = make(seed, (12, 20, 31, 12, 45)[seed])
        plain_args, comp_args = copy.deepcopy(args), copy.deepcopy(args)
        expected, expected_warnings = _run(fn, plain_args)
        with listeners.listening(seen):
            got, got_warnings = _run(compiled, comp_args)
        label = f"call {seed + 1}"
        if isinstance(expected, Exception):
            assert type(got) is type(expected) and str(got) == str(expected), \
                f"{label}: plain raised {expected!r}, compiled gave {got!r}"
        else:
            assert not isinstance(got, Exception), f"{label}: compiled raised {got!r}"
            same(expected, got, path=f"{label}: result")
        same(plain_args, comp_args, path=f"{label}: arguments after the call")
        assert got_warnings == expected_warnings, f"{label}: warnings or printout differ"
    return seen.graphs


def _loops(graph) -> int:
    return sum(n.target == "fori_loop" for n in graph.call_nodes())


def _ops(fn, args, backend: str) -> list:
    with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return dynamo.explain(fn, backend=backend)(*copy.deepcopy(args)).ops_per_graph


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name,fn,make", NODES, ids=[p[0] for p in NODES])
def test_data_dependent_ops_in_loop_nodes_match_python(name, fn, make, backend):
    graphs = agree(fn, make, backend)
    assert graphs, "nothing was compiled"
    assert all(_loops(g) == 1 for g in graphs), [str(g) for g in graphs]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name,fn,make", NODES, ids=[p[0] for p in NODES])
def test_the_graph_does_not_grow_with_the_trip_count(name, fn, make, backend):
    short, long = _ops(fn, make(0, 12), backend), _ops(fn, make(0, 40), backend)
    assert len(short) == 1 and short == long, (short, long)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name,fn,make", REFUSED, ids=[p[0] for p in REFUSED])
def test_loops_that_cannot_be_nodes_match_python(name, fn, make, backend):
    graphs = agree(fn, make, backend)
    assert not any(_loops(g) for g in graphs)


def test_a_refused_carried_selection_says_why(caplog):
    with caplog.at_level("DEBUG", logger="dynamo.loops"):
        dynamo.compile(carried_selection_that_shrinks, backend="eager")(_x(0), 12)
    assert "a carried array gets a size the data decides on each trip" in caplog.text


def test_a_count_left_alone_after_the_loop_says_why(caplog):
    with caplog.at_level("DEBUG", logger="dynamo.loops"):
        dynamo.compile(count_of_a_selection_not_left, backend="eager")(_x(0), 12)
    assert "holds a size the data decides in the body" in caplog.text


def short_outer_loop_of_loop_nodes(x, T):
    for k in range(3):             # unrolled: three loop nodes
        for t in range(T):
            x[x > 0.1 * k] *= 0.99
    return x


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_unrolled_loop_around_loop_nodes_with_mask_writes(backend):
    graphs = agree(short_outer_loop_of_loop_nodes, _vec, backend)
    assert graphs and all(_loops(g) == 3 for g in graphs)
    assert _ops(short_outer_loop_of_loop_nodes, _vec(0, 12), backend) == \
        _ops(short_outer_loop_of_loop_nodes, _vec(0, 40), backend)


def count_printed_after_the_loop(x, T):
    for t in range(T):
        y = x[x > 0.3]
        n = len(y)
        x = x * 0.95
    print(n)                       # a break: the glue reads n off the last trip's y
    return y * 2, n + 1


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_count_from_the_body_crosses_a_break(backend):
    graphs = agree(count_printed_after_the_loop, _vec, backend)
    assert any(_loops(g) == 1 for g in graphs)
    # (the first trip's selection, unrolled, and no other: the rest is the loop node)
    assert all(len(_selection_sizes(g)) <= 1 for g in graphs)


def _selection_sizes(graph) -> set:
    """The symbols of the sizes of ``graph``'s mask selections (``x[m]``)."""
    return {d.sym.terms[0][0] for node in graph.call_nodes() if node.target == "getitem"
            and isinstance(node.args[1], type(node)) for d in node.meta["array"].shape
            if isinstance(d, SymInt)}


def test_the_body_makes_a_fresh_size_and_the_frame_reads_the_last_trips():
    """The body's selection has a size of its own, not the first (unrolled) trip's;
    after the loop, ``len(y)`` is read off the last trip's ``y`` (an output of the
    loop)."""
    seen = _Graphs()
    with listeners.listening(seen):
        y, n, _ = dynamo.compile(selection_left_after_loop, backend="eager")(_x(3), 20)
    (graph,) = seen.graphs
    (loop,) = [node for node in graph.call_nodes() if node.target == "fori_loop"]
    before, body = _selection_sizes(graph), _selection_sizes(loop.args[0])
    assert len(before) == 1 and len(body) == 1 and not before & body
    expected = selection_left_after_loop(_x(3), 20)
    assert n == len(y) == expected[1] and len(y) != len(_x(3)[_x(3) > 0.3])
