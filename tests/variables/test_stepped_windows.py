"""``lst[-k::s]`` of a list that grows between calls (every other value of the last
six: ``np.mean(self.h[-6::2])``) reads the last items alone, as ``lst[-k:]`` does
(``variables/list_windows._stepped``), and a window of ints one item long joined to
appended ints (``np.mean(self.lengths[-5:])`` after an append) is data of symbolic
length, not an entry of its own, and the items of a window read one by one (``for v
in self.hist[-3:]``) are changing numbers from the first trace: the list grows under
the window, so they move every call (issue #16).

Eager and compiled objects run side by side (``test_list_windows._run``) for 14+
calls, lengths crossing 0, 1, the window's width and its step; the results, the
lists after each call, and the recompiles after the first call are checked, each
recompile with its reason.

Example::

    self.h.append(v)
    return x * np.mean(self.h[-6::2])   # guards len(self.h[-5:]) % 2, not len(self.h)
"""

import numpy as np
import pytest
from test_list_windows import BACKENDS, X, _recompiles, _run


class StridedMean:
    """Every other value of the last six, the newest appended first."""

    def __init__(self):
        self.h = []

    def step(self, x, v):
        self.h.append(v)
        return x * np.mean(self.h[-6::2])


class StridedBeforeAppend:
    """The stepped window read before the append (nothing appended in it), every 3rd."""

    def __init__(self):
        self.h = [0.5]

    def step(self, x, v):
        s = sum(self.h[-7::3])
        self.h.append(v)
        return x * s


class StridedTwoAppends:
    """Two items appended, then a step of 3: which of them is in depends on the held
    part's length modulo 3."""

    def __init__(self):
        self.h = []

    def step(self, x, v):
        self.h.append(v)
        self.h.append(2.0 * v)
        return x * max(self.h[-8::3])


class IntLengthMean:
    """Ints appended, the mean of the last five: the held part is 1 long once."""

    def __init__(self):
        self.lengths = []

    def step(self, x, n):
        self.lengths.append(n)
        return x * np.mean(self.lengths[-5:])


class LoopedWindow:
    """A loop over the last three values (unrolled: one entry per held length)."""

    def __init__(self):
        self.hist = []

    def step(self, x, v):
        self.hist.append(v)
        acc = 0.0
        for u in self.hist[-3:]:
            acc += u
        return x * acc


def _says_why(recompiles):
    """Each recompile names a failed guard with what it expected."""
    return all("entry 0:" in r and ("expected" in r or "no longer holds" in r)
               for r in recompiles)


@pytest.mark.parametrize("backend", BACKENDS)
def test_mean_of_every_other_of_the_last_six(backend):
    report = _run(StridedMean, lambda i: (X, 0.25 * i + 0.5), 16, backend)
    got = _recompiles(report)
    # the loss's first change, the held part's length odd then even (which of the
    # appended items is in), a 1-long held part; then none: before, one per length
    # until the cache's limit
    assert len(got) <= 3, got
    assert _says_why(got), got
    assert any("% 2" in r for r in got), got


@pytest.mark.parametrize("backend", BACKENDS)
def test_stepped_window_before_the_append(backend):
    report = _run(StridedBeforeAppend, lambda i: (X, 1.5 - 0.125 * i), 16, backend)
    got = _recompiles(report)
    assert len(got) <= 1, got         # the value's first change: no length is guarded


@pytest.mark.parametrize("backend", BACKENDS)
def test_two_appended_items_and_a_step_of_three(backend):
    report = _run(StridedTwoAppends, lambda i: (X, (-1.0) ** i * (i + 0.5)), 16, backend)
    got = _recompiles(report)
    assert len(got) <= 4, got         # the number, then one per remainder modulo 3
    assert _says_why(got), got


@pytest.mark.parametrize("backend", BACKENDS)
def test_one_long_int_window_is_data(backend):
    report = _run(IntLengthMean, lambda i: (X, 3 + i % 4), 14, backend)
    got = _recompiles(report)
    assert len(got) <= 1, got         # the int's first change: before, 2 (the 1-long window)


@pytest.mark.parametrize("backend", BACKENDS)
def test_items_of_a_window_looped_over_are_changing_numbers(backend):
    report = _run(LoopedWindow, lambda i: (X, 0.5 - 0.125 * i), 14, backend)
    got = _recompiles(report)
    # the value's first change with the held part 1 long, then 2 long; then none.
    # Before: one more (its items constants at first: ``self.hist[-2:][0]: expected``)
    assert len(got) <= 2, got
    assert not any("][0]: expected" in r for r in got), got
