"""A running best kept from a Python number over a loop node (issue #19, task p63/t2;
``translator/running_choices.py``, ``translator/carried_choice.py``).

``best = np.inf`` (or ``-1``, ``0``, ``-1.0``), then ``if d < best: best = d`` with ``d``
a NumPy scalar, over a loop of more than ``config.loop_unroll_limit`` trips, is one loop
node carrying ``best`` as its value and a flag "ever set": after the loop ``best`` is
eager's object, the Python number where no trip set it (NaN data, data that never
beats the start, an empty loop), else the NumPy scalar of the last trip that set it,
of its own type and dtype (float32 data: ``np.float32``, NEP 50).

Each program is compared with eager on both CPU backends (result values, types and
dtypes, nested; printed output, warnings), and its break count is pinned.
"""

from __future__ import annotations

import copy
import warnings

import numpy as np
import pytest
from harness import nested_types, outcome, same_outcome

import dynamo

BACKENDS = ("eager", "numpy")


def closest(x, C):
    best = np.inf
    idx = -1
    for k in range(C.shape[0]):
        d = np.sum((x - C[k]) ** 2)
        if d < best:
            best = d
            idx = k
    return idx, best


def closest_last_tie(x, C):
    best = np.inf
    idx = -1
    for k in range(C.shape[0]):
        d = np.sum((x - C[k]) ** 2)
        if d <= best:
            best = d
            idx = k
    return idx, best


def int_max(X):
    best = -1
    for i in range(X.shape[0]):
        v = X[i].max()
        if v > best:
            best = v
    return best


def float32_max(X, start):
    best = start
    for i in range(X.shape[0]):
        v = X[i].sum() * np.float32(2)
        if v > best:
            best = v
    return best


def set_in_else(X):
    best = 0.5
    for i in range(X.shape[0]):
        v = X[i].min()
        if v >= best:
            pass
        else:
            best = v
    return best


def two_locals(scores, labels):
    best_t, best_acc = 0.0, -1.0
    for t in np.linspace(0.0, 1.0, 12):
        acc = ((scores >= t) == labels).mean()
        if acc > best_acc:
            best_acc = acc
            best_t = t
    return best_t, best_acc


def used_after(X):
    best = -np.inf
    for i in range(X.shape[0]):
        v = X[i].max()
        if v > best:
            best = v
    return best * X, X[0, 0] - best, type(best).__name__


def int_start_float_data(X):
    best = 0
    for i in range(X.shape[0]):
        v = X[i].max()
        if v > best:
            best = v
    return best


def scalar_trips(x):
    """Only NumPy scalars per trip: the node would be no faster than the break
    (``running_choices.works_on_arrays``), so the loop keeps its break."""
    best = -1
    for i in range(x.shape[0]):
        if x[i] > best:
            best = x[i]
    return best


def window(x, w):
    best = -np.inf
    start = 0
    for i in range(x.shape[0] - w + 1):
        s = x[i:i + w].sum()
        if s > best:
            best = s
            start = i
    return start, best


_R = np.random.default_rng(11)
_x = _R.random(3)
_C = _R.random((20, 3))
_ties = np.vstack([_C[:5], _C[3:4], _C[3:4], _C[8:]])   # rows 3, 5, 6 equal
_F = _R.standard_normal((16, 3))
_I = _R.integers(-5, 9, (16, 3))
_F32 = _R.standard_normal((16, 3)).astype(np.float32)

# name -> (function, argument sets: the first one traced, breaks of the first, a node)
PROGRAMS = {
    "closest": (closest, [(_x, _C), (_x, np.full((20, 3), np.nan)),
                          (_x, np.full((20, 3), np.inf)), (_x, _ties),
                          (np.full(3, np.nan), _C)], 0, True),
    "closest_f32": (closest, [(_x.astype(np.float32), _C.astype(np.float32)),
                              (_x.astype(np.float32), np.full((20, 3), np.nan, np.float32))],
                    0, True),
    "closest_empty": (closest, [(_x, _C), (_x, _C[:0]), (_x, _C[:1])], 0, True),
    "closest_last_tie": (closest_last_tie, [(_x, _ties), (_x, _C)], 0, True),
    "int_max": (int_max, [(_I,), (np.full((16, 3), -7),), (np.full((16, 3), -1),)], 0, True),
    "float32_exact_start": (float32_max, [(_F32, -1.0), (np.full((16, 3), -3, np.float32), -1.0),
                                          (np.full((16, 3), np.nan, np.float32), -1.0)],
                            0, True),
    "float32_inf_start": (float32_max, [(_F32, -np.inf),
                                        (np.full((16, 3), np.nan, np.float32), -np.inf)],
                          0, True),
    "set_in_else": (set_in_else, [(_F,), (np.ones((16, 3)),), (np.full((16, 3), np.nan),)],
                    0, True),
    "two_locals": (two_locals, [(_R.random(30), _R.random(30) > 0.5),
                                (np.full(30, np.nan), np.zeros(30, bool))], 0, True),
    "used_after": (used_after, [(_F,), (np.full((16, 3), -np.inf),)], 1, True),
    "int_start_float_data": (int_start_float_data, [(_F,), (-np.ones((16, 3)),),
                                                    (np.full((16, 3), np.nan),)], 0, True),
    "window": (window, [(_F[:, 0], 4), (np.full(16, np.nan), 4)], 0, True),
    "scalar_trips": (scalar_trips, [(_I[:, 0],), (np.full(16, -7),)], 1, False),
}


def _matches_eager(fn, compiled, argsets, name):
    for i, args in enumerate([*argsets, *argsets]):
        want = outcome(fn, copy.deepcopy(args))
        got = outcome(compiled, copy.deepcopy(args))
        same_outcome(want, got, f"{name} call {i}")
        assert nested_types(got[0]) == nested_types(want[0]), f"{name} call {i}"


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_a_running_best_over_a_node_is_eagers(name, backend):
    fn, argsets, _, _ = PROGRAMS[name]
    dynamo.reset()
    _matches_eager(fn, dynamo.compile(fn, backend=backend), argsets, name)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_a_running_best_over_a_node_is_one_loop_node(name):
    """No break at the ``if`` (``used_after``: one, after the loop, at ``type(best)``,
    which is data), and the loop is a node, not unrolled (``scalar_trips``: a break
    at the ``if``, by the rule of ``works_on_arrays``)."""
    fn, argsets, breaks, node = PROGRAMS[name]
    dynamo.reset()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = dynamo.explain(fn, backend="eager")(*copy.deepcopy(argsets[0]))
    assert report.graph_break_count == breaks, [b.reason for b in report.break_reasons]
    graphs = report.graphs
    assert (bool(graphs) and "fori_loop" in str(graphs[0])) == node   # (before a break)


def test_an_inexact_start_keeps_the_break():
    """``v > 0.1`` of a float32 ``v`` compares 0.1 rounded to float32: no carried value
    holds it exactly, so the loop keeps its break (and eager's results)."""
    args = [(_F32, 0.1), (np.full((16, 3), 0.05, np.float32), 0.1)]
    dynamo.reset()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = dynamo.explain(float32_max, backend="eager")(*copy.deepcopy(args[0]))
    assert report.graph_break_count == 1
    for backend in BACKENDS:
        dynamo.reset()
        _matches_eager(float32_max, dynamo.compile(float32_max, backend=backend), args,
                       "float32_inexact_start")
