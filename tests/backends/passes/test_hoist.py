"""Loop-invariant code motion (``passes.hoist_invariants``): what leaves a loop body,
what stays, and that compiled programs still behave exactly like plain Python.

Each program is run plain and compiled with the numpy backend (``check``: values,
dtypes, the arguments afterwards); the graph tests look at the loop node after the
pass, and the code tests at the body the numpy backend generates.
"""

import logging
import warnings

import numpy as np
import pytest
from dynamo.backends.common import python_function
from dynamo.backends.numpy_backend import numpy_backend
from dynamo.backends.passes import hoist_invariants
from dynamo.backends.passes.pipeline import PIPELINE
from harness import check, rand

import dynamo
from dynamo import listeners
from dynamo.graph import Graph


def trace(fn, *args):
    """The one graph of ``fn`` and its example inputs."""
    found = []

    def capture(graph, example_inputs):
        found.append((graph, example_inputs))
        return python_function(graph)

    dynamo.compile(fn, backend=capture)(*[a.copy() if isinstance(a, np.ndarray) else a
                                          for a in args])
    assert len(found) == 1
    return found[0]


def loop_node(graph: Graph):
    (node,) = [n for n in graph.call_nodes() if n.target == "fori_loop"]
    return node


def body_targets(graph: Graph) -> list:
    return [n.target for n in loop_node(graph).args[0].call_nodes()]


def generated(caplog, graph, inputs, **options) -> tuple[str, str]:
    """The numpy backend's code for ``graph``: (the loop body's, the function's)."""
    caplog.clear()
    with caplog.at_level(logging.DEBUG, logger="dynamo.backend"):
        fn = numpy_backend(graph, inputs, options)
    (body,) = [r.getMessage() for r in caplog.records if "_taking(" in r.getMessage()]
    return body[body.index("_taking("):], fn.__dynamo_source__


def run_pass(fn, *args):
    """The graph before and after the pass; both run to the same results."""
    graph, inputs = trace(fn, *args)
    before = str(graph)
    new = hoist_invariants(graph)
    assert str(graph) == before, "a pass must not modify its input graph"
    args = list(inputs)
    old_args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    new_args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    for x, y in zip(python_function(graph)(*old_args), python_function(new)(*new_args)):
        np.testing.assert_array_equal(x, y, strict=True)
    for x, y in zip(old_args, new_args):
        np.testing.assert_array_equal(x, y, strict=True)
    return graph, new


U = rand(64, dtype=np.float64)
A = rand(64, 64, dtype=np.float64, seed=1)
M = np.arange(64, dtype=np.int64) % 7


# ------------------------------------------------------------------ what moves

def kalman_like(u, A, m):
    for _ in range(20):
        At = A.T                                  # a view of an unchanged array
        mask = m > 3                              # a quiet integer comparison
        row = At[0]                               # a view of a hoisted view
        u = u * 0.5 + row * np.where(mask, 1.0, 0.0)
    return u


def test_views_and_integer_masks_of_unchanged_arrays_leave_the_body():
    graph, new = run_pass(kalman_like, U, A, M)
    assert {"transpose", "greater"} <= set(body_targets(graph))
    assert not {"transpose", "greater"} & set(body_targets(new))
    node = loop_node(new)
    # the body reads mask and row; At is dead after the loop, so only what the
    # body reads is handed in
    assert [n.target for n in node.args[3]] == ["greater", "getitem"]
    outer = [n.target for n in new.call_nodes()]
    assert outer.index("greater", outer.index("add")) < outer.index("fori_loop")
    check(kalman_like, U, A, M, backend="numpy", graphs=1, breaks=0)


def test_the_generated_body_reads_the_hoisted_values(caplog):
    graph, inputs = trace(kalman_like, U, A, M)
    body, code = generated(caplog, graph, inputs)
    loop = body[body.index("for trip in"):]
    assert ".T" not in loop and "_greater" not in loop, body
    # before the loop: the first trip (traced unrolled), then the hoisted mask; the
    # hoisted A.T is the first trip's (cse merges the two views)
    head = code[:code.index("_loop(")]
    assert head.count("A.T") == 1 and head.count("_greater(m, 3)") == 2, code
    assert "_loop(19, _carried, greater_1, getitem)" in code, code
    old, _ = generated(caplog, graph, inputs, skip_passes=["hoist_invariants"])
    assert ".T" in old[old.index("for trip in"):]


def test_free_inputs_and_eye_leave_the_body():
    cfg = {"H": rand(4, 4, dtype=np.float64, seed=3)}

    def f(x, P):
        for _ in range(12):
            H = cfg["H"]                          # a free input (read through a dict)
            K = P @ H.T                           # matmul: may signal, stays
            P = (np.eye(4) - K @ H) @ P * 0.5     # np.eye(4): a fresh unwritten array
            x = x + K[:, 0]
        return x, P

    x, P = rand(4, dtype=np.float64), rand(4, 4, dtype=np.float64, seed=4)
    graph, new = run_pass(f, x, P)
    assert "eye" in body_targets(graph) and "eye" not in body_targets(new)
    assert "transpose" not in body_targets(new)
    assert "matmul" in body_targets(new)
    check(f, x, P, backend="numpy", graphs=1, breaks=0)


def test_a_hoisted_value_left_after_the_loop_is_the_last_trips():
    def f(u, m):
        for _ in range(10):
            mask = m > 2
            u = u + 1.0
        mask[0] = True                            # written after the loop: its own array
        return u, mask, m

    graph, new = run_pass(f, U, M)
    assert "greater" not in body_targets(new)
    check(f, U, M, backend="numpy", graphs=1, breaks=0)


# ------------------------------------------------------------------ what stays

def test_a_fresh_buffer_written_each_trip_stays():
    def f(u, w):
        for _ in range(10):
            z = np.zeros_like(w)                  # written below: a new buffer each trip
            z[1:-1] = 0.5 * (u[:-2] + u[2:])
            u = z
        return u

    graph, new = run_pass(f, U, U * 2)
    assert "zeros_like" in body_targets(new)
    check(f, U, U * 2, backend="numpy", graphs=1, breaks=0)


def test_a_fresh_buffer_written_through_a_view_stays():
    def f(u):
        for _ in range(10):
            z = np.zeros((8, 8))
            z[0][:] = u[:8]                       # a write through a view of z
            u = u + z.sum()
        return u

    _, new = run_pass(f, U)
    assert "zeros" in body_targets(new)
    check(f, U, backend="numpy", graphs=1, breaks=0)


def test_ops_on_a_slot_written_in_place_stay():
    def f(u, m):
        for _ in range(10):
            k = m + 1                             # m is written below: not invariant
            m[0] += 1
            u = u + k
        return u, m

    graph, new = run_pass(f, U, M)
    assert "add" in body_targets(new)
    assert [n.target for n in loop_node(new).args[3]] == []
    check(f, U, M, backend="numpy", graphs=1, breaks=0)


def test_ops_on_a_slot_written_through_a_view_stay():
    def f(u, m):
        for _ in range(10):
            k = m * 2
            v = m[2:]
            v[0] += 1                             # a write into m through a view
            u = u + k
        return u, m

    _, new = run_pass(f, U, M)
    assert "multiply" in body_targets(new)
    check(f, U, M, backend="numpy", graphs=1, breaks=0)


def test_a_value_carried_to_the_next_trip_stays():
    def f(u, m):
        k = m + 0
        for _ in range(10):
            k[0] += 1                             # the carried k, written in place
            u = u + k
            k = m + 1                             # rebound: must be a new array each trip
        return u, k

    _, new = run_pass(f, U, M)
    assert "add" in [t for t in body_targets(new)]
    check(f, U, M, backend="numpy", graphs=1, breaks=0)


def test_ops_that_read_the_index_stay():
    def f(u, A):
        for i in range(10):
            u = u + A[i]                          # a view, but of another row each trip
        return u

    _, new = run_pass(f, U, A)
    assert "getitem" in body_targets(new)
    check(f, U, A, backend="numpy", graphs=1, breaks=0)


def fp_invariant(u, c):
    for _ in range(10):
        r = np.log(c)                             # invariant, but may warn: stays
        u = u + r
    return u


def test_float_ops_that_may_signal_stay():
    _, new = run_pass(fp_invariant, U, np.abs(U) + 1.0)
    assert "log" in body_targets(new)


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_warnings_per_trip_are_eagers(backend):
    c = np.abs(U) + 1.0
    c[3] = 0.0                                    # log(0): "divide by zero" every trip
    compiled = dynamo.compile(fp_invariant, backend=backend)
    counts, results = [], []
    for f in (fp_invariant, compiled):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            got = f(U.copy(), c)
        counts.append(len([w for w in caught if issubclass(w.category, RuntimeWarning)]))
        results.append(got)
    np.testing.assert_array_equal(*results, strict=True)
    assert counts[0] == counts[1] == 10           # one per trip
    with np.errstate(divide="raise"), pytest.raises(FloatingPointError):
        compiled(U.copy(), c)


def test_graphs_without_loops_are_returned_unchanged():
    graph, _ = trace(lambda x: x.T + 1, A)
    assert hoist_invariants(graph) is graph


def _sums_below(x, edges):
    counts = np.zeros(len(edges) - 1, dtype=np.int64)
    for v in x[np.isfinite(x)]:          # a trip count only the data decides
        counts += (edges[:-1] <= v) & (v < edges[1:])
    return counts


def test_a_trip_count_read_off_an_array_is_the_new_graphs():
    """The loop node's trip count, ``sym_size`` of the selection, is a node of the
    graph: after the pass it is the copy's, so later passes find it (a KeyError in
    ``strength_reduce`` before)."""
    class Graphs:
        graphs: list = []

        def on_graph(self, graph, ctx):
            self.graphs.append(graph)

    x, edges = np.array([0.5, np.nan, 1.5, 2.5]), np.array([0.0, 1.0, 2.0, 3.0])
    with listeners.listening(Graphs()) as seen:
        dynamo.explain(_sums_below, backend="eager")(x, edges)
    graph = hoist_invariants(seen.graphs[0])
    trips = loop_node(graph).args[1]
    assert set(trips.nodes.values()) <= set(graph.nodes), str(graph)
    for p in PIPELINE:
        graph = p(graph)
    check(_sums_below, x, edges, backend="numpy")


def shifted_sums(X, Y):
    for i in range(12):
        t = X.T                                   # a view: still leaves the body
        Y[i] = t[i] * 2 + t[0] + X.sum()          # t[0] and X.sum() are read each trip
    return Y


def test_values_of_an_input_that_may_share_a_written_inputs_memory_stay():
    """``f(x[1:], x[:-1])``: two arrays to the trace, one buffer: ``Y[1] = ...`` writes
    ``X[0]`` (``input_overlap``; issue #17, hostile round 47: t[0] and X.sum() were
    computed once before the loop)."""
    def call(f):
        x = np.arange(14, dtype=np.int64) - 3
        return f(x[1:], x[:-1]).copy(), x

    for want, got in zip(call(shifted_sums), call(dynamo.compile(shifted_sums,
                                                                 backend="numpy"))):
        np.testing.assert_array_equal(want, got, strict=True)
    X, Y = np.arange(13, dtype=np.int64), np.zeros(13, np.int64)
    _, new = run_pass(shifted_sums, X, Y)
    assert "transpose" not in body_targets(new)
    assert {"getitem", "sum"} <= set(body_targets(new))
