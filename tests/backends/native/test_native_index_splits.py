"""Tier 2 on loops split at a comparison of their index (translator/index_splits.py,
issue #23): the segments are ordinary loop nodes, so the kernel runs them as
consecutive ``for trip in range(...)`` loops, bit for bit eager's (tier_runs.py), with
no call back into Python. One program, one Numba compile (about 2-3 s of CPU on a
loaded 2-core machine): boundary rows of a smoothing sweep (``if i == 0`` / ``elif
i == n - 1``) and a point left out (``elif i != 20``: a segment whose body is empty,
``pass`` in the kernel); tests/translator/test_index_split_loops.py has the others, and
scripts/bench_triangular.py times branchy Cholesky, Gauss-Jordan and a boundary-row
time stepper on tier 2.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

pytest.importorskip("numba")

from kernel_sources import kernel_sources  # noqa: E402
from tier_runs import same_in_tier_two  # noqa: E402


def boundary_sweep(u):
    n = u.shape[0]
    v = np.zeros_like(u)
    for i in range(n):
        if i == 0:
            v[i] = 0.5 * (u[i] + u[i + 1])
        elif i == n - 1:
            v[i] = 0.5 * (u[i - 1] + u[i])
        elif i != 20:   # (a point left out: a segment whose body does nothing)
            v[i] = 0.25 * u[i - 1] + 0.5 * u[i] + 0.25 * u[i + 1]
    return v


def test_split_loop_is_kernel_loops():
    u = np.random.default_rng(0).standard_normal(40)
    sources = kernel_sources(boundary_sweep, u)
    assert sources and all(isinstance(s, str) for s in sources), sources
    kernel = "".join(s.split("def kernel", 1)[1] for s in sources)
    # (i = 0 unrolled; i = 1..19, 20 (no store: ``pass``, which Numba's parser needs;
    # before, an IndentationError kept the graph in tier 1), 21..38, and 39)
    loops = re.findall(r"^ +for trip\d+ in range\((\d+)\):", kernel, re.M)
    assert loops == ["19", "1", "18", "1"], kernel
    assert re.search(r"^ +for trip\d+ in range\(1\):\n +pass$", kernel, re.M), kernel
    assert "objmode(" not in kernel, kernel
    same_in_tier_two(boundary_sweep, u)


def lower_rect(A):
    # ``j < i`` over ``range(m)`` with more rows than columns: the split point leaves
    # the j range at i > m, so the i loop splits there too (``_split_enclosing``);
    # ``3 * j >= 3 * i + 4`` is ``j >= i + 2`` (a coefficient of 3: ``unit_coefficient``)
    n, m = A.shape
    B = np.zeros_like(A)
    for i in range(n):
        for j in range(m):
            if j < i:
                B[i, j] = A[i, j]
            elif 3 * j >= 3 * i + 4:
                B[i, j] = 2.0 * A[i, j]
    return B


def test_rectangular_split_is_kernel_loops():
    A = np.random.default_rng(1).standard_normal((17, 12))
    kernel = "".join(s.split("def kernel", 1)[1] for s in kernel_sources(lower_rect, A))
    assert len(re.findall(r"^ +for trip\d+ in range\(", kernel, re.M)) >= 4, kernel
    assert "objmode(" not in kernel, kernel
    same_in_tier_two(lower_rect, A)


def band_abs(A, k):
    # ``abs(i - j) <= k``: the j loop split where abs's sign changes and at both edges
    # of the band (SymInt.__abs__; before, abs pinned the indices: no loop node)
    n = A.shape[0]
    B = np.zeros_like(A)
    for i in range(n):
        for j in range(n):
            if abs(i - j) <= k:
                B[i, j] = A[i, j] * A[j, i]
    return B


def test_abs_band_is_kernel_loops():
    A = np.random.default_rng(2).standard_normal((13, 13))
    kernel = "".join(s.split("def kernel", 1)[1] for s in kernel_sources(band_abs, A, 2))
    assert len(re.findall(r"^ +for trip\d+ in range\(", kernel, re.M)) >= 6, kernel
    assert "objmode(" not in kernel, kernel
    same_in_tier_two(band_abs, A, 2)


def computed_splits(A, k):
    # ``2 * j < i``: a split point ``ceil(i / 2)``, no affine int of i: the kernel
    # computes its floor in the i loop (``q = ((-trip + 1) // 2)``) and runs the j
    # loop as two loops of ``-q`` and ``q + n - 1`` trips; ``j <= i // 2`` the same
    # through the index's quotient, in a triangular j loop (translator/
    # split_quotients.py)
    n = A.shape[0]
    B = np.zeros_like(A)
    for i in range(n):
        for j in range(n):
            if 2 * j < i:
                B[i, j] = A[i, j] * A[j, j]
            else:
                B[i, j] = -A[i, j]
    for i in range(n):
        for j in range(i):
            if j <= i // 2:
                B[i, j] = B[i, j] + 1.0
            else:
                B[i, j] = k * B[i, j]
    return B


def test_computed_split_points_are_kernel_loops():
    A = np.random.default_rng(3).standard_normal((13, 13))
    kernel = "".join(s.split("def kernel", 1)[1]
                     for s in kernel_sources(computed_splits, A, 3))
    assert len(re.findall(r"^ +for trip\d+ in range\(", kernel, re.M)) >= 6, kernel
    assert re.search(r"^ +q\d+ = .*// 2", kernel, re.M), kernel
    assert "objmode(" not in kernel, kernel
    same_in_tier_two(computed_splits, A, 3)
