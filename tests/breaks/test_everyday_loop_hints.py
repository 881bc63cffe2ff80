"""Everyday loops that still break say so at the user's line, with a hint that fits
(issue #19, task t6): a histogram by hand into a Python list (``counts[int(v)] +=
1``: the break is at the read of ``counts[k]`` once ``int(v)`` is a number the glue
makes, and ``list_counts`` now finds that shape too), a count into a dict keyed by
``int()`` of the data (``hints_statements``: ``np.unique(..., return_counts=True)``,
not "use ints as keys"), and a ``while <array test>:`` loop that returns when a
counter reaches a bound (``WhileScope._check_index_uses``: the ``for it in
range(maxit)`` rewrite, not "carry the count as a 0-d array"). Each result is still
eager's.
"""

from __future__ import annotations

import copy
import inspect
import warnings

import numpy as np
import pytest
from harness import outcome, same_outcome

import dynamo


def list_hist(v):
    counts = [0] * 10
    for t in v:
        counts[int(t)] += 1
    return counts


def list_hist_indexed(v):
    counts = [0] * 5
    for i in range(v.shape[0]):
        counts[int(v[i])] += 1
    return np.array(counts)


def list_hist_binned(x, nbins):
    counts = [0] * nbins
    lo, hi = x.min(), x.max()
    for t in x:
        k = int((t - lo) / (hi - lo) * (nbins - 1))
        counts[k] += 1
    return counts


def dict_hist(labels):
    counts = {}
    for label in labels:
        label = int(label)
        counts[label] = counts.get(label, 0) + 1
    return counts


def halve_until_small(x, limit):
    steps = 0
    while (x > limit).any():
        x = np.where(x > limit, x / 2, x)
        steps += 1
        if steps > 100:
            return x, None
    return x, steps


_R = np.random.default_rng(3)
_A = _R.random((5, 5)) + 5 * np.eye(5)

# name -> (function, arguments, the line's text, words the hint must hold)
CASES = {
    "list_hist": (list_hist, (_R.integers(0, 10, 30).astype(float),),
                  "counts[int(t)] += 1", "np.bincount"),
    "list_hist_indexed": (list_hist_indexed, (_R.integers(0, 5, 30),),
                          "counts[int(v[i])] += 1", "np.bincount"),
    "list_hist_binned": (list_hist_binned, (_R.random(30), 6), "counts[k] += 1",
                         "np.bincount"),
    "dict_hist": (dict_hist, (_R.integers(0, 4, 30),),
                  "counts[label] = counts.get(label, 0) + 1", "return_counts=True"),
    "halve_until_small": (halve_until_small, (_R.random(6) * 100, 1.0),
                          "while (x > limit).any():", "for it in range(maxit)"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_break_names_the_line_and_a_fitting_hint(name):
    fn, args, line, words = CASES[name]
    dynamo.reset()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = dynamo.explain(fn, backend="eager")(*copy.deepcopy(args))
    # (a loop that breaks at its test breaks there again in the function that resumes
    # after the break: the same line, the same words)
    assert report.graph_break_count in (1, 2), [b.reason for b in report.break_reasons]
    first = inspect.getsourcelines(fn)[1]
    source = inspect.getsource(fn).splitlines()
    for record in report.break_reasons:
        assert record.filename == __file__
        assert source[record.lineno - first].strip() == line
        assert words in record.hint, record.hint
        # (the generic advice of the cases before: no longer what is said)
        assert "carry the count as a 0-d array" not in record.hint
        assert "use ints or strings as keys" not in record.hint


@pytest.mark.parametrize("backend", ("eager", "numpy"))
@pytest.mark.parametrize("name", sorted(CASES))
def test_the_results_are_eagers(name, backend):
    fn, args, _, _ = CASES[name]
    dynamo.reset()
    compiled = dynamo.compile(fn, backend=backend)
    for i in range(2):
        same_outcome(outcome(fn, copy.deepcopy(args)), outcome(compiled, copy.deepcopy(args)),
                     f"{name} call {i}")
