"""Counter ``while`` loops over sizes that change between calls (issue #23;
dynamo/translator/counted_whiles.py).

``k = 0; while k < n: ...; k += 1`` with ``n = len(x)`` is the ``for k in range(n)``
loop written with a counter. Before, it was unrolled, each test guarding ``n > k``
and the last ``not (n > 60)``: every size traced and compiled again (six graphs for
the six sizes below). Now the trips left after the first are one ``fori_loop`` node
whose count is a size expression (``n - k``, ``n - 1 - k``, ``k - n + 1``): the first
size traces a static graph, and one symbolic graph serves every later size.
Results, the counter's value after the loop included, equal plain Python's bit for
bit (same ops, same order). Sizes 0 and 1 (specialized) and sizes with fewer trips
than ``config.loop_unroll_limit`` (unrolled) take entries of their own, as a ``for``
loop's do. Loops that may leave other than through their test, that use the counter
as a plain int, or change their bound stay unrolled, with Python's results.
"""

from __future__ import annotations

import numpy as np
import pytest

import dynamo
from dynamo import listeners


def prefix_sum(x):
    n = len(x)
    k = 1
    while k < n:
        x[k] += x[k - 1]
        k += 1
    return x, k


def diag_sum(A):
    n = A.shape[0]
    s = 0.0
    k = 0
    while k < n:
        s = s + A[k, k] * (0.5 * k)   # (the counter as a number, too)
        k += 1
    return s, k


def countdown(x):
    n = len(x)
    k = n - 1
    while k >= 1:
        x[k - 1] += 0.5 * x[k]
        k -= 1
    return x, k


def bound_on_the_left(x):
    n = len(x)
    k = 0
    while n > k:
        x[k] = x[k] * x[k]
        k += 1
    return x, k


def gauss_counted(A, b):
    # ``while k < n - 1``, slices that follow the counter, a temporary per trip
    A = A.copy()
    b = b.copy()
    n = A.shape[0]
    k = 0
    while k < n - 1:
        f = A[k + 1:, k] / A[k, k]
        A[k + 1:, k:] -= f[:, None] * A[k, k:]
        b[k + 1:] -= f * b[k]
        k += 1
    return A, b, k


def floyd_counted(D):
    n = D.shape[0]
    k = 0
    while k <= n - 1:
        D = np.minimum(D, D[:, k:k + 1] + D[k:k + 1, :])
        k += 1
    return D, k


def _square(n, rng):
    return (rng.random((n, n)) + n * np.eye(n),)


def _vector(n, rng):
    return (rng.random(n),)


PROGRAMS = [(prefix_sum, _vector), (diag_sum, _square), (countdown, _vector),
            (bound_on_the_left, _vector),
            (gauss_counted, lambda n, rng: (*_square(n, rng), rng.random(n))),
            (floyd_counted, _square)]
IDS = [p[0].__name__ for p in PROGRAMS]
GROWING = (12, 13, 15, 18, 14, 21)


class _Graphs:
    def __init__(self):
        self.graphs = []

    def on_graph(self, graph, ctx):
        self.graphs.append(graph)


def _loop_nodes(graph) -> int:
    return sum(node.target == "fori_loop" for node in graph.call_nodes())


def _check(compiled, fn, args):
    want = fn(*[a.copy() for a in args])
    got = compiled(*[a.copy() for a in args])
    for g, w in zip(got, want, strict=True):
        assert type(g) is type(w), (g, w)
        np.testing.assert_array_equal(g, w, strict=True)


@pytest.mark.parametrize("backend", ("eager", "numpy"))
@pytest.mark.parametrize("fn, make", PROGRAMS, ids=IDS)
def test_one_symbolic_graph_serves_every_later_size(fn, make, backend):
    rng = np.random.default_rng(3)
    compiled = dynamo.compile(fn, backend=backend)
    with listeners.listening(_Graphs()) as seen:
        for n in GROWING:
            _check(compiled, fn, make(n, rng))
    # the first size's static graph, then one symbolic graph with the loop node
    assert len(seen.graphs) == 2, [len(g.nodes) for g in seen.graphs]
    assert any("symbol" in p.meta for p in seen.graphs[1].placeholders)
    assert _loop_nodes(seen.graphs[1]) == 1


@pytest.mark.parametrize("fn, make", PROGRAMS, ids=IDS)
def test_every_size_equals_python(fn, make):
    rng = np.random.default_rng(4)
    compiled = dynamo.compile(fn, backend="numpy")
    for n in (20, 31, 0, 1, 2, 11, 17):
        _check(compiled, fn, make(n, rng))


def with_break(x):
    n = len(x)
    k = 0
    while k < n:
        if k > 15:
            break
        x[k] = x[k] * 2.0
        k += 1
    return x, k


def with_return(x):
    n = len(x)
    k = 0
    while k < n:
        x[k] = x[k] + 1.0
        k += 1
        if k == 17:
            return x, -1
    return x, k


def counter_as_plain_int(x):
    n = len(x)
    k = 0
    while k < n:
        if k % 2 == 0:
            x[k] = 0.0
        k += 1
    return x, k


def bound_changes(x):
    n = len(x)
    k = 0
    while k < n:
        x[k] = 1.0
        n -= 1
        k += 1
    return x, k, n


def step_of_two(x):
    n = len(x)
    k = 0
    while k < n:
        x[k] = -x[k]
        k += 2
    return x, k


@pytest.mark.parametrize("fn", [with_break, with_return, counter_as_plain_int,
                                bound_changes, step_of_two])
def test_loops_that_are_no_counted_node_equal_python(fn):
    rng = np.random.default_rng(5)
    compiled = dynamo.compile(fn, backend="numpy")
    with listeners.listening(_Graphs()) as seen:
        for n in (20, 30, 0, 1, 13):
            _check(compiled, fn, (rng.random(n),))
    assert not any(_loop_nodes(g) for g in seen.graphs)   # unrolled, as before
