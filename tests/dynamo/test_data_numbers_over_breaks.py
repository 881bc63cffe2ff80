"""A Python number the graph computes from array data (``float(x.max())``,
``int(np.argmax(x))``), carried over a graph break into a resume function, is a
changing number there from the resume function's first trace
(``break_entry._data_numbers``, issue #16): the data decides it, so guarded by the
value it had at the first trace, each resume function compiled twice. A use that
needs the value (a branch) still guards it.
"""

import collections
import math

import numpy as np
import pytest

import dynamo

XS = [np.random.default_rng(60 + i).standard_normal(5) for i in range(10)]


class BestScore:
    """``if score > self.best`` on ``score = float(...)``: a break; both of its resume
    functions read ``score`` (stored, then ``x / score``)."""

    def __init__(self):
        self.best, self.best_step, self.step = -math.inf, -1, 0

    def update(self, x):
        score = float(x.max() - x.min())
        if score > self.best:
            self.best, self.best_step = score, self.step
        self.step += 1
        return x / score


class ArgmaxCounter:
    """``self.counts[int(np.argmax(x))] += 1`` in a defaultdict: the key is on the
    stack at the break (``int() of an array used as a dict key``)."""

    def __init__(self):
        self.counts = collections.defaultdict(int)

    def visit(self, x):
        self.counts[int(np.argmax(x))] += 1
        return x - x.max()


def _compare(make, method, backend):
    """10 calls plain and compiled: the same results and state after each; the
    recompiles after the first call."""
    sides = []
    for compiled in (False, True):
        obj = make()
        fn = getattr(obj, method)
        explainer = dynamo.explain(fn, backend=backend) if compiled else None
        f = explainer.__enter__() if compiled else fn
        try:
            sides.append([(f(x), dict(vars(obj))) for x in XS])
        finally:
            if compiled:
                explainer.__exit__(None, None, None)
    for (a, sa), (b, sb) in zip(*sides):
        np.testing.assert_allclose(a, b, rtol=1e-12)
        assert {k: dict(v) if isinstance(v, dict) else v for k, v in sa.items()} == \
            {k: dict(v) if isinstance(v, dict) else v for k, v in sb.items()}
    return [r for r in f.report.recompiles if r.call >= 1]


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_a_score_from_data_over_a_branch_break(backend):
    """At most one recompile (``self.best`` from -inf to a float), not one more per
    resume function for ``score`` (3 before); none since ``self.best``, a float the
    method stores, is a changing number from the first trace (dynamo/stored_floats.py)."""
    recompiles = _compare(BestScore, "update", backend)
    assert len(recompiles) <= 1, "\n".join(map(str, recompiles))
    assert all("self.best" in str(r) for r in recompiles), recompiles


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_an_argmax_key_on_the_stack_at_the_break(backend):
    """The key ``int(np.argmax(x))`` passed on the stack: a changing int of the resume
    function (the key guarded present or absent), 1 recompile (2 before)."""
    recompiles = _compare(ArgmaxCounter, "visit", backend)
    assert len(recompiles) <= 1, "\n".join(map(str, recompiles))


class HitRate:
    """``self.hits / self.n`` with ``self.hits += int(...)`` of data: the division of
    a number only the graph knows breaks, and its quotient, the result of the breaking
    instruction, is on top of the resume function's stack."""

    def __init__(self):
        self.hits, self.n = 0, 0

    def step(self, x):
        self.hits += int((x > 0).sum())
        self.n += x.shape[0]
        return x * (self.hits / self.n)


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_arithmetic_of_a_data_number_at_the_break(backend):
    """The quotient is a changing number of the resume function from its first trace
    (``break_entry._arithmetic_of_data``): no recompile of the resume function at the
    second call (1 before); ``self.n``'s first change costs the frame's."""
    recompiles = _compare(HitRate, "step", backend)
    assert not [r for r in recompiles if "after the break" in r.where], \
        "\n".join(map(str, recompiles))
    assert len(recompiles) <= 1, "\n".join(map(str, recompiles))
