"""A random draw that returns a Python number (``rng.random()``, ``rng.exponential(s)``,
``np.random.randint(n)``) is an unbacked number in arithmetic and as an op's argument,
as ``float(x)`` is, and ``X[min(idx, n - 1)]`` of an ``np.intp`` and a Python int indexes
with the graph's select (issue #19, corpus 11: k-means++ seeding and Gillespie-style
loops broke at ``np.searchsorted(cdf, rng.random())`` and again at the index). The
values, their types and the random stream are eager's."""

from __future__ import annotations

import numpy as np
import pytest
from harness import check


def kmeans_plusplus(X, k, seed=0):
    rng = np.random.default_rng(seed)
    n = X.shape[0]
    centers = np.empty((k, X.shape[1]))
    centers[0] = X[rng.integers(n)]
    closest = ((X - centers[0]) ** 2).sum(axis=1)
    for c in range(1, k):
        idx = np.searchsorted(np.cumsum(closest / closest.sum()), rng.random())
        centers[c] = X[min(idx, n - 1)]
        closest = np.minimum(closest, ((X - centers[c]) ** 2).sum(axis=1))
    return centers, rng.random()


def waiting_times(x, rng):
    t = 0.0
    for i in range(3):
        t += rng.exponential(1.0 / (i + 1))
    u = rng.random() * 2 - 1
    return x * t + u, t, u, type(t), rng.integers(5) + 1


def legacy_stream(x):
    np.random.seed(3)
    return x + np.random.random() * np.random.randint(4), np.random.rand()


def clipped_index(x, i):
    j = np.argmax(x)
    x[min(j, i)] = -1.0                 # a write at the chosen place
    return x[max(i, j)], x


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_draws_in_arithmetic_are_one_graph(backend):
    X = np.random.default_rng(1).standard_normal((30, 2))
    check(kmeans_plusplus, X, 3, graphs=1, breaks=0, backend=backend)
    check(waiting_times, np.arange(3.0), np.random.default_rng(5), graphs=1, breaks=0,
          backend=backend)
    check(legacy_stream, np.arange(3.0), graphs=1, breaks=0, backend=backend)


@pytest.mark.parametrize("backend", ["eager", "numpy"])
@pytest.mark.parametrize("i", [1, 4])
def test_index_by_min_of_int_and_numpy_int(backend, i):
    check(clipped_index, np.array([0.5, 3.0, 1.0, 2.0, 0.0]), i, graphs=1, breaks=0,
          backend=backend)
