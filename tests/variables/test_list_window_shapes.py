"""More shapes of a window of a list (or deque) that grows between calls
(``variables/list_windows.py``, ``ListVariable.truth``; issue #16): ``if self.hist:``
before ``self.hist[-1]``, the previous values ``self.hist[-4:-1]`` after an append,
and ``np.mean`` of a deque of Python ints keep one or two entries, not one per length.

Each program runs on an eager object and a compiled one side by side for 14+ calls
with values that change and lengths that grow, and shrink below the window and to 0
between calls (the state reset from outside): the results (values, dtypes, raised
errors) and the state after each call must be eager's; the recompiles after the
first call are counted (before these shapes were handled: 7, the cache's limit, or
one per length until the deque was full).
"""

import collections

import numpy as np
import pytest
from harness import same
from test_list_windows import _recompiles, _run

import dynamo

BACKENDS = ("eager", "numpy")
X = np.arange(4.0)


class LastIfAny:
    """The last loss, read where the list is not empty (appended after the read)."""

    def __init__(self):
        self.hist = []

    def step(self, x, loss):
        r = x * self.hist[-1] if self.hist else x + 1.0
        self.hist.append(loss)
        return r


class Patience:
    """Early stopping: a counter of calls whose loss is no better than the last."""

    def __init__(self):
        self.hist, self.bad = [], 0

    def step(self, x, loss):
        if not self.hist or loss < self.hist[-1]:
            self.bad = 0
        else:
            self.bad += 1
        self.hist.append(loss)
        return x * loss, self.bad


class PreviousValues:
    """The values before this call's: ``hist[-4:-1]`` after the append, returned too
    (a new list: the caller's change to it reaches neither list)."""

    def __init__(self):
        self.hist = []

    def step(self, x, v):
        self.hist.append(v)
        prev = self.hist[-4:-1]
        return x * (sum(prev) / max(len(prev), 1)), prev


class PreviousTwoAppended:
    """``[-5:-2]`` with two appends: the held items then the first appended one."""

    def __init__(self):
        self.hist = []

    def step(self, x, v):
        self.hist.append(v)
        self.hist.append(v * 0.5)
        return x * sum(self.hist[-5:-2])


class TokenCounts:
    """``np.mean`` of a deque of Python ints (token counts): an int64 array's mean."""

    def __init__(self, maxlen):
        self.counts = collections.deque(maxlen=maxlen)

    def step(self, x, n):
        self.counts.append(n)
        return x * np.mean(self.counts)


def _shrink(i, obj):
    """From outside, between calls: the list cut below the window, and to 0."""
    name = next(iter(vars(obj)))
    if i in (6, 10):
        setattr(obj, name, type(getattr(obj, name))(list(getattr(obj, name))[:1],
                                                    *_maxlen(getattr(obj, name))))
    if i == 12:
        getattr(obj, name).clear()


def _maxlen(seq) -> tuple:
    return (seq.maxlen,) if isinstance(seq, collections.deque) else ()


LOSSES = [2.0, 1.5, 1.7, 1.2, 1.2, 1.3, 0.9, 1.0, 1.1, 0.8, 0.85, 0.7, 0.75, 0.6, 0.65, 0.5]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("cls,args_of,most", [
    (LastIfAny, lambda i: (X, LOSSES[i]), 2),          # before: 7 (the cache's limit)
    (Patience, lambda i: (X, LOSSES[i]), 3),           # before: 7
    (PreviousValues, lambda i: (X, 0.5 * i + 0.1), 1),          # before: 7
    (PreviousTwoAppended, lambda i: (X, 0.25 * i - 1.0), 1),    # before: 7
    (lambda: TokenCounts(4), lambda i: (X, 3 * i + 1), 1),      # before: 4
    (lambda: TokenCounts(None), lambda i: (X, 7 - 2 * i), 1),   # before: 7
], ids=["last-if-any", "patience", "previous", "previous-two", "int-mean", "int-mean-all"])
def test_a_growing_window_keeps_its_entries(backend, cls, args_of, most):
    report = _run(cls, args_of, 16, backend)
    assert len(_recompiles(report)) <= most, _recompiles(report)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("cls,args_of,most", [
    (LastIfAny, lambda i: (X, LOSSES[i]), 3),
    (Patience, lambda i: (X, LOSSES[i]), 4),
    (PreviousValues, lambda i: (X, 0.5 * i - 2.0), 2),
    (PreviousTwoAppended, lambda i: (X, 0.25 * i), 2),
    (lambda: TokenCounts(4), lambda i: (X, 3 * i + 1), 2),
    (lambda: TokenCounts(None), lambda i: (X, 7 - 2 * i), 2),
], ids=["last-if-any", "patience", "previous", "previous-two", "int-mean", "int-mean-all"])
def test_lengths_below_the_window_and_zero(backend, cls, args_of, most):
    """Shrunk (to one item, to 0) from outside: eager's results, errors (the mean of an
    empty deque warns and gives nan, as eager), and a few entries in all (before: 7
    each, the cache's limit)."""
    report = _run(cls, args_of, 16, backend, reset=_shrink)
    assert len(_recompiles(report)) <= most, _recompiles(report)


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_previous_values_are_a_new_list(backend):
    want, got = PreviousValues(), PreviousValues()
    dynamo.reset()
    with dynamo.explain(got.step, backend=backend) as f:
        for i in range(12):
            (a, wa), (b, wb) = want.step(X, i * 1.5), f(X, i * 1.5)
            same((a, wa), (b, wb), path=f"call {i}")
            wa.append(-1.0)
            wb.append(-1.0)       # changes neither list
            assert want.hist == got.hist
    assert len(_recompiles(f.report)) <= 1, _recompiles(f.report)


INTS = [1, 2, 3, 4, 5, 2 ** 70, 6, 7, 8, 9, 10, True, 2.5, 3, 4, 5, 6, 7, -2 ** 63, 2 ** 63,
        1, 2, 3, 4]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("maxlen", [4, None])
def test_mean_of_a_deque_of_mixed_numbers(backend, maxlen):
    """Ints past 64 bits, a bool, a float among the ints: NumPy's array of the deque
    (object, float64) is not an int64 one, and the result is eager's each call."""
    report = _run(lambda: TokenCounts(maxlen), lambda i: (X, INTS[i]), len(INTS), backend)
    assert len(_recompiles(report)) <= 2, _recompiles(report)      # before: 5
