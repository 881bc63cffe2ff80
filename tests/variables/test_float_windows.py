"""A deque (or list) of Python floats whose length changes between calls, read whole by
``sum``, ``max``, ``min`` and ``len`` (a smoothed loss, a reward window, a best-so-far):
each read is one changing number the call computes with Python's own builtin from the
items held and the ones the trace appended (``variables/float_windows.py``), and the
length is a changing int, so a window that fills and then slides keeps one entry, not
one per length (issue #16).

Checked against plain Python over many calls with changing values (results bit for bit,
types, the deque left behind), with the recompiles after the first call counted by
``dynamo.explain``; Python's own ``sum`` is exact on every version (3.11 adds one by
one, 3.12 and later compensate the rounding), so values that round differently under
the two are among the inputs.
"""

import collections
import math

import numpy as np
import pytest
from harness import outcome, same_outcome

import dynamo

# losses whose sums round differently with and without compensation
LOSSES = [0.1, 1e16, 0.3, -1e16, 0.7, 1.0 / 3.0, 2.5e-8, 0.2, 1e-300, 7.25, -0.0, 0.6]


class Smoother:
    """A smoothed loss over a ``deque(maxlen=3)`` of the floats passed in."""

    def __init__(self, n=3):
        self.recent = collections.deque(maxlen=n)

    def step(self, x, loss):
        self.recent.append(loss)
        return x * (sum(self.recent) / len(self.recent))


class Extremes:
    """The best and worst of the last five rewards (``max(d)``, ``min(d)``)."""

    def __init__(self):
        self.rewards = collections.deque(maxlen=5)

    def step(self, x, r):
        self.rewards.append(r)
        return x * max(self.rewards) - min(self.rewards)


class History:
    """A plain list of losses that grows without bound: its mean so far."""

    def __init__(self):
        self.losses = []

    def step(self, x, loss):
        self.losses.append(loss)
        return x * (sum(self.losses) / len(self.losses)), max(self.losses)


class FullWindow:
    """``if len(d) == d.maxlen``: the window's mean only once it is full."""

    def __init__(self):
        self.window = collections.deque(maxlen=4)

    def step(self, x, v):
        self.window.append(v)
        if len(self.window) == self.window.maxlen:
            return x + sum(self.window) / 4
        return x


def _run(obj, method, args_of, calls, backend):
    """Each call's outcome for plain Python and for ``method`` compiled (of a copy made
    the same way), the states left, and the compiled side's recompiles after call 0."""
    want_obj, got_obj = obj(), obj()
    dynamo.reset()
    with dynamo.explain(getattr(got_obj, method), backend=backend) as f:
        for i in range(calls):
            args = args_of(i)
            want = outcome(getattr(want_obj, method), args)
            got = outcome(f, args)
            same_outcome(want, got, f"call {i}", rtol=0.0)
            assert vars(got_obj).keys() == vars(want_obj).keys()
            for k, v in vars(want_obj).items():
                assert list(getattr(got_obj, k)) == list(v), k
                assert [type(a) for a in getattr(got_obj, k)] == [type(a) for a in v]
    recompiles = [r for r in f.report.recompiles if r.call >= 1]
    return recompiles


X = np.linspace(-1.0, 1.0, 5)


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_sum_over_len_of_a_filling_window(backend):
    """The loss smoother: one recompile (the loss changes), not one per length."""
    recompiles = _run(Smoother, "step", lambda i: (X, LOSSES[i % len(LOSSES)]), 12, backend)
    assert len(recompiles) <= 1, "\n".join(map(str, recompiles))


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_max_and_min_of_a_reward_window(backend):
    rewards = [1.0, -2.0, 3.5, 3.5, float("inf"), -0.0, 0.0, 2.0, -7.0, 1e308, 0.25, 0.5]
    recompiles = _run(Extremes, "step", lambda i: (X, rewards[i]), len(rewards), backend)
    assert len(recompiles) <= 1, "\n".join(map(str, recompiles))


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_a_growing_list_of_losses(backend):
    recompiles = _run(History, "step", lambda i: (X, LOSSES[i % len(LOSSES)]), 12, backend)
    assert len(recompiles) <= 1, "\n".join(map(str, recompiles))


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_a_window_read_only_when_full(backend):
    """``len(d) == d.maxlen`` guards its outcome: one entry while filling, one full."""
    recompiles = _run(FullWindow, "step", lambda i: (X, 0.5 + i / 7), 10, backend)
    assert len(recompiles) <= 2, "\n".join(map(str, recompiles))


def test_nan_and_ties_choose_as_python_does():
    """``max``/``min`` with NaN and equal items keep Python's choice (the first of
    equals, NaN's place decides), and the sum's rounding is the running Python's."""
    vals = [float("nan"), 1.0, 2.0, float("nan"), -0.0, 0.0, 5.0, 0.1, 0.2, 0.3]
    recompiles = _run(Extremes, "step", lambda i: (X, vals[i]), len(vals), "eager")
    assert len(recompiles) <= 1, "\n".join(map(str, recompiles))
    s = Smoother(8)
    f = dynamo.compile(s.step, backend="eager")
    plain = Smoother(8)
    for v in (0.1, 0.2, 0.3, 0.1, 0.2, 0.3, 0.1, 0.2, 0.3):
        a, b = f(X, v), plain.step(X, v)
        np.testing.assert_array_equal(a, b)
    assert math.fsum(s.recent) == math.fsum(plain.recent)


class Mixed:
    """An int among the floats: Python's sum and max see it; the entry must not serve
    a window whose items are not all floats."""

    def __init__(self):
        self.d = collections.deque(maxlen=3)

    def step(self, x, v):
        self.d.append(v)
        return x * sum(self.d), max(self.d)


def test_an_int_in_the_window_is_not_taken_for_a_float():
    vals = [0.5, 1.5, 2.5, 3, 4.5, 5.5, 6.5, True, 1.25, 2.75]
    _run(Mixed, "step", lambda i: (X, vals[i]), len(vals), "eager")
