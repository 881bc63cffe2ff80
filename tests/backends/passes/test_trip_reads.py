"""Reads a loop trip repeats (task p62/t1, issue #15): ``passes.scalar_reads`` (the
NumPy scalar ``u = int(np.argmin(d))`` stands for, read as itself instead of
``copy(...)[()]`` per use) and ``passes.cse``'s reads at an index the graph computes
(``X[i]`` twice in one trip, read once).

The graph tests trace a program, run the pass on a graph (a loop node's body where
the program has a loop) and look at its ops; both graphs run to the same results and
leave the same arguments. The program tests compare compiled with plain Python
(``check``: values, dtypes, arguments afterwards), with writes between two reads and
with arguments that alias each other (the same array twice), where a read after a
write must see what the write left.
"""

import numpy as np
import pytest
from dynamo.backends.common import python_function
from dynamo.backends.passes import cse, scalar_reads
from harness import check

import dynamo
from dynamo.graph import Graph
from dynamo.ops import ArrayMeta
from dynamo.symbolic.graph_args import SymArg

BACKENDS = ("eager", "numpy")


def trace(fn, *args) -> Graph:
    graphs = []

    def capture(graph, example_inputs):
        graphs.append(graph)
        return python_function(graph)

    dynamo.compile(fn, backend=capture)(*[np.copy(a) if isinstance(a, np.ndarray) else a
                                          for a in args])
    assert len(graphs) == 1
    return graphs[0]


def body_of(graph: Graph) -> Graph:
    """The body of the graph's loop node (the last one: a nested loop's first trip,
    unrolled before the outer node, has one of its own)."""
    return [n for n in graph.call_nodes() if n.target == "fori_loop"][-1].args[0]


def targets(graph: Graph) -> list:
    return [n.target for n in graph.call_nodes()]


def same_runs(old: Graph, new: Graph, fn, *args) -> None:
    """Both graphs give the same results and leave the same arguments (run on copies;
    ``fn``'s arguments in the graphs' order, by name)."""
    named = dict(zip(fn.__code__.co_varnames, args))
    old_args = [np.copy(named[p.name]) for p in old.placeholders]
    new_args = [np.copy(named[p.name]) for p in new.placeholders]
    want, got = python_function(old)(*old_args), python_function(new)(*new_args)
    for x, y in zip((*want, *old_args), (*got, *new_args)):
        assert type(x) is type(y)
        np.testing.assert_array_equal(x, y, strict=True)


def unit_reads(graph: Graph) -> int:
    """The ``x[()]`` reads of the graph."""
    return sum(n.target == "getitem" and n.args[1] == () for n in graph.call_nodes())


def trip_reads(graph: Graph, of: str = "") -> int:
    """The reads ``x[i]`` at the loop's index (``trip + 1``) of a loop body (of the
    input named ``of``, if given)."""
    return sum(n.target == "getitem" and isinstance(n.args[1], SymArg) and
               (not of or n.args[0].name == of) for n in graph.call_nodes())


# ----------------------------------------------------------------------- programs
def histogram(idx, w, hist):
    for k in range(idx.shape[0]):
        b = int(idx[k])
        hist[b] = hist[b] + w[k]
    return hist


def kmeans_assign(X, C, sums, counts):
    for i in range(X.shape[0]):
        u = int(np.argmin(((C - X[i]) ** 2).sum(axis=1)))
        sums[u] = sums[u] + X[i]
        counts[u] = counts[u] + 1
    return sums, counts


def int_then_write(x, out):
    """The int is the value before the write into its own array: ``x[0]`` read again
    after ``x[0] = ...`` differs, the int does not."""
    for k in range(out.shape[0]):
        u = int(x[0])
        x[0] = (u + 1) % x.shape[0]       # (u in Python arithmetic: unrolled)
        out[k] = x[u]
    return out


def argmin_then_write(d, seen, order):
    """``u`` indexes the array it came from after writing into it."""
    for k in range(order.shape[0]):
        u = int(np.argmin(d))
        d[u] = np.inf
        seen[u] = seen[u] + d[u]
        order[k] = k * 2.0
    return d, seen, order


def normalise_rows(X):
    for i in range(X.shape[0]):
        X[i] = X[i] / X[i].sum()
    return X


def read_write_read(x, y):
    """``x[i]`` read, then ``y[i]`` written, then ``x[i]`` read: with ``y`` the same
    array as ``x`` the second read sees the write."""
    for i in range(x.shape[0]):
        a = x[i] * 2.0
        y[i] = a + 1.0
        x[i] = x[i] + a
    return x, y


def read_write_read_rows(X, Y):
    """The same with rows (views): a view read after a write sees it either way."""
    for i in range(X.shape[0]):
        a = X[i] * 2.0
        Y[i] = a + 1.0
        X[i] = X[i] + a
    return X, Y


def read_nested_loop_read(x, y):
    """A nested loop node writes ``y[i]`` between two reads of ``x[i]``: with ``y`` the
    same array as ``x`` the second read sees the writes."""
    for i in range(x.shape[0]):
        a = x[i] + 0.0
        for _ in range(10):
            y[i] += 1.0
        x[i] = x[i] * a
    return x, y


def _rng(seed):
    return np.random.default_rng(seed)


def _hist_args(seed=0):
    return _rng(seed).integers(0, 16, 40), _rng(seed + 1).random(40), np.zeros(16)


def _kmeans_args(seed=0):
    return (_rng(seed).random((30, 2)), _rng(seed + 1).random((4, 2)), np.zeros((4, 2)),
            np.zeros(4, np.int64))


# --------------------------------------------------------------------- scalar_reads
def _scalar_copy_graph() -> Graph:
    """``c = copy(s); return c[()] + 1`` of a NumPy scalar ``s``: the snapshot the
    translator made for ``int(s)`` before a scalar became its own
    (``dynamo/variables/snapshots.py``); the pass still reads such a copy as ``s``."""
    g = Graph()
    meta, scalar = ArrayMeta((), np.dtype("i8")), ArrayMeta((), np.dtype("i8"), scalar=True)
    s = g.placeholder("s", {"array": scalar})
    c = g.call("copy", (s,), {}, meta={"array": meta, "kind": "elementwise"})
    r = g.call("getitem", (c, ()), {}, meta={"array": scalar, "kind": "view"})
    g.output((g.call("add", (r, 1), {}, meta={"array": scalar, "kind": "elementwise"}),))
    return g


def test_scalar_reads_reads_the_scalar_and_drops_the_copy():
    g = _scalar_copy_graph()
    new = scalar_reads(g)
    assert targets(g) == ["copy", "getitem", "add"] and targets(new) == ["add"]
    (got,) = python_function(new)(np.int64(3))
    assert got == 4 and type(got) is np.int64


def test_scalar_reads_of_an_argmin():
    """The translator indexes with argmin's scalar itself (no copy, no ``[()]``), which
    the pass leaves as it is."""
    graph = trace(kmeans_assign, *_kmeans_args())
    body = body_of(graph)
    assert "copy" not in targets(body) and unit_reads(body) == 0
    # the index of sums[u], counts[u] and their writes is argmin's own result
    assert sum(n.target in ("getitem", "setitem") and
               getattr(n.args[1], "target", None) == "argmin" for n in body.call_nodes()) == 4
    assert targets(scalar_reads(body)) == targets(body)
    same_runs(graph, scalar_reads(graph), kmeans_assign, *_kmeans_args(2))


def _zero_d_graph(write: bool) -> Graph:
    """``c = copy(p); [p[()] = 5;] return c[()] + 1`` of a 0-d array ``p`` (no scalar)."""
    g = Graph()
    meta, scalar = ArrayMeta((), np.dtype("i8")), ArrayMeta((), np.dtype("i8"), scalar=True)
    p = g.placeholder("p", {"array": meta})
    c = g.call("copy", (p,), {}, meta={"array": meta, "kind": "elementwise"})
    if write:
        g.call("setitem", (p, (), 5), {}, meta={"array": meta, "kind": "mutation"})
    r = g.call("getitem", (c, ()), {}, meta={"array": scalar, "kind": "view"})
    g.output((g.call("add", (r, 1), {}, meta={"array": scalar, "kind": "elementwise"}),))
    return g


@pytest.mark.parametrize("write", [False, True])
def test_scalar_reads_keeps_the_copy_of_an_array(write):
    """A 0-d array can change after it is copied: the copy stays, and is read."""
    g = _zero_d_graph(write)
    new = scalar_reads(g)
    assert targets(new) == targets(g)
    (got,) = python_function(new)(np.array(3))
    assert got == 4 and type(got) is np.int64


def test_scalar_reads_keeps_a_copy_someone_writes():
    def f(x):
        c = np.copy(x[0])
        c.reshape(1)[0] = 7     # (through a view: c's node is the copy's still)
        return x[c[()]]         # (7: the copy's write is read)

    graph = trace(f, np.arange(10))
    new = scalar_reads(graph)
    assert "copy" in targets(new)
    same_runs(graph, new, f, np.arange(10))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn,make", [
    (histogram, _hist_args), (kmeans_assign, _kmeans_args),
    (argmin_then_write, lambda seed=0: (_rng(seed).random(12), np.zeros(12), np.zeros(12))),
    (int_then_write, lambda seed=0: (np.arange(7), np.zeros(20, np.int64))),
], ids=["histogram", "kmeans", "argmin_then_write", "int_then_write"])
def test_programs_with_ints_of_arrays(fn, make, backend):
    for seed in range(3):
        check(fn, *make(seed), backend=backend)


# --------------------------------------------------------------- cse: indexed reads
def test_cse_reads_a_row_once_per_trip():
    graph = trace(normalise_rows, _rng(0).random((20, 3)) + 0.1)
    body = body_of(graph)
    assert trip_reads(body) == 2
    assert trip_reads(cse(body)) == 1
    same_runs(graph, cse(graph), normalise_rows, _rng(1).random((20, 3)) + 0.1)


def test_cse_reads_the_scalar_index_once():
    """``sums[u]`` twice in one trip (``sums[u] += X[i]`` reads it, then writes it):
    the writes keep their own reads; two reads with no write between are one."""
    def f(x, sums):
        for i in range(x.shape[0]):
            u = int(np.argmin(x[i]))
            sums[u] = sums[u] * 0.5 + sums[u]
        return sums

    args = (_rng(3).random((20, 5)), np.ones(5))
    graph = trace(f, *args)
    body = scalar_reads(body_of(graph))
    reads = lambda g: sum(n.target == "getitem" and getattr(n.args[1], "target", "") ==
                          "argmin" for n in g.call_nodes())
    assert reads(body) == 2 and reads(cse(body)) == 1
    same_runs(graph, cse(scalar_reads(graph)), f, *args)


@pytest.mark.parametrize("fn", [read_write_read, read_write_read_rows])
def test_cse_keeps_reads_a_write_separates(fn):
    x = _rng(4).random(12) if fn is read_write_read else _rng(4).random((12, 3))
    body = body_of(trace(fn, x, np.copy(x)))
    assert trip_reads(cse(body)) == trip_reads(body) == 2


def test_cse_keeps_reads_a_nested_loop_separates():
    x = _rng(5).random(12)
    graph = trace(read_nested_loop_read, x, np.copy(x))
    body = body_of(graph)
    assert "fori_loop" in targets(body)
    assert trip_reads(cse(body), "x") == trip_reads(body, "x") == 2
    same_runs(graph, cse(graph), read_nested_loop_read, x, np.copy(x))


def same_as_plain_on_views(fn, x, backend) -> None:
    """``fn(x, x[:])`` compiled gives plain's results and leaves plain's ``x``: two
    arguments, two objects, one memory (``check`` deep-copies its arguments, which
    keeps one object passed twice one object, but makes a view a copy)."""
    compiled = dynamo.compile(fn, backend=backend)
    want_x = np.copy(x)
    want = fn(want_x, want_x[:])
    for _ in range(2):                     # (traced, then from the cache)
        got_x = np.copy(x)
        got = compiled(got_x, got_x[:])
        np.testing.assert_array_equal(got_x, want_x, strict=True)
        for a, b in zip(got, want):
            np.testing.assert_array_equal(a, b, strict=True)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", [read_write_read, read_write_read_rows, read_nested_loop_read])
def test_aliased_arguments_read_after_the_write(fn, backend):
    """``y`` is a view of all of ``x``: the write into ``y[i]`` is ``x[i]``'s new value
    (eager's); and ``y`` the very same array, and another array."""
    for seed in range(3):
        x = _rng(seed).random((12, 3) if fn is read_write_read_rows else 12)
        same_as_plain_on_views(fn, x, backend)
        check(fn, x, x, backend=backend)
        check(fn, x, np.copy(x), backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_programs_that_read_rows_twice(backend):
    for seed in range(3):
        check(normalise_rows, _rng(seed).random((20, 3)) + 0.1, backend=backend)
