"""Compiles of outlined loop bodies (dynamo/bytecode/outline.py) on their first calls
(issue #16, t8): a body function is compiled once, not once for the first trip and
again for the second, where nothing truly differs between trips.

Before: conjugate gradients with a break in its body compiled the body with ``Ap``
unbound (the frame-reader check at the break guarded the marker's type), then bound;
the loop's item (``i == 0``, then 1) was guarded by value in the body and again in
the resume function after the body's break: 6 compiles over two calls where 4 serve.
Each program runs eagerly and compiled (``check``) on both CPU backends.
"""

from __future__ import annotations

import contextlib
import io

import numpy as np
import pytest
from harness import check

import dynamo
from dynamo.config import config

BACKENDS = ("eager", "numpy")


@pytest.fixture(autouse=True)
def outline_small_arrays(monkeypatch):
    """Small arrays, outlined at once (no trial of both ways): the mechanism is under
    test, not the choice (``config.outline_min_elements``, ``outline_trial_calls``)."""
    monkeypatch.setattr(config, "outline_min_elements", 0)
    monkeypatch.setattr(config, "outline_trial_calls", 0)


def cg_logged(A, b, iters):
    """CG whose body prints the iteration: a break in the body; ``Ap``, ``alpha`` and
    ``rs_new`` are bound by the first trip only."""
    x = np.zeros_like(b)
    r = b - A @ x
    p = r.copy()
    rs = r @ r
    for i in range(iters):
        Ap = A @ p
        alpha = rs / (p @ Ap)
        x = x + alpha * p
        r = r - alpha * Ap
        rs_new = r @ r
        print(i, end=" ")
        p = r + (rs_new / rs) * p
        rs = rs_new
    return x, i


def power_logged(A, iters):
    """Power iteration: ``lam`` a Python float before the loop, an ``np.float64``
    after the first trip (a type that truly differs: one more body entry)."""
    v = np.ones(A.shape[0]) / np.sqrt(A.shape[0])
    lam = 0.0
    for it in range(iters):
        w = A @ v
        lam_new = v @ w
        v = w / np.linalg.norm(w)
        print(it, abs(lam_new - lam) < 1e-3, end=" ")
        lam = lam_new
    return lam, v, it


def _spd(n):
    m = np.random.default_rng(0).standard_normal((n, n))
    return m @ m.T + n * np.eye(n)


def _compiles(fn, args, backend, calls=2):
    dynamo.reset()
    with contextlib.redirect_stdout(io.StringIO()), \
            dynamo.explain(fn, backend=backend) as compiled:
        for _ in range(calls):
            compiled(*args)
    return [r.code.co_qualname for r in compiled.report.records], compiled.report


@pytest.mark.parametrize("backend", BACKENDS)
def test_cg_body_compiles_once(backend):
    A, b = _spd(6), np.ones(6)
    check(cg_logged, A, b, 5, backend=backend)
    names, report = _compiles(cg_logged, (A, b, 5), backend)
    # the frame, the body, the resume function after the body's print, the one after
    # the loop; before: the body twice (Ap's marker, then i) and its resume function
    # twice (i == 0, then 1)
    assert len(names) == 4, names
    assert not report.recompiles, [str(r) for r in report.recompiles]


@pytest.mark.parametrize("backend", BACKENDS)
def test_power_iteration_body_compiles_once_per_type(backend):
    A = _spd(5)
    check(power_logged, A, 6, backend=backend)
    names, report = _compiles(power_logged, (A, 6), backend)
    # the body once with lam a float and once with an np.float64 (exact: the types
    # differ), its resume function once (not again for it == 1)
    assert len(names) == 5, names
    assert all("expected type float, got float64" in str(r) for r in report.recompiles), \
        [str(r) for r in report.recompiles]
