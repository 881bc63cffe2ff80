"""A ``deque`` of arrays stacked whole (``np.stack(d)``, ``np.mean(d, axis=0)``) whose
length changes between calls compiles at most twice (issue #16,
``dynamo/variables/deques.py: _symbolic_stack``): the empty deque, then one entry for
every length, filling or full, since the rows held that the call's appends keep
(``list(d)[-3:]`` for one append to a ``maxlen=4`` deque) are one input of symbolic
length.

Every scenario runs as a program of ``tests/realworld/stateful_programs.py`` does
(``check_stateful_program``): eager's results and the deque's contents after *each*
call, on both CPU backends, and the recompiles after the first call bounded. Without
the symbolic rows each of these compiled once per length held (4 or 5 entries).

Example::

    class Window:
        def __init__(self): self.d = collections.deque(maxlen=4)
        def update(self, x):
            self.d.append(x)
            return np.mean(np.stack(self.d), axis=0)   # 2 compiles over 9 calls
"""

import collections

import numpy as np
import pytest
from rw_check import BACKENDS
from stateful_programs import registrar
from test_stateful_programs import check_stateful_program

ROWS = [np.random.default_rng(70 + i).standard_normal(3) for i in range(12)]
PROGRAMS: list = []


program = registrar(PROGRAMS)


class Window:
    def __init__(self, maxlen=4, items=()):
        self.d = collections.deque(items, maxlen=maxlen)

    def stacked(self, x):
        self.d.append(x)
        return np.mean(np.stack(self.d), axis=0)

    def mean_of_deque(self, x):
        self.d.append(x)
        return np.mean(self.d, axis=0)          # NumPy stacks the deque itself

    def left(self, x):
        self.d.appendleft(x * 2)
        return np.stack(self.d)

    def two_rows(self, x):
        self.d.extend([x, x + 1])
        return np.stack(self.d) * 2

    def stacked_twice(self, x):
        before = np.array(self.d)               # the rows held, all of them
        self.d.append(x)
        return np.vstack(self.d).sum(axis=0) + before.sum()


def _calls(w, f, n, between=None):
    """``n`` calls, each result with the deque's contents right after it."""
    out = []
    for i in range(n):
        if between is not None:
            between(w, i)
        out.append((f(ROWS[i]), list(w.d), w.d.maxlen))
    return out


@program(recompiles=1)
def window_fills_then_slides(wrap):
    w = Window(4)
    return _calls(w, wrap(w.stacked), 10)


@program(recompiles=1)
def mean_of_the_deque_itself(wrap):
    w = Window(4)
    return _calls(w, wrap(w.mean_of_deque), 10)


@program(recompiles=1)
def appendleft_drops_from_the_right(wrap):
    w = Window(3)
    return _calls(w, wrap(w.left), 9)


@program(recompiles=1)
def two_rows_a_call_into_maxlen_5(wrap):
    w = Window(5)
    return _calls(w, wrap(w.two_rows), 8)


@program(recompiles=1)
def no_maxlen_grows_without_bound(wrap):
    w = Window(None)
    return _calls(w, wrap(w.stacked), 10)


@program(recompiles=1)
def cleared_between_calls(wrap):
    # the empty deque's entry serves the call after each clear
    w = Window(4)
    return _calls(w, wrap(w.stacked), 11,
                  lambda w, i: w.d.clear() if i in (5, 8) else None)


@program(recompiles=1)
def rotated_between_calls(wrap):
    w = Window(4)
    return _calls(w, wrap(w.stacked), 10,
                  lambda w, i: w.d.rotate(1 + i % 2) if i >= 2 else None)


@program(recompiles=2)
def maxlen_changed_by_replacement(wrap):
    # ``maxlen`` is guarded: the replaced deque (maxlen 2) gets one entry more
    def between(w, i):
        if i == 6:
            w.d = collections.deque(w.d, maxlen=2)
    w = Window(4)
    return _calls(w, wrap(w.stacked), 10, between)


@program(recompiles=1)
def stacked_before_and_after_the_append(wrap):
    w = Window(4, ROWS[11:])
    return _calls(w, wrap(w.stacked_twice), 9)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("prog", PROGRAMS, ids=[p.name for p in PROGRAMS])
def test_deque_window(prog, backend):
    check_stateful_program(prog, backend)


def test_more_appends_than_maxlen_read_no_row_held():
    """Three rows appended to a ``maxlen=2`` deque: no row held survives, so the
    stack reads none of them and guards nothing of the deque but its type and
    ``maxlen`` (one entry over every length held)."""
    import dynamo

    class Burst:
        def __init__(self):
            self.d = collections.deque([ROWS[0]], maxlen=2)

        def f(self, x):
            self.d.extend([x, x * 2, x * 3])
            return np.stack(self.d)

    got_obj, want_obj = Burst(), Burst()
    with dynamo.explain(got_obj.f, backend="eager") as f:
        got = [(f(r), list(got_obj.d)) for r in ROWS[:5]]
    want = [(want_obj.f(r), list(want_obj.d)) for r in ROWS[:5]]
    for (a, da), (b, db) in zip(got, want):
        np.testing.assert_array_equal(a, b)
        assert len(da) == len(db) and all(np.array_equal(u, v) for u, v in zip(da, db))
    assert f.report.compile_count == 1, [str(r) for r in f.report.recompiles]


class Replay:
    """A ``deque(maxlen=3)`` of ``(row, reward)`` tuples; comprehensions take the
    rewards and the rows apart (issue #16, t8)."""

    def __init__(self):
        self.d = collections.deque(maxlen=3)

    def push(self, x, r):
        self.d.append((x, r))
        rs = [rr for _, rr in self.d]
        return np.stack([o for o, _ in self.d]).mean(axis=0) * (sum(rs) / len(rs))


@pytest.mark.parametrize("backend", BACKENDS)
def test_rewards_in_tuples_of_a_sliding_deque_are_changing_numbers(backend):
    """The window slides, so the reward at ``d[0][1]`` is another number each call:
    changing once the deque's length changed, as the items of a window are. Before, each
    reward held was guarded by value (``self.d[0][1]: expected 0.0, got 1.0``), one
    entry more. The comprehensions still read the deque item by item: an entry per
    length while it fills (1, 2, 3), then one for the full window."""
    import dynamo

    rewards = [0.0, 1.0, 0.5, -0.5, 1.0, 0.25, 0.75, -1.0, 0.5]
    got_obj, want_obj = Replay(), Replay()
    with dynamo.explain(got_obj.push, backend=backend) as f:
        got = [(f(ROWS[i], r), [rr for _, rr in got_obj.d]) for i, r in enumerate(rewards)]
    want = [(want_obj.push(ROWS[i], r), [rr for _, rr in want_obj.d])
            for i, r in enumerate(rewards)]
    for (a, ra), (b, rb) in zip(got, want):
        np.testing.assert_allclose(a, b, rtol=1e-12)
        assert ra == rb
    reasons = [str(r) for r in f.report.recompiles]
    assert not any("][1]: expected" in r for r in reasons), reasons
    assert f.report.compile_count <= 4, reasons
