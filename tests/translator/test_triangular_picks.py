"""A pick over an inner loop, stored by the outer one, is a nested loop node (issue #19).

``arg = 0`` (or the first column) in the outer body, then ``if D[i, j] < best: best =
D[i, j]; arg = j`` over ``range(i)`` (a triangular node), ``range(i + 1, n)`` or a
fixed ``range(m)``, then ``out[i] = arg``: the inner node carries ``arg`` as an
``np.int64`` (``picked_numbers``, now also for a number the enclosing trip sets and a
triangular node: ``triangular_loops.picked_plan``), and after it ``out[i] = int(...)``
into an ``int64`` array stores the carried scalar itself (``stored_numbers``). Before,
the outer loop was unrolled and, past the unroll budget, broke.

At 40 rows (nodes) and 1, 2, 3 rows (unrolled), NaN among the values, on both CPU
backends: results (types included) are eager's; the first call at 40 rows makes one
graph with a ``fori_loop`` node nested in another's body and no break. An ``int`` stored into
an ``int32`` or a ``float64`` array is no such store (a Python int past int32 raises
where an int64 would wrap): eager's results still.
"""

from __future__ import annotations

import copy
import warnings

import numpy as np
import pytest
from harness import nested_types, outcome, same_outcome

import dynamo
from dynamo import listeners

BACKENDS = ("eager", "numpy")


def nearest_earlier(D):
    n = D.shape[0]
    out = np.zeros(n, dtype=np.int64)
    for i in range(1, n):
        best = D[i, 0]
        arg = 0
        for j in range(i):
            if D[i, j] < best:
                best = D[i, j]
                arg = j
        out[i] = arg
    return out


def nearest_later(D):
    n = D.shape[0]
    out = np.full(n, -1, dtype=np.int64)
    for i in range(n - 1):
        best = D[i, i + 1]
        arg = i + 1
        for j in range(i + 1, n):
            if D[i, j] < best:
                best = D[i, j]
                arg = j
        out[i] = arg
    return out


def row_argmin(D):
    out = np.zeros(D.shape[0], dtype=np.int64)
    for i in range(D.shape[0]):
        best = D[i, 0]
        arg = 0
        for j in range(D.shape[1]):
            if D[i, j] < best:
                best = D[i, j]
                arg = j
        out[i] = arg
    return out


def row_argmin_and_value(D):
    out = np.zeros(D.shape[0], dtype=np.int64)
    vals = np.zeros(D.shape[0])
    for i in range(D.shape[0]):
        best = D[i, 0]
        arg = 0
        for j in range(D.shape[1]):
            if D[i, j] < best:
                best = D[i, j]
                arg = j
        out[i] = arg
        vals[i] = best
    return out, vals


def into(dtype):
    def row_argmin_into(D):
        out = np.zeros(D.shape[0], dtype=dtype)
        for i in range(D.shape[0]):
            best = D[i, 0]
            arg = 0
            for j in range(D.shape[1]):
                if D[i, j] < best:
                    best = D[i, j]
                    arg = j
            out[i] = arg
        return out
    return row_argmin_into


def _square(n, seed):
    d = np.random.default_rng(seed).random((n, n))
    d[::5, ::3] = np.nan
    return d


PROGRAMS = {"nearest_earlier": nearest_earlier, "nearest_later": nearest_later,
            "row_argmin": row_argmin, "row_argmin_and_value": row_argmin_and_value}
CALLS = [(_square(40, 0),), *((_square(n, n),) for n in (1, 2, 3)), (_square(40, 1),)]


class _Graphs:
    def __init__(self):
        self.graphs = []

    def on_graph(self, graph, ctx):
        self.graphs.append(graph)


def _depth(graph) -> int:
    """How deep ``fori_loop`` nodes nest in ``graph`` (0: none; 2: one in a body)."""
    return max((1 + _depth(n.args[0]) for n in graph.call_nodes()
                if n.target == "fori_loop"), default=0)


def _matches_eager(fn, compiled, calls, name):
    for i, args in enumerate(calls):
        want = outcome(fn, copy.deepcopy(args))
        got = outcome(compiled, copy.deepcopy(args))
        same_outcome(want, got, f"{name} call {i}")
        assert nested_types(got[0]) == nested_types(want[0]), f"{name} call {i}"


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_a_pick_stored_per_row_is_eagers(name, backend):
    fn = PROGRAMS[name]
    dynamo.reset()
    _matches_eager(fn, dynamo.compile(fn, backend=backend), CALLS, name)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_a_pick_stored_per_row_is_a_nested_node(name):
    fn = PROGRAMS[name]
    dynamo.reset()
    with listeners.listening(_Graphs()) as seen, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = dynamo.explain(fn, backend="eager")(*copy.deepcopy(CALLS[0]))
    assert (report.graph_count, report.graph_break_count) == (1, 0), \
        [b.reason for b in report.break_reasons]
    assert max(_depth(g) for g in seen.graphs) == 2


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", [np.int32, np.float64, np.uint8])
def test_a_pick_stored_into_another_dtype_is_eagers(dtype, backend):
    fn = into(dtype)
    dynamo.reset()
    _matches_eager(fn, dynamo.compile(fn, backend=backend), CALLS, f"into {dtype}")
