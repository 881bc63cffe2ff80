"""``lst[-k:]`` of a list that grows between calls reads the last items alone
(``variables/list_windows.py``): a loss history's ``sum(self.losses[-3:])``, a
``np.mean(self.hist[-k:])``, ``np.array(self.buf[-w:])``, ``np.stack(self.frames[-4:])``
compile once or twice in all, not once per length (issue #16).

Each program runs on an eager object and a compiled one side by side for 12+ calls
with values that change and lengths that grow, and also shrink below the slice's
width and to 0 between calls (the program's own state reset from outside): the
results (values, dtypes, raised errors, warnings) and the lists after each call must
be eager's, and the recompiles after the first call are counted.
"""

import collections

import numpy as np
import pytest
from harness import outcome, same, same_outcome

import dynamo

BACKENDS = ("eager", "numpy")
X = np.arange(4.0)


class LossAverage:
    def __init__(self):
        self.losses = []

    def step(self, x, loss):
        self.losses.append(loss)
        avg = sum(self.losses[-3:]) / 3
        return x * avg


class HistMean:
    def __init__(self):
        self.hist = []

    def step(self, x, k=3):
        self.hist.append(float(x.sum()))
        return x * np.mean(self.hist[-k:])


class RecentArray:
    def __init__(self):
        self.buf = []

    def step(self, x, w=4):
        self.buf.append(float(x[0]))
        return np.array(self.buf[-w:]) * 2


class FrameStack:
    def __init__(self):
        self.frames = []

    def step(self, x):
        self.frames.append(x * 1.0)
        return np.stack(self.frames[-4:]).mean(axis=0)


class LastTokens:
    """Int tokens as an index: ``emb[self.tokens[-3:]]`` (a list of ints as data)."""

    def __init__(self):
        self.tokens = [1, 2]

    def step(self, emb):
        ctx = emb[self.tokens[-3:]].sum(axis=0)
        self.tokens.append(int(np.argmax(ctx)) % 5)
        return ctx


class WindowReturned:
    """The slice itself returned, then changed by the caller: a new list, not the
    list nor a view of it; the appended item is in it."""

    def __init__(self):
        self.hist = []

    def step(self, x, v):
        self.hist.append(v)
        return x * 2.0, self.hist[-2:]


class WindowAverageExact:
    """``sum(w) / len(w)`` of the window: raises ZeroDivisionError on an empty list."""

    def __init__(self):
        self.vals = []

    def step(self, x, v):
        w = self.vals[-3:]
        return x * (sum(w) / len(w)), v


def _run(cls, args_of, calls, backend, reset=None):
    """Eager and compiled objects side by side: (the explain report)."""
    want, got = cls(), cls()
    dynamo.reset()
    with dynamo.explain(got.step, backend=backend) as f:
        for i in range(calls):
            if reset is not None:
                reset(i, want)
                reset(i, got)
            args = args_of(i)
            same_outcome(outcome(want.step, args), outcome(f, args), f"call {i}")
            same(_state(want), _state(got), path=f"state after call {i}")
    return f.report


def _state(obj) -> dict:
    """The object's attributes, a deque as (its items as a list, its maxlen)."""
    return {k: (list(v), v.maxlen) if isinstance(v, collections.deque) else v
            for k, v in vars(obj).items()}


def _recompiles(report) -> list:
    return [str(r) for r in report.recompiles if r.call >= 1]


@pytest.mark.parametrize("backend", BACKENDS)
def test_sum_of_the_last_losses(backend):
    report = _run(LossAverage, lambda i: (X, 0.5 * i + 0.1), 14, backend)
    # the first change of the loss (a number), then none: before, one per length
    assert len(_recompiles(report)) <= 1, _recompiles(report)


@pytest.mark.parametrize("backend", BACKENDS)
def test_mean_of_the_last_k_graph_floats(backend):
    report = _run(HistMean, lambda i: (X + i,), 14, backend)
    # lengths 0, 1 (the window held: 0/1 are specialized as sizes are), then every length
    assert len(_recompiles(report)) <= 2, _recompiles(report)


@pytest.mark.parametrize("backend", BACKENDS)
def test_array_of_the_last_w_floats(backend):
    report = _run(RecentArray, lambda i: (X * (i + 1),), 14, backend)
    assert len(_recompiles(report)) <= 3, _recompiles(report)


@pytest.mark.parametrize("backend", BACKENDS)
def test_stack_of_the_last_frames(backend):
    report = _run(FrameStack, lambda i: (X + i,), 14, backend)
    assert len(_recompiles(report)) <= 1, _recompiles(report)


@pytest.mark.parametrize("backend", BACKENDS)
def test_last_int_tokens_as_an_index(backend):
    emb = np.random.default_rng(3).standard_normal((5, 3))
    report = _run(LastTokens, lambda i: (emb,), 14, backend)
    assert len(_recompiles(report)) <= 2, _recompiles(report)


def _shrink(i, obj):
    """From outside, between calls: the list cut below the slice's width, and to 0."""
    name = next(iter(vars(obj)))
    if i in (6, 10):
        setattr(obj, name, getattr(obj, name)[:1])
    if i == 12:
        getattr(obj, name).clear()


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("cls,args_of,most", [
    (LossAverage, lambda i: (X, 0.25 * i - 1.0), 1),
    (HistMean, lambda i: (X - i,), 3),
    (RecentArray, lambda i: (X + 3 * i,), 4),
    (FrameStack, lambda i: (X * i,), 1),
], ids=["sum", "mean", "array", "stack"])
def test_lengths_below_the_width_and_zero(backend, cls, args_of, most):
    """Shrunk lists give eager's results; no entry serves a length it was not made for
    (a window's length is guarded where it decides the result). Before: 7 to 11
    recompiles (one per length), and the cache's limit reached."""
    report = _run(cls, args_of, 16, backend, reset=_shrink)
    assert len(_recompiles(report)) <= most, _recompiles(report)


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_window_returned_is_a_new_list(backend):
    want, got = WindowReturned(), WindowReturned()
    with dynamo.explain(got.step, backend=backend) as f:
        for i in range(10):
            (a, wa), (b, wb) = want.step(X, i * 1.5), f(X, i * 1.5)
            same((a, wa), (b, wb), path=f"call {i}")
            wa.append(-1.0)
            wb.append(-1.0)       # changes neither list
            assert want.hist == got.hist
    assert len(_recompiles(f.report)) <= 2, _recompiles(f.report)


@pytest.mark.parametrize("backend", BACKENDS)
def test_empty_window_raises_as_eager(backend):
    """``sum(w) / len(w)`` of an empty window raises ZeroDivisionError (as eager), a
    window of ints and floats gives eager's types."""
    want, got = WindowAverageExact(), WindowAverageExact()
    vals = [[], [1.0], [1.0, 2.0], [1.0, 2.0, 3.0, 4.0], [], [1, 2, 3], [1, 2.5, 3, 7],
            list(np.arange(9.0).tolist()), [], [0.5] * 12, [2.0] * 5, [7.5, 1.0] * 4]
    dynamo.reset()
    with dynamo.explain(got.step, backend=backend) as f:
        for i, v in enumerate(vals):
            want.vals, got.vals = list(v), list(v)
            same_outcome(outcome(want.step, (X, i)), outcome(f, (X, i)), f"call {i}")
            assert want.vals == got.vals
    # the first lengths, the empty one, a window of ints then of ints and floats (4 on
    # 3.11, 6 from 3.12: the sum of floats there breaks where an int is in the run)
    assert len(_recompiles(f.report)) <= 6, _recompiles(f.report)


class DequeOfLosses:
    def __init__(self):
        self.window = collections.deque(maxlen=3)
        self.losses = []

    def step(self, x, loss):
        self.window.append(loss)
        self.losses.append(loss)
        return x * sum(self.losses[-3:]) - x * sum(self.window)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_list_window_and_a_deque_agree(backend):
    report = _run(DequeOfLosses, lambda i: (X, 1.0 / (i + 1)), 14, backend)
    assert len(_recompiles(report)) <= 1, _recompiles(report)


class DequeMean:
    """``np.mean(d)`` of a window of Python floats: before, a graph break at the first
    call (a mean of a list may warn), and the frame ran eagerly from then on."""

    def __init__(self, maxlen):
        self.window = collections.deque(maxlen=maxlen)

    def step(self, x, loss):
        self.window.append(loss)
        return x * np.mean(self.window)


class ListMean:
    def __init__(self):
        self.seen = []

    def step(self, x, loss):
        self.seen.append(loss)
        return x * np.mean(self.seen), np.mean(self.seen[-5:])


LOSSES = np.random.default_rng(7).standard_normal(400).tolist()


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("maxlen,calls", [(3, 12), (None, 12), (150, 300)])
def test_mean_of_a_deque_of_floats(backend, maxlen, calls):
    """Bit for bit eager's (NumPy's pairwise sum past 8 items, 150 and more), one
    graph, no break, one recompile (the first change of the loss)."""
    want, got = DequeMean(maxlen), DequeMean(maxlen)
    dynamo.reset()
    with dynamo.explain(got.step, backend=backend) as f:
        for i in range(calls):
            a, b = want.step(X, LOSSES[i]), f(X, LOSSES[i])
            same(a, b, path=f"call {i}")
            assert list(want.window) == list(got.window)
    assert "Graph breaks: 0" in str(f.report), str(f.report)
    assert len(_recompiles(f.report)) <= 1, _recompiles(f.report)


@pytest.mark.parametrize("backend", BACKENDS)
def test_mean_of_a_growing_list_and_its_window(backend):
    report = _run(ListMean, lambda i: (X, LOSSES[i] * 10), 14, backend)
    assert "Graph breaks: 0" in str(report), str(report)
    assert len(_recompiles(report)) <= 3, _recompiles(report)


class DequeEnds:
    """``d[0]``, ``d[1]``, ``d[-1]``, ``d[-4]`` of a ``maxlen`` window that fills and
    then slides: before, each read guarded the exact length (one entry per length)."""

    def __init__(self, maxlen, key):
        self.window, self.key = collections.deque(maxlen=maxlen), key

    def step(self, x, loss):
        self.window.append(loss)
        self.window.append(loss * 0.5)
        return x * self.window[self.key]


class FirstFrame:
    def __init__(self):
        self.frames = collections.deque(maxlen=6)

    def step(self, x):
        self.frames.append(x + 1.0)
        return x - self.frames[0], len(self.frames)


def _shrink_deque(i, obj):
    if i in (5, 9):
        obj.window.clear()
    if i == 7:
        obj.window.pop()


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("maxlen,key,most,shrunk", [
    (6, 0, 2, 3), (6, 1, 2, 3), (6, -1, 1, 1), (6, -4, 1, 2), (9, -3, 1, 2), (2, 0, 1, 1)])
def test_an_item_of_a_full_window(backend, maxlen, key, most, shrunk):
    """Eager's item at every length, and shrunk from outside (cleared, popped): the
    recompiles, before, 3 to 7 (one per length held)."""
    report = _run(lambda: DequeEnds(maxlen, key), lambda i: (X, 0.5 * i + 0.25), 14, backend)
    assert len(_recompiles(report)) <= most, _recompiles(report)
    report = _run(lambda: DequeEnds(maxlen, key), lambda i: (X, 0.25 * i - 2.0), 14, backend,
                  reset=_shrink_deque)
    assert len(_recompiles(report)) <= shrunk, _recompiles(report)
    # out of range at every length: Python's IndexError, as eager
    _run(lambda: DequeEnds(maxlen, maxlen + 1), lambda i: (X, 0.5 * i), 6, backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_first_frame_of_a_window_of_arrays(backend):
    report = _run(FirstFrame, lambda i: (X * i,), 14, backend)
    assert len(_recompiles(report)) <= 2, _recompiles(report)     # before: 6
