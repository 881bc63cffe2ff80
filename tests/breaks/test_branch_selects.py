"""An ``if`` on array data that only chooses a value is no graph break (issue #19,
``dynamo/translator/branch_selects.py``, ``dynamo/ops/branches.py``): both ways are
traced, and a ``branch_select`` op picks the taken way's values when the graph runs.

Each program is called on one compiled object with arguments that take one way and
arguments that take the other, in turn, on both CPU backends: results, printed output,
arguments afterwards and warnings are eager's (``check_calls.calls_match_eager``), in
one graph with no break. The untaken way warns nothing (``1 / d`` with ``d == 0``), and
raises nothing (``np.linalg.inv`` of a singular matrix): the graph runs guarded and the
frame reruns. A way with an effect (an append, a print, a write, a random draw, a
Python-level warning), ways that leave two shapes or dtypes or a Python float and an
array, and a write after the ``if`` into an argument keep the break; a write through
the chosen name into an array the graph made reaches the same array as eager's.
"""

import warnings

import branch_select_programs as P
import numpy as np
import pytest
from check_calls import calls_match_eager
from harness import quiet_explain

import dynamo

BACKENDS = ("eager", "numpy")
EYE = np.eye(3) * 2.0
SINGULAR = np.ones((3, 3))

# name -> (function, arguments of one way, arguments of the other)
CHOOSING = {
    "if_else": (P.sign_dispatch, [(np.arange(3.0),)], [(-np.arange(3.0),)]),
    "gradient_clipping": (P.clip_gradient, [(np.ones(4), 1.0)], [(np.ones(4) * 0.1, 1.0)]),
    "several_names": (P.keep_best, [(np.float64(1.0), np.float64(2.0), np.ones(2),
                                     np.zeros(2))],
                      [(np.float64(3.0), np.float64(2.0), np.ones(2), np.zeros(2))]),
    "conditional_expression": (P.scale_by_max, [(np.arange(4.0),)],
                               [(np.arange(4.0) / 10,)]),
    "untaken_way_would_warn": (P.safe_reciprocal, [(np.array(2.0),)], [(np.array(0.0),)]),
    "taken_way_warns": (P.log_if_positive, [(np.array([-0.5, 1.0]),), (np.ones(2),)],
                        [(np.array([-3.0, 1.0]),)]),
    "both_ways_return": (P.returns_either, [(np.ones(3),)], [(np.zeros(3),)]),
    "inlined_helper": (P.inlined_helper, [(np.ones(2), -np.ones(2))],
                       [(-np.ones(2), np.ones(2))]),
    "nested": (P.nested_choice, [(np.arange(4.0),), (np.ones(2) * 0.5,)],
               [(-np.arange(4.0),)]),
    "momentum_step": (P.momentum_step, [(np.ones(3), np.ones(3) * 2, np.zeros(3), 0.1)],
                      [(np.ones(3), np.ones(3) * 0.1, np.zeros(3), 0.1)]),
    "untaken_way_would_raise": (P.inverse_or_identity, [(EYE,)], [(SINGULAR,)]),
    "huber_like": (P.loss_choice, [(np.ones(3) * 3, np.zeros(3))],
                   [(np.ones(3) * 0.5, np.zeros(3))]),
    "returned_argument": (P.returned_argument, [(np.full(3, 20.0),)], [(np.ones(3),)]),
    "write_through_the_chosen_name": (P.write_through_the_chosen_name, [(np.ones(4),)],
                                      [(-np.ones(4),)]),
    "add_in_place_to_the_chosen_name": (P.add_in_place_to_the_chosen_name,
                                        [(np.ones(4),)], [(-np.ones(4),)]),
    "in_a_comprehension": (P.clip_each_in_a_comprehension,
                           [([np.ones(2), np.ones(3)], 1.0)],
                           [([np.ones(2) * 0.1, np.ones(3) * 0.1], 1.0)]),
    "allclose": (P.average_unless_close, [(np.ones(2), np.ones(2))],
                 [(np.ones(2), np.zeros(2))]),
    "and_of_two_tests": (P.both_positive, [(np.ones(2), np.ones(2))],
                         [(np.ones(2), -np.ones(2)), (-np.ones(2), np.ones(2))]),
    "integer_flag": (P.halve_if_any, [(np.ones(2),)], [(np.zeros(2),)]),
}

# name -> (function, arguments): the `if` keeps its break
BREAKING = {
    "append": (P.appends_in_a_way, (np.ones(2), [])),
    "print": (P.prints_in_a_way, (np.ones(2),)),
    "write": (P.writes_in_a_way, (np.ones(2), np.zeros(2))),
    "draw": (P.draws_in_a_way, (np.ones(2), np.random.default_rng(0))),
    "dtypes_differ": (P.dtypes_differ, (np.ones(2),)),
    "shapes_differ": (P.shapes_differ, (np.ones(3),)),
    "python_float_or_array": (P.python_float_or_array, (np.arange(4.0),)),
    "write_after": (P.writes_after, (np.full(2, 4.0), np.zeros(2))),
    "write_into_an_argument_after": (P.writes_an_argument_through_the_chosen_name,
                                     (-np.ones(2), np.ones(2))),
    "python_level_warning": (P.mean_of_empty_selection, (np.ones(3), np.array([1, 2, 1]))),
    "two_names_one_array_one_way": (P.one_way_aliases_two_names, (np.ones(2),)),
    # both ways run on every call: ways of more than 8192 elements cost more than a break
    "ways_too_large": (P.sign_dispatch, (np.arange(4097.0),)),
}


def test_ways_of_a_size_that_can_change_keep_the_break():
    """A size that can change could grow past the budget on a later call: the second
    size compiles the frame with changing sizes, and its ``if`` breaks."""
    compiled = dynamo.compile(P.sign_dispatch, backend="numpy")
    calls_match_eager(P.sign_dispatch, compiled, [(np.arange(3.0),), (np.arange(5.0),)],
                      [(-np.arange(7.0),)], "changing sizes")
    dynamo.reset()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = dynamo.explain(P.sign_dispatch, backend="numpy").calls(
            [(np.arange(3.0),), (np.arange(5.0),)])
    assert len(report.recompiles) == 1, report
    assert report.graph_break_count >= 1, report


def _selects(report) -> int:
    return sum(n.target == "branch_select" for g in report.graphs for n in g.call_nodes())


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", sorted(CHOOSING))
def test_an_if_that_chooses_a_value_is_one_graph(name, backend):
    fn, one_way, other_way = CHOOSING[name]
    calls_match_eager(fn, dynamo.compile(fn, backend=backend), one_way, other_way, name)
    for args in (*one_way, *other_way):
        report = quiet_explain(fn, args, backend)
        assert (report.graph_count, report.graph_break_count) == (1, 0), report
        assert _selects(report) >= 1, report


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", sorted(BREAKING))
def test_an_if_with_an_effect_or_two_kinds_of_value_keeps_its_break(name, backend):
    fn, args = BREAKING[name]
    calls_match_eager(fn, dynamo.compile(fn, backend=backend), [args], [], name)
    report = quiet_explain(fn, args, backend)
    assert report.graph_break_count >= 1, report
    assert _selects(report) == 0, report


def test_the_untaken_way_warns_nothing():
    compiled = dynamo.compile(P.safe_reciprocal, backend="numpy")
    with warnings.catch_warnings():
        warnings.simplefilter("error")            # any warning fails the call
        assert compiled(np.array(0.0)) == 1.0
        assert compiled(np.array(4.0)) == 1.25


def test_the_taken_way_warns_once():
    compiled = dynamo.compile(P.log_if_positive, backend="numpy")
    x = np.array([-0.5, 1.0])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        y = compiled(x)
    assert [str(w.message) for w in caught] == ["divide by zero encountered in log"]
    assert y[0] == -np.inf


def test_the_taken_way_returns_the_array_itself():
    """``branch_select`` returns the taken way's object: eager returns ``g`` unchanged."""
    g = np.ones(3)
    for backend in BACKENDS:
        assert dynamo.compile(P.returned_argument, backend=backend)(g) is g


def test_the_message_of_an_if_that_keeps_its_break():
    report = quiet_explain(P.dtypes_differ, (np.ones(2),), "eager")
    (brk,) = report.break_reasons
    assert brk.reason == "truth value of an array (data-dependent control flow)"
    assert "np.where" in brk.hint


def test_config_branch_selects_off_makes_the_if_a_break():
    dynamo.config.branch_selects = False
    try:
        report = quiet_explain(P.sign_dispatch, (np.arange(3.0),), "eager")
    finally:
        dynamo.config.branch_selects = True
    assert (report.graph_count, report.graph_break_count) == (2, 1)
    assert _selects(report) == 0
