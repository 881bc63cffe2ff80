"""An ``if`` on array data whose way writes into an array the graph made (a forward
fill, a clamp per element, an if/else filling an output) is no graph break: the write
is made as ``x[i] = np.where(flag, v, x[i])`` at the join (issue #19,
``dynamo/translator/select_writes.py``, called by ``translator/branch_selects.py``).

Each program is called on one compiled object with arguments that take either way, in
turn, on both CPU backends, and every call's result (type, dtype, value) is eager's
(``calls_match_eager``); the explain report pins the graph and break counts. A write
into an input, a value that the target's dtype cannot hold as it is (float64 into a
float32 array) and a read of the written array after the write in the same way keep
the ``if``'s break, with eager's results and eager's writes into the arguments.
"""

from __future__ import annotations

import numpy as np
import pytest
from check_calls import calls_match_eager
from harness import quiet_explain

import dynamo

BACKENDS = ("eager", "numpy")


def forward_fill(x):
    x = x.copy()
    for i in range(1, len(x)):
        if np.isnan(x[i]):
            x[i] = x[i - 1]
    return x


def clamp_each(x, hi):
    x = x.copy()
    for i in range(len(x)):
        if x[i] > hi:
            x[i] = hi
    return x


def fill_if_else(x):
    y = np.zeros(len(x), dtype=np.int64)
    for i in range(len(x)):
        if x[i] > 0:
            y[i] = 3
        else:
            y[i] = -1
    return y


def log_skewed_columns(X):
    out = X.copy()
    for j in range(X.shape[1]):
        if abs(out[:, j].mean()) > 0.1:
            out[:, j] = np.log1p(np.abs(out[:, j]))
    return out


def running_max_and_flags(x):
    a = x.copy()
    b = np.zeros(len(x))
    for i in range(1, len(x)):
        if a[i] < a[i - 1]:
            a[i] = a[i - 1]
            b[i] = 1.0
    return a, b


def into_input(x):
    for i in range(len(x)):
        if x[i] > 0:
            x[i] = 0.0
    return x


def narrowing(x):
    y = x.astype(np.float32)
    for i in range(len(x)):
        if y[i] < 0:
            y[i] = x[i]       # (float64 into float32: rounded, not held as it is)
    return y


def read_after_write(x):
    a = x.copy()
    for i in range(len(x)):
        if a[i] < 0:
            a[i] = 0.0
            a[i] += 1.0
    return a


_GAPS = np.array([1.0, np.nan, np.nan, 2.5, np.nan, -1.0])
_F = np.array([0.5, -1.0, 2.5, 0.0, -0.25])
_X = np.array([[0.5, -0.01, 2.0], [1.5, 0.02, -0.5], [0.1, -0.02, 0.3]])

# name -> (function, arguments of one kind, arguments of another)
ONE_GRAPH = {
    "forward_fill": (forward_fill, [(_GAPS,)], [(_GAPS[::-1].copy(),)]),
    "clamp_each": (clamp_each, [(_F, 0.3)], [(-_F, 0.3)]),
    "fill_if_else": (fill_if_else, [(_F,)], [(-_F,)]),
    "log_skewed_columns": (log_skewed_columns, [(_X,)], [(_X * 0.01,)]),
    "running_max_and_flags": (running_max_and_flags, [(_F,)], [(np.sort(_F),)]),
}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", sorted(ONE_GRAPH))
def test_a_write_chosen_per_element_is_one_graph(name, backend):
    fn, one, other = ONE_GRAPH[name]
    calls_match_eager(fn, dynamo.compile(fn, backend=backend), one, other, name)
    report = quiet_explain(fn, one[0], backend)
    assert (report.graph_count, report.graph_break_count) == (1, 0), report


def test_the_written_values_keep_their_dtype():
    got = dynamo.compile(fill_if_else, backend="eager")(_F)
    assert got.dtype == np.int64 and got.tolist() == [3, -1, 3, -1, -1]
    got = dynamo.compile(forward_fill, backend="numpy")(_GAPS)
    assert got.tolist() == [1.0, 1.0, 1.0, 2.5, 2.5, -1.0]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", [into_input, narrowing, read_after_write])
def test_what_the_select_cannot_write_keeps_a_break(fn, backend):
    compiled = dynamo.compile(fn, backend=backend)
    calls_match_eager(fn, compiled, [(_F,)], [(-_F,)], fn.__name__)
    want, got = _F.copy(), _F.copy()
    fn(want)
    compiled(got)
    assert np.array_equal(want, got)      # (the input written as eager writes it)
    assert quiet_explain(fn, (_F,), backend).graph_break_count >= 1


def clip_both_ways(x, limit):
    y = x.copy()
    for i in range(len(y)):
        if y[i] > limit:
            y[i] = limit
        elif y[i] < -limit:
            y[i] = -limit
    return y


def reflect_in_box(pos, vel, L):
    pos = pos.copy()
    vel = vel.copy()
    for k in range(len(pos)):
        if pos[k] < 0:
            pos[k] = -pos[k]
            vel[k] = -vel[k]
        elif pos[k] > L:
            pos[k] = 2 * L - pos[k]
            vel[k] = -vel[k]
    return pos, vel


def elif_into_views(x):
    y = x.copy()
    head = y[:3]
    for i in range(3):
        if y[i] > 1:
            y[i] = 1.0
        elif y[i] < 0:
            y[i] = 0.0
        else:
            head[i] = 5.0     # (y's memory: the elif's two ways would write it twice)
    return y


_P = np.array([-0.5, 1.0, 2.5, 0.2])
_V = np.array([1.0, -2.0, 0.5, 3.0])

ELIF = {
    "clip_both_ways": (clip_both_ways, [(_F * 2, 1.0)], [(-_F * 2, 1.0)]),
    "reflect_in_box": (reflect_in_box, [(_P, _V, 2.0)], [(_P[::-1] * 0.5, _V, 2.0)]),
}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", sorted(ELIF))
def test_an_elif_that_writes_is_one_graph(name, backend):
    fn, one, other = ELIF[name]
    calls_match_eager(fn, dynamo.compile(fn, backend=backend), one, other, name)
    report = quiet_explain(fn, one[0], backend)
    assert (report.graph_count, report.graph_break_count) == (1, 0), report


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_elif_writing_one_memory_twice_keeps_a_break(backend):
    x = np.array([2.0, -1.0, 0.5, 4.0])
    calls_match_eager(elif_into_views, dynamo.compile(elif_into_views, backend=backend),
                      [(x,)], [(-x,)], "elif_into_views")
    assert quiet_explain(elif_into_views, (x,), backend).graph_break_count >= 1
