"""A jump on ``np.array_equal`` / ``np.allclose`` of traced arrays tests the graph's 0-d
bool (dynamo/translator/compared_tests.py, issue #19): a loop whose exit is such a test
is one loop node, as with ``(a == b).all()``, where it used to break at every trip's
test (label propagation of corpus 12: 3 breaks, 7 compiles over 2 calls).

Each program is compared with Python (value, type, dtype, the arguments after the
call, twice) on both CPU backends, with the test ending the loop on its first trip, a
later one and never; and its graph and break counts. Kept as a value (returned,
``ok and 3``, ``not ok``) the bool stays a Python bool, made after the graph.
"""

from __future__ import annotations

import numpy as np
import pytest
from harness import check
from test_loop_while import while_nodes

BACKENDS = ("eager", "numpy")


def label_propagation(adj, max_iter=20):
    labels = np.arange(adj.shape[0], dtype=float)
    rounds = 0
    for _ in range(max_iter):
        neighbour_min = np.where(adj > 0, labels[None, :], np.inf).min(axis=1)
        new = np.minimum(labels, neighbour_min)
        if np.array_equal(new, labels):
            break
        labels = new
        rounds += 1
    return labels.astype(int), rounds


def babylonian_until_close(a, max_iter=30):
    x = np.maximum(a, 1.0)
    for i in range(max_iter):
        y = 0.5 * (x + a / x)
        if np.allclose(x, y, rtol=1e-12, atol=0.0):
            return y, i
        x = y
    return x, -1


def while_not_equal(a, b):
    n = 0
    while not np.array_equal(a, b):      # a while loop's own test
        a = np.minimum(a + 1, b)
        n += 1
    return a, n


def not_equal_continues(x, target, max_iter=10):
    steps = 0
    for _ in range(max_iter):
        if not np.array_equal(x, target):
            x = np.minimum(x + 1.0, target)
            steps += 1
    return x, steps


def kept_as_values(a, b):
    ok = np.allclose(a, b)
    same = np.array_equal(a, b)
    negated = not np.array_equal(a, b * 2)
    return a - 1, ok, same, negated, ok and 3


def _chain(n):
    adj = np.zeros((n, n))
    idx = np.arange(n - 1)
    adj[idx, idx + 1] = adj[idx + 1, idx] = 1.0
    return adj


CASES = [
    ("label propagation, converges", label_propagation, (_chain(6),)),
    ("label propagation, never converges", label_propagation, (_chain(40),)),
    ("label propagation, first trip", label_propagation, (np.zeros((5, 5)),)),
    ("allclose exit, returns", babylonian_until_close, (np.array([2.0, 9.0, 0.25]),)),
    ("allclose exit, first trip", babylonian_until_close, (np.ones(3),)),
    ("allclose exit, runs out", babylonian_until_close, (np.array([1e6, 2.0]),),),
    ("while not array_equal", while_not_equal, (np.zeros(3), np.array([4.0, 1.0, 2.0]))),
    ("while not array_equal, no trip", while_not_equal, (np.ones(2), np.ones(2))),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name,fn,args", CASES, ids=[c[0] for c in CASES])
def test_exit_on_compared_bool_is_one_loop_node(name, fn, args, backend):
    check(fn, *args, backend=backend, graphs=1, breaks=0)
    assert while_nodes(fn, args, backend) >= 1     # (the loop is a while_loop node)


@pytest.mark.parametrize("backend", BACKENDS)
def test_if_not_array_equal_in_a_loop(backend):
    check(not_equal_continues, np.zeros(3), np.array([2.0, 5.0, 1.0]), backend=backend)
    check(not_equal_continues, np.zeros(3), np.zeros(3), backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_kept_bools_stay_python_bools(backend):
    import dynamo
    a = np.arange(4.0)
    for b in (a.copy(), a + 1e-12, a + 1.0):
        check(kept_as_values, a, b, backend=backend)
        got = dynamo.compile(kept_as_values, backend=backend)(a, b)
        assert [type(v) for v in got[1:4]] == [bool, bool, bool]
