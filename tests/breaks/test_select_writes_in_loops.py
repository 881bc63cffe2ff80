"""An ``if`` on array data in the body of a loop too long to unroll (a forward fill, a
clamp, a reflecting boundary over thousands of elements) is a select inside the loop
node's body: per trip, ``x[i] = np.where(flag, v, x[i])`` and a carried NumPy scalar
chosen by the flag (issue #19, ``translator/branch_selects.py`` with
``translator/select_writes.py``, in a ``LoopScope``).

Each program runs over 40 elements (past ``config.loop_unroll_limit``: a loop node),
then over 1, 2 and 3 (0, 1 and 2 trips of ``range(1, n)``) and 40 again, on one
compiled object, NaN among the values: every call's result is eager's bit for bit
(``calls_match_eager``), and the first call's graphs hold one ``fori_loop`` node and
no break (a Python int chosen per trip, ``arg = i``, too: ``picked_numbers``). A
write into an input keeps the break, with eager's results and eager's writes into
the arguments.
"""

from __future__ import annotations

import copy
import warnings

import numpy as np
import pytest
from check_calls import calls_match_eager

import dynamo
from dynamo import listeners

BACKENDS = ("eager", "numpy")


def forward_fill(x):
    x = x.copy()
    for i in range(1, len(x)):
        if np.isnan(x[i]):
            x[i] = x[i - 1]
    return x


def clamp(x, hi):
    x = x.copy()
    for i in range(1, len(x)):
        if x[i] > hi:
            x[i] = hi
    return x


def reflect(pos, vel):
    pos = pos.copy()
    vel = vel.copy()
    for k in range(1, len(pos)):
        if pos[k] < 0:
            pos[k] = -pos[k]
            vel[k] = -vel[k]
    return pos, vel


def clip_both_ways(y, lim):
    y = y.copy()
    for i in range(1, len(y)):
        if y[i] > lim:
            y[i] = lim
        elif y[i] < -lim:
            y[i] = -lim
    return y


def running_min(d):
    best = d[0]
    for i in range(1, len(d)):
        if d[i] < best:
            best = d[i]
    return best


def into_input(x):
    for i in range(1, len(x)):
        if x[i] > 0:
            x[i] = 0.0
    return x


def running_argmin(d):
    best = d[0]
    arg = 0
    for i in range(1, len(d)):
        if d[i] < best:
            best = d[i]
            arg = i
    return best, arg


def _data(n, seed):
    x = np.random.default_rng(seed).standard_normal(n)
    x[::3] = np.nan
    x[1:2] = -0.0
    return x


_X, _Y = _data(40, 0), _data(40, 1)
_SHORT = [_data(n, n) for n in (1, 2, 3)]     # 0, 1 and 2 trips
_D = np.abs(np.nan_to_num(_X)) + 0.5

# name -> (function, arguments per call: 40 elements first)
IN_A_NODE = {
    "forward_fill": (forward_fill, [(_X,), *((s,) for s in _SHORT), (_Y,)]),
    "clamp": (clamp, [(_X, 0.3), *((s, 0.3) for s in _SHORT), (_Y, -0.2)]),
    "reflect": (reflect, [(_X, _Y), *((s, s * 2) for s in _SHORT), (_Y, _X)]),
    "clip_both_ways": (clip_both_ways, [(_X, 0.5), *((s, 0.5) for s in _SHORT),
                                        (_Y * 2, 1.0)]),
    "running_min": (running_min, [(_D,), *((np.abs(s),) for s in _SHORT), (_D[::-1],)]),
    # (``arg = i``: a Python int picked per trip, carried by the node, picked_numbers)
    "running_argmin": (running_argmin, [(_D,), *((np.abs(s),) for s in _SHORT),
                                        (_D[::-1],)]),
}


class _Graphs:
    def __init__(self):
        self.graphs = []

    def on_graph(self, graph, ctx):
        self.graphs.append(graph)


def _loops_and_breaks(fn, args, backend):
    with listeners.listening(_Graphs()) as seen, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = dynamo.explain(fn, backend=backend)(*copy.deepcopy(args))
    loops = sum(n.target == "fori_loop" for g in seen.graphs for n in g.call_nodes())
    return loops, report.graph_count, report.graph_break_count


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", sorted(IN_A_NODE))
def test_a_write_chosen_per_trip_is_a_loop_node(name, backend):
    fn, calls = IN_A_NODE[name]
    calls_match_eager(fn, dynamo.compile(fn, backend=backend), calls, [], name)
    assert _loops_and_breaks(fn, calls[0], backend) == (1, 1, 0)


def test_the_node_fills_and_clamps_as_eager():
    x = np.array([1.0, np.nan, np.nan, 2.5, np.nan, -1.0, np.nan, np.nan, 0.5, np.nan,
                  np.nan, 4.0])
    got = dynamo.compile(forward_fill, backend="numpy")(x)
    assert got.tolist() == [1.0, 1.0, 1.0, 2.5, 2.5, -1.0, -1.0, -1.0, 0.5, 0.5, 0.5, 4.0]
    got = dynamo.compile(clamp, backend="eager")(np.arange(12.0), 4.5)
    assert got.tolist() == [*range(5), *[4.5] * 7]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", [into_input])
def test_what_a_trip_cannot_choose_keeps_a_break(fn, backend):
    args = (_D - 1.0,)
    calls_match_eager(fn, dynamo.compile(fn, backend=backend), [args, (_D[::-1] - 1,)],
                      [], fn.__name__)
    want, got = args[0].copy(), args[0].copy()
    fn(want)
    dynamo.compile(fn, backend=backend)(got)
    assert np.array_equal(want, got)      # (the input written as eager writes it)
    loops, _, breaks = _loops_and_breaks(fn, args, backend)
    assert loops == 0 and breaks >= 1     # (the write into the input breaks)
