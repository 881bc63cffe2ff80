"""An ``if`` on array data that chooses between a NumPy scalar and a Python number
(``tp / (tp + fp) if tp + fp > 0 else 0.0``) is no graph break where the choice is
only returned, stored, or used beside an array (issue #19, ``BranchChoiceVariable`` in
``dynamo/variables/iteration.py``, made by ``translator/branch_selects.py``).

The result's *type* is data (an ``np.float64`` or the float ``0.0``), so the glue picks
after the graph, ``(s if flag else 0.0)``: eager's very object. Each program is called
on one compiled object with arguments that take either way, in turn, on both CPU
backends, and every call's result (type, dtype, value), printed output and warnings
are eager's (``calls_match_eager``); the untaken way's ``0 / 0`` warns nothing (the
graph runs guarded and reruns the frame). A use that needs the number while tracing
(a comparison) breaks there, with eager's results.
"""

from __future__ import annotations

import numpy as np
import pytest
from check_calls import calls_match_eager
from harness import quiet_explain

import dynamo

BACKENDS = ("eager", "numpy")


def precision(y_true, y_pred):
    tp = np.sum((y_true == 1) & (y_pred == 1))
    fp = np.sum((y_true == 0) & (y_pred == 1))
    return tp / (tp + fp) if tp + fp > 0 else 0.0


def ratio_statement(num, den):
    total = den.sum()
    if total != 0:
        ratio = num.sum() / total
    else:
        ratio = 0.0
    return {"ratio": ratio, "n": len(num)}


def both_ways_return(counts):
    denom = counts.sum()            # an int64 scalar: its truth is the flag
    if denom:
        return counts[0] / denom
    return 0


def none_or_mean(x):
    m = x.mean() if x.mean() > 0 else None
    return m, x * 2


def argmax_or_minus_one(x):
    return np.argmax(x) if x.max() > 0 else -1


def beside_an_array(g, c, n):
    scale = c / n if n > 1 else 1.0
    return g * scale


def compared_later(x):
    s = x.sum() if x.sum() > 0 else 0.0
    return s > 1.5, s


_ZERO = np.zeros(4, dtype=np.int64)
_ONES = np.ones(4, dtype=np.int64)
_MIX = np.array([1, 0, 1, 1])

# name -> (function, arguments of one way, arguments of the other)
CHOOSING = {
    "conditional_expression": (precision, [(_MIX, _ONES)], [(_MIX, _ZERO)]),
    "if_else_stored_in_a_dict": (ratio_statement, [(np.arange(3.0), np.ones(3))],
                                 [(np.arange(3.0), np.zeros(3))]),
    "both_ways_return_an_int": (both_ways_return, [(np.array([2, 3]),)],
                                [(np.array([0, 0]),)]),
    "none": (none_or_mean, [(np.arange(3.0),)], [(-np.arange(3.0),)]),
    "int64_or_int": (argmax_or_minus_one, [(np.array([-1.0, 2.0, 0.5]),)],
                     [(-np.ones(3),)]),
    "beside_an_array": (beside_an_array, [(np.ones(3), np.float64(3.0), np.float64(2.0))],
                        [(np.ones(3), np.float64(3.0), np.float64(0.0))]),
}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", sorted(CHOOSING))
def test_a_scalar_or_a_python_number_is_one_graph(name, backend):
    fn, one_way, other_way = CHOOSING[name]
    calls_match_eager(fn, dynamo.compile(fn, backend=backend), one_way, other_way, name)
    for args in (*one_way, *other_way):
        report = quiet_explain(fn, args, backend)
        assert (report.graph_count, report.graph_break_count) == (1, 0), report


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_use_that_needs_the_number_breaks_there(backend):
    fn = compared_later
    calls_match_eager(fn, dynamo.compile(fn, backend=backend), [(np.ones(3),)],
                      [(-np.ones(3),)], "compared_later")
    report = quiet_explain(fn, (np.ones(3),), backend)
    assert report.graph_break_count == 1, report
    (brk,) = report.break_reasons     # at the comparison (it was at the `if`), with its reason
    assert brk.source_line.strip() == "return s > 1.5, s", brk
    assert brk.reason == "truth value of an array (data-dependent control flow)"


def is_none_of_a_choice(x):
    p = x.max() if x.sum() > 0 else None
    return p is None, p


def if_choice_is_none(x):
    p = x.max() if x.sum() > 0 else None
    if p is None:               # (3.11+: POP_JUMP_IF_NOT_NONE, not IS_OP)
        return -x
    return x * p


def bool_scalar_or_int(x8):
    p = (x8 > 0).all() if x8.sum() > 0 else 1
    return x8 + p


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", [is_none_of_a_choice, if_choice_is_none])
def test_is_none_of_a_value_that_may_be_none_is_not_answered_while_tracing(fn, backend):
    """Round 38 (issue #17): ``p is None`` answered False for every ``p`` the glue
    picks (a number is never None), where one way of the ``if`` gave None."""
    calls_match_eager(fn, dynamo.compile(fn, backend=backend), [(np.arange(3.0),)],
                      [(-np.arange(3.0),)], fn.__name__)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_bool_scalar_or_an_int_beside_an_int8_array_keeps_int8(backend):
    """Round 38 (issue #17): ``where(flag, np.bool_, 1)`` is int64, so the select that
    stood for the choice made ``x8 + p`` int64 where eager's is int8 either way."""
    x8 = np.array([1, 2, 3], dtype=np.int8)
    calls_match_eager(bool_scalar_or_int, dynamo.compile(bool_scalar_or_int,
                                                         backend=backend),
                      [(x8,)], [(-x8,)], "bool_scalar_or_int")
