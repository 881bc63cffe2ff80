"""Triangular inner loops over sizes that change between calls (issue #23; the
translator's part: dynamo/translator/symbolic_corners.py, triangular_loops.py).

``for i in range(n): for j in range(i)`` with ``n = len(b)``: after the first
recompile ``n`` is a symbol, and the corners of the triangle the inner node is
checked at are expressions of it (the outer trips ``1`` and ``n - 1``, the inner
count ``i`` there). Each op is fitted at them over every size (symbolically, as a loop
of one level is), so one graph serves every later size. Before, the inner node was
refused ("reads a triangular loop's index and a size that is a symbol"), the inner loop
unrolled, the unrolled loop pinned ``n``: one trace per size (forward substitution,
Cholesky, LU, back substitution: five graphs for six sizes below). Results equal
eager's bit for bit on both CPU backends; sizes 0 and 1 (specialized) and sizes below
what the entry proved (fewer trips than the unroll limit) take entries of their own.
"""

from __future__ import annotations

import numpy as np
import pytest
from corpus_nested_loops import PROGRAMS
from test_nested_symbolic_counts import _Graphs, _grown, _nested_nodes, _symbolic

import dynamo
from dynamo import listeners


def gauss_elimination(A, b):
    # row reduction to upper triangular form: ``range(k + 1, n)`` twice, nested
    A = A.copy()
    b = b.copy()
    n = A.shape[0]
    for k in range(n):
        for i in range(k + 1, n):
            f = A[i, k] / A[k, k]
            for j in range(k, n):
                A[i, j] = A[i, j] - f * A[k, j]
            b[i] = b[i] - f * b[k]
    return A, b


def _r(*shape):
    return np.random.default_rng(0).random(shape)


NAMES = ["forward_sub_loops", "back_sub_loops", "cholesky_by_hand", "lu_by_hand",
         "triangular_lower", "upper_matvec", "lower_products", "pairwise_upper",
         "forward_sub_floats", "back_sub_floats", "cholesky_banachiewicz",
         "lu_doolittle_floats"]
SELECTED = [p for p in PROGRAMS if p[0] in NAMES] + [
    ("gauss_elimination", gauss_elimination,
     lambda: (_r(12, 12) + 12 * np.eye(12), _r(12)), True)]
GROWTH = (0, 1, 3, 6, 2, 9)


def _run(compiled, fn, args):
    copies = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    want = fn(*[a.copy() if isinstance(a, np.ndarray) else a for a in args])
    got = compiled(*copies)
    for g, w in zip(got if isinstance(got, tuple) else (got,),
                    want if isinstance(want, tuple) else (want,), strict=True):
        np.testing.assert_array_equal(g, w, strict=True)


@pytest.mark.parametrize("backend", ("eager", "numpy"))
@pytest.mark.parametrize("name, fn, make_args, nested", SELECTED,
                         ids=[p[0] for p in SELECTED])
def test_one_symbolic_graph_serves_every_later_size(name, fn, make_args, nested, backend):
    rng = np.random.default_rng(5)
    compiled = dynamo.compile(fn, backend=backend)
    with listeners.listening(_Graphs()) as seen:
        for d in GROWTH:
            _run(compiled, fn, _grown(make_args(), d, rng))
    assert len(seen.graphs) == 2, [len(g.nodes) for g in seen.graphs]
    symbolic = seen.graphs[1]
    assert _symbolic(symbolic)
    assert _nested_nodes(symbolic) >= 1


@pytest.mark.parametrize("name", ["forward_sub_loops", "back_sub_loops",
                                  "cholesky_by_hand", "gauss_elimination"])
def test_random_sizes_with_zero_and_one_equal_eager(name):
    """Sizes in a random order, 0 and 1 among them (each its own entry), then sizes the
    symbolic entry serves and sizes it does not (fewer rows than it proved)."""
    _, fn, make_args, _ = next(p for p in SELECTED if p[0] == name)
    rng = np.random.default_rng(17)
    sizes = [int(d) for d in rng.permutation([0, 1, 2, 5, 9, 14, 20, 31])]
    compiled = dynamo.compile(fn, backend="numpy")
    base = make_args()[0].shape[0]
    for size in [base, base + 1, *sizes]:
        args = _grown(make_args(), size - base, rng) if size >= 2 else [
            a[:size, :size] if a.ndim == 2 else a[:size] for a in make_args()]
        _run(compiled, fn, args)


def test_an_inner_range_past_a_fixed_size_is_guarded():
    """``x`` of fixed length 16 read at ``x[j]`` for ``j < i < len(b)``: the corner
    ``j = n - 2`` is in bounds only for ``n <= 17``, so the symbolic entry guards that
    (or is no node), and a longer ``b`` raises eager's ``IndexError``, never reading
    past ``x``."""
    x = np.arange(16.0)

    def partial_sums(b):
        out = np.zeros(b.shape[0])
        for i in range(b.shape[0]):
            s = b[i]
            for j in range(i):
                s = s + x[j]
            out[i] = s
        return out

    compiled = dynamo.compile(partial_sums, backend="numpy")
    for n in (12, 13, 15, 17, 14):
        b = np.arange(float(n))
        np.testing.assert_array_equal(compiled(b), partial_sums(b), strict=True)
    with pytest.raises(IndexError):
        partial_sums(np.arange(18.0))
    with pytest.raises(IndexError):
        compiled(np.arange(18.0))
