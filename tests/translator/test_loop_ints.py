"""``u = int(np.argmin(c))`` inside a loop node's body, then ``u`` as an index and as an
operand of a ufunc or ``np.where`` (dynamo/variables/loop_ints.py, issues #19/#15).

Prim's minimum spanning tree and greedy selections pick an index per trip; the loop
used to be refused as a node (the int as ``np.where``'s operand needed its value), so it
was unrolled: one graph of ``n`` trips' ops (Prim on 400 nodes of corpus 12: 5 s to
compile). Now it is one ``fori_loop`` node where the 0-d array gives NumPy's result
dtype (an int64 or float64 partner); an ``int32`` or ``float32`` partner keeps the
Python int (and the loop unrolled, as before), as does ``u`` read after the loop or in
Python arithmetic.

Each program is compared with Python (values, dtypes, the arguments after the call,
twice) on both CPU backends; the loop-node count says which way it went.
"""

from __future__ import annotations

import numpy as np
import pytest
from harness import check
from test_loop_nodes import compiled_call

import dynamo

BACKENDS = ("eager", "numpy")


def prim_parents(W, parent):
    n = W.shape[0]
    in_tree = np.zeros(n, dtype=bool)
    in_tree[0] = True
    best = W[0].copy()
    total = 0.0
    for _ in range(n - 1):
        cand = np.where(in_tree, np.inf, best)
        u = int(np.argmin(cand))
        total = total + cand[u]
        in_tree[u] = True
        closer = W[u] < best
        parent = np.where(closer & ~in_tree, u, parent)
        best = np.minimum(best, W[u])
    return total, parent


def nearest_first_order(D, key):
    n = D.shape[0]
    seen = np.zeros(n, dtype=bool)
    for _ in range(n):
        u = int(np.argmin(np.where(seen, np.inf, D[0])))
        seen[u] = True
        key = np.maximum(key, u)          # a ufunc with the int as an operand
    return key, seen


def index_read_after(D):
    n = D.shape[0]
    seen = np.zeros(n, dtype=bool)
    u = -1
    for _ in range(n):
        u = int(np.argmin(np.where(seen, np.inf, D[0])))
        seen[u] = True
    return seen, u                       # u read after the loop: no node


def _w(n, seed=0):
    rng = np.random.default_rng(seed)
    w = rng.random((n, n))
    return w + w.T


CASES = [   # (name, fn, args, a loop node expected)
    ("Prim, int64 parents", prim_parents, (_w(14), np.zeros(14, dtype=np.int64)), True),
    ("Prim, float64 parents", prim_parents, (_w(14, 1), np.full(14, -1.0)), True),
    ("Prim, int32 parents", prim_parents, (_w(14, 2), np.zeros(14, dtype=np.int32)), False),
    ("Prim, float32 parents", prim_parents, (_w(14, 3), np.zeros(14, dtype=np.float32)), False),
    ("maximum with the int, int64", nearest_first_order,
     (_w(14, 4), np.zeros(3, dtype=np.int64)), True),
    ("maximum with the int, uint8", nearest_first_order,
     (_w(14, 5), np.zeros(3, dtype=np.uint8)), False),
    ("the int read after the loop", index_read_after, (_w(14, 6),), False),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name,fn,args,node", CASES, ids=[c[0] for c in CASES])
def test_int_of_argmin_in_a_loop_body(name, fn, args, node, backend, monkeypatch):
    # (with a 14x14 matrix under ``outline_min_elements`` as with one above it:
    # test_a_loop_node_over_small_arrays)
    monkeypatch.setattr(dynamo.config, "outline_min_elements", 64)
    check(fn, *args, backend=backend, breaks=0)
    _, loops, _ = compiled_call(fn, *args, backend=backend)
    assert (loops >= 1) == node


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_loop_node_over_small_arrays(backend):
    """With every array under ``config.outline_min_elements`` the loop is a node too
    (before task p62/t1 it ran as Python: the trip's copy of the int's 0-d array and
    its ``getitem(u, ())`` per use cost more than the Python loop; the numpy backend
    now reads the NumPy scalar itself, ``backends/passes/scalar_reads.py``)."""
    args = (_w(14), np.zeros(14, dtype=np.int64))
    check(prim_parents, *args, backend=backend)
    _, loops, _ = compiled_call(prim_parents, *args, backend=backend)
    assert loops == 1
