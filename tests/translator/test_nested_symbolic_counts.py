"""Nested loop nodes over trip counts that change between calls (issue #23; the
translator's part: dynamo/translator/nested_loops.py ``nested_fit``).

``for i in range(n)`` / ``for j in range(m)`` over sizes that become symbols after the
first recompile: an op reading both indices (``D[i, j - 1]``) is checked at the outer
loop's first and last trips, each an expression of the sizes, and at each the inner
loop's fit is symbolic, proven (or guarded) over every size. So the inner loop stays a
node, and one graph serves every later size. Before, such an op left the inner loop
unrolled; unrolling a symbolic count pinned the size, and every new size traced again
(five graphs for six sizes below; the cache filled at ``cache_size_limit`` sizes and
later sizes ran uncompiled). Results equal eager's bit for bit on both CPU backends;
sizes outside what the entry proved (a 3-row table, fewer trips than the unroll limit)
take an entry of their own, as before.
"""

from __future__ import annotations

import numpy as np
import pytest
from corpus_nested_loops import PROGRAMS

import dynamo
from dynamo import listeners
from dynamo.graph import Graph


class _Graphs:
    def __init__(self):
        self.graphs = []

    def on_graph(self, graph, ctx):
        self.graphs.append(graph)


def _nested_nodes(graph: Graph, depth: int = 0) -> int:
    count = 0
    for node in graph.call_nodes():
        if node.target == "fori_loop" and isinstance(node.args[0], Graph):
            count += (depth > 0) + _nested_nodes(node.args[0], depth + 1)
    return count


def _symbolic(graph: Graph) -> bool:
    return any("symbol" in p.meta for p in graph.placeholders)


def _grown(args, d, rng):
    """``args`` with every dimension above 1 grown by ``d`` (new random values; square
    matrices made diagonally dominant, as the corpus makes them)."""
    out = []
    for a in args:
        if not isinstance(a, np.ndarray):
            out.append(a)
            continue
        shape = tuple(s + d if s > 1 else s for s in a.shape)
        b = rng.integers(0, 4, shape).astype(a.dtype) if a.dtype.kind in "iu" \
            else rng.random(shape)
        if b.ndim == 2 and shape[0] == shape[1] and a.dtype.kind == "f":
            b = b @ b.T + shape[0] * np.eye(shape[0])
        out.append(b)
    return out


# the corpus programs whose inner ops read both indices, over sizes of the inputs
NAMES = ["dp_min3", "lcs_table", "wavefront", "row_prefix_sums", "column_prefix_sums",
         "floyd_warshall", "floyd_rows", "matmul_by_hand", "outer_scaled"]
SELECTED = [p for p in PROGRAMS if p[0] in NAMES]
GROWTH = (0, 1, 3, 6, 2, 9)


@pytest.mark.parametrize("backend", ("eager", "numpy"))
@pytest.mark.parametrize("name, fn, make_args, nested", SELECTED,
                         ids=[p[0] for p in SELECTED])
def test_one_symbolic_graph_serves_every_later_size(name, fn, make_args, nested, backend):
    rng = np.random.default_rng(11)
    compiled = dynamo.compile(fn, backend=backend)
    with listeners.listening(_Graphs()) as seen:
        for d in GROWTH:
            args = _grown(make_args(), d, rng)
            copies = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
            want = fn(*[a.copy() if isinstance(a, np.ndarray) else a for a in args])
            got = compiled(*copies)
            for g, w in zip(got if isinstance(got, tuple) else (got,),
                            want if isinstance(want, tuple) else (want,), strict=True):
                np.testing.assert_array_equal(g, w, strict=True)
    assert len(seen.graphs) == 2, [len(g.nodes) for g in seen.graphs]
    symbolic = seen.graphs[1]
    assert _symbolic(symbolic)
    assert _nested_nodes(symbolic) >= 1


def test_an_index_past_a_fixed_size_is_guarded():
    """A table of fixed width read at ``D[i, j]`` with ``i`` over ``len(x)``: the
    last outer trip's index is an expression of the size, proven only for sizes that
    fit the table, so a longer ``x`` takes an entry of its own and raises eager's
    ``IndexError`` (the nested node never reads past the table)."""
    def fill(x):
        D = np.zeros((14, 12))
        for i in range(len(x)):
            for j in range(1, 12):
                D[i, j] = D[i, j - 1] + x[i]
        return D

    compiled = dynamo.compile(fill, backend="numpy")
    for n in (10, 11, 13, 14, 12):
        x = np.arange(float(n))
        np.testing.assert_array_equal(compiled(x), fill(x), strict=True)
    with pytest.raises(IndexError):
        fill(np.arange(15.0))
    with pytest.raises(IndexError):
        compiled(np.arange(15.0))
