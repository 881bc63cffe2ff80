"""A ``for`` loop whose exit on array data runs code that reads a counter the body
steps (issue #19, task t6): PageRank's ``iterations += 1; if np.abs(r_new - r).sum() <
tol: r = r_new; break`` then ``return r, iterations``.

3.12+ copy the code after the loop (``return r, iterations``) into the ``break``'s
branch, so the counter is read inside the loop's instructions; it was taken for a
counter read in the body, and the loop broke at its exit test on 3.13/3.14 while 3.11
(whose ``break`` jumps past the loop) made one node. The exit's code runs once after the
node (``loop_exits.exit_code_span``, skipped by ``WhileScope._tests``), as on 3.11.
The results are eager's where the loop converges on the first trip, later, or never
(the range runs out), and with a ``return`` in the loop in place of the ``break``.
Where the range runs out, the code after the test runs once more: it steps the
counters it steps (``k += 1`` after the test), not those stepped before the test
(PageRank's count was one too many there on 3.11 too, before task t6).
"""

from __future__ import annotations

import numpy as np
import pytest
from harness import check


def pagerank_even_dangling(adj, d=0.85, tol=1e-10, max_iter=100):
    n = adj.shape[0]
    out_deg = adj.sum(axis=1)
    dangling = out_deg == 0
    P = adj / np.where(dangling, 1.0, out_deg)[:, None]
    r = np.full(n, 1.0 / n)
    iterations = 0
    for _ in range(max_iter):
        r_new = d * (r @ P + r[dangling].sum() / n) + (1 - d) / n
        iterations += 1
        if np.abs(r_new - r).sum() < tol:
            r = r_new
            break
        r = r_new
    return r, iterations


def power_return(A, tol=1e-9, max_iter=60):
    v = np.ones(A.shape[0]) / A.shape[0]
    steps = 0
    for _ in range(max_iter):
        w = A @ v
        w = w / np.abs(w).sum()
        steps += 2
        if np.abs(w - v).max() < tol:
            return w, steps
        v = w
    return v, -steps


def counted_after_test(A, tol=1e-9, max_iter=60):
    v = np.ones(A.shape[0]) / A.shape[0]
    k = 0
    for _ in range(max_iter):
        w = A @ v
        w = w / np.abs(w).sum()
        if np.abs(w - v).max() < tol:
            break
        v = w
        k += 1
    return v, k


def counted_both_sides(A, tol=1e-9, max_iter=60):
    v = np.ones(A.shape[0]) / A.shape[0]
    k = 0
    for _ in range(max_iter):
        k += 1
        w = A @ v
        w = w / np.abs(w).sum()
        if np.abs(w - v).max() < tol:
            break
        v = w
        k += 10
    return v, k


_R = np.random.default_rng(5)
_ADJ = (_R.random((8, 8)) < 0.3).astype(float)
_A = _R.random((6, 6)) + np.eye(6)

CASES = {
    "pagerank converges": (pagerank_even_dangling, (_ADJ,)),
    "pagerank runs out": (pagerank_even_dangling, (_ADJ, 0.85, 1e-300, 7)),
    "pagerank at once": (pagerank_even_dangling, (_ADJ, 0.85, 10.0)),
    "return converges": (power_return, (_A,)),
    "return runs out": (power_return, (_A, 1e-300, 5)),
    "return at once": (power_return, (_A, 10.0)),
    "after the test converges": (counted_after_test, (_A,)),
    "after the test runs out": (counted_after_test, (_A, 1e-300, 5)),
    "after the test at once": (counted_after_test, (_A, 10.0)),
}
# a counter stepped before and after the test: no node (a break), eager's results
BOTH = {
    "both converges": (counted_both_sides, (_A,)),
    "both runs out": (counted_both_sides, (_A, 1e-300, 5)),
}


@pytest.mark.parametrize("backend", ("eager", "numpy"))
@pytest.mark.parametrize("name", sorted(CASES))
def test_one_graph_and_eagers_results(name, backend):
    fn, args = CASES[name]
    check(fn, *args, backend=backend, graphs=1, breaks=0, calls=3)


@pytest.mark.parametrize("backend", ("eager", "numpy"))
@pytest.mark.parametrize("name", sorted(BOTH))
def test_a_counter_stepped_on_both_sides_is_eagers(name, backend):
    fn, args = BOTH[name]
    check(fn, *args, backend=backend, calls=3)
