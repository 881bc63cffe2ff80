"""An ``if`` on array data whose ways leave a Python int (or float) of two values, a
counter kept in a Python loop over elements (``if int(v) > limit: total += 1``), is no
graph break: the graph picks the number (``np.where(flag, a, b)``) and the name holds
the unbacked number the glue makes of it (issue #19,
``dynamo/translator/number_selects.py``, called by ``translator/branch_selects.py``).
An ``if`` that ends a loop body, whose ways both jump back to the loop's head (3.12+
compile ``if c: total += 1`` there so; 3.11 an ``if``/``else``), joins at the jump back
(``branch_selects._trip_ends``).

Each program is called on one compiled object with arguments that take either way,
in turn, on both CPU backends, and every call's result (type, value) is eager's
(``calls_match_eager``); the explain report pins the graph and break counts. A counter
that leaves int64 (the ``np.where`` raises ``OverflowError``) reruns the frame: eager's
int. Numbers of two types, a bool flag and a use that needs the number while tracing
keep a break, with eager's results; where a way has an effect (``out.append(r)``), the
break of ``float(r.sum()) < tol`` hints at the array forms (``np.count_nonzero``).
"""

from __future__ import annotations

import numpy as np
import pytest
from check_calls import calls_match_eager
from harness import quiet_explain

import dynamo

BACKENDS = ("eager", "numpy")


def count_above_int(x, limit):
    total = 0
    for v in x:
        if int(v) > limit:
            total += 1
    return total


def count_above_float(x, limit):
    total = 0
    for v in x:
        if float(v) > limit:
            total += 1
    return total


def count_equal_pairs(y, p):
    correct = 0
    for a, b in zip(y, p):
        if a == b:
            correct += 1
    return correct / len(y)


def sum_of_halves(x):
    s = -0.0
    for v in x:
        if v > 0:
            s += 0.5
    return s, x * s


def sum_with_else(x):
    s = 0.0
    for v in x:
        if v > 0:
            s += 0.5
        else:
            s -= 0.25
    return s


def half_or_quarter(x):
    if x[0] > 0:
        s = 0.5
    else:
        s = -0.25
    return s, x * s


def past_int64(x):
    total = 2 ** 63 - 2
    for v in x:
        if v > 0:
            total += 1
    return total


def int_or_float(x):
    s = 0
    if x.sum() > 0:
        s = 0.5
    return s


def flag_found(x):
    found = False
    if x.max() > 1:
        found = True
    return found


def count_then_range(x):
    n = 0
    for v in x:
        if v > 0:
            n += 1
    return list(range(n))


_I = np.array([3, 9, 1, 7, 5])
_F = np.array([0.5, -1.0, 2.5, 0.0])

# name -> (function, arguments of one kind, arguments of another)
ONE_GRAPH = {
    "count_above_int": (count_above_int, [(_I, 4)], [(_I[::-1].copy(), 8)]),
    "count_above_float": (count_above_float, [(_F, 0.2)], [(-_F, 0.2)]),
    "count_equal_pairs": (count_equal_pairs, [(_I, _I)], [(_I, _I[::-1].copy())]),
    "sum_of_halves": (sum_of_halves, [(_F,)], [(-_F,)]),
    "half_or_quarter": (half_or_quarter, [(_F,)], [(-_F,)]),
    # (an ``if`` that ends the loop body: both ways jump back to the loop's head)
    "sum_with_else": (sum_with_else, [(_F,)], [(-_F,)]),
    "past_int64": (past_int64, [(-_F,)], [(_F,)]),
}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", sorted(ONE_GRAPH))
def test_a_number_chosen_per_element_is_one_graph(name, backend):
    fn, one, other = ONE_GRAPH[name]
    calls_match_eager(fn, dynamo.compile(fn, backend=backend), one, other, name)
    report = quiet_explain(fn, one[0], backend)
    assert (report.graph_count, report.graph_break_count) == (1, 0), report


def test_the_number_keeps_its_type():
    got = dynamo.compile(count_above_int, backend="eager")(_I, 4)
    assert type(got) is int and got == 3
    got = dynamo.compile(sum_of_halves, backend="eager")(-_F)
    assert type(got[0]) is float and got[0] == 0.5 and got[1].dtype == np.float64
    got = dynamo.compile(sum_of_halves, backend="eager")(-np.abs(_F))
    assert str(got[0]) == "-0.0"   # (no way taken: the -0.0 it started from)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn,breaks", [(int_or_float, 1), (flag_found, 1),
                                       (count_then_range, 1)])
def test_what_the_graph_cannot_hold_keeps_a_break(fn, breaks, backend):
    calls_match_eager(fn, dynamo.compile(fn, backend=backend), [(_F,)], [(-_F * 3,)],
                      fn.__name__)
    report = quiet_explain(fn, (_F,), backend)
    assert report.graph_break_count == breaks, report


def rows_below(X, tol):
    out = []
    for r in X:
        if float(r.sum()) < tol:
            out.append(r)          # (an effect in a way: the `if` keeps its break)
    return out


def test_a_converted_number_needed_per_element_hints_at_the_array_forms():
    X = np.array([[1.0, -2.0], [0.5, 0.5]])
    calls_match_eager(rows_below, dynamo.compile(rows_below,
                                                 backend="eager"), [(X, 0.0)], [(-X, 0.0)],
                      "rows_below")
    (brk,) = quiet_explain(rows_below, (X, 0.0), "eager").break_reasons
    assert brk.reason == "float() of an array converts array data to Python", brk
    assert "np.count_nonzero(x > limit)" in brk.hint and "float() of each" in brk.hint
