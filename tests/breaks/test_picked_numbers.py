"""A Python number an ``if`` on array data picks on each trip of a loop node (a running
argmax's index, a counter ``count += 1``, a float flag value) is carried by the node
as an ``np.int64`` / ``np.float64`` and is eager's Python number after it (issue #19,
``dynamo/translator/picked_numbers.py``). Before, such a loop was unrolled, and past
``config.max_unroll`` it broke.

Each program runs over 40 elements (a loop node), then over 1, 2 and 3 (0, 1 and 2
trips of the node's range: unrolled) and 40 again on one compiled object, NaN among
the values, on both CPU backends: every result is eager's, type included
(``calls_match_eager``), and the first call makes one ``fori_loop`` node and no
break. A counter that may leave int64 reruns the frame's own code (eager's int past
int64); a use of the picked number other than a join or a counter's step (``d[arg]``)
keeps the loop unrolled, with eager's results.
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


def argmax_and_count(d, t):
    arg = -1
    count = 0
    for i in range(len(d)):
        if d[i] > t:
            arg = i
            count += 1
    return arg, count


def count_both_ways(r, start):
    count = start
    for i in range(len(r)):
        if r[i] > 0:
            count += 3
        else:
            count -= 1
    return count


def counted_then_used(r):
    count = 0
    for i in range(len(r)):
        if r[i] > 0:
            count += 1
    return count * 2 + 1, count / 3


def picked_float(d):
    level = 0.5
    for i in range(len(d)):
        if d[i] < 0:
            level = -0.0
    return level


def count_elif(d, t):
    below = 0
    above = 0
    for i in range(len(d)):
        if d[i] < -t:
            below += 1
        elif d[i] > t:          # (the ``elif``'s select asks the node to carry ``above``)
            above += 2
    return below, above


def extremes_elif(d):
    lo = d[0]
    hi = d[0]
    at_lo = 0
    at_hi = 0
    for i in range(len(d)):
        if d[i] < lo:
            lo = d[i]
            at_lo = i
        elif d[i] > hi:
            hi = d[i]
            at_hi = i
    return lo, hi, at_lo, at_hi


def nested_count(m, t):
    count = 0
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):     # (a node nested in the outer one's body)
            if m[i, j] > t:
                count += 1
    return count


def nested_argmax(m):
    best = m[0, 0]
    at = 0
    left = 5
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):
            if m[i, j] > best:
                best = m[i, j]
                at = i * 1000 + j
                left -= 1
    return best, at, left


def split_count(d, t):
    count = 0
    at = -1
    half = len(d) // 2
    for i in range(len(d)):
        if i < half:            # (on the index: the loop splits in two nodes)
            if d[i] > t:
                count += 1
                at = i
        elif d[i] < -t:
            count += 2
    return count, at


def argmin_by_index(d):
    arg = 0
    for i in range(1, len(d)):
        if d[i] < d[arg]:      # (the picked int as an index: no value while tracing)
            arg = i
    return arg


def _data(n, seed):
    x = np.random.default_rng(seed).standard_normal(n)
    x[::7] = np.nan
    return x


_X, _Y = _data(40, 0), _data(40, 1)
_SHORT = [_data(n, n) for n in (1, 2, 3)]
_POS = np.abs(_Y) + 1.0

# name -> (function, arguments per call: a loop node first)
IN_A_NODE = {
    "argmax_and_count": (argmax_and_count, [(_X, 0.2), *((s, 0.2) for s in _SHORT),
                                            (_Y, -0.1)]),
    "count_both_ways": (count_both_ways, [(_X, 5), *((s, 0) for s in _SHORT),
                                          (_Y, -7)]),
    "counted_then_used": (counted_then_used, [(_X,), *((s,) for s in _SHORT), (_Y,)]),
    "picked_float": (picked_float, [(_X,), *((s,) for s in _SHORT), (_POS,)]),
    "split_count": (split_count, [(_X, 0.5), *((s, 0.5) for s in _SHORT), (_Y, 0.1),
                                  (np.full(40, np.nan), 0.5)]),
    "count_elif": (count_elif, [(_X, 0.5), *((s, 0.5) for s in _SHORT), (_Y, 0.1)]),
    "extremes_elif": (extremes_elif, [(_X,), *((s,) for s in _SHORT), (_Y,),
                                      (np.full(40, np.nan),)]),
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
def test_a_number_picked_per_trip_is_carried_by_the_node(name, backend):
    fn, calls = IN_A_NODE[name]
    calls_match_eager(fn, dynamo.compile(fn, backend=backend), calls, [], name)
    nodes = 2 if fn is split_count else 1    # (a split loop: a node per segment)
    assert _loops_and_breaks(fn, calls[0], backend) == (nodes, 1, 0)


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_node_gives_python_numbers(backend):
    x = np.array([0.5, -1.0, np.nan, 2.0, -3.0, 0.25, 4.0, -0.5, 1.0, 0.0, 3.5, -2.0])
    arg, count = dynamo.compile(argmax_and_count, backend=backend)(x, 0.3)
    assert (arg, count) == (10, 5) and type(arg) is int and type(count) is int
    level = dynamo.compile(picked_float, backend=backend)(x)
    assert type(level) is float and str(level) == "-0.0"


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("start", [2 ** 63 - 30, -2 ** 63 + 30])
def test_a_counter_that_may_leave_int64_is_eagers_int(start, backend):
    # (40 trips of +3 or -1 from within 30 of int64's ends: the bound check raises,
    # and the frame's own code counts past int64 as Python does)
    compiled = dynamo.compile(count_both_ways, backend=backend)
    for x in (_X, -np.abs(_Y), np.abs(_Y)):
        got = compiled(x, start)
        assert got == count_both_ways(x, start) and type(got) is int


@pytest.mark.parametrize("backend", BACKENDS)
def test_another_use_of_the_picked_number_keeps_the_loop_unrolled(backend):
    calls_match_eager(argmin_by_index, dynamo.compile(argmin_by_index, backend=backend),
                      [(_POS,), (_POS[::-1].copy(),)], [], "argmin_by_index")
    assert _loops_and_breaks(argmin_by_index, (_POS,), backend)[0] == 0



def _grid(shape, seed):
    m = np.random.default_rng(seed).standard_normal(shape)
    m.flat[::7] = np.nan
    return m


_SHAPES = [(10, 120), (1, 120), (2, 120), (10, 1), (10, 2), (10, 0), (0, 5), (10, 120)]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("fn", "extra"), [(nested_count, (0.5,)), (nested_argmax, ())])
def test_a_number_picked_in_a_nested_node_is_carried_by_both(fn, extra, backend,
                                                             monkeypatch):
    """The inner loop is a node in the outer one's body (``max_unroll`` 100: the
    outer body cannot unroll its 120 trips), the number the outer trip's value, which
    the inner node carries on; 0, 1 and 2 trips of either loop, NaN: eager's."""
    monkeypatch.setattr(dynamo.config, "max_unroll", 100)
    calls = [(_grid(s, k), *extra) for k, s in enumerate(_SHAPES)]
    calls_match_eager(fn, dynamo.compile(fn, backend=backend), calls, [], fn.__name__)
    # (the inner loop in the outer's first trip, unrolled: one; the outer: one)
    assert _loops_and_breaks(fn, calls[0], backend) == (2, 1, 0)


def nested_from(m, count):
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):
            if m[i, j] > 0:
                count += 3
    return count


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_nested_counter_that_may_leave_int64_is_eagers_int(backend, monkeypatch):
    # (10 x 120 trips of +3: the inner node's 360 a trip are the outer node's step,
    # whose bound check raises within 3600 of int64's end, and NumPy's scalar add
    # reports an overflow too: either way the frame's own code runs, Python's int)
    monkeypatch.setattr(dynamo.config, "max_unroll", 100)
    compiled = dynamo.compile(nested_from, backend=backend)
    m = np.ones((10, 120))
    for start in (0, 2 ** 63 - 3601, 2 ** 63 - 3599, 2 ** 63 - 1):
        got = compiled(m, start)
        assert got == nested_from(m, start) and type(got) is int, start
