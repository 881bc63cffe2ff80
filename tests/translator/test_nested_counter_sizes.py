"""A counter stepped in an inner loop (``k += 1`` under ``for j in range(A.shape[1])``)
over sizes that change between calls (issue #17; dynamo/translator/loop_body_state.py
``_counter``).

From the second size on, ``A.shape[1]`` is a symbol ``s1``: the outer loop unrolls,
and each outer trip's inner loop is a node whose counter starts where the trip before
left it, ``k0 = i * s1``, itself symbolic. The counter at a trip is ``k0 + step *
trip``; ``k0`` was folded into the ``Sym``'s constant as a ``SymInt``, which printed as
``trip + SymInt(12, s1 + 1)`` in the body: ``NameError: name 'SymInt' is not defined``
on the eager backend and ``Specialize`` on the numpy backend, both escaping to the
user. Now it is added as an expression, ``trip + s1 + 1``, over the body's own ``s1``
input. Results, ``k`` and the absence of internal fallbacks are checked at sizes
10, 11, 12, 3, 1, 0 on both CPU backends.
"""

from __future__ import annotations

import logging

import numpy as np
import pytest

import dynamo
from dynamo import listeners
from dynamo.graph_printable import unprintable_args


def inner_counter(A):
    k = 0
    for i in range(A.shape[0]):
        for j in range(A.shape[1]):
            A[i, j] = A[i, j] + k
            k += 1
    return A, k


def stepped_from_argument(A, k0):
    k = k0
    for i in range(A.shape[0]):
        for j in range(A.shape[1]):
            A[i, j] = A[i, j] * 0.5 + k
            k += 2
    return A, k


def counter_read_twice(A):
    k = 3
    for i in range(A.shape[0]):
        for j in range(A.shape[1]):
            A[i, j] = A[i, j] - k * 0.25 + (k - i)
            k += 1
    return A.sum(), k


SIZES = (10, 11, 12, 3, 1, 0)
SHAPES = {
    "square": lambda n: (n, n),
    "wide": lambda n: (3, n),      # the outer count fixed, the inner one symbolic
    "tall": lambda n: (n, 4),      # the inner count fixed, the outer one symbolic
}
PROGRAMS = {
    "inner_counter": (inner_counter, ()),
    "stepped_from_argument": (stepped_from_argument, (7,)),
    "counter_read_twice": (counter_read_twice, ()),
}


class _Graphs:
    def __init__(self):
        self.graphs = []

    def on_graph(self, graph, ctx):
        self.graphs.append(graph)


@pytest.mark.parametrize("backend", ("eager", "numpy"))
@pytest.mark.parametrize("shape", sorted(SHAPES))
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_inner_counter_over_changing_sizes(name, shape, backend, caplog):
    fn, extra = PROGRAMS[name]
    compiled = dynamo.compile(fn, backend=backend)
    rng = np.random.default_rng(3)
    with caplog.at_level(logging.WARNING, logger="dynamo.internal"), \
            listeners.listening(_Graphs()) as seen:
        for n in SIZES:
            A = rng.random(SHAPES[shape](n))
            want = fn(A.copy(), *extra)
            got = compiled(A.copy(), *extra)
            assert type(got[1]) is type(want[1]) and got[1] == want[1], (n, got[1], want[1])
            np.testing.assert_array_equal(got[0], want[0], strict=True)
    internal = [r.getMessage() for r in caplog.records if r.name == "dynamo.internal"]
    assert internal == []
    # the sizes did become symbols (the case that failed), and every graph prints
    assert any("symbol" in p.meta for g in seen.graphs for p in g.placeholders)
    assert all(unprintable_args(g) == [] for g in seen.graphs)


def test_the_repro_second_size_on_both_backends():
    """The report's own calls: 10x10, then 11x11 (the second call raised)."""
    for backend in ("eager", "numpy"):
        compiled = dynamo.compile(inner_counter, backend=backend)
        for n in (10, 11):
            A = np.random.default_rng(n).random((n, n))
            got, k = compiled(A.copy())
            want, k_want = inner_counter(A.copy())
            assert k == k_want == n * n
            np.testing.assert_array_equal(got, want, strict=True)
