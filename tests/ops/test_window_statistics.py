"""``np.std`` / ``np.var`` of a stack of symbolic length (issue #16): a window of rows
kept in a ``deque(maxlen=...)`` or a growing list, stacked each call. Only the mean's
rule knew such a count is never 0 (``ops/signals.warns_beyond_fp``); a var or std was
taken to warn "Degrees of freedom <= 0", so the graph could not be rerun and the frame
ran uncompiled. Now a var or std is quiet where its least count (1 per symbolic size,
which is never 0) exceeds ``ddof``; with ``ddof=1`` over the symbolic axis alone it
still may warn (a window of one row does, eagerly), and the frame runs as before.
Each program runs against eager with its state compared after every call
(``check_stateful_program``), on both CPU backends, warnings included below.

Example::

    def push(self, x):
        self.window.append(x)                          # deque(maxlen=5)
        return np.std(np.stack(self.window), axis=0)   # compiled, one entry from call 2
"""

import collections
import warnings

import numpy as np
import pytest
from rw_check import BACKENDS
from stateful_programs import registrar
from test_stateful_programs import _measured, check_stateful_program

import dynamo

OBS = [np.random.default_rng(93 + i).standard_normal((2, 3)) for i in range(9)]
PROGRAMS: list = []


program = registrar(PROGRAMS, why="the window's length is symbolic from the second call")


class Window:
    def __init__(self):
        self.rows = collections.deque(maxlen=4)
        self.log = []

    def std_var(self, x):
        self.rows.append(x)
        s = np.stack(self.rows)
        return np.std(s, axis=0), np.var(s, axis=(0, 1)), np.var(s, axis=(0, 2), ddof=2)

    def list_std(self, x):
        self.log.append(x)
        return np.std(np.stack(self.log)) * x


@program(recompiles=1)
def deque_window_std_and_var(wrap):
    w = Window()
    f = wrap(w.std_var)
    return [f(o) for o in OBS], list(w.rows)


@program(recompiles=1)
def growing_list_std(wrap):
    w = Window()
    f = wrap(w.list_std)
    return [f(o) for o in OBS], list(w.log)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("prog", PROGRAMS, ids=[p.name for p in PROGRAMS])
def test_window_statistics(prog, backend):
    check_stateful_program(prog, backend)


@pytest.mark.parametrize("prog", PROGRAMS, ids=[p.name for p in PROGRAMS])
def test_window_statistics_are_compiled(prog):
    """No frame runs uncompiled (a var taken to warn made the graph one that cannot be
    rerun, and the frame ran eagerly)."""
    _, report = _measured(prog, "eager")
    assert not report.skipped, report.skipped
    assert report.graph_break_count == 0


def test_ddof_past_the_least_count_still_warns_as_eagerly():
    """``ddof=1`` over the window's axis alone: a window of one row warns "Degrees of
    freedom <= 0" eagerly, and the compiled call warns the same at every length."""
    def spread(w, x):
        w.append(x)
        return np.var(np.stack(w), axis=0, ddof=1)

    eager_w, compiled_w = collections.deque(maxlen=3), collections.deque(maxlen=3)
    f = dynamo.compile(spread, backend="eager")
    for o in OBS[:5]:
        with warnings.catch_warnings(record=True) as want:
            warnings.simplefilter("always")
            expected = spread(eager_w, o)
        with warnings.catch_warnings(record=True) as got:
            warnings.simplefilter("always")
            result = f(compiled_w, o)
        np.testing.assert_array_equal(result, expected)
        assert [str(w.message) for w in got] == [str(w.message) for w in want]
    assert [a.tolist() for a in compiled_w] == [a.tolist() for a in eager_w]
