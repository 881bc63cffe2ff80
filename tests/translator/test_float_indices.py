"""``int()`` of a float array element as an array index is no graph break (issue #19,
``dynamo/translator/float_indices.py``): a histogram or a cell count kept by hand,
``hist[int((v - lo) / width)] += 1``, indexes with ``clip(trunc(t)).astype(int64)[()]``
behind the finite check ``int()`` has. Every outcome is eager's, on both CPU backends:
counts, negative indices (``int(-1.5)`` is -1: the last bin), ``int(-0.5)`` (0), NaN
(``ValueError``), infinity (``OverflowError``), out-of-bounds and huge values
(``IndexError``, eager's message), and no warning.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import dynamo

BACKENDS = ("eager", "numpy")


def hist_of_values(b):
    hist = np.zeros(5, dtype=np.int64)
    for x in b:
        hist[int(x)] += 1
    return hist


def hist_by_width(x, lo, hi):
    counts = np.zeros(4, dtype=int)
    width = (hi - lo) / 4
    for v in x:
        counts[int((v - lo) / width)] += 1
    return counts


def _outcome(fn, *args):
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            result = fn(*args)
        return "ok", result.dtype, result.tolist(), [str(w.message) for w in caught]
    except Exception as e:  # noqa: BLE001 (the outcome compared)
        return "raise", type(e), str(e)


_VALUES = [np.array([0.2, 1.7, 4.9, -0.5, -1.5, 3.0]), np.array([0.0, np.nan, 1.0]),
           np.array([1.0, np.inf]), np.array([1.0, 7.0]), np.array([1e19, 0.0]),
           np.array([-1e30, 0.0]), np.array([2.0 ** 62, 1.0])]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_float_made_int_indexes_in_the_graph(backend):
    compiled = dynamo.compile(hist_of_values, backend=backend)
    # (one compiled object: each outcome eager's; CI time: the numpy backend's
    # compiles cost more, it gets the counts, NaN and an index out of bounds)
    for b in _VALUES if backend == "eager" else _VALUES[:2] + _VALUES[3:4]:
        assert _outcome(compiled, b) == _outcome(hist_of_values, b), b
    report = dynamo.explain(hist_of_values, backend=backend)(_VALUES[0])
    assert (report.graph_count, report.graph_break_count) == (1, 0), report


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_histogram_by_hand_is_one_graph(backend):
    compiled = dynamo.compile(hist_by_width, backend=backend)
    for x in (np.array([-1.9, -0.1, 0.3, 1.99]), np.array([0.5, 2.5, 2.6, -3.0])):
        assert _outcome(compiled, x, -2.0, 2.0) == _outcome(hist_by_width, x, -2.0, 2.0)
    report = dynamo.explain(hist_by_width, backend=backend)(np.zeros(4), -2.0, 2.0)
    assert (report.graph_count, report.graph_break_count) == (1, 0), report
