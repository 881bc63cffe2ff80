"""``collections.deque`` modelled as lists are (``dynamo/variables/deques.py``, issue
#16): appends to a deque the trace never reads guard nothing but its type and are
replayed after the graph in program order (a ``maxlen`` deque drops from the left as
Python does); reads (``len``, iteration, ``sum``, indexing, ``pop``/``popleft``)
guard what they read. Every scenario: results, the deque's contents and the
exceptions equal eager's over several calls, with the recompiles counted.
"""

import collections

import numpy as np
import pytest
from harness import same

import dynamo

BACKENDS = ["eager", "numpy"]


class Holder:
    def __init__(self, maxlen=None, items=()):
        self.d = collections.deque(items, maxlen=maxlen)


def _outcome(fn, *args):
    try:
        return fn(*args)
    except Exception as e:  # noqa: BLE001
        return f"{type(e).__name__}: {e}"


def _run(method, backend, make, args_of, calls=8):
    """(eager's (results, deque), compiled's, explain's report)."""
    sides, report = [], None
    for compiled in (False, True):
        h = make()
        fn = getattr(h, method).__func__.__get__(h)
        if compiled:
            e = dynamo.explain(fn, backend=backend)
            fn = e.__enter__()
        outs = [_outcome(fn, *args_of(i)) for i in range(calls)]
        if compiled:
            e.__exit__(None, None, None)
            report = fn.report
        sides.append((outs, list(h.d)))
    same(sides[0], sides[1])
    return report


def _later(report):
    return [r for r in report.recompiles if r.call >= 1]


class Memory(Holder):
    def remember(self, obs, a):
        self.d.append((obs, a))
        return obs * 2.0

    def remember_left(self, obs, a):
        self.d.appendleft(obs)
        self.d.extend([a, a + 1])
        self.d.extendleft([a * 10])
        return obs.sum()


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("maxlen", [None, 3])
def test_append_only_deque_is_replayed_unguarded(maxlen, backend):
    report = _run("remember", backend, lambda: Memory(maxlen),
                  lambda i: (np.full(3, float(i)), i))
    assert report.graph_break_count == 0, report
    # the action is a changing int: one recompile for it; the deque's length is
    # never guarded (before: a graph break at every deque method)
    assert len(_later(report)) <= 1, [str(r) for r in report.recompiles]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("maxlen", [None, 4])
def test_writes_at_both_ends_drop_as_python_does(maxlen, backend):
    report = _run("remember_left", backend, lambda: Memory(maxlen),
                  lambda i: (np.full(2, float(i)), i))
    assert report.graph_break_count == 0, report


class Window(Holder):
    def smooth(self, x, loss):
        self.d.append(loss)
        return x * (sum(self.d) / len(self.d))

    def reads(self, x):
        self.d.append(x)
        first, last = self.d[0], self.d[-1]
        total = x * 0
        for v in self.d:
            total = total + v
        return first - last + total * len(self.d) + self.d.maxlen

    def stacked(self, x):
        self.d.append(x)
        return np.mean(np.stack(self.d), axis=0)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_window_of_floats_keeps_one_entry_as_it_fills(backend):
    report = _run("smooth", backend, lambda: Window(3),
                  lambda i: (np.ones(4), 1.0 / (i + 1)), calls=10)
    # ``sum(d)`` is a float the call computes with the running Python's own sum (from
    # 3.12 compensated), ``len(d)`` an int it computes: no break on any version
    # (variables/float_windows.py)
    assert report.graph_break_count == 0, report
    # the loss becomes a number (and the length changes) at the second call only
    assert len(_later(report)) <= 1, [str(r) for r in report.recompiles]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("method", ["reads", "stacked"])
def test_reads_of_items_equal_eager(method, backend):
    report = _run(method, backend, lambda: Window(4),
                  lambda i: (np.full(3, float(i)),))
    assert report.graph_break_count == 0, report


class Queue(Holder):
    def take(self, x):
        left = self.d.popleft()
        right = self.d.pop()
        return x * left + right

    def index(self, x, k):
        return x * self.d[k]

    def mutate_while_iterating(self, x):
        for v in self.d:
            self.d.append(v)       # RuntimeError: deque mutated during iteration
        return x


@pytest.mark.parametrize("backend", BACKENDS)
def test_pops_until_empty_raise_as_python_does(backend):
    _run("take", backend, lambda: Queue(None, [1.0, 2.0, 3.0, 4.0, 5.0]),
         lambda i: (np.ones(2),), calls=4)


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_index_out_of_range_raises_as_python_does(backend):
    _run("index", backend, lambda: Queue(None, [1.0, 2.0]),
         lambda i: (np.ones(2), [0, -1, 2, -3][i]), calls=4)


def test_a_deque_changed_while_iterated_raises_as_python_does():
    _run("mutate_while_iterating", "eager", lambda: Queue(None, [1.0]),
         lambda i: (np.ones(2),), calls=2)


def two_names(x, a, b):
    a.append(x)
    return len(b) * x


def test_one_deque_under_two_names_is_one_object():
    def run(compiled):
        f = dynamo.compile(two_names, backend="eager") if compiled else two_names
        d, e = collections.deque(maxlen=2), collections.deque()
        outs = [f(np.ones(2), d, d) for _ in range(3)] + [f(np.ones(2), d, e)]
        return outs, list(d), list(e)
    same(run(False), run(True))


class FrameStack(Holder):
    """Atari-style frame stacking: filled with the first frame, then one a call."""

    def observe(self, frame):
        if not self.d:                      # its length alone: the items stay unread
            for _ in range(4):
                self.d.append(frame)
        else:
            self.d.append(frame)
        return np.stack(self.d, axis=0)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_stacked_deque_is_one_input_not_its_items(backend):
    """The rows held are one input (``np.asarray(d)`` made by the check): no guard on
    which items are one object (the first frame 4 times, then one new a call)."""
    report = _run("observe", backend, lambda: FrameStack(4),
                  lambda i: (np.full((2, 2), float(i)),), calls=8)
    assert report.graph_break_count == 0, report
    assert len(_later(report)) <= 1, [str(r) for r in report.recompiles]


class Taps(Holder):
    """An LMS filter's taps (stateful corpus 15's ``lms_filter_deque_taps``): one float
    sample a call, the newest first, read whole as array data."""

    def tap(self, w, sample):
        self.d.appendleft(sample)
        return w @ np.array(self.d)

    def mean_of(self, x, loss):
        self.d.append(loss)
        self.d.append(2.0 * loss)
        return x * np.mean(self.d), np.asarray(self.d)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("method, items", [("tap", [0.0] * 4), ("mean_of", [])])
def test_a_deque_of_floats_read_as_an_array_is_one_input(method, items, backend):
    """``np.array(d)`` of a deque of Python floats: the floats held are one float64
    input (``deques._held_stack``), the floats written 0-d rows of it
    (``deque_stacks._floats_as_rows``): no guard on each item (before, an entry per
    position a new sample reached, full or filling)."""
    report = _run(method, backend, lambda: Taps(4, items),
                  lambda i: (np.arange(4.0), 0.5 * i - 1.0), calls=9)
    assert report.graph_break_count == 0, report
    # the sample becomes a number at the second call only
    assert len(_later(report)) <= 1, [str(r) for r in report.recompiles]
