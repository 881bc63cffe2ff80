"""``itertools.product``/``permutations``/``combinations``/``combinations_with_replacement``
are traced as iterators whose items are known while tracing (issue #19, corpus 11's
polynomial features: 4 breaks and 5 compiles over 5 calls before, "creating an
instance of combinations_with_replacement (it defines __new__)"): the loop unrolls in
one graph, the members may be arrays, and an iterator that escapes or is live at a
break is the real itertools iterator at the same position."""

from __future__ import annotations

import itertools
from itertools import combinations_with_replacement

import numpy as np
import pytest
from harness import check

import dynamo


def polynomial_features(X, degree=2):
    n, d = X.shape
    cols = [np.ones(n)]
    for deg in range(1, degree + 1):
        for combo in combinations_with_replacement(range(d), deg):
            cols.append(np.prod(X[:, combo], axis=1))
    return np.column_stack(cols)


def pairwise_products(arrays):
    total = arrays[0].sum() * 0
    for a, b in itertools.combinations(arrays, 2):
        total = total + (a * b).sum()
    for i, j in itertools.product(range(2), repeat=2):
        total = total + arrays[i][j].sum() * (i - j)
    orders = [p for p in itertools.permutations("abc", 2)]
    return total, orders, list(itertools.permutations(range(3)))


def product_of_pools(x, scales):
    return [x * s + k for s, k in itertools.product(scales, (1, 2))]


@pytest.mark.parametrize("backend", ["eager", "numpy"])
@pytest.mark.parametrize("fn,args", [
    (polynomial_features, (np.arange(12.0).reshape(4, 3),)),
    (pairwise_products, ([np.arange(4.0).reshape(2, 2) + k for k in range(3)],)),
    (product_of_pools, (np.arange(3.0), [0.5, 2.0])),
], ids=lambda v: getattr(v, "__name__", "args"))
def test_loop_over_itertools_is_one_graph(fn, args, backend):
    check(fn, *args, graphs=1, breaks=0, backend=backend)


def part_way(x):
    it = itertools.combinations(range(4), 2)
    next(it)
    return x + 1, it


def test_an_iterator_that_escapes_is_the_real_one_at_its_position():
    _, it = dynamo.compile(part_way, backend="eager")(np.ones(2))
    _, want = part_way(np.ones(2))
    assert type(it) is type(want)
    assert list(it) == list(want)


def test_break_inside_the_loop_keeps_the_position():
    def f(a):
        out = []
        for i, j in itertools.combinations_with_replacement(range(3), 2):
            if (i, j) == (1, 1):
                print("pair", i, j)       # a break part way through the loop
            out.append(a[i] * a[j])
        return out
    check(f, np.arange(3.0))


def test_python_errors_stay_python_errors():
    def no_r(x):
        return x, list(itertools.combinations(range(3)))   # TypeError: r missing

    def negative(x):
        return x, list(itertools.permutations(range(3), -1))   # ValueError
    for fn in (no_r, negative):
        check(fn, np.ones(2))
