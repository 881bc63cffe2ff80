"""A stepped or reversed view of a window of a growing list (``self.h[-5:][::2]``,
``self.tokens[-3:][::-1]``) is a window of that list itself
(``variables/list_windows._view``), so it costs what ``self.h[-5::2]`` or
``self.h[-3:]`` cost, not one entry per length of the held part (issue #16).

Eager and compiled objects run side by side (``test_list_windows._run``) for 14+
calls, lengths crossing 0, 1, the window's width and its step, some shrunk from
outside: the results, the lists after each call and the printed output must be
eager's, and the recompiles after the first call are counted, each with its reason.

Example::

    self.h.append(v)
    return x * np.mean(self.h[-5:][::2])   # as np.mean(self.h[-5::2]): the held
                                           # part's length modulo 2, not its length
"""

import numpy as np
import pytest
from harness import outcome, same, same_outcome
from test_list_windows import BACKENDS, X, _recompiles, _run

import dynamo


class SteppedView:
    """Every other of the last five, taken as a slice of the window."""

    def __init__(self):
        self.h = []

    def step(self, x, v):
        self.h.append(v)
        return x * np.mean(self.h[-5:][::2])


class SteppedDirect:
    """The same as one slice: what ``SteppedView`` must cost."""

    def __init__(self):
        self.h = []

    def step(self, x, v):
        self.h.append(v)
        return x * np.mean(self.h[-5::2])


class SteppedPrevious:
    """A step of 3 over the previous values (``[-7:-1]``: the appended one left out)."""

    def __init__(self):
        self.h = []

    def step(self, x, v):
        self.h.append(v)
        return x * sum(self.h[-7:-1][::3], v)


class ReversedContext:
    """A token context newest first, read before the append (``EMB[ctx]``)."""

    EMB = np.random.default_rng(16).standard_normal((10, 5))

    def __init__(self):
        self.tokens = [1]

    def step(self, x):
        ctx = self.tokens[-3:][::-1]
        h = self.EMB[ctx] * np.arange(1, len(ctx) + 1)[:, None]
        self.tokens.append(int(np.argmax(h.sum(0) @ self.EMB.T)))
        return x + h.sum(0)


class ForwardContext(ReversedContext):
    """The same context oldest first: what ``ReversedContext`` must cost."""

    def step(self, x):
        ctx = self.tokens[-3:]
        h = self.EMB[ctx] * np.arange(1, len(ctx) + 1)[:, None]
        self.tokens.append(int(np.argmax(h.sum(0) @ self.EMB.T)))
        return x + h.sum(0)


class ReversedWeights:
    """``np.array(self.h[-4:][::-1])`` after the append: the newest weighs most."""

    def __init__(self):
        self.h = []

    def step(self, x, v):
        self.h.append(v)
        w = np.array(self.h[-4:][::-1])
        return x * float(np.sum(w * 0.5 ** np.arange(w.shape[0])))


class ForwardWeights(ReversedWeights):
    """The same oldest first: what ``ReversedWeights`` must cost."""

    def step(self, x, v):
        self.h.append(v)
        w = np.array(self.h[-4:])
        return x * float(np.sum(w * 0.5 ** np.arange(w.shape[0])))


class ReversedIntMean(ReversedWeights):
    """Two ints appended, the last five newest first as an index and a mean."""

    def step(self, x, n):
        self.h.append(n)
        self.h.append(n + 1)
        w = self.h[-5:][::-1]
        return x[np.array(w) % 4] * np.mean(w)


class ForwardIntMean(ReversedWeights):
    def step(self, x, n):
        self.h.append(n)
        self.h.append(n + 1)
        w = self.h[-5:]
        return x[np.array(w) % 4] * np.mean(w)


class ReversedSometimesListed(ReversedWeights):
    """The reversed window as data each call, and on some calls also appended to and
    returned (its items read then: the appended item first, then the held part)."""

    def step(self, x, v, show):
        self.h.append(v)
        w = self.h[-4:][::-1]
        a = np.array(w)
        if show:
            w.append(-1.0)
            return x * a.sum(), w, len(w)
        return x * a.sum()


class ReversedReturned:
    """The reversed window returned, not read (a new list each call), a line printed."""

    def __init__(self):
        self.h = [0.5]

    def step(self, x, v):
        w = self.h[-3:][::-1]
        print("newest first", v)
        self.h.append(v)
        return x * v, w


def _shrink(i, obj):
    """From outside, between calls: the list cut below the window's width, and to 0."""
    name = next(iter(vars(obj)))
    if i in (7, 11):
        setattr(obj, name, getattr(obj, name)[:1])
    if i == 13:
        getattr(obj, name).clear()


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_stepped_view_costs_what_the_stepped_slice_costs(backend):
    args_of = lambda i: (X, 0.25 * i + 0.5)          # noqa: E731
    view = _recompiles(_run(SteppedView, args_of, 16, backend))
    direct = _recompiles(_run(SteppedDirect, args_of, 16, backend))
    # the number's first change, then one entry per remainder of the held part's
    # length modulo 2 (which appended items are in); before: one per held length (4)
    assert len(view) <= len(direct) <= 3, (view, direct)
    assert any("% 2" in r for r in view), view
    assert all("expected" in r or "no longer holds" in r for r in view), view


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_stepped_view_of_the_previous_values(backend):
    report = _run(SteppedPrevious, lambda i: (X, 1.5 - 0.25 * i), 16, backend)
    got = _recompiles(report)
    # the number's first change, then the held part's length modulo 3; before: one
    # per held length (6)
    assert len(got) <= 4, got
    assert all("expected" in r or "no longer holds" in r for r in got), got


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("reset", [None, _shrink], ids=["grows", "shrinks"])
def test_a_reversed_window_as_data(backend, reset):
    args_of = lambda i: (X[:1].repeat(5) + i,)     # noqa: E731
    view = _recompiles(_run(ReversedContext, args_of, 16, backend, reset))
    direct = _recompiles(_run(ForwardContext, args_of, 16, backend, reset))
    # the list's first change of length (then it is a window; emptied, an empty
    # context and a 1-long one): as the window oldest first costs; before: one more
    # per held length (2 and 3)
    assert len(view) <= len(direct), (view, direct)
    assert reset is not None or len(view) <= 1, view
    assert all("expected" in r or "no longer holds" in r for r in view), view


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("reset", [None, _shrink], ids=["grows", "shrinks"])
@pytest.mark.parametrize("view,direct,args_of", [
    (ReversedWeights, ForwardWeights, lambda i: (X, 0.25 * i - 1.0)),
    (ReversedIntMean, ForwardIntMean, lambda i: (X, 3 * i % 7)),
], ids=["floats", "ints"])
def test_a_reversed_window_after_appends_as_data(backend, reset, view, direct, args_of):
    """The appended items first, newest first, then the held part newest first
    (``concatenate([array([v]), np.asarray(L['self'].h[:-4:-1])])``): as the window
    oldest first costs; before: one more entry per held length."""
    got = _recompiles(_run(view, args_of, 16, backend, reset))
    want = _recompiles(_run(direct, args_of, 16, backend, reset))
    assert len(got) <= len(want), (got, want)
    assert reset is not None or len(got) <= 1, got
    assert all("expected" in r or "no longer holds" in r for r in got), got


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_reversed_window_read_after_its_data(backend):
    """The items read after the data (on calls 5 and 9 only): eager's list, the appended
    item first. The calls that only take the data keep one entry."""
    report = _run(ReversedSometimesListed, lambda i: (X, 0.5 * i - 1.0, i in (5, 9)), 14,
                  backend)
    got = _recompiles(report)
    # the number's first change, then the first listed call (``show``; the held part
    # full by then, its length guarded there); before: 4, one per held length besides
    assert len(got) <= 2, got
    assert all("expected" in r or "no longer holds" in r for r in got), got


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_reversed_window_returned_and_printed(backend):
    """The window returned newest first, a line printed: eager's results, lists and
    printed lines (``outcome`` holds what each call printed), at any length."""
    want, got = ReversedReturned(), ReversedReturned()
    dynamo.reset()
    with dynamo.explain(got.step, backend=backend) as f:
        for i in range(14):
            _shrink(i, want)
            _shrink(i, got)
            a, b = outcome(want.step, (X, 0.5 * i - 1.0)), outcome(f, (X, 0.5 * i - 1.0))
            assert "newest first" in a[1]
            same_outcome(a, b, f"call {i}")
            same(want.h, got.h, path=f"list after call {i}")
    recompiles = _recompiles(f.report)
    # the number's first change, before and after the print's break; no length: the
    # window is rebuilt from ``L['self'].h[:-4:-1]`` (before: one per held length)
    assert len(recompiles) <= 2 and not any("len(" in r for r in recompiles), recompiles
