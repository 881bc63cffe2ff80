"""An outlined ``while`` body whose last statement is a ``for`` loop
(dynamo/bytecode/outline.py ``_body_code``).

On 3.11 the inner loop's ``FOR_ITER``, once its iterator is exhausted, pops it and
jumps straight into the ``while`` test at the bottom: the ``FOR_ITER`` is one of the
body's exits. It used to be replaced by the exit's ``return (tag, values)`` as an
unconditional jump is, so the inner loop ran no trip at all: a breadth-first search
over a deque (``while queue: u = queue.popleft(); for v in np.flatnonzero(adj[u]):
...``) returned every level but the source's as unvisited on the calls that ran the
outlined body (found by corpus 13, ``scripts/realworld_programs13_sci.py``). Now the
``FOR_ITER`` stays and its exhausted jump goes to a block of its own that returns.
3.12+ end a ``for`` loop with ``END_FOR`` inside the body, which falls into the test.

Example::

    def f(x):
        n = 1
        while n > 0:
            n -= 1
            for v in range(3):     # the body's last statement; print breaks the graph
                print(v)           # was: nothing printed by the compiled call
        return x
"""

from __future__ import annotations

from collections import deque

import numpy as np
import pytest
from harness import check

from dynamo.config import config

BACKENDS = ("eager", "numpy")


@pytest.fixture(autouse=True)
def outline_small_arrays(monkeypatch):
    """Small arrays are not outlined by default (``config.outline_min_elements``), and
    the trial would alternate outlined and plain calls: here every call is outlined."""
    monkeypatch.setattr(config, "outline_min_elements", 0)
    monkeypatch.setattr(config, "outline_trial_calls", 0)


def prints_in_the_inner_loop(x):
    n = 2
    while n > 0:
        n -= 1
        for v in range(3):
            print(n, v)
    return x


def data_branch_in_the_inner_loop(x):
    q = [0, 1]
    while q:
        q.pop()
        for v in range(len(x)):
            if x[v] < 0:
                x[v] = 9.0
    return x


def bfs_over_a_deque(adj, source):
    level = np.full(adj.shape[0], -1)
    level[source] = 0
    queue = deque([source])
    while queue:
        u = queue.popleft()
        for v in np.flatnonzero(adj[u]):
            if level[v] < 0:
                level[v] = level[u] + 1
                queue.append(v)
    return level


def accumulates_then_loops(x):
    total = np.zeros_like(x)
    k = 0
    while k < 3:
        total = total + x * k
        k += 1
        for j in range(2):
            print(j, end=",")
    return total, k


def _path_graph(n):
    adj = np.zeros((n, n))
    idx = np.arange(n - 1)
    adj[idx, idx + 1] = adj[idx + 1, idx] = 1.0
    return adj


PROGRAMS = [
    (prints_in_the_inner_loop, (np.ones(2),)),
    (data_branch_in_the_inner_loop, (np.array([-1.0, 2.0, -3.0]),)),
    (bfs_over_a_deque, (_path_graph(6), 0)),
    (bfs_over_a_deque, (_path_graph(7), 3)),
    (accumulates_then_loops, (np.arange(3.0),)),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn,args", PROGRAMS,
                         ids=[f"{f.__name__}-{i}" for i, (f, _) in enumerate(PROGRAMS)])
def test_the_inner_loop_runs_its_trips(fn, args, backend):
    check(fn, *args, backend=backend, calls=3)


def test_bfs_levels_are_the_distances():
    """The eager result itself, for the record: a path graph's levels from one end."""
    import dynamo
    got = dynamo.compile(bfs_over_a_deque, backend="eager")(_path_graph(5), 0)
    assert got.tolist() == [0, 1, 2, 3, 4]
