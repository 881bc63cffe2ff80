"""``np.ndindex`` of a static shape is traced as an iterator of index tuples (issue #19,
kernels_corpus5.py ``ndindex_neighbour_sum``): the loop unrolls in one graph, and the
iterator rebuilt by the glue is a real ``np.ndindex`` at the same position."""

from __future__ import annotations

import numpy as np
import pytest
from harness import check

import dynamo


def outer_by_index(a):
    rows, cols = a.shape
    out = np.empty((rows, cols))
    for r, c in np.ndindex(rows, cols):
        out[r, c] = a[r, c] * (r + 1) - a[r, :c + 1].sum()
    return out


def tuple_shape_and_count(a):
    total = a[0, 0] * 0
    n = 0
    for idx in np.ndindex(a.shape):
        total = total + a[idx] * (n + 1)
        n += 1
    return total, n, list(np.ndindex(2, 1)), list(np.ndindex())


def three_d(a):
    return [a[i, j, k] * (i - j + k) for i, j, k in np.ndindex(a.shape)]


@pytest.mark.parametrize("backend", ["eager", "numpy"])
@pytest.mark.parametrize("fn,shape", [(outer_by_index, (3, 4)), (tuple_shape_and_count, (2, 3)),
                                      (three_d, (2, 2, 2))],
                         ids=lambda v: getattr(v, "__name__", str(v)))
def test_ndindex_loop_is_one_graph(fn, shape, backend):
    a = np.arange(float(np.prod(shape))).reshape(shape)
    check(fn, a, graphs=1, breaks=0, backend=backend)


def part_way(n):
    it = np.ndindex(n, 2)
    first = next(it)
    return first, it


def test_an_iterator_that_escapes_is_a_real_ndindex_at_its_position():
    first, it = dynamo.compile(part_way, backend="eager")(3)
    want_first, want_it = part_way(3)
    assert first == want_first
    assert type(it) is type(want_it)
    assert list(it) == list(want_it)


def test_break_inside_the_loop_keeps_the_position():
    def f(a):
        out = []
        for i, j in np.ndindex(*a.shape):
            if i == 1 and j == 0:
                print("row", i)       # a break part way through the loop
            out.append(a[i, j] * 2)
        return out
    check(f, np.arange(6.0).reshape(2, 3))
